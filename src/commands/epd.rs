//! `horizon epd <file> [--movetime ms] [--depth D] [--hash MB] [--eval classical|nnue]
//! [--evalfile FILE] [--progress]`: searches each position of a `bm`/`am` test suite, prints
//! each miss and `N solved of M`.

use super::args::{Args, HASH_MB};
use super::evaluation;
use super::output::say;
use super::progress::{self, Progress};
use super::subcommand::{read_input, Exit, Outcome, Subcommand};
use crate::epd::parse_epd;
use crate::search::params::MAX_PLY;
use crate::search::time::Clock;
use crate::search::{tt::TranspositionTable, Control, Limits, Searcher, Silent};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

pub const COMMAND: Subcommand = Subcommand {
    name: "epd",
    help: "  epd <file>                       solve a bm/am test suite [--movetime ms] [--depth D] [--hash MB] [--progress]\n                                   [--eval classical|nnue] [--evalfile FILE]",
    run,
    claims: None,
};

const USAGE: &str =
    "usage: horizon epd <file> [--movetime ms] [--depth D] [--hash MB] [--eval classical|nnue] [--evalfile FILE] [--progress]";
/// Default time per position, in milliseconds.
const DEFAULT_MOVETIME_MS: u64 = 1000;
/// The longest `--movetime`: an hour a position.
const MAX_MOVETIME_MS: u64 = 3_600_000;
/// Default hash size (MiB).
const DEFAULT_HASH_MB: usize = 64;

fn run(argv: &[String]) -> Outcome {
    let a = Args::parse(
        argv,
        &["--movetime", "--depth", "--hash", evaluation::FLAGS[0], evaluation::FLAGS[1]],
        &["--progress"],
    )?;
    let path = a.positional(1, 1, USAGE)?[0];
    let movetime = a.number("--movetime", 1..=MAX_MOVETIME_MS)?;
    let depth = a.number("--depth", 1..=MAX_PLY as i32)?;
    let hash = a.number("--hash", HASH_MB)?.unwrap_or(DEFAULT_HASH_MB);
    let network = evaluation::choose(&a)?;
    // A depth alone searches to that depth without a time limit.
    let movetime = match (movetime, depth) {
        (None, None) => Some(DEFAULT_MOVETIME_MS),
        (m, _) => m,
    };
    let text = read_input(path)?;
    let tt = Arc::new(TranspositionTable::new(hash));
    let control = Arc::new(Control::default());
    let mut searcher = Searcher::new(tt.clone(), control);
    searcher.set_network(network);
    let (mut solved, mut total) = (0, 0);
    let records = text.lines().filter(|l| !(l.trim().is_empty() || l.starts_with('#'))).count();
    let shown = Arc::new((AtomicUsize::new(0), AtomicUsize::new(0)));
    let reporter = progress::start(Progress::choose(a.has("--progress"), true), {
        let (shown, start) = (shown.clone(), Instant::now());
        move || {
            let tried = shown.1.load(Ordering::Relaxed);
            let eta = progress::eta(start.elapsed().as_secs_f64(), tried as u64, records as u64);
            format!("epd: {} solved / {tried} tried of {records}, ETA {eta}", shown.0.load(Ordering::Relaxed))
        }
    });
    for (lineno, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        total += 1;
        shown.1.store(total - 1, Ordering::Relaxed);
        let rec = match parse_epd(line) {
            Ok(r) => r,
            Err(e) => {
                say!("line {}: unreadable: {e}", lineno + 1);
                continue;
            }
        };
        tt.clear();
        searcher.clear();
        let limits = Limits {
            depth,
            clock: Clock { movetime_ms: movetime, ..Clock::default() },
            multipv: 1,
            ..Limits::default()
        };
        let r = searcher.search(&rec.board, limits, &mut Silent);
        let ok = (rec.bm.is_empty() || rec.bm.contains(&r.best)) && !rec.am.contains(&r.best);
        if ok {
            solved += 1;
            shown.0.store(solved, Ordering::Relaxed);
        } else {
            let mut b = rec.board.clone();
            let played = crate::san::to_san(&mut b, r.best);
            let want: Vec<String> = rec.bm.iter().map(|&m| crate::san::to_san(&mut b, m)).collect();
            let avoid: Vec<String> = rec.am.iter().map(|&m| crate::san::to_san(&mut b, m)).collect();
            say!(
                "miss {}: played {played}{}{} (depth {})",
                if rec.id.is_empty() { format!("line {}", lineno + 1) } else { rec.id.clone() },
                if want.is_empty() { String::new() } else { format!(", bm {}", want.join(" ")) },
                if avoid.is_empty() { String::new() } else { format!(", am {}", avoid.join(" ")) },
                r.depth
            );
        }
    }
    shown.1.store(total, Ordering::Relaxed);
    reporter.finish();
    say!("{solved} solved of {total}");
    Ok(Exit::Ok)
}
