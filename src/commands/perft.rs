//! `horizon perft <depth> [<fen>] [<moves>] [--no-bulk] [--threads N] [--hash MB] [--json] [--progress]`
//!
//! Prints `<move> <count>` per root move, an empty line and the total (the format `perftree`
//! reads), or one JSON object with `--json`; time and speed go to stderr.

use super::args::{self, Args, PERFT_DEPTH, THREADS};
use super::json;
use super::output::emit;
use super::progress::{self, Progress};
use super::subcommand::{Exit, Failure, Outcome, Subcommand};
use crate::perft::{Perft, PerftCounters, PerftOptions};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;

pub const COMMAND: Subcommand = Subcommand {
    name: "perft",
    help: "  perft <depth> [<fen>] [<moves>]  per-move counts and total [--no-bulk] [--threads N] [--hash MB]\n                                   [--json] [--progress]",
    run,
    claims: None,
};

const USAGE: &str =
    "usage: horizon perft <depth> [<fen>] [<moves>] [--no-bulk] [--threads N] [--hash MB] [--json] [--progress]";
/// Options with a value, shared with `perft-suite`.
pub(super) const VALUE_FLAGS: [&str; 2] = ["--threads", "--hash"];
/// Boolean options, shared with `perft-suite`.
pub(super) const BOOL_FLAGS: [&str; 3] = ["--no-bulk", "--json", "--progress"];
/// `--hash`: 0 (no table) up to the largest hash size.
const PERFT_HASH_MB: std::ops::RangeInclusive<usize> = 0..=*args::HASH_MB.end();
/// `perft` shows progress on a terminal from this depth on (shallower runs take a moment).
const PROGRESS_DEPTH: u32 = 7;

/// The perft options of `--no-bulk`, `--threads` and `--hash` (shared with `perft-suite`).
pub(super) fn options(a: &Args) -> Result<PerftOptions, Failure> {
    let mut o = PerftOptions { bulk: !a.has("--no-bulk"), ..PerftOptions::default() };
    o.threads = a.number("--threads", THREADS)?.unwrap_or(o.threads);
    o.hash_mb = a.number("--hash", PERFT_HASH_MB)?.unwrap_or(o.hash_mb);
    Ok(o)
}

/// The progress line of a running `perft`.
fn status(depth: u32, c: &PerftCounters, start: Instant) -> String {
    let secs = start.elapsed().as_secs_f64();
    let nodes = c.nodes.load(Ordering::Relaxed);
    format!(
        "perft {depth}: {}/{} root moves, {} nodes, {} nodes/s, ETA {}",
        c.roots_done.load(Ordering::Relaxed),
        c.roots_total.load(Ordering::Relaxed),
        progress::si(nodes as f64),
        progress::si(nodes as f64 / secs.max(1e-9)),
        progress::eta(secs, c.tasks_done.load(Ordering::Relaxed) as u64, c.tasks_total.load(Ordering::Relaxed) as u64)
    )
}

fn run(argv: &[String]) -> Outcome {
    let a = Args::parse(argv, &VALUE_FLAGS, &BOOL_FLAGS)?;
    let pos = a.positional(1, 3, USAGE)?;
    let opts = options(&a)?;
    let depth = args::number("depth", pos[0], PERFT_DEPTH)?;
    let board = args::position(pos.get(1).copied(), pos.get(2).copied()).map_err(Failure::input)?;
    let runner = Perft::new(opts).map_err(Failure::input)?;
    let counters = Arc::new(PerftCounters::default());
    let start = Instant::now();
    let show = Progress::choose(a.has("--progress"), depth >= PROGRESS_DEPTH);
    let reporter = progress::start(show, {
        let counters = counters.clone();
        move || status(depth, &counters, start)
    });
    let split = runner.divide_counted(&board, depth, &counters);
    reporter.finish();
    let total: u64 = if depth == 0 { 1 } else { split.iter().map(|(_, n)| n).sum() };
    let secs = start.elapsed().as_secs_f64();
    let nps = total as f64 / secs.max(1e-9);
    let chess960 = board.is_chess960();
    let mut out = String::new();
    if a.has("--json") {
        let divide: Vec<String> = split
            .iter()
            .map(|(m, n)| format!("{{\"move\": {}, \"nodes\": {n}}}", json::string(&m.uci(chess960).to_string())))
            .collect();
        out.push_str(&format!(
            "{{\"fen\": {}, \"depth\": {depth}, \"nodes\": {total}, \"divide\": [{}], \"seconds\": {}, \"nps\": {}}}\n",
            json::string(&board.to_fen()),
            divide.join(", "),
            json::number(secs),
            json::number(nps.round())
        ));
    } else {
        for (m, n) in &split {
            out.push_str(&format!("{} {}\n", m.uci(chess960), n));
        }
        out.push('\n');
        out.push_str(&format!("{total}\n"));
    }
    emit(&out);
    eprintln!("time {:.3} s, {:.1} M nodes/s", secs, nps / 1e6);
    Ok(Exit::Ok)
}
