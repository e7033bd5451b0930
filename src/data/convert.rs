//! `horizon convert`: training data between the text form (`<FEN> | <score> | <result>`,
//! what `datagen` writes by default) and the 32-byte binary records, with optional removal
//! of duplicate positions (same placement and side to move).
//!
//! Input format is told by the file name: `.bin` is binary, anything else text; `-` reads
//! text from stdin (`xz -dc data.txt.xz | horizon convert - --out data.bin`). Malformed text
//! lines and invalid records are skipped and counted; the first few are described.

use super::read::{for_each_record, record_count, FileError, LoadStats, TextReader};
use super::record::{Record, RecordError};
use super::text::{format_line, parse_line, LineError, Outcome};
use super::Format;
use std::collections::HashSet;
use std::fmt;
use std::io::{BufRead, BufWriter, IsTerminal, Write};
use std::time::{Duration, Instant};

/// How many skipped lines or records are described one by one.
pub const SKIPPED_SHOWN: usize = 5;
/// Progress is reported this often on a terminal ...
const PROGRESS_TTY: Duration = Duration::from_millis(500);
/// ... and as a line of its own this often elsewhere.
const PROGRESS_LOG: Duration = Duration::from_secs(10);
/// Positions between clock checks for progress.
const PROGRESS_CHECK: u64 = 1 << 16;

/// Why a conversion did not run or stopped: bad input, or an output that could not be
/// written (the command line tells them apart by exit code, 2 or 1). Each prints as one line.
#[derive(Debug)]
pub enum ConvertError {
    NoInputs,
    /// The output file exists and `--force` was not given.
    Exists(String),
    /// An input could not be read.
    Read(FileError),
    /// The output (its temporary file) could not be written.
    Write {
        path: String,
        source: std::io::Error,
    },
    /// The finished temporary file could not be renamed to the output.
    Rename {
        from: String,
        to: String,
        source: std::io::Error,
    },
}

impl ConvertError {
    /// Whether the output could not be written (rather than the input being bad).
    pub fn is_write(&self) -> bool {
        matches!(self, ConvertError::Write { .. } | ConvertError::Rename { .. })
    }
}

impl fmt::Display for ConvertError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            ConvertError::NoInputs => write!(f, "no input files"),
            ConvertError::Exists(p) => write!(f, "'{p}' exists; add --force to replace it"),
            ConvertError::Read(e) => write!(f, "{e}"),
            ConvertError::Write { path, source } => write!(f, "cannot write '{path}': {source}"),
            ConvertError::Rename { from, to, source } => write!(f, "cannot rename '{from}' to '{to}': {source}"),
        }
    }
}

impl std::error::Error for ConvertError {}

impl From<FileError> for ConvertError {
    fn from(e: FileError) -> ConvertError {
        ConvertError::Read(e)
    }
}

/// A conversion to run.
#[derive(Clone, Debug)]
pub struct Config {
    pub inputs: Vec<String>,
    pub out: String,
    pub to: Format,
    /// Drop repeated positions (same placement and side to move); the first is kept.
    pub dedup: bool,
    /// Replace an existing output file.
    pub force: bool,
}

/// What a conversion did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Positions read and understood.
    pub read: u64,
    /// Positions written.
    pub written: u64,
    /// Positions dropped as duplicates.
    pub duplicates: u64,
    /// Lines or records skipped as malformed.
    pub skipped: u64,
    /// The first [`SKIPPED_SHOWN`] of them, as `skipped line N: reason`.
    pub first_skipped: Vec<String>,
}

/// Reads one text data line (with the one data-line parser, [`parse_line`])
/// into a record, or says why not.
pub fn record_of_line(line: &str) -> Result<Record, LineError> {
    let d = parse_line(line)?;
    Ok(Record::from_board(&d.board, d.score, d.result.result_byte()))
}

/// The text data line of a record (with its newline), or why the record is not a position.
pub fn line_of_record(r: &Record) -> Result<String, RecordError> {
    let board = r.to_board()?;
    Ok(format_line(&board.to_fen(), r.score as i32, Outcome::of_result_byte(r.result)))
}

/// The output side of a conversion: format, dedup set, counters and progress.
struct Sink<W: Write> {
    out: W,
    /// The file `out` writes to, for messages.
    path: String,
    to: Format,
    seen: Option<HashSet<u64>>,
    stats: Stats,
    start: Instant,
    last_progress: Instant,
    tty: bool,
}

impl<W: Write> Sink<W> {
    fn skip(&mut self, what: String) {
        self.stats.skipped += 1;
        if self.stats.first_skipped.len() < SKIPPED_SHOWN {
            self.stats.first_skipped.push(what);
        }
    }

    fn put(&mut self, r: &Record) -> Result<(), ConvertError> {
        self.stats.read += 1;
        if self.stats.read.is_multiple_of(PROGRESS_CHECK) {
            self.progress();
        }
        if let Some(seen) = &mut self.seen {
            if !seen.insert(r.dedup_key()) {
                self.stats.duplicates += 1;
                return Ok(());
            }
        }
        let res = match self.to {
            Format::Bin => self.out.write_all(&r.to_bytes()),
            Format::Text => match line_of_record(r) {
                Ok(l) => self.out.write_all(l.as_bytes()),
                Err(e) => {
                    self.skip(format!("skipped record {}: {e}", self.stats.read));
                    return Ok(());
                }
            },
        };
        res.map_err(|source| ConvertError::Write { path: self.path.clone(), source })?;
        self.stats.written += 1;
        Ok(())
    }

    fn progress(&mut self) {
        let every = if self.tty { PROGRESS_TTY } else { PROGRESS_LOG };
        if self.last_progress.elapsed() < every {
            return;
        }
        self.last_progress = Instant::now();
        let secs = self.start.elapsed().as_secs_f64().max(1e-9);
        let line = format!(
            "read {}  written {}  duplicates {}  skipped {}  {:.0} positions/s",
            self.stats.read,
            self.stats.written,
            self.stats.duplicates,
            self.stats.skipped,
            self.stats.read as f64 / secs
        );
        if self.tty {
            eprint!("\r\x1b[K{line}");
        } else {
            eprintln!("{line}");
        }
    }
}

/// Reads text lines from `input`, feeding the records to `sink`.
fn read_text<W: Write>(name: &str, input: impl BufRead, sink: &mut Sink<W>) -> Result<(), ConvertError> {
    let mut lines = TextReader::new(input);
    let read_error = |source| FileError::Read { path: name.to_string(), source };
    while let Some((n, line)) = lines.next_line().map_err(read_error)? {
        match line.and_then(record_of_line) {
            Ok(r) => sink.put(&r)?,
            Err(e) => sink.skip(format!("skipped line {n} of '{name}': {e}")),
        }
    }
    Ok(())
}

/// Runs a conversion. Writes to a temporary file beside the output and renames it at the
/// end, so an interrupted run leaves no half-written output.
pub fn run(cfg: &Config) -> Result<Stats, ConvertError> {
    if cfg.inputs.is_empty() {
        return Err(ConvertError::NoInputs);
    }
    if !cfg.force && std::path::Path::new(&cfg.out).exists() {
        return Err(ConvertError::Exists(cfg.out.clone()));
    }
    // Check every binary input before writing anything.
    for p in cfg.inputs.iter().filter(|p| *p != "-" && Format::of_path(p) == Format::Bin) {
        record_count(p)?;
    }
    let tmp = format!("{}.tmp", cfg.out);
    let write_error = |source| ConvertError::Write { path: tmp.clone(), source };
    let file = std::fs::File::create(&tmp).map_err(write_error)?;
    let now = Instant::now();
    let mut sink = Sink {
        out: BufWriter::with_capacity(1 << 20, file),
        path: tmp.clone(),
        to: cfg.to,
        seen: cfg.dedup.then(HashSet::new),
        stats: Stats::default(),
        start: now,
        last_progress: now,
        tty: std::io::stderr().is_terminal(),
    };
    let result = (|| -> Result<(), ConvertError> {
        for p in &cfg.inputs {
            if p == "-" {
                read_text("stdin", std::io::stdin().lock(), &mut sink)?;
            } else if Format::of_path(p) == Format::Bin {
                let f = std::fs::File::open(p).map_err(|source| FileError::Read { path: p.clone(), source })?;
                let mut load = LoadStats::default();
                let mut err: Result<(), ConvertError> = Ok(());
                for_each_record(p, std::io::BufReader::new(f), &mut load, |_, r| {
                    if err.is_ok() {
                        err = sink.put(r);
                    }
                })?;
                err?;
                sink.stats.skipped += load.invalid;
                for e in load.first_errors {
                    if sink.stats.first_skipped.len() < SKIPPED_SHOWN {
                        sink.stats.first_skipped.push(format!("skipped {e}"));
                    }
                }
            } else {
                let f = std::fs::File::open(p).map_err(|source| FileError::Read { path: p.clone(), source })?;
                read_text(p, std::io::BufReader::with_capacity(1 << 20, f), &mut sink)?;
            }
        }
        sink.out.flush().map_err(write_error)
    })();
    if sink.tty {
        eprint!("\r\x1b[K");
    }
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    let stats = sink.stats;
    drop(sink.out);
    std::fs::rename(&tmp, &cfg.out).map_err(|source| ConvertError::Rename {
        from: tmp,
        to: cfg.out.clone(),
        source,
    })?;
    Ok(stats)
}
