//! Quick reference numbers: cozy-chess (dev-dependency) perft speed on the positions the
//! bench uses, bulk-counting and playing every leaf, best of N runs.
//!
//! `cargo run --release --example cozy_perft [runs]`, or one run in the same form as
//! `horizon perft`: `cozy_perft perft <depth> [<fen>] [--no-bulk]`.

use cozy_chess::Board;
use std::time::Instant;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Bulk counting: at depth 1 the number of moves is summed from the piece-move groups.
fn perft_bulk(board: &Board, depth: u32) -> u64 {
    let mut nodes = 0;
    if depth == 1 {
        board.generate_moves(|moves| {
            nodes += moves.len() as u64;
            false
        });
    } else {
        board.generate_moves(|moves| {
            for mv in moves {
                let mut child = board.clone();
                child.play_unchecked(mv);
                nodes += perft_bulk(&child, depth - 1);
            }
            false
        });
    }
    nodes
}

/// Every leaf move is played (copy-make).
fn perft_play(board: &Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    board.generate_moves(|moves| {
        for mv in moves {
            let mut child = board.clone();
            child.play_unchecked(mv);
            nodes += perft_play(&child, depth - 1);
        }
        false
    });
    nodes
}

fn best_of(runs: usize, f: impl Fn() -> u64) -> (u64, f64) {
    let mut best = f64::MAX;
    let mut n = 0;
    for _ in 0..runs {
        let t = Instant::now();
        n = f();
        best = best.min(t.elapsed().as_secs_f64());
    }
    (n, best)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("perft") {
        let bulk = !args.iter().any(|a| a == "--no-bulk");
        let pos: Vec<&String> = args[1..].iter().filter(|a| !a.starts_with("--")).collect();
        let depth: u32 = pos.first().and_then(|d| d.parse().ok()).expect("usage: perft <depth> [<fen>]");
        let board: Board = pos.get(1).map_or(START, |f| f.as_str()).parse().expect("valid FEN");
        let t = Instant::now();
        let n = if bulk { perft_bulk(&board, depth) } else { perft_play(&board, depth) };
        let s = t.elapsed().as_secs_f64();
        println!("{n}");
        eprintln!("time {s:.3} s, {:.1} M nodes/s", n as f64 / s / 1e6);
        return;
    }
    let runs: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(3);
    for (name, fen, depth) in [("startpos", START, 6), ("kiwipete", KIWIPETE, 5)] {
        let board: Board = fen.parse().expect("valid FEN");
        let (n, s) = best_of(runs, || perft_bulk(&board, depth));
        println!("cozy bulk    {name} d{depth}: {n} nodes, {s:.3} s, {:.1} M/s", n as f64 / s / 1e6);
        let d = depth - 1;
        let (n, s) = best_of(runs, || perft_play(&board, d));
        println!("cozy no-bulk {name} d{d}: {n} nodes, {s:.3} s, {:.1} M/s", n as f64 / s / 1e6);
    }
}
