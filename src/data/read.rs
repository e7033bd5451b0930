//! The one reader of training data, in both formats ([`super::Format`]):
//!
//! - **Text** ([`TextReader`]): data lines numbered from 1, blank lines skipped, each line
//!   trimmed and handed over unparsed (a line that is not UTF-8 is reported as such), so that
//!   the caller parses it where it likes (`horizon tune` on several threads) with the one
//!   parser, [`super::text::parse_line`].
//! - **Binary** ([`record_count`], [`for_each_record`], [`load`]): whole files of 32-byte
//!   records, a file whose size is not a whole number of records refused before anything is
//!   read, and every record validated ([`Record::from_bytes`]); invalid records are skipped,
//!   counted and the first few described.
//!
//! `horizon convert` reads both, `horizon train` binary files, `horizon tune` text.

use super::record::{RawRecord, Record, RECORD_SIZE};
use super::text::LineError;
use std::fmt;
use std::io::{BufRead, Read};

/// Reads a text data stream line by line (see the module doc).
pub struct TextReader<R> {
    input: R,
    buf: Vec<u8>,
    /// Lines read so far, blank ones included.
    number: usize,
}

impl<R: BufRead> TextReader<R> {
    pub fn new(input: R) -> TextReader<R> {
        TextReader { input, buf: Vec::new(), number: 0 }
    }

    /// How many lines have been read, blank ones included.
    pub fn lines_read(&self) -> usize {
        self.number
    }

    /// The next line that is not blank: its number (from 1) and its text, trimmed, or
    /// [`LineError::NotUtf8`]; `None` at the end of the stream.
    pub fn next_line(&mut self) -> std::io::Result<Option<(usize, Result<&str, LineError>)>> {
        loop {
            self.buf.clear();
            if self.input.read_until(b'\n', &mut self.buf)? == 0 {
                return Ok(None);
            }
            self.number += 1;
            let blank = matches!(std::str::from_utf8(&self.buf), Ok(l) if l.trim().is_empty());
            if !blank {
                break;
            }
        }
        let text = std::str::from_utf8(&self.buf).map(str::trim).map_err(|_| LineError::NotUtf8);
        Ok(Some((self.number, text)))
    }
}

/// Why a data file (or stream) could not be read. Each prints as one line naming it.
#[derive(Debug)]
pub enum FileError {
    /// Opening or reading failed (the file or stream name, the reason).
    Read { path: String, source: std::io::Error },
    /// The path names something other than a file (a directory, ...).
    NotAFile(String),
    /// A binary file whose size is not a whole number of records.
    Size { path: String, len: u64 },
    /// A binary stream that ends inside a record: `bytes` bytes after record `after`.
    PartialRecord { path: String, bytes: usize, after: u64 },
    /// Not enough memory to hold this many records.
    Memory(u64),
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            FileError::Read { path, source } => write!(f, "cannot read '{path}': {source}"),
            FileError::NotAFile(p) => write!(f, "'{p}' is not a file"),
            FileError::Size { path, len } => write!(
                f,
                "'{path}' is not a training data file: its size {len} is not a multiple of {RECORD_SIZE} bytes"
            ),
            FileError::PartialRecord { path, bytes, after } => {
                write!(f, "'{path}' ends with a partial record ({bytes} bytes after record {after})")
            }
            FileError::Memory(n) => write!(f, "not enough memory for {n} records"),
        }
    }
}

impl std::error::Error for FileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FileError::Read { source, .. } => Some(source),
            _ => None,
        }
    }
}

impl FileError {
    /// Opening or reading `path` failed.
    pub fn read(path: &str, source: std::io::Error) -> FileError {
        FileError::Read { path: path.to_string(), source }
    }
}

/// Records read per `read` call (4 MiB).
const CHUNK_RECORDS: usize = 1 << 17;

/// What loading found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LoadStats {
    /// Records kept.
    pub records: u64,
    /// Records that did not decode (counted, skipped).
    pub invalid: u64,
    /// The first few reasons, as `FILE record N: reason`.
    pub first_errors: Vec<String>,
    /// Records kept from each file, in order ([`load`] only): where each file's records
    /// start in what it returns.
    pub per_file: Vec<u64>,
}

/// How many invalid records are described in [`LoadStats::first_errors`].
pub const ERRORS_SHOWN: usize = 5;

/// Checks that `path` is a readable file of whole records; returns its record count.
pub fn record_count(path: &str) -> Result<u64, FileError> {
    let meta = std::fs::metadata(path).map_err(|e| FileError::read(path, e))?;
    if !meta.is_file() {
        return Err(FileError::NotAFile(path.to_string()));
    }
    let len = meta.len();
    if len % RECORD_SIZE as u64 != 0 {
        return Err(FileError::Size { path: path.to_string(), len });
    }
    Ok(len / RECORD_SIZE as u64)
}

/// Calls `each` with every valid record of the binary stream `input` (named `name` in
/// messages), counting invalid ones in `stats`. A trailing partial record is an error.
pub fn for_each_record(
    name: &str,
    mut input: impl Read,
    stats: &mut LoadStats,
    mut each: impl FnMut(&RawRecord, &Record),
) -> Result<(), FileError> {
    let mut buf = vec![0u8; CHUNK_RECORDS * RECORD_SIZE];
    let mut index: u64 = 0;
    loop {
        // Fill the buffer as far as the stream allows.
        let mut filled = 0;
        while filled < buf.len() {
            match input.read(&mut buf[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(FileError::read(name, e)),
            }
        }
        if filled % RECORD_SIZE != 0 && filled < buf.len() {
            return Err(FileError::PartialRecord {
                path: name.to_string(),
                bytes: filled % RECORD_SIZE,
                after: index + (filled / RECORD_SIZE) as u64,
            });
        }
        for chunk in buf[..filled].chunks_exact(RECORD_SIZE) {
            let raw: &RawRecord = chunk.try_into().expect("chunks of RECORD_SIZE");
            index += 1;
            match Record::from_bytes(raw) {
                Ok(r) => {
                    stats.records += 1;
                    each(raw, &r);
                }
                Err(e) => {
                    stats.invalid += 1;
                    if stats.first_errors.len() < ERRORS_SHOWN {
                        stats.first_errors.push(format!("{name} record {index}: {e}"));
                    }
                }
            }
        }
        if filled < buf.len() {
            return Ok(());
        }
    }
}

/// Loads every valid record of the binary files `paths` into memory (32 bytes a record).
/// A file whose size is not a whole number of records is refused before anything is read.
pub fn load(paths: &[String]) -> Result<(Vec<RawRecord>, LoadStats), FileError> {
    let mut total = 0u64;
    for p in paths {
        total += record_count(p)?;
    }
    let mut records: Vec<RawRecord> = Vec::new();
    records.try_reserve_exact(total as usize).map_err(|_| FileError::Memory(total))?;
    let mut stats = LoadStats::default();
    for p in paths {
        let file = std::fs::File::open(p).map_err(|e| FileError::read(p, e))?;
        let before = stats.records;
        for_each_record(p, file, &mut stats, |raw, _| records.push(*raw))?;
        stats.per_file.push(stats.records - before);
    }
    Ok((records, stats))
}
