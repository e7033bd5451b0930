//! make/unmake and the null move. `make` keeps the Zobrist key incremental; `unmake`
//! restores everything from the undo record, so a make/unmake pair leaves the position
//! bit-for-bit as it was.

use super::{Board, Undo};
use crate::moves::{Move, MoveKind};
use crate::tables::{self, zobrist};
use crate::types::{castle_destinations, Color, Piece, Square};

/// The key change of castling by `c`: the king from `king_from` to `kto`, the rook from
/// `rook_from` to `rto`. Shared by `make` and `key_after` so the two cannot disagree.
#[inline(always)]
fn castle_key(c: Color, king_from: Square, rook_from: Square, kto: Square, rto: Square) -> u64 {
    zobrist::piece(c, Piece::King, king_from)
        ^ zobrist::piece(c, Piece::King, kto)
        ^ zobrist::piece(c, Piece::Rook, rook_from)
        ^ zobrist::piece(c, Piece::Rook, rto)
}

impl Board {
    /// Plays a legal move.
    pub fn make(&mut self, m: Move) {
        self.make_inline(m);
    }

    /// The state `unmake` restores, before `m` is played.
    #[inline(always)]
    fn undo_record(&self, m: Move) -> Undo {
        Undo {
            mv: m,
            captured: None,
            castle_rights: self.castle_rights,
            ep: self.ep,
            halfmove: self.halfmove,
            key: self.key,
            pawn_key: self.pawn_key,
            checkers: self.checkers,
            pinned: self.pinned,
        }
    }

    /// `make`, always inlined. Both exist on purpose: the search and tools share one
    /// out-of-line copy of `make`, while perft inlines this one into its leaf loops.
    #[inline(always)]
    pub(crate) fn make_inline(&mut self, m: Move) {
        let us = self.side;
        let them = us.flip();
        let from = m.from();
        let to = m.to();
        let piece = self.squares[from.index()].expect("make: no piece on from-square");
        let mut undo = self.undo_record(m);
        let mut key = self.key ^ zobrist::side();
        if let Some(ep) = self.ep.take() {
            key ^= zobrist::ep_file(ep.file());
        }
        // Pawn-key changes: a pawn moving, promoting or being captured.
        let mut pawn_key = self.pawn_key;
        self.halfmove += 1;
        let mut captured = None;

        match m.kind() {
            MoveKind::Normal => {
                if let Some(cap) = self.squares[to.index()] {
                    self.remove(them, cap, to);
                    key ^= zobrist::piece(them, cap, to);
                    if cap == Piece::Pawn {
                        pawn_key ^= zobrist::piece(them, cap, to);
                    }
                    captured = Some(cap);
                    self.halfmove = 0;
                }
                self.shift_piece(us, piece, from, to);
                let moved = zobrist::piece(us, piece, from) ^ zobrist::piece(us, piece, to);
                key ^= moved;
                if piece == Piece::Pawn {
                    pawn_key ^= moved;
                    self.halfmove = 0;
                    if to.index() ^ from.index() == 16 {
                        let ep = Square::from_index((from.index() + to.index()) / 2);
                        if (tables::pawn_attacks(us, ep) & self.colored(them, Piece::Pawn)).any() {
                            self.ep = Some(ep);
                            key ^= zobrist::ep_file(ep.file());
                        }
                    }
                }
            }
            MoveKind::Promotion => {
                // A pawn cannot be captured by a promotion (none stand on the last rank).
                if let Some(cap) = self.squares[to.index()] {
                    self.remove(them, cap, to);
                    key ^= zobrist::piece(them, cap, to);
                    captured = Some(cap);
                }
                let promo = m.promotion();
                self.remove(us, Piece::Pawn, from);
                self.put(us, promo, to);
                key ^= zobrist::piece(us, Piece::Pawn, from) ^ zobrist::piece(us, promo, to);
                pawn_key ^= zobrist::piece(us, Piece::Pawn, from);
                self.halfmove = 0;
            }
            MoveKind::EnPassant => {
                let cap_sq = to.ep_victim();
                self.remove(them, Piece::Pawn, cap_sq);
                self.shift_piece(us, Piece::Pawn, from, to);
                let pawns = zobrist::piece(them, Piece::Pawn, cap_sq)
                    ^ zobrist::piece(us, Piece::Pawn, from)
                    ^ zobrist::piece(us, Piece::Pawn, to);
                key ^= pawns;
                pawn_key ^= pawns;
                captured = Some(Piece::Pawn);
                self.halfmove = 0;
            }
            MoveKind::Castle => {
                let (kto, rto) = castle_destinations(us, m.castle_side());
                self.remove(us, Piece::King, from);
                self.remove(us, Piece::Rook, to);
                self.put(us, Piece::King, kto);
                self.put(us, Piece::Rook, rto);
                key ^= castle_key(us, from, to, kto, rto);
            }
        }

        let (rights, rights_key) = self.rights_after(from, to);
        key ^= rights_key;
        self.castle_rights = rights;
        undo.captured = captured;
        self.stack.push(undo);
        self.side = them;
        if us == Color::Black {
            self.fullmove += 1;
        }
        self.key = key;
        self.pawn_key = pawn_key;
        self.update_check_info();
        debug_assert!(self.is_consistent());
    }

    /// The Zobrist key of the position after the legal move `m`, exactly what `make(m)`
    /// would leave in `key()`, without playing it (perft uses it to look a child up before
    /// deciding whether to play it). The rules are those of `make_inline`: the side to
    /// move flips, any en passant file is cleared and a new one set only when an enemy pawn
    /// could take, captured and moved pieces change squares, and castling rights are
    /// cleared by the squares moved from and to.
    #[inline(always)]
    pub(crate) fn key_after(&self, m: Move) -> u64 {
        let us = self.side;
        let them = us.flip();
        let (from, to) = (m.from(), m.to());
        let mut key = self.key ^ zobrist::side();
        if let Some(ep) = self.ep {
            key ^= zobrist::ep_file(ep.file());
        }
        match m.kind() {
            MoveKind::Normal => {
                let piece = self.squares[from.index()].expect("key_after: no piece on from-square");
                if let Some(cap) = self.squares[to.index()] {
                    key ^= zobrist::piece(them, cap, to);
                }
                key ^= zobrist::piece(us, piece, from) ^ zobrist::piece(us, piece, to);
                if piece == Piece::Pawn && to.index() ^ from.index() == 16 {
                    let ep = Square::from_index((from.index() + to.index()) / 2);
                    if (tables::pawn_attacks(us, ep) & self.colored(them, Piece::Pawn)).any() {
                        key ^= zobrist::ep_file(ep.file());
                    }
                }
            }
            MoveKind::Promotion => {
                if let Some(cap) = self.squares[to.index()] {
                    key ^= zobrist::piece(them, cap, to);
                }
                key ^= zobrist::piece(us, Piece::Pawn, from) ^ zobrist::piece(us, m.promotion(), to);
            }
            MoveKind::EnPassant => {
                key ^= zobrist::piece(them, Piece::Pawn, to.ep_victim())
                    ^ zobrist::piece(us, Piece::Pawn, from)
                    ^ zobrist::piece(us, Piece::Pawn, to);
            }
            MoveKind::Castle => {
                let (kto, rto) = castle_destinations(us, m.castle_side());
                key ^= castle_key(us, from, to, kto, rto);
            }
        }
        key ^ self.rights_after(from, to).1
    }

    /// The castling rights left after a move from `from` to `to` (a king or rook leaving
    /// its square, or a rook captured on it), and the key change from today's rights.
    #[inline(always)]
    fn rights_after(&self, from: Square, to: Square) -> (u8, u64) {
        let rights = self.castle_rights & self.castle_mask[from.index()] & self.castle_mask[to.index()];
        let key = if rights == self.castle_rights {
            0
        } else {
            zobrist::castling(self.castle_rights) ^ zobrist::castling(rights)
        };
        (rights, key)
    }

    /// Takes back the last move made with `make`.
    pub fn unmake(&mut self) {
        self.unmake_inline();
    }

    /// `unmake`, always inlined; see `make_inline` for why both exist.
    #[inline(always)]
    pub(crate) fn unmake_inline(&mut self) {
        let u = self.stack.pop().expect("unmake: empty undo stack");
        let m = u.mv;
        let them = self.side;
        let us = them.flip();
        self.side = us;
        let (from, to) = (m.from(), m.to());
        match m.kind() {
            MoveKind::Normal => {
                let piece = self.squares[to.index()].expect("unmake: no piece on to-square");
                self.shift_piece(us, piece, to, from);
                if let Some(cap) = u.captured {
                    self.put(them, cap, to);
                }
            }
            MoveKind::Promotion => {
                self.remove(us, m.promotion(), to);
                self.put(us, Piece::Pawn, from);
                if let Some(cap) = u.captured {
                    self.put(them, cap, to);
                }
            }
            MoveKind::EnPassant => {
                self.shift_piece(us, Piece::Pawn, to, from);
                self.put(them, Piece::Pawn, to.ep_victim());
            }
            MoveKind::Castle => {
                let (kto, rto) = castle_destinations(us, m.castle_side());
                self.remove(us, Piece::King, kto);
                self.remove(us, Piece::Rook, rto);
                self.put(us, Piece::King, from);
                self.put(us, Piece::Rook, to);
            }
        }
        if us == Color::Black {
            self.fullmove -= 1;
        }
        self.castle_rights = u.castle_rights;
        self.ep = u.ep;
        self.halfmove = u.halfmove;
        self.key = u.key;
        self.pawn_key = u.pawn_key;
        self.checkers = u.checkers;
        self.pinned = u.pinned;
    }

    /// Passes the move (for null-move pruning). Must not be called in check.
    pub fn make_null(&mut self) {
        debug_assert!(!self.in_check());
        self.null_plies.push(self.stack.len());
        self.stack.push(self.undo_record(Move::NULL));
        let mut key = self.key ^ zobrist::side();
        if let Some(ep) = self.ep.take() {
            key ^= zobrist::ep_file(ep.file());
        }
        self.halfmove += 1;
        self.side = self.side.flip();
        self.key = key;
        self.update_check_info();
    }

    /// Takes back a null move.
    pub fn unmake_null(&mut self) {
        let u = self.stack.pop().expect("unmake_null: empty undo stack");
        self.null_plies.pop();
        self.side = self.side.flip();
        self.ep = u.ep;
        self.halfmove = u.halfmove;
        self.key = u.key;
        self.checkers = u.checkers;
        self.pinned = u.pinned;
    }
}
