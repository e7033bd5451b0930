//! The game phase and the last step of every evaluation: the middlegame/endgame blend and the
//! endgame scale factor. Used by the evaluation and by the tracer's check of it.

use super::params::{PHASE_TOTAL, PHASE_WEIGHT, SCALE_NORMAL};
use super::score::S;
use crate::board::Board;
use crate::types::{Color, Piece};

/// Game phase from non-pawn material: 24 with all pieces on the board, 0 with none
/// (capped at 24, so extra promoted pieces cannot push it beyond a full middlegame).
#[inline(always)]
pub fn phase(board: &Board) -> i32 {
    let minors = (board.pieces(Piece::Knight) | board.pieces(Piece::Bishop)).count() as i32;
    let p = minors * PHASE_WEIGHT[Piece::Knight.index()]
        + board.pieces(Piece::Rook).count() as i32 * PHASE_WEIGHT[Piece::Rook.index()]
        + board.pieces(Piece::Queen).count() as i32 * PHASE_WEIGHT[Piece::Queen.index()];
    p.min(PHASE_TOTAL)
}

/// The last step of every evaluation: `s` (white's view) blended by `phase`, then scaled by
/// the factor (`scale_of(strong)`, out of `SCALE_NORMAL`) of the side the blend favours. Integer
/// division truncates toward zero, so the result of `-s` is exactly the negation.
#[inline(always)]
pub fn finish(s: S, phase: i32, scale_of: impl FnOnce(Color) -> i32) -> i32 {
    let v = s.taper(phase, PHASE_TOTAL);
    if v == 0 {
        return 0;
    }
    let strong = if v > 0 { Color::White } else { Color::Black };
    let f = scale_of(strong);
    if f == SCALE_NORMAL {
        v
    } else {
        v * f / SCALE_NORMAL
    }
}
