//! Material scaling of the network's evaluation in play: the eval times
//! `(MATERIAL_SCALE_BASE + material) / (MATERIAL_SCALE_BASE + MATERIAL_SCALE_NEUTRAL)`, so
//! that the side ahead keeps pieces on. The search applies it (`static_eval`), and the
//! win/draw/loss report divides it out again (`report`), as the model was fitted unscaled.

use super::params::{MATERIAL_SCALE_BASE, MATERIAL_SCALE_NEUTRAL};
use crate::board::Board;
use crate::types::Piece;

/// The factor play multiplies the network's evaluation by on `board`, as a numerator and a
/// denominator (see [`MATERIAL_SCALE_BASE`]): every piece but the kings at its nominal value.
pub fn material_scale(board: &Board) -> (i32, i32) {
    let material: i32 = [Piece::Pawn, Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen]
        .iter()
        .map(|&p| board.pieces(p).count() as i32 * p.nominal_value())
        .sum();
    (MATERIAL_SCALE_BASE + material, MATERIAL_SCALE_BASE + MATERIAL_SCALE_NEUTRAL)
}

/// `eval` scaled by the material on `board`. The product stays inside `i32`: |eval| is
/// below 2^15 and the numerator at most 38,600 (nine queens, two rooks, bishops and knights
/// a side).
#[inline]
pub fn scaled_by_material(eval: i32, board: &Board) -> i32 {
    let (num, den) = material_scale(board);
    eval * num / den
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn material_scale_grows_with_the_material_left() {
        let start = Board::startpos();
        let kings = Board::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        // 7,800 of material at the start: 240 * 25,800 / 24,000; the kings alone: 240 * 0.75.
        assert_eq!(scaled_by_material(240, &start), 258);
        assert_eq!(scaled_by_material(240, &kings), 180);
        assert_eq!(scaled_by_material(-240, &kings), -180);
        // A rook and five pawns a side (2,000): 240 * 20,000 / 24,000.
        let rooks = Board::from_fen("4k2r/ppppp3/8/8/8/8/PPPPP3/4K2R w - - 0 1").unwrap();
        assert_eq!(scaled_by_material(240, &rooks), 200);
    }
}
