//! Static exchange evaluation: the material balance of the capture sequence on one square,
//! each side taking with its least valuable attacker and free to stop when continuing
//! would lose. Computed with a swap list:
//!
//! 1. `gain[0]` is what the move itself wins (the captured piece, plus the promotion gain).
//! 2. Each further capture `d` stores the speculative balance
//!    `gain[d] = value(piece on the square) - gain[d-1]`, from the capturing side's view.
//!    Removing the capturer reveals x-ray attackers behind it.
//! 3. Going back down the list, each side keeps the better of stopping and continuing:
//!    `gain[d-1] = -max(-gain[d-1], gain[d])`.
//!
//! Conventions (those of the SEE suite in perft-data's sibling `see.epd`): P=100, N=B=300,
//! R=500, Q=900; pins ignored; a king captures only if the square is no longer defended;
//! promotions (also on recapture) gain queen minus pawn, and pawns that would promote are
//! tried after rooks; en passant removes the captured pawn for x-rays; quiet moves score
//! 0 minus what the opponent wins on the square; castling is 0.

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::moves::{Move, MoveKind};
use crate::tables;
use crate::types::{Color, Piece, Rank, Square, NOMINAL_VALUES};

/// The king's SEE value: more than all the material one side could ever have (nine queens,
/// two rooks, four minors: 10300 nominal), so that a king "captured" in an exchange outweighs
/// everything the exchange could win.
pub const SEE_KING_VALUE: i32 = 20_000;
const _: () = assert!(
    SEE_KING_VALUE > 9 * NOMINAL_VALUES[4] + 2 * NOMINAL_VALUES[3] + 2 * NOMINAL_VALUES[2] + 2 * NOMINAL_VALUES[1]
);

/// SEE piece values, indexed by `Piece`: the nominal values (`types::NOMINAL_VALUES`, the same
/// ones move ordering and delta pruning use) with the king's value added.
pub const SEE_VALUES: [i32; 6] = {
    let mut v = NOMINAL_VALUES;
    v[Piece::King.index()] = SEE_KING_VALUE;
    v
};

#[inline(always)]
pub fn see_value(p: Piece) -> i32 {
    SEE_VALUES[p.index()]
}

/// The SEE value of what a move captures (0 for quiet moves), en passant counted as a pawn.
#[inline(always)]
pub fn captured_value(board: &Board, m: Move) -> i32 {
    board.captured_piece(m).map_or(0, see_value)
}

/// Least valuable attacker of `side` among `attackers`, in the order
/// P N B R Q K, or N B R P Q K when pawns would promote on `to`.
#[inline(always)]
fn least_valuable(board: &Board, attackers: Bitboard, side: Color, promo_rank: bool) -> Option<(Piece, Square)> {
    const NORMAL: [Piece; 6] = [Piece::Pawn, Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen, Piece::King];
    const PROMO: [Piece; 6] = [Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Pawn, Piece::Queen, Piece::King];
    let order = if promo_rank { &PROMO } else { &NORMAL };
    let mine = attackers & board.color(side);
    for &p in order {
        let b = mine & board.pieces(p);
        if b.any() {
            return Some((p, b.lsb()));
        }
    }
    None
}

/// The static exchange value of `m` for the side to move, in centipawns.
pub fn see(board: &Board, m: Move) -> i32 {
    if m.kind() == MoveKind::Castle {
        return 0;
    }
    let from = m.from();
    let to = m.to();
    let us = board.side_to_move();
    let mut occ = board.occupied() ^ from.bb();
    let mut gain = [0i32; 40];
    gain[0] = captured_value(board, m);
    let mover = board.piece_on(from).unwrap_or(Piece::Pawn);
    let mut on_square = see_value(mover);
    if m.kind() == MoveKind::Promotion {
        gain[0] += see_value(m.promotion()) - see_value(Piece::Pawn);
        on_square = see_value(m.promotion());
    }
    if m.kind() == MoveKind::EnPassant {
        occ ^= to.ep_victim().bb();
    }
    occ |= to.bb();
    let bq = board.pieces(Piece::Bishop) | board.pieces(Piece::Queen);
    let rq = board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
    let mut attackers = board.attackers_to(to, occ) & occ & !to.bb();
    let mut side = us.flip();
    let mut d = 0;
    loop {
        let promo_rank = to.rank() == Rank::Eighth.relative(side);
        let Some((p, sq)) = least_valuable(board, attackers, side, promo_rank) else { break };
        if p == Piece::King && (attackers & board.color(side.flip())).any() {
            break;
        }
        d += 1;
        gain[d] = on_square - gain[d - 1];
        on_square = see_value(p);
        if p == Piece::Pawn && promo_rank {
            gain[d] += see_value(Piece::Queen) - see_value(Piece::Pawn);
            on_square = see_value(Piece::Queen);
        }
        occ ^= sq.bb();
        attackers ^= sq.bb();
        // Reveal x-rays through the square just vacated.
        attackers |= (tables::bishop_attacks(to, occ) & bq) | (tables::rook_attacks(to, occ) & rq);
        attackers &= occ;
        side = side.flip();
        if d + 1 >= gain.len() {
            break;
        }
    }
    while d > 0 {
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
        d -= 1;
    }
    gain[0]
}

/// Whether `see(board, m) >= threshold`, answering without the full exchange when the
/// first capture alone decides it.
pub fn see_ge(board: &Board, m: Move, threshold: i32) -> bool {
    if m.kind() == MoveKind::Castle {
        return 0 >= threshold;
    }
    let mut first = captured_value(board, m);
    let mut on_square = board.piece_on(m.from()).map_or(0, see_value);
    if m.kind() == MoveKind::Promotion {
        first += see_value(m.promotion()) - see_value(Piece::Pawn);
        on_square = see_value(m.promotion());
    }
    // The mover may be recaptured but never gains more than the first capture.
    if first < threshold {
        return false;
    }
    // Even losing the mover keeps us at the threshold, unless a recapture could promote.
    let to = m.to();
    let back_rank = to.rank() == Rank::First || to.rank() == Rank::Eighth;
    if !back_rank && first - on_square >= threshold {
        return true;
    }
    see(board, m) >= threshold
}
