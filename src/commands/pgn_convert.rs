//! `horizon pgn-convert GAMES.pgn… --out FILE [--min-ply K] [--append | --force]`:
//! training positions from fastchess PGNs (OpenBench DATAGEN output), in the datagen text
//! format. What is kept and what is skipped: [`crate::data::pgn::convert`].
//!
//! Every input file is opened before anything is written, so a missing file is an error
//! (exit code 2) that leaves no output behind. A game that cannot be read is skipped and
//! counted, and the first few are named on stderr (`skipped game N in FILE: reason`);
//! the summary goes to stdout.

use super::args::{ArgError, Args};
use super::output::emit;
use super::subcommand::{Exit, Failure, Outcome, Subcommand};
use crate::data::pgn::convert::{convert_game, PositionCounts, SkipKind};
use crate::data::pgn::GameReader;
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{BufReader, BufWriter, Write};

/// How many skipped games are named on stderr (the rest are only counted).
const SHOWN_SKIPS: u64 = 10;
/// The largest `--min-ply` accepted.
const MAX_MIN_PLY: usize = 10_000;

pub const COMMAND: Subcommand = Subcommand {
    name: "pgn-convert",
    help: "  pgn-convert <games.pgn>... --out FILE\n                                   training positions from fastchess PGNs [--min-ply K] [--append | --force]",
    run: command,
    claims: None,
};

const USAGE: &str = "usage: horizon pgn-convert GAMES.pgn... --out FILE [--min-ply K] [--append | --force]";

/// Everything a run needs.
struct Config {
    files: Vec<String>,
    out: String,
    min_ply: usize,
    append: bool,
    force: bool,
}

fn parse_args(args: &[String]) -> Result<Config, ArgError> {
    let a = Args::parse(args, &["--out", "--min-ply"], &["--append", "--force"])?;
    let files = a.positional(1, usize::MAX, USAGE)?.iter().map(|s| s.to_string()).collect();
    let out = a.value("--out").filter(|o| !o.is_empty()).ok_or_else(|| ArgError::Required("--out FILE".into()))?;
    let cfg = Config {
        files,
        out: out.to_string(),
        min_ply: a.number("--min-ply", 0..=MAX_MIN_PLY)?.unwrap_or(0),
        append: a.has("--append"),
        force: a.has("--force"),
    };
    if cfg.append && cfg.force {
        return Err(ArgError::Conflict("--append".into(), "--force".into()));
    }
    Ok(cfg)
}

/// Opens the output as the flags say: a new file unless `--append` or `--force`.
fn open_output(cfg: &Config) -> Result<File, Failure> {
    let mut o = OpenOptions::new();
    if cfg.append {
        o.append(true).create(true);
    } else if cfg.force {
        o.write(true).create(true).truncate(true);
    } else {
        if std::path::Path::new(&cfg.out).exists() {
            return Err(Failure::Input(format!(
                "'{}' exists; add --append to add to it or --force to replace it",
                cfg.out
            )));
        }
        o.write(true).create_new(true);
    }
    o.open(&cfg.out).map_err(|e| Failure::Input(format!("cannot write '{}': {e}", cfg.out)))
}

/// Totals over all files.
#[derive(Default)]
struct Totals {
    games: u64,
    used: u64,
    skipped: BTreeMap<SkipKind, u64>,
    positions: PositionCounts,
}

/// Converts every game; a file that cannot be read is bad input (exit 2), a write that
/// fails part way is a failure of the run (exit 1).
fn run(cfg: &Config) -> Result<Totals, Failure> {
    let mut inputs = Vec::with_capacity(cfg.files.len());
    for path in &cfg.files {
        let f = File::open(path).map_err(|e| Failure::Input(format!("cannot read '{path}': {e}")))?;
        inputs.push((path, f));
    }
    let mut out = BufWriter::new(open_output(cfg)?);
    let write_err = |e: std::io::Error| Failure::Failed(format!("cannot write '{}': {e}", cfg.out));
    let mut t = Totals::default();
    let mut shown = 0;
    for (path, file) in inputs {
        for (i, game) in GameReader::new(BufReader::new(file)).enumerate() {
            let game = game.map_err(|e| Failure::Input(format!("cannot read '{path}': {e}")))?;
            t.games += 1;
            match convert_game(&game, cfg.min_ply) {
                Ok(c) => {
                    out.write_all(c.lines.as_bytes()).map_err(write_err)?;
                    t.used += 1;
                    t.positions.add(&c.counts);
                }
                Err(skip) => {
                    *t.skipped.entry(skip.kind).or_default() += 1;
                    if shown < SHOWN_SKIPS {
                        eprintln!("skipped game {} in {path}: {}", i + 1, skip.reason);
                        shown += 1;
                    }
                }
            }
        }
    }
    out.flush().map_err(write_err)?;
    Ok(t)
}

/// The summary printed at the end.
fn summary(cfg: &Config, t: &Totals) -> String {
    let skipped: u64 = t.skipped.values().sum();
    let reasons: Vec<String> =
        SkipKind::ALL.iter().filter_map(|k| t.skipped.get(k).map(|n| format!("{} {n}", k.name()))).collect();
    let reasons = if reasons.is_empty() { String::new() } else { format!(" ({})", reasons.join(", ")) };
    let p = &t.positions;
    let files = cfg.files.len();
    format!(
        "games: {} read from {files} file{}, {} used, {skipped} skipped{reasons}\n\
         positions: {} written to {} of {} moves; left out: {} book, {} without score, {} mate score, \
         {} in check, {} capture or promotion, {} before ply {}\n",
        t.games,
        if files == 1 { "" } else { "s" },
        t.used,
        p.written,
        cfg.out,
        p.moves,
        p.book,
        p.no_score,
        p.mate,
        p.in_check,
        p.tactical,
        p.early,
        cfg.min_ply
    )
}

/// `horizon pgn-convert …`.
fn command(args: &[String]) -> Outcome {
    let cfg = parse_args(args)?;
    let totals = run(&cfg)?;
    emit(&summary(&cfg, &totals));
    Ok(Exit::Ok)
}
