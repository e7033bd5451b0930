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
/// the prior, should shape the net); `--weight-decay`.
pub const WEIGHT_DECAY: f32 = 0.01;
/// Output weights are clipped to ±this so that `round(x · QB)` fits an i16.
pub const OUTPUT_CLIP: f32 = i16::MAX as f32 / QB as f32;

/// Decoupled weight decay rates, each a fraction of the learning rate per step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Decay {
    /// Every parameter's, but the king buckets' first-layer weights.
    pub base: f32,
    /// The first-layer weights of a layout with a factoriser (`--bucket-decay`): a larger
    /// rate pulls each bucket's own weights toward zero, so that what the buckets share is
    /// learnt by the factoriser (which decays at `base`) and only what the data shows them
    /// to differ in stays with the buckets.
    pub buckets: f32,
}

impl Decay {
    /// The same rate everywhere.
    pub fn uniform(rate: f32) -> Decay {
        Decay { base: rate, buckets: rate }
    }
}

/// What one update is told: the learning rate of this step and the decay rates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Step {
    pub lr: f32,
    pub decay: Decay,
}

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

    /// One update of `params` from the mean gradient `grad` at the step's learning rate and
    /// weight decay, then the clipping (first layer and factoriser to ±[`FEATURE_CLIP`],
    /// output weights to ±[`OUTPUT_CLIP`]).
    pub fn update(&mut self, params: &mut [f32], grad: &[f32], layout: Layout, Step { lr, decay }: Step) {
        self.step += 1;
        let t = self.step.min(i32::MAX as u64) as i32;
        // Bias corrections folded into the step size.
        let c1 = 1.0 - BETA1.powi(t);
        let c2 = 1.0 - BETA2.powi(t);
        let step_size = lr * c2.sqrt() / c1;
        // The layout's parameters start with the first-layer weights.
        let buckets_end = if layout.factoriser { layout.w().end } else { 0 };
        for (range, rate) in [(0..buckets_end, decay.buckets), (buckets_end..params.len(), decay.base)] {
            let keep = (1.0 - lr * rate).max(0.0);
            let moments = self.m[range.clone()].iter_mut().zip(&mut self.v[range.clone()]);
            for ((p, g), (m, v)) in params[range.clone()].iter_mut().zip(&grad[range]).zip(moments) {
                *m = BETA1 * *m + (1.0 - BETA1) * g;
                *v = BETA2 * *v + (1.0 - BETA2) * g * g;
                *p = *p * keep - step_size * *m / (v.sqrt() + EPSILON);
            }
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

#[cfg(test)]
mod tests {
    use super::{AdamW, Decay, Step};
    use crate::eval::nnue::FeatureSet;
    use crate::train::network::Layout;

    /// One update with a zero gradient: only the decay moves the parameters.
    fn decayed(layout: Layout, decay: Decay) -> Vec<f32> {
        let len = layout.param_count();
        let mut params = vec![1.0; len];
        AdamW::new(len).update(&mut params, &vec![0.0; len], layout, Step { lr: 0.01, decay });
        params
    }

    #[test]
    fn the_bucket_rate_decays_only_the_bucket_blocks() {
        let layout = Layout::new(8, 2, FeatureSet::MirroredKingBuckets);
        assert!(layout.factoriser);
        let p = decayed(layout, Decay { base: 1.0, buckets: 10.0 });
        assert!(p[layout.w()].iter().all(|&x| (x - 0.9).abs() < 1e-6));
        for range in [layout.b(), layout.ow(), layout.ob(), layout.fw()] {
            assert!(!range.is_empty());
            assert!(p[range].iter().all(|&x| (x - 0.99).abs() < 1e-6));
        }
        // The same rates everywhere decay every parameter alike.
        assert!(decayed(layout, Decay::uniform(1.0)).iter().all(|&x| (x - 0.99).abs() < 1e-6));
    }

    #[test]
    fn without_king_buckets_the_bucket_rate_is_unused() {
        for set in [FeatureSet::Plain, FeatureSet::Mirrored] {
            let layout = Layout::new(8, 2, set);
            let p = decayed(layout, Decay { base: 1.0, buckets: 50.0 });
            assert!(p.iter().all(|&x| (x - 0.99).abs() < 1e-6), "{set}");
        }
    }

    #[test]
    fn a_decay_larger_than_the_step_can_take_stops_at_zero() {
        let layout = Layout::new(8, 1, FeatureSet::Mirrored);
        let p = decayed(layout, Decay::uniform(100.0));
        assert!(p.iter().all(|&x| x == 0.0));
    }
}
