//! Pawn structure and passed pawns, computed set-wise with fills on the side's own frame
//! (the side to score always moves "up"; see `Side`).

use super::params::*;
use super::score::S;
use super::Side;
use crate::bitboard::Bitboard;
use crate::types::Square;

const NOT_A: u64 = !Bitboard::FILE_A.raw();
const NOT_H: u64 = !Bitboard::FILE_H.raw();

/// Everything on the squares of `b` and above them (towards rank 8).
#[inline(always)]
pub fn north_fill(b: u64) -> u64 {
    let b = b | b << 8;
    let b = b | b << 16;
    b | b << 32
}

/// Everything on the squares of `b` and below them (towards rank 1).
#[inline(always)]
pub fn south_fill(b: u64) -> u64 {
    let b = b | b >> 8;
    let b = b | b >> 16;
    b | b >> 32
}

/// Whole files holding a square of `b`.
#[inline(always)]
pub fn file_fill(b: u64) -> u64 {
    north_fill(south_fill(b))
}

#[inline(always)]
pub fn west(b: u64) -> u64 {
    (b & NOT_A) >> 1
}

#[inline(always)]
pub fn east(b: u64) -> u64 {
    (b & NOT_H) << 1
}

/// Squares attacked by pawns moving up the board.
#[inline(always)]
pub fn attacks_up(b: u64) -> u64 {
    (b & NOT_A) << 7 | (b & NOT_H) << 9
}

/// Squares attacked by pawns moving down the board.
#[inline(always)]
pub fn attacks_down(b: u64) -> u64 {
    (b & NOT_A) >> 9 | (b & NOT_H) >> 7
}

/// King (Chebyshev) distance between two squares.
#[inline(always)]
pub fn distance(a: Square, b: Square) -> i32 {
    let df = (a.file().index() as i32 - b.file().index() as i32).abs();
    let dr = (a.rank().index() as i32 - b.rank().index() as i32).abs();
    df.max(dr)
}

/// Pawn structure of `us` (which moves up) against `them`:
///
/// - **Isolated** pawns (no own pawn on a neighbouring file) are weak: they cannot be
///   defended by pawns and the square in front of them is a hole.
/// - **Doubled** pawns (an own pawn behind on the same file) are penalised per extra pawn;
///   they cannot defend each other and the rear one is hard to advance. Mostly an endgame
///   weakness.
/// - **Connected** pawns (defended by a pawn, or side by side) get a small bonus.
/// - **Passed** pawns (no enemy pawn ahead on the same or a neighbouring file, and not
///   behind an own pawn) get a bonus growing steeply with their rank, larger in the
///   endgame. In the endgame they also gain when the enemy king is far from the stop
///   square (and lose a little when our own king is far), weighted by rank, and gain when
///   nothing at all stands on the path to promotion.
#[inline(always)]
pub fn pawn_structure(us: &Side, them: &Side, occ: Bitboard) -> S {
    let ours = us.pawns.raw();
    let theirs = them.pawns.raw();
    let mut s = S::ZERO;

    let files = us.pawn_files;
    let isolated = ours & !(west(files) | east(files));
    s += ISOLATED * isolated.count_ones() as i32;

    let doubled = ours & north_fill(ours << 8);
    s += DOUBLED * doubled.count_ones() as i32;

    let connected = ours & (attacks_up(ours) | west(ours) | east(ours));
    s += CONNECTED * connected.count_ones() as i32;

    // Squares in front of their pawns (they move down), widened to the neighbouring files.
    let their_front = south_fill(theirs >> 8);
    let their_span = their_front | west(their_front) | east(their_front);
    let behind_own = south_fill(ours >> 8);
    let passed = Bitboard::from_raw(ours & !their_span & !behind_own);
    for sq in passed {
        let r = sq.rank().index();
        s += PASSED_RANK[r];
        // A pawn stands on ranks 1..=6, so the stop square exists.
        let stop = Square::from_index(sq.index() + 8);
        let w = PASSED_KING_RANK_WEIGHT[r];
        let kd = PASSED_THEIR_KING_DIST_EG * distance(them.king, stop)
            - PASSED_OUR_KING_DIST_EG * distance(us.king, stop);
        let mut eg = w * kd;
        if north_fill(stop.bb().raw()) & occ.raw() == 0 {
            eg += PASSED_FREE_PATH_EG[r];
        }
        s += S(0, eg);
    }
    s
}
