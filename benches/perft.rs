//! Perft and move-generation benchmarks: Horizon against the `cozy-chess` crate, measured in
//! the same run so that machine load affects both alike. Throughput is reported in leaves
//! (elements) per second. Sample counts are kept small so `cargo bench` finishes in minutes.

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::time::Duration;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
/// Extra positions for the move-generation-only bench (CPW perft positions 3, 4 and 5).
const MOVEGEN_FENS: [(&str, &str); 5] = [
    ("startpos", START),
    ("kiwipete", KIWIPETE),
    ("cpw3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
    ("cpw4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"),
    ("cpw5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"),
];

/// cozy-chess perft, written the straightforward way with its API: copy-make, and at the
/// last ply the moves are counted per piece group with `PieceMoves::len()`.
fn cozy_perft(board: &cozy_chess::Board, depth: u32, bulk: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    if depth == 1 && bulk {
        board.generate_moves(|moves| {
            nodes += moves.len() as u64;
            false
        });
    } else {
        board.generate_moves(|moves| {
            for mv in moves {
                let mut child = board.clone();
                child.play_unchecked(mv);
                nodes += cozy_perft(&child, depth - 1, bulk);
            }
            false
        });
    }
    nodes
}

fn horizon_perft(board: &horizon::Board, depth: u32, bulk: bool) -> u64 {
    horizon::perft::perft(&mut board.clone(), depth, bulk)
}

fn perft_benches(c: &mut Criterion) {
    let cases: [(&str, &str, u32, bool); 6] = [
        ("startpos", START, 5, true),
        ("startpos", START, 6, true),
        ("kiwipete", KIWIPETE, 4, true),
        ("kiwipete", KIWIPETE, 5, true),
        ("startpos-nobulk", START, 5, false),
        ("kiwipete-nobulk", KIWIPETE, 4, false),
    ];
    for (name, fen, depth, bulk) in cases {
        let hz = horizon::Board::from_fen(fen).expect("valid FEN");
        let cz: cozy_chess::Board = fen.parse().expect("valid FEN");
        let nodes = horizon_perft(&hz, depth, bulk);
        assert_eq!(nodes, cozy_perft(&cz, depth, bulk), "engines disagree on {name} d{depth}");

        let mut g = c.benchmark_group(format!("perft/{name}/d{depth}"));
        g.throughput(Throughput::Elements(nodes));
        g.sample_size(10);
        g.warm_up_time(Duration::from_millis(500));
        g.measurement_time(Duration::from_secs(if nodes > 50_000_000 { 8 } else { 3 }));
        g.bench_function("horizon", |b| b.iter(|| horizon_perft(black_box(&hz), depth, bulk)));
        g.bench_function("cozy-chess", |b| b.iter(|| cozy_perft(black_box(&cz), depth, bulk)));
        g.finish();
    }
}

fn movegen_benches(c: &mut Criterion) {
    let mut g = c.benchmark_group("movegen");
    g.sample_size(20);
    g.warm_up_time(Duration::from_millis(300));
    g.measurement_time(Duration::from_secs(1));
    for (name, fen) in MOVEGEN_FENS {
        let hz = horizon::Board::from_fen(fen).expect("valid FEN");
        g.throughput(Throughput::Elements(hz.legal_moves().len() as u64));
        g.bench_with_input(BenchmarkId::new("legal_moves", name), &hz, |b, board| {
            b.iter(|| black_box(board).legal_moves())
        });
        g.bench_with_input(BenchmarkId::new("count_moves", name), &hz, |b, board| {
            b.iter(|| black_box(board).count_moves())
        });
    }
    g.finish();
}

criterion_group!(benches, perft_benches, movegen_benches);
criterion_main!(benches);
