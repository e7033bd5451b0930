//! `horizon datagen --out FILE --games N [--threads T] [--nodes N] [--soft-nodes S] [--seed S]
//! [--book FILE] [--random-plies K] [--hash MB] [--format text|bin] [--eval classical|nnue]
//! [--evalfile FILE] [--win-score CP] [--win-plies N] [--filter qsearch|bestmove]
//! [--append | --force]`: self-play positions for tuning and training (the library is
//! `crate::data::datagen`; the data format is `crate::data::text`). Progress and the final
//! summary go to stderr.

use super::args::{ArgError, Args, HASH_MB, THREADS};
use super::evaluation;
use super::subcommand::{Exit, Failure, Outcome, Subcommand};
use crate::data::book::read_book;
use crate::data::datagen::{
    Config, DatagenError, Existing, Filter, Status, DEFAULT_BOOK_RANDOM_PLIES, DEFAULT_RANDOM_PLIES, HARD_NODE_FACTOR,
};
use crate::data::Format;
use crate::search::params::MATE_BOUND;
use std::io::IsTerminal;
use std::time::Duration;

pub const COMMAND: Subcommand = Subcommand {
    name: "datagen",
    help: "  datagen --out FILE --games N     self-play positions for tuning [--threads T] [--nodes N] [--seed S]\n                                   [--book FILE] [--random-plies K] [--hash MB] [--format text|bin]\n                                   [--soft-nodes S] [--eval classical|nnue] [--evalfile FILE] [--append | --force]\n                                   [--win-score CP] [--win-plies N] [--filter qsearch|bestmove]",
    run,
    claims: None,
};

/// Progress is redrawn this often on a terminal ...
const PROGRESS_TTY: Duration = Duration::from_millis(500);
/// ... and printed as a new line this often into a log file.
const PROGRESS_LOG: Duration = Duration::from_secs(30);
/// The most games a run plays, and the most nodes a move searches.
const MAX_COUNT: u64 = 1 << 40;
/// The largest soft node limit (its default hard cap, 4 times it, stays within [`MAX_COUNT`]).
const MAX_SOFT_NODES: u64 = MAX_COUNT / HARD_NODE_FACTOR;
/// The most random plies after the opening position.
const MAX_RANDOM_PLIES: usize = 200;
/// `--win-score`: from a pawn up to the largest score short of a mate.
const WIN_SCORES: std::ops::RangeInclusive<i32> = 100..=MATE_BOUND - 1;
/// `--win-plies`: at most this many plies in a row.
const MAX_WIN_PLIES: usize = 100;

/// Reads the arguments into a run's configuration (reading the book, if any).
fn config(argv: &[String]) -> Result<Config, Failure> {
    let a = Args::parse(
        argv,
        &[
            "--out",
            "--games",
            "--threads",
            "--nodes",
            "--soft-nodes",
            "--seed",
            "--book",
            "--random-plies",
            "--hash",
            "--format",
            "--win-score",
            "--win-plies",
            "--filter",
            evaluation::FLAGS[0],
            evaluation::FLAGS[1],
        ],
        &["--append", "--force"],
    )?;
    if let Some(p) = a.positional(0, usize::MAX, "")?.first() {
        return Err(ArgError::Unexpected(p.to_string()).into());
    }
    let out = a.value("--out").filter(|o| !o.is_empty()).ok_or_else(|| ArgError::Required("--out FILE".into()))?;
    let games = a.number("--games", 1..=MAX_COUNT)?.ok_or_else(|| ArgError::Required("--games N".into()))?;
    let mut cfg = Config::new(out, games);
    cfg.threads = a.number("--threads", THREADS)?.unwrap_or(cfg.threads);
    // `--nodes` alone is a hard limit; with `--soft-nodes` it is the hard cap.
    cfg.soft_nodes = a.number("--soft-nodes", 1..=MAX_SOFT_NODES)?;
    cfg.nodes = match (a.number("--nodes", 1..=MAX_COUNT)?, cfg.soft_nodes) {
        (Some(h), Some(s)) if h < s => {
            return Err(Failure::Input(format!("--nodes {h} (the hard cap) is below --soft-nodes {s}")))
        }
        (Some(h), _) => h,
        (None, Some(s)) => s * HARD_NODE_FACTOR,
        (None, None) => cfg.nodes,
    };
    cfg.format = match a.value("--format") {
        None | Some("text") => Format::Text,
        Some("bin") => Format::Bin,
        Some(v) => return Err(Failure::Input(format!("--format must be 'text' or 'bin', got '{v}'"))),
    };
    cfg.network = evaluation::choose(&a)?;
    cfg.rules.win_score = a.number("--win-score", WIN_SCORES)?.unwrap_or(cfg.rules.win_score);
    cfg.rules.win_plies = a.number("--win-plies", 1..=MAX_WIN_PLIES)?.unwrap_or(cfg.rules.win_plies);
    if let Some(v) = a.value("--filter") {
        cfg.rules.filter = Filter::from_name(v)
            .ok_or_else(|| Failure::Input(format!("--filter must be 'qsearch' or 'bestmove', got '{v}'")))?;
    }
    cfg.seed = a.number("--seed", 0..=u64::MAX)?.unwrap_or(cfg.seed);
    cfg.hash_mb = a.number("--hash", HASH_MB)?.unwrap_or(cfg.hash_mb);
    let random_plies = a.number("--random-plies", 0..=MAX_RANDOM_PLIES)?;
    cfg.existing = match (a.has("--append"), a.has("--force")) {
        (true, true) => return Err(ArgError::Conflict("--append".into(), "--force".into()).into()),
        (true, false) => Existing::Append,
        (false, true) => Existing::Overwrite,
        (false, false) => Existing::Refuse,
    };
    if let Some(p) = a.value("--book") {
        cfg.book = read_book(p).map_err(Failure::input)?;
    }
    let default_plies = if cfg.book.is_empty() { DEFAULT_RANDOM_PLIES } else { DEFAULT_BOOK_RANDOM_PLIES };
    cfg.random_plies = random_plies.unwrap_or(default_plies);
    Ok(cfg)
}

/// `games 120/1000  positions 9731  1620 pos/s  0.21 games/s  ETA 0:09:02`
fn progress_line(s: &Status) -> String {
    let secs = s.elapsed.as_secs_f64().max(1e-9);
    let eta = if s.games == 0 {
        "?".to_string()
    } else {
        let left = (s.total - s.games) as f64 * secs / s.games as f64;
        let t = left.round() as u64;
        format!("{}:{:02}:{:02}", t / 3600, t / 60 % 60, t % 60)
    };
    format!(
        "games {}/{}  positions {}  {:.0} pos/s  {:.2} games/s  ETA {eta}",
        s.games,
        s.total,
        s.positions,
        s.positions as f64 / secs,
        s.games as f64 / secs
    )
}

fn run(argv: &[String]) -> Outcome {
    let mut cfg = config(argv)?;
    let tty = std::io::stderr().is_terminal();
    cfg.report_every = if tty { PROGRESS_TTY } else { PROGRESS_LOG };
    let report = |s: &Status| {
        if tty {
            eprint!("\r{}   ", progress_line(s));
        } else {
            eprintln!("{}", progress_line(s));
        }
    };
    let s = crate::data::datagen::run(&cfg, &report).map_err(|e| match e {
        DatagenError::Write(..) => Failure::failed(e),
        _ => Failure::input(e),
    })?;
    if tty {
        eprint!("\r");
    }
    let secs = s.elapsed.as_secs_f64().max(1e-9);
    eprintln!("{}", progress_line(&s));
    eprintln!(
        "done: {} games, {} positions in {:.1} s ({:.2} games/s, {:.0} positions/s, {:.1} positions/game, {:.0} plies/game); white wins {}, draws {}, black wins {}",
        s.games,
        s.positions,
        secs,
        s.games as f64 / secs,
        s.positions as f64 / secs,
        s.positions as f64 / s.games.max(1) as f64,
        s.plies as f64 / s.games.max(1) as f64,
        s.results[0],
        s.results[1],
        s.results[2]
    );
    Ok(Exit::Ok)
}
