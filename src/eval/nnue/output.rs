//! The output layer: an accumulator (or a board, refreshed from scratch) to centipawns for
//! the side to move.

use super::accumulator::Accumulator;
use super::features::{output_bucket, QA, QB, SCALE};
use super::network::Network;
use super::simd;
use crate::board::Board;
use crate::types::Color;

/// The output layer on an accumulator: the evaluation in centipawns for `side_to_move`, in
/// a position with `pieces` pieces on the board (which choose the output bucket).
#[inline]
pub fn evaluate(net: &Network, acc: &Accumulator, side_to_move: Color, pieces: u32) -> i32 {
    let us = &acc.values[side_to_move.index()];
    let them = &acc.values[side_to_move.flip().index()];
    let bucket = output_bucket(pieces, net.buckets());
    let sum = simd::screlu_dot(us, them, net.output_weights(bucket), net.output_offset(bucket));
    scale_output(sum, net.output_bias[bucket])
}

/// The final step of the output layer: `(sum / QA + bias) * SCALE / (QA * QB)`, truncating
/// toward zero. In i64, so no sum and no bias can overflow it: `|sum / QA + bias|` is below
/// 2³² and `SCALE` times that below 2⁴¹; divided by `QA * QB` it is below 2²⁷, so the
/// result fits i32 exactly. (For every sum and bias whose i32 computation did not overflow,
/// the same integer as in i32.)
#[inline(always)]
pub fn scale_output(sum: i32, bias: i32) -> i32 {
    let x = (sum / QA) as i64 + bias as i64;
    (x * SCALE as i64 / (QA * QB) as i64) as i32
}

/// Evaluates `board` from scratch (a full refresh, then the output layer): for tools and
/// tests; the search updates accumulators incrementally instead.
pub fn evaluate_board(net: &Network, board: &Board) -> i32 {
    let acc = Accumulator::refreshed(net, board);
    evaluate(net, &acc, board.side_to_move(), board.occupied().count())
}
