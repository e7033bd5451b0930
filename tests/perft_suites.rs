//! Perft against the four suites in `perft-data/`.
//!
//! The default run checks every (position, depth) whose expected count is at most
//! `FAST_LIMIT` nodes, exactly, with the default (bulk-counting, single-thread, no hash)
//! perft. Smaller subsets are re-run with every leaf played (`bulk = false`) and with
//! threads + a shared hash table, which must give the same numbers.
//!
//! Everything above `FAST_LIMIT` (e.g. Kiwipete D6 = 8,031,647,685) lives in `#[ignore]`
//! tests: `cargo test --release --test perft_suites -- --ignored`. They use threads and a
//! hash table; set `HORIZON_PERFT_THREADS` / `HORIZON_PERFT_HASH_MB` to tune them.

mod common;

use common::{load_suite, SUITES};
use horizon::perft::{self, PerftOptions, SuiteEntry};
use horizon::Board;

/// Largest expected count checked in the default (non-ignored) run.
const FAST_LIMIT: u64 = 2_000_000;

fn board(fen: &str) -> Board {
    Board::from_fen(fen).unwrap_or_else(|e| panic!("suite FEN rejected: {e}: {fen}"))
}

/// Runs `count(board, depth)` on every selected (entry, depth) and returns a report of all
/// mismatches (empty when everything agrees) and how many checks were made.
fn check_suite(
    entries: &[SuiteEntry],
    select: impl Fn(usize, u32, u64) -> bool,
    count: impl Fn(&Board, u32) -> u64,
) -> (Vec<String>, usize) {
    let mut failures = Vec::new();
    let mut checked = 0;
    for (i, e) in entries.iter().enumerate() {
        let b = board(&e.fen);
        for &(depth, expected) in &e.depths {
            if !select(i, depth, expected) {
                continue;
            }
            checked += 1;
            let got = count(&b, depth);
            if got != expected {
                failures.push(format!("{} D{depth}: expected {expected}, got {got}", e.fen));
            }
        }
    }
    (failures, checked)
}

fn assert_clean(name: &str, (failures, checked): (Vec<String>, usize), min_checked: usize) {
    assert!(
        failures.is_empty(),
        "{name}: {} of {checked} perft counts wrong:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(checked >= min_checked, "{name}: only {checked} counts checked, expected >= {min_checked}");
}

fn plain(b: &Board, d: u32) -> u64 {
    perft::perft(&mut b.clone(), d, true)
}

/// Every count up to `FAST_LIMIT` of one suite, with the plain bulk perft.
fn fast_suite(name: &str, min_checked: usize) {
    let entries = load_suite(name);
    let expected_len = SUITES.iter().find(|s| s.0 == name).unwrap().1;
    assert_eq!(entries.len(), expected_len, "{name}: wrong number of records");
    let r = check_suite(&entries, |_, _, n| n <= FAST_LIMIT, plain);
    assert_clean(name, r, min_checked);
}

#[test]
fn standard_up_to_2m() {
    fast_suite("perft_standard.epd", 680);
}

#[test]
fn fischer_up_to_2m() {
    fast_suite("perft_fischer.epd", 3800);
}

#[test]
fn fischer_xfen_up_to_2m() {
    fast_suite("perft_fischer_xfen40.epd", 160);
}

#[test]
fn cpw6_up_to_2m() {
    fast_suite("perft_cpw6.epd", 26);
}

/// The unreachable double-bishop check from the standard suite is accepted and counted.
#[test]
fn impossible_double_check_position_counts() {
    let b = board("B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1");
    assert_eq!(b.checkers().count(), 2);
    let line = load_suite("perft_standard.epd")
        .into_iter()
        .find(|e| e.fen.starts_with("B6b/8/8/8/2K5/5k2/8/b6B b"))
        .expect("double-check position present in the suite");
    for (d, n) in line.depths.into_iter().filter(|&(_, n)| n <= FAST_LIMIT) {
        assert_eq!(plain(&b, d), n, "D{d}");
    }
}

/// Every leaf played (make/unmake at the last ply) on a subset: the count must match the
/// bulk count, so the MoveCounter and the MoveList agree and make/unmake never crashes.
#[test]
fn no_bulk_subset() {
    let no_bulk = |b: &Board, d: u32| perft::perft(&mut b.clone(), d, false);
    let mut total_checked = 0;
    for (name, _) in SUITES {
        let entries = load_suite(name);
        // Fischer: one position in 16; the others: all of them; counts up to 300k.
        let step = if entries.len() > 500 { 16 } else { 1 };
        let r = check_suite(&entries, |i, _, n| i % step == 0 && n <= 300_000, no_bulk);
        total_checked += r.1;
        assert_clean(name, r, 20);
    }
    assert!(total_checked > 700, "{total_checked}");
}

/// Threads + hash table on a subset, at the deepest depth below the fast limit: must agree
/// with the expected counts. A small table forces replacements.
#[test]
fn threads_and_hash_subset() {
    let variants = [
        PerftOptions { threads: 2, hash_mb: 16, bulk: true },
        PerftOptions { threads: 2, hash_mb: 1, bulk: true },
        PerftOptions { threads: 1, hash_mb: 16, bulk: true },
        PerftOptions { threads: 2, hash_mb: 0, bulk: true },
        PerftOptions { threads: 2, hash_mb: 16, bulk: false },
    ];
    for (vi, opts) in variants.iter().enumerate() {
        for (name, _) in SUITES {
            let entries = load_suite(name);
            let step = match entries.len() {
                n if n > 500 => 48,
                n if n > 50 => 4,
                _ => 1,
            };
            // The deepest listed depth that is still cheap, per selected entry; `bulk:false`
            // gets a lower cap because every leaf is played.
            let cap = if opts.bulk { FAST_LIMIT } else { 200_000 };
            let r = check_suite(
                &entries,
                |i, d, n| {
                    (i + vi) % step == 0 && n <= cap && !entries[i].depths.iter().any(|&(d2, n2)| d2 > d && n2 <= cap)
                },
                |b, d| perft::perft_with(b, d, *opts),
            );
            assert_clean(&format!("{name} with {opts:?}"), r, 2);
        }
    }
}

/// Counts between the fast limit and 20M nodes (all of them in the standard, X-FEN and CPW
/// suites, one Fischer position in 20), with two threads and a hash table: deeper trees than
/// the plain run reaches, still cheap because transpositions are shared.
#[test]
fn medium_counts_with_threads_and_hash() {
    let opts = PerftOptions { threads: 2, hash_mb: 64, bulk: true };
    for (name, _) in SUITES {
        let entries = load_suite(name);
        let step = if entries.len() > 500 { 20 } else { 1 };
        let r = check_suite(
            &entries,
            |i, _, n| i % step == 0 && n > FAST_LIMIT && n <= 20_000_000,
            |b, d| perft::perft_with(b, d, opts),
        );
        assert_clean(name, r, 7);
    }
}

/// `divide` splits the total over the root moves: the parts add up, each part equals the
/// perft of the child, and the root moves are exactly the legal moves.
#[test]
fn divide_matches_children() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let b = board(fen);
    for opts in [PerftOptions::default(), PerftOptions { threads: 2, hash_mb: 4, bulk: true }] {
        let parts = perft::divide(&b, 3, opts);
        assert_eq!(parts.len(), 48);
        assert_eq!(parts.iter().map(|p| p.1).sum::<u64>(), 97_862);
        for (m, n) in parts {
            assert!(b.legal_moves().contains(m));
            let mut c = b.clone();
            c.make(m);
            assert_eq!(perft::perft(&mut c, 2, true), n, "{m:?}");
        }
    }
    assert_eq!(perft::perft_with(&b, 0, PerftOptions::default()), 1);
    assert_eq!(perft::perft(&mut b.clone(), 0, true), 1);
}

// ---- deep counts (ignored by default) ---------------------------------------------------

fn deep_options() -> PerftOptions {
    let env = |k: &str, d: usize| std::env::var(k).ok().and_then(|v| v.parse().ok()).unwrap_or(d);
    let threads = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2);
    PerftOptions {
        threads: env("HORIZON_PERFT_THREADS", threads),
        hash_mb: env("HORIZON_PERFT_HASH_MB", 256),
        bulk: true,
    }
}

/// Every count above the fast limit (and at most `max` nodes) of one suite, with threads and
/// hash; prints progress so a long run can be followed with `--nocapture`.
fn deep_suite(name: &str, min_depth: u32, max_depth: u32) {
    let opts = deep_options();
    let entries = load_suite(name);
    let r = check_suite(
        &entries,
        |_, d, n| n > FAST_LIMIT && (min_depth..=max_depth).contains(&d),
        |b, d| {
            let t = std::time::Instant::now();
            let n = perft::perft_with(b, d, opts);
            eprintln!("{name} D{d} {n} ({:.1} s) {}", t.elapsed().as_secs_f64(), b.to_fen());
            n
        },
    );
    assert_clean(name, r, 1);
}

#[test]
#[ignore = "deep perft: run with --ignored"]
fn deep_cpw6() {
    deep_suite("perft_cpw6.epd", 1, 99);
}

#[test]
#[ignore = "deep perft: run with --ignored"]
fn deep_standard() {
    deep_suite("perft_standard.epd", 1, 99);
}

#[test]
#[ignore = "deep perft: run with --ignored"]
fn deep_fischer_xfen() {
    deep_suite("perft_fischer_xfen40.epd", 1, 99);
}

#[test]
#[ignore = "deep perft: run with --ignored"]
fn deep_fischer_d5() {
    deep_suite("perft_fischer.epd", 1, 5);
}

#[test]
#[ignore = "deep perft: about 5e11 nodes, tens of minutes with threads + hash; run with --ignored"]
fn deep_fischer_d6() {
    deep_suite("perft_fischer.epd", 6, 6);
}
