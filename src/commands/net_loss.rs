//! `horizon net-loss NET.nnue DATA.bin... [--lambda L] [--wdl-scale K] [--threads T]`: the
//! loss of a finished network on holdout files, as `horizon train --holdout` reports it
//! during a run (the library is `crate::train::holdout`), so that every network can be
//! measured on the same positions.

use super::args::{Args, LAMBDA, THREADS, WDL_SCALE};
use super::output::say;
use super::subcommand::{Exit, Failure, Outcome, Subcommand};
use crate::train::holdout::{net_loss, NetLossConfig};
use crate::train::network::LossSpec;
use crate::train::{DEFAULT_LAMBDA, DEFAULT_WDL_SCALE};

pub const COMMAND: Subcommand = Subcommand {
    name: "net-loss",
    help: "  net-loss NET.nnue DATA.bin...    a network's loss on holdout files, as train reports it [--lambda L] [--wdl-scale K] [--threads T]",
    run,
    claims: None,
};

const USAGE: &str = "usage: horizon net-loss NET.nnue DATA.bin... [--lambda L] [--wdl-scale K] [--threads T]";

fn run(argv: &[String]) -> Outcome {
    let a = Args::parse(argv, &["--lambda", "--wdl-scale", "--threads"], &[])?;
    let words = a.positional(2, usize::MAX, USAGE)?;
    let spec = LossSpec {
        lambda: a.real("--lambda", LAMBDA)?.map_or(DEFAULT_LAMBDA, |x| x as f32),
        wdl_scale: a.real("--wdl-scale", WDL_SCALE)?.map_or(DEFAULT_WDL_SCALE, |x| x as f32),
    };
    let threads =
        a.number("--threads", THREADS)?.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let cfg = NetLossConfig {
        net: words[0].to_string(),
        data: words[1..].iter().map(|s| s.to_string()).collect(),
        spec,
        threads,
    };
    let r = net_loss(&cfg).map_err(Failure::input)?;
    say!(
        "loss {:.6} of '{}' on {} positions from {} file(s) (hidden {}, {} output bucket(s); lambda {}, wdl scale {})",
        r.loss,
        cfg.net,
        r.positions,
        cfg.data.len(),
        r.layout.n,
        r.layout.buckets,
        spec.lambda,
        spec.wdl_scale
    );
    Ok(Exit::Ok)
}
