//! The cost of one static evaluation, over the 1,500 positions of the Strategic Test Suite
//! (`tests/data/sts.epd`): middlegame and endgame positions of real games, so the mix of
//! pieces and pawn structures is that of a search rather than of the opening.
//!
//! Three measurements, each reported per position (criterion's throughput in elements):
//! - `from_scratch`: [`horizon::eval::evaluate`], no pawn hash table;
//! - `pawn_table_warm`: an [`Evaluator`] whose pawn table already holds every structure, as
//!   in a search, where most pawn structures repeat;
//! - `traced`: the evaluation recording its feature counts into a reused dense trace, as
//!   `horizon tune` does once per position when it loads its data.
//!
//! And the network (the embedded one; `HORIZON_NNUE_SIMD=scalar`, `avx2` or `avx512` caps the
//! SIMD path, and the benchmark names carry the path that ran):
//! - `nnue_incremental`: what the search pays per evaluated node: the child's accumulator
//!   from the parent's and one move's feature changes, then the output layer;
//! - `nnue_refresh`: an accumulator from scratch, then the output layer.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use horizon::eval::nnue::{self, Accumulator, Delta};
use horizon::eval::{self, trace::Trace, Evaluator};
use horizon::Board;
use std::time::Duration;

/// The STS positions (EPD: the first four FEN fields, then operations).
fn positions() -> Vec<Board> {
    let text = include_str!("../tests/data/sts.epd");
    text.lines()
        .filter_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().take(4).collect();
            if fields.len() < 4 {
                return None;
            }
            Board::from_fen(&format!("{} 0 1", fields.join(" "))).ok()
        })
        .collect()
}

fn eval_benches(c: &mut Criterion) {
    let boards = positions();
    assert!(boards.len() > 1000, "only {} STS positions parsed", boards.len());
    let mut g = c.benchmark_group("evaluate");
    g.throughput(Throughput::Elements(boards.len() as u64));
    g.sample_size(20).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3));

    g.bench_function("from_scratch", |b| {
        b.iter(|| boards.iter().map(|board| eval::evaluate(black_box(board))).fold(0i64, |s, v| s + v as i64))
    });

    let mut evaluator = Evaluator::new();
    for board in &boards {
        evaluator.evaluate(board);
    }
    g.bench_function("pawn_table_warm", |b| {
        b.iter(|| boards.iter().map(|board| evaluator.evaluate(black_box(board))).fold(0i64, |s, v| s + v as i64))
    });

    let net = nnue::default_network();
    // Per position: the accumulator before its first legal move, that move's changes, and
    // the side to move and the piece count after it.
    let steps: Vec<(Accumulator, Delta, horizon::Color, u32)> = boards
        .iter()
        .filter_map(|board| {
            let m = *board.legal_moves().iter().next()?;
            let mut after = board.clone();
            after.make(m);
            let (side, pieces) = (after.side_to_move(), after.occupied().count());
            Some((Accumulator::refreshed(&net, board), Delta::of_move(board, m), side, pieces))
        })
        .collect();
    let mut child = Accumulator::default();
    g.bench_function(format!("nnue_incremental_{}", nnue::simd::backend().name()), |b| {
        b.iter(|| {
            steps
                .iter()
                .map(|(parent, delta, side, pieces)| {
                    black_box(parent).apply(&net, black_box(delta), &mut child);
                    nnue::evaluate(&net, &child, *side, *pieces)
                })
                .fold(0i64, |s, v| s + v as i64)
        })
    });
    g.bench_function(format!("nnue_refresh_{}", nnue::simd::backend().name()), |b| {
        b.iter(|| {
            boards.iter().map(|board| nnue::evaluate_board(&net, black_box(board))).fold(0i64, |s, v| s + v as i64)
        })
    });

    let mut trace = Trace::new();
    g.bench_function("traced", |b| {
        b.iter(|| {
            boards
                .iter()
                .map(|board| {
                    trace.reset();
                    eval::evaluate_traced(black_box(board), &mut trace)
                })
                .fold(0i64, |s, v| s + v as i64)
        })
    });
    g.finish();
}

criterion_group!(benches, eval_benches);
criterion_main!(benches);
