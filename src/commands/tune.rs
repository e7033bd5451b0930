//! `horizon tune <data> [options]`: fits the evaluation weights to a data file and writes them
//! as Rust source (the library is `crate::tune`). Loss lines go to stdout, progress to stderr.
//! Exit code 2 for bad arguments or unusable data, 1 if the weights file cannot be written.

use super::args::{Args, THREADS};
use super::output::say;
use super::subcommand::{Exit, Failure, Outcome, Subcommand};
use crate::tune::{Config, TuneError};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

pub const COMMAND: Subcommand = Subcommand {
    name: "tune",
    help: "  tune <data>                      fit the evaluation weights to self-play data, write them as\n                                   Rust source [--epochs N] [--lambda L] [--lr X] [--out FILE.rs]\n                                   [--limit N] [--batch N] [--threads N] [--seed S] [--holdout F]",
    run,
    claims: None,
};

const USAGE: &str = "usage: horizon tune <data> [--epochs N] [--lambda L] [--lr X] [--out FILE.rs] \
[--limit N] [--batch N] [--threads N] [--seed S] [--holdout F]";
/// Off a terminal, the progress line is written at most this often.
const LOG_INTERVAL: Duration = Duration::from_secs(10);

fn config(argv: &[String]) -> Result<Config, Failure> {
    const VALUED: [&str; 9] =
        ["--epochs", "--lambda", "--lr", "--out", "--limit", "--batch", "--threads", "--seed", "--holdout"];
    let a = Args::parse(argv, &VALUED, &[])?;
    let mut cfg = Config::new(a.positional(1, 1, USAGE)?[0]);
    cfg.command = format!("horizon tune {}", argv.join(" "));
    cfg.epochs = a.number("--epochs", 0..=1_000_000)?.unwrap_or(cfg.epochs);
    cfg.limit = a.number("--limit", 1..=usize::MAX)?.unwrap_or(cfg.limit);
    cfg.batch = a.number("--batch", 1..=1 << 30)?.unwrap_or(cfg.batch);
    cfg.threads = a.number("--threads", THREADS)?.unwrap_or(cfg.threads);
    cfg.seed = a.number("--seed", 0..=u64::MAX)?.unwrap_or(cfg.seed);
    cfg.lambda = a.real("--lambda", 0.0..=1.0)?.unwrap_or(cfg.lambda);
    cfg.holdout = a.real("--holdout", 0.0..=0.5)?.unwrap_or(cfg.holdout);
    cfg.lr = a.real("--lr", 1e-6..=1000.0)?.unwrap_or(cfg.lr);
    if let Some(out) = a.value("--out") {
        cfg.out = out.into();
    }
    Ok(cfg)
}

fn run(argv: &[String]) -> Outcome {
    let cfg = config(argv)?;
    let start = Instant::now();
    // On a terminal the progress line is redrawn in place; into a file or pipe it is written
    // as a plain line every ten seconds.
    let tty = std::io::stderr().is_terminal();
    let clear = if tty { "\r\x1b[K" } else { "" };
    // A closed stdout (`| head`) must not stop the run: the weights file is what matters.
    let mut line = |s: &str| {
        eprint!("{clear}");
        say!("{s}");
    };
    let mut last = Instant::now();
    let mut progress = |s: &str| {
        if tty {
            eprint!("{clear}{s}");
        } else if last.elapsed() >= LOG_INTERVAL {
            last = Instant::now();
            eprintln!("{s}");
        }
    };
    let mut out = crate::tune::Output { line: &mut line, progress: &mut progress };
    let result = crate::tune::run(&cfg, &mut out);
    eprint!("{clear}");
    let s = result.map_err(|e| match e {
        TuneError::Write(..) => Failure::failed(e),
        _ => Failure::input(e),
    })?;
    let (w, f) = crate::tune::weight_count();
    say!(
        "wrote {} ({w} weights, {f} scale factors) in {:.1} s: loss {:.7} -> {:.7}",
        cfg.out.display(),
        start.elapsed().as_secs_f64(),
        s.train_loss.first().copied().unwrap_or(0.0),
        s.train_loss.last().copied().unwrap_or(0.0)
    );
    Ok(Exit::Ok)
}
