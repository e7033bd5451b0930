//! Fitting the win/draw/loss model of [`crate::eval::wdl`] to self-play results
//! (`horizon wdl-fit`).
//!
//! Every position of the binary data files is counted in a histogram cell of (material,
//! score rounded to `SCORE_BIN` centipawns, clamped to `SCORE_CLAMP`) with the game's
//! result, from White's point of view. The six coefficients of `a(x)` and `b(x)` are then
//! fitted to the training cells by maximum likelihood (Adam on the mean negative
//! log-likelihood of the observed results). The last `holdout` share of each file is kept
//! out: datagen writes each game's positions together, so this holds out whole games
//! (except at most one game cut at the boundary), and the fit's log loss and Brier score
//! there are compared with a constant model that predicts the training set's overall
//! win/draw/loss frequencies for every position.

use crate::data::read::{for_each_record, record_count, FileError, LoadStats};
use crate::data::record::{Record, RESULT_BLACK_WINS, RESULT_DRAW};
use crate::eval::wdl::{probabilities, MATERIAL_MAX, MATERIAL_MIN, MATERIAL_VALUES};
use std::fmt;

/// Scores are rounded to this many centipawns for the histogram.
pub const SCORE_BIN: i32 = 4;
/// Scores beyond this (mates, tablebase wins, lopsided positions) count as this.
pub const SCORE_CLAMP: i32 = 2000;
/// Optimiser steps and step size (centipawns per step for the constant terms).
pub const STEPS: usize = 4000;
pub const LEARNING_RATE: f64 = 0.5;
/// Probabilities are kept at least this far from 0 in the log loss.
const PROBABILITY_FLOOR: f64 = 1e-9;

const MATERIALS: usize = (MATERIAL_MAX - MATERIAL_MIN + 1) as usize;
const BINS: usize = (2 * SCORE_CLAMP / SCORE_BIN + 1) as usize;

/// Why a fit could not be made.
#[derive(Debug)]
pub enum WdlFitError {
    /// A data file could not be read or is not training data.
    Data(FileError),
    /// No position to fit on, or none held out.
    TooFew { train: u64, holdout: u64 },
}

impl fmt::Display for WdlFitError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            WdlFitError::Data(e) => write!(f, "{e}"),
            WdlFitError::TooFew { train, holdout } => {
                write!(f, "too few positions: {train} to fit on and {holdout} held out (both must be > 0)")
            }
        }
    }
}

impl std::error::Error for WdlFitError {}

/// Counts of white wins, draws and white losses per (material, score bin).
#[derive(Clone)]
pub struct Histogram {
    cells: Vec<[f64; 3]>,
    pub positions: u64,
}

impl Default for Histogram {
    fn default() -> Self {
        Histogram { cells: vec![[0.0; 3]; MATERIALS * BINS], positions: 0 }
    }
}

impl Histogram {
    /// Counts one position: material on the model's scale, White's score and result byte.
    pub fn add(&mut self, material: i32, white_score: i32, result: u8) {
        let m = (material.clamp(MATERIAL_MIN, MATERIAL_MAX) - MATERIAL_MIN) as usize;
        let s = white_score.clamp(-SCORE_CLAMP, SCORE_CLAMP);
        let bin = ((s + SCORE_CLAMP) as f64 / SCORE_BIN as f64).round() as usize;
        let outcome = match result {
            RESULT_BLACK_WINS => 2,
            RESULT_DRAW => 1,
            _ => 0,
        };
        self.cells[m * BINS + bin][outcome] += 1.0;
        self.positions += 1;
    }

    /// Every non-empty cell as (material, score, [wins, draws, losses]).
    fn occupied(&self) -> impl Iterator<Item = (i32, f64, [f64; 3])> + '_ {
        self.cells.iter().enumerate().filter(|(_, c)| c[0] + c[1] + c[2] > 0.0).map(|(i, c)| {
            let material = (i / BINS) as i32 + MATERIAL_MIN;
            let score = ((i % BINS) as i32 * SCORE_BIN - SCORE_CLAMP) as f64;
            (material, score, *c)
        })
    }

    /// White's win, draw and loss frequencies.
    pub fn frequencies(&self) -> [f64; 3] {
        let mut t = [0.0; 3];
        for (_, _, c) in self.occupied() {
            for k in 0..3 {
                t[k] += c[k];
            }
        }
        let n = (t[0] + t[1] + t[2]).max(1.0);
        [t[0] / n, t[1] / n, t[2] / n]
    }
}

/// The material of a record on the model's scale (unclamped).
pub fn record_material(r: &Record) -> i32 {
    r.pieces().map(|(_, _, p)| MATERIAL_VALUES[p.index()]).sum()
}

/// How well a model predicts a histogram's results (means over positions).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Metrics {
    /// Mean negative log-likelihood of the observed result.
    pub log_loss: f64,
    /// Mean of the squared differences between the predicted probabilities and the
    /// one-hot observed result, summed over win, draw and loss.
    pub brier: f64,
}

/// Scores a model, given as a function from (material, score) to (win, draw, loss).
pub fn metrics(h: &Histogram, model: impl Fn(i32, f64) -> [f64; 3]) -> Metrics {
    let (mut log_loss, mut brier, mut n) = (0.0, 0.0, 0.0);
    for (material, score, c) in h.occupied() {
        let p = model(material, score);
        for k in 0..3 {
            if c[k] == 0.0 {
                continue;
            }
            log_loss -= c[k] * p[k].max(PROBABILITY_FLOOR).ln();
            let squared: f64 = (0..3).map(|j| (p[j] - if j == k { 1.0 } else { 0.0 }).powi(2)).sum();
            brier += c[k] * squared;
            n += c[k];
        }
    }
    let n = n.max(1.0);
    Metrics { log_loss: log_loss / n, brier: brier / n }
}

/// The model's (win, draw, loss) with coefficients `a`, `b`.
pub fn model_probabilities(a: &[f64; 3], b: &[f64; 3], material: i32, score: f64) -> [f64; 3] {
    let (w, l) = probabilities(a, b, score, material);
    [w, (1.0 - w - l).max(0.0), l]
}

/// The mean negative log-likelihood of `h` under coefficients `a`, `b` and its gradient
/// with respect to the six coefficients (a0, a1, a2, b0, b1, b2).
pub fn loss_and_gradient(h: &Histogram, a: &[f64; 3], b: &[f64; 3]) -> (f64, [f64; 6]) {
    let mut loss = 0.0;
    let mut grad = [0.0; 6];
    let mut n = 0.0;
    for (material, v, c) in h.occupied() {
        let x = material.clamp(MATERIAL_MIN, MATERIAL_MAX) as f64 / crate::eval::wdl::MATERIAL_NORM;
        let powers = [1.0, x, x * x];
        let centre = a[0] + x * (a[1] + x * a[2]);
        let raw_width = b[0] + x * (b[1] + x * b[2]);
        let width = raw_width.max(crate::eval::wdl::MIN_WIDTH);
        let u = (v - centre) / width;
        let w = (-v - centre) / width;
        let pw = 1.0 / (1.0 + (-u).exp());
        let pl = 1.0 / (1.0 + (-w).exp());
        let pd = (1.0 - pw - pl).max(PROBABILITY_FLOOR);
        let (pw, pl) = (pw.max(PROBABILITY_FLOOR), pl.max(PROBABILITY_FLOOR));
        loss -= c[0] * pw.ln() + c[1] * pd.ln() + c[2] * pl.ln();
        n += c[0] + c[1] + c[2];
        // d pW / d centre = -pW (1 - pW) / width, d pW / d width = -pW (1 - pW) u / width;
        // the same for pL with w.
        let dpw = pw * (1.0 - pw);
        let dpl = pl * (1.0 - pl);
        let dpw_dc = -dpw / width;
        let dpl_dc = -dpl / width;
        let dpw_dw = -dpw * u / width;
        let dpl_dw = -dpl * w / width;
        // d loss / d p for each outcome; the draw probability moves against the other two.
        let gw = -c[0] / pw + c[1] / pd;
        let gl = -c[2] / pl + c[1] / pd;
        let d_centre = gw * dpw_dc + gl * dpl_dc;
        let d_width = if raw_width > crate::eval::wdl::MIN_WIDTH { gw * dpw_dw + gl * dpl_dw } else { 0.0 };
        for i in 0..3 {
            grad[i] += d_centre * powers[i];
            grad[3 + i] += d_width * powers[i];
        }
    }
    let n = n.max(1.0);
    (loss / n, grad.map(|g| g / n))
}

/// A fitted model and how it does.
#[derive(Clone, Debug)]
pub struct Fit {
    pub a: [f64; 3],
    pub b: [f64; 3],
    pub train_positions: u64,
    pub holdout_positions: u64,
    pub train: Metrics,
    pub holdout: Metrics,
    /// The constant model (the training set's frequencies) on the held-out positions.
    pub holdout_constant: Metrics,
    /// The training set's white win, draw and loss frequencies.
    pub frequencies: [f64; 3],
}

/// Fits the coefficients to `train` (Adam, `STEPS` full-histogram steps) from a start of
/// a = 150, b = 80 centipawns.
pub fn fit_histogram(train: &Histogram) -> ([f64; 3], [f64; 3]) {
    let mut theta = [150.0, 0.0, 0.0, 80.0, 0.0, 0.0];
    let (beta1, beta2, eps) = (0.9, 0.999, 1e-8);
    let mut m = [0.0; 6];
    let mut v = [0.0; 6];
    for step in 1..=STEPS {
        let a = [theta[0], theta[1], theta[2]];
        let b = [theta[3], theta[4], theta[5]];
        let (_, g) = loss_and_gradient(train, &a, &b);
        for i in 0..6 {
            m[i] = beta1 * m[i] + (1.0 - beta1) * g[i];
            v[i] = beta2 * v[i] + (1.0 - beta2) * g[i] * g[i];
            let m_hat = m[i] / (1.0 - beta1.powi(step as i32));
            let v_hat = v[i] / (1.0 - beta2.powi(step as i32));
            theta[i] -= LEARNING_RATE * m_hat / (v_hat.sqrt() + eps);
        }
    }
    ([theta[0], theta[1], theta[2]], [theta[3], theta[4], theta[5]])
}

/// Reads `paths` (binary training data), holds out the last `holdout` share of each file,
/// and fits the model.
pub fn fit_files(paths: &[String], holdout: f64) -> Result<Fit, WdlFitError> {
    let mut train = Histogram::default();
    let mut held = Histogram::default();
    for path in paths {
        let count = record_count(path).map_err(WdlFitError::Data)?;
        let first_held = count - (count as f64 * holdout).round() as u64;
        let file = std::fs::File::open(path).map_err(|e| WdlFitError::Data(FileError::read(path, e)))?;
        let mut stats = LoadStats::default();
        let mut index = 0u64;
        for_each_record(path, std::io::BufReader::new(file), &mut stats, |_, r| {
            let target = if index < first_held { &mut train } else { &mut held };
            target.add(record_material(r), r.score as i32, r.result);
            index += 1;
        })
        .map_err(WdlFitError::Data)?;
    }
    if train.positions == 0 || held.positions == 0 {
        return Err(WdlFitError::TooFew { train: train.positions, holdout: held.positions });
    }
    let (a, b) = fit_histogram(&train);
    let frequencies = train.frequencies();
    Ok(Fit {
        a,
        b,
        train_positions: train.positions,
        holdout_positions: held.positions,
        train: metrics(&train, |m, s| model_probabilities(&a, &b, m, s)),
        holdout: metrics(&held, |m, s| model_probabilities(&a, &b, m, s)),
        holdout_constant: metrics(&held, |_, _| frequencies),
        frequencies,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Results drawn from a known model are fitted back to it, and the gradient matches
    /// central differences.
    #[test]
    fn recovers_a_known_model_and_gradient_is_right() {
        let truth_a = [120.0, 60.0, -20.0];
        let truth_b = [50.0, 40.0, 0.0];
        let mut h = Histogram::default();
        // Expected counts instead of samples: the fit must land on the truth exactly.
        for m in (MATERIAL_MIN..=MATERIAL_MAX).step_by(3) {
            for s in (-1200..=1200).step_by(SCORE_BIN as usize * 5) {
                let p = model_probabilities(&truth_a, &truth_b, m, s as f64);
                let bin = (s + SCORE_CLAMP) / SCORE_BIN;
                let cell = &mut h.cells[(m - MATERIAL_MIN) as usize * BINS + bin as usize];
                for k in 0..3 {
                    cell[k] += 1000.0 * p[k];
                }
                h.positions += 1000;
            }
        }
        let a = [100.0, 10.0, 5.0];
        let b = [70.0, 5.0, 3.0];
        let (_, g) = loss_and_gradient(&h, &a, &b);
        let eps = 1e-4;
        for i in 0..6 {
            let mut up = [a, b];
            let mut down = [a, b];
            up[i / 3][i % 3] += eps;
            down[i / 3][i % 3] -= eps;
            let numeric =
                (loss_and_gradient(&h, &up[0], &up[1]).0 - loss_and_gradient(&h, &down[0], &down[1]).0) / (2.0 * eps);
            assert!((numeric - g[i]).abs() < 1e-6 + 1e-3 * numeric.abs(), "coefficient {i}: {numeric} vs {}", g[i]);
        }
        let (fa, fb) = fit_histogram(&h);
        for m in [20, 40, 60, 78] {
            for s in [-300.0, 0.0, 150.0, 600.0] {
                let got = model_probabilities(&fa, &fb, m, s);
                let want = model_probabilities(&truth_a, &truth_b, m, s);
                for k in 0..3 {
                    assert!((got[k] - want[k]).abs() < 0.01, "m {m} s {s}: {got:?} vs {want:?}");
                }
            }
        }
    }

    #[test]
    fn metrics_of_a_perfect_and_a_constant_model() {
        let mut h = Histogram::default();
        h.add(40, 300, crate::data::record::RESULT_WHITE_WINS);
        h.add(40, -300, RESULT_BLACK_WINS);
        let perfect = metrics(&h, |_, s| if s > 0.0 { [1.0, 0.0, 0.0] } else { [0.0, 0.0, 1.0] });
        assert!(perfect.log_loss.abs() < 1e-12 && perfect.brier.abs() < 1e-12);
        let constant = metrics(&h, |_, _| h.frequencies());
        // Half win, half loss: each position's Brier score is 0.25 + 0 + 0.25.
        assert!((constant.brier - 0.5).abs() < 1e-12, "{constant:?}");
    }
}
