//! The errors of the core layers, which several layers above report, as data: small
//! enums, each printing as one readable line. What is here: FEN and UCI moves on a board
//! ([`FenError`], [`MoveError`]), UCI commands and options ([`CommandError`],
//! [`OptionError`]), hash-table allocation ([`HashAllocError`]), unreadable files
//! ([`ReadError`]), and lines of perft and EPD suites ([`SuiteLineError`], [`EpdError`]).
//! The errors of the value types themselves (`SquareParseError`, `MoveParseError`) are
//! defined beside them, so that those modules need nothing above them, and re-exported here.
//! This module depends only on the value types, so every layer can use it.
//!
//! Every other error lives beside the one subsystem that produces it, also one line each:
//!
//! - `eval::nnue::network::NetworkError` (a `.nnue` file), `eval::trace::TraceMismatch`;
//! - `syzygy::error::TableError` (a table file), `perft::table::TableError` (its hash
//!   table), `perft::diff::error::DiffError`;
//! - training data (`data`): `read::FileError`, `text::LineError` and `DataError`,
//!   `record::RecordError`, `convert::ConvertError`, `book::BookError`,
//!   `datagen::DatagenError`, `genfens::RequestError` and `GenfensError`,
//!   `pgn::fastchess::CommentError`;
//! - the tools: `tune::TuneError`, `train::TrainError` (with `train::checkpoint::
//!   CheckpointError` and `LoadError`, `train::export::WriteError`);
//! - the command line: `commands::args::ArgError` and `PositionError`, and
//!   `commands::subcommand::Failure`, which every command's error becomes (exit code 2 or 1).

pub use crate::moves::MoveParseError;
pub use crate::types::SquareParseError;
use crate::types::{Rank, Square};
use std::fmt;

/// Implements `std::error::Error` for error types whose `Display` says it all.
macro_rules! plain_error {
    ($($t:ty),*) => {$( impl std::error::Error for $t {} )*};
}

// ---- positions and moves on a board --------------------------------------------------

/// Why a FEN was rejected. Each variant prints as one readable line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FenError {
    FieldCount(usize),
    RankCount(usize),
    RankLength { rank: Rank, squares: u32 },
    BadPieceChar(char),
    KingCount { color: &'static str, count: u32 },
    PawnOnBackRank(Square),
    TooManyPieces(&'static str),
    BadSide(String),
    BadCastling(String),
    CastlingWithoutPieces(char),
    BadEnPassant(String),
    OpponentInCheck,
    TooManyCheckers,
    BadCounter(String),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            FenError::FieldCount(n) => {
                write!(f, "invalid FEN: expected 4 to 6 fields, found {n}")
            }
            FenError::RankCount(n) => write!(f, "invalid FEN: expected 8 ranks, found {n}"),
            FenError::RankLength { rank, squares } => {
                write!(f, "invalid FEN: rank {} describes {squares} squares instead of 8", rank.char())
            }
            FenError::BadPieceChar(c) => write!(f, "invalid FEN: unknown piece character '{c}'"),
            FenError::KingCount { color, count } => {
                write!(f, "invalid FEN: {color} has {count} kings (exactly one required)")
            }
            FenError::PawnOnBackRank(sq) => write!(f, "invalid FEN: pawn on {sq} (first or last rank)"),
            FenError::TooManyPieces(color) => write!(f, "invalid FEN: {color} has too many pieces"),
            FenError::BadSide(s) => write!(f, "invalid FEN: side to move '{s}' is not 'w' or 'b'"),
            FenError::BadCastling(s) => write!(f, "invalid FEN: castling field '{s}' is malformed"),
            FenError::CastlingWithoutPieces(c) => {
                write!(f, "invalid FEN: castling right '{c}' without the king and a rook in place")
            }
            FenError::BadEnPassant(s) => write!(f, "invalid FEN: impossible en passant square '{s}'"),
            FenError::OpponentInCheck => {
                write!(f, "invalid FEN: the side not to move is in check")
            }
            FenError::TooManyCheckers => write!(f, "invalid FEN: king attacked by more than two pieces"),
            FenError::BadCounter(s) => write!(f, "invalid FEN: move counter '{s}' is not a number"),
        }
    }
}

/// Why a UCI move was rejected in a position (`Board::parse_uci_move`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveError {
    /// Not UCI move notation at all.
    Syntax(MoveParseError),
    /// `0000`: the null move is not a move a position can be given.
    Null,
    /// Nothing stands on the origin square.
    NoPiece { mv: String, from: Square },
    /// The piece on the origin square belongs to the side not to move.
    NotYourPiece { mv: String, from: Square },
    /// A pawn move to the last rank without the promotion letter.
    MissingPromotion { mv: String },
    /// The piece cannot legally go there (blocked, pinned, king left in check, no right to
    /// castle, ...).
    Illegal { mv: String, from: Square },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            MoveError::Syntax(e) => write!(f, "{e}"),
            MoveError::Null => write!(f, "illegal move '0000': the null move cannot be played"),
            MoveError::NoPiece { mv, from } => write!(f, "illegal move '{mv}': no piece on {from}"),
            MoveError::NotYourPiece { mv, from } => {
                write!(f, "illegal move '{mv}': the piece on {from} belongs to the side not to move")
            }
            MoveError::MissingPromotion { mv } => {
                write!(f, "illegal move '{mv}': a promotion needs the piece letter (q, r, b or n)")
            }
            MoveError::Illegal { mv, from } => {
                write!(f, "illegal move '{mv}': the piece on {from} has no such legal move here")
            }
        }
    }
}

// ---- protocol ------------------------------------------------------------------------

/// Why a UCI input line could not be read as a command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CommandError {
    UnknownCommand(String),
    UnknownGoParameter(String),
    /// A `go` parameter without its value.
    MissingValue(String),
    /// A `go` parameter whose value is not a number (parameter, value).
    BadNumber(String, String),
    BadBenchDepth(String),
    PositionUsage,
    SetOptionUsage,
    EmptyOptionName,
    /// An unreadable `genfens` request: the message of its
    /// `data::genfens::RequestError` (kept as text, as this module sits below `data`).
    Genfens(String),
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            CommandError::UnknownCommand(c) => write!(f, "unknown command '{c}'"),
            CommandError::UnknownGoParameter(p) => write!(f, "unknown go parameter '{p}'"),
            CommandError::MissingValue(p) => write!(f, "'{p}' needs a value"),
            CommandError::BadNumber(p, v) => write!(f, "'{p}' value '{v}' is not a valid number"),
            CommandError::BadBenchDepth(d) => write!(f, "bench depth '{d}' is not a number"),
            CommandError::PositionUsage => write!(f, "usage: position startpos|fen <fen> [moves <move>...]"),
            CommandError::SetOptionUsage => write!(f, "usage: setoption name <name> [value <value>]"),
            CommandError::EmptyOptionName => write!(f, "setoption: empty option name"),
            CommandError::Genfens(e) => write!(f, "{e}"),
        }
    }
}

/// Why a `setoption` was refused (the option keeps its value).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OptionError {
    Unknown(String),
    MissingValue(String),
    /// A spin option given something that is not a number (option, value).
    NotANumber(String, String),
    /// A number outside the option's range (option, the value as given, the range).
    OutOfRange {
        name: String,
        value: String,
        min: u64,
        max: u64,
    },
    /// A check option given something other than `true` or `false`.
    NotABool(String),
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            OptionError::Unknown(n) => write!(f, "unknown option '{n}'"),
            OptionError::MissingValue(n) => write!(f, "option '{n}' needs a value"),
            OptionError::NotANumber(n, v) => write!(f, "option '{n}': '{v}' is not a number"),
            OptionError::OutOfRange { name, value, min, max } => {
                write!(f, "option '{name}': {value} is out of range {min}..{max}")
            }
            OptionError::NotABool(n) => write!(f, "option '{n}' needs value true or false"),
        }
    }
}

/// The transposition table could not be allocated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HashAllocError {
    pub mb: usize,
}

impl fmt::Display for HashAllocError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "cannot allocate a {} MB hash table", self.mb)
    }
}

// ---- files ---------------------------------------------------------------------------

/// A file that could not be read.
#[derive(Debug)]
pub struct ReadError {
    pub path: String,
    pub source: std::io::Error,
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "cannot read '{}': {}", self.path, self.source)
    }
}

/// An unreadable line of an EPD perft suite (`FEN ;D1 20 ;D2 400 ...`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SuiteLineError {
    /// A field that does not start with `D<depth>`.
    BadDepth(String),
    /// A field whose count is not a number.
    BadCount(String),
    NoCounts,
}

impl fmt::Display for SuiteLineError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            SuiteLineError::BadDepth(p) => write!(f, "bad depth field '{p}'"),
            SuiteLineError::BadCount(p) => write!(f, "bad count in field '{p}'"),
            SuiteLineError::NoCounts => write!(f, "no ';D<depth> <count>' fields"),
        }
    }
}

/// An unreadable line of an EPD test suite (`bm`/`am` operations).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EpdError {
    TooFewFields,
    Fen(FenError),
    /// A `bm` or `am` move that is not a legal SAN move in the position.
    BadMove(String),
    NoOperation,
}

impl fmt::Display for EpdError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            EpdError::TooFewFields => write!(f, "fewer than four FEN fields"),
            EpdError::Fen(e) => write!(f, "{e}"),
            EpdError::BadMove(m) => write!(f, "bad move '{m}'"),
            EpdError::NoOperation => write!(f, "no bm or am operation"),
        }
    }
}

plain_error!(FenError, MoveError, CommandError, OptionError, HashAllocError, SuiteLineError, EpdError);

impl std::error::Error for ReadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}
