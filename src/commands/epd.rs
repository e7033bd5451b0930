//! `horizon epd <file> [--movetime ms] [--depth D] [--hash MB] [--eval classical|nnue]
//! [--evalfile FILE] [--times] [--progress]`: searches each position of a `bm`/`am` test
//! suite, prints each miss and `N solved of M`; with `--times`, also when each solved
//! position's answer was found (and kept to the end of its search).

use super::args::{Args, HASH_MB};
use super::evaluation;
use super::output::say;
use super::progress::{self, Progress};
use super::subcommand::{read_input, Exit, Outcome, Subcommand};
use crate::epd::parse_epd;
use crate::moves::Move;
use crate::search::params::MAX_PLY;
use crate::search::time::Clock;
use crate::search::{tt::TranspositionTable, Control, Limits, Report, Reporter, Searcher};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

pub const COMMAND: Subcommand = Subcommand {
    name: "epd",
    help: "  epd <file>                       solve a bm/am test suite [--movetime ms] [--depth D] [--hash MB] [--progress]\n                                   [--eval classical|nnue] [--evalfile FILE] [--times]",
    run,
    claims: None,
};

const USAGE: &str =
    "usage: horizon epd <file> [--movetime ms] [--depth D] [--hash MB] [--eval classical|nnue] [--evalfile FILE] [--times] [--progress]";
/// Default time per position, in milliseconds.
const DEFAULT_MOVETIME_MS: u64 = 1000;
/// The longest `--movetime`: an hour a position.
const MAX_MOVETIME_MS: u64 = 3_600_000;
/// Default hash size (MiB).
const DEFAULT_HASH_MB: usize = 64;

/// Watches a search's reports for the moment it settles on a right answer: the time and depth
/// of the first report from which every later one's first move is right.
struct SolveClock<'a> {
    right: &'a dyn Fn(Move) -> bool,
    found: Option<(Duration, i32)>,
}

impl Reporter for SolveClock<'_> {
    fn report(&mut self, r: &Report) {
        let Some(&first) = r.pv.first() else { return };
        if !(self.right)(first) {
            self.found = None;
        } else if self.found.is_none() {
            self.found = Some((r.time, r.depth));
        }
    }
}

fn run(argv: &[String]) -> Outcome {
    let a = Args::parse(
        argv,
        &["--movetime", "--depth", "--hash", evaluation::FLAGS[0], evaluation::FLAGS[1]],
        &["--progress", "--times"],
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
    let times = a.has("--times");
    let (mut solved, mut total) = (0, 0);
    let mut solve_time = Duration::ZERO;
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
        let right = |m: Move| (rec.bm.is_empty() || rec.bm.contains(&m)) && !rec.am.contains(&m);
        let started = Instant::now();
        let mut clock = SolveClock { right: &right, found: None };
        let r = searcher.search(&rec.board, limits, &mut clock);
        let mut b = rec.board.clone();
        let played = crate::san::to_san(&mut b, r.best);
        if right(r.best) {
            solved += 1;
            shown.0.store(solved, Ordering::Relaxed);
            if times {
                // A right move the reports never showed last was found as the search ended.
                let (t, d) = clock.found.unwrap_or((started.elapsed(), r.depth));
                solve_time += t;
                say!("solved {}: {played} at depth {d}, {:.3} s", name(&rec.id, lineno), t.as_secs_f64());
            }
        } else {
            let want: Vec<String> = rec.bm.iter().map(|&m| crate::san::to_san(&mut b, m)).collect();
            let avoid: Vec<String> = rec.am.iter().map(|&m| crate::san::to_san(&mut b, m)).collect();
            say!(
                "miss {}: played {played}{}{} (depth {})",
                name(&rec.id, lineno),
                if want.is_empty() { String::new() } else { format!(", bm {}", want.join(" ")) },
                if avoid.is_empty() { String::new() } else { format!(", am {}", avoid.join(" ")) },
                r.depth
            );
        }
    }
    shown.1.store(total, Ordering::Relaxed);
    reporter.finish();
    if times {
        let mean = if solved == 0 { 0.0 } else { solve_time.as_secs_f64() / solved as f64 };
        say!("solve time: {:.3} s in all, {mean:.3} s a solved position", solve_time.as_secs_f64());
    }
    say!("{solved} solved of {total}");
    Ok(Exit::Ok)
}

/// A record's name in the output: its `id`, or its line number.
fn name(id: &str, lineno: usize) -> String {
    if id.is_empty() {
        format!("line {}", lineno + 1)
    } else {
        id.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::search::{Bound, Score};

    fn report(depth: i32, ms: u64, first: Move) -> Report {
        Report {
            depth,
            seldepth: depth as usize,
            multipv: 1,
            score: Score::Cp(0),
            bound: Bound::Exact,
            nodes: 0,
            time: Duration::from_millis(ms),
            hashfull: 0,
            tbhits: 0,
            pv: vec![first],
        }
    }

    /// The solve time is that of the first report from which the answer stays right: a right
    /// move that a wrong one replaces later does not count. Without the reset on a wrong
    /// report the clock would say depth 2.
    #[test]
    fn solve_clock_keeps_the_moment_the_answer_stays() {
        let b = Board::startpos();
        let (good, bad) = (b.parse_uci_move("e2e4").unwrap(), b.parse_uci_move("a2a3").unwrap());
        let right = |m: Move| m == good;
        let mut clock = SolveClock { right: &right, found: None };
        for (depth, mv) in [(1, bad), (2, good), (3, bad), (4, good), (5, good)] {
            clock.report(&report(depth, 10 * depth as u64, mv));
        }
        assert_eq!(clock.found, Some((Duration::from_millis(40), 4)));
        clock.report(&report(6, 60, bad));
        assert_eq!(clock.found, None);
        // A report without a line (a root with no move) changes nothing.
        clock.report(&report(7, 70, good));
        clock.report(&Report { pv: vec![], ..report(8, 80, good) });
        assert_eq!(clock.found, Some((Duration::from_millis(70), 7)));
    }
}
