//! Opening books for `--book`: EPD or FEN files, one position a line.

use crate::board::Board;
use crate::error::FenError;
use std::fmt;

/// Why a `--book` file could not be used.
#[derive(Debug)]
pub enum BookError {
    /// The file could not be read (path, reason).
    Read(String, std::io::Error),
    /// A line is not a position (path, line number, why).
    Fen(String, usize, FenError),
    /// A line's position has no legal move (path, line number).
    Over(String, usize),
    /// No position in the file.
    Empty(String),
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            BookError::Read(p, e) => write!(f, "cannot read book '{p}': {e}"),
            BookError::Fen(p, line, e) => write!(f, "book '{p}' line {line}: {e}"),
            BookError::Over(p, line) => write!(f, "book '{p}' line {line}: the game is already over"),
            BookError::Empty(p) => write!(f, "book '{p}' has no positions"),
        }
    }
}

impl std::error::Error for BookError {}

/// Reads a `--book` EPD/FEN file: one position per line (the first four fields are the
/// position; operations and move counters after them are ignored); blank lines and lines
/// starting with `#` are skipped. Any unreadable position is an error naming its line.
pub fn read_book(path: &str) -> Result<Vec<String>, BookError> {
    let text = std::fs::read_to_string(path).map_err(|e| BookError::Read(path.to_string(), e))?;
    let mut fens = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().take(4).collect();
        let fen = fields.join(" ");
        let board = Board::from_fen(&fen).map_err(|e| BookError::Fen(path.to_string(), i + 1, e))?;
        if board.legal_moves().is_empty() {
            return Err(BookError::Over(path.to_string(), i + 1));
        }
        fens.push(fen);
    }
    if fens.is_empty() {
        return Err(BookError::Empty(path.to_string()));
    }
    Ok(fens)
}
