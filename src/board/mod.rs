//! The position: bitboards per piece and colour, a piece-on-square array, side to move,
//! castling rights (Chess960-aware: each right remembers its rook's square), en passant,
//! move counters, an incrementally updated Zobrist key (and a second one of the pawns alone,
//! for the evaluation's pawn hash table) and an undo stack that doubles as the key history for
//! repetition detection.

mod count;
mod fen;
mod makemove;

pub use crate::error::FenError;
pub use crate::types::castle_destinations;

use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveKind};
use crate::tables::{self, zobrist};
use crate::types::{CastleSide, Color, File, Piece, Rank, Square};

/// The standard start position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The bit of one castling right: white king side 1, white queen side 2, black 4 and 8.
#[inline(always)]
pub const fn castle_bit(c: Color, side: CastleSide) -> u8 {
    1 << (c.index() * 2 + side.index())
}

/// What `unmake` needs to restore a position.
#[derive(Copy, Clone, Debug)]
struct Undo {
    mv: Move,
    captured: Option<Piece>,
    castle_rights: u8,
    ep: Option<Square>,
    halfmove: u16,
    key: u64,
    pawn_key: u64,
    checkers: Bitboard,
    pinned: Bitboard,
}

#[derive(Clone)]
pub struct Board {
    pieces: [Bitboard; 6],
    colors: [Bitboard; 2],
    squares: [Option<Piece>; 64],
    side: Color,
    castle_rights: u8,
    /// Rook square of each right, `[color][CastleSide::index]`; meaningful while the right is held.
    castle_rooks: [[Square; 2]; 2],
    /// Rights kept when a move starts or ends on a square (clears rights when king or rook moves).
    castle_mask: [u8; 64],
    /// Squares that must be empty to castle, `[color][side]` (all but the king and rook).
    castle_empty: [[Bitboard; 2]; 2],
    /// Squares the king passes over or lands on when castling (must not be attacked).
    castle_king_path: [[Bitboard; 2]; 2],
    ep: Option<Square>,
    halfmove: u16,
    fullmove: u16,
    key: u64,
    /// Zobrist key of the pawns alone (both colours); 0 without pawns.
    pawn_key: u64,
    checkers: Bitboard,
    pinned: Bitboard,
    chess960: bool,
    stack: Vec<Undo>,
    /// The undo-stack index of every null move on the stack, innermost last: the repetition
    /// scan stops at the innermost without testing each record for a null move.
    null_plies: Vec<usize>,
}

impl Default for Board {
    fn default() -> Self {
        Board::startpos()
    }
}

impl Board {
    /// The standard start position.
    pub fn startpos() -> Board {
        Board::from_fen(START_FEN).expect("start FEN is valid")
    }

    fn empty() -> Board {
        Board {
            pieces: [Bitboard::EMPTY; 6],
            colors: [Bitboard::EMPTY; 2],
            squares: [None; 64],
            side: Color::White,
            castle_rights: 0,
            castle_rooks: [[Square::from_index(0); 2]; 2],
            castle_mask: [0xF; 64],
            castle_empty: [[Bitboard::EMPTY; 2]; 2],
            castle_king_path: [[Bitboard::EMPTY; 2]; 2],
            ep: None,
            halfmove: 0,
            fullmove: 1,
            key: 0,
            pawn_key: 0,
            checkers: Bitboard::EMPTY,
            pinned: Bitboard::EMPTY,
            chess960: false,
            stack: Vec::with_capacity(512),
            null_plies: Vec::new(),
        }
    }

    // ---- accessors ----------------------------------------------------------------------

    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }
    #[inline(always)]
    pub fn pieces(&self, p: Piece) -> Bitboard {
        self.pieces[p.index()]
    }
    #[inline(always)]
    pub fn color(&self, c: Color) -> Bitboard {
        self.colors[c.index()]
    }
    #[inline(always)]
    pub fn colored(&self, c: Color, p: Piece) -> Bitboard {
        self.pieces[p.index()] & self.colors[c.index()]
    }
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.colors[0] | self.colors[1]
    }
    #[inline(always)]
    pub fn piece_on(&self, sq: Square) -> Option<Piece> {
        self.squares[sq.index()]
    }
    /// Colour of the piece on `sq`, if any.
    #[inline(always)]
    pub fn color_on(&self, sq: Square) -> Option<Color> {
        if self.colors[0].has(sq) {
            Some(Color::White)
        } else if self.colors[1].has(sq) {
            Some(Color::Black)
        } else {
            None
        }
    }
    #[inline(always)]
    pub fn king_sq(&self, c: Color) -> Square {
        self.colored(c, Piece::King).lsb()
    }
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.checkers.any()
    }
    /// Pieces of the side to move pinned to its king.
    #[inline(always)]
    pub fn pinned(&self) -> Bitboard {
        self.pinned
    }
    #[inline(always)]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep
    }
    #[inline(always)]
    pub fn castle_rights(&self) -> u8 {
        self.castle_rights
    }
    /// The rook square of a castling right, if the right is held.
    #[inline(always)]
    pub fn castle_rook(&self, c: Color, side: CastleSide) -> Option<Square> {
        if self.castle_rights & castle_bit(c, side) != 0 {
            Some(self.castle_rooks[c.index()][side.index()])
        } else {
            None
        }
    }
    /// Squares that must be empty for castling `side` (meaningful while the right is held).
    #[inline(always)]
    pub(crate) fn castle_empty(&self, c: Color, side: CastleSide) -> Bitboard {
        self.castle_empty[c.index()][side.index()]
    }
    /// Squares the king crosses or lands on when castling `side`.
    #[inline(always)]
    pub(crate) fn castle_king_path(&self, c: Color, side: CastleSide) -> Bitboard {
        self.castle_king_path[c.index()][side.index()]
    }

    /// Grants a castling right (king on `king`, rook on `rook`) and precomputes its masks.
    fn add_castle_right(&mut self, c: Color, side: CastleSide, king: Square, rook: Square) {
        let bit = castle_bit(c, side);
        self.castle_rights |= bit;
        self.castle_rooks[c.index()][side.index()] = rook;
        self.castle_mask[rook.index()] &= !bit;
        self.castle_mask[king.index()] &= !(castle_bit(c, CastleSide::King) | castle_bit(c, CastleSide::Queen));
        let (kto, rto) = castle_destinations(c, side);
        let king_path = tables::between(king, kto) | kto.bb();
        let movers = king.bb() | rook.bb();
        self.castle_empty[c.index()][side.index()] = (king_path | tables::between(rook, rto) | rto.bb()) & !movers;
        self.castle_king_path[c.index()][side.index()] = king_path;
    }

    #[inline(always)]
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove
    }
    #[inline(always)]
    pub fn fullmove_number(&self) -> u16 {
        self.fullmove
    }
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }
    /// The Zobrist key of the pawns alone: the XOR of the piece keys of every pawn, so 0
    /// when there are none. Kept incrementally by make/unmake, like `key`.
    #[inline(always)]
    pub fn pawn_key(&self) -> u64 {
        self.pawn_key
    }
    #[inline(always)]
    pub fn is_chess960(&self) -> bool {
        self.chess960
    }
    /// Sets how castling moves are written (king-takes-rook when true).
    pub fn set_chess960(&mut self, on: bool) {
        self.chess960 = on;
    }
    /// Plies played since the position was set up (the undo stack's depth).
    #[inline(always)]
    pub fn game_ply(&self) -> usize {
        self.stack.len()
    }
    /// The keys of every position on the line to this one: those its undo stack remembers
    /// (oldest first), then its own.
    pub fn line_keys(&self) -> impl Iterator<Item = u64> + '_ {
        self.stack.iter().map(|u| u.key).chain(std::iter::once(self.key))
    }
    /// The last move made, if any.
    pub fn last_move(&self) -> Option<Move> {
        self.stack.last().map(|u| u.mv)
    }
    /// The piece the legal move `m` captures, if any (a pawn for en passant; castling
    /// captures nothing although its target is the own rook's square).
    #[inline(always)]
    pub fn captured_piece(&self, m: Move) -> Option<Piece> {
        match m.kind() {
            MoveKind::EnPassant => Some(Piece::Pawn),
            MoveKind::Castle => None,
            _ => self.piece_on(m.to()),
        }
    }
    /// Forgets the move history (keeps the position); used to bound memory in long games.
    pub fn clear_history(&mut self) {
        self.stack.clear();
        self.null_plies.clear();
    }

    // ---- attacks ------------------------------------------------------------------------

    /// Pieces of both colours attacking `sq` with occupancy `occ`.
    #[inline(always)]
    pub fn attackers_to(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let bq = self.pieces[Piece::Bishop.index()] | self.pieces[Piece::Queen.index()];
        let rq = self.pieces[Piece::Rook.index()] | self.pieces[Piece::Queen.index()];
        (tables::pawn_attacks(Color::White, sq) & self.colored(Color::Black, Piece::Pawn))
            | (tables::pawn_attacks(Color::Black, sq) & self.colored(Color::White, Piece::Pawn))
            | (tables::knight_attacks(sq) & self.pieces[Piece::Knight.index()])
            | (tables::king_attacks(sq) & self.pieces[Piece::King.index()])
            | (tables::bishop_attacks(sq, occ) & bq)
            | (tables::rook_attacks(sq, occ) & rq)
    }

    /// Whether `by` attacks `sq` with occupancy `occ`.
    #[inline(always)]
    pub fn attacked_by(&self, by: Color, sq: Square, occ: Bitboard) -> bool {
        let them = self.colors[by.index()];
        let queens = self.pieces[Piece::Queen.index()];
        let bq = (self.pieces[Piece::Bishop.index()] | queens) & them;
        let rq = (self.pieces[Piece::Rook.index()] | queens) & them;
        self.attacked_by_with(by, sq, occ, bq, rq)
    }

    /// `attacked_by` with the attacker's bishops+queens (`bq`) and rooks+queens (`rq`)
    /// precomputed, for loops over several squares. A slider lookup is only made when a
    /// slider of that kind is on one of the square's lines at all.
    #[inline(always)]
    pub(crate) fn attacked_by_with(&self, by: Color, sq: Square, occ: Bitboard, bq: Bitboard, rq: Bitboard) -> bool {
        let them = self.colors[by.index()];
        (tables::knight_attacks(sq) & self.pieces[Piece::Knight.index()] & them).any()
            || (tables::pawn_attacks(by.flip(), sq) & self.pieces[Piece::Pawn.index()] & them).any()
            || (tables::king_attacks(sq) & self.pieces[Piece::King.index()] & them).any()
            || ((tables::bishop_rays(sq) & bq).any() && (tables::bishop_attacks(sq, occ) & bq).any())
            || ((tables::rook_rays(sq) & rq).any() && (tables::rook_attacks(sq, occ) & rq).any())
    }

    /// Recomputes checkers and pins of the side to move. Enemy sliders on the king's lines
    /// are found with empty-board rays; what lies between decides check (nothing) or pin
    /// (exactly one piece, ours), so no magic lookup is needed.
    #[inline(always)]
    fn update_check_info(&mut self) {
        let us = self.side;
        let them = us.flip();
        let k = self.king_sq(us);
        let occ = self.occupied();
        let theirs = self.colors[them.index()];
        let queens = self.pieces[Piece::Queen.index()];
        let bq = self.pieces[Piece::Bishop.index()] | queens;
        let rq = self.pieces[Piece::Rook.index()] | queens;
        let mut checkers = (tables::knight_attacks(k) & self.pieces[Piece::Knight.index()])
            | (tables::pawn_attacks(us, k) & self.pieces[Piece::Pawn.index()]);
        let snipers = ((tables::rook_rays(k) & rq) | (tables::bishop_rays(k) & bq)) & theirs;
        let mut pinned = Bitboard::EMPTY;
        for s in snipers {
            let b = tables::between(k, s) & occ;
            if b.is_empty() {
                checkers |= s.bb();
            } else if !b.several() {
                pinned |= b;
            }
        }
        self.checkers = checkers & theirs;
        self.pinned = pinned & self.colors[us.index()];
    }

    /// The Zobrist key computed from scratch (the incremental key must always equal it).
    pub fn compute_key(&self) -> u64 {
        let mut key = 0;
        for c in Color::ALL {
            for p in Piece::ALL {
                for sq in self.colored(c, p) {
                    key ^= zobrist::piece(c, p, sq);
                }
            }
        }
        if self.side == Color::Black {
            key ^= zobrist::side();
        }
        key ^= zobrist::castling(self.castle_rights);
        if let Some(ep) = self.ep {
            key ^= zobrist::ep_file(ep.file());
        }
        key
    }

    /// The pawn key computed from scratch (the incremental one must always equal it).
    pub fn compute_pawn_key(&self) -> u64 {
        let mut key = 0;
        for c in Color::ALL {
            for sq in self.colored(c, Piece::Pawn) {
                key ^= zobrist::piece(c, Piece::Pawn, sq);
            }
        }
        key
    }

    // ---- raw piece placement (no hashing; make/unmake keep the key themselves) ----------

    #[inline(always)]
    fn put(&mut self, c: Color, p: Piece, sq: Square) {
        self.pieces[p.index()] |= sq.bb();
        self.colors[c.index()] |= sq.bb();
        self.squares[sq.index()] = Some(p);
    }

    #[inline(always)]
    fn remove(&mut self, c: Color, p: Piece, sq: Square) {
        self.pieces[p.index()] ^= sq.bb();
        self.colors[c.index()] ^= sq.bb();
        self.squares[sq.index()] = None;
    }

    #[inline(always)]
    fn shift_piece(&mut self, c: Color, p: Piece, from: Square, to: Square) {
        let mask = from.bb() | to.bb();
        self.pieces[p.index()] ^= mask;
        self.colors[c.index()] ^= mask;
        self.squares[from.index()] = None;
        self.squares[to.index()] = Some(p);
    }

    // ---- draws --------------------------------------------------------------------------

    /// Repetition draw: the position occurred before within the reversible plies; a single
    /// earlier occurrence counts when it lies strictly inside the search tree (after the
    /// root, fewer than `search_ply` plies back), otherwise two earlier occurrences are
    /// needed (threefold). The scan stops at a null move: a line through a pass is not a
    /// game, and positions from before it must not make lines inside a null-move search
    /// look drawn.
    pub fn is_repetition(&self, search_ply: usize) -> bool {
        let n = self.stack.len();
        // Records from the innermost null move back are out of reach (its own record, `i`
        // plies back, holds the position before the pass).
        let since_null = self.null_plies.last().map_or(n, |&k| n - k - 1);
        let limit = (self.halfmove as usize).min(since_null);
        let mut seen = 0;
        // Positions with the same side to move lie an even number of plies back, the
        // nearest possible repetition four.
        for i in (4..=limit).step_by(2) {
            if self.stack[n - i].key == self.key {
                if i < search_ply {
                    return true;
                }
                seen += 1;
                if seen >= 2 {
                    return true;
                }
            }
        }
        false
    }

    /// Neither side can possibly mate: K v K, K+minor v K, K+B v K+B with same-coloured bishops.
    pub fn insufficient_material(&self) -> bool {
        let heavy = self.pieces(Piece::Pawn) | self.pieces(Piece::Rook) | self.pieces(Piece::Queen);
        if heavy.any() {
            return false;
        }
        let minors = self.pieces(Piece::Knight) | self.pieces(Piece::Bishop);
        if minors.count() <= 1 {
            return true;
        }
        let bishops = self.pieces(Piece::Bishop);
        if self.pieces(Piece::Knight).is_empty() {
            return (bishops & Bitboard::DARK).is_empty() || (bishops & !Bitboard::DARK).is_empty();
        }
        false
    }

    /// Checks internal consistency (bitboards, squares array, keys); used by debug asserts and tests.
    pub fn is_consistent(&self) -> bool {
        let mut union = Bitboard::EMPTY;
        for p in Piece::ALL {
            if (union & self.pieces[p.index()]).any() {
                return false;
            }
            union |= self.pieces[p.index()];
        }
        if union != self.occupied() || (self.colors[0] & self.colors[1]).any() {
            return false;
        }
        for i in 0..64 {
            let sq = Square::from_index(i);
            let expect = Piece::ALL.into_iter().find(|p| self.pieces[p.index()].has(sq));
            if expect != self.squares[i] {
                return false;
            }
        }
        self.key == self.compute_key() && self.pawn_key == self.compute_pawn_key()
    }

    /// Fifty-move rule reached (a mate on the 100th ply takes precedence; the search checks that).
    #[inline(always)]
    pub fn fifty_move_draw(&self) -> bool {
        self.halfmove >= 100
    }

    /// A plain-text board diagram with the FEN and key, for `d` in the UCI loop.
    pub fn pretty(&self) -> String {
        let mut s = String::new();
        for r in Rank::ALL.into_iter().rev() {
            s.push_str(&format!(" {} ", r.char()));
            for f in File::ALL {
                let sq = Square::new(f, r);
                let c = match (self.piece_on(sq), self.color_on(sq)) {
                    (Some(p), Some(Color::White)) => p.char().to_ascii_uppercase(),
                    (Some(p), _) => p.char(),
                    _ => '.',
                };
                s.push(c);
                s.push(' ');
            }
            s.push('\n');
        }
        s.push_str("   a b c d e f g h\n");
        s.push_str(&format!("Fen: {}\nKey: {:016x}\n", self.to_fen(), self.key));
        s
    }
}
