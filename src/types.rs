//! Small value types: colours, pieces, squares.

use std::fmt;

/// A side.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
#[repr(u8)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline(always)]
    pub const fn flip(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// +1 for white, -1 for black.
    #[inline(always)]
    pub const fn sign(self) -> i32 {
        match self {
            Color::White => 1,
            Color::Black => -1,
        }
    }
}

/// A piece kind, without colour.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Piece {
    Pawn = 0,
    Knight = 1,
    Bishop = 2,
    Rook = 3,
    Queen = 4,
    King = 5,
}

impl Piece {
    pub const ALL: [Piece; 6] =
        [Piece::Pawn, Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen, Piece::King];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline(always)]
    pub const fn from_index(i: usize) -> Piece {
        Piece::ALL[i]
    }

    /// Lower-case letter (`p n b r q k`).
    pub const fn char(self) -> char {
        match self {
            Piece::Pawn => 'p',
            Piece::Knight => 'n',
            Piece::Bishop => 'b',
            Piece::Rook => 'r',
            Piece::Queen => 'q',
            Piece::King => 'k',
        }
    }

    pub fn from_char(c: char) -> Option<Piece> {
        Some(match c.to_ascii_lowercase() {
            'p' => Piece::Pawn,
            'n' => Piece::Knight,
            'b' => Piece::Bishop,
            'r' => Piece::Rook,
            'q' => Piece::Queen,
            'k' => Piece::King,
            _ => return None,
        })
    }
}

/// A square, a1 = 0 … h8 = 63.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub struct Square(pub u8);

impl Square {
    #[inline(always)]
    pub const fn new(file: u8, rank: u8) -> Square {
        Square(rank * 8 + file)
    }
    /// The square with index `i` (a1 = 0 … h8 = 63).
    #[inline(always)]
    pub const fn from_index(i: usize) -> Square {
        debug_assert!(i < 64);
        Square(i as u8)
    }
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    #[inline(always)]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }
    #[inline(always)]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }
    /// The square seen from `c`'s side (rank mirrored for black).
    #[inline(always)]
    pub const fn relative(self, c: Color) -> Square {
        match c {
            Color::White => self,
            Color::Black => Square(self.0 ^ 56),
        }
    }
    /// The same square mirrored vertically (a1 <-> a8).
    #[inline(always)]
    pub const fn flip_rank(self) -> Square {
        Square(self.0 ^ 56)
    }
    #[inline(always)]
    pub const fn bb(self) -> crate::bitboard::Bitboard {
        crate::bitboard::Bitboard(1u64 << self.0)
    }
    /// Parses `e4`-style names.
    pub fn parse(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 || !(b'a'..=b'h').contains(&b[0]) || !(b'1'..=b'8').contains(&b[1]) {
            return None;
        }
        Some(Square::new(b[0] - b'a', b[1] - b'1'))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, (b'1' + self.rank()) as char)
    }
}
