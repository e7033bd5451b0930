//! The network's shape: input and hidden sizes, quantisation constants, and the input feature
//! of a piece (see `docs/nnue.md`). Everything else in `nnue` builds on these.

use crate::types::{Color, Piece, Square};

/// Input features per perspective: 2 sides × 6 pieces × 64 squares.
pub const INPUTS: usize = 768;
/// Hidden neurons per perspective. Fixed at compile time (see `network` for why): a file
/// with another hidden size is refused with a message naming both sizes.
pub const HIDDEN: usize = 256;
/// Quantisation of the first layer (weights and biases are `round(x * QA)`; the activation
/// clips the accumulator to `0..=QA`).
pub const QA: i32 = 255;
/// Quantisation of the output weights (`round(x * QB)`).
pub const QB: i32 = 64;
/// The network's output times `SCALE` is centipawns.
pub const SCALE: i32 = 400;
/// The most output buckets a network may have: sets of output weights and bias, one chosen
/// per position by the number of pieces on the board ([`output_bucket`]).
pub const MAX_OUTPUT_BUCKETS: usize = 8;

/// The output bucket of a position with `pieces` pieces (kings included) in a network with
/// `buckets` buckets: `(pieces − 2) · buckets / 32`, so the 31 piece counts from 2 to 32 are
/// split into `buckets` nearly equal ranges (with 8: 2–5, 6–9, …, 30–32). Any count and any
/// `buckets` from 0 give a bucket below `buckets.max(1)`.
#[inline(always)]
pub const fn output_bucket(pieces: u32, buckets: usize) -> usize {
    // Counts outside 2..=32 (only from odd FENs) take the nearest end.
    let above_kings = if pieces < 2 {
        0
    } else if pieces > 32 {
        30
    } else {
        pieces - 2
    };
    above_kings as usize * buckets / 32
}

/// The input feature of `color`'s `piece` on `sq` seen from `perspective`:
/// `(side * 6 + piece) * 64 + square'`, where `side` is 0 for the perspective's own pieces
/// and `square'` is the square flipped vertically for Black.
#[inline(always)]
pub fn feature_index(perspective: Color, color: Color, piece: Piece, sq: Square) -> usize {
    raw_feature_index(perspective.index(), color.index(), piece.index(), sq.index())
}

/// [`feature_index`] on raw indices (colours 0 white / 1 black, pieces 0..6, squares 0..64),
/// for code that reads packed positions without building a board (the trainer).
#[inline(always)]
pub const fn raw_feature_index(perspective: usize, color: usize, piece: usize, sq: usize) -> usize {
    let side = (color != perspective) as usize;
    (side * 6 + piece) * 64 + (sq ^ (56 * perspective))
}
