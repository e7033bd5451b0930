//! The text form of training data: the data line that `horizon datagen` writes by default
//! and every reader of text data (the tuner and `horizon convert` included) parses with
//! [`parse_line`]:
//!
//! A plain-text file, one position per line:
//!
//! ```text
//! <FEN> | <score> | <result>
//! rnb4r/1ppk2p1/3b1pB1/p6p/P7/5N1P/1PPP1PP1/R1B1K2R w KQ - 2 13 | 164 | 0.5
//! 4k3/2R5/5r1n/P5R1/1P1P4/3KP3/8/8 b - - 0 55 | 984 | 1.0
//! ```
//!
//! - `FEN`: the full six-field FEN of the position.
//! - `score`: the search score in centipawns from **White's** point of view (an integer).
//!   Positions whose score is a mate score are not written.
//! - `result`: the game's result from White's point of view: `1.0` (White won), `0.5`
//!   (draw) or `0.0` (Black won).
//!
//! Fields are separated by ` | `; lines end with `\n`. A game's positions are written
//! together, in the order they were played.
//!
//! The parser is strict: exactly three fields, a FEN the board accepts, an integer score, and
//! the result written exactly as `1.0`, `0.5` or `0.0`. A blank line is an error too
//! ([`LineError::Fields`]); readers that allow blank lines skip them before parsing.

use super::record::{RESULT_BLACK_WINS, RESULT_DRAW, RESULT_WHITE_WINS};
use crate::board::Board;
use crate::types::Color;
use std::fmt;

/// A game's result from White's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    WhiteWins,
    Draw,
    BlackWins,
}

impl Outcome {
    /// The result field of a data line.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::WhiteWins => "1.0",
            Outcome::Draw => "0.5",
            Outcome::BlackWins => "0.0",
        }
    }

    /// The result as a number (1, 0.5, 0).
    pub fn value(self) -> f64 {
        match self {
            Outcome::WhiteWins => 1.0,
            Outcome::Draw => 0.5,
            Outcome::BlackWins => 0.0,
        }
    }

    /// The result byte of a binary training record ([`super::record`]).
    pub fn result_byte(self) -> u8 {
        match self {
            Outcome::WhiteWins => RESULT_WHITE_WINS,
            Outcome::Draw => RESULT_DRAW,
            Outcome::BlackWins => RESULT_BLACK_WINS,
        }
    }

    /// The outcome of a result byte (a valid one: anything else reads as a Black win;
    /// records are checked when read).
    pub fn of_result_byte(result: u8) -> Outcome {
        match result {
            RESULT_WHITE_WINS => Outcome::WhiteWins,
            RESULT_DRAW => Outcome::Draw,
            _ => Outcome::BlackWins,
        }
    }

    /// A win for `c`.
    pub fn win_for(c: Color) -> Outcome {
        if c == Color::White {
            Outcome::WhiteWins
        } else {
            Outcome::BlackWins
        }
    }
}

/// One parsed data line.
#[derive(Clone)]
pub struct DataLine {
    /// The FEN as written (trimmed).
    pub fen: String,
    /// The position of the FEN.
    pub board: Board,
    /// Centipawns, White's point of view.
    pub score: i32,
    pub result: Outcome,
}

/// Why a line was rejected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineError {
    /// Not three `|`-separated fields.
    Fields(usize),
    /// The FEN did not parse (the reason).
    Fen(String),
    /// The score is not an integer.
    Score(String),
    /// The result is not 1.0, 0.5 or 0.0.
    Result(String),
    /// The line is not UTF-8 text (found by the reader, [`super::read::TextReader`]).
    NotUtf8,
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            LineError::Fields(n) => write!(f, "expected '<FEN> | <score> | <result>', found {n} field(s)"),
            LineError::Fen(e) => write!(f, "bad FEN: {e}"),
            LineError::Score(s) => write!(f, "bad score '{s}' (expected an integer in centipawns)"),
            LineError::Result(s) => write!(f, "bad result '{s}' (expected 1.0, 0.5 or 0.0)"),
            LineError::NotUtf8 => write!(f, "not UTF-8 text"),
        }
    }
}

impl std::error::Error for LineError {}

/// A rejected line and its (1-based) number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataError {
    pub line: usize,
    pub error: LineError,
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.error)
    }
}

impl std::error::Error for DataError {}

/// Parses `<FEN> | <score> | <result>` (see the module doc).
pub fn parse_line(line: &str) -> Result<DataLine, LineError> {
    let fields: Vec<&str> = line.split('|').map(str::trim).collect();
    let [fen, score, result] = fields[..] else {
        return Err(LineError::Fields(fields.len()));
    };
    let board = Board::from_fen(fen).map_err(|e| LineError::Fen(e.to_string()))?;
    let score = score.parse().map_err(|_| LineError::Score(score.to_string()))?;
    let result = match result {
        "1.0" => Outcome::WhiteWins,
        "0.5" => Outcome::Draw,
        "0.0" => Outcome::BlackWins,
        r => return Err(LineError::Result(r.to_string())),
    };
    Ok(DataLine { fen: fen.to_string(), board, score, result })
}

/// Formats one data line (with its newline).
pub fn format_line(fen: &str, white_score: i32, result: Outcome) -> String {
    format!("{fen} | {white_score} | {}\n", result.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    const FEN: &str = "8/8/8/8/8/8/8/K6k w - - 0 1";

    #[test]
    fn lines_round_trip() {
        for o in [Outcome::WhiteWins, Outcome::Draw, Outcome::BlackWins] {
            let l = format_line(FEN, -37, o);
            let d = parse_line(l.trim_end()).unwrap();
            assert_eq!((d.fen.as_str(), d.score, d.result, d.board.to_fen()), (FEN, -37, o, FEN.to_string()));
        }
    }

    /// The one parser takes only what `format_line` writes: the tuner's old reader also took
    /// `1` and `0` as results, and datagen's old reader took any text as the FEN.
    #[test]
    fn strict_about_every_field() {
        let bad = |line: &str| parse_line(line).err().unwrap_or_else(|| panic!("accepted {line:?}"));
        assert_eq!(bad(""), LineError::Fields(1));
        assert_eq!(bad("   "), LineError::Fields(1));
        assert_eq!(bad("x | 1"), LineError::Fields(2));
        assert_eq!(bad(&format!("{FEN} | 1 | 0.5 | 3")), LineError::Fields(4));
        assert!(matches!(bad("x | 1 | 0.5"), LineError::Fen(_)));
        assert!(matches!(bad("8/8/8 w - - 0 1 | 0 | 1.0"), LineError::Fen(_)));
        assert_eq!(bad(&format!("{FEN} | 1.5 | 0.5")), LineError::Score("1.5".into()));
        assert_eq!(bad(&format!("{FEN} | | 0.5")), LineError::Score("".into()));
        for r in ["1", "0", "1.", "2.0", "1-0", "0.50", ""] {
            assert_eq!(bad(&format!("{FEN} | 3 | {r}")), LineError::Result(r.into()), "result {r:?}");
        }
        let e = DataError { line: 7, error: LineError::Result("x".into()) };
        assert_eq!(e.to_string(), "line 7: bad result 'x' (expected 1.0, 0.5 or 0.0)");
        // Spaces around the separators are not significant.
        assert_eq!(parse_line(&format!("  {FEN}|-5|1.0 ")).unwrap().score, -5);
    }
}
