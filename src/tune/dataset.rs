//! Traced positions in compact sparse form, and the parallel loader that fills them.
//!
//! Every position is traced once at load time ([`crate::eval::trace::Trace`]) and only its
//! non-zero counts are kept: a `Feature` is 4 bytes (flat weight index, count), a position
//! header 32 bytes. A typical middlegame position has 70-90 features, so a million positions
//! take about 350 MB.

use crate::data::read::TextReader;
use crate::data::text::{parse_line, DataError, LineError};
use crate::eval::layout::COUNT;
use crate::eval::scale::ScaleCase;
use crate::eval::trace::Trace;
use crate::eval::{self};
use crate::types::Color;
use std::io::BufRead;

/// One non-zero count of a traced position: flat weight index and count.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Feature {
    pub index: u16,
    pub count: i16,
}

/// The header of one traced position. Its features are `features[start ..]`: first `linear`
/// linear counts (white's minus black's), then `danger[0]` king-danger counts of white as the
/// attacker, then `danger[1]` of black.
#[derive(Copy, Clone, Debug)]
pub struct Position {
    pub start: u64,
    pub linear: u16,
    pub danger: [u8; 2],
    /// Bit `c` set: side `c`'s king danger was counted (it had enough attackers).
    pub danger_seen: u8,
    pub phase: u8,
    /// Scale case index if white (`[0]`) or black (`[1]`) is ahead.
    pub scale: [u8; 2],
    /// Game result, white's view.
    pub result: f32,
    /// Search score, centipawns, white's view.
    pub score: f32,
    /// The training target (set once the sigmoid scale is known).
    pub target: f32,
}

/// Traced positions.
#[derive(Default)]
pub struct Dataset {
    pub positions: Vec<Position>,
    pub features: Vec<Feature>,
}

impl Dataset {
    /// Appends a traced position.
    pub fn push(&mut self, trace: &Trace, score: i32, result: f32) {
        let start = self.features.len() as u64;
        let nonzero = |i: usize, n: i32| {
            debug_assert!(i < COUNT && i <= u16::MAX as usize);
            Feature { index: i as u16, count: n.clamp(i16::MIN as i32, i16::MAX as i32) as i16 }
        };
        let before = self.features.len();
        for (i, &n) in trace.coef.iter().enumerate() {
            if n != 0 {
                self.features.push(nonzero(i, n));
            }
        }
        let linear = (self.features.len() - before) as u16;
        let mut danger = [0u8; 2];
        let mut seen = 0u8;
        for c in Color::ALL {
            if trace.danger_seen[c.index()].is_none() {
                continue;
            }
            seen |= 1 << c.index();
            let before = self.features.len();
            for (i, &n) in trace.danger[c.index()].iter().enumerate() {
                if n != 0 {
                    self.features.push(nonzero(i, n));
                }
            }
            danger[c.index()] = (self.features.len() - before) as u8;
        }
        self.positions.push(Position {
            start,
            linear,
            danger,
            danger_seen: seen,
            phase: trace.phase as u8,
            scale: [trace.scale[0].index() as u8, trace.scale[1].index() as u8],
            result,
            score: score as f32,
            target: 0.0,
        });
    }

    /// The linear features and the king-danger features of white and black of `p`.
    #[inline(always)]
    pub fn features(&self, p: &Position) -> (&[Feature], [&[Feature]; 2]) {
        let s = p.start as usize;
        let l = s + p.linear as usize;
        let w = l + p.danger[0] as usize;
        let b = w + p.danger[1] as usize;
        (&self.features[s..l], [&self.features[l..w], &self.features[w..b]])
    }

    /// Appends another dataset.
    fn append(&mut self, other: Dataset) {
        let offset = self.features.len() as u64;
        self.features.extend_from_slice(&other.features);
        self.positions.extend(other.positions.into_iter().map(|mut p| {
            p.start += offset;
            p
        }));
    }

    /// Memory used, in bytes.
    pub fn bytes(&self) -> usize {
        self.positions.len() * std::mem::size_of::<Position>() + self.features.len() * std::mem::size_of::<Feature>()
    }
}

/// What `load` read.
pub struct Loaded {
    pub data: Dataset,
    /// The first rejected lines (at most `MAX_REPORTED_ERRORS`), in file order.
    pub errors: Vec<DataError>,
    /// All rejected lines.
    pub error_count: usize,
    /// Lines read.
    pub lines: usize,
}

/// How many rejected lines `load` keeps to report.
pub const MAX_REPORTED_ERRORS: usize = 10;

/// Lines parsed and traced per round, split across the threads.
const CHUNK_LINES: usize = 1 << 15;

/// Reads data lines from `reader` (with the one reader, [`TextReader`]: blank lines are
/// skipped), parses and traces them on `threads` threads, and keeps at most `limit` positions.
/// Malformed lines are skipped and counted (their numbers and reasons kept for the first
/// few). `progress` is called after every chunk with the lines read.
pub fn load(
    reader: impl BufRead,
    limit: usize,
    threads: usize,
    progress: &mut dyn FnMut(usize),
) -> std::io::Result<Loaded> {
    let mut out = Loaded { data: Dataset::default(), errors: Vec::new(), error_count: 0, lines: 0 };
    let mut lines = TextReader::new(reader);
    let threads = threads.max(1);
    loop {
        // Every line gives at most one position, so reading no more lines than positions still
        // wanted stops exactly at the limit (and counts no rejected line beyond it).
        let wanted = (limit - out.data.positions.len()).min(CHUNK_LINES);
        let mut chunk: Vec<Line> = Vec::with_capacity(wanted);
        while chunk.len() < wanted {
            let Some((number, text)) = lines.next_line()? else { break };
            chunk.push((number, text.map(str::to_string)));
        }
        out.lines = lines.lines_read();
        if chunk.is_empty() {
            break;
        }
        let per_thread = chunk.len().div_ceil(threads);
        let parts: Vec<(Dataset, Vec<DataError>)> = std::thread::scope(|s| {
            let handles: Vec<_> = chunk.chunks(per_thread).map(|part| s.spawn(move || trace_lines(part))).collect();
            handles.into_iter().map(|h| h.join().expect("tracing thread panicked")).collect()
        });
        for (data, errors) in parts {
            out.error_count += errors.len();
            let room = MAX_REPORTED_ERRORS.saturating_sub(out.errors.len());
            out.errors.extend(errors.into_iter().take(room));
            out.data.append(data);
        }
        progress(out.lines);
        if out.data.positions.len() >= limit {
            break;
        }
    }
    out.data.features.shrink_to_fit();
    out.data.positions.shrink_to_fit();
    Ok(out)
}

/// A line as read: its number and its text, or why it is not text.
type Line = (usize, Result<String, LineError>);

/// Parses and traces `lines`.
fn trace_lines(lines: &[Line]) -> (Dataset, Vec<DataError>) {
    let mut data = Dataset::default();
    let mut errors = Vec::new();
    let mut trace = Trace::new();
    for (number, text) in lines {
        let parsed = match text {
            Ok(t) => parse_line(t),
            Err(e) => Err(e.clone()),
        };
        match parsed {
            Ok(d) => {
                trace.reset();
                eval::evaluate_traced(&d.board, &mut trace);
                data.push(&trace, d.score, d.result.value() as f32);
            }
            Err(error) => errors.push(DataError { line: *number, error }),
        }
    }
    (data, errors)
}

/// The scale case stored in a position header.
#[inline(always)]
pub fn scale_case(index: u8) -> ScaleCase {
    ScaleCase::from_index(index as usize).unwrap_or(ScaleCase::Normal)
}
