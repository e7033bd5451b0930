//! The reusable perft runner (`horizon::perft::Perft`): one hash table kept across many
//! positions and depths must never give a wrong count, the work is split below the root,
//! and the live counters end complete.

mod common;

use common::{load_suite, SUITES};
use horizon::perft::{self, Perft, PerftCounters, PerftOptions};
use horizon::Board;
use std::sync::atomic::Ordering;

fn board(fen: &str) -> Board {
    Board::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Every count up to `limit` nodes of every suite (one Fischer position in `fischer_step`),
/// all through one runner, so the table carries entries from position to position.
fn suites_through_one_runner(opts: PerftOptions, limit: u64, fischer_step: usize) -> usize {
    let runner = Perft::new(opts).unwrap();
    let mut checked = 0;
    for (name, _) in SUITES {
        let step = if name == "perft_fischer.epd" { fischer_step } else { 1 };
        for e in load_suite(name).iter().step_by(step) {
            let b = board(&e.fen);
            for &(d, n) in e.depths.iter().filter(|x| x.1 <= limit) {
                assert_eq!(runner.count(&b, d), n, "{name}: {} depth {d} with {opts:?}", e.fen);
                checked += 1;
            }
        }
    }
    checked
}

#[test]
fn one_table_for_whole_suites() {
    // 1 MB: constant replacement; 64 MB: the part in use grows (from 32 MB) mid-run.
    let small = PerftOptions { threads: 2, hash_mb: 1, bulk: true };
    assert!(suites_through_one_runner(small, 300_000, 24) > 600);
    let growing = PerftOptions { threads: 2, hash_mb: 64, bulk: true };
    assert!(suites_through_one_runner(growing, 2_000_000, 40) > 700);
}

#[test]
fn chess960_rook_identity_is_part_of_the_key() {
    // Same pieces, same castling-rights bit, different castling rook (a1 or b1): the
    // Zobrist keys are equal, the trees are not. One table serves both in turn.
    let a = board("7k/8/8/8/8/8/8/RRK5 w A - 0 1");
    let b = board("7k/8/8/8/8/8/8/RRK5 w B - 0 1");
    assert_eq!(a.key(), b.key());
    let runner = Perft::new(PerftOptions { threads: 1, hash_mb: 16, bulk: true }).unwrap();
    for (pos, expected) in [(&a, 175_021), (&b, 184_723), (&a, 175_021)] {
        assert_eq!(perft::perft(&mut pos.clone(), 5, true), expected);
        assert_eq!(runner.count(pos, 5), expected);
    }
}

#[test]
fn work_is_split_below_the_root_and_counters_finish_complete() {
    // One legal root move (the king must step out of check): all the work is below it.
    let b = board("4k3/8/8/8/8/4p3/3q4/4K3 w - - 0 1");
    assert_eq!(b.legal_moves().len(), 1);
    for opts in [
        PerftOptions { threads: 2, hash_mb: 0, bulk: true },
        PerftOptions { threads: 2, hash_mb: 8, bulk: true },
        PerftOptions { threads: 1, hash_mb: 0, bulk: false },
    ] {
        let runner = Perft::new(opts).unwrap();
        let counters = PerftCounters::default();
        let split = runner.divide_counted(&b, 6, &counters);
        let total: u64 = split.iter().map(|x| x.1).sum();
        assert_eq!(total, perft::perft(&mut b.clone(), 6, true));
        assert_eq!(counters.roots_total.load(Ordering::Relaxed), 1);
        assert_eq!(counters.roots_done.load(Ordering::Relaxed), 1);
        let tasks = counters.tasks_total.load(Ordering::Relaxed);
        // Split two plies down (the remaining depth stays >= 3).
        assert!(tasks > 30, "{tasks} subtrees for {opts:?}");
        assert_eq!(counters.tasks_done.load(Ordering::Relaxed), tasks);
        assert_eq!(counters.nodes.load(Ordering::Relaxed), total);
    }
    // Mate and stalemate below the split ply: those lines simply have no leaves.
    let mate_soon = board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    let runner = Perft::new(PerftOptions { threads: 2, hash_mb: 4, bulk: true }).unwrap();
    assert_eq!(runner.count(&mate_soon, 6), perft::perft(&mut mate_soon.clone(), 6, true));
    // No legal move at all.
    let stalemate = board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert!(runner.divide(&stalemate, 5).is_empty());
    assert_eq!(runner.count(&stalemate, 5), 0);
}
