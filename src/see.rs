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
//! The search asks only whether the value reaches a threshold (`see_ge`): that plays the
//! same captures forward and stops as soon as the balance so far decides the answer, with
//! no list.
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

/// What `m` itself wins (the captured piece plus the promotion gain) and the SEE value of
/// the piece it leaves on its target.
#[inline(always)]
fn move_gain(board: &Board, m: Move) -> (i32, i32) {
    let mut first = captured_value(board, m);
    let mut on_square = board.piece_on(m.from()).map_or(0, see_value);
    if m.kind() == MoveKind::Promotion {
        first += see_value(m.promotion()) - see_value(Piece::Pawn);
        on_square = see_value(m.promotion());
    }
    (first, on_square)
}

/// The captures on one square, in the order the exchange makes them: each side takes with
/// its least valuable attacker, and a king only when the square is no longer defended.
struct Exchange {
    to: Square,
    /// The pieces still on the board.
    occ: Bitboard,
    /// Every piece (of both sides) that attacks `to` through `occ`.
    attackers: Bitboard,
    bq: Bitboard,
    rq: Bitboard,
    /// The side to make the next capture.
    side: Color,
    /// The SEE value of the piece standing on `to`.
    on_square: i32,
}

impl Exchange {
    /// The exchange after `m`, which leaves a piece worth `on_square` on its target
    /// ([`move_gain`]). `m` is not castling.
    #[inline(always)]
    fn start(board: &Board, m: Move, on_square: i32) -> Exchange {
        let from = m.from();
        let to = m.to();
        let mut occ = board.occupied() ^ from.bb();
        if m.kind() == MoveKind::EnPassant {
            occ ^= to.ep_victim().bb();
        }
        occ |= to.bb();
        let bq = board.pieces(Piece::Bishop) | board.pieces(Piece::Queen);
        let rq = board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
        let attackers = board.attackers_to(to, occ) & occ & !to.bb();
        let side = board.side_to_move().flip();
        Exchange { to, occ, attackers, bq, rq, side, on_square }
    }

    /// Makes the next capture and returns what its side wins by it (the piece taken, plus
    /// the promotion gain when a pawn recaptures onto the last rank), or `None` when the
    /// side to capture has no attacker left or only a king facing a defended square.
    #[inline(always)]
    fn next(&mut self, board: &Board) -> Option<i32> {
        let side = self.side;
        let promo_rank = self.to.rank() == Rank::Eighth.relative(side);
        let (p, sq) = least_valuable(board, self.attackers, side, promo_rank)?;
        if p == Piece::King && (self.attackers & board.color(side.flip())).any() {
            return None;
        }
        let mut won = self.on_square;
        self.on_square = see_value(p);
        if p == Piece::Pawn && promo_rank {
            won += see_value(Piece::Queen) - see_value(Piece::Pawn);
            self.on_square = see_value(Piece::Queen);
        }
        self.occ ^= sq.bb();
        self.attackers ^= sq.bb();
        // Reveal the x-rays behind the square just vacated: diagonal ones behind a pawn or
        // bishop, straight ones behind a rook, either behind a queen or king (none behind a
        // knight, which stands on no line through the square).
        let diagonal = matches!(p, Piece::Pawn | Piece::Bishop | Piece::Queen | Piece::King);
        let straight = matches!(p, Piece::Rook | Piece::Queen | Piece::King);
        if diagonal {
            self.attackers |= tables::bishop_attacks(self.to, self.occ) & self.bq & self.occ;
        }
        if straight {
            self.attackers |= tables::rook_attacks(self.to, self.occ) & self.rq & self.occ;
        }
        self.side = side.flip();
        Some(won)
    }
}

/// The static exchange value of `m` for the side to move, in centipawns.
pub fn see(board: &Board, m: Move) -> i32 {
    if m.kind() == MoveKind::Castle {
        return 0;
    }
    let (first, on_square) = move_gain(board, m);
    let mut exchange = Exchange::start(board, m, on_square);
    // Each capture takes a piece off the board, so there are fewer than 64 of them.
    let mut gain = [0i32; 64];
    gain[0] = first;
    let mut d = 0;
    while let Some(won) = exchange.next(board) {
        d += 1;
        gain[d] = won - gain[d - 1];
    }
    while d > 0 {
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
        d -= 1;
    }
    gain[0]
}

/// Whether `see(board, m) >= threshold`, answered without the full exchange when the first
/// capture alone decides it, and otherwise as soon as the exchange played so far does.
pub fn see_ge(board: &Board, m: Move, threshold: i32) -> bool {
    if m.kind() == MoveKind::Castle {
        return 0 >= threshold;
    }
    let (first, on_square) = move_gain(board, m);
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
    let mut exchange = Exchange::start(board, m, on_square);
    // `balance` is our material after capture d (the move is capture 0), less the
    // threshold: b0, b1, ... b_last. Each side may stop instead of capturing, so the SEE
    // less the threshold is min(b0, max(b1, min(b2, max(b3, ... b_last)))), and it is >= 0
    // exactly when, read from the outside in, the first balance to decide is one after a
    // capture of theirs that is >= 0 (we may stop there), not one after a capture of ours
    // that is < 0 (they may stop there).
    // When none decides, the side of the last capture keeps the question.
    let mut balance = first - threshold;
    let mut ours = true;
    loop {
        if ours && balance < 0 {
            return false;
        }
        if !ours && balance >= 0 {
            return true;
        }
        // Nothing more to take: the last capture's side keeps what it has.
        let Some(won) = exchange.next(board) else { return ours };
        ours = !ours;
        balance += if ours { won } else { -won };
    }
}
