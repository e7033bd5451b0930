//! Self-play data generation for tuning the evaluation (`horizon datagen`).
//!
//! Horizon plays games against itself at a fixed node budget per move and writes the quiet
//! positions of each game together with the search score and the game's result.
//!
//! # Data format
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
//! # How a game is played
//!
//! 1. **Opening.** The game starts from the start position, or from a line of the `--book`
//!    EPD file chosen at random, followed by `--random-plies` random legal moves. An opening
//!    after which the side to move already scores beyond [`OPENING_MAX_SCORE`] in the
//!    first search is thrown away and another one drawn, so games start roughly balanced.
//! 2. **Moves.** Each move is a search limited to `--nodes` nodes, one search thread, with
//!    a transposition table and histories cleared at the start of every game.
//! 3. **End.** Checkmate, stalemate, threefold repetition, the fifty-move rule and
//!    insufficient material end a game as the rules say. Adjudication ends it earlier: a
//!    win when the score stays at or beyond [`WIN_SCORE`] for one side for [`WIN_PLIES`]
//!    plies in a row; a draw when, after [`DRAW_MIN_PLY`] plies, the score stays within
//!    [`DRAW_SCORE`] for [`DRAW_PLIES`] plies in a row. A game still going after
//!    [`MAX_GAME_PLIES`] plies is scored a draw.
//! 4. **Filter.** A position is written only when it was reached after the opening, its
//!    side to move is not in check, the best move found is not a capture or promotion, the
//!    score is not a mate score, and the quiescence search scores it exactly as the static
//!    evaluation does (nothing is hanging). These are the positions whose search score the
//!    static evaluation can hope to match.
//!
//! # Reproducibility
//!
//! Game `i` draws its opening from a random generator seeded with `--seed` and `i` alone,
//! and every game starts with empty tables. So a run with the same seed plays the same
//! games whatever the thread count; with one thread they are also written in the same
//! order, and the file is byte-identical. (Across builds or evaluation changes the games of
//! course differ.)
//!
//! # Interruption
//!
//! Each worker thread plays whole games and writes each game's lines in one write, under a
//! lock. Stopping the program (Ctrl-C, `kill`) loses only the games being played.

use crate::board::{Board, START_FEN};
use crate::error::{FenError, HashAllocError};
use crate::eval::evaluate;
use crate::search::movepick::is_tactical;
use crate::search::params::MATE_BOUND;
use crate::search::time::Clock;
use crate::search::tt::TranspositionTable;
use crate::search::{Control, Limits, SearchResult, Searcher, Silent};
use crate::types::Color;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::fs::{File, OpenOptions};
use std::fmt;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Default node budget per move.
pub const DEFAULT_NODES: u64 = 5000;
/// Default number of random plies after the start position ...
pub const DEFAULT_RANDOM_PLIES: usize = 8;
/// ... and after a book position (the book lines are already varied).
pub const DEFAULT_BOOK_RANDOM_PLIES: usize = 2;
/// Default hash table size per thread, in MiB (a game at 5000 nodes a move fills a few).
pub const DEFAULT_HASH_MB: usize = 8;

/// An opening whose first search scores beyond this (centipawns, either side) is redrawn.
pub const OPENING_MAX_SCORE: i32 = 400;
/// Give up drawing openings for a game after this many tries (a book of lost positions).
const MAX_OPENING_TRIES: usize = 1000;
/// Win adjudication: a score at least this large (centipawns) for the same side ...
pub const WIN_SCORE: i32 = 1000;
/// ... for this many plies in a row.
pub const WIN_PLIES: usize = 6;
/// Draw adjudication: a score at most this large (centipawns, either side) ...
pub const DRAW_SCORE: i32 = 10;
/// ... for this many plies in a row ...
pub const DRAW_PLIES: usize = 12;
/// ... once this many plies have been played in the game, counting the random opening
/// plies (but not the moves that led to a book position).
pub const DRAW_MIN_PLY: usize = 80;
/// A game still running after this many plies is scored a draw.
pub const MAX_GAME_PLIES: usize = 600;


/// What to do with an output file that already exists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Existing {
    /// Stop with an error (the default: data is never lost by accident).
    Refuse,
    /// Add the new games at the end (`--append`).
    Append,
    /// Replace the file (`--force`).
    Overwrite,
}

/// Everything a run needs.
#[derive(Clone, Debug)]
pub struct Config {
    pub out: String,
    pub games: u64,
    pub threads: usize,
    pub nodes: u64,
    pub seed: u64,
    /// Opening positions (FENs) from `--book`; empty: the start position.
    pub book: Vec<String>,
    pub random_plies: usize,
    pub hash_mb: usize,
    pub existing: Existing,
    /// How often the runner reports its progress (see [`run`]).
    pub report_every: Duration,
}

impl Config {
    /// The defaults for writing `games` games to `out`.
    pub fn new(out: impl Into<String>, games: u64) -> Config {
        Config {
            out: out.into(),
            games,
            threads: 1,
            nodes: DEFAULT_NODES,
            seed: 1,
            book: Vec::new(),
            random_plies: DEFAULT_RANDOM_PLIES,
            hash_mb: DEFAULT_HASH_MB,
            existing: Existing::Refuse,
            report_every: Duration::from_secs(30),
        }
    }
}

/// Why a run could not start or stopped.
#[derive(Debug)]
pub enum DatagenError {
    /// The output file exists and neither appending nor overwriting was asked for.
    Exists(String),
    /// The output file could not be opened (path, reason).
    Open(String, std::io::Error),
    /// Writing a game failed part way through the run (path, reason).
    Write(String, std::io::Error),
    /// A hash table could not be allocated.
    Hash(HashAllocError),
}

impl fmt::Display for DatagenError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            DatagenError::Exists(p) => {
                write!(f, "'{p}' exists; add --append to add games to it or --force to replace it")
            }
            DatagenError::Open(p, e) | DatagenError::Write(p, e) => write!(f, "cannot write '{p}': {e}"),
            DatagenError::Hash(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for DatagenError {}

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

    /// A win for `c`.
    fn win_for(c: Color) -> Outcome {
        if c == Color::White {
            Outcome::WhiteWins
        } else {
            Outcome::BlackWins
        }
    }
}

/// One parsed data line.
#[derive(Clone, Debug, PartialEq)]
pub struct DataLine {
    pub fen: String,
    /// Centipawns, White's point of view.
    pub score: i32,
    pub result: Outcome,
}

/// Parses `<FEN> | <score> | <result>` (the FEN itself is not validated here).
pub fn parse_line(line: &str) -> Result<DataLine, String> {
    let fields: Vec<&str> = line.split('|').map(str::trim).collect();
    let [fen, score, result] = fields[..] else {
        return Err(format!("expected '<FEN> | <score> | <result>', got {} field(s)", fields.len()));
    };
    let score = score.parse().map_err(|_| format!("score '{score}' is not an integer"))?;
    let result = match result {
        "1.0" => Outcome::WhiteWins,
        "0.5" => Outcome::Draw,
        "0.0" => Outcome::BlackWins,
        r => return Err(format!("result '{r}' is not 1.0, 0.5 or 0.0")),
    };
    Ok(DataLine { fen: fen.to_string(), score, result })
}

/// Formats one data line (with its newline).
pub fn format_line(fen: &str, white_score: i32, result: Outcome) -> String {
    format!("{fen} | {white_score} | {}\n", result.as_str())
}

/// A finished game: the positions kept (FEN, White-relative score) and the result.
#[derive(Clone, Debug)]
pub struct Game {
    pub positions: Vec<(String, i32)>,
    pub outcome: Outcome,
    /// Plies played after the opening.
    pub plies: usize,
}

impl Game {
    /// The game's data lines, ready to write.
    pub fn lines(&self) -> String {
        let mut s = String::new();
        for (fen, score) in &self.positions {
            s.push_str(&format_line(fen, *score, self.outcome));
        }
        s
    }
}

/// The seed of game `index`'s random generator: a SplitMix64-style mix of the run seed,
/// so neighbouring seeds and indices give unrelated streams.
fn game_seed(seed: u64, index: u64) -> u64 {
    let mut z = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ index.wrapping_add(0xD1B5_4A32_D192_ED03);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Plays self-play games with one search thread and its own hash table.
pub struct Player {
    searcher: Searcher,
    tt: Arc<TranspositionTable>,
    nodes: u64,
}

impl Player {
    /// A player with a hash table of `hash_mb` MiB searching `nodes` nodes a move.
    pub fn new(hash_mb: usize, nodes: u64) -> Result<Player, HashAllocError> {
        let tt = Arc::new(TranspositionTable::try_new(hash_mb)?);
        let searcher = Searcher::new(tt.clone(), Arc::new(Control::default()));
        Ok(Player { searcher, tt, nodes: nodes.max(1) })
    }

    fn search(&mut self, board: &Board) -> SearchResult {
        let limits = Limits { nodes: Some(self.nodes), multipv: 1, clock: Clock::default(), ..Limits::default() };
        self.searcher.search(board, limits, &mut Silent)
    }

    /// Draws an opening for the game seeded by `rng`: a book line (or the start position)
    /// plus `random_plies` random legal moves, redrawn while the position is over or its
    /// first search scores beyond [`OPENING_MAX_SCORE`]. Returns the position and that
    /// first search, which is also the game's first move.
    fn opening(&mut self, rng: &mut SmallRng, book: &[String], random_plies: usize) -> (Board, SearchResult) {
        let mut last = None;
        for _ in 0..MAX_OPENING_TRIES {
            let fen = if book.is_empty() { START_FEN } else { book[rng.gen_range(0..book.len())].as_str() };
            let Ok(mut board) = Board::from_fen(fen) else { continue };
            let mut alive = true;
            for _ in 0..random_plies {
                let moves = board.legal_moves();
                if moves.is_empty() {
                    alive = false;
                    break;
                }
                board.make(moves[rng.gen_range(0..moves.len())]);
            }
            if !alive || game_over(&board).is_some() {
                continue;
            }
            self.new_game();
            let first = self.search(&board);
            if first.score.abs() <= OPENING_MAX_SCORE {
                return (board, first);
            }
            last = Some((board, first));
        }
        // Every try was unbalanced (a book of lost positions): play the last one anyway.
        match last {
            Some(x) => x,
            None => {
                let board = Board::startpos();
                self.new_game();
                let first = self.search(&board);
                (board, first)
            }
        }
    }

    /// Empties the hash table and the histories, so each game depends on its seed alone.
    fn new_game(&mut self) {
        self.tt.clear();
        self.searcher.clear();
    }

    /// Plays game number `index` of the run with seed `seed`.
    pub fn play(&mut self, seed: u64, index: u64, book: &[String], random_plies: usize) -> Game {
        let mut rng = SmallRng::seed_from_u64(game_seed(seed, index));
        let (mut board, first) = self.opening(&mut rng, book, random_plies);
        let mut next = Some(first);
        let mut positions = Vec::new();
        // Signed run length of winning scores (positive: White) and of drawish scores.
        let mut win_run: i64 = 0;
        let mut draw_run = 0usize;
        let mut plies = 0usize;

        let outcome = loop {
            if let Some(o) = game_over(&board) {
                break o;
            }
            if plies >= MAX_GAME_PLIES {
                break Outcome::Draw;
            }
            let r = match next.take() {
                Some(r) => r,
                None => self.search(&board),
            };
            let us = board.side_to_move();
            let white_score = if us == Color::White { r.score } else { -r.score };

            // Keep the position if it is quiet and its score is not a mate score.
            if r.score.abs() < MATE_BOUND
                && !board.in_check()
                && !is_tactical(&board, r.best)
                && self.searcher.quiescence(&board) == evaluate(&board)
            {
                positions.push((board.to_fen(), white_score));
            }

            // Adjudication.
            win_run = if white_score >= WIN_SCORE {
                win_run.max(0) + 1
            } else if white_score <= -WIN_SCORE {
                win_run.min(0) - 1
            } else {
                0
            };
            if win_run.unsigned_abs() as usize >= WIN_PLIES {
                break Outcome::win_for(if win_run > 0 { Color::White } else { Color::Black });
            }
            let game_ply = random_plies + plies;
            draw_run = if game_ply >= DRAW_MIN_PLY && white_score.abs() <= DRAW_SCORE { draw_run + 1 } else { 0 };
            if draw_run >= DRAW_PLIES {
                break Outcome::Draw;
            }

            board.make(r.best);
            plies += 1;
        };
        Game { positions, outcome, plies }
    }
}

/// The result if the game is over by the rules: mate, stalemate, threefold repetition,
/// fifty-move rule (mate on the last move takes precedence), insufficient material.
fn game_over(board: &Board) -> Option<Outcome> {
    if board.legal_moves().is_empty() {
        return Some(if board.in_check() { Outcome::win_for(board.side_to_move().flip()) } else { Outcome::Draw });
    }
    if board.is_repetition(0) || board.fifty_move_draw() || board.insufficient_material() {
        return Some(Outcome::Draw);
    }
    None
}

/// Where a run stands: games written (of `total`), positions, plies and results so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Status {
    pub games: u64,
    pub total: u64,
    pub positions: u64,
    /// Plies played after the openings, summed over the games.
    pub plies: u64,
    /// Games won by White, drawn, won by Black.
    pub results: [u64; 3],
    pub elapsed: Duration,
}

/// Counters shared by the worker threads, and the output file.
struct Shared {
    out: Mutex<Output>,
    next_game: AtomicU64,
    failed: AtomicBool,
}

struct Output {
    file: File,
    status: Status,
    last_report: Instant,
    error: Option<DatagenError>,
}

/// Runs the whole generation (see the module doc). `report` is called with the status every
/// `cfg.report_every` (after a game ends, from the thread that wrote it); the final status is
/// returned.
pub fn run(cfg: &Config, report: &(dyn Fn(&Status) + Sync)) -> Result<Status, DatagenError> {
    let file = open_output(&cfg.out, cfg.existing)?;
    // Allocate every thread's table before starting, so a too-large --hash fails cleanly.
    let mut players = Vec::with_capacity(cfg.threads);
    for _ in 0..cfg.threads {
        players.push(Player::new(cfg.hash_mb, cfg.nodes).map_err(DatagenError::Hash)?);
    }
    let start = Instant::now();
    let shared = Shared {
        out: Mutex::new(Output {
            file,
            status: Status { total: cfg.games, ..Status::default() },
            last_report: start,
            error: None,
        }),
        next_game: AtomicU64::new(0),
        failed: AtomicBool::new(false),
    };
    std::thread::scope(|s| {
        for player in players.iter_mut() {
            let shared = &shared;
            s.spawn(move || worker(player, cfg, shared, start, report));
        }
    });
    let out = shared.out.into_inner().unwrap_or_else(|p| p.into_inner());
    if let Some(e) = out.error {
        return Err(e);
    }
    Ok(Status { elapsed: start.elapsed(), ..out.status })
}

/// One worker thread: takes the next game number, plays it, writes it.
fn worker(player: &mut Player, cfg: &Config, shared: &Shared, start: Instant, report: &(dyn Fn(&Status) + Sync)) {
    loop {
        if shared.failed.load(Ordering::Relaxed) {
            return;
        }
        let index = shared.next_game.fetch_add(1, Ordering::Relaxed);
        if index >= cfg.games {
            return;
        }
        let game = player.play(cfg.seed, index, &cfg.book, cfg.random_plies);
        let text = game.lines();
        let mut out = shared.out.lock().unwrap_or_else(|p| p.into_inner());
        // One write per game: an interruption never leaves half a game in the file.
        if let Err(e) = out.file.write_all(text.as_bytes()).and_then(|_| out.file.flush()) {
            out.error = Some(DatagenError::Write(cfg.out.clone(), e));
            shared.failed.store(true, Ordering::Relaxed);
            return;
        }
        let s = &mut out.status;
        s.games += 1;
        s.positions += game.positions.len() as u64;
        s.plies += game.plies as u64;
        s.results[match game.outcome {
            Outcome::WhiteWins => 0,
            Outcome::Draw => 1,
            Outcome::BlackWins => 2,
        }] += 1;
        if out.last_report.elapsed() >= cfg.report_every {
            out.last_report = Instant::now();
            out.status.elapsed = start.elapsed();
            report(&out.status);
        }
    }
}

/// Opens the output file as `existing` says.
fn open_output(path: &str, existing: Existing) -> Result<File, DatagenError> {
    let exists = std::path::Path::new(path).exists();
    let mut o = OpenOptions::new();
    match existing {
        Existing::Refuse if exists => return Err(DatagenError::Exists(path.to_string())),
        Existing::Refuse => o.write(true).create_new(true),
        Existing::Append => o.append(true).create(true),
        Existing::Overwrite => o.write(true).create(true).truncate(true),
    };
    o.open(path).map_err(|e| DatagenError::Open(path.to_string(), e))
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_round_trip() {
        let fen = "8/8/8/8/8/8/8/K6k w - - 0 1";
        for o in [Outcome::WhiteWins, Outcome::Draw, Outcome::BlackWins] {
            let l = format_line(fen, -37, o);
            assert_eq!(parse_line(l.trim_end()).unwrap(), DataLine { fen: fen.into(), score: -37, result: o });
        }
        assert!(parse_line("x | 1").is_err());
        assert!(parse_line("x | 1.5 | 0.5").is_err());
        assert!(parse_line("x | 1 | 1").is_err());
    }

    #[test]
    fn game_seeds_differ() {
        let mut seen = std::collections::HashSet::new();
        for s in 0..20 {
            for i in 0..200 {
                assert!(seen.insert(game_seed(s, i)), "seed {s} game {i} collides");
            }
        }
    }
}
