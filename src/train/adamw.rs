//! AdamW: Adam with decoupled weight decay, and the clipping the network file needs.

use super::export::QB;
use super::network::{Layout, FEATURE_CLIP};

/// First-moment decay.
pub const BETA1: f32 = 0.9;
/// Second-moment decay.
pub const BETA2: f32 = 0.999;
/// Added to the root of the second moment.
pub const EPSILON: f32 = 1e-8;
/// Decoupled weight decay per step, as a fraction of the learning rate (small: the data, not
/// the prior, should shape the net).
pub const WEIGHT_DECAY: f32 = 0.01;
/// Output weights are clipped to ±this so that `round(x · QB)` fits an i16.
pub const OUTPUT_CLIP: f32 = i16::MAX as f32 / QB as f32;

/// The optimiser state: both moments of every parameter and the step count.
#[derive(Clone, Debug, PartialEq)]
pub struct AdamW {
    pub m: Vec<f32>,
    pub v: Vec<f32>,
    pub step: u64,
}

impl AdamW {
    pub fn new(len: usize) -> AdamW {
        AdamW { m: vec![0.0; len], v: vec![0.0; len], step: 0 }
    }

    /// One update of `params` from the mean gradient `grad` at learning rate `lr`, then the
    /// clipping (first layer and factoriser to ±[`FEATURE_CLIP`], output weights to
    /// ±[`OUTPUT_CLIP`]).
    pub fn update(&mut self, params: &mut [f32], grad: &[f32], lr: f32, layout: Layout) {
        self.step += 1;
        let t = self.step.min(i32::MAX as u64) as i32;
        // Bias corrections folded into the step size.
        let c1 = 1.0 - BETA1.powi(t);
        let c2 = 1.0 - BETA2.powi(t);
        let step_size = lr * c2.sqrt() / c1;
        let decay = 1.0 - lr * WEIGHT_DECAY;
        for (((p, g), m), v) in params.iter_mut().zip(grad).zip(self.m.iter_mut()).zip(self.v.iter_mut()) {
            *m = BETA1 * *m + (1.0 - BETA1) * g;
            *v = BETA2 * *v + (1.0 - BETA2) * g * g;
            *p = *p * decay - step_size * *m / (v.sqrt() + EPSILON);
        }
        for block in [layout.w().start..layout.b().end, layout.fw()] {
            for p in &mut params[block] {
                *p = p.clamp(-FEATURE_CLIP, FEATURE_CLIP);
            }
        }
        for p in &mut params[layout.ow()] {
            *p = p.clamp(-OUTPUT_CLIP, OUTPUT_CLIP);
        }
    }
}
