//! The training data format and its reader.
//!
//! One position per line, as `horizon datagen` writes it:
//!
//! ```text
//! <FEN> | <score> | <result>
//! rnbqkb1r/pp2pppp/3p1n2/8/3NP3/8/PPP2PPP/RNBQKB1R w KQkq - 1 5 | 38 | 0.5
//! ```
//!
//! - `score`: the search score in centipawns from white's point of view (an integer);
//! - `result`: the game's result from white's point of view: `1.0`, `0.5` or `0.0`.
//!
//! Blank lines are ignored. A malformed line is an error naming its line number; the tuner
//! skips such lines and counts them (see `load` in `mod.rs` for why).

use crate::board::Board;
use std::fmt;

/// One training position.
pub struct Sample {
    pub board: Board,
    /// Search score, centipawns, white's view.
    pub score: i32,
    /// Game result, white's view: 1.0, 0.5 or 0.0.
    pub result: f32,
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
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            LineError::Fields(n) => write!(f, "expected '<FEN> | <score> | <result>', found {n} field(s)"),
            LineError::Fen(e) => write!(f, "bad FEN: {e}"),
            LineError::Score(s) => write!(f, "bad score '{s}' (expected an integer in centipawns)"),
            LineError::Result(s) => write!(f, "bad result '{s}' (expected 1.0, 0.5 or 0.0)"),
        }
    }
}

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

/// Parses one line; `Ok(None)` for a blank line.
pub fn parse_line(line: &str) -> Result<Option<Sample>, LineError> {
    if line.trim().is_empty() {
        return Ok(None);
    }
    let fields: Vec<&str> = line.split('|').map(str::trim).collect();
    if fields.len() != 3 {
        return Err(LineError::Fields(fields.len()));
    }
    let board = Board::from_fen(fields[0]).map_err(|e| LineError::Fen(e.to_string()))?;
    let score: i32 = fields[1].parse().map_err(|_| LineError::Score(fields[1].to_string()))?;
    let result = match fields[2] {
        "1.0" | "1" => 1.0,
        "0.5" => 0.5,
        "0.0" | "0" => 0.0,
        other => return Err(LineError::Result(other.to_string())),
    };
    Ok(Some(Sample { board, score, result }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn good_and_bad_lines() {
        let s = parse_line("8/8/8/8/8/8/8/K6k w - - 0 1 | -12 | 0.5").unwrap().unwrap();
        assert_eq!((s.score, s.result), (-12, 0.5));
        assert!(parse_line("   ").unwrap().is_none());
        assert_eq!(parse_line("a | b").err(), Some(LineError::Fields(2)));
        assert!(matches!(parse_line("8/8/8 w - - 0 1 | 0 | 1.0"), Err(LineError::Fen(_))));
        assert_eq!(
            parse_line("8/8/8/8/8/8/8/K6k w - - 0 1 | 1.5 | 1.0").err(),
            Some(LineError::Score("1.5".into()))
        );
        assert_eq!(
            parse_line("8/8/8/8/8/8/8/K6k w - - 0 1 | 3 | 2.0").err(),
            Some(LineError::Result("2.0".into()))
        );
        let e = DataError { line: 7, error: LineError::Result("x".into()) };
        assert_eq!(e.to_string(), "line 7: bad result 'x' (expected 1.0, 0.5 or 0.0)");
    }
}
