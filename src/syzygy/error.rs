//! Why a table file cannot be used: [`TableError`], found when a file is first looked at
//! (its magic) or parsed (its header and value arrays). The prober reports each as one line,
//! `syzygy: PATH: <reason>`, and leaves the table out.

use std::fmt;

/// Why a table file is refused. Each variant prints as one line.
#[derive(Debug)]
pub enum TableError {
    /// The file could not be opened.
    Open(std::io::Error),
    /// The file could not be read (opened, but reading or mapping it failed).
    Read(std::io::Error),
    Empty,
    /// Not the magic number of a `.{extension}` file.
    WrongMagic {
        extension: &'static str,
    },
    /// The magic number of the other kind of table (`found`) in a `.{extension}` file.
    OtherKind {
        found: &'static str,
        extension: &'static str,
    },
    /// Shorter than the magic and the flag byte.
    Short(usize),
    /// The header's pawn flag contradicts the material in the file name.
    HeaderPawns,
    /// The header's sides-to-move flag contradicts the material in the file name.
    HeaderSides,
    /// The file ends inside the piece and group orders.
    TruncatedHeader,
    /// A sub-table's piece list is not the material in the file name.
    PieceList {
        file: usize,
        side: usize,
    },
    GroupLayout,
    /// An array size overflows.
    ArraySizes,
    /// The file is shorter than its header says.
    Truncated {
        described: usize,
        len: usize,
    },
    /// The file ends inside a value array's header.
    ValueHeaderEnd,
    /// The file ends inside a value array's symbol tree.
    SymbolTreeEnd,
    /// A symbol refers to a symbol beyond the tree.
    SymbolRef {
        symbol: usize,
        refers: usize,
        count: usize,
    },
    SymbolCycle(usize),
    BlockSize {
        block_log: u8,
        span_log: u8,
    },
    CodeLengths {
        min: u32,
        max: u32,
    },
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            TableError::Open(e) => write!(f, "cannot open: {e}"),
            TableError::Read(e) => write!(f, "cannot read: {e}"),
            TableError::Empty => write!(f, "empty file"),
            TableError::WrongMagic { extension } => write!(f, "wrong magic number (not a Syzygy .{extension} file)"),
            TableError::OtherKind { found, extension } => {
                write!(f, "wrong magic number (a {found} table in a .{extension} file)")
            }
            TableError::Short(n) => write!(f, "truncated: {n} bytes"),
            TableError::HeaderPawns => write!(f, "header disagrees with the file name about pawns"),
            TableError::HeaderSides => write!(f, "header disagrees with the file name about sides to move"),
            TableError::TruncatedHeader => write!(f, "truncated header"),
            TableError::PieceList { file, side } => {
                write!(f, "piece list of sub-table {file}/{side} does not match the name")
            }
            TableError::GroupLayout => write!(f, "corrupt group layout"),
            TableError::ArraySizes => write!(f, "array sizes out of range"),
            TableError::Truncated { described, len } => {
                write!(f, "truncated: the header describes {described} bytes, the file has {len}")
            }
            TableError::ValueHeaderEnd => write!(f, "ends inside a value-array header"),
            TableError::SymbolTreeEnd => write!(f, "ends inside the symbol tree"),
            TableError::SymbolRef { symbol, refers, count } => {
                write!(f, "symbol {symbol} refers to symbol {refers} of {count}")
            }
            TableError::SymbolCycle(c) => write!(f, "symbol tree has a cycle at symbol {c}"),
            TableError::BlockSize { block_log, span_log } => {
                write!(f, "block size 2^{block_log} or span 2^{span_log} out of range")
            }
            TableError::CodeLengths { min, max } => write!(f, "code lengths {min}..{max} out of range"),
        }
    }
}

impl std::error::Error for TableError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            TableError::Open(e) | TableError::Read(e) => Some(e),
            _ => None,
        }
    }
}
