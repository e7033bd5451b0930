//! The evaluation as the tuner sees it: a function of one flat parameter vector, computed
//! from a traced position in floating point, with its gradient.
//!
//! Parameters: for each flat weight `i` (see `eval::layout`), its middlegame half at `2i` and
//! its endgame half at `2i + 1`; then one scale factor per [`ScaleCase`] at `2 * COUNT + case`.
//!
//! For one position, with `c_i` its linear counts, `d_i^w`/`d_i^b` the king-danger counts of
//! white and black as attackers, `ρ = phase / 24`:
//!
//! ```text
//! u^x   = Σ w_i · d_i^x                                  (danger units of attacker x)
//! mg    = Σ w_i.mg · c_i + max(u^w.mg, 0)² / DM − max(u^b.mg, 0)² / DM
//! eg    = Σ w_i.eg · c_i + u^w.eg / DE − u^b.eg / DE
//! v     = ρ · mg + (1 − ρ) · eg
//! E     = v · f / 64,   f = factor of the scale case of the side v favours
//! ```
//!
//! which is the engine's integer evaluation without its rounding. The gradient follows by the
//! chain rule (the case choice is piecewise constant; `max` has derivative 0 below zero).

use super::dataset::{scale_case, Dataset, Position};
use crate::eval::layout::{self, COUNT};
use crate::eval::params::{KING_DANGER_EG_DIV, KING_DANGER_MG_DIV, PHASE_TOTAL, SCALE_NORMAL};
use crate::eval::scale::ScaleCase;
use crate::eval::S;

/// Number of parameters.
pub const PARAMS: usize = 2 * COUNT + ScaleCase::ALL.len();

/// Index of the factor of `case`.
#[inline(always)]
pub fn scale_param(case: ScaleCase) -> usize {
    2 * COUNT + case.index()
}

/// The parameters compiled into this build.
pub fn current() -> Vec<f64> {
    let mut p = Vec::with_capacity(PARAMS);
    for w in layout::current() {
        p.push(w.mg() as f64);
        p.push(w.eg() as f64);
    }
    for case in ScaleCase::ALL {
        p.push(case.factor() as f64);
    }
    p
}

/// Rounds the parameters to the engine's integers: the weights and the scale factors.
pub fn to_integers(p: &[f64]) -> (Vec<S>, Vec<i32>) {
    let w = (0..COUNT).map(|i| S(p[2 * i].round() as i32, p[2 * i + 1].round() as i32)).collect();
    let f = ScaleCase::ALL.iter().map(|&c| p[scale_param(c)].round() as i32).collect();
    (w, f)
}

/// What the backward pass needs from the forward pass.
pub struct Forward {
    /// The evaluation, centipawns, white's view.
    pub value: f64,
    rho: f64,
    /// `f / 64` of the case used.
    scale: f64,
    /// The tapered value before scaling, `v`.
    tapered: f64,
    case: ScaleCase,
    /// Danger units of white and black, when counted.
    units: [Option<(f64, f64)>; 2],
}

/// The evaluation of `pos` under parameters `p`.
#[inline]
pub fn forward(p: &[f64], data: &Dataset, pos: &Position) -> Forward {
    let (linear, danger) = data.features(pos);
    let (mut mg, mut eg) = (0.0, 0.0);
    for f in linear {
        let i = 2 * f.index as usize;
        let n = f.count as f64;
        mg += p[i] * n;
        eg += p[i + 1] * n;
    }
    let mut units = [None; 2];
    for (side, features) in danger.iter().enumerate() {
        if pos.danger_seen & (1 << side) == 0 {
            continue;
        }
        let (mut um, mut ue) = (0.0, 0.0);
        for f in *features {
            let i = 2 * f.index as usize;
            let n = f.count as f64;
            um += p[i] * n;
            ue += p[i + 1] * n;
        }
        let sign = if side == 0 { 1.0 } else { -1.0 };
        let pm = f64::max(um, 0.0);
        mg += sign * pm * pm / KING_DANGER_MG_DIV as f64;
        eg += sign * ue / KING_DANGER_EG_DIV as f64;
        units[side] = Some((um, ue));
    }
    let rho = pos.phase as f64 / PHASE_TOTAL as f64;
    let tapered = rho * mg + (1.0 - rho) * eg;
    let case = scale_case(pos.scale[if tapered >= 0.0 { 0 } else { 1 }]);
    let scale = p[scale_param(case)] / SCALE_NORMAL as f64;
    Forward { value: tapered * scale, rho, scale, tapered, case, units }
}

/// Adds `g · dE/dp` to `grad`, for the position `forward` was computed on.
#[inline]
pub fn backward(fw: &Forward, g: f64, data: &Dataset, pos: &Position, grad: &mut [f64]) {
    let (linear, danger) = data.features(pos);
    let gm = g * fw.scale * fw.rho;
    let ge = g * fw.scale * (1.0 - fw.rho);
    for f in linear {
        let i = 2 * f.index as usize;
        let n = f.count as f64;
        grad[i] += gm * n;
        grad[i + 1] += ge * n;
    }
    for (side, features) in danger.iter().enumerate() {
        let Some((um, _)) = fw.units[side] else { continue };
        let sign = if side == 0 { 1.0 } else { -1.0 };
        // d(max(u,0)²/DM)/du = 2·max(u,0)/DM; d(u/DE)/du = 1/DE.
        let dm = sign * 2.0 * um.max(0.0) / KING_DANGER_MG_DIV as f64;
        let de = sign / KING_DANGER_EG_DIV as f64;
        for f in *features {
            let i = 2 * f.index as usize;
            let n = f.count as f64;
            grad[i] += gm * dm * n;
            grad[i + 1] += ge * de * n;
        }
    }
    if ScaleCase::TUNED.contains(&fw.case) {
        grad[scale_param(fw.case)] += g * fw.tapered / SCALE_NORMAL as f64;
    }
}

/// The logistic function mapping centipawns to an expected score with scale `k`.
#[inline(always)]
pub fn sigmoid(k: f64, cp: f64) -> f64 {
    1.0 / (1.0 + (-k * cp).exp())
}
