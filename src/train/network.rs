//! The float network the trainer fits, and its forward/backward pass.
//!
//! Architecture (the `.nnue` file's, see [`super::export`]): 768 inputs per perspective
//! (`(side * 6 + piece) * 64 + square`, `side` 0 for the perspective's own pieces, the square
//! flipped vertically for Black), a hidden layer of `N` neurons shared by both perspectives,
//! SCReLU (`clamp(x, 0, 1)²`), and one output from `[side to move, other side]`:
//! `out = Σ screlu(us)·ow[..N] + Σ screlu(them)·ow[N..] + ob`, with `out · SCALE ≈ centipawns`,
//! where `ow` and `ob` are those of the position's output bucket (one of `B`, chosen by the
//! number of pieces: `eval::nnue::output_bucket`). In the mirrored feature sets a
//! perspective whose own king stands on files a–d sees every square mirrored left–right too,
//! and with king buckets it uses the 768 inputs of its king's bucket (`eval::nnue::View`),
//! exactly as the engine does.
//!
//! # The factoriser
//! With king buckets, each bucket's weights see only the positions with the king in that
//! bucket. The trainer therefore also fits one shared block of 768 weights, the factoriser,
//! added to every bucket's: feature `f` of bucket `k` has the weight `W[k·768 + f] + F[f]`.
//! What all buckets share is learnt from all positions, and each bucket's block learns only
//! its difference. The file holds the sums (the engine never sees `F`), so the factoriser
//! costs nothing in play.
//!
//! All parameters live in one flat `f32` vector (see [`Layout`]) so the optimiser, the
//! gradient reduction and checkpoints treat them alike.

use crate::data::record::RawRecord;
use crate::eval::nnue::{output_bucket, raw_feature_index, FeatureSet, View, SCALE};
use crate::rng::SplitMix64;
use crate::types::Color;

/// Inputs per perspective (2 sides × 6 pieces × 64 squares), the hidden sizes the file
/// format allows (a multiple of `HIDDEN_MULTIPLE`, also the width of the partial sums below,
/// up to `MAX_HIDDEN`): the engine's definitions.
pub use crate::eval::nnue::network::{HIDDEN_MULTIPLE, MAX_HIDDEN};
pub use crate::eval::nnue::{INPUTS, MAX_OUTPUT_BUCKETS};
/// Most pieces on the board, hence active features per perspective.
pub const MAX_ACTIVE: usize = 32;
/// Initial first-layer weights are uniform in ±this (30 active inputs give accumulators of
/// a few tenths, inside SCReLU's live range).
pub const INIT_FEATURE_RANGE: f32 = 0.1;
/// Initial output weights are uniform in ±this.
pub const INIT_OUTPUT_RANGE: f32 = 0.1;
/// First-layer weights and biases are clipped to ±this (255 × 1.98 and 32 of them summed
/// stay far inside i16 after quantisation).
pub const FEATURE_CLIP: f32 = 1.98;

/// The network's shape: where each parameter block lies in the flat vector, for hidden size
/// `n`, `buckets` output buckets (with one bucket it is the layout from before output
/// buckets) and the input feature set (which decides the number of inputs `I`, 768 per king
/// bucket, and which features a position activates), and whether a factoriser follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub n: usize,
    pub buckets: usize,
    pub features: FeatureSet,
    /// A factoriser block (see the module documentation) after the output biases: the
    /// trainer's layout for a set with king buckets ([`Layout::new`]); a network read from
    /// a file has none.
    pub factoriser: bool,
}

impl Layout {
    /// The trainer's layout: with a factoriser exactly when the set has king buckets.
    pub fn new(n: usize, buckets: usize, features: FeatureSet) -> Layout {
        Layout { n, buckets, features, factoriser: features.king_buckets() > 1 }
    }
    /// The layout of a network file's parameters: no factoriser.
    pub fn of_file(n: usize, buckets: usize, features: FeatureSet) -> Layout {
        Layout { n, buckets, features, factoriser: false }
    }
    /// The layout of a plain network with one output bucket.
    pub fn single(n: usize) -> Layout {
        Layout::new(n, 1, FeatureSet::Plain)
    }
    /// Inputs per perspective: 768 per king bucket.
    fn inputs(&self) -> usize {
        self.features.inputs()
    }
    /// Feature weights `[I][n]`, feature-major.
    pub fn w(&self) -> std::ops::Range<usize> {
        0..self.inputs() * self.n
    }
    /// Feature bias `[n]`.
    pub fn b(&self) -> std::ops::Range<usize> {
        self.inputs() * self.n..(self.inputs() + 1) * self.n
    }
    /// Output weights `[buckets][2n]`: per bucket, side to move first.
    pub fn ow(&self) -> std::ops::Range<usize> {
        (self.inputs() + 1) * self.n..(self.inputs() + 1 + 2 * self.buckets) * self.n
    }
    /// The output weights `[2n]` of bucket `k`.
    pub fn ow_of(&self, k: usize) -> std::ops::Range<usize> {
        let start = (self.inputs() + 1 + 2 * k) * self.n;
        start..start + 2 * self.n
    }
    /// Output biases `[buckets]`.
    pub fn ob(&self) -> std::ops::Range<usize> {
        let start = self.ow().end;
        start..start + self.buckets
    }
    /// The factoriser `[768][n]` (empty without one).
    pub fn fw(&self) -> std::ops::Range<usize> {
        let start = self.ob().end;
        start..start + if self.factoriser { INPUTS * self.n } else { 0 }
    }
    /// The number of parameters (a layout is not a collection, so not `len`).
    pub fn param_count(&self) -> usize {
        self.fw().end
    }
    /// The feature weights the network file holds, `[I][n]`: those of [`Layout::w`], each
    /// plus its factoriser weight when there is one.
    pub fn merged_feature_weights(&self, params: &[f32]) -> Vec<f32> {
        let mut w = params[self.w()].to_vec();
        if self.factoriser {
            let f = &params[self.fw()];
            for (k, x) in w.iter_mut().enumerate() {
                *x += f[k % (INPUTS * self.n)];
            }
        }
        w
    }
}

/// Fresh random parameters for the layout `l`.
pub fn init_params(l: Layout, rng: &mut SplitMix64) -> Vec<f32> {
    let mut p = vec![0.0f32; l.param_count()];
    for x in &mut p[l.w()] {
        *x = rng.uniform(INIT_FEATURE_RANGE);
    }
    // The factoriser starts at zero: every bucket's weight starts as a plain network's would.
    for x in &mut p[l.ow()] {
        *x = rng.uniform(INIT_OUTPUT_RANGE);
    }
    p
}

/// The piece code of a king (0 pawn … 5 king) in a record.
const KING: usize = 5;

/// The active feature indices of a record in feature set `set` for White's and Black's
/// perspective; returns how many there are (the number of pieces). The record must be valid
/// (decoded once when loaded).
#[inline(always)]
pub fn features(
    raw: &RawRecord,
    set: FeatureSet,
    white: &mut [u16; MAX_ACTIVE],
    black: &mut [u16; MAX_ACTIVE],
) -> usize {
    let mut occ = u64::from_le_bytes([raw[0], raw[1], raw[2], raw[3], raw[4], raw[5], raw[6], raw[7]]);
    let mut kings = [0usize; 2];
    let mut i = 0;
    while occ != 0 && i < MAX_ACTIVE {
        let sq = occ.trailing_zeros() as usize;
        occ &= occ - 1;
        let v = ((raw[8 + i / 2] >> (4 * (i & 1))) & 0xF) as usize;
        let (c, p) = (v >> 3, (v & 7).min(5));
        white[i] = raw_feature_index(0, c, p, sq) as u16;
        black[i] = raw_feature_index(1, c, p, sq) as u16;
        if p == KING {
            kings[c] = sq;
        }
        i += 1;
    }
    // The plain features, each perspective's in its view (mirrored, in its king's bucket).
    if set != FeatureSet::Plain {
        for (perspective, feats) in [(Color::White, &mut *white), (Color::Black, &mut *black)] {
            let view = View::of(set, perspective, kings[perspective.index()]);
            for f in &mut feats[..i] {
                *f = view.apply(*f as usize) as u16;
            }
        }
    }
    i
}

/// The logistic function.
#[inline(always)]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// A record's search score (centipawns) and game result (1, ½, 0), both from White's point
/// of view.
#[inline(always)]
fn white_score_and_result(raw: &RawRecord) -> (f32, f32) {
    (i16::from_le_bytes([raw[26], raw[27]]) as f32, raw[28] as f32 * 0.5)
}

/// The training target of a record, from the side to move's point of view:
/// `lambda · result + (1 − lambda) · sigmoid(score / wdl_scale)`.
#[inline(always)]
pub fn target(raw: &RawRecord, lambda: f32, wdl_scale: f32) -> f32 {
    let (white_score, white_result) = white_score_and_result(raw);
    let (score, result) = if raw[24] == 0 { (white_score, white_result) } else { (-white_score, 1.0 - white_result) };
    lambda * result + (1.0 - lambda) * sigmoid(score / wdl_scale)
}

/// Per-thread scratch buffers, allocated once.
pub struct Scratch {
    acc_us: Vec<f32>,
    acc_them: Vec<f32>,
    d_us: Vec<f32>,
    d_them: Vec<f32>,
}

impl Scratch {
    pub fn new(n: usize) -> Scratch {
        Scratch { acc_us: vec![0.0; n], acc_them: vec![0.0; n], d_us: vec![0.0; n], d_them: vec![0.0; n] }
    }
}

/// What [`run_slice`] does with each position.
#[derive(Clone, Copy, Debug)]
pub struct LossSpec {
    pub lambda: f32,
    pub wdl_scale: f32,
}

impl LossSpec {
    /// The network predicts the result `sigmoid(out · SCALE / wdl_scale)`: `out · SCALE` is
    /// in centipawns (the engine's reading) whatever the scale, which only says how a
    /// centipawn score maps to an expected result. The factor is exactly 1 at the default
    /// scale (`SCALE`).
    #[inline(always)]
    pub fn out_factor(&self) -> f32 {
        SCALE as f32 / self.wdl_scale
    }
}

/// The `wdl_scale` K that best predicts the game results from the search scores: the
/// minimiser of the mean of `(sigmoid(score / K) − result)²` over `records`, searched over
/// `FIT_RANGE` (golden section on ln K). Returns K and that mean; `None` without records.
pub fn fit_wdl_scale(records: &[RawRecord]) -> Option<(f32, f64)> {
    if records.is_empty() {
        return None;
    }
    let loss = |k: f64| -> f64 {
        let sum: f64 = records
            .iter()
            .map(|raw| {
                let (score, result) = white_score_and_result(raw);
                let e = 1.0 / (1.0 + (-score as f64 / k).exp()) - result as f64;
                e * e
            })
            .sum();
        sum / records.len() as f64
    };
    let (lo, hi) = (FIT_RANGE.start().ln(), FIT_RANGE.end().ln());
    let k = crate::minimise::golden_section(|ln_k| loss(ln_k.exp()), lo, hi, FIT_STEPS).exp();
    Some((k as f32, loss(k)))
}

/// Where [`fit_wdl_scale`] looks for K (centipawns).
pub const FIT_RANGE: std::ops::RangeInclusive<f64> = 10.0..=10_000.0;
/// Golden-section steps of [`fit_wdl_scale`]: the bracket shrinks to 0.618^40 ≈ 4e-9 of
/// ln(1000), far below a centipawn.
pub const FIT_STEPS: usize = 40;

/// Evaluates `records` with `params`, returning the sum of squared errors; when `grad` is
/// given, also adds each position's gradient of its squared error to it (not divided by the
/// count: the caller scales). Chooses an AVX2 build of the same code when the CPU has it.
pub fn run_slice(
    params: &[f32],
    l: Layout,
    records: &[RawRecord],
    spec: LossSpec,
    grad: Option<&mut [f32]>,
    scratch: &mut Scratch,
) -> f64 {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma") {
            // SAFETY: the CPU supports AVX2 and FMA (checked just above), which is all that
            // `run_slice_avx2` requires beyond safe Rust.
            return unsafe { run_slice_avx2(params, l, records, spec, grad, scratch) };
        }
    }
    run_slice_body(params, l, records, spec, grad, scratch)
}

/// [`run_slice_body`] compiled for AVX2 + FMA.
///
/// # Safety
/// The CPU must support AVX2 and FMA.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn run_slice_avx2(
    params: &[f32],
    l: Layout,
    records: &[RawRecord],
    spec: LossSpec,
    grad: Option<&mut [f32]>,
    scratch: &mut Scratch,
) -> f64 {
    run_slice_body(params, l, records, spec, grad, scratch)
}

/// `Σ_j screlu(acc[j]) · w[j]` with 16 partial sums, so the loop vectorises.
#[inline(always)]
fn screlu_dot(acc: &[f32], w: &[f32]) -> f32 {
    let mut s = [0.0f32; HIDDEN_MULTIPLE];
    for (a, w) in acc.chunks_exact(HIDDEN_MULTIPLE).zip(w.chunks_exact(HIDDEN_MULTIPLE)) {
        for k in 0..HIDDEN_MULTIPLE {
            let x = a[k].clamp(0.0, 1.0);
            s[k] += x * x * w[k];
        }
    }
    s.iter().sum()
}

/// `acc = bias + Σ_f W[f]`, plus `Σ_f F[f mod 768]` when there is a factoriser `F`
/// (`fw` empty otherwise).
#[inline(always)]
fn accumulate(acc: &mut [f32], bias: &[f32], w: &[f32], fw: &[f32], feats: &[u16], n: usize) {
    acc.copy_from_slice(bias);
    for &f in feats {
        add_into(acc, &w[row(f, n)]);
    }
    if !fw.is_empty() {
        for &f in feats {
            add_into(acc, &fw[factoriser_row(f, n)]);
        }
    }
}

/// Where feature `f`'s row of `n` weights lies in the feature weights.
#[inline(always)]
fn row(f: u16, n: usize) -> std::ops::Range<usize> {
    f as usize * n..(f as usize + 1) * n
}

/// Where feature `f`'s row lies in the factoriser: that of `f` without its king bucket.
#[inline(always)]
fn factoriser_row(f: u16, n: usize) -> std::ops::Range<usize> {
    row((f as usize % INPUTS) as u16, n)
}

/// `dst += src`, element by element.
#[inline(always)]
fn add_into(dst: &mut [f32], src: &[f32]) {
    for (x, y) in dst.iter_mut().zip(src) {
        *x += y;
    }
}

/// The forward (and optionally backward) pass over a slice of positions.
#[inline(always)]
fn run_slice_body(
    params: &[f32],
    l: Layout,
    records: &[RawRecord],
    spec: LossSpec,
    mut grad: Option<&mut [f32]>,
    s: &mut Scratch,
) -> f64 {
    let n = l.n;
    let w = &params[l.w()];
    let fw = &params[l.fw()];
    let bias = &params[l.b()];
    let mut white = [0u16; MAX_ACTIVE];
    let mut black = [0u16; MAX_ACTIVE];
    let mut loss = 0.0f64;
    let factor = spec.out_factor();
    for raw in records {
        // 1. Active features, side to move's perspective first.
        let count = features(raw, l.features, &mut white, &mut black);
        let (us, them) =
            if raw[24] == 0 { (&white[..count], &black[..count]) } else { (&black[..count], &white[..count]) };

        // 2. Forward: accumulators, SCReLU, the output bucket's layer, sigmoid.
        accumulate(&mut s.acc_us, bias, w, fw, us, n);
        accumulate(&mut s.acc_them, bias, w, fw, them, n);
        let bucket = output_bucket(count as u32, l.buckets);
        let (ow_us, ow_them) = params[l.ow_of(bucket)].split_at(n);
        let ob_at = l.ob().start + bucket;
        let out = screlu_dot(&s.acc_us, ow_us) + screlu_dot(&s.acc_them, ow_them) + params[ob_at];
        let p = sigmoid(out * factor);
        let err = p - target(raw, spec.lambda, spec.wdl_scale);
        loss += (err * err) as f64;
        let Some(g) = grad.as_deref_mut() else { continue };

        // 3. Backward: d(err²)/d(out), then the output layer ...
        let d_out = 2.0 * err * p * (1.0 - p) * factor;
        g[ob_at] += d_out;
        let (gw, rest) = g.split_at_mut(l.b().start);
        let (gb, rest) = rest.split_at_mut(n);
        let ow_start = l.ow_of(bucket).start - l.ow().start;
        let (gow_us, gow_them) = rest[ow_start..ow_start + 2 * n].split_at_mut(n);
        for j in 0..n {
            let a_us = s.acc_us[j].clamp(0.0, 1.0);
            let a_them = s.acc_them[j].clamp(0.0, 1.0);
            gow_us[j] += d_out * a_us * a_us;
            gow_them[j] += d_out * a_them * a_them;
            // SCReLU's slope is 2x inside (0, 1) and 0 outside.
            let live_us = if s.acc_us[j] > 0.0 && s.acc_us[j] < 1.0 { 2.0 * s.acc_us[j] } else { 0.0 };
            let live_them = if s.acc_them[j] > 0.0 && s.acc_them[j] < 1.0 { 2.0 * s.acc_them[j] } else { 0.0 };
            s.d_us[j] = d_out * ow_us[j] * live_us;
            s.d_them[j] = d_out * ow_them[j] * live_them;
            gb[j] += s.d_us[j] + s.d_them[j];
        }
        // ... and the first layer, only in the active features' rows (sparse), each also
        // in its factoriser row when there is one.
        for (feats, d) in [(us, &s.d_us), (them, &s.d_them)] {
            for &f in feats {
                add_into(&mut gw[row(f, n)], d);
            }
        }
        if l.factoriser {
            let gf = &mut g[l.fw()];
            for (feats, d) in [(us, &s.d_us), (them, &s.d_them)] {
                for &f in feats {
                    add_into(&mut gf[factoriser_row(f, n)], d);
                }
            }
        }
    }
    loss
}

/// The float network's output for a record, in centipawns for the side to move (for tests
/// and the quantisation check).
pub fn eval_cp(params: &[f32], l: Layout, raw: &RawRecord, scale: f32) -> f32 {
    let n = l.n;
    let mut white = [0u16; MAX_ACTIVE];
    let mut black = [0u16; MAX_ACTIVE];
    let count = features(raw, l.features, &mut white, &mut black);
    let (us, them) = if raw[24] == 0 { (&white[..count], &black[..count]) } else { (&black[..count], &white[..count]) };
    let mut s = Scratch::new(n);
    let (w, fw, bias) = (&params[l.w()], &params[l.fw()], &params[l.b()]);
    accumulate(&mut s.acc_us, bias, w, fw, us, n);
    accumulate(&mut s.acc_them, bias, w, fw, them, n);
    let bucket = output_bucket(count as u32, l.buckets);
    let ow = &params[l.ow_of(bucket)];
    let out = screlu_dot(&s.acc_us, &ow[..n]) + screlu_dot(&s.acc_them, &ow[n..]) + params[l.ob().start + bucket];
    out * scale
}
