//! `horizon train DATA.bin... --out NET.nnue [options]`: trains a network (the library is
//! `crate::train`). The epoch lines and the summary go to stdout, the in-epoch progress to
//! stderr. `--holdout FILE` may be given more than once.

use super::args::{ArgError, Args, LAMBDA, THREADS, WDL_SCALE};
use super::output::{emit, say};
use super::subcommand::{Exit, Failure, Outcome, Subcommand};
use crate::eval::nnue::FeatureSet;
use crate::train::network::{HIDDEN_MULTIPLE, MAX_HIDDEN, MAX_OUTPUT_BUCKETS};
use crate::train::{self, Config, Output, WdlScale};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

pub const COMMAND: Subcommand = Subcommand {
    name: "train",
    help: "  train DATA.bin... --out NET      train a network [--hidden N] [--output-buckets B] [--features plain|mirrored|mirrored-kb4] [--epochs E] [--lambda L] [--lr X] [--lr-final F]\n                                   [--weight-decay D] [--bucket-decay D] [--batch B] [--threads T] [--resume CKPT] [--init NET] [--checkpoint CKPT] [--seed S] [--val F] [--wdl-scale K|fit] [--holdout FILE]...",
    run,
    claims: None,
};

const USAGE: &str =
    "usage: horizon train DATA.bin... --out NET.nnue [--hidden N] [--output-buckets B] [--features plain|mirrored|mirrored-kb4] [--epochs E] [--lambda L] \
[--lr X] [--lr-final F] [--weight-decay D] [--bucket-decay D] [--batch B] [--threads T] [--resume CKPT] [--init NET] [--checkpoint CKPT] [--seed S] [--val F] [--wdl-scale K|fit] \
[--holdout FILE]...";

/// The progress line is redrawn this often on a terminal ...
const PROGRESS_TTY: Duration = Duration::from_millis(500);
/// ... and printed as a line of its own this often elsewhere.
const PROGRESS_LOG: Duration = Duration::from_secs(10);
/// Epochs of a run.
const EPOCHS: std::ops::RangeInclusive<u32> = 1..=100_000;
/// Learning rates.
const LR: std::ops::RangeInclusive<f64> = 1e-7..=10.0;
/// `--lr-final`: the end of the cosine, as a fraction of `--lr` (1: no decay).
const LR_FINAL: std::ops::RangeInclusive<f64> = 1e-6..=1.0;
/// Weight decay rates (`--weight-decay`, `--bucket-decay`), per step as a fraction of the
/// learning rate.
const DECAY: std::ops::RangeInclusive<f64> = 0.0..=100.0;
/// Mini-batch sizes.
const BATCH: std::ops::RangeInclusive<usize> = 1..=1 << 24;
/// Validation shares.
const VAL: std::ops::RangeInclusive<f64> = 0.0..=0.5;

/// `--hidden`: a multiple of [`HIDDEN_MULTIPLE`] up to [`MAX_HIDDEN`].
fn hidden(text: &str) -> Result<usize, ArgError> {
    match text.parse::<usize>() {
        Ok(h) if (HIDDEN_MULTIPLE..=MAX_HIDDEN).contains(&h) && h.is_multiple_of(HIDDEN_MULTIPLE) => Ok(h),
        _ => Err(ArgError::Number {
            what: "--hidden".into(),
            range: format!("a multiple of {HIDDEN_MULTIPLE} from {HIDDEN_MULTIPLE} to {MAX_HIDDEN}"),
            value: text.to_string(),
        }),
    }
}

/// `--features`: the name of an input feature set.
fn features(text: &str) -> Result<FeatureSet, Failure> {
    FeatureSet::from_name(text)
        .ok_or_else(|| Failure::Input(format!("--features must be {}, got '{text}'", FeatureSet::names())))
}

/// Reads the arguments into a training configuration.
fn config(argv: &[String]) -> Result<Config, Failure> {
    let a = Args::parse(
        argv,
        &[
            "--out",
            "--hidden",
            "--output-buckets",
            "--features",
            "--epochs",
            "--lambda",
            "--lr",
            "--lr-final",
            "--weight-decay",
            "--bucket-decay",
            "--batch",
            "--threads",
            "--resume",
            "--init",
            "--checkpoint",
            "--seed",
            "--val",
            "--wdl-scale",
            "--holdout",
        ],
        &[],
    )?;
    let data = a.positional(1, usize::MAX, USAGE)?.iter().map(|s| s.to_string()).collect();
    let out = a.value("--out").filter(|o| !o.is_empty()).ok_or_else(|| ArgError::Required("--out NET".into()))?;
    let mut cfg = Config::new(data, out.to_string());
    cfg.hidden = a.value("--hidden").map(hidden).transpose()?;
    cfg.output_buckets = a.number("--output-buckets", 1..=MAX_OUTPUT_BUCKETS)?;
    cfg.features = a.value("--features").map(features).transpose()?;
    cfg.epochs = a.number("--epochs", EPOCHS)?.unwrap_or(cfg.epochs);
    cfg.lambda = a.real("--lambda", LAMBDA)?.map_or(cfg.lambda, |x| x as f32);
    cfg.lr = a.real("--lr", LR)?.map_or(cfg.lr, |x| x as f32);
    cfg.lr_final = a.real("--lr-final", LR_FINAL)?.map_or(cfg.lr_final, |x| x as f32);
    cfg.weight_decay = a.real("--weight-decay", DECAY)?.map_or(cfg.weight_decay, |x| x as f32);
    cfg.bucket_decay = a.real("--bucket-decay", DECAY)?.map(|x| x as f32);
    cfg.batch = a.number("--batch", BATCH)?.unwrap_or(cfg.batch);
    cfg.threads = a.number("--threads", THREADS)?.unwrap_or(cfg.threads);
    cfg.resume = a.value("--resume").map(str::to_string);
    cfg.init = a.value("--init").map(str::to_string);
    if let Some(c) = a.value("--checkpoint") {
        cfg.checkpoint = c.to_string();
    }
    cfg.seed = a.number("--seed", 0..=u64::MAX)?;
    cfg.val = a.real("--val", VAL)?.map(|x| x as f32);
    cfg.wdl_scale = match a.value("--wdl-scale") {
        None => cfg.wdl_scale,
        Some("fit") => WdlScale::Fit,
        Some(k) => WdlScale::Fixed(super::args::real("--wdl-scale", k, WDL_SCALE).map_err(|_| ArgError::Number {
            what: "--wdl-scale".into(),
            range: format!("'fit' or a number from {} to {}", WDL_SCALE.start(), WDL_SCALE.end()),
            value: k.to_string(),
        })? as f32),
    };
    cfg.holdout = a.values("--holdout").into_iter().map(str::to_string).collect();
    Ok(cfg)
}

fn run(argv: &[String]) -> Outcome {
    let cfg = config(argv)?;
    let tty = std::io::stderr().is_terminal();
    let clear = if tty { "\r\x1b[K" } else { "" };
    let mut line = |s: &str| {
        eprint!("{clear}");
        // A closed stdout must not stop the run: the files are what matter.
        emit(&format!("{s}\n"));
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
    let result = train::run(&cfg, &mut Output { line: &mut line, progress: &mut progress });
    eprint!("{clear}");
    // A failed write is a failed run (exit 1); anything else is bad input (exit 2).
    let reports = result.map_err(|e| if e.is_write() { Failure::failed(e) } else { Failure::input(e) })?;
    let last = reports.last();
    let losses: Vec<String> =
        [("validation", last.and_then(|l| l.val_loss)), ("holdout", last.and_then(|l| l.holdout_loss))]
            .into_iter()
            .filter_map(|(name, loss)| loss.map(|v| format!("{name} loss {v:.6}")))
            .collect();
    say!(
        "wrote '{}' and checkpoint '{}' in {}{}",
        cfg.out,
        cfg.checkpoint,
        train::hms(start.elapsed().as_secs_f64()),
        if losses.is_empty() { String::new() } else { format!(": {}", losses.join(", ")) }
    );
    Ok(Exit::Ok)
}
