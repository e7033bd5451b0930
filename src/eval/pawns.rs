//! Pawn structure: everything that depends on the pawns alone, computed set-wise with fills in
//! each side's own frame (the side scored always moves "up"; see [`Side`]). Because it depends
//! on nothing else, the engine caches the result in a [`super::PawnTable`] keyed by the
//! board's pawn key; a trace always computes it afresh.

use super::acc::{Acc, Side};
use super::pawn_table::PawnEntry;
use super::score::S;
use super::trace::NoTrace;
use super::trace::Tracer;
use crate::bitboard::Bitboard;
use crate::types::{Color, Piece};

/// The pawn terms of both sides (white and black, each in its own frame): white's score
/// minus black's, and the passed pawns of each side in its own frame.
#[inline(always)]
pub fn evaluate<T: Tracer>(white: &Side, black: &Side, acc: &mut Acc<T>) -> (S, [Bitboard; 2]) {
    let w = side_terms(white.pawns, black.pawns.flip_vertical(), acc.side(Color::White));
    let s = acc.take();
    let b = side_terms(black.pawns, white.pawns.flip_vertical(), acc.side(Color::Black));
    (s - acc.take(), [w, b])
}

/// The pawn hash table entry of a position: its pawn score (white's minus black's) and passed
/// pawns, computed without tracing. With no pawns at all this is the all-zero entry.
#[inline(always)]
pub fn entry(white: &Side, black: &Side) -> PawnEntry {
    let (score, passed) = evaluate(white, black, &mut Acc::new(&mut NoTrace));
    PawnEntry { key: 0, score, passed }
}

/// The pawn terms of one side, `ours` moving up against `theirs` (same frame):
///
/// - **Material and placement** of every pawn.
/// - **Isolated** pawns (no own pawn on a neighbouring file) cannot be defended by pawns and
///   the square in front of them is a hole.
/// - **Doubled** pawns (an own pawn behind on the same file) cannot defend each other and the
///   rear one is hard to advance.
/// - **Backward** pawns cannot be defended by a neighbouring pawn (none stands level or behind
///   on the files beside it) and cannot advance safely (an enemy pawn hits the stop square).
/// - **Connected** pawns (defended by a pawn, or side by side) by rank: a chain or phalanx
///   grows stronger as it advances.
/// - **Passed** pawns (no enemy pawn ahead on the same or a neighbouring file, and no own pawn
///   ahead on the file) by rank; the terms that depend on other pieces are in `passed.rs`.
#[inline(always)]
fn side_terms<T: Tracer>(ours: Bitboard, theirs: Bitboard, acc: &mut Acc<T>) -> Bitboard {
    term!(acc, MATERIAL[Piece::Pawn.index()], ours.count() as i32);
    for sq in ours {
        term!(acc, PAWN_PSQT[sq.index()], 1);
    }
    let files = ours.file_fill();
    let isolated = ours & !(files.west() | files.east());
    term!(acc, ISOLATED, isolated.count() as i32);

    let doubled = ours & ours.shift(8).north_fill();
    term!(acc, DOUBLED, doubled.count() as i32);

    let supportable = (ours.west() | ours.east()).north_fill();
    let stop_attacked = theirs.pawn_attacks_down().shift(-8);
    let backward = ours & !supportable & stop_attacked & !isolated;
    term!(acc, BACKWARD, backward.count() as i32);

    let connected = ours & (ours.pawn_attacks_up() | ours.west() | ours.east());
    for sq in connected {
        term!(acc, CONNECTED[sq.rank().index()], 1);
    }

    // Squares in front of their pawns (they move down), widened to the neighbouring files.
    let their_front = theirs.shift(-8).south_fill();
    let their_span = their_front | their_front.west() | their_front.east();
    let behind_own = ours.shift(-8).south_fill();
    let passed = ours & !their_span & !behind_own;
    for sq in passed {
        term!(acc, PASSED_RANK[sq.rank().index()], 1);
    }
    passed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::types::Square;

    fn sides(fen: &str) -> (Side, Side) {
        let b = Board::from_fen(fen).unwrap();
        let w = Side::new(&b, Color::White);
        (w, Side::new(&b, Color::Black).flipped())
    }

    #[test]
    fn no_pawns_is_the_zero_entry() {
        // The pawn table starts zeroed; key 0 is the pawn key of a pawnless position, so a
        // zeroed slot must be exactly that position's entry.
        let (w, b) = sides("4k3/8/8/3q4/8/8/2N2B2/4K3 b - - 0 1");
        let e = entry(&w, &b);
        assert_eq!((e.score, e.passed), (S::ZERO, [Bitboard::EMPTY; 2]));
    }

    #[test]
    fn backward_and_passed_sets() {
        // White a4, c3, d4 against black b5: b5 watches a4 and c3, so only d4 is passed.
        let (w, b) = sides("4k3/8/8/1p6/P2P4/2P5/8/4K3 w - - 0 1");
        let e = entry(&w, &b);
        assert_eq!(e.passed[0], "d4".parse::<Square>().unwrap().bb());
        // Black's b5 (b4 in black's own frame) meets a4 and c3 on its path: not passed.
        assert!(e.passed[1].is_empty());
    }
}
