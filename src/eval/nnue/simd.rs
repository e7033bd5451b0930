//! The network's hot loops, three times: a portable scalar version, an AVX2 version and an
//! AVX-512 version, chosen once at run time. All give exactly the same integers: the first
//! layer is i16 addition and subtraction that wraps the same way in each, and the output layer
//! sums exact i32 products (a clipped value squared is at most 255² = 65025, times an i16
//! weight stays below 2³¹) with wrapping addition, which is associative, so the order of the
//! sum does not matter.
//!
//! # Choosing the path
//! [`backend`] asks the CPU once (`is_x86_feature_detected!`) and takes the widest path it
//! has: AVX-512 (F and BW), else AVX2, else scalar. The environment variable
//! `HORIZON_NNUE_SIMD` set to `scalar`, `avx2` or `avx512` before the engine starts caps the
//! choice at that path (to measure what each buys, or to rule SIMD out when hunting a bug);
//! a path the CPU lacks falls back to the next narrower one.

use super::features::{HIDDEN, QA};
use super::network::{Column, OutputWeights};
use std::sync::atomic::{AtomicU8, Ordering};

/// Which implementation of the hot loops runs, narrowest first.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub enum Backend {
    Scalar,
    Avx2,
    Avx512,
}

impl Backend {
    /// Every backend, narrowest first.
    pub const ALL: [Backend; 3] = [Backend::Scalar, Backend::Avx2, Backend::Avx512];

    pub fn name(self) -> &'static str {
        match self {
            Backend::Scalar => "scalar",
            Backend::Avx2 => "avx2",
            Backend::Avx512 => "avx512",
        }
    }

    /// The backend named `s` (as `name` spells it, any case).
    pub fn from_name(s: &str) -> Option<Backend> {
        Backend::ALL.into_iter().find(|b| b.name().eq_ignore_ascii_case(s.trim()))
    }

    /// Can this CPU run it (and, for AVX-512, is `HIDDEN` a multiple of 32)? Asks the CPU once
    /// per backend and caches the answer.
    #[inline(always)]
    pub fn available(self) -> bool {
        static DETECTED: [AtomicU8; 3] = [AtomicU8::new(0), AtomicU8::new(0), AtomicU8::new(0)];
        let cell = &DETECTED[self as usize];
        match cell.load(Ordering::Relaxed) {
            1 => false,
            2 => true,
            _ => {
                let a = self.detect();
                cell.store(1 + a as u8, Ordering::Relaxed);
                a
            }
        }
    }

    fn detect(self) -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            match self {
                Backend::Scalar => true,
                Backend::Avx2 => std::arch::is_x86_feature_detected!("avx2"),
                Backend::Avx512 => {
                    HIDDEN.is_multiple_of(avx512::LANES)
                        && std::arch::is_x86_feature_detected!("avx2")
                        && std::arch::is_x86_feature_detected!("avx512f")
                        && std::arch::is_x86_feature_detected!("avx512bw")
                }
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            self == Backend::Scalar
        }
    }
}

/// Environment variable that caps the path: `scalar`, `avx2` or `avx512`.
pub const SIMD_ENV: &str = "HORIZON_NNUE_SIMD";

/// The cached choice: 0 not yet made, else `1 + Backend as u8`.
static BACKEND: AtomicU8 = AtomicU8::new(0);

/// The implementation in use, decided on first call (the CPU, and `HORIZON_NNUE_SIMD`).
#[inline]
pub fn backend() -> Backend {
    match BACKEND.load(Ordering::Relaxed) {
        1 => Backend::Scalar,
        2 => Backend::Avx2,
        3 => Backend::Avx512,
        _ => {
            let cap = std::env::var(SIMD_ENV).ok().and_then(|v| Backend::from_name(&v)).unwrap_or(Backend::Avx512);
            let b = Backend::ALL.into_iter().rev().find(|&b| b <= cap && b.available()).unwrap_or(Backend::Scalar);
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

/// `update` with a given backend (tests compare them). Asking for a path the CPU lacks runs
/// the scalar one.
#[inline]
pub fn update_with<const A: usize, const S: usize>(
    backend: Backend,
    out: &mut Column,
    inp: &Column,
    adds: [&Column; A],
    subs: [&Column; S],
) {
    #[cfg(target_arch = "x86_64")]
    match backend {
        Backend::Avx512 if backend.available() => {
            // SAFETY: AVX-512 F and BW and AVX2 were detected on this CPU, and HIDDEN is a
            // multiple of 32 (`available`).
            unsafe { avx512::update(out, inp, adds, subs) };
            return;
        }
        Backend::Avx2 if backend.available() => {
            // SAFETY: AVX2 was detected on this CPU (`available`).
            unsafe { avx2::update(out, inp, adds, subs) };
            return;
        }
        _ => {}
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
    match backend {
        Backend::Avx512 if backend.available() => {
            // SAFETY: AVX-512 F and BW and AVX2 were detected on this CPU, and HIDDEN is a
            // multiple of 32 (`available`).
            return unsafe { avx512::screlu_dot(us, them, w) };
        }
        Backend::Avx2 if backend.available() => {
            // SAFETY: AVX2 was detected on this CPU (`available`).
            return unsafe { avx2::screlu_dot(us, them, w) };
        }
        _ => {}
    }
    let _ = backend;
    scalar_screlu_dot(us, them, w)
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
        horizontal_sum(sum)
    }

    /// The sum of eight i32 lanes (wrapping, like the scalar path).
    #[target_feature(enable = "avx2")]
    pub(super) fn horizontal_sum(sum: __m256i) -> i32 {
        let s = _mm_add_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256::<1>(sum));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b01_00_11_10>(s));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
        _mm_cvtsi128_si32(s)
    }
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use super::super::features::{HIDDEN, QA};
    use super::super::network::{Column, OutputWeights};
    use std::arch::x86_64::*;

    /// i16 lanes in one AVX-512 register; `Backend::Avx512` is available only when HIDDEN
    /// is a multiple of it, so every caller of this module has HIDDEN % 32 == 0.
    pub(super) const LANES: usize = 32;

    /// `out = inp + Σ adds − Σ subs` thirty-two lanes at a time.
    #[target_feature(enable = "avx512f,avx512bw,avx2")]
    pub(super) fn update<const A: usize, const S: usize>(
        out: &mut Column,
        inp: &Column,
        adds: [&Column; A],
        subs: [&Column; S],
    ) {
        for i in (0..HIDDEN).step_by(LANES) {
            // SAFETY: every `Column` is 64-byte aligned and holds HIDDEN i16, a multiple of
            // 32 whenever this module runs (see `LANES`), so `i..i + 32` is in bounds and each
            // 64-byte access is aligned.
            unsafe {
                let mut v = _mm512_load_si512(inp.0.as_ptr().add(i) as *const _);
                for a in adds {
                    v = _mm512_add_epi16(v, _mm512_load_si512(a.0.as_ptr().add(i) as *const _));
                }
                for s in subs {
                    v = _mm512_sub_epi16(v, _mm512_load_si512(s.0.as_ptr().add(i) as *const _));
                }
                _mm512_store_si512(out.0.as_mut_ptr().add(i) as *mut _, v);
            }
        }
    }

    /// One perspective's half of the output sum, sixteen i32 lanes wide; the same arithmetic
    /// as the AVX2 version (see there for why `v² − 32768` and the correction are exact).
    #[target_feature(enable = "avx512f,avx512bw,avx2")]
    fn half(acc: &Column, weights: &[i16], mut sum: __m512i) -> __m512i {
        debug_assert_eq!(weights.len(), HIDDEN);
        let zero = _mm512_setzero_si512();
        let qa = _mm512_set1_epi16(QA as i16);
        let top = _mm512_set1_epi16(i16::MIN);
        let mut correction = _mm512_setzero_si512();
        for i in (0..HIDDEN).step_by(LANES) {
            // SAFETY: `acc` is a 64-byte aligned `Column` of HIDDEN i16 (a multiple of 32
            // whenever this module runs, see `LANES`) and `weights` holds HIDDEN i16 (checked
            // above in debug builds, and guaranteed by the callers' slicing of
            // `OutputWeights`), so both 64-byte reads are in bounds; the weights are read
            // unaligned.
            let (x, w) = unsafe {
                (
                    _mm512_load_si512(acc.0.as_ptr().add(i) as *const _),
                    _mm512_loadu_si512(weights.as_ptr().add(i) as *const _),
                )
            };
            let v = _mm512_min_epi16(_mm512_max_epi16(x, zero), qa);
            let t = _mm512_xor_si512(_mm512_mullo_epi16(v, v), top);
            sum = _mm512_add_epi32(sum, _mm512_madd_epi16(t, w));
            correction = _mm512_add_epi32(correction, _mm512_madd_epi16(top, w));
        }
        _mm512_sub_epi32(sum, correction)
    }

    /// The output-layer sum.
    #[target_feature(enable = "avx512f,avx512bw,avx2")]
    pub(super) fn screlu_dot(us: &Column, them: &Column, w: &OutputWeights) -> i32 {
        let sum = half(us, &w.0[..HIDDEN], _mm512_setzero_si512());
        let sum = half(them, &w.0[HIDDEN..], sum);
        let folded = _mm256_add_epi32(_mm512_castsi512_si256(sum), _mm512_extracti64x4_epi64::<1>(sum));
        super::avx2::horizontal_sum(folded)
    }
}
