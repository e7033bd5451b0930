//! Lazy SMP: the thread pool returns legal moves with any number of threads, one thread
//! is exactly the single-threaded search, `stop` reaches every thread, node counts are
//! summed, and the main thread's move is the one played.

use horizon::bench::BENCH_POSITIONS;
use horizon::board::Board;
use horizon::search::tt::TranspositionTable;
use horizon::search::{Control, Limits, Report, Reporter, Searcher, Silent, ThreadPool};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

mod common;
use common::Collect;

fn pool(threads: usize) -> (ThreadPool, Arc<Control>) {
    let control = Arc::new(Control::default());
    let tt = Arc::new(TranspositionTable::new(16));
    (ThreadPool::new(threads, tt, control.clone()), control)
}

fn depth(d: i32) -> Limits {
    Limits { depth: Some(d), multipv: 1, ..Limits::default() }
}

/// Positions with castling, en passant, promotions, checks and few legal moves.
const FENS: [&str; 6] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "4k3/8/8/8/8/8/4q3/K7 w - - 0 1",
];

#[test]
fn every_thread_count_returns_legal_moves() {
    for threads in [1, 2, 4, 8] {
        let (mut p, _) = pool(threads);
        assert_eq!(p.threads(), threads);
        for fen in FENS {
            let b = Board::from_fen(fen).unwrap();
            let r = p.search(&b, depth(7), &mut Silent);
            assert!(b.legal_moves().contains(r.best), "{threads} threads: {} in {fen}", r.best.uci(false));
            if let Some(ponder) = r.ponder {
                let mut after = b.clone();
                after.make(r.best);
                assert!(after.legal_moves().contains(ponder), "illegal ponder move in {fen}");
            }
            assert!(r.depth >= 1, "{threads} threads: no completed depth in {fen}");
        }
    }
}

/// One thread through the pool is the plain search: same move, score and node count as a
/// lone searcher on a fresh table, position after position.
#[test]
fn one_thread_is_exactly_the_single_threaded_search() {
    let (mut p, _) = pool(1);
    let mut lone = Searcher::new(Arc::new(TranspositionTable::new(16)), Arc::new(Control::default()));
    for fen in &BENCH_POSITIONS[..8] {
        let b = Board::from_fen(fen).unwrap();
        let a = p.search(&b, depth(8), &mut Silent);
        let s = lone.search(&b, depth(8), &mut Silent);
        assert_eq!((a.best, a.score, a.depth, a.stats.nodes), (s.best, s.score, s.depth, s.stats.nodes), "{fen}");
    }
}

/// Records the node counts the main thread reports.
struct Nodes(Vec<u64>);
impl Reporter for Nodes {
    fn report(&mut self, r: &Report) {
        self.0.push(r.nodes);
    }
}

#[test]
fn nodes_are_summed_over_threads() {
    let (mut p, _) = pool(4);
    let b = Board::from_fen(FENS[1]).unwrap();
    let mut reports = Nodes(Vec::new());
    let r = p.search(&b, depth(9), &mut reports);
    // The total is exactly the sum of every thread's own count, and every thread searched
    // (a total missing the helpers would equal the main thread's count alone).
    let each = p.thread_nodes().to_vec();
    assert_eq!(each.len(), 4, "{each:?}");
    assert!(each.iter().all(|&n| n > 0), "a thread searched nothing: {each:?}");
    assert_eq!(r.stats.nodes, each.iter().sum::<u64>(), "{each:?}");
    // Reported counts (main thread plus the helpers' published progress) never go down and
    // never exceed the final total.
    assert!(reports.0.windows(2).all(|w| w[0] <= w[1]), "{:?}", reports.0);
    assert!(r.stats.nodes >= *reports.0.last().unwrap());
    // One thread: the one count is the total.
    let (mut one, _) = pool(1);
    let single = one.search(&b, depth(9), &mut Silent);
    assert_eq!(one.thread_nodes(), [single.stats.nodes]);
}

#[test]
fn stop_reaches_every_thread() {
    for threads in [2, 8] {
        let (mut p, control) = pool(threads);
        let b = Board::startpos();
        let c = control.clone();
        let stopper = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(300));
            c.stop.store(true, Ordering::SeqCst);
            Instant::now()
        });
        let r = p.search(&b, Limits { infinite: true, multipv: 1, ..Limits::default() }, &mut Silent);
        let returned = Instant::now();
        let stopped_at = stopper.join().unwrap();
        // An infinite search returns only through stop: it returned after the stop was
        // raised (event order) and within a generous limit of it.
        assert!(returned >= stopped_at, "{threads} threads returned before stop");
        let took = returned.duration_since(stopped_at);
        assert!(took < Duration::from_secs(5), "{threads} threads took {took:?} after stop");
        assert!(b.legal_moves().contains(r.best));
        // The pool is reusable after a stop.
        control.stop.store(false, Ordering::SeqCst);
        let r = p.search(&b, depth(5), &mut Silent);
        assert_eq!(r.depth, 5);
    }
}

#[test]
fn pool_resizes_between_searches() {
    let (mut p, _) = pool(3);
    let b = Board::from_fen(FENS[3]).unwrap();
    for n in [1, 5, 2, 1024, 0] {
        p.set_threads(n);
        assert_eq!(p.threads(), n.clamp(1, 1024));
        if n <= 5 {
            let r = p.search(&b, depth(5), &mut Silent);
            assert!(b.legal_moves().contains(r.best));
        }
    }
}

/// With four threads, the last line a GUI sees starts with the move played (runners such as
/// fastchess warn when it does not).
#[test]
fn the_last_line_starts_with_the_move_played() {
    let (mut p, _) = pool(4);
    for fen in BENCH_POSITIONS.iter().take(16) {
        let b = Board::from_fen(fen).unwrap();
        let mut lines = Collect::default();
        let r = p.search(&b, depth(9), &mut lines);
        let last = lines.0.last().expect("a search reports at least one line");
        assert_eq!(last.pv.first(), Some(&r.best), "{fen}: last pv {:?}, bestmove {:?}", last.pv, r.best);
    }
}
