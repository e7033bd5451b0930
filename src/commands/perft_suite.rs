//! `horizon perft-suite <file.epd> [--max-depth D] [--max-nodes N] [--threads N] [--hash MB] [--json] [--progress]`
//!
//! Checks every count of an EPD perft suite (`FEN ;D1 20 ;D2 400 ...`, see
//! `crate::perft::suite`). Prints each wrong count and unreadable line, then
//! `<passed> passed, <failed> failed` (or one JSON object with `--json`); exit code 1 if
//! anything failed.

use super::args::Args;
use super::output::say;
use super::progress::{self, Progress};
use super::subcommand::{read_input, Exit, Failure, Outcome, Subcommand};
use super::{json, perft};
use crate::board::Board;
use crate::perft::{parse_suite_line, Perft};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

pub const COMMAND: Subcommand = Subcommand {
    name: "perft-suite",
    help: "  perft-suite <file.epd>           check an EPD perft suite [--max-depth D] [--max-nodes N] [--threads N]\n                                   [--hash MB] [--json] [--progress]",
    run,
    claims: None,
};

const USAGE: &str = "usage: horizon perft-suite <file.epd> [--max-depth D] [--max-nodes N] [--threads N] [--hash MB] [--json] [--progress]";

/// One checked count of a suite, for the report.
struct SuiteResult {
    line: usize,
    fen: String,
    depth: u32,
    expected: u64,
    got: u64,
}

fn run(argv: &[String]) -> Outcome {
    let mut valued = vec!["--max-depth", "--max-nodes"];
    valued.extend(perft::VALUE_FLAGS);
    let a = Args::parse(argv, &valued, &perft::BOOL_FLAGS)?;
    let path = a.positional(1, 1, USAGE)?[0];
    let opts = perft::options(&a)?;
    let max_depth = a.number("--max-depth", 0..=u32::MAX)?.unwrap_or(u32::MAX);
    let max_nodes = a.number("--max-nodes", 0..=u64::MAX)?.unwrap_or(u64::MAX);
    let text = read_input(path)?;
    // One runner (and one hash table) for the whole suite.
    let runner = Perft::new(opts).map_err(Failure::input)?;
    let json_out = a.has("--json");
    let positions = text.lines().filter(|l| !l.trim().is_empty() && !l.trim().starts_with('#')).count();
    // Positions done and failures so far, for the progress line.
    let shown = Arc::new((AtomicUsize::new(0), AtomicUsize::new(0)));
    let start = Instant::now();
    let reporter = progress::start(Progress::choose(a.has("--progress"), true), {
        let shown = shown.clone();
        move || {
            let done = shown.0.load(Ordering::Relaxed);
            let eta = progress::eta(start.elapsed().as_secs_f64(), done as u64, positions as u64);
            format!("perft-suite: {done}/{positions} positions, {} failed, ETA {eta}", shown.1.load(Ordering::Relaxed))
        }
    });
    let (mut results, mut errors) = (Vec::new(), Vec::new());
    for (lineno, line) in text.lines().enumerate() {
        let problem = match parse_suite_line(line) {
            Ok(Some(entry)) => match Board::from_fen(&entry.fen) {
                Ok(board) => {
                    for &(depth, expected) in &entry.depths {
                        if depth > max_depth || expected > max_nodes {
                            continue;
                        }
                        let got = runner.count(&board, depth);
                        if got != expected {
                            shown.1.fetch_add(1, Ordering::Relaxed);
                            if !json_out {
                                say!("FAIL {} depth {depth}: expected {expected}, got {got}", entry.fen);
                            }
                        }
                        results.push(SuiteResult { line: lineno + 1, fen: entry.fen.clone(), depth, expected, got });
                    }
                    None
                }
                Err(e) => Some(format!("{e}: {}", entry.fen)),
            },
            Ok(None) => continue,
            Err(e) => Some(format!("unreadable: {e}")),
        };
        if let Some(problem) = problem {
            shown.1.fetch_add(1, Ordering::Relaxed);
            if !json_out {
                say!("line {}: {problem}", lineno + 1);
            }
            errors.push((lineno + 1, problem));
        }
        shown.0.fetch_add(1, Ordering::Relaxed);
    }
    reporter.finish();
    let secs = start.elapsed().as_secs_f64();
    let nodes: u64 = results.iter().map(|r| r.got).sum();
    let passed = results.iter().filter(|r| r.got == r.expected).count();
    let failed = results.len() - passed + errors.len();
    eprintln!("{nodes} nodes in {secs:.2} s, {:.1} M nodes/s", nodes as f64 / secs.max(1e-9) / 1e6);
    if json_out {
        let checks: Vec<String> = results
            .iter()
            .map(|r| {
                format!(
                    "{{\"line\": {}, \"fen\": {}, \"depth\": {}, \"expected\": {}, \"nodes\": {}, \"ok\": {}}}",
                    r.line,
                    json::string(&r.fen),
                    r.depth,
                    r.expected,
                    r.got,
                    r.got == r.expected
                )
            })
            .collect();
        let errs: Vec<String> =
            errors.iter().map(|(l, e)| format!("{{\"line\": {l}, \"error\": {}}}", json::string(e))).collect();
        say!(
            "{{\"file\": {}, \"passed\": {passed}, \"failed\": {failed}, \"nodes\": {nodes}, \"seconds\": {}, \"checks\": [{}], \"errors\": [{}]}}",
            json::string(path),
            json::number(secs),
            checks.join(", "),
            errs.join(", ")
        );
    } else {
        say!("{passed} passed, {failed} failed");
    }
    Ok(if failed > 0 { Exit::Found } else { Exit::Ok })
}
