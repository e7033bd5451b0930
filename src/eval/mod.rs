//! Placeholder material evaluation (replaced by the tapered evaluation branch).

use crate::board::Board;
use crate::types::{Color, Piece};

const VALUES: [i32; 6] = [100, 320, 330, 500, 950, 0];

/// Centipawns from the side to move's point of view.
pub fn evaluate(board: &Board) -> i32 {
    let mut s = 0;
    for p in Piece::ALL {
        s += VALUES[p.index()]
            * (board.colored(Color::White, p).count() as i32 - board.colored(Color::Black, p).count() as i32);
    }
    s * board.side_to_move().sign()
}
