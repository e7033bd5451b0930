//! A whole run: the configuration, the worker threads (each with its own [`Player`]), the
//! output file written one game at a time, and progress reports.

use super::player::{Player, Rules};
use crate::data::text::Outcome;
use crate::data::Format;
use crate::error::HashAllocError;
use crate::eval::nnue::Network;
use std::fmt;
use std::fs::{File, OpenOptions};
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
/// With `--soft-nodes S` and no `--nodes`, the hard cap per move is `S` times this.
pub const HARD_NODE_FACTOR: u64 = 4;
/// Default hash table size per thread, in MiB. A 5,000-node search needs no more, and a table
/// this small stays in the core's cache: 1 MiB wrote 10 % more positions a second than 8 MiB
/// and played even with it at 5,000 nodes a move (docs/experiments.md, Speed).
pub const DEFAULT_HASH_MB: usize = 1;

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
    /// How often the runner reports its progress (see [`run`]).
    pub report_every: Duration,
    /// The network the players evaluate with (`--eval`, `--evalfile`), or `None` for the
    /// classical evaluation.
    pub network: Option<Arc<Network>>,
    /// Win adjudication and the position filter (`--win-score`, `--win-plies`, `--filter`).
    pub rules: Rules,
}

impl Config {
    /// The defaults for writing `games` games to `out`.
    pub fn new(out: impl Into<String>, games: u64) -> Config {
        Config {
            out: out.into(),
            games,
            threads: 1,
            nodes: DEFAULT_NODES,
            soft_nodes: None,
            seed: 1,
            book: Vec::new(),
            random_plies: DEFAULT_RANDOM_PLIES,
            hash_mb: DEFAULT_HASH_MB,
            existing: Existing::Refuse,
            format: Format::Text,
            report_every: Duration::from_secs(30),
            network: None,
            rules: Rules::default(),
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
        let player = Player::new(cfg.hash_mb, cfg.nodes).map_err(DatagenError::Hash)?;
        players.push(player.with_soft_nodes(cfg.soft_nodes).with_rules(cfg.rules).with_network(cfg.network.clone()));
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
        let bytes = match cfg.format {
            Format::Text => game.lines().into_bytes(),
            Format::Bin => game.records(),
        };
        let mut out = shared.out.lock().unwrap_or_else(|p| p.into_inner());
        // One write per game: an interruption never leaves half a game in the file.
        if let Err(e) = out.file.write_all(&bytes).and_then(|_| out.file.flush()) {
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
