//! Training data: its two file formats, the one reader of both, and everything that makes
//! or converts positions for tuning and training.
//!
//! The formats and the reader, which need only the board:
//!
//! - [`text`]: the data line `<FEN> | <score> | <result>` (what `horizon datagen` writes by
//!   default): writing it, and the one parser of it.
//! - [`record`]: the 32-byte binary training record (`--format bin`, the trainer's input).
//! - [`read`]: the one reader: text lines (numbered, blank ones skipped) and binary records
//!   (validated one by one, whole files checked first), used by `horizon convert`,
//!   `horizon train` and `horizon tune`.
//! - [`Format`]: which of the two a file holds.
//!
//! The tools that make or convert data, above the search (they play or check positions):
//!
//! - [`convert`]: text to binary and back, with duplicate removal (`horizon convert`).
//! - [`book`]: opening books (EPD or FEN lines) for self-play and for OpenBench openings.
//! - [`datagen`]: self-play games and their quiet positions (`horizon datagen`).
//! - [`genfens`]: opening positions for OpenBench's DATAGEN workloads (`genfens`).
//! - [`pgn`]: reading PGN files, and fastchess games turned into data lines
//!   (`horizon pgn-convert`).
//!
//! Each library takes a typed configuration and returns a typed error; the command lines
//! are in `crate::commands`. The tuner (`crate::tune`) and the network trainer
//! (`crate::train`) read their data through [`read`].

pub mod book;
pub mod convert;
pub mod datagen;
pub mod genfens;
pub mod pgn;
pub mod read;
pub mod record;
pub mod text;

/// A training-data file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `<FEN> | <score> | <result>` lines (what `datagen` writes by default).
    Text,
    /// 32-byte records.
    Bin,
}

impl Format {
    /// The format a file name implies: `.bin` binary, anything else (and `-`) text.
    pub fn of_path(path: &str) -> Format {
        if path.ends_with(".bin") {
            Format::Bin
        } else {
            Format::Text
        }
    }
}
