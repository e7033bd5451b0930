//! NNUE: an efficiently updatable neural network evaluation.
//!
//! The network is a perspective network `(768 → HIDDEN) × 2 → 1` with a squared clipped ReLU
//! (SCReLU), the architecture and `.nnue` file fixed in `docs/nnue.md`:
//!
//! - [`network`]: the quantised weights ([`Network`]), read from and written to the `.nnue`
//!   file with every check of the format, and the embedded default network;
//! - [`accumulator`]: the first layer's output per perspective ([`Accumulator`]), refreshed
//!   from a board or updated by a move's feature changes, and the lazy per-ply
//!   [`AccumulatorStack`] the search keeps;
//! - [`simd`]: the hot loops (add/subtract weight columns, the output layer), AVX2 chosen at
//!   run time with a scalar path that gives exactly the same integers.
//!
//! This module depends only on the board and the value types; the search drives it.

pub mod accumulator;
pub mod network;
pub mod simd;

pub use accumulator::{Accumulator, AccumulatorStack, Delta};
pub use network::{default_network, Network, NetworkError};

use crate::types::{Color, Piece, Square};

/// Input features per perspective: 2 sides × 6 pieces × 64 squares.
pub const INPUTS: usize = 768;
/// Hidden neurons per perspective. Fixed at compile time (see `network` for why): a file
/// with another hidden size is refused with a message naming both sizes.
pub const HIDDEN: usize = 128;
/// Quantisation of the first layer (weights and biases are `round(x * QA)`; the activation
/// clips the accumulator to `0..=QA`).
pub const QA: i32 = 255;
/// Quantisation of the output weights (`round(x * QB)`).
pub const QB: i32 = 64;
/// The network's output times `SCALE` is centipawns.
pub const SCALE: i32 = 400;

/// The input feature of `color`'s `piece` on `sq` seen from `perspective`:
/// `(side * 6 + piece) * 64 + square'`, where `side` is 0 for the perspective's own pieces
/// and `square'` is the square flipped vertically for Black.
#[inline(always)]
pub fn feature_index(perspective: Color, color: Color, piece: Piece, sq: Square) -> usize {
    let side = (color != perspective) as usize;
    let flip = 56 * perspective.index();
    (side * 6 + piece.index()) * 64 + (sq.index() ^ flip)
}

/// The output layer on an accumulator: the evaluation in centipawns for `side_to_move`.
#[inline]
pub fn evaluate(net: &Network, acc: &Accumulator, side_to_move: Color) -> i32 {
    let us = &acc.values[side_to_move.index()];
    let them = &acc.values[side_to_move.flip().index()];
    let sum = simd::screlu_dot(us, them, &net.output_weights);
    scale_output(sum, net.output_bias)
}

/// The final step of the output layer: `(sum / QA + bias) * SCALE / (QA * QB)`, in i32
/// arithmetic truncating toward zero (wrapping instead of panicking on absurd networks).
#[inline(always)]
pub fn scale_output(sum: i32, bias: i32) -> i32 {
    (sum / QA).wrapping_add(bias).wrapping_mul(SCALE) / (QA * QB)
}

/// Evaluates `board` from scratch (a full refresh, then the output layer): for tools and
/// tests; the search updates accumulators incrementally instead.
pub fn evaluate_board(net: &Network, board: &crate::board::Board) -> i32 {
    let acc = Accumulator::refreshed(net, board);
    evaluate(net, &acc, board.side_to_move())
}
