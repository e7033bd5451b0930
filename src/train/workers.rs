//! The trainer's threads: each one's gradient, loss and scratch buffers, kept across
//! batches, and the mean loss of a set of positions computed on all of them (validation,
//! holdout files, `horizon net-loss`).

use super::network::{run_slice, Layout, LossSpec, Scratch};
use crate::data::record::RawRecord;

/// One thread's gradient, loss and scratch buffers, kept across batches.
pub struct Worker {
    pub grad: Vec<f32>,
    pub loss: f64,
    pub scratch: Scratch,
}

impl Worker {
    /// A worker for the layout `l`; `with_gradient` false for one that only measures losses.
    pub fn new(l: Layout, with_gradient: bool) -> Worker {
        let grad = if with_gradient { vec![0.0; l.param_count()] } else { Vec::new() };
        Worker { grad, loss: 0.0, scratch: Scratch::new(l.n) }
    }
}

/// The mean loss of `records` (forward only), over `workers.len()` threads; 0 without records.
pub fn mean_loss(params: &[f32], l: Layout, records: &[RawRecord], spec: LossSpec, workers: &mut [Worker]) -> f64 {
    if records.is_empty() {
        return 0.0;
    }
    let per = records.len().div_ceil(workers.len());
    std::thread::scope(|s| {
        for (chunk, w) in records.chunks(per).zip(workers.iter_mut()) {
            s.spawn(move || w.loss = run_slice(params, l, chunk, spec, None, &mut w.scratch));
        }
    });
    let sum: f64 = workers.iter().take(records.len().div_ceil(per)).map(|w| w.loss).sum();
    sum / records.len() as f64
}
