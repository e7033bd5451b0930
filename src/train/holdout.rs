//! Holdout files: fixed sets of positions that judge networks across runs and recipes. A run
//! never trains on their positions (`horizon train --holdout`) and reports the loss of the
//! network it writes on them after every epoch; [`net_loss`] (`horizon net-loss`) gives the
//! same number for any network file, so networks trained on different data and splits can
//! be compared on one yardstick.
//!
//! The loss is the trainer's (`network::run_slice`, the same lambda and WDL scale handling)
//! computed with the network file's own weights: its integers turned back into floats
//! ([`Quantised::to_params`]). So a run's holdout loss and `net-loss` of the file it wrote
//! are the same number.
//!
//! A holdout file must be sound throughout: a file that cannot be read, is not a whole
//! number of records, holds none, or holds one invalid record is refused with a one-line
//! error naming it (a yardstick that silently dropped positions would not be one).

use super::error::TrainError;
use super::network::{Layout, LossSpec};
use super::quantise::Quantised;
use super::workers::{mean_loss, Worker};
use crate::data::read::{self, for_each_record, FileError, LoadStats};
use crate::data::record::{raw_dedup_key, RawRecord};
use std::collections::HashSet;

/// Reads the holdout files `paths`: every record of each, in order.
pub fn load(paths: &[String]) -> Result<Vec<RawRecord>, TrainError> {
    let mut records = Vec::new();
    for path in paths {
        let count = read::record_count(path).map_err(TrainError::Holdout)?;
        if count == 0 {
            return Err(TrainError::HoldoutEmpty(path.clone()));
        }
        let file = std::fs::File::open(path).map_err(|e| TrainError::Holdout(FileError::read(path, e)))?;
        let mut stats = LoadStats::default();
        for_each_record(path, file, &mut stats, |raw, _| records.push(*raw)).map_err(TrainError::Holdout)?;
        if let Some(first) = stats.first_errors.into_iter().next() {
            return Err(TrainError::HoldoutRecord(first));
        }
    }
    Ok(records)
}

/// The position keys of `records` (placement and side to move), to keep them out of training.
pub fn keys(records: &[RawRecord]) -> HashSet<u64> {
    records.iter().map(raw_dedup_key).collect()
}

/// The network file's loss on `records`: its integers as floats, through the trainer's
/// forward pass, over `workers.len()` threads.
pub fn loss(net: &Quantised, records: &[RawRecord], spec: LossSpec, workers: &mut [Worker]) -> f64 {
    mean_loss(&net.to_params(), net.layout, records, spec, workers)
}

/// What [`net_loss`] measures.
#[derive(Clone, Debug)]
pub struct NetLossConfig {
    /// The `.nnue` file.
    pub net: String,
    /// The holdout files.
    pub data: Vec<String>,
    pub spec: LossSpec,
    pub threads: usize,
}

/// What [`net_loss`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct NetLoss {
    pub layout: Layout,
    pub positions: usize,
    pub loss: f64,
}

/// The loss of the network file `cfg.net` on the holdout files `cfg.data`, as a training run
/// with `--holdout` reports it.
pub fn net_loss(cfg: &NetLossConfig) -> Result<NetLoss, TrainError> {
    let net = Quantised::read(&cfg.net).map_err(TrainError::network(&cfg.net))?;
    let records = load(&cfg.data)?;
    let mut workers: Vec<Worker> = (0..cfg.threads.max(1)).map(|_| Worker::new(net.layout, false)).collect();
    let loss = loss(&net, &records, cfg.spec, &mut workers);
    Ok(NetLoss { layout: net.layout, positions: records.len(), loss })
}
