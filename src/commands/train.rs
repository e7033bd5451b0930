//! `horizon train DATA... --out NET [options]`.

use crate::cli::{split_args, EXIT_USAGE};
use crate::train::{self, Config, Output};
use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

const USAGE: &str = "usage: horizon train DATA.bin... --out NET.nnue [--hidden N] [--epochs E] [--lambda L] \
[--lr X] [--batch B] [--threads T] [--resume CKPT] [--checkpoint CKPT] [--seed S] [--val F] [--wdl-scale K]";

/// The progress line is redrawn this often on a terminal ...
const PROGRESS_TTY: Duration = Duration::from_millis(500);
/// ... and printed as a line of its own this often elsewhere.
const PROGRESS_LOG: Duration = Duration::from_secs(10);

fn num<T: std::str::FromStr + PartialOrd + std::fmt::Display>(flag: &str, v: &str, lo: T, hi: T) -> Result<T, String> {
    match v.parse::<T>() {
        Ok(x) if x >= lo && x <= hi => Ok(x),
        _ => Err(format!("{flag} must be a number from {lo} to {hi}, got '{v}'")),
    }
}

/// Parses the arguments into a training configuration.
pub fn parse_args(args: &[String]) -> Result<Config, String> {
    const VALUE_FLAGS: [&str; 12] = [
        "--out",
        "--hidden",
        "--epochs",
        "--lambda",
        "--lr",
        "--batch",
        "--threads",
        "--resume",
        "--checkpoint",
        "--seed",
        "--val",
        "--wdl-scale",
    ];
    let (pos, flags) = split_args(args, &VALUE_FLAGS, &[]).map_err(|e| format!("{e} ({USAGE})"))?;
    if pos.is_empty() {
        return Err(format!("no data files ({USAGE})"));
    }
    let out = flags
        .iter()
        .find(|(f, _)| *f == "--out")
        .map(|(_, v)| v.to_string())
        .filter(|o| !o.is_empty())
        .ok_or_else(|| format!("--out NET is required ({USAGE})"))?;
    let mut cfg = Config::new(pos.iter().map(|s| s.to_string()).collect(), out);
    for &(f, v) in &flags {
        match f {
            "--hidden" => {
                let h: usize = num(f, v, 16, 4096)?;
                if !h.is_multiple_of(16) {
                    return Err(format!("--hidden must be a multiple of 16, got {h}"));
                }
                cfg.hidden = Some(h);
            }
            "--epochs" => cfg.epochs = num(f, v, 1, 100_000)?,
            "--lambda" => cfg.lambda = num(f, v, 0.0, 1.0)?,
            "--lr" => cfg.lr = num(f, v, 1e-7, 10.0)?,
            "--batch" => cfg.batch = num(f, v, 1, 1 << 24)?,
            "--threads" => cfg.threads = num(f, v, 1, 256)?,
            "--resume" => cfg.resume = Some(v.to_string()),
            "--checkpoint" => cfg.checkpoint = v.to_string(),
            "--seed" => cfg.seed = Some(num(f, v, 0, u64::MAX)?),
            "--val" => cfg.val = Some(num(f, v, 0.0, 0.5)?),
            "--wdl-scale" => cfg.wdl_scale = num(f, v, 1.0, 10_000.0)?,
            _ => {}
        }
    }
    Ok(cfg)
}

/// Runs `horizon train`; returns the exit code.
pub fn command(args: &[String]) -> i32 {
    let cfg = match parse_args(args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_USAGE;
        }
    };
    let tty = std::io::stderr().is_terminal();
    let clear = if tty { "\r\x1b[K" } else { "" };
    let mut line = |s: &str| {
        eprint!("{clear}");
        // A closed stdout must not stop the run: the files are what matter.
        let _ = writeln!(std::io::stdout().lock(), "{s}");
    };
    let mut last = Instant::now();
    let every = if tty { PROGRESS_TTY } else { PROGRESS_LOG };
    let mut progress = |s: &str| {
        if last.elapsed() >= every {
            last = Instant::now();
            if tty {
                eprint!("{clear}{s}");
            } else {
                eprintln!("{s}");
            }
        }
    };
    let start = Instant::now();
    match train::run(&cfg, &mut Output { line: &mut line, progress: &mut progress }) {
        Ok(r) => {
            eprint!("{clear}");
            let last = r.last();
            println!(
                "wrote '{}' and checkpoint '{}' in {}{}",
                cfg.out,
                cfg.checkpoint,
                train::hms(start.elapsed().as_secs_f64()),
                last.and_then(|l| l.val_loss).map_or(String::new(), |v| format!(": validation loss {v:.6}"))
            );
            0
        }
        Err(e) => {
            eprintln!("{clear}error: {e}");
            EXIT_USAGE
        }
    }
}
