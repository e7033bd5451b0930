//! The integers of a network file: the trainer's float parameters quantised (with the clip
//! that keeps the engine's output sum inside i32), read back from a `.nnue` file of any
//! hidden size, and turned into floats again for the trainer's loss.
//!
//! Quantisation (`docs/nnue.md`): feature weights and biases `round(x · QA)`, output weights
//! `round(x · QB)`, output biases `round(x · QA · QB)`. The engine sums `screlu · w` over one
//! bucket's output weights in i32; that sum cannot overflow when the bucket's positive
//! weights, and its negative weights' magnitudes, each sum to at most
//! [`MAX_OUTPUT_WEIGHT_SUM`] (the reader refuses a file past it), so [`Quantised::of_params`]
//! clips each bucket's weights to it ([`clip_output_sums`]). A trained network is far inside
//! the bound (the embedded one's largest sum is 3721 of 33025): the clip is a guarantee, not
//! a part of training.

use super::network::{Layout, FEATURE_CLIP};
use crate::eval::nnue::network::{header_bytes, NetworkError, Shape, MAX_OUTPUT_WEIGHT_SUM};
use crate::eval::nnue::{QA, QB};
use crate::hash::fnv1a64;

/// The integers of a network file, in the file's order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Quantised {
    pub layout: Layout,
    /// Feature weights `[I][N]` (with a factoriser, its sums), then the feature bias `[N]`:
    /// `round(x · QA)`.
    pub first_layer: Vec<i16>,
    /// Output weights `[B][2N]`: `round(x · QB)`, each bucket clipped.
    pub output_weights: Vec<i16>,
    /// Output biases `[B]`: `round(x · QA · QB)`.
    pub output_bias: Vec<i32>,
    /// The buckets whose output weights [`clip_output_sums`] had to change.
    pub clipped: Vec<usize>,
}

/// `round(x · scale)` as an i16, saturating (clipping during training keeps it in range).
fn q16(x: f32, scale: i32) -> i16 {
    (x * scale as f32).round().clamp(i16::MIN as f32, i16::MAX as f32) as i16
}

/// `round(x · QA · QB)` as an i32, saturating.
fn q32(x: f32) -> i32 {
    (x as f64 * (QA * QB) as f64).round().clamp(i32::MIN as f64, i32::MAX as f64) as i32
}

/// Clips one bucket's output weights so that its positive weights sum to at most
/// [`MAX_OUTPUT_WEIGHT_SUM`], and its negative weights' magnitudes too: the weights of one
/// sign larger in magnitude than a cap `c` become `±c`, with `c` the largest cap that keeps
/// the sum within the bound; smaller weights are kept. Returns whether anything changed
/// (nothing does for weights within the bound).
pub fn clip_output_sums(weights: &mut [i16]) -> bool {
    let mut changed = false;
    for sign in [1i64, -1] {
        let magnitude = |w: i16| (w as i64 * sign).max(0);
        let capped = |cap: i64| weights.iter().map(|&w| magnitude(w).min(cap)).sum::<i64>();
        if capped(i64::MAX) <= MAX_OUTPUT_WEIGHT_SUM {
            continue;
        }
        // The capped sum grows with the cap: bisect between a cap that fits (0) and one that
        // does not (the largest magnitude, 32768).
        let (mut fits, mut over) = (0i64, -(i16::MIN as i64));
        while over - fits > 1 {
            let mid = (fits + over) / 2;
            if capped(mid) <= MAX_OUTPUT_WEIGHT_SUM {
                fits = mid;
            } else {
                over = mid;
            }
        }
        for w in weights.iter_mut() {
            if magnitude(*w) > fits {
                // `fits` < 32768, so `±fits` is an i16.
                *w = (sign * fits) as i16;
            }
        }
        changed = true;
    }
    changed
}

impl Quantised {
    /// The file's integers for float parameters `params` laid out as `l`, each bucket's
    /// output weights clipped to the bound.
    pub fn of_params(params: &[f32], l: Layout) -> Quantised {
        // The file's feature weights are the factoriser's sums, clipped as training clips
        // each part (so accumulators stay as far inside i16 as without a factoriser).
        let merged = l.merged_feature_weights(params).into_iter().map(|x| x.clamp(-FEATURE_CLIP, FEATURE_CLIP));
        let first_layer = merged.chain(params[l.b()].iter().copied()).map(|x| q16(x, QA)).collect();
        let mut output_weights: Vec<i16> = params[l.ow()].iter().map(|&x| q16(x, QB)).collect();
        let mut clipped = Vec::new();
        for (bucket, weights) in output_weights.chunks_exact_mut(2 * l.n).enumerate() {
            if clip_output_sums(weights) {
                clipped.push(bucket);
            }
        }
        let output_bias = params[l.ob()].iter().map(|&x| q32(x)).collect();
        let layout = Layout::of_file(l.n, l.buckets, l.features);
        Quantised { layout, first_layer, output_weights, output_bias, clipped }
    }

    /// The `.nnue` file (the layout of `docs/nnue.md`).
    pub fn to_bytes(&self) -> Vec<u8> {
        let l = self.layout;
        let mut out = Vec::with_capacity(Shape::written(l.n, l.buckets, l.features).file_size());
        out.extend_from_slice(&header_bytes(l.n, l.buckets, l.features));
        for w in self.first_layer.iter().chain(&self.output_weights) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for b in &self.output_bias {
            out.extend_from_slice(&b.to_le_bytes());
        }
        let sum = fnv1a64(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads the `.nnue` file at `path` ([`Quantised::from_bytes`]).
    pub fn read(path: &str) -> Result<Quantised, NetworkError> {
        let bytes =
            std::fs::read(path).map_err(|e| NetworkError::Read { path: path.to_string(), reason: e.to_string() })?;
        Quantised::from_bytes(&bytes)
    }

    /// Reads a `.nnue` file of any hidden size the format allows, with every check of the
    /// engine's reader but the build's hidden size ([`Shape::of_file`]).
    pub fn from_bytes(bytes: &[u8]) -> Result<Quantised, NetworkError> {
        let shape = Shape::of_file(bytes)?;
        let l = Layout::of_file(shape.hidden, shape.buckets, shape.features);
        let i16s = |from: usize, to: usize| -> Vec<i16> {
            bytes[from..to].chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]])).collect()
        };
        let first_layer = i16s(shape.feature_weights_at(), shape.output_weights_at(0));
        let output_weights = i16s(shape.output_weights_at(0), shape.output_bias_at(0));
        let output_bias = (0..l.buckets)
            .map(|k| {
                let at = shape.output_bias_at(k);
                i32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
            })
            .collect();
        Ok(Quantised { layout: l, first_layer, output_weights, output_bias, clipped: Vec::new() })
    }

    /// The float parameters these integers stand for (each divided by its quantisation
    /// factor), laid out as [`Quantised::layout`]: the trainer's forward pass on them is the
    /// written network's.
    pub fn to_params(&self) -> Vec<f32> {
        let first = self.first_layer.iter().map(|&w| w as f32 / QA as f32);
        let output = self.output_weights.iter().map(|&w| w as f32 / QB as f32);
        let bias = self.output_bias.iter().map(|&b| (b as f64 / (QA * QB) as f64) as f32);
        let params: Vec<f32> = first.chain(output).chain(bias).collect();
        debug_assert_eq!(params.len(), self.layout.param_count());
        params
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::FeatureSet;

    /// The positive and the negative weights' magnitudes, summed.
    fn sums(w: &[i16]) -> (i64, i64) {
        w.iter().fold((0, 0), |(p, m), &x| if x > 0 { (p + x as i64, m) } else { (p, m - x as i64) })
    }

    #[test]
    fn clipping_keeps_weights_within_the_bound_and_changes_nothing_else() {
        // Within the bound: untouched.
        let mut small: Vec<i16> = (0..512).map(|j| (j % 129) as i16 - 64).collect();
        let keep = small.clone();
        assert!(!clip_output_sums(&mut small));
        assert_eq!(small, keep);
        // Exactly at the bound: untouched; one past: the largest weights give way.
        let mut at = vec![64i16; 512];
        at[..257].iter_mut().for_each(|w| *w = 65);
        assert_eq!(sums(&at), (MAX_OUTPUT_WEIGHT_SUM, 0));
        assert!(!clip_output_sums(&mut at));
        at[0] = 66;
        assert!(clip_output_sums(&mut at));
        assert_eq!(sums(&at).0, MAX_OUTPUT_WEIGHT_SUM);
        // Far past on both sides, with the extreme i16 values: each side clipped to at most
        // the bound, as close to it as one cap allows, the small weights kept.
        let mut big: Vec<i16> = (0..512)
            .map(|j| match j % 4 {
                0 => i16::MAX,
                1 => i16::MIN,
                2 => 3,
                _ => -5,
            })
            .collect();
        assert!(clip_output_sums(&mut big));
        let (p, m) = sums(&big);
        assert!(p <= MAX_OUTPUT_WEIGHT_SUM && p > MAX_OUTPUT_WEIGHT_SUM - 128, "{p}");
        assert!(m <= MAX_OUTPUT_WEIGHT_SUM && m > MAX_OUTPUT_WEIGHT_SUM - 128, "{m}");
        assert!(big.iter().skip(2).step_by(4).all(|&w| w == 3));
        assert!(big.iter().skip(3).step_by(4).all(|&w| w == -5));
    }

    #[test]
    fn the_exporter_clips_what_would_overflow_and_the_file_reads_back() {
        let l = Layout::new(16, 3, FeatureSet::Plain);
        let mut params = vec![0.01f32; l.param_count()];
        // Bucket 1: every weight at the trainer's clip (32767 / 64), far past the bound;
        // bucket 2: large negative weights; bucket 0: small weights.
        params[l.ow_of(1)].iter_mut().for_each(|x| *x = i16::MAX as f32 / QB as f32);
        params[l.ow_of(2)].iter_mut().for_each(|x| *x = -300.0);
        let q = Quantised::of_params(&params, l);
        assert_eq!(q.clipped, [1, 2]);
        let bytes = q.to_bytes();
        assert_eq!(bytes.len(), Shape::written(16, 3, FeatureSet::Plain).file_size());
        let back = Quantised::from_bytes(&bytes).expect("within the bound");
        assert_eq!(back.output_weights, q.output_weights);
        assert_eq!((&back.first_layer, &back.output_bias), (&q.first_layer, &q.output_bias));
        for bucket in q.output_weights.chunks_exact(32) {
            let (p, m) = sums(bucket);
            assert!(p <= MAX_OUTPUT_WEIGHT_SUM && m <= MAX_OUTPUT_WEIGHT_SUM, "{p} {m}");
        }
        // The same weights unclipped are refused by the reader.
        let mut raw = q.clone();
        raw.output_weights[32] = i16::MAX;
        raw.output_weights[33] = i16::MAX;
        let e = Quantised::from_bytes(&raw.to_bytes()).unwrap_err();
        assert!(matches!(e, NetworkError::OutputOverflow { bucket: 1, .. }), "{e}");
        // Dequantised parameters: each integer over its factor.
        let p = back.to_params();
        assert_eq!(p.len(), l.param_count());
        assert_eq!(p[0], q16(0.01, QA) as f32 / QA as f32);
        assert_eq!(p[l.ob().start], (q32(0.01) as f64 / (QA * QB) as f64) as f32);
    }
}
