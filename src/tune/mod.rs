//! `horizon tune`: fits every evaluation weight to self-play data by gradient descent on
//! coefficient traces, and writes the result as Rust source the engine compiles in.
//!
//! 1. **Load** ([`dataset::load`]): parse `<FEN> | <score> | <result>` lines (with the one
//!    data-line parser, [`crate::data::text`], through the one reader, [`crate::data::read`];
//!    blank lines are skipped) and trace each
//!    position once with the evaluation itself, keeping only the non-zero feature counts.
//!    Malformed lines are *skipped and counted*, the first ten reported with their line
//!    numbers: a data file is often still being appended to by `horizon datagen` (its last line
//!    may be cut short), and one bad line in millions should not cost the run. A file with no
//!    usable line is an error.
//! 2. **Split** off a held-out part (`--holdout`, by a seeded shuffle) to watch for overfitting.
//! 3. **Fit the sigmoid scale K** that best maps the current evaluation to the game results
//!    (golden-section search on the mean squared error), so that centipawns and results speak
//!    the same language. Targets are then `λ·result + (1 − λ)·sigmoid(K·score)`.
//! 4. **Adam** on the mean squared error `(sigmoid(K·E) − target)²`, in shuffled mini-batches;
//!    the gradient of each batch is computed on all threads (`std::thread::scope`), each thread
//!    over its share of the batch. The learning rate falls linearly from `--lr` to a tenth of it
//!    over the epochs. Scale factors are kept within 0..=64.
//! 5. After every epoch: print the training and held-out loss and write the weights (rounded
//!    to integers) to `--out`, so an interrupted run keeps its last finished epoch.
//!
//! How the two non-linear parts of the evaluation are fitted is described in `model.rs`
//! (and in `eval/king.rs` and `eval/scale.rs`): exactly, by the chain rule.

pub mod dataset;
pub mod model;
pub mod wdl;
pub mod write;

use crate::eval::layout::COUNT;
use crate::eval::params::SCALE_NORMAL;
use crate::eval::scale::ScaleCase;
use crate::rng::SplitMix64;
use dataset::{Dataset, Loaded};
use std::fmt;
use std::path::PathBuf;
use std::time::Instant;

/// Everything `horizon tune` can be told.
#[derive(Clone, Debug)]
pub struct Config {
    pub data: PathBuf,
    pub epochs: usize,
    /// Weight of the game result in the target (the rest is the search score).
    pub lambda: f64,
    /// Adam step size in centipawns (the first epoch's; it falls to a tenth by the last).
    pub lr: f64,
    pub out: PathBuf,
    /// Use at most this many positions (the first ones in the file).
    pub limit: usize,
    pub batch: usize,
    pub threads: usize,
    pub seed: u64,
    /// Fraction of the positions held out of training, to measure overfitting.
    pub holdout: f64,
    /// The command line, for the header of the written file (which records its paths as
    /// file names only: [`write::without_directories`]).
    pub command: String,
}

impl Config {
    /// The defaults for a data file.
    pub fn new(data: impl Into<PathBuf>) -> Config {
        Config {
            data: data.into(),
            epochs: 20,
            lambda: 0.5,
            lr: 1.0,
            out: PathBuf::from("src/eval/weights.rs"),
            limit: usize::MAX,
            batch: 16384,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            seed: 1,
            holdout: 0.05,
            command: String::new(),
        }
    }
}

/// Why a tuning run stopped.
#[derive(Debug)]
pub enum TuneError {
    /// The data file could not be opened or read.
    Read(PathBuf, std::io::Error),
    /// No usable position in the data.
    NoData { lines: usize, rejected: usize },
    /// The weights file could not be written.
    Write(PathBuf, std::io::Error),
}

impl fmt::Display for TuneError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            TuneError::Read(p, e) => write!(f, "cannot read '{}': {e}", p.display()),
            TuneError::NoData { lines, rejected } => {
                write!(f, "no usable positions ({lines} lines read, {rejected} rejected)")
            }
            TuneError::Write(p, e) => write!(f, "cannot write '{}': {e}", p.display()),
        }
    }
}

/// What a run did.
#[derive(Clone, Debug)]
pub struct Summary {
    pub positions: usize,
    pub held_out: usize,
    pub rejected: usize,
    pub k: f64,
    /// Training loss before the first epoch and after each epoch.
    pub train_loss: Vec<f64>,
    /// Held-out loss likewise (empty without a held-out part).
    pub holdout_loss: Vec<f64>,
}

/// Where a run reports: `line` for results (stdout), `progress` for a transient status line
/// (stderr).
pub struct Output<'a> {
    pub line: &'a mut dyn FnMut(&str),
    pub progress: &'a mut dyn FnMut(&str),
}

/// Runs the tuner (see the module doc).
pub fn run(cfg: &Config, out: &mut Output) -> Result<Summary, TuneError> {
    // 1. Load and trace.
    let start = Instant::now();
    let file = std::fs::File::open(&cfg.data).map_err(|e| TuneError::Read(cfg.data.clone(), e))?;
    let reader = std::io::BufReader::with_capacity(1 << 20, file);
    let progress = &mut *out.progress;
    let loaded = dataset::load(reader, cfg.limit, cfg.threads, &mut |n| {
        progress(&format!("loading: {n} lines, {:.0} s", start.elapsed().as_secs_f64()))
    })
    .map_err(|e| TuneError::Read(cfg.data.clone(), e))?;
    let Loaded { mut data, errors, error_count, lines } = loaded;
    for e in &errors {
        (out.line)(&format!("skipped {e}"));
    }
    if error_count > errors.len() {
        (out.line)(&format!("skipped {} more malformed lines", error_count - errors.len()));
    }
    let n = data.positions.len();
    if n == 0 {
        return Err(TuneError::NoData { lines, rejected: error_count });
    }
    (out.line)(&format!(
        "loaded {n} positions from {} lines ({error_count} rejected) in {:.1} s: {} features, {} MB",
        lines,
        start.elapsed().as_secs_f64(),
        data.features.len(),
        data.bytes() >> 20
    ));

    // 2. Held-out split.
    let mut rng = SplitMix64::new(cfg.seed);
    let mut order: Vec<u32> = (0..n as u32).collect();
    rng.shuffle(&mut order);
    let held = ((n as f64 * cfg.holdout) as usize).min(n - 1);
    let holdout: Vec<u32> = order[..held].to_vec();
    let mut train: Vec<u32> = order[held..].to_vec();

    // 3. Sigmoid scale and targets.
    let mut params = model::current();
    let k = fit_k(&params, &data, &train, cfg.threads);
    (out.line)(&format!("K = {k:.6} (sigmoid scale fitted to the current evaluation; 1/K = {:.1} cp)", 1.0 / k));
    for p in data.positions.iter_mut() {
        let t = cfg.lambda * p.result as f64 + (1.0 - cfg.lambda) * model::sigmoid(k, p.score as f64);
        p.target = t as f32;
    }
    let mut summary = Summary {
        positions: train.len(),
        held_out: held,
        rejected: error_count,
        k,
        train_loss: Vec::new(),
        holdout_loss: Vec::new(),
    };
    let first = epoch_report(cfg, &mut summary, &params, &data, (&train, &holdout), 0, 0.0, cfg.lr);
    (out.line)(&format!(
        "{first}  ({} training, {held} held out, lambda {}, batch {}, {} threads)",
        train.len(),
        cfg.lambda,
        cfg.batch,
        cfg.threads
    ));

    // 4. Adam.
    let mut adam = Adam::new(model::PARAMS);
    let batches = train.len().div_ceil(cfg.batch.max(1));
    for epoch in 1..=cfg.epochs {
        let t0 = Instant::now();
        let frac = if cfg.epochs > 1 { (epoch - 1) as f64 / (cfg.epochs - 1) as f64 } else { 0.0 };
        let lr = cfg.lr * (1.0 - 0.9 * frac);
        rng.shuffle(&mut train);
        let mut last = Instant::now();
        for (b, batch) in train.chunks(cfg.batch.max(1)).enumerate() {
            let grad = gradient(&params, &data, batch, k, cfg.threads);
            adam.step(&mut params, &grad, lr);
            for case in ScaleCase::TUNED {
                let i = model::scale_param(case);
                params[i] = params[i].clamp(0.0, SCALE_NORMAL as f64);
            }
            if last.elapsed().as_millis() >= 250 {
                last = Instant::now();
                (out.progress)(&format!("epoch {epoch}/{}  batch {}/{batches}", cfg.epochs, b + 1));
            }
        }
        // 5. Report and save.
        let secs = t0.elapsed().as_secs_f64();
        let line = epoch_report(cfg, &mut summary, &params, &data, (&train, &holdout), epoch, secs, lr);
        (out.line)(&line);
        save(cfg, &params, &summary)?;
    }
    if cfg.epochs == 0 {
        save(cfg, &params, &summary)?;
    }
    Ok(summary)
}

/// Measures the losses after `epoch`, records them in `summary` and returns the report line.
#[allow(clippy::too_many_arguments)]
fn epoch_report(
    cfg: &Config,
    summary: &mut Summary,
    params: &[f64],
    data: &Dataset,
    (train, holdout): (&[u32], &[u32]),
    epoch: usize,
    secs: f64,
    lr: f64,
) -> String {
    let tl = loss(params, data, train, summary.k, cfg.threads);
    summary.train_loss.push(tl);
    let mut line = format!("epoch {epoch:3}/{}  loss {tl:.7}", cfg.epochs);
    if !holdout.is_empty() {
        let hl = loss(params, data, holdout, summary.k, cfg.threads);
        summary.holdout_loss.push(hl);
        line.push_str(&format!("  held-out {hl:.7}"));
    }
    if epoch > 0 {
        line.push_str(&format!("  lr {lr:.3}  {secs:.1} s"));
    }
    line
}

/// Writes the weights file for the current parameters.
fn save(cfg: &Config, params: &[f64], s: &Summary) -> Result<(), TuneError> {
    let (w, f) = model::to_integers(params);
    let last = |v: &Vec<f64>| v.last().map_or("-".to_string(), |x| format!("{x:.7}"));
    let first = |v: &Vec<f64>| v.first().map_or("-".to_string(), |x| format!("{x:.7}"));
    let header = vec![
        format!("Produced by: {}", write::without_directories(&cfg.command)),
        format!(
            "Data: {} training positions, {} held out, {} lines rejected; K = {:.6}.",
            s.positions, s.held_out, s.rejected, s.k
        ),
        format!(
            "Loss after {} epochs: training {} -> {}, held-out {} -> {}.",
            s.train_loss.len() - 1,
            first(&s.train_loss),
            last(&s.train_loss),
            first(&s.holdout_loss),
            last(&s.holdout_loss)
        ),
    ];
    let text = write::render(&w, &f, &header);
    write::write_atomic(&cfg.out, &text).map_err(|e| TuneError::Write(cfg.out.clone(), e))
}

/// Splits `idx` into one share per thread and sums `f` over the shares in parallel.
fn parallel<R: Send>(idx: &[u32], threads: usize, f: impl Fn(&[u32]) -> R + Sync, mut combine: impl FnMut(R)) {
    let threads = threads.clamp(1, idx.len().max(1));
    if threads == 1 {
        combine(f(idx));
        return;
    }
    let share = idx.len().div_ceil(threads);
    std::thread::scope(|s| {
        let f = &f;
        let handles: Vec<_> = idx.chunks(share).map(|part| s.spawn(move || f(part))).collect();
        for h in handles {
            combine(h.join().expect("tuner thread panicked"));
        }
    });
}

/// Mean of `(sigmoid(K·E) − target)²` over `idx`.
pub fn loss(params: &[f64], data: &Dataset, idx: &[u32], k: f64, threads: usize) -> f64 {
    let mut sum = 0.0;
    parallel(
        idx,
        threads,
        |part| {
            part.iter()
                .map(|&i| {
                    let p = &data.positions[i as usize];
                    let e = model::forward(params, data, p).value;
                    let d = model::sigmoid(k, e) - p.target as f64;
                    d * d
                })
                .sum::<f64>()
        },
        |s| sum += s,
    );
    sum / idx.len().max(1) as f64
}

/// Gradient of the mean loss over `idx` with respect to every parameter.
fn gradient(params: &[f64], data: &Dataset, idx: &[u32], k: f64, threads: usize) -> Vec<f64> {
    let mut total = vec![0.0; model::PARAMS];
    parallel(
        idx,
        threads,
        |part| {
            let mut g = vec![0.0; model::PARAMS];
            for &i in part {
                let p = &data.positions[i as usize];
                let fw = model::forward(params, data, p);
                let s = model::sigmoid(k, fw.value);
                // d/dE (s − t)² = 2 (s − t) · s (1 − s) · K
                let de = 2.0 * (s - p.target as f64) * s * (1.0 - s) * k;
                model::backward(&fw, de, data, p, &mut g);
            }
            g
        },
        |g| {
            for (t, x) in total.iter_mut().zip(g) {
                *t += x;
            }
        },
    );
    let n = idx.len().max(1) as f64;
    total.iter_mut().for_each(|g| *g /= n);
    total
}

/// The K minimising the mean squared error between `sigmoid(K·E)` (current evaluation) and
/// the game results, by golden-section search over a range that holds any sane scale.
fn fit_k(params: &[f64], data: &Dataset, idx: &[u32], threads: usize) -> f64 {
    let mut evals: Vec<(f64, f64)> = Vec::with_capacity(idx.len());
    parallel(
        idx,
        threads,
        |part| {
            part.iter()
                .map(|&i| {
                    let p = &data.positions[i as usize];
                    (model::forward(params, data, p).value, p.result as f64)
                })
                .collect::<Vec<_>>()
        },
        |v| evals.extend(v),
    );
    let err = |k: f64| evals.iter().map(|&(e, r)| (model::sigmoid(k, e) - r).powi(2)).sum::<f64>();
    crate::minimise::golden_section(err, 1e-4, 0.05, 60)
}

/// The Adam optimiser (Kingma & Ba): per-parameter steps from running averages of the
/// gradient and its square, so rarely seen weights move as readily as common ones.
struct Adam {
    m: Vec<f64>,
    v: Vec<f64>,
    t: i32,
}

impl Adam {
    const BETA1: f64 = 0.9;
    const BETA2: f64 = 0.999;
    const EPSILON: f64 = 1e-8;

    fn new(n: usize) -> Adam {
        Adam { m: vec![0.0; n], v: vec![0.0; n], t: 0 }
    }

    fn step(&mut self, params: &mut [f64], grad: &[f64], lr: f64) {
        self.t += 1;
        let c1 = 1.0 - Self::BETA1.powi(self.t);
        let c2 = 1.0 - Self::BETA2.powi(self.t);
        for i in 0..params.len() {
            let g = grad[i];
            self.m[i] = Self::BETA1 * self.m[i] + (1.0 - Self::BETA1) * g;
            self.v[i] = Self::BETA2 * self.v[i] + (1.0 - Self::BETA2) * g * g;
            let (m, v) = (self.m[i] / c1, self.v[i] / c2);
            params[i] -= lr * m / (v.sqrt() + Self::EPSILON);
        }
    }
}

/// Number of tuned weights (`S` pairs) and scale factors.
pub fn weight_count() -> (usize, usize) {
    (COUNT, ScaleCase::TUNED.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::eval::trace::Trace;

    /// The tuner's floating-point evaluation with the compiled weights is the engine's
    /// evaluation up to the engine's integer rounding.
    #[test]
    fn float_model_matches_engine() {
        let mut data = Dataset::default();
        let mut trace = Trace::new();
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r1bq1rk1/pp2ppbp/2np2p1/2n5/P3PP2/N1P2N2/1PB3PP/R1B1QRK1 b - - 0 1",
            "4k3/5p2/4b3/8/8/4B3/5PP1/4K3 w - - 0 1",
            "8/8/4k3/3b4/8/3RK3/8/8 w - - 0 1",
            "2r3k1/pppR1pp1/4p3/4P1P1/5P2/1P4K1/P1P5/8 w - - 0 1",
        ];
        let mut engine = Vec::new();
        for f in fens {
            let b = Board::from_fen(f).unwrap();
            trace.reset();
            engine.push(crate::eval::evaluate_traced(&b, &mut trace));
            data.push(&trace, 0, 0.5);
        }
        let p = model::current();
        for (pos, e) in data.positions.iter().zip(engine) {
            let v = model::forward(&p, &data, pos).value;
            assert!((v - e as f64).abs() <= 2.0, "float {v} vs engine {e}");
        }
    }

    /// The analytic gradient agrees with finite differences, for linear weights, king-danger
    /// weights and scale factors.
    #[test]
    fn gradient_matches_finite_differences() {
        let mut data = Dataset::default();
        let mut trace = Trace::new();
        for f in [
            "r1bq1rk1/pppp1ppp/2n2n2/2b1p1N1/2B1P3/3P4/PPP2PPP/RNBQK2R w KQ - 0 6",
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
            "4k3/5p2/4b3/8/8/4B3/5PP1/4K3 w - - 0 1",
            "8/5k2/8/3r4/8/3RK3/4P3/8 w - - 0 1",
        ] {
            let b = Board::from_fen(f).unwrap();
            trace.reset();
            crate::eval::evaluate_traced(&b, &mut trace);
            data.push(&trace, 150, 1.0);
        }
        for p in data.positions.iter_mut() {
            p.target = 0.7;
        }
        let idx: Vec<u32> = (0..data.positions.len() as u32).collect();
        let k = 0.006;
        let mut params = model::current();
        // Move the king-danger weights off zero-gradient corners.
        params[2 * crate::eval::layout::KING_DANGER_OFFSET] = 40.0;
        let g = gradient(&params, &data, &idx, k, 1);
        let mut checked = 0;
        for i in 0..model::PARAMS {
            if g[i] == 0.0 {
                continue;
            }
            let h = 1e-3;
            let mut up = params.clone();
            up[i] += h;
            let mut down = params.clone();
            down[i] -= h;
            let numeric = (loss(&up, &data, &idx, k, 1) - loss(&down, &data, &idx, k, 1)) / (2.0 * h);
            let tol = 1e-6 + 1e-3 * g[i].abs();
            assert!((numeric - g[i]).abs() < tol, "param {i}: analytic {} numeric {numeric}", g[i]);
            checked += 1;
        }
        assert!(checked > 50, "only {checked} parameters had a gradient");
        let danger = 2 * crate::eval::layout::KING_ZONE_ATTACK;
        let scale = model::scale_param(ScaleCase::OppositeBishops);
        assert!(g[danger] != 0.0 && g[scale] != 0.0, "danger {} scale {}", g[danger], g[scale]);
    }
}
