//! `horizon bench [depth] [threads] [hash] [--eval classical|nnue] [--evalfile FILE]`: prints
//! per-position lines to stderr and ends with `<nodes> nodes <nps> nps` on stdout. Without
//! `threads`/`hash` (or with 1 and 16) it is the single-threaded, deterministic signature;
//! otherwise the threaded bench. The evaluation is the engine's default unless `--eval` or
//! `--evalfile` says otherwise (see [`evaluation`]). Exit code 0, or 2 for a bad argument, an
//! unreadable network file or a hash size that cannot be allocated.

use super::args::{self, Args, HASH_MB};
use super::evaluation;
use super::output::say;
use super::subcommand::{Exit, Failure, Outcome, Subcommand};
use crate::bench::{BENCH_DEPTH, BENCH_HASH_MB};
use crate::error::HashAllocError;
use crate::search::threads::MAX_THREADS;
use crate::search::{Control, Options, Stats};
use std::sync::Arc;

pub const COMMAND: Subcommand = Subcommand {
    name: "bench",
    help: "  bench [depth] [threads] [hash]   fixed search benchmark: '<nodes> nodes <nps> nps' (threads/hash: scaling run)\n                                   [--eval classical|nnue] [--evalfile FILE]: the evaluation (default: UseNNUE's)",
    run,
    claims: None,
};

const USAGE: &str = "usage: horizon bench [depth] [threads] [hash] [--eval classical|nnue] [--evalfile FILE]";

fn run(argv: &[String]) -> Outcome {
    let a = Args::parse(argv, &evaluation::FLAGS, &[])?;
    let pos = a.positional(0, 3, USAGE)?;
    let network = evaluation::choose(&a)?;
    let depth = pos.first().map(|d| args::number("bench depth", d, 1..=64)).transpose()?.unwrap_or(BENCH_DEPTH);
    // The search's own limit (the UCI Threads option), not the tools' `--threads`.
    let threads = pos.get(1).map(|t| args::number("bench threads", t, 1..=MAX_THREADS)).transpose()?.unwrap_or(1);
    let hash = pos.get(2).map(|h| args::number("bench hash (MB)", h, HASH_MB)).transpose()?.unwrap_or(BENCH_HASH_MB);
    let each = |i: usize, fen: &str, s: &Stats| {
        eprintln!("position {:2}  nodes {:9}  qnodes {:9}  {fen}", i + 1, s.nodes, s.qnodes);
    };
    let eval_name = evaluation::name(&network);
    // The network's SIMD path too: the CPU and `HORIZON_NNUE_SIMD` choose it.
    let simd = match &network {
        Some(_) => format!(" ({})", crate::eval::nnue::simd::backend().name()),
        None => String::new(),
    };
    let r = if threads == 1 && hash == BENCH_HASH_MB {
        match network {
            Some(net) => crate::bench::run_nnue(depth, net, each),
            None => crate::bench::run(depth, each),
        }
    } else {
        let control = Arc::new(Control::default());
        crate::bench::run_threads(depth, threads, hash, Options::default(), network, control, each)
            .ok_or_else(|| Failure::input(HashAllocError { mb: hash }))?
    };
    let s = r.stats;
    let nps = s.nodes as u128 * 1000 / r.millis.max(1);
    // Only the classical evaluation probes the pawn table; the network has no such line.
    let pawn = if r.pawn_probes > 0 {
        format!(", pawn hash hits {:.1}% of {}", 100.0 * r.pawn_hits as f64 / r.pawn_probes as f64, r.pawn_probes)
    } else {
        String::new()
    };
    eprintln!(
        "depth {depth}, {threads} thread(s), {hash} MB, {eval_name} evaluation{simd}: {} ms, quiescence nodes {} ({:.1}%), SEE-pruned captures {}, delta-pruned {}{pawn}",
        r.millis,
        s.qnodes,
        100.0 * s.qnodes as f64 / s.nodes.max(1) as f64,
        s.see_pruned,
        s.delta_pruned,
    );
    say!("{} nodes {} nps", s.nodes, nps);
    Ok(Exit::Ok)
}
