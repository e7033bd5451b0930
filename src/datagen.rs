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
//! With `--format bin` each position is written instead as a 32-byte record (see
//! [`crate::record`]; castling rights are not stored), for the network trainer.
//!
//! # How a game is played
//!
//! 1. **Opening.** The game starts from the start position, or from a line of the `--book`
//!    EPD file chosen at random, followed by `--random-plies` random legal moves. An opening
//!    after which the side to move already scores beyond [`OPENING_MAX_SCORE`] in the
//!    first search is thrown away and another one drawn, so games start roughly balanced.
//! 2. **Moves.** Each move is a search limited to `--nodes` nodes (a hard limit: the
//!    search stops mid-iteration), one search thread, with a transposition table and
//!    histories cleared at the start of every game. With `--soft-nodes S` the search also
//!    starts no new iteration once `S` nodes are reached, and `--nodes` (default
//!    `S` × [`HARD_NODE_FACTOR`]) is the hard cap.
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
use crate::record::{Format, Record, RESULT_BLACK_WINS, RESULT_DRAW, RESULT_WHITE_WINS};
use crate::cli::{parse_num, split_args, EXIT_USAGE};
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
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Default node budget per move.
pub const DEFAULT_NODES: u64 = 5000;
/// Default number of random plies after the start position ...
pub const DEFAULT_RANDOM_PLIES: usize = 8;
/// ... and after a book position (the book lines are already varied).
pub const DEFAULT_BOOK_RANDOM_PLIES: usize = 2;
/// With `--soft-nodes S` and no `--nodes`, the hard cap per move is `S` times this.
pub const HARD_NODE_FACTOR: u64 = 4;
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

/// Progress is redrawn this often on a terminal ...
const PROGRESS_TTY: Duration = Duration::from_millis(500);
/// ... and printed as a new line this often into a log file.
const PROGRESS_LOG: Duration = Duration::from_secs(30);

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
    /// Hard node cap per move (the search stops mid-iteration there).
    pub nodes: u64,
    /// Soft node limit per move (`--soft-nodes`): no new iteration once reached.
    pub soft_nodes: Option<u64>,
    pub seed: u64,
    /// Opening positions (FENs) from `--book`; empty: the start position.
    pub book: Vec<String>,
    pub random_plies: usize,
    pub hash_mb: usize,
    pub existing: Existing,
    /// Text lines (the default) or 32-byte binary records (`--format bin`).
    pub format: Format,
}

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

    /// The result byte of a binary training record.
    pub fn result_byte(self) -> u8 {
        match self {
            Outcome::WhiteWins => RESULT_WHITE_WINS,
            Outcome::Draw => RESULT_DRAW,
            Outcome::BlackWins => RESULT_BLACK_WINS,
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

    /// The game's binary training records, ready to write.
    pub fn records(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.positions.len() * crate::record::RECORD_SIZE);
        for (fen, score) in &self.positions {
            let board = Board::from_fen(fen).expect("datagen writes only positions it played");
            out.extend_from_slice(&Record::from_board(&board, *score, self.outcome.result_byte()).to_bytes());
        }
        out
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
    soft_nodes: Option<u64>,
}

impl Player {
    /// A player with a hash table of `hash_mb` MiB searching `nodes` nodes a move.
    pub fn new(hash_mb: usize, nodes: u64) -> Result<Player, String> {
        let tt = Arc::new(TranspositionTable::try_new(hash_mb).map_err(|e| e.to_string())?);
        let searcher = Searcher::new(tt.clone(), Arc::new(Control::default()));
        Ok(Player { searcher, tt, nodes: nodes.max(1), soft_nodes: None })
    }

    /// Also stops each search after the iteration that reaches `soft` nodes.
    pub fn with_soft_nodes(mut self, soft: Option<u64>) -> Player {
        self.soft_nodes = soft;
        self
    }

    fn search(&mut self, board: &Board) -> SearchResult {
        let limits = Limits {
            nodes: Some(self.nodes),
            soft_nodes: self.soft_nodes,
            multipv: 1,
            clock: Clock::default(),
            ..Limits::default()
        };
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

/// Counters shared by the worker threads, and the output file.
struct Shared {
    out: Mutex<Output>,
    next_game: AtomicU64,
    failed: AtomicBool,
}

struct Output {
    file: File,
    games: u64,
    positions: u64,
    plies: u64,
    results: [u64; 3],
    last_progress: Instant,
    error: Option<String>,
}

/// Runs the whole generation; returns a one-line error on failure.
pub fn run(cfg: &Config) -> Result<(), String> {
    let file = open_output(&cfg.out, cfg.existing)?;
    // Allocate every thread's table before starting, so a too-large --hash fails cleanly.
    let mut players = Vec::with_capacity(cfg.threads);
    for _ in 0..cfg.threads {
        players.push(Player::new(cfg.hash_mb, cfg.nodes)?.with_soft_nodes(cfg.soft_nodes));
    }
    let start = Instant::now();
    let tty = std::io::stderr().is_terminal();
    let shared = Shared {
        out: Mutex::new(Output {
            file,
            games: 0,
            positions: 0,
            plies: 0,
            results: [0; 3],
            last_progress: start,
            error: None,
        }),
        next_game: AtomicU64::new(0),
        failed: AtomicBool::new(false),
    };
    std::thread::scope(|s| {
        for player in players.iter_mut() {
            let shared = &shared;
            s.spawn(move || worker(player, cfg, shared, start, tty));
        }
    });
    let out = shared.out.into_inner().unwrap_or_else(|p| p.into_inner());
    if let Some(e) = out.error {
        return Err(e);
    }
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    eprintln!("{}", progress_line(&out, cfg.games, start));
    eprintln!(
        "done: {} games, {} positions in {:.1} s ({:.2} games/s, {:.0} positions/s, {:.1} positions/game, {:.0} plies/game); white wins {}, draws {}, black wins {}",
        out.games,
        out.positions,
        secs,
        out.games as f64 / secs,
        out.positions as f64 / secs,
        out.positions as f64 / out.games.max(1) as f64,
        out.plies as f64 / out.games.max(1) as f64,
        out.results[0],
        out.results[1],
        out.results[2]
    );
    Ok(())
}

/// One worker thread: takes the next game number, plays it, writes it.
fn worker(player: &mut Player, cfg: &Config, shared: &Shared, start: Instant, tty: bool) {
    loop {
        if shared.failed.load(Ordering::Relaxed) {
            return;
        }
        let index = shared.next_game.fetch_add(1, Ordering::Relaxed);
        if index >= cfg.games {
            return;
        }
        let game = player.play(cfg.seed, index, &cfg.book, cfg.random_plies);
        let bytes = match cfg.format {
            Format::Text => game.lines().into_bytes(),
            Format::Bin => game.records(),
        };
        let mut out = shared.out.lock().unwrap_or_else(|p| p.into_inner());
        // One write per game: an interruption never leaves half a game in the file.
        if let Err(e) = out.file.write_all(&bytes).and_then(|_| out.file.flush()) {
            out.error = Some(format!("cannot write '{}': {e}", cfg.out));
            shared.failed.store(true, Ordering::Relaxed);
            return;
        }
        out.games += 1;
        out.positions += game.positions.len() as u64;
        out.plies += game.plies as u64;
        out.results[match game.outcome {
            Outcome::WhiteWins => 0,
            Outcome::Draw => 1,
            Outcome::BlackWins => 2,
        }] += 1;
        let every = if tty { PROGRESS_TTY } else { PROGRESS_LOG };
        if out.last_progress.elapsed() >= every {
            out.last_progress = Instant::now();
            let line = progress_line(&out, cfg.games, start);
            if tty {
                eprint!("\r{line}   ");
            } else {
                eprintln!("{line}");
            }
        }
    }
}

/// `games 120/1000  positions 9731  1620 pos/s  ETA 0:09:02`
fn progress_line(out: &Output, total: u64, start: Instant) -> String {
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    let eta = if out.games == 0 {
        "?".to_string()
    } else {
        let left = (total - out.games) as f64 * secs / out.games as f64;
        let s = left.round() as u64;
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    };
    format!(
        "games {}/{}  positions {}  {:.0} pos/s  {:.2} games/s  ETA {eta}",
        out.games,
        total,
        out.positions,
        out.positions as f64 / secs,
        out.games as f64 / secs
    )
}

/// Opens the output file as `existing` says.
fn open_output(path: &str, existing: Existing) -> Result<File, String> {
    let exists = std::path::Path::new(path).exists();
    let mut o = OpenOptions::new();
    match existing {
        Existing::Refuse if exists => {
            return Err(format!("'{path}' exists; add --append to add games to it or --force to replace it"))
        }
        Existing::Refuse => o.write(true).create_new(true),
        Existing::Append => o.append(true).create(true),
        Existing::Overwrite => o.write(true).create(true).truncate(true),
    };
    o.open(path).map_err(|e| format!("cannot write '{path}': {e}"))
}

/// Reads a `--book` EPD/FEN file: one position per line (the first four fields are the
/// position; operations and move counters after them are ignored); blank lines and lines
/// starting with `#` are skipped. Any unreadable position is an error naming its line.
pub fn read_book(path: &str) -> Result<Vec<String>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read book '{path}': {e}"))?;
    let mut fens = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().take(4).collect();
        let fen = fields.join(" ");
        let board = Board::from_fen(&fen).map_err(|e| format!("book '{path}' line {}: {e}", i + 1))?;
        if board.legal_moves().is_empty() {
            return Err(format!("book '{path}' line {}: the game is already over", i + 1));
        }
        fens.push(fen);
    }
    if fens.is_empty() {
        return Err(format!("book '{path}' has no positions"));
    }
    Ok(fens)
}

const USAGE: &str = "usage: horizon datagen --out FILE --games N [--threads T] [--nodes N] [--soft-nodes S] [--seed S] \
[--book FILE] [--random-plies K] [--hash MB] [--format text|bin] [--append | --force]";

/// Parses the `datagen` arguments.
pub fn parse_args(args: &[String]) -> Result<Config, String> {
    let (pos, flags) = split_args(
        args,
        &["--out", "--games", "--threads", "--nodes", "--seed", "--book", "--random-plies", "--hash", "--format", "--soft-nodes"],
        &["--append", "--force"],
    )
    .map_err(|e| e.to_string())?;
    if let Some(p) = pos.first() {
        return Err(format!("unexpected argument '{p}' ({USAGE})"));
    }
    let (mut out, mut games, mut book_path, mut random_plies) = (None, None, None, None);
    let mut cfg = Config {
        out: String::new(),
        games: 0,
        threads: 1,
        nodes: DEFAULT_NODES,
        soft_nodes: None,
        seed: 1,
        book: Vec::new(),
        random_plies: 0,
        hash_mb: DEFAULT_HASH_MB,
        existing: Existing::Refuse,
        format: Format::Text,
    };
    let (mut append, mut force) = (false, false);
    let mut hard = None;
    for &(f, v) in &flags {
        match f {
            "--out" => out = Some(v.to_string()),
            "--games" => games = Some(num_in(f, v, 1, 1 << 40)?),
            "--threads" => cfg.threads = num_in(f, v, 1, 256)?,
            "--nodes" => hard = Some(num_in(f, v, 1, 1 << 40)?),
            "--soft-nodes" => cfg.soft_nodes = Some(num_in(f, v, 1, 1 << 38)?),
            "--seed" => cfg.seed = parse_num(f, v).map_err(|e| e.to_string())?,
            "--book" => book_path = Some(v),
            "--random-plies" => random_plies = Some(num_in(f, v, 0, 200)?),
            "--hash" => cfg.hash_mb = num_in(f, v, 1, 1 << 16)?,
            "--format" => {
                cfg.format = match v {
                    "text" => Format::Text,
                    "bin" => Format::Bin,
                    _ => return Err(format!("--format must be 'text' or 'bin', got '{v}'")),
                }
            }
            "--append" => append = true,
            "--force" => force = true,
            _ => {}
        }
    }
    cfg.out = out.filter(|o| !o.is_empty()).ok_or_else(|| format!("--out FILE is required ({USAGE})"))?;
    cfg.games = games.ok_or_else(|| format!("--games N is required ({USAGE})"))?;
    // `--nodes` alone is a hard limit (as always); with `--soft-nodes` it is the hard cap.
    cfg.nodes = match (hard, cfg.soft_nodes) {
        (Some(h), Some(s)) if h < s => return Err(format!("--nodes {h} (the hard cap) is below --soft-nodes {s}")),
        (Some(h), _) => h,
        (None, Some(s)) => s * HARD_NODE_FACTOR,
        (None, None) => DEFAULT_NODES,
    };
    cfg.existing = match (append, force) {
        (true, true) => return Err("--append and --force exclude each other".into()),
        (true, false) => Existing::Append,
        (false, true) => Existing::Overwrite,
        (false, false) => Existing::Refuse,
    };
    if let Some(p) = book_path {
        cfg.book = read_book(p)?;
    }
    let default_plies = if cfg.book.is_empty() { DEFAULT_RANDOM_PLIES } else { DEFAULT_BOOK_RANDOM_PLIES };
    cfg.random_plies = random_plies.unwrap_or(default_plies);
    Ok(cfg)
}

/// `v` read as a number of `what` within `lo..=hi`, or the one-line message saying why not.
fn num_in<T: std::str::FromStr + PartialOrd + std::fmt::Display>(what: &str, v: &str, lo: T, hi: T) -> Result<T, String> {
    in_range(what, parse_num(what, v).map_err(|e| e.to_string())?, lo, hi)
}

fn in_range<T: PartialOrd + std::fmt::Display>(what: &str, v: T, lo: T, hi: T) -> Result<T, String> {
    if v < lo || v > hi {
        Err(format!("{what} must be from {lo} to {hi}, got {v}"))
    } else {
        Ok(v)
    }
}

/// `horizon datagen ...`: returns the exit code (2 with a one-line message on any error).
pub fn command(args: &[String]) -> i32 {
    let result = parse_args(args).and_then(|cfg| run(&cfg));
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {e}");
            EXIT_USAGE
        }
    }
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
