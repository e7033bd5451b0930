//! Small value types: colours, pieces, files, ranks, squares.

use std::fmt;
use std::str::FromStr;

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

/// [`Piece::nominal_value`] by piece index.
pub const NOMINAL_VALUES: [i32; 6] = [100, 300, 300, 500, 900, 0];

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
    pub const ALL: [Piece; 6] = [Piece::Pawn, Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen, Piece::King];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline(always)]
    pub const fn from_index(i: usize) -> Piece {
        Piece::ALL[i]
    }

    /// The textbook value in centipawns (pawn 100, minors 300, rook 500, queen 900, king 0):
    /// the fixed yardstick for rules about material that must not move when weights are tuned.
    #[inline(always)]
    pub const fn nominal_value(self) -> i32 {
        NOMINAL_VALUES[self as usize]
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

/// A castling side: towards the h-file (king side, `O-O`) or the a-file (queen side,
/// `O-O-O`). In Chess960 the side is where the rook stands relative to the king.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
#[repr(u8)]
pub enum CastleSide {
    King = 0,
    Queen = 1,
}

impl CastleSide {
    pub const ALL: [CastleSide; 2] = [CastleSide::King, CastleSide::Queen];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// A file (column) of the board, a to h.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum File {
    A,
    B,
    C,
    D,
    E,
    F,
    G,
    H,
}

impl File {
    pub const ALL: [File; 8] = [File::A, File::B, File::C, File::D, File::E, File::F, File::G, File::H];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }
    /// The file with index `i` (a = 0 … h = 7).
    #[inline(always)]
    pub const fn from_index(i: usize) -> File {
        debug_assert!(i < 8);
        File::ALL[i]
    }
    /// The letter of the file (`a` … `h`).
    pub const fn char(self) -> char {
        (b'a' + self as u8) as char
    }
    pub fn from_char(c: char) -> Option<File> {
        ('a'..='h').contains(&c).then(|| File::from_index(c as usize - 'a' as usize))
    }
}

/// A rank (row) of the board, first to eighth.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Rank {
    First,
    Second,
    Third,
    Fourth,
    Fifth,
    Sixth,
    Seventh,
    Eighth,
}

impl Rank {
    pub const ALL: [Rank; 8] =
        [Rank::First, Rank::Second, Rank::Third, Rank::Fourth, Rank::Fifth, Rank::Sixth, Rank::Seventh, Rank::Eighth];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }
    /// The rank with index `i` (first = 0 … eighth = 7).
    #[inline(always)]
    pub const fn from_index(i: usize) -> Rank {
        debug_assert!(i < 8);
        Rank::ALL[i]
    }
    /// The digit of the rank (`1` … `8`).
    pub const fn char(self) -> char {
        (b'1' + self as u8) as char
    }
    pub fn from_char(c: char) -> Option<Rank> {
        ('1'..='8').contains(&c).then(|| Rank::from_index(c as usize - '1' as usize))
    }
    /// This rank seen from `c`'s side: `Rank::First.relative(Black)` is the eighth rank.
    #[inline(always)]
    pub const fn relative(self, c: Color) -> Rank {
        match c {
            Color::White => self,
            Color::Black => Rank::ALL[7 - self as usize],
        }
    }
}

/// King and rook destinations of a castling move by `c` on `side`.
#[inline(always)]
pub const fn castle_destinations(c: Color, side: CastleSide) -> (Square, Square) {
    let rank = Rank::First.relative(c);
    match side {
        CastleSide::King => (Square::new(File::G, rank), Square::new(File::F, rank)),
        CastleSide::Queen => (Square::new(File::C, rank), Square::new(File::D, rank)),
    }
}

/// A square, a1 = 0 … h8 = 63. The index is private, so a `Square` is always on the board.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    #[inline(always)]
    pub const fn new(file: File, rank: Rank) -> Square {
        Square(rank as u8 * 8 + file as u8)
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
    pub const fn file(self) -> File {
        File::ALL[(self.0 & 7) as usize]
    }
    #[inline(always)]
    pub const fn rank(self) -> Rank {
        Rank::ALL[(self.0 >> 3) as usize]
    }
    /// The square seen from `c`'s side (rank mirrored for black).
    #[inline(always)]
    pub const fn relative(self, c: Color) -> Square {
        match c {
            Color::White => self,
            Color::Black => Square(self.0 ^ 56),
        }
    }
    /// The king (Chebyshev) distance to `other`: the larger of the file and rank distances.
    #[inline(always)]
    pub const fn distance(self, other: Square) -> i32 {
        let df = ((self.0 & 7) as i32 - (other.0 & 7) as i32).abs();
        let dr = ((self.0 >> 3) as i32 - (other.0 >> 3) as i32).abs();
        if df > dr {
            df
        } else {
            dr
        }
    }
    /// The same square mirrored vertically (a1 <-> a8).
    #[inline(always)]
    pub const fn flip_rank(self) -> Square {
        Square(self.0 ^ 56)
    }
    /// For an en passant target square (third or sixth rank), the square of the pawn the
    /// capture removes: the one on the same file, a rank nearer the middle of the board.
    #[inline(always)]
    pub const fn ep_victim(self) -> Square {
        Square(self.0 ^ 8)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().char())
    }
}

impl FromStr for Square {
    type Err = SquareParseError;

    /// Parses `e4`-style names (lower-case file letter, rank digit).
    fn from_str(s: &str) -> Result<Square, SquareParseError> {
        let mut chars = s.chars();
        let (f, r) = (chars.next(), chars.next());
        match (f.and_then(File::from_char), r.and_then(Rank::from_char), chars.next()) {
            (Some(f), Some(r), None) => Ok(Square::new(f, r)),
            _ => Err(SquareParseError(s.to_string())),
        }
    }
}

/// A square name that is not a file letter `a`-`h` followed by a rank digit `1`-`8`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SquareParseError(pub String);

impl fmt::Display for SquareParseError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "'{}' is not a square (expected a file a-h and a rank 1-8, as in e4)", self.0)
    }
}

impl std::error::Error for SquareParseError {}
