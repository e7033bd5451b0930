//! `horizon pgn-convert GAMES.pgn… --out FILE [--min-ply K] [--append | --force]`:
//! training positions from fastchess PGNs (OpenBench DATAGEN output), in the datagen text
//! format. What is kept and what is skipped: [`crate::pgn::convert`].
//!
//! Every input file is opened before anything is written, so a missing file is an error
//! (exit code 2) that leaves no output behind. A game that cannot be read is skipped and
//! counted, and the first few are named on stderr (`skipped game N in FILE: reason`);
//! the summary goes to stdout.

use crate::cli::{emit, parse_num, split_args, EXIT_USAGE};
use crate::pgn::convert::{convert_game, PositionCounts, SkipKind};
use crate::pgn::GameReader;
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{BufReader, BufWriter, Write};

/// How many skipped games are named on stderr (the rest are only counted).
const SHOWN_SKIPS: u64 = 10;
/// The largest `--min-ply` accepted.
const MAX_MIN_PLY: usize = 10_000;

const USAGE: &str = "usage: horizon pgn-convert GAMES.pgn... --out FILE [--min-ply K] [--append | --force]";

/// Everything a run needs.
struct Config {
    files: Vec<String>,
    out: String,
    min_ply: usize,
    append: bool,
    force: bool,
}

fn parse_args(args: &[String]) -> Result<Config, String> {
    let (pos, flags) =
        split_args(args, &["--out", "--min-ply"], &["--append", "--force"]).map_err(|e| e.to_string())?;
    let mut cfg = Config {
        files: pos.iter().map(|s| s.to_string()).collect(),
        out: String::new(),
        min_ply: 0,
        append: false,
        force: false,
    };
    for &(f, v) in &flags {
        match f {
            "--out" => cfg.out = v.to_string(),
            "--min-ply" => {
                cfg.min_ply = parse_num(f, v).map_err(|e| e.to_string())?;
                if cfg.min_ply > MAX_MIN_PLY {
                    return Err(format!("--min-ply must be at most {MAX_MIN_PLY}, got {v}"));
                }
            }
            "--append" => cfg.append = true,
            "--force" => cfg.force = true,
            _ => {}
        }
    }
    if cfg.files.is_empty() {
        return Err(format!("no PGN file given ({USAGE})"));
    }
    if cfg.out.is_empty() {
        return Err(format!("--out FILE is required ({USAGE})"));
    }
    if cfg.append && cfg.force {
        return Err("--append and --force exclude each other".to_string());
    }
    Ok(cfg)
}

/// Opens the output as the flags say: a new file unless `--append` or `--force`.
fn open_output(cfg: &Config) -> Result<File, String> {
    let mut o = OpenOptions::new();
    if cfg.append {
        o.append(true).create(true);
    } else if cfg.force {
        o.write(true).create(true).truncate(true);
    } else {
        if std::path::Path::new(&cfg.out).exists() {
            return Err(format!("'{}' exists; add --append to add to it or --force to replace it", cfg.out));
        }
        o.write(true).create_new(true);
    }
    o.open(&cfg.out).map_err(|e| format!("cannot write '{}': {e}", cfg.out))
}

/// Totals over all files.
#[derive(Default)]
struct Totals {
    games: u64,
    used: u64,
    skipped: BTreeMap<SkipKind, u64>,
    positions: PositionCounts,
}

fn run(cfg: &Config) -> Result<Totals, String> {
    let mut inputs = Vec::with_capacity(cfg.files.len());
    for path in &cfg.files {
        let f = File::open(path).map_err(|e| format!("cannot read '{path}': {e}"))?;
        inputs.push((path, f));
    }
    let mut out = BufWriter::new(open_output(cfg)?);
    let write_err = |e: std::io::Error| format!("cannot write '{}': {e}", cfg.out);
    let mut t = Totals::default();
    let mut shown = 0;
    for (path, file) in inputs {
        for (i, game) in GameReader::new(BufReader::new(file)).enumerate() {
            let game = game.map_err(|e| format!("cannot read '{path}': {e}"))?;
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

/// `horizon pgn-convert …`: returns the exit code.
pub fn command(args: &[String]) -> i32 {
    let result = parse_args(args).and_then(|cfg| run(&cfg).map(|t| (cfg, t)));
    match result {
        Ok((cfg, t)) => {
            emit(&summary(&cfg, &t));
            0
        }
        Err(e) => {
            eprintln!("error: {e}");
            EXIT_USAGE
        }
    }
}
