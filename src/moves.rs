//! The 16-bit `Move`, its `MoveKind` and its UCI text: a value type shared by the board,
//! the move generator, the transposition table, the history tables and SEE, so it sits
//! below all of them and depends only on the small types.

use crate::types::{CastleSide, File, Piece, Square};
use std::fmt;
use std::str::FromStr;

/// What kind of move: bits 12-13 of the encoding.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum MoveKind {
    Normal = 0,
    Promotion = 1,
    EnPassant = 2,
    /// Encoded king-from -> own-rook-square (works for Chess960 and standard chess).
    Castle = 3,
}

/// A move in 16 bits: from (0-5), to (6-11), kind (12-13), promotion piece (14-15: N B R Q).
/// The bits are private: build moves with the constructors or [`Move::from_raw`].
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

impl Move {
    /// The move from its 16-bit encoding (as stored in the transposition table).
    #[inline(always)]
    pub const fn from_raw(bits: u16) -> Move {
        Move(bits)
    }
    /// The 16-bit encoding.
    #[inline(always)]
    pub const fn raw(self) -> u16 {
        self.0
    }

    pub const NULL: Move = Move(0);

    #[inline(always)]
    pub const fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 6 | (kind as u16) << 12)
    }
    #[inline(always)]
    pub const fn promotion_to(from: Square, to: Square, p: Piece) -> Move {
        debug_assert!(p as u8 >= Piece::Knight as u8 && p as u8 <= Piece::Queen as u8);
        Move(
            from.index() as u16
                | (to.index() as u16) << 6
                | (MoveKind::Promotion as u16) << 12
                | ((p as u16 - 1) << 14),
        )
    }
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::from_index((self.0 & 63) as usize)
    }
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::from_index((self.0 >> 6 & 63) as usize)
    }
    #[inline(always)]
    pub const fn kind(self) -> MoveKind {
        match self.0 >> 12 & 3 {
            0 => MoveKind::Normal,
            1 => MoveKind::Promotion,
            2 => MoveKind::EnPassant,
            _ => MoveKind::Castle,
        }
    }
    #[inline(always)]
    pub const fn is_null(self) -> bool {
        self.0 == 0
    }
    /// The promotion piece (only meaningful for promotions).
    #[inline(always)]
    pub const fn promotion(self) -> Piece {
        Piece::from_index((self.0 >> 14) as usize + 1)
    }
    #[inline(always)]
    pub const fn is_promotion(self) -> bool {
        self.0 >> 12 & 3 == MoveKind::Promotion as u16
    }
    #[inline(always)]
    pub const fn is_castle(self) -> bool {
        self.0 >> 12 & 3 == MoveKind::Castle as u16
    }
    #[inline(always)]
    pub const fn is_en_passant(self) -> bool {
        self.0 >> 12 & 3 == MoveKind::EnPassant as u16
    }
    /// The square the king ends on (castling) or `to()` for every other move.
    #[inline(always)]
    pub fn king_dest(self) -> Square {
        if self.is_castle() {
            let file = match self.castle_side() {
                CastleSide::King => File::G,
                CastleSide::Queen => File::C,
            };
            Square::new(file, self.from().rank())
        } else {
            self.to()
        }
    }
    /// The side of a castling move (the rook's square relative to the king's); only
    /// meaningful for castling moves.
    #[inline(always)]
    pub fn castle_side(self) -> CastleSide {
        if self.to() > self.from() {
            CastleSide::King
        } else {
            CastleSide::Queen
        }
    }
    /// UCI notation; castling as king-takes-rook when `chess960`, else as the king's two-step.
    pub fn uci(self, chess960: bool) -> UciMove {
        UciMove(self, chess960)
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}", self.uci(true))
    }
}

/// Display adapter for a move in UCI notation.
pub struct UciMove(Move, bool);

impl fmt::Display for UciMove {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let m = self.0;
        if m.is_null() {
            return write!(f, "0000");
        }
        let to = if m.is_castle() && !self.1 { m.king_dest() } else { m.to() };
        write!(f, "{}{}", m.from(), to)?;
        if m.is_promotion() {
            write!(f, "{}", m.promotion().char())?;
        }
        Ok(())
    }
}

impl FromStr for Move {
    type Err = MoveParseError;

    /// Reads a move in UCI notation without a position: from and to squares and an
    /// optional promotion letter (`e2e4`, `e7e8q`), or `0000` for the null move. Whether
    /// a move is castling or en passant depends on the position, so these come back as
    /// normal moves; `Board::parse_uci_move` finds the legal move a text means.
    fn from_str(s: &str) -> Result<Move, MoveParseError> {
        let bad = || MoveParseError(s.to_string());
        if s == "0000" {
            return Ok(Move::NULL);
        }
        if !s.is_ascii() || !(4..=5).contains(&s.len()) {
            return Err(bad());
        }
        let from: Square = s[0..2].parse().map_err(|_| bad())?;
        let to: Square = s[2..4].parse().map_err(|_| bad())?;
        if from == to {
            return Err(bad());
        }
        match s[4..].chars().next() {
            None => Ok(Move::new(from, to, MoveKind::Normal)),
            Some(c @ ('n' | 'b' | 'r' | 'q')) => Ok(Move::promotion_to(from, to, Piece::from_char(c).ok_or_else(bad)?)),
            Some(_) => Err(bad()),
        }
    }
}

/// Text that is not a move in UCI notation (`e2e4`, `e7e8q`, or `0000` for the null move).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveParseError(pub String);

impl fmt::Display for MoveParseError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "'{}' is not a move in UCI notation (expected e.g. e2e4 or e7e8q)", self.0)
    }
}

impl std::error::Error for MoveParseError {}
