//! The network's hot loops, twice: a portable scalar version and an AVX2 version, chosen
//! once at run time. Both give exactly the same integers: the first layer is i16 addition
//! and subtraction that wraps the same way in both, and the output layer sums exact i32
//! products (a clipped value squared is at most 255² = 65025, times an i16 weight stays
//! below 2³¹) with wrapping addition, which is associative, so the order of the sum does
//! not matter.
//!
//! # Choosing the path
//! [`backend`] asks `is_x86_feature_detected!("avx2")` once and caches the answer. Setting
//! the environment variable `HORIZON_NNUE_SIMD=scalar` before the engine starts forces the
//! scalar path (to measure what SIMD buys, or to rule it out when hunting a bug).
//!
//! AVX-512 is not used: with 128 hidden neurons one perspective is eight AVX2 registers, and
//! the wider registers would halve a loop that is already a small part of a node's cost.

use super::features::{HIDDEN, QA};
use super::network::{Column, OutputWeights};
use std::sync::atomic::{AtomicU8, Ordering};

/// Which implementation of the hot loops runs.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Backend {
    Scalar,
    Avx2,
}

impl Backend {
    pub fn name(self) -> &'static str {
        match self {
            Backend::Scalar => "scalar",
            Backend::Avx2 => "avx2",
        }
    }
}

/// Environment variable that forces the scalar path when set to `scalar`.
pub const SIMD_ENV: &str = "HORIZON_NNUE_SIMD";

/// The cached choice: 0 not yet made, else `1 + Backend as u8`.
static BACKEND: AtomicU8 = AtomicU8::new(0);

/// Is AVX2 available on this CPU?
pub fn avx2_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The implementation in use, decided on first call (the CPU, and `HORIZON_NNUE_SIMD`).
#[inline]
pub fn backend() -> Backend {
    match BACKEND.load(Ordering::Relaxed) {
        1 => Backend::Scalar,
        2 => Backend::Avx2,
        _ => {
            let forced_scalar = std::env::var(SIMD_ENV).is_ok_and(|v| v.eq_ignore_ascii_case("scalar"));
            let b = if !forced_scalar && avx2_available() { Backend::Avx2 } else { Backend::Scalar };
            BACKEND.store(1 + b as u8, Ordering::Relaxed);
            b
        }
    }
}

/// `out = inp + Σ adds − Σ subs`, lane by lane, with the backend in use.
#[inline]
pub fn update<const A: usize, const S: usize>(out: &mut Column, inp: &Column, adds: [&Column; A], subs: [&Column; S]) {
    update_with(backend(), out, inp, adds, subs)
}

/// `update` with a given backend (tests compare them). Asking for AVX2 on a CPU without it
/// runs the scalar path.
#[inline]
pub fn update_with<const A: usize, const S: usize>(
    backend: Backend,
    out: &mut Column,
    inp: &Column,
    adds: [&Column; A],
    subs: [&Column; S],
) {
    #[cfg(target_arch = "x86_64")]
    if backend == Backend::Avx2 && avx2_available_cached() {
        // SAFETY: AVX2 was detected on this CPU (`avx2_available_cached`).
        unsafe { avx2::update(out, inp, adds, subs) };
        return;
    }
    let _ = backend;
    scalar_update(out, inp, adds, subs);
}

/// The output layer's sum: `Σ screlu(us[j]) · w[j] + Σ screlu(them[j]) · w[HIDDEN + j]`, where
/// `screlu(x) = clamp(x, 0, QA)²`, in wrapping i32 arithmetic.
#[inline]
pub fn screlu_dot(us: &Column, them: &Column, w: &OutputWeights) -> i32 {
    screlu_dot_with(backend(), us, them, w)
}

/// `screlu_dot` with a given backend.
#[inline]
pub fn screlu_dot_with(backend: Backend, us: &Column, them: &Column, w: &OutputWeights) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if backend == Backend::Avx2 && avx2_available_cached() {
        // SAFETY: AVX2 was detected on this CPU (`avx2_available_cached`).
        return unsafe { avx2::screlu_dot(us, them, w) };
    }
    let _ = backend;
    scalar_screlu_dot(us, them, w)
}

/// AVX2 detection, cached: true only if the CPU has it (whatever `HORIZON_NNUE_SIMD` says).
#[inline(always)]
fn avx2_available_cached() -> bool {
    static DETECTED: AtomicU8 = AtomicU8::new(0);
    match DETECTED.load(Ordering::Relaxed) {
        1 => false,
        2 => true,
        _ => {
            let a = avx2_available();
            DETECTED.store(1 + a as u8, Ordering::Relaxed);
            a
        }
    }
}

/// The portable first-layer update.
#[inline(always)]
fn scalar_update<const A: usize, const S: usize>(
    out: &mut Column,
    inp: &Column,
    adds: [&Column; A],
    subs: [&Column; S],
) {
    for j in 0..HIDDEN {
        let mut v = inp.0[j];
        for a in adds {
            v = v.wrapping_add(a.0[j]);
        }
        for s in subs {
            v = v.wrapping_sub(s.0[j]);
        }
        out.0[j] = v;
    }
}

/// The portable output-layer sum.
#[inline(always)]
fn scalar_screlu_dot(us: &Column, them: &Column, w: &OutputWeights) -> i32 {
    let half = |acc: &Column, weights: &[i16]| {
        acc.0.iter().zip(weights).fold(0i32, |sum, (&x, &w)| {
            let v = (x as i32).clamp(0, QA);
            sum.wrapping_add((v * v) * w as i32)
        })
    };
    half(us, &w.0[..HIDDEN]).wrapping_add(half(them, &w.0[HIDDEN..]))
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::super::features::{HIDDEN, QA};
    use super::super::network::{Column, OutputWeights};
    use std::arch::x86_64::*;

    /// i16 lanes in one AVX2 register.
    const LANES: usize = 16;

    /// `out = inp + Σ adds − Σ subs` sixteen lanes at a time.
    #[target_feature(enable = "avx2")]
    pub(super) fn update<const A: usize, const S: usize>(
        out: &mut Column,
        inp: &Column,
        adds: [&Column; A],
        subs: [&Column; S],
    ) {
        for i in (0..HIDDEN).step_by(LANES) {
            // SAFETY: every `Column` is 64-byte aligned and holds HIDDEN i16, a multiple of
            // 16, so `i..i + 16` is in bounds and each 32-byte access is aligned.
            unsafe {
                let mut v = _mm256_load_si256(inp.0.as_ptr().add(i) as *const __m256i);
                for a in adds {
                    v = _mm256_add_epi16(v, _mm256_load_si256(a.0.as_ptr().add(i) as *const __m256i));
                }
                for s in subs {
                    v = _mm256_sub_epi16(v, _mm256_load_si256(s.0.as_ptr().add(i) as *const __m256i));
                }
                _mm256_store_si256(out.0.as_mut_ptr().add(i) as *mut __m256i, v);
            }
        }
    }

    /// One perspective's half of the output sum, eight i32 lanes wide.
    ///
    /// `v² · w` is formed with 16-bit multiplies: `v = clamp(x, 0, QA)` is at most 255, so
    /// `v²` (at most 65025) fits sixteen bits unsigned; `t = v² − 32768` (the top bit
    /// flipped) fits i16, and `madd(t, w)` sums `t · w` in i32 pairs. Adding back
    /// `32768 · Σ w` (as `−madd(−32768, w)`) gives `Σ v² · w` modulo 2³², which is exactly
    /// what the scalar path's wrapping sum gives.
    #[target_feature(enable = "avx2")]
    fn half(acc: &Column, weights: &[i16], mut sum: __m256i) -> __m256i {
        debug_assert_eq!(weights.len(), HIDDEN);
        let zero = _mm256_setzero_si256();
        let qa = _mm256_set1_epi16(QA as i16);
        let top = _mm256_set1_epi16(i16::MIN);
        let mut correction = _mm256_setzero_si256();
        for i in (0..HIDDEN).step_by(LANES) {
            // SAFETY: `acc` is a 64-byte aligned `Column` of HIDDEN i16 (a multiple of 16) and
            // `weights` holds HIDDEN i16 (checked above in debug builds, and guaranteed by
            // the callers' slicing of `OutputWeights`), so both 32-byte reads are in bounds;
            // the weights are read unaligned.
            let (x, w) = unsafe {
                (
                    _mm256_load_si256(acc.0.as_ptr().add(i) as *const __m256i),
                    _mm256_loadu_si256(weights.as_ptr().add(i) as *const __m256i),
                )
            };
            let v = _mm256_min_epi16(_mm256_max_epi16(x, zero), qa);
            let t = _mm256_xor_si256(_mm256_mullo_epi16(v, v), top);
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(t, w));
            correction = _mm256_add_epi32(correction, _mm256_madd_epi16(top, w));
        }
        _mm256_sub_epi32(sum, correction)
    }

    /// The output-layer sum.
    #[target_feature(enable = "avx2")]
    pub(super) fn screlu_dot(us: &Column, them: &Column, w: &OutputWeights) -> i32 {
        let sum = half(us, &w.0[..HIDDEN], _mm256_setzero_si256());
        let sum = half(them, &w.0[HIDDEN..], sum);
        // Horizontal sum of eight i32 lanes (wrapping, like the scalar path).
        let s = _mm_add_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256::<1>(sum));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b01_00_11_10>(s));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
        _mm_cvtsi128_si32(s)
    }
}
