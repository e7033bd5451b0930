//! Counting the replies to a move without playing it in full: the inner loop of perft's
//! last two plies, where a move is played only to count the moves that answer it.

use super::Board;
use crate::moves::{Move, MoveKind};
use crate::tables;
use crate::types::{castle_destinations, Piece, Square};

impl Board {
    /// The number of legal moves after the legal move `m`, exactly what `make(m)`,
    /// `count_moves()` and `unmake()` give, for less work.
    ///
    /// 1. Save the state the move generator reads: piece and colour bitboards, side to move,
    ///    castling rights, en passant square, checkers and pins (about 90 bytes).
    /// 2. Play `m` on those alone, by the rules of `make_inline` (captures, promotions, en
    ///    passant, castling with the king and rook destinations, the en passant square only
    ///    when an enemy pawn could take, rights cleared by the squares moved from and to),
    ///    and recompute checkers and pins for the side now to move.
    /// 3. Count the legal moves.
    /// 4. Copy the saved state back.
    ///
    /// The piece-on-square array, the Zobrist key, the move counters and the undo stack are
    /// never touched, which is what makes this cheaper than a make/unmake pair.
    #[inline(always)]
    pub(crate) fn count_after_inline(&mut self, m: Move) -> u64 {
        // Step 1.
        let (pieces, colors) = (self.pieces, self.colors);
        let (side, rights, ep, checkers, pinned) = (self.side, self.castle_rights, self.ep, self.checkers, self.pinned);

        // Step 2.
        let us = side;
        let them = us.flip();
        let (from, to) = (m.from(), m.to());
        self.ep = None;
        let capture = |b: &mut Board| {
            if let Some(cap) = b.squares[to.index()] {
                b.pieces[cap.index()] ^= to.bb();
                b.colors[them.index()] ^= to.bb();
            }
        };
        match m.kind() {
            MoveKind::Normal => {
                let piece = self.squares[from.index()].expect("count_after: no piece on from-square");
                capture(self);
                let mask = from.bb() | to.bb();
                self.pieces[piece.index()] ^= mask;
                self.colors[us.index()] ^= mask;
                if piece == Piece::Pawn && to.index() ^ from.index() == 16 {
                    let passed = Square::from_index((from.index() + to.index()) / 2);
                    if (tables::pawn_attacks(us, passed) & self.colored(them, Piece::Pawn)).any() {
                        self.ep = Some(passed);
                    }
                }
            }
            MoveKind::Promotion => {
                capture(self);
                self.pieces[Piece::Pawn.index()] ^= from.bb();
                self.pieces[m.promotion().index()] |= to.bb();
                self.colors[us.index()] ^= from.bb() | to.bb();
            }
            MoveKind::EnPassant => {
                let victim = to.ep_victim();
                self.pieces[Piece::Pawn.index()] ^= from.bb() | to.bb() | victim.bb();
                self.colors[us.index()] ^= from.bb() | to.bb();
                self.colors[them.index()] ^= victim.bb();
            }
            MoveKind::Castle => {
                // `to` is the rook's square; king and rook may land on each other's squares.
                let (kto, rto) = castle_destinations(us, m.castle_side());
                let king = &mut self.pieces[Piece::King.index()];
                *king = (*king & !from.bb()) | kto.bb();
                let rook = &mut self.pieces[Piece::Rook.index()];
                *rook = (*rook & !to.bb()) | rto.bb();
                let ours = &mut self.colors[us.index()];
                *ours = (*ours & !(from.bb() | to.bb())) | kto.bb() | rto.bb();
            }
        }
        self.castle_rights &= self.castle_mask[from.index()] & self.castle_mask[to.index()];
        self.side = them;
        self.update_check_info();

        // Step 3.
        let n = self.count_moves_inline();

        // Step 4.
        (self.pieces, self.colors) = (pieces, colors);
        (self.side, self.castle_rights, self.ep, self.checkers, self.pinned) = (side, rights, ep, checkers, pinned);
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    /// Positions with every kind of move: castling both ways (standard and Chess960 with the
    /// king or rook landing on the other's square), en passant (also one that would expose
    /// the king), promotions with and without capture, checks and pins.
    const FENS: [&str; 8] = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "4k3/8/8/8/8/8/8/RK5R w HA - 0 1",
        "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1",
        "8/8/8/K2pP2q/8/8/8/7k w - d6 0 1",
    ];

    #[test]
    fn equals_make_count_unmake_and_leaves_the_board_as_it_was() {
        let mut rng = SmallRng::seed_from_u64(0x5EED);
        let mut checked = 0;
        for fen in FENS {
            for _game in 0..40 {
                let mut b = Board::from_fen(fen).unwrap();
                for _ply in 0..60 {
                    let moves = b.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    let before = (b.to_fen(), b.key(), b.checkers(), b.pinned(), b.castle_rights());
                    for &m in &moves {
                        let mut played = b.clone();
                        played.make(m);
                        let expected = played.count_moves();
                        assert_eq!(b.count_after_inline(m), expected, "{} after {m:?}", b.to_fen());
                        assert_eq!(b.key_after(m), played.key(), "{} after {m:?}", b.to_fen());
                        assert_eq!((b.to_fen(), b.key(), b.checkers(), b.pinned(), b.castle_rights()), before);
                        checked += 1;
                    }
                    b.make(moves[rng.gen_range(0..moves.len())]);
                }
            }
        }
        assert!(checked > 200_000, "{checked}");
    }
}
