//! The network's two hot loops, each written once over [`Vector`]: the first layer's update
//! of an accumulator half, and the output layer's SCReLU dot product. `simd` instantiates
//! them for each instruction set.
//!
//! Every path gives exactly the same integers: the first layer is i16 addition and
//! subtraction that wraps the same way in every lane width, and the output layer sums exact
//! products in wrapping i32 arithmetic, which is associative, so the lane width (the order
//! of the sum) does not matter. The output layer's position-independent term is not summed
//! here: the network computes it once ([`OutputWeights::screlu_offset`]).

use super::super::features::{HIDDEN, QA};
use super::super::network::{Column, OutputWeights, SCRELU_SHIFT};
use super::vector::Vector;

/// `out = inp + Σ adds − Σ subs`, lane by lane, `V::LANES` lanes at a time. `HIDDEN` must
/// be a multiple of `V::LANES` (`simd` chooses only such paths).
#[inline(always)]
pub fn update<V: Vector, const A: usize, const S: usize>(
    simd: V,
    out: &mut Column,
    inp: &Column,
    adds: [&Column; A],
    subs: [&Column; S],
) {
    for k in 0..HIDDEN / V::LANES {
        let at = k * V::LANES;
        let mut v = simd.load(&inp.0[at..]);
        for a in adds {
            v = simd.add(v, simd.load(&a.0[at..]));
        }
        for s in subs {
            v = simd.sub(v, simd.load(&s.0[at..]));
        }
        simd.store(&mut out.0[at..], v);
    }
}

/// The output layer's sum: `Σ screlu(us[j]) · w[j] + Σ screlu(them[j]) · w[HIDDEN + j]`,
/// where `screlu(x) = clamp(x, 0, QA)²`, modulo 2³² (as wrapping i32); `offset` must be
/// [`OutputWeights::screlu_offset`] of `w`, which the network computes once. `HIDDEN` must
/// be a multiple of `V::LANES`.
///
/// `screlu(x) · w` is formed with 16-bit lanes: `v = clamp(x, 0, QA)` is at most 255, so
/// `v²` (at most 65025) fits sixteen bits unsigned; `t = v² + SCRELU_SHIFT` (−32768,
/// wrapping: the top bit flipped) fits i16, and `mul_add_pairs(t, w)` sums the exact
/// products `t · w` in i32. What `t` added, `SCRELU_SHIFT · Σ w`, does not depend on the
/// position: `offset` takes it away again, giving `Σ v² · w` modulo 2³². That is the exact
/// sum whenever the exact sum fits i32, which the network file's bound guarantees
/// (`network::MAX_OUTPUT_WEIGHT_SUM`): the lanes may wrap on the way, but modulo 2³² the
/// order of the additions does not matter, so every path gives the same integer.
#[inline(always)]
pub fn screlu_dot<V: Vector>(simd: V, us: &Column, them: &Column, w: &OutputWeights, offset: i32) -> i32 {
    let (w_us, w_them) = w.0.split_at(HIDDEN);
    let sum = screlu_half(simd, us, w_us, simd.zero_i32());
    let sum = screlu_half(simd, them, w_them, sum);
    simd.sum_i32(sum).wrapping_add(offset)
}

/// One perspective's half of [`screlu_dot`]: adds its `Σ t · w` to `sum`.
#[inline(always)]
fn screlu_half<V: Vector>(simd: V, acc: &Column, weights: &[i16], mut sum: V::I32) -> V::I32 {
    let zero = simd.splat(0);
    let qa = simd.splat(QA as i16);
    let shift = simd.splat(SCRELU_SHIFT);
    for k in 0..HIDDEN / V::LANES {
        let at = k * V::LANES;
        let v = simd.min(simd.max(simd.load(&acc.0[at..]), zero), qa);
        let t = simd.add(simd.mul(v, v), shift);
        let w = simd.load(&weights[at..]);
        sum = simd.add_i32(sum, simd.mul_add_pairs(t, w));
    }
    sum
}
