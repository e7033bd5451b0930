//! Legal move generation straight from check and pin masks (no make/test/unmake), and the
//! fixed-capacity `MoveList`.
//!
//! One generator serves every use: it reports moves to a `MoveSink` as (origin, target set)
//! groups. A `MoveList` expands the groups into moves; a `MoveCounter` only counts them
//! with popcounts, which is what makes bulk-counting perft fast.

use crate::bitboard::Bitboard;
use crate::board::{castle_bit, Board};
use crate::error::MoveError;
use crate::moves::{Move, MoveKind};
use crate::tables::{self, between, line};
use crate::types::{CastleSide, Color, Piece, Rank, Square};
use std::mem::MaybeUninit;

/// Maximum number of legal moves in any chess position is 218.
pub const MAX_MOVES: usize = 256;

/// A fixed-capacity list of moves (no heap allocation). The storage is left uninitialised
/// beyond `len`, so creating a list costs nothing.
pub struct MoveList {
    moves: [MaybeUninit<Move>; MAX_MOVES],
    len: usize,
}

impl Clone for MoveList {
    fn clone(&self) -> Self {
        let mut out = MoveList::new();
        out.moves[..self.len].copy_from_slice(&self.moves[..self.len]);
        out.len = self.len;
        out
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl MoveList {
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList { moves: [MaybeUninit::uninit(); MAX_MOVES], len: 0 }
    }
    /// Empties the list (its storage stays).
    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        // Bounds-checked (a legal position has at most 218 moves, so this never fails in
        // practice; the check is one predictable compare).
        self.moves[self.len].write(m);
        self.len += 1;
    }
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        debug_assert!(self.len <= MAX_MOVES);
        // SAFETY: `push` is the only writer: it initialises `moves[len]` before incrementing
        // `len`, so the first `len` (<= MAX_MOVES) elements are initialised, and
        // `MaybeUninit<Move>` has the same layout as `Move`.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr().cast::<Move>(), self.len) }
    }
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        debug_assert!(self.len <= MAX_MOVES);
        // SAFETY: as in `as_slice`; the first `len` elements are initialised.
        unsafe { std::slice::from_raw_parts_mut(self.moves.as_mut_ptr().cast::<Move>(), self.len) }
    }
    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }
}

impl std::ops::Index<usize> for MoveList {
    type Output = Move;
    fn index(&self, i: usize) -> &Move {
        &self.as_slice()[i]
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

/// Receives generated moves grouped by origin or by pawn shift.
pub trait MoveSink {
    /// Normal moves from `from` to each square of `to`.
    fn piece_moves(&mut self, from: Square, to: Bitboard);
    /// Non-promoting pawn moves to each square of `to`, from `to - delta`.
    fn pawn_moves(&mut self, to: Bitboard, delta: i8);
    /// Promotions (four pieces each) to each square of `to`, from `to - delta`.
    fn pawn_promotions(&mut self, to: Bitboard, delta: i8);
    /// Promotions from one pawn to each square of `to`.
    fn promotions_from(&mut self, from: Square, to: Bitboard);
    /// A single special move (castling, en passant).
    fn special(&mut self, m: Move);
}

/// Promotion pieces in the order they are listed (queen first helps move ordering).
const PROMOS: [Piece; 4] = [Piece::Queen, Piece::Knight, Piece::Rook, Piece::Bishop];

impl MoveSink for MoveList {
    #[inline(always)]
    fn piece_moves(&mut self, from: Square, to: Bitboard) {
        for t in to {
            self.push(Move::new(from, t, MoveKind::Normal));
        }
    }
    #[inline(always)]
    fn pawn_moves(&mut self, to: Bitboard, delta: i8) {
        for t in to {
            self.push(Move::new(Square::from_index((t.index() as i8 - delta) as u8 as usize), t, MoveKind::Normal));
        }
    }
    #[inline(always)]
    fn pawn_promotions(&mut self, to: Bitboard, delta: i8) {
        for t in to {
            let from = Square::from_index((t.index() as i8 - delta) as u8 as usize);
            for p in PROMOS {
                self.push(Move::promotion_to(from, t, p));
            }
        }
    }
    #[inline(always)]
    fn promotions_from(&mut self, from: Square, to: Bitboard) {
        for t in to {
            for p in PROMOS {
                self.push(Move::promotion_to(from, t, p));
            }
        }
    }
    #[inline(always)]
    fn special(&mut self, m: Move) {
        self.push(m);
    }
}

/// Counts moves without listing them.
#[derive(Default)]
pub struct MoveCounter(u64);

impl MoveCounter {
    /// The number of moves counted so far.
    #[inline(always)]
    pub fn count(&self) -> u64 {
        self.0
    }
}

impl MoveSink for MoveCounter {
    #[inline(always)]
    fn piece_moves(&mut self, _from: Square, to: Bitboard) {
        self.0 += to.count() as u64;
    }
    #[inline(always)]
    fn pawn_moves(&mut self, to: Bitboard, _delta: i8) {
        self.0 += to.count() as u64;
    }
    #[inline(always)]
    fn pawn_promotions(&mut self, to: Bitboard, _delta: i8) {
        self.0 += 4 * to.count() as u64;
    }
    #[inline(always)]
    fn promotions_from(&mut self, _from: Square, to: Bitboard) {
        self.0 += 4 * to.count() as u64;
    }
    #[inline(always)]
    fn special(&mut self, _m: Move) {
        self.0 += 1;
    }
}

/// Generation modes (const generic parameter).
pub const ALL: u8 = 0;
/// Captures (including en passant) and all promotions.
pub const CAPTURES: u8 = 1;
/// Everything else: non-capturing, non-promoting moves including castling.
pub const QUIETS: u8 = 2;

impl Board {
    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate::<ALL, _>(&mut list);
        list
    }

    /// Legal captures, en passant captures and promotions (for quiescence).
    pub fn captures(&self, list: &mut MoveList) {
        self.generate::<CAPTURES, _>(list);
    }

    /// Legal non-captures that are not promotions, including castling.
    pub fn quiets(&self, list: &mut MoveList) {
        self.generate::<QUIETS, _>(list);
    }

    /// Number of legal moves, counted without building a list.
    #[inline]
    pub fn count_moves(&self) -> u64 {
        self.count_moves_inline()
    }

    /// `count_moves`, always inlined. Both exist on purpose: callers share one out-of-line
    /// copy of `count_moves`, while perft inlines this one into its `popcnt`-enabled copy
    /// (see `perft/count.rs`), where bulk counting is mostly popcounts.
    #[inline(always)]
    pub fn count_moves_inline(&self) -> u64 {
        let mut c = MoveCounter(0);
        self.generate::<ALL, _>(&mut c);
        c.0
    }

    /// The legal-move generator. In check it produces exactly the evasions (king moves,
    /// and with a single checker captures of it and blocks), so there is no separate
    /// evasion generator.
    #[inline(always)]
    pub fn generate<const MODE: u8, S: MoveSink>(&self, sink: &mut S) {
        let us = self.side_to_move();
        let them = us.flip();
        let ours = self.color(us);
        let theirs = self.color(them);
        let occ = ours | theirs;
        let k = self.king_sq(us);
        let checkers = self.checkers();

        // What the destination may hold in this mode.
        let mode_mask = match MODE {
            CAPTURES => theirs,
            QUIETS => !occ,
            _ => !ours,
        };

        // 1. King moves: every target tested with the king removed from the occupancy, so
        //    that it cannot hide behind itself from a slider.
        let queens = self.pieces(Piece::Queen);
        let their_bq = (self.pieces(Piece::Bishop) | queens) & theirs;
        let their_rq = (self.pieces(Piece::Rook) | queens) & theirs;
        let mut king_to = Bitboard::EMPTY;
        let occ_no_king = occ ^ k.bb();
        for t in tables::king_attacks(k) & mode_mask {
            if !self.attacked_by_with(them, t, occ_no_king, their_bq, their_rq) {
                king_to |= t.bb();
            }
        }
        sink.piece_moves(k, king_to);

        if checkers.is_empty() {
            self.generate_pieces::<MODE, false, S>(sink, us, k, occ, mode_mask, Bitboard::FULL);
            // Castling.
            if MODE != CAPTURES {
                for side in CastleSide::ALL {
                    if self.castle_rights() & castle_bit(us, side) != 0 {
                        self.castle_move(sink, us, side, k, occ, their_bq, their_rq);
                    }
                }
            }
        } else if !checkers.several() {
            // With one checker, other pieces must capture it or block.
            let check_mask = between(k, checkers.lsb()) | checkers;
            self.generate_pieces::<MODE, true, S>(sink, us, k, occ, mode_mask, check_mask);
        }
    }

    /// Non-king moves to `target` (mode and check masks applied). In check
    /// (`IN_CHECK`), pinned pieces cannot help, so they are skipped altogether.
    #[inline(always)]
    fn generate_pieces<const MODE: u8, const IN_CHECK: bool, S: MoveSink>(
        &self,
        sink: &mut S,
        us: Color,
        k: Square,
        occ: Bitboard,
        mode_mask: Bitboard,
        check_mask: Bitboard,
    ) {
        let target = mode_mask & check_mask;
        let ours = self.color(us);
        let pinned = self.pinned();
        let free = ours & !pinned;
        let queens = self.pieces(Piece::Queen);
        let bq = (self.pieces(Piece::Bishop) | queens) & ours;
        let rq = (self.pieces(Piece::Rook) | queens) & ours;

        // Knights (a pinned knight never moves).
        for from in self.pieces(Piece::Knight) & free {
            sink.piece_moves(from, tables::knight_attacks(from) & target);
        }
        // Sliders.
        for from in bq & free {
            sink.piece_moves(from, tables::bishop_attacks(from, occ) & target);
        }
        for from in rq & free {
            sink.piece_moves(from, tables::rook_attacks(from, occ) & target);
        }
        // A pinned slider stays on the line through its king.
        if !IN_CHECK && pinned.any() {
            for from in bq & pinned {
                sink.piece_moves(from, tables::bishop_attacks(from, occ) & target & line(k, from));
            }
            for from in rq & pinned {
                sink.piece_moves(from, tables::rook_attacks(from, occ) & target & line(k, from));
            }
        }

        // Pawns.
        let movable = if IN_CHECK { free } else { ours };
        self.pawn_moves::<MODE, S>(sink, us, k, self.color(us.flip()), occ, check_mask, movable);
    }

    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn pawn_moves<const MODE: u8, S: MoveSink>(
        &self,
        sink: &mut S,
        us: Color,
        k: Square,
        theirs: Bitboard,
        occ: Bitboard,
        check_mask: Bitboard,
        movable: Bitboard,
    ) {
        let pawns = self.pieces(Piece::Pawn) & movable;
        let pinned = self.pinned();
        let free = pawns & !pinned;
        let empty = !occ;
        let (up, last_rank, third_rank) = match us {
            Color::White => (8i8, Bitboard::rank(Rank::Eighth), Bitboard::rank(Rank::Third)),
            Color::Black => (-8i8, Bitboard::rank(Rank::First), Bitboard::rank(Rank::Sixth)),
        };

        // Pushes.
        let single = free.shift(up) & empty;
        let double = (single & third_rank).shift(up) & empty & check_mask;
        let single = single & check_mask;
        if MODE != CAPTURES {
            sink.pawn_moves(single & !last_rank, up);
            sink.pawn_moves(double, 2 * up);
        }
        if MODE != QUIETS {
            sink.pawn_promotions(single & last_rank, up);
            // Captures towards the a-file and towards the h-file.
            let west = (free & !Bitboard::FILE_A).shift(up - 1) & theirs & check_mask;
            let east = (free & !Bitboard::FILE_H).shift(up + 1) & theirs & check_mask;
            sink.pawn_moves(west & !last_rank, up - 1);
            sink.pawn_promotions(west & last_rank, up - 1);
            sink.pawn_moves(east & !last_rank, up + 1);
            sink.pawn_promotions(east & last_rank, up + 1);
        }

        // Pinned pawns (only when not in check; `movable` already excludes them in check).
        for from in pawns & pinned {
            let allowed = line(k, from);
            let push = from.bb().shift(up) & empty;
            let push2 = (push & third_rank).shift(up) & empty;
            let pushes = (push | push2) & allowed;
            let caps = tables::pawn_attacks(us, from) & theirs & allowed;
            if MODE != CAPTURES {
                sink.piece_moves(from, pushes & !last_rank);
            }
            if MODE != QUIETS {
                sink.piece_moves(from, caps & !last_rank);
                sink.promotions_from(from, (pushes | caps) & last_rank);
            }
        }

        // En passant: tested by removing both pawns and looking for a slider on the king.
        if MODE != QUIETS {
            if let Some(ep) = self.ep_square() {
                let them = us.flip();
                let cap_sq = ep.ep_victim();
                let checkers = self.checkers();
                if checkers.is_empty() || checkers.has(cap_sq) || check_mask.has(ep) {
                    let theirs_bq = (self.pieces(Piece::Bishop) | self.pieces(Piece::Queen)) & theirs;
                    let theirs_rq = (self.pieces(Piece::Rook) | self.pieces(Piece::Queen)) & theirs;
                    for from in tables::pawn_attacks(them, ep) & self.colored(us, Piece::Pawn) {
                        let occ2 = (occ ^ from.bb() ^ cap_sq.bb()) | ep.bb();
                        if (tables::rook_attacks(k, occ2) & theirs_rq & !cap_sq.bb()).is_empty()
                            && (tables::bishop_attacks(k, occ2) & theirs_bq).is_empty()
                        {
                            sink.special(Move::new(from, ep, MoveKind::EnPassant));
                        }
                    }
                }
            }
        }
    }

    /// Adds one castling move if legal: the squares the king and rook pass over and land on
    /// are empty (but for themselves), and no square the king passes or lands on is
    /// attacked — with the castling rook taken away, so a rook that shields its own king
    /// on the back rank (Chess960) is seen through. The masks are precomputed per right.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn castle_move<S: MoveSink>(
        &self,
        sink: &mut S,
        us: Color,
        side: CastleSide,
        k: Square,
        occ: Bitboard,
        their_bq: Bitboard,
        their_rq: Bitboard,
    ) {
        if (self.castle_empty(us, side) & occ).any() {
            return;
        }
        let rook = self.castle_rook(us, side).expect("castling right without rook");
        let them = us.flip();
        let occ_no_rook = occ ^ rook.bb();
        for s in self.castle_king_path(us, side) {
            if self.attacked_by_with(them, s, occ_no_rook, their_bq, their_rq) {
                return;
            }
        }
        sink.special(Move::new(k, rook, MoveKind::Castle));
    }

    /// Finds the legal move written `s` in UCI notation. Castling is accepted both as the
    /// king's two-step (`e1g1`) and as king-takes-rook (`e1h1`). A rejected text comes
    /// back with the reason.
    pub fn parse_uci_move(&self, s: &str) -> Result<Move, MoveError> {
        let list = self.legal_moves();
        let found = list.iter().copied().find(|m| m.uci(self.is_chess960()).to_string() == s);
        let found = found.or_else(|| {
            list.iter()
                .copied()
                .find(|m| m.is_castle() && (m.uci(true).to_string() == s || m.uci(false).to_string() == s))
        });
        if let Some(m) = found {
            return Ok(m);
        }
        // Not legal: work out why, for the error message.
        let parsed: Move = s.parse().map_err(MoveError::Syntax)?;
        if parsed.is_null() {
            return Err(MoveError::Null);
        }
        let (mv, from) = (s.to_string(), parsed.from());
        match self.color_on(from) {
            None => Err(MoveError::NoPiece { mv, from }),
            Some(c) if c != self.side_to_move() => Err(MoveError::NotYourPiece { mv, from }),
            _ if !parsed.is_promotion()
                && list.iter().any(|m| m.is_promotion() && m.from() == from && m.to() == parsed.to()) =>
            {
                Err(MoveError::MissingPromotion { mv })
            }
            _ => Err(MoveError::Illegal { mv, from }),
        }
    }
}

/// What [`Board::gives_check_with`] needs to answer for many moves of one position: the
/// squares from which each piece type would attack the opponent's king, and our pieces
/// that alone stand between that king and one of our sliders.
pub struct CheckInfo {
    /// Indexed by `Piece::index()`; the king's entry stays empty (a king gives no check).
    squares: [Bitboard; 6],
    discoverers: Bitboard,
    king: Square,
}

impl Board {
    /// Whether the legal move `m` gives check, worked out without playing it: the moved
    /// piece's attacks from its new square, and sliders revealed behind the squares it left
    /// (both the origin and, for en passant, the captured pawn's square). Castling moves
    /// king and rook at once: the rook from its new square, and any slider revealed behind
    /// either square they left.
    pub fn gives_check(&self, m: Move) -> bool {
        let us = self.side_to_move();
        let k = self.king_sq(us.flip());
        if m.is_castle() {
            // Internally a castling move goes from the king's square to its rook's square.
            let (king_to, rook_to) = crate::board::castle_destinations(us, m.castle_side());
            let left = m.from().bb() | m.to().bb();
            let occ = (self.occupied() & !left) | king_to.bb() | rook_to.bb();
            let ours = self.color(us) & !left;
            let bq = (self.pieces(Piece::Bishop) | self.pieces(Piece::Queen)) & ours;
            let rq = ((self.pieces(Piece::Rook) | self.pieces(Piece::Queen)) & ours) | rook_to.bb();
            return (tables::bishop_attacks(k, occ) & bq).any() || (tables::rook_attacks(k, occ) & rq).any();
        }
        let (from, to) = (m.from(), m.to());
        let mover = if m.is_promotion() { m.promotion() } else { self.piece_on(from).unwrap_or(Piece::Pawn) };
        let mut occ = (self.occupied() ^ from.bb()) | to.bb();
        if m.is_en_passant() {
            occ ^= to.ep_victim().bb();
        }
        // Direct check from the destination.
        let direct = match mover {
            Piece::Pawn => tables::pawn_attacks(us, to).has(k),
            Piece::Knight => tables::knight_attacks(to).has(k),
            Piece::Bishop => tables::bishop_attacks(to, occ).has(k),
            Piece::Rook => tables::rook_attacks(to, occ).has(k),
            Piece::Queen => tables::queen_attacks(to, occ).has(k),
            Piece::King => false,
        };
        if direct {
            return true;
        }
        // Discovered check: one of our other sliders now sees the king.
        let ours = self.color(us) & !from.bb();
        let bq = (self.pieces(Piece::Bishop) | self.pieces(Piece::Queen)) & ours;
        let rq = (self.pieces(Piece::Rook) | self.pieces(Piece::Queen)) & ours;
        (tables::bishop_attacks(k, occ) & bq).any() || (tables::rook_attacks(k, occ) & rq).any()
    }

    /// The [`CheckInfo`] of this position, for the side to move.
    pub fn check_info(&self) -> CheckInfo {
        let us = self.side_to_move();
        let king = self.king_sq(us.flip());
        let occ = self.occupied();
        let ours = self.color(us);
        let bishop = tables::bishop_attacks(king, occ);
        let rook = tables::rook_attacks(king, occ);
        let mut squares = [Bitboard::EMPTY; 6];
        squares[Piece::Pawn.index()] = tables::pawn_attacks(us.flip(), king);
        squares[Piece::Knight.index()] = tables::knight_attacks(king);
        squares[Piece::Bishop.index()] = bishop;
        squares[Piece::Rook.index()] = rook;
        squares[Piece::Queen.index()] = bishop | rook;
        let bq = (self.pieces(Piece::Bishop) | self.pieces(Piece::Queen)) & ours;
        let rq = (self.pieces(Piece::Rook) | self.pieces(Piece::Queen)) & ours;
        let snipers = (tables::bishop_rays(king) & bq) | (tables::rook_rays(king) & rq);
        let mut discoverers = Bitboard::EMPTY;
        for s in snipers {
            let b = between(king, s) & occ;
            if b.any() && !b.several() && (b & ours).any() {
                discoverers |= b;
            }
        }
        CheckInfo { squares, discoverers, king }
    }

    /// [`Board::gives_check`], answered from `info` (this position's [`CheckInfo`]) for a
    /// plain move or capture; castling, promotions and en passant take the full path. A
    /// slider's check squares are read with the piece still on its origin: that can only
    /// matter when the piece moves away from the king along the line between them, and then
    /// it would already be giving check, which the side to move cannot.
    #[inline]
    pub fn gives_check_with(&self, info: &CheckInfo, m: Move) -> bool {
        if m.kind() != MoveKind::Normal {
            return self.gives_check(m);
        }
        let (from, to) = (m.from(), m.to());
        let mover = self.piece_on(from).unwrap_or(Piece::Pawn);
        info.squares[mover.index()].has(to) || (info.discoverers.has(from) && !line(info.king, from).has(to))
    }
}
