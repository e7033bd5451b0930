//! Passed pawns and the pieces around them. Which pawns are passed, and their bonus by rank,
//! come from the pawn structure (`pawns.rs`, cached); what depends on the kings and the other
//! pieces is scored here, per passed pawn and by its rank.

use super::acc::{Acc, Attacks, Side};
use super::trace::Tracer;
use crate::bitboard::Bitboard;
use crate::types::Square;

/// For each passed pawn of `us` (own frame; `theirs` = the enemy's attacks in our frame):
///
/// - **King distances** to the stop square (the square in front of the pawn): the enemy king
///   far away is good, our own king far away is a little bad; both matter more as the pawn
///   advances.
/// - **Free path**: nothing at all stands between the pawn and the promotion square.
/// - **Safe stop square**: no enemy piece or pawn attacks the square in front.
/// - **Blocked**: an enemy piece stands on the stop square.
#[inline(always)]
pub fn evaluate<T: Tracer>(us: &Side, them: &Side, passed: Bitboard, theirs: &Attacks, acc: &mut Acc<T>) {
    let occ = us.all | them.all;
    for sq in passed {
        let r = sq.rank().index();
        // A pawn stands on ranks 1..=6, so the stop square exists.
        let stop = Square::from_index(sq.index() + 8);
        term!(acc, PASSED_THEIR_KING_DIST[r], them.king.distance(stop));
        term!(acc, PASSED_OUR_KING_DIST[r], us.king.distance(stop));
        let path = stop.bb().north_fill();
        term!(acc, PASSED_FREE_PATH[r], (path & occ).is_empty() as i32);
        term!(acc, PASSED_SAFE_STOP[r], !theirs.all.has(stop) as i32);
        term!(acc, PASSED_BLOCKED[r], them.all.has(stop) as i32);
    }
}
