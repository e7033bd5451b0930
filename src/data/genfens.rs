//! Opening positions for OpenBench's DATAGEN workloads (`genfens`).
//!
//! OpenBench asks every worker's engine for varied starting positions with
//!
//! ```text
//! ./horizon "genfens N seed S book <None|FILE> [extra]" quit
//! ```
//!
//! and expects exactly `N` lines `info string genfens <FEN>` in return; it then plays
//! fastchess games from those positions. This module reads such a request and produces the
//! positions; the command line (`src/commands/genfens.rs`) and the UCI loop print them.
//!
//! # How a position is made
//!
//! 1. **Start.** The start position, or (with a book) a line of the book drawn uniformly
//!    at random. Book files hold one EPD or FEN a line (see [`crate::data::book::read_book`]).
//! 2. **Random plies.** A number of plies drawn uniformly from the request's ply range
//!    (default [`DEFAULT_PLIES`] without a book, [`DEFAULT_BOOK_PLIES`] with one), each a
//!    legal move drawn uniformly at random. A range of two neighbouring counts lets either
//!    side be the one to move.
//! 3. **Checks.** The candidate is thrown away and another drawn when the game is already
//!    over (no legal move, fifty-move rule, insufficient material) or when a search of
//!    [`DEFAULT_VERIFY_NODES`] nodes scores it beyond [`DEFAULT_MARGIN`] centipawns for
//!    either side (a position already lost teaches nothing about play). The search starts
//!    with an empty hash table and histories each time, so it depends on the position alone.
//! 4. **Give up.** A position that takes more than [`MAX_TRIES`] candidates ends the run
//!    with an error (a book of finished or decided positions), never a hang.
//!
//! # Reproducibility
//!
//! All random draws come from one SplitMix64 stream seeded with `S` ([`crate::rng`], so
//! the stream is the same on every platform and with every version of every crate).
//! The same `N`, `S`, book, extra options and build give the same positions, and the first
//! `K` positions of a request for `N > K` are those of a request for `K`.
//!
//! # Extra options
//!
//! After the book, OpenBench passes the test's "genfens args" string. Horizon reads it as
//! `name value` pairs:
//!
//! - `plies A` or `plies A-B`: random plies (exactly `A`, or uniformly `A..=B`), at most
//!   [`MAX_PLIES`].
//! - `nodes N`: the node budget of the checking search (0 turns the check off).
//! - `margin CP`: the largest score (centipawns, either side) a position may have.
//! - `min-margin CP`: the smallest score (centipawns, either side) a position must have
//!   (default 0). With it the positions are unbalanced: one side stands better by between
//!   `min-margin` and `margin`, as in the books match runners use to cut the draw rate.
//!
//! Anything else is an error, so a mistyped option is noticed instead of ignored.

use super::book::{read_book, BookError};
use crate::board::{Board, START_FEN};
use crate::error::HashAllocError;
use crate::rng::SplitMix64;
use crate::search::time::Clock;
use crate::search::tt::TranspositionTable;
use crate::search::{Control, Limits, Searcher, Silent};
use std::fmt;
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// Random plies after the start position: 8 or 9, so either side may be to move.
pub const DEFAULT_PLIES: PlyRange = PlyRange { min: 8, max: 9 };
/// Random plies after a book position (the book lines are varied already).
pub const DEFAULT_BOOK_PLIES: PlyRange = PlyRange { min: 2, max: 3 };
/// The most random plies a request may ask for.
pub const MAX_PLIES: usize = 200;
/// Node budget of the search that checks a candidate is not already decided.
pub const DEFAULT_VERIFY_NODES: u64 = 5000;
/// The largest node budget a request may set for the checking search.
pub const MAX_VERIFY_NODES: u64 = 10_000_000;
/// A candidate whose checking search scores beyond this (centipawns, either side) is redrawn.
pub const DEFAULT_MARGIN: i32 = 200;
/// A candidate whose checking search scores closer to 0 than this is redrawn (0: none is).
pub const DEFAULT_MIN_MARGIN: i32 = 0;
/// The largest margin a request may set: beyond it every score is a mate or a tablebase win.
pub const MAX_MARGIN: i32 = 30_000;
/// The most positions one request may ask for.
pub const MAX_COUNT: u64 = 10_000_000;
/// Candidates drawn for one position before the run gives up with an error.
pub const MAX_TRIES: usize = 500;
/// Hash table of the checking search, in MiB (cleared before every candidate).
const VERIFY_HASH_MB: usize = 1;
/// Stack of the generator thread: the search recursion needs more than a default thread's.
const STACK_BYTES: usize = 64 << 20;

/// An inclusive range of random ply counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlyRange {
    pub min: usize,
    pub max: usize,
}

/// A parsed `genfens` request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// How many positions to print.
    pub count: u64,
    pub seed: u64,
    /// The book file, or `None` for the start position (`book None`).
    pub book: Option<String>,
    /// Random plies; `None`: the default for the book choice.
    pub plies: Option<PlyRange>,
    /// Node budget of the checking search (0: no check).
    pub nodes: u64,
    /// Largest accepted score of the checking search, in centipawns (either side).
    pub margin: i32,
    /// Smallest accepted score of the checking search, in centipawns (either side).
    pub min_margin: i32,
}

impl Request {
    /// The random ply range in effect.
    pub fn ply_range(&self) -> PlyRange {
        self.plies.unwrap_or(if self.book.is_some() { DEFAULT_BOOK_PLIES } else { DEFAULT_PLIES })
    }
}

const USAGE: &str = "genfens N seed S book <None|FILE> [plies A[-B]] [nodes N] [margin CP] [min-margin CP]";

/// Why a `genfens` request could not be read. Each prints as one line starting `genfens: `.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RequestError {
    MissingCount,
    MissingSeed,
    MissingBook,
    /// A keyword without its value.
    MissingValue(String),
    UnknownOption(String),
    /// A number out of its range (what, lowest, highest, the text given).
    OutOfRange {
        what: &'static str,
        lo: String,
        hi: String,
        value: String,
    },
    /// Not a number (what, the text given).
    NotANumber {
        what: &'static str,
        value: String,
    },
    /// A ply range `A-B` with `A > B`.
    EmptyPlies(String),
    /// `min-margin` above `margin` (min-margin, margin).
    EmptyMargins(i32, i32),
    /// `min-margin` above 0 with the checking search off (`nodes 0`).
    MinMarginWithoutSearch,
}

impl fmt::Display for RequestError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            RequestError::MissingCount => write!(f, "genfens: missing the number of positions (usage: {USAGE})"),
            RequestError::MissingSeed => write!(f, "genfens: missing 'seed S' (usage: {USAGE})"),
            RequestError::MissingBook => write!(f, "genfens: missing 'book <None|FILE>' (usage: {USAGE})"),
            RequestError::MissingValue(key) => write!(f, "genfens: '{key}' needs a value (usage: {USAGE})"),
            RequestError::UnknownOption(o) => write!(f, "genfens: unknown option '{o}' (usage: {USAGE})"),
            RequestError::OutOfRange { what, lo, hi, value } => {
                write!(f, "genfens: {what} must be from {lo} to {hi}, got {value}")
            }
            RequestError::NotANumber { what, value } => write!(f, "genfens: {what} '{value}' is not a number"),
            RequestError::EmptyPlies(v) => write!(f, "genfens: plies range '{v}' is empty"),
            RequestError::EmptyMargins(min, max) => {
                write!(f, "genfens: min-margin {min} is above margin {max}: no score fits")
            }
            RequestError::MinMarginWithoutSearch => {
                write!(f, "genfens: min-margin needs the checking search (nodes above 0)")
            }
        }
    }
}

impl std::error::Error for RequestError {}

/// Why a request could not be carried out. Each prints as one line.
#[derive(Debug)]
pub enum GenfensError {
    /// The book could not be read or holds no usable position.
    Book(BookError),
    /// The checking search's hash table could not be allocated.
    Hash(HashAllocError),
    /// [`MAX_TRIES`] candidates in a row were finished or scored outside the window (where
    /// they came from: `book 'FILE'` or `the start position`; the window's bounds).
    NoPosition { source: String, min_margin: i32, margin: i32 },
    /// The generator thread could not be started.
    Thread(std::io::Error),
    /// The generator thread stopped abnormally.
    ThreadFailed,
}

impl fmt::Display for GenfensError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            GenfensError::Book(e) => write!(f, "{e}"),
            GenfensError::Hash(e) => write!(f, "{e}"),
            GenfensError::NoPosition { source, min_margin: 0, margin } => write!(
                f,
                "genfens: no usable position from {source} in {MAX_TRIES} tries (every one was finished or scored beyond {margin} cp)"
            ),
            GenfensError::NoPosition { source, min_margin, margin } => write!(
                f,
                "genfens: no usable position from {source} in {MAX_TRIES} tries (every one was finished or scored outside {min_margin} to {margin} cp, either side)"
            ),
            GenfensError::Thread(e) => write!(f, "genfens: cannot start a thread: {e}"),
            GenfensError::ThreadFailed => write!(f, "genfens: the generator thread failed"),
        }
    }
}

impl std::error::Error for GenfensError {}

/// The value after keyword `key`, or which is missing.
fn value<'a>(toks: &[&'a str], i: usize, key: &str) -> Result<&'a str, RequestError> {
    toks.get(i + 1).copied().ok_or_else(|| RequestError::MissingValue(key.to_string()))
}

/// `v` as a number within `lo..=hi`, or why not (naming `what`).
fn number<T: std::str::FromStr + PartialOrd + std::fmt::Display>(
    what: &'static str,
    v: &str,
    lo: T,
    hi: T,
) -> Result<T, RequestError> {
    match v.parse::<T>() {
        Ok(n) if n >= lo && n <= hi => Ok(n),
        Ok(_) => Err(RequestError::OutOfRange { what, lo: lo.to_string(), hi: hi.to_string(), value: v.to_string() }),
        Err(_) => Err(RequestError::NotANumber { what, value: v.to_string() }),
    }
}

fn ply_range(v: &str) -> Result<PlyRange, RequestError> {
    let (a, b) = v.split_once('-').unwrap_or((v, v));
    let min = number("plies", a, 0, MAX_PLIES)?;
    let max = number("plies", b, 0, MAX_PLIES)?;
    if min > max {
        return Err(RequestError::EmptyPlies(v.to_string()));
    }
    Ok(PlyRange { min, max })
}

impl std::str::FromStr for Request {
    type Err = RequestError;

    /// Reads `genfens N seed S book B [extra]` (the leading `genfens` may be left out).
    fn from_str(line: &str) -> Result<Request, RequestError> {
        let mut toks: Vec<&str> = line.split_whitespace().collect();
        if toks.first() == Some(&"genfens") {
            toks.remove(0);
        }
        let Some(&n) = toks.first() else {
            return Err(RequestError::MissingCount);
        };
        let count = number("N", n, 1, MAX_COUNT)?;
        let mut req = Request {
            count,
            seed: 0,
            book: None,
            plies: None,
            nodes: DEFAULT_VERIFY_NODES,
            margin: DEFAULT_MARGIN,
            min_margin: DEFAULT_MIN_MARGIN,
        };
        let (mut seed, mut book) = (None, None);
        let mut i = 1;
        while i < toks.len() {
            let key = toks[i];
            let v = value(&toks, i, key)?;
            match key {
                "seed" => seed = Some(number("seed", v, 0, u64::MAX)?),
                "book" => book = Some(if v.eq_ignore_ascii_case("none") { None } else { Some(v.to_string()) }),
                "plies" => req.plies = Some(ply_range(v)?),
                "nodes" => req.nodes = number("nodes", v, 0, MAX_VERIFY_NODES)?,
                "margin" => req.margin = number("margin", v, 0, MAX_MARGIN)?,
                "min-margin" => req.min_margin = number("min-margin", v, 0, MAX_MARGIN)?,
                other => return Err(RequestError::UnknownOption(other.to_string())),
            }
            i += 2;
        }
        req.seed = seed.ok_or(RequestError::MissingSeed)?;
        req.book = book.ok_or(RequestError::MissingBook)?;
        if req.min_margin > req.margin {
            return Err(RequestError::EmptyMargins(req.min_margin, req.margin));
        }
        if req.min_margin > 0 && req.nodes == 0 {
            return Err(RequestError::MinMarginWithoutSearch);
        }
        Ok(req)
    }
}

/// Is the game over by the rules before it starts?
fn finished(board: &Board) -> bool {
    board.legal_moves().is_empty() || board.fifty_move_draw() || board.insufficient_material()
}

/// Produces the positions of one request.
pub struct Generator {
    request: Request,
    /// Starting FENs: the book's, or the start position alone.
    starts: Vec<String>,
    rng: SplitMix64,
    searcher: Searcher,
    tt: Arc<TranspositionTable>,
    control: Arc<Control>,
}

impl Generator {
    /// A generator for `request`, reading its book. `control.stop` ends a run early (UCI).
    pub fn new(request: Request, control: Arc<Control>) -> Result<Generator, GenfensError> {
        let starts = match &request.book {
            Some(path) => read_book(path).map_err(GenfensError::Book)?,
            None => vec![START_FEN.to_string()],
        };
        let tt = Arc::new(TranspositionTable::try_new(VERIFY_HASH_MB).map_err(GenfensError::Hash)?);
        let searcher = Searcher::new(tt.clone(), control.clone());
        let rng = SplitMix64::new(request.seed);
        Ok(Generator { request, starts, rng, searcher, tt, control })
    }

    /// One candidate: a start position plus random plies; `None` if a ply found no move.
    fn candidate(&mut self) -> Option<Board> {
        let start = &self.starts[self.rng.below(self.starts.len())];
        let mut board = Board::from_fen(start).ok()?;
        let range = self.request.ply_range();
        let plies = range.min + self.rng.below(range.max - range.min + 1);
        for _ in 0..plies {
            let moves = board.legal_moves();
            if moves.is_empty() {
                return None;
            }
            board.make(moves[self.rng.below(moves.len())]);
        }
        Some(board)
    }

    /// Does a fresh search score `board` inside the window: at most `margin` and at least
    /// `min_margin`, for either side?
    fn in_window(&mut self, board: &Board) -> bool {
        if self.request.nodes == 0 {
            return true;
        }
        self.tt.clear();
        self.searcher.clear();
        let limits =
            Limits { nodes: Some(self.request.nodes), multipv: 1, clock: Clock::default(), ..Limits::default() };
        let r = self.searcher.search(board, limits, &mut Silent);
        (self.request.min_margin..=self.request.margin).contains(&r.score.abs())
    }

    /// The next position's FEN (six fields), or an error after [`MAX_TRIES`] candidates.
    pub fn next_fen(&mut self) -> Result<String, GenfensError> {
        for _ in 0..MAX_TRIES {
            let Some(board) = self.candidate() else { continue };
            if finished(&board) || !self.in_window(&board) {
                continue;
            }
            return Ok(board.to_fen());
        }
        let source = match &self.request.book {
            Some(p) => format!("book '{p}'"),
            None => "the start position".to_string(),
        };
        Err(GenfensError::NoPosition { source, min_margin: self.request.min_margin, margin: self.request.margin })
    }

    /// Generates every position, handing each FEN to `emit`. Stops early (without an error)
    /// when `control.stop` is set; returns how many were emitted.
    pub fn run(&mut self, mut emit: impl FnMut(&str)) -> Result<u64, GenfensError> {
        for done in 0..self.request.count {
            if self.control.stop.load(Ordering::Relaxed) {
                return Ok(done);
            }
            emit(&self.next_fen()?);
        }
        Ok(self.request.count)
    }
}

/// Runs `request` to the end on a thread with a search-sized stack, handing each FEN to
/// `emit` as soon as it is found; returns how many were emitted.
pub fn run_request(request: Request, emit: impl FnMut(&str) + Send) -> Result<u64, GenfensError> {
    std::thread::scope(|s| {
        let job =
            std::thread::Builder::new().name("genfens".into()).stack_size(STACK_BYTES).spawn_scoped(s, move || {
                let mut g = Generator::new(request, Arc::new(Control::default()))?;
                g.run(emit)
            });
        match job {
            Ok(h) => h.join().unwrap_or(Err(GenfensError::ThreadFailed)),
            Err(e) => Err(GenfensError::Thread(e)),
        }
    })
}

/// The whole request at once (tests, small runs).
pub fn generate(request: &Request) -> Result<Vec<String>, GenfensError> {
    let mut fens = Vec::new();
    run_request(request.clone(), |f| fens.push(f.to_string()))?;
    Ok(fens)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_parse() {
        let r: Request = "genfens 20 seed 1 book None".parse().unwrap();
        assert_eq!(
            r,
            Request {
                count: 20,
                seed: 1,
                book: None,
                plies: None,
                nodes: DEFAULT_VERIFY_NODES,
                margin: DEFAULT_MARGIN,
                min_margin: 0
            }
        );
        assert_eq!(r.ply_range(), DEFAULT_PLIES);
        let r: Request = "genfens 3 seed 18446744073709551615 book b.epd plies 4-6 nodes 0 margin 90 ".parse().unwrap();
        assert_eq!(r.seed, u64::MAX);
        assert_eq!(r.book.as_deref(), Some("b.epd"));
        assert_eq!(r.ply_range(), PlyRange { min: 4, max: 6 });
        assert_eq!((r.nodes, r.margin, r.min_margin), (0, 90, 0));
        let r: Request = "genfens 3 seed 2 book None min-margin 80 margin 150".parse().unwrap();
        assert_eq!((r.min_margin, r.margin), (80, 150));
        let r: Request = "genfens 3 seed 2 book x.epd".parse().unwrap();
        assert_eq!(r.ply_range(), DEFAULT_BOOK_PLIES);
        for bad in [
            "genfens",
            "genfens x seed 1 book None",
            "genfens 0 seed 1 book None",
            "genfens 99999999999 seed 1 book None",
            "genfens 5 book None",
            "genfens 5 seed 1",
            "genfens 5 seed -1 book None",
            "genfens 5 seed 1 book",
            "genfens 5 seed 1 book None plies 9-8",
            "genfens 5 seed 1 book None plies 999",
            "genfens 5 seed 1 book None colour white",
            "genfens 5 seed 1 book None min-margin 300",
            "genfens 5 seed 1 book None min-margin 50 nodes 0",
            "genfens 5 seed 1 book None min-margin -5",
            "genfens 5 seed 1 book None min-margin",
        ] {
            let e = bad.parse::<Request>().unwrap_err().to_string();
            assert!(e.starts_with("genfens: ") && !e.contains('\n'), "{bad}: {e}");
        }
    }
}
