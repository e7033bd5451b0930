//! `bench`: a fixed list of positions searched to a fixed depth with one thread and a
//! 16 MB hash, cleared once before the first position. The total node count is a signature of the
//! search (identical run after run); nodes per second compare machines.

use crate::board::Board;
use crate::eval::nnue::Network;
use crate::search::tt::TranspositionTable;
use crate::search::{Control, Limits, Options, SearchResult, Searcher, Silent, Stats, ThreadPool};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;

/// Default search depth of `bench`.
pub const BENCH_DEPTH: i32 = 11;
/// Hash size of the signature bench (MiB); the threaded bench takes others.
pub const BENCH_HASH_MB: usize = 16;

/// The six chessprogramming-wiki perft positions, the 24 Bratko-Kopec positions and 20
/// positions of the Strategic Test Suite (every 75th): openings, middlegames, endgames.
pub const BENCH_POSITIONS: [&str; 50] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1",
    "3r1k2/4npp1/1ppr3p/p6P/P2PPPP1/1NR5/5K2/2R5 w - - 0 1",
    "2q1rr1k/3bbnnp/p2p1pp1/2pPp3/PpP1P1P1/1P2BNNP/2BQ1PRK/7R b - - 0 1",
    "rnbqkb1r/p3pppp/1p6/2ppP3/3N4/2P5/PPP1QPPP/R1B1KB1R w KQkq - 0 1",
    "r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - 0 1",
    "2r3k1/pppR1pp1/4p3/4P1P1/5P2/1P4K1/P1P5/8 w - - 0 1",
    "1nk1r1r1/pp2n1pp/4p3/q2pPp1N/b1pP1P2/B1P2R2/2P1B1PP/R2Q2K1 w - - 0 1",
    "4b3/p3kp2/6p1/3pP2p/2pP1P2/4K1P1/P3N2P/8 w - - 0 1",
    "2kr1bnr/pbpq4/2n1pp2/3p3p/3P1P1B/2N2N1Q/PPP3PP/2KR1B1R w - - 0 1",
    "3rr1k1/pp3pp1/1qn2np1/8/3p4/PP1R1P2/2P1NQPP/R1B3K1 b - - 0 1",
    "2r1nrk1/p2q1ppp/bp1p4/n1pPp3/P1P1P3/2PBB1N1/4QPPP/R4RK1 w - - 0 1",
    "r3r1k1/ppqb1ppp/8/4p1NQ/8/2P5/PP3PPP/R3R1K1 b - - 0 1",
    "r2q1rk1/4bppp/p2p4/2pP4/3pP3/3Q4/PP1B1PPP/R3R1K1 w - - 0 1",
    "rnb2r1k/pp2p2p/2pp2p1/q2P1p2/8/1Pb2NP1/PB2PPBP/R2Q1RK1 w - - 0 1",
    "2r3k1/1p2q1pp/2b1pr2/p1pp4/6Q1/1P1PP1R1/P1PN2PP/5RK1 w - - 0 1",
    "r1bqkb1r/4npp1/p1p4p/1p1pP1B1/8/1B6/PPPN1PPP/R2Q1RK1 w kq - 0 1",
    "r2q1rk1/1ppnbppp/p2p1nb1/3Pp3/2P1P1P1/2N2N1P/PPB1QP2/R1B2RK1 b - - 0 1",
    "r1bq1rk1/pp2ppbp/2np2p1/2n5/P3PP2/N1P2N2/1PB3PP/R1B1QRK1 b - - 0 1",
    "3rr3/2pq2pk/p2p1pnp/8/2QBPP2/1P6/P5PP/4RRK1 b - - 0 1",
    "r4k2/pb2bp1r/1p1qp2p/3pNp2/3P1P2/2N3P1/PPP1Q2P/2KRR3 w - - 0 1",
    "3rn2k/ppb2rpp/2ppqp2/5N2/2P1P3/1P5Q/PB3PPP/3RR1K1 w - - 0 1",
    "2r2rk1/1bqnbpp1/1p1ppn1p/pP6/N1P1P3/P2B1N1P/1B2QPP1/R2R2K1 b - - 0 1",
    "r1bqk2r/pp2bppp/2p5/3pP3/P2Q1P2/2N1B3/1PP3PP/R4RK1 b kq - 0 1",
    "r2qnrnk/p2b2b1/1p1p2pp/2pPpp2/1PP1P3/PRNBB3/3QNPPP/5RK1 w - - 0 1",
    "1kr5/3n4/q3p2p/p2n2p1/PppB1P2/5BP1/1P2Q2P/3R2K1 w - - 0 1",
    "r1bqr2k/pppn2bp/4n3/2P1p1p1/1P2Pp2/5NPB/PBQN1P1P/R4RK1 w - - 0 1",
    "4r1k1/R5p1/4b2p/1p2P3/7P/P1nP4/6PK/4R3 w - - 0 1",
    "2rr4/Bp3k1p/5pp1/8/2n3b1/P1N5/1PP2PPP/R1R3K1 w - - 0 1",
    "6k1/p2pp2p/bp4n1/q1r4R/1RP1P3/2P2B2/P2Q2P1/4K3 w - - 0 1",
    "r3r1k1/1b3p1p/3b2p1/p2Pp1P1/1pq1B3/4B3/PPP3QP/1K1R1R2 w - - 0 1",
    "4r1k1/p4p1p/1p2q1pB/1Q2Pn2/P3B2P/5P2/bR3P2/6K1 w - - 0 1",
    "2r2r1k/1q1nbpp1/p3p2p/2P1P3/1p1N1B1P/6Q1/PP3PP1/R2R2K1 b - - 0 1",
    "1R3b2/r4pk1/2qpn1p1/P1p1p2p/2P1P2P/5PP1/6K1/1Q1BB3 w - - 0 1",
    "b7/3r2bk/p2Np1p1/2B1p1Pp/qP2P2P/P2Q1RK1/8/8 w - - 0 1",
    "4rr1k/2q5/1pnn1b1p/p1p2b2/N1PppPp1/PP1P4/2QBPPBP/3R1RNK b - - 0 1",
    "2r2r1k/1bqnbppp/p3p3/1p1pP3/3B1P2/P1NB4/1PP2QPP/R4R1K w - - 0 1",
    "1b1qrr2/1p4pk/1np4p/p3Np1B/Pn1P4/R1N3B1/1Pb2PPP/2Q1R1K1 b - - 0 1",
    "8/r4p2/P1ppk3/2p4p/1rPb1BqP/RR1PpQP1/4P1K1/8 b - - 0 1",
    "4r1k1/2q1p3/2p2pp1/1p1b4/p7/P1Q3R1/1P3PP1/4R1K1 b - - 0 1",
    "2r3k1/p2npp2/p2p1bp1/3P4/1qN1PQ1P/1P2B3/r5P1/1R3R1K b - - 0 1",
    "1k1r4/1p3p2/p1bq1p1p/4p3/3r1P1Q/P5P1/1PP1B2P/K2RR3 b - - 0 1",
    "r2qr1k1/1b3pb1/p2p2p1/8/2BNn1P1/2p1B3/P1P5/1NKRQR2 b - - 0 1",
    "4b3/p2nP1k1/1r2R1p1/q1p5/2Br2P1/1P2QP2/P1P5/4R1K1 b - - 0 1",
    "r1bq1rk1/1p2bppp/p1n1pn2/2P5/P1B5/2N1PN2/1P3PPP/R1BQ1RK1 w - - 0 1",
];

/// Totals of a bench run.
#[derive(Debug, Clone, Copy, Default)]
pub struct BenchResult {
    pub stats: Stats,
    pub millis: u128,
    /// Pawn hash table lookups and hits over the whole run.
    pub pawn_probes: u64,
    pub pawn_hits: u64,
}

/// Runs the bench at `depth`, calling `each` after every position.
pub fn run(depth: i32, each: impl FnMut(usize, &str, &Stats)) -> BenchResult {
    run_with(depth, Options::default(), each)
}

/// Runs the bench with non-default search options (e.g. SEE pruning in quiescence off).
pub fn run_with(depth: i32, options: Options, each: impl FnMut(usize, &str, &Stats)) -> BenchResult {
    let control = Arc::new(Control::default());
    run_controlled(depth, options, None, control, each).expect("nothing stops a bench with its own control")
}

/// Runs the bench evaluating with `network` (`horizon bench --nnue`).
pub fn run_nnue(depth: i32, network: Arc<Network>, each: impl FnMut(usize, &str, &Stats)) -> BenchResult {
    let control = Arc::new(Control::default());
    run_controlled(depth, Options::default(), Some(network), control, each)
        .expect("nothing stops a bench with its own control")
}

/// Runs the bench, ending early (None) once `control.stop` is set: the UCI `bench`, which
/// runs off the input thread and obeys `stop`. With a `network` the search evaluates with
/// it instead of the classical evaluation.
pub fn run_controlled(
    depth: i32,
    options: Options,
    network: Option<Arc<Network>>,
    control: Arc<Control>,
    each: impl FnMut(usize, &str, &Stats),
) -> Option<BenchResult> {
    let tt = Arc::new(TranspositionTable::new(BENCH_HASH_MB));
    let mut searcher = Searcher::new(tt.clone(), control.clone());
    searcher.set_options(options);
    searcher.set_network(network);
    // Cleared once, as after `ucinewgame`: the positions run in a fixed order, so what
    // each search inherits from the previous ones is the same every run.
    tt.clear();
    searcher.clear();
    let (stats, millis) =
        run_positions(depth, &control, |board, limits| searcher.search(board, limits, &mut Silent), each)?;
    let pawns = searcher.evaluator().pawn_table();
    Some(BenchResult { stats, millis, pawn_probes: pawns.probes(), pawn_hits: pawns.hits() })
}

/// The threaded bench: the same positions and depth on a pool of `threads` threads with a
/// `hash_mb` table, for measuring how a CPU scales. Node counts vary from run to run with
/// more than one thread (the threads race through the shared table); with one thread and
/// the default hash they equal the signature. Ends early (None) once `control.stop` is set.
pub fn run_threads(
    depth: i32,
    threads: usize,
    hash_mb: usize,
    options: Options,
    network: Option<Arc<Network>>,
    control: Arc<Control>,
    each: impl FnMut(usize, &str, &Stats),
) -> Option<BenchResult> {
    let tt = Arc::new(TranspositionTable::try_new(hash_mb).ok()?);
    let mut pool = ThreadPool::new(threads, tt.clone(), control.clone());
    pool.set_options(options);
    pool.set_network(network);
    tt.clear();
    pool.clear();
    let (stats, millis) =
        run_positions(depth, &control, |board, limits| pool.search(board, limits, &mut Silent), each)?;
    // Each thread's pawn table is its own; the threaded bench does not sum their statistics.
    Some(BenchResult { stats, millis, pawn_probes: 0, pawn_hits: 0 })
}

/// Searches every bench position to `depth` with `search`, calling `each` after each one;
/// the summed counters and the elapsed milliseconds, or None once `control.stop` is set.
fn run_positions(
    depth: i32,
    control: &Control,
    mut search: impl FnMut(&Board, Limits) -> SearchResult,
    mut each: impl FnMut(usize, &str, &Stats),
) -> Option<(Stats, u128)> {
    let mut total = Stats::default();
    let start = Instant::now();
    for (i, fen) in BENCH_POSITIONS.iter().enumerate() {
        let board = Board::from_fen(fen).expect("bench FEN is valid");
        let limits = Limits { depth: Some(depth), multipv: 1, ..Limits::default() };
        let r = search(&board, limits);
        if control.stop.load(Ordering::Relaxed) {
            return None;
        }
        total.add(&r.stats);
        each(i, fen, &r.stats);
    }
    Some((total, start.elapsed().as_millis()))
}
