//! The network trainer (`horizon train`), reading binary training data through
//! [`crate::data::read`].
//!
//! # How a run goes
//!
//! 1. **Start** from fresh random weights, from a checkpoint (`--resume`, the same run
//!    continued) or from a network file's weights (`--init`, a new run that fine-tunes it).
//! 2. **Load** the holdout files (`--holdout`, [`holdout`]), which must be valid throughout,
//!    and every record of the binary data files into memory (32 bytes a position); invalid
//!    data records are skipped and counted.
//! 3. **Split** by game ([`split`]): games are found from the records' order, and a game goes
//!    to validation when its hash under `--seed` falls in the `--val` share (the same seed
//!    gives the same split, also when resuming); training positions that are in a holdout
//!    file are dropped.
//! 4. **Epochs**: shuffle the training share, then for each mini-batch of `--batch`
//!    positions: every thread runs the forward and backward pass over its slice of the batch
//!    into its own gradient (the first layer's gradient only in the rows of active
//!    features), the gradients are summed, and AdamW updates the parameters with a cosine
//!    learning-rate schedule; weights are clipped so quantisation cannot overflow (and the
//!    network file's output weights so that the engine's output sum cannot, [`quantise`]).
//! 5. After every epoch: the validation loss, a checkpoint and the quantised `.nnue` file,
//!    both written atomically (a temporary file and a rename), so an interruption loses at
//!    most the epoch in progress, the written network's loss on the holdout files, and a line
//!    of figures.
//!
//! The loss is the mean of `(sigmoid(out · SCALE / wdl_scale) − target)²` with
//! `target = lambda · result + (1 − lambda) · sigmoid(score / wdl_scale)`, result and score
//! from the side to move's point of view; `out · SCALE` is the evaluation in centipawns.
//! The scale is given, or fitted to the training positions ([`WdlScale::Fit`]).

pub mod adamw;
pub mod checkpoint;
pub mod error;
pub mod export;
pub mod holdout;
pub mod network;
pub mod quantise;
pub mod split;
pub mod workers;

use crate::data::read;
use crate::data::record::RawRecord;
use crate::eval::nnue::FeatureSet;
use crate::rng::SplitMix64;
use adamw::{AdamW, Decay, Step};
use checkpoint::Checkpoint;
pub use error::TrainError;
use network::{run_slice, Layout, LossSpec, HIDDEN_MULTIPLE, MAX_HIDDEN, MAX_OUTPUT_BUCKETS};
use quantise::Quantised;
use std::time::Instant;
use workers::{mean_loss, Worker};

/// Default hidden size.
pub const DEFAULT_HIDDEN: usize = crate::eval::nnue::HIDDEN;
/// Default number of output buckets: one, the architecture of generations 1 to 3 (generation
/// 4, the embedded network, was trained with `--output-buckets 8`).
pub const DEFAULT_OUTPUT_BUCKETS: usize = 1;
/// Default number of epochs.
pub const DEFAULT_EPOCHS: u32 = 10;
/// Default weight of the game result in the target (the rest is the search score): 0, the
/// setting of every network that has won its games so far (`docs/nnue.md`).
pub const DEFAULT_LAMBDA: f32 = 0.0;
/// Default (initial) learning rate.
pub const DEFAULT_LR: f32 = 0.001;
/// The learning rate decays along a cosine to this fraction of its initial value at the
/// end of the last epoch, by default (`--lr-final`).
pub const LR_FINAL_FRACTION: f32 = 0.05;
/// Default mini-batch size.
pub const DEFAULT_BATCH: usize = 16384;
/// Default validation share.
pub const DEFAULT_VAL: f32 = 0.02;
/// Default scale turning a centipawn score into an expected result: `sigmoid(cp / K)`.
pub const DEFAULT_WDL_SCALE: f32 = export::SCALE as f32;
/// How a centipawn score maps to an expected result in the loss.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum WdlScale {
    /// `sigmoid(cp / K)` with this K.
    Fixed(f32),
    /// K fitted to the training positions' scores and results ([`network::fit_wdl_scale`]).
    Fit,
}

/// Default seed.
pub const DEFAULT_SEED: u64 = 1;

/// Everything a training run needs.
#[derive(Clone, Debug)]
pub struct Config {
    pub data: Vec<String>,
    /// The `.nnue` file written after every epoch.
    pub out: String,
    /// The checkpoint written after every epoch (default: `<out>.ckpt`).
    pub checkpoint: String,
    /// `None`: [`DEFAULT_HIDDEN`], or the checkpoint's when resuming.
    pub hidden: Option<usize>,
    /// `None`: [`DEFAULT_OUTPUT_BUCKETS`], or the checkpoint's when resuming.
    pub output_buckets: Option<usize>,
    /// The input feature set; `None`: plain, or the checkpoint's when resuming.
    pub features: Option<FeatureSet>,
    /// Total epochs (a resumed run continues up to this number).
    pub epochs: u32,
    pub lambda: f32,
    pub lr: f32,
    /// The learning rate at the end of the last epoch, as a fraction of `lr` (not stored in
    /// the checkpoint: a resumed run is given the same value).
    pub lr_final: f32,
    /// Decoupled weight decay rate ([`adamw::WEIGHT_DECAY`]; not stored in the checkpoint).
    pub weight_decay: f32,
    /// The king buckets' own first-layer weights' rate (`None`: `weight_decay`); only for
    /// a feature set with king buckets (not stored in the checkpoint).
    pub bucket_decay: Option<f32>,
    pub batch: usize,
    pub threads: usize,
    pub resume: Option<String>,
    /// A network file whose weights the run starts from, with fresh optimiser state
    /// (`--init`; its shape decides the hidden size, buckets and feature set, except that
    /// a mirrored network may grow king buckets).
    pub init: Option<String>,
    /// `None`: [`DEFAULT_SEED`], or the checkpoint's when resuming.
    pub seed: Option<u64>,
    /// `None`: [`DEFAULT_VAL`], or the checkpoint's when resuming.
    pub val: Option<f32>,
    pub wdl_scale: WdlScale,
    /// Holdout files: never trained on, the loss on them reported after every epoch.
    pub holdout: Vec<String>,
}

impl Config {
    pub fn new(data: Vec<String>, out: String) -> Config {
        Config {
            checkpoint: format!("{out}.ckpt"),
            data,
            out,
            hidden: None,
            output_buckets: None,
            features: None,
            epochs: DEFAULT_EPOCHS,
            lambda: DEFAULT_LAMBDA,
            lr: DEFAULT_LR,
            lr_final: LR_FINAL_FRACTION,
            weight_decay: adamw::WEIGHT_DECAY,
            bucket_decay: None,
            batch: DEFAULT_BATCH,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            resume: None,
            init: None,
            seed: None,
            val: None,
            wdl_scale: WdlScale::Fixed(DEFAULT_WDL_SCALE),
            holdout: Vec::new(),
        }
    }
}

/// The figures of one epoch.
#[derive(Clone, Debug, PartialEq)]
pub struct EpochReport {
    pub epoch: u32,
    pub train_loss: f64,
    /// `None` when there is no validation share.
    pub val_loss: Option<f64>,
    /// The written network's loss on the holdout files; `None` without them.
    pub holdout_loss: Option<f64>,
    pub positions_per_s: f64,
    pub lr: f32,
    pub elapsed_s: f64,
    pub eta_s: f64,
}

/// Where the trainer sends its words: `line` for the per-epoch lines and the summary
/// (stdout), `progress` for the in-epoch status, called after every batch (the caller
/// decides how often to show it).
pub struct Output<'a> {
    pub line: &'a mut dyn FnMut(&str),
    pub progress: &'a mut dyn FnMut(&str),
}

/// `h:mm:ss`.
pub fn hms(secs: f64) -> String {
    let s = secs.max(0.0).round() as u64;
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// The learning rate after `done` of `total` batches: a cosine from `lr` down to
/// `lr · final_fraction`.
pub fn learning_rate(lr: f32, final_fraction: f32, done: u64, total: u64) -> f32 {
    let progress = if total == 0 { 1.0 } else { (done as f64 / total as f64).min(1.0) };
    let end = lr as f64 * final_fraction as f64;
    (end + (lr as f64 - end) * 0.5 * (1.0 + (std::f64::consts::PI * progress).cos())) as f32
}

/// One optimiser step on `batch`: parallel forward/backward, gradient sum, AdamW. Returns
/// the batch's summed loss (before the update).
fn train_batch(
    params: &mut [f32],
    l: Layout,
    batch: &[RawRecord],
    spec: LossSpec,
    workers: &mut [Worker],
    adam: &mut AdamW,
    step: Step,
) -> f64 {
    let per = batch.len().div_ceil(workers.len());
    let used = batch.len().div_ceil(per);
    {
        let params: &[f32] = params;
        std::thread::scope(|s| {
            let mut jobs = batch.chunks(per).zip(workers.iter_mut());
            let first = jobs.next();
            for (chunk, w) in jobs {
                s.spawn(move || {
                    w.grad.fill(0.0);
                    w.loss = run_slice(params, l, chunk, spec, Some(&mut w.grad), &mut w.scratch);
                });
            }
            if let Some((chunk, w)) = first {
                w.grad.fill(0.0);
                w.loss = run_slice(params, l, chunk, spec, Some(&mut w.grad), &mut w.scratch);
            }
        });
    }
    // Sum the threads' gradients into the first one and take the mean.
    let (first, rest) = workers.split_at_mut(1);
    let g = &mut first[0].grad;
    let inv = 1.0 / batch.len() as f32;
    for w in &rest[..used - 1] {
        for (a, b) in g.iter_mut().zip(&w.grad) {
            *a += b;
        }
    }
    for a in g.iter_mut() {
        *a *= inv;
    }
    adam.update(params, g, l, step);
    workers[..used].iter().map(|w| w.loss).sum()
}

/// Whether a run may start from a network of feature set `start` with `given`, another
/// set: only a new run (not a resumed one) from mirrored inputs to mirrored inputs with
/// king buckets, whose buckets can all start as the starting network (see
/// [`start_from_file`]).
fn widens(start: FeatureSet, given: FeatureSet, resuming: bool) -> bool {
    !resuming && start == FeatureSet::Mirrored && given == FeatureSet::MirroredKingBuckets
}

/// Sets the parameters of `layout` to the network `q` (the random draw in `params` is
/// overwritten). With the same feature set, the file's parameters are copied, and with
/// king buckets they are the buckets' own weights and the factoriser starts at zero. A
/// mirrored network widened to king buckets ([`widens`]) goes the other way: its feature
/// weights become the factoriser, shared by every bucket, and each bucket's own weights
/// start at zero. Either way every bucket's sums are the file's, so the run starts as the
/// network it was given.
fn start_from_file(params: &mut [f32], layout: Layout, q: &Quantised) {
    let file = q.to_params();
    let fl = q.layout;
    if fl.features == layout.features {
        params[..file.len()].copy_from_slice(&file);
        params[file.len()..].fill(0.0);
    } else {
        debug_assert!(widens(fl.features, layout.features, false) && fl.n == layout.n && fl.buckets == layout.buckets);
        params[layout.w()].fill(0.0);
        params[layout.fw()].copy_from_slice(&file[fl.w()]);
        params[layout.b().start..layout.ob().end].copy_from_slice(&file[fl.b().start..fl.ob().end]);
    }
}

/// Runs the training described by `cfg`; returns the epoch reports of this run.
pub fn run(cfg: &Config, out: &mut Output) -> Result<Vec<EpochReport>, TrainError> {
    // 1. The starting state: a checkpoint, a network file's weights, or fresh weights. A
    // checkpoint or a network fixes the shape, and a flag that contradicts it is refused
    // (except a mirrored network given king buckets, [`widens`]).
    if cfg.init.is_some() && cfg.resume.is_some() {
        return Err(TrainError::InitAndResume);
    }
    let resumed = cfg.resume.as_deref().map(Checkpoint::load).transpose()?;
    let initial = cfg.init.as_deref().map(|p| Quantised::read(p).map_err(TrainError::network(p))).transpose()?;
    let start = match (&resumed, &initial) {
        (Some(c), _) => Some((c.hidden, c.buckets, c.features, "checkpoint")),
        (_, Some(q)) => Some((q.layout.n, q.layout.buckets, q.layout.features, "starting network")),
        _ => None,
    };
    if let Some((hidden, buckets, features, from)) = start {
        if let Some(h) = cfg.hidden.filter(|&h| h != hidden) {
            return Err(TrainError::HiddenMismatch { given: h, start: hidden, from });
        }
        if let Some(b) = cfg.output_buckets.filter(|&b| b != buckets) {
            return Err(TrainError::BucketsMismatch { given: b, start: buckets, from });
        }
        if let Some(f) = cfg.features.filter(|&f| f != features && !widens(features, f, resumed.is_some())) {
            return Err(TrainError::FeaturesMismatch { given: f, start: features, from });
        }
    }
    if let Some(c) = resumed.as_ref().filter(|c| c.epochs_done >= cfg.epochs) {
        return Err(TrainError::NothingToTrain { done: c.epochs_done, epochs: cfg.epochs });
    }
    let (n, buckets, features, seed, val_share) = match (&resumed, start) {
        (Some(c), _) => (c.hidden, c.buckets, c.features, c.seed, c.val_share),
        (None, Some((hidden, buckets, features, _))) => (
            hidden,
            buckets,
            cfg.features.unwrap_or(features),
            cfg.seed.unwrap_or(DEFAULT_SEED),
            cfg.val.unwrap_or(DEFAULT_VAL),
        ),
        (None, None) => (
            cfg.hidden.unwrap_or(DEFAULT_HIDDEN),
            cfg.output_buckets.unwrap_or(DEFAULT_OUTPUT_BUCKETS),
            cfg.features.unwrap_or_default(),
            cfg.seed.unwrap_or(DEFAULT_SEED),
            cfg.val.unwrap_or(DEFAULT_VAL),
        ),
    };
    if n == 0 || n > MAX_HIDDEN || !n.is_multiple_of(HIDDEN_MULTIPLE) {
        return Err(TrainError::HiddenSize(n));
    }
    if buckets == 0 || buckets > MAX_OUTPUT_BUCKETS {
        return Err(TrainError::BucketCount(buckets));
    }
    let layout = Layout::new(n, buckets, features);
    if cfg.bucket_decay.is_some() && !layout.factoriser {
        return Err(TrainError::BucketDecayWithoutBuckets(features));
    }
    let decay = Decay { base: cfg.weight_decay, buckets: cfg.bucket_decay.unwrap_or(cfg.weight_decay) };

    // 2. The holdout files (a bad one stops the run before the data is read), then the
    // data, split by game: validation first, then training without the holdout positions.
    let holdout_records = holdout::load(&cfg.holdout)?;
    let load_start = Instant::now();
    let (mut records, stats) = read::load(&cfg.data)?;
    for e in &stats.first_errors {
        (out.line)(&format!("skipped {e}"));
    }
    let shares = split::split(&mut records, &stats.per_file, seed, val_share, &holdout::keys(&holdout_records));
    let (val, train) = records.split_at_mut(shares.validation);
    if train.is_empty() {
        return Err(TrainError::NoPositions);
    }
    let batches_per_epoch = train.len().div_ceil(cfg.batch) as u64;
    (out.line)(&format!(
        "loaded {} positions from {} file(s) in {:.1} s ({} invalid skipped): {} training, {} validation ({} of {} games)",
        stats.records,
        cfg.data.len(),
        load_start.elapsed().as_secs_f64(),
        stats.invalid,
        train.len(),
        val.len(),
        shares.validation_games,
        shares.games
    ));
    if !cfg.holdout.is_empty() {
        (out.line)(&format!(
            "holdout: {} positions from {} file(s), never trained on ({} training positions excluded)",
            holdout_records.len(),
            cfg.holdout.len(),
            shares.excluded
        ));
    }
    let mut rng = SplitMix64::new(seed);

    let wdl_scale = match cfg.wdl_scale {
        WdlScale::Fixed(k) => k,
        WdlScale::Fit => {
            let fit_start = Instant::now();
            let (k, mse) = network::fit_wdl_scale(train).ok_or(TrainError::NoPositionsToFit)?;
            (out.line)(&format!(
                "wdl scale fitted to the {} training positions in {:.1} s: {k:.1} cp (mean squared error of sigmoid(score / {k:.1}) against the results {mse:.6})",
                train.len(),
                fit_start.elapsed().as_secs_f64()
            ));
            k
        }
    };

    let (mut params, mut adam, first_epoch) = match resumed {
        Some(c) => {
            // Replay what an unbroken run drew before this epoch: the initial weights and one
            // shuffle of the training share per finished epoch. The next epoch then sees the
            // order an unbroken run would give it, and a resumed run ends with the same
            // network. With other data than the checkpoint's run the stream cannot be
            // replayed: it continues from the checkpoint's stored state instead.
            network::init_params(layout, &mut rng);
            for _ in 0..c.epochs_done {
                rng.shuffle(train);
            }
            if rng.state != c.rng_state {
                rng = SplitMix64::new(c.rng_state);
            }
            (out.line)(&format!(
                "resuming after epoch {} from '{}'",
                c.epochs_done,
                cfg.resume.as_deref().unwrap_or("")
            ));
            (c.params, c.adam, c.epochs_done + 1)
        }
        None => {
            // Random weights are drawn also when a network gives the start, so that the
            // stream, and with it a later resume of this run, is that of a fresh run.
            let mut p = network::init_params(layout, &mut rng);
            if let Some(q) = &initial {
                start_from_file(&mut p, layout, q);
                (out.line)(&format!("starting from the weights of '{}'", cfg.init.as_deref().unwrap_or("")));
                if q.layout.features != layout.features {
                    (out.line)(&format!(
                        "{} weights shared by the king buckets (the factoriser); each bucket's own start at zero",
                        q.layout.features
                    ));
                }
            }
            let a = AdamW::new(p.len());
            (p, a, 1)
        }
    };
    let threads = cfg.threads.max(1);
    (out.line)(&format!(
        "network ({} -> {n}) x 2 -> 1, {features} features{}, {buckets} output bucket(s), {} parameters; {threads} thread(s), batch {}, {batches_per_epoch} batches an epoch, lambda {}, wdl scale {wdl_scale}, lr {} (cosine to x{}), weight decay {}{}, epochs {first_epoch}..={}",
        features.inputs(),
        if layout.factoriser { " with a factoriser" } else { "" },
        layout.param_count(),
        cfg.batch,
        cfg.lambda,
        cfg.lr,
        cfg.lr_final,
        decay.base,
        if layout.factoriser { format!(" (bucket blocks {})", decay.buckets) } else { String::new() },
        cfg.epochs
    ));

    let spec = LossSpec { lambda: cfg.lambda, wdl_scale };
    let mut workers: Vec<Worker> = (0..threads).map(|_| Worker::new(layout, true)).collect();
    let total_batches = cfg.epochs as u64 * batches_per_epoch;
    let run_start = Instant::now();
    let mut reports = Vec::new();
    for epoch in first_epoch..=cfg.epochs {
        // 3. One epoch over the reshuffled training share.
        let epoch_start = Instant::now();
        rng.shuffle(train);
        let mut loss_sum = 0.0f64;
        let mut seen = 0usize;
        let mut lr = cfg.lr;
        for (b, batch) in train.chunks(cfg.batch).enumerate() {
            let done = (epoch as u64 - 1) * batches_per_epoch + b as u64;
            lr = learning_rate(cfg.lr, cfg.lr_final, done, total_batches);
            loss_sum += train_batch(&mut params, layout, batch, spec, &mut workers, &mut adam, Step { lr, decay });
            seen += batch.len();
            let secs = epoch_start.elapsed().as_secs_f64().max(1e-9);
            let rate = seen as f64 / secs;
            let left_epoch = (train.len() - seen) as f64 / rate;
            let later = (cfg.epochs - epoch) as f64 * (train.len() + val.len()) as f64 / rate;
            (out.progress)(&format!(
                "epoch {epoch}/{}  {:5.1}%  loss {:.6}  {:.0} pos/s  elapsed {}  ETA {}",
                cfg.epochs,
                100.0 * seen as f64 / train.len() as f64,
                loss_sum / seen as f64,
                rate,
                hms(run_start.elapsed().as_secs_f64()),
                hms(left_epoch + later)
            ));
        }
        let train_secs = epoch_start.elapsed().as_secs_f64().max(1e-9);
        let train_loss = loss_sum / train.len() as f64;
        let val_loss = (!val.is_empty()).then(|| mean_loss(&params, layout, val, spec, &mut workers));

        // 4. Save: checkpoint first, then the network.
        let ckpt = Checkpoint {
            hidden: n,
            buckets,
            features,
            epochs_done: epoch,
            val_share,
            seed,
            rng_state: rng.state,
            params: params.clone(),
            adam: adam.clone(),
        };
        export::write_atomic(&cfg.checkpoint, &ckpt.to_bytes())?;
        let quantised = Quantised::of_params(&params, layout);
        export::write_atomic(&cfg.out, &quantised.to_bytes())?;
        if !quantised.clipped.is_empty() {
            (out.line)(&format!(
                "epoch {epoch}: output weights of bucket(s) {:?} clipped in the network file so that the engine's output sum fits i32",
                quantised.clipped
            ));
        }
        // The holdout loss is the written network file's, as `net-loss` measures it.
        let holdout_loss =
            (!holdout_records.is_empty()).then(|| holdout::loss(&quantised, &holdout_records, spec, &mut workers));

        let elapsed = run_start.elapsed().as_secs_f64();
        let per_epoch = elapsed / (epoch - first_epoch + 1) as f64;
        let report = EpochReport {
            epoch,
            train_loss,
            val_loss,
            holdout_loss,
            positions_per_s: train.len() as f64 / train_secs,
            lr,
            elapsed_s: elapsed,
            eta_s: per_epoch * (cfg.epochs - epoch) as f64,
        };
        (out.line)(&format!(
            "epoch {epoch}/{}  train {:.6}  val {}{}  lr {:.6}  {:.0} pos/s  elapsed {}  ETA {}",
            cfg.epochs,
            report.train_loss,
            report.val_loss.map_or("-".to_string(), |v| format!("{v:.6}")),
            report.holdout_loss.map_or(String::new(), |h| format!("  holdout {h:.6}")),
            lr,
            report.positions_per_s,
            hms(elapsed),
            hms(report.eta_s)
        ));
        reports.push(report);
    }
    Ok(reports)
}

#[cfg(test)]
mod tests {
    use super::learning_rate;

    #[test]
    fn the_learning_rate_falls_from_lr_to_its_final_fraction() {
        for fraction in [0.05f32, 0.003, 1.0] {
            let total = 1000;
            assert!((learning_rate(0.001, fraction, 0, total) - 0.001).abs() < 1e-9);
            assert!((learning_rate(0.001, fraction, total, total) - 0.001 * fraction).abs() < 1e-9);
            let mut last = f32::INFINITY;
            for done in (0..=total).step_by(50) {
                let lr = learning_rate(0.001, fraction, done, total);
                assert!(lr <= last, "rises at {done} with final fraction {fraction}");
                last = lr;
            }
        }
    }
}
