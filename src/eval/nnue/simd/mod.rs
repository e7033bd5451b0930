//! The network's hot loops on the widest vector instructions the CPU has: AVX-512, AVX2, or a
//! portable scalar path, chosen once at run time. All give exactly the same integers.
//!
//! - `layers`: each hot loop (the first layer's update, the output layer) written once,
//!   generic over the `Vector` trait;
//! - `vector`: that trait (load, store, add, sub, mul, min, max, pairwise multiply-add,
//!   horizontal sum) and its scalar implementation;
//! - `x86`: the AVX2 and AVX-512 implementations, tokens that only CPU detection makes.
//!
//! This file chooses the path and holds the entry points: one per loop and instruction set,
//! each with `#[target_feature]`, so the generic loop is compiled (and its vector operations
//! inlined) with that instruction set enabled.
//!
//! # Choosing the path
//! [`backend`] asks the CPU once (`is_x86_feature_detected!`) and takes the widest path it
//! has: AVX-512 (F and BW), else AVX2, else scalar. The environment variable
//! `HORIZON_NNUE_SIMD` set to `scalar`, `avx2` or `avx512` before the engine starts caps the
//! choice at that path (to measure what each buys, or to rule SIMD out when hunting a bug);
//! a path the CPU lacks falls back to the next narrower one.

mod layers;
mod vector;
#[cfg(target_arch = "x86_64")]
mod x86;

use super::features::HIDDEN;
use super::network::{Column, OutputWeights};
use std::sync::atomic::{AtomicU8, Ordering};
use vector::{Scalar, Vector};
#[cfg(target_arch = "x86_64")]
use x86::{Avx2, Avx512};

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

    /// Can this CPU run it (and is `HIDDEN` a whole number of its registers)? Asks the CPU
    /// once per backend and caches the answer.
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
        match self {
            Backend::Scalar => true,
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2 => usable(Avx2::detect()).is_some(),
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512 => usable(Avx512::detect()).is_some(),
            #[cfg(not(target_arch = "x86_64"))]
            _ => false,
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

/// The instruction set `v` if the CPU has it (a token) and `HIDDEN` is a whole number of its
/// registers (known at compile time).
#[inline(always)]
fn usable<V: Vector>(v: Option<V>) -> Option<V> {
    v.filter(|_| HIDDEN.is_multiple_of(V::LANES))
}

/// `out = inp + Σ adds − Σ subs`, lane by lane (wrapping i16), with the backend in use.
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
    match backend {
        #[cfg(target_arch = "x86_64")]
        Backend::Avx512 => {
            if let Some(simd) = usable(Avx512::detect()) {
                // SAFETY: the token exists, so AVX-512 F and BW and AVX2 were detected.
                return unsafe { update_avx512(simd, out, inp, adds, subs) };
            }
        }
        #[cfg(target_arch = "x86_64")]
        Backend::Avx2 => {
            if let Some(simd) = usable(Avx2::detect()) {
                // SAFETY: the token exists, so AVX2 was detected.
                return unsafe { update_avx2(simd, out, inp, adds, subs) };
            }
        }
        _ => {}
    }
    layers::update(Scalar, out, inp, adds, subs)
}

/// The output layer's sum: `Σ screlu(us[j]) · w[j] + Σ screlu(them[j]) · w[HIDDEN + j]`, where
/// `screlu(x) = clamp(x, 0, QA)²`, in wrapping i32 arithmetic. `offset` is
/// [`OutputWeights::screlu_offset`] of `w`, computed once per network
/// ([`super::Network::output_offset`]).
#[inline]
pub fn screlu_dot(us: &Column, them: &Column, w: &OutputWeights, offset: i32) -> i32 {
    screlu_dot_with(backend(), us, them, w, offset)
}

/// `screlu_dot` with a given backend. Asking for a path the CPU lacks runs the scalar one.
#[inline]
pub fn screlu_dot_with(backend: Backend, us: &Column, them: &Column, w: &OutputWeights, offset: i32) -> i32 {
    match backend {
        #[cfg(target_arch = "x86_64")]
        Backend::Avx512 => {
            if let Some(simd) = usable(Avx512::detect()) {
                // SAFETY: the token exists, so AVX-512 F and BW and AVX2 were detected.
                return unsafe { screlu_dot_avx512(simd, us, them, w, offset) };
            }
        }
        #[cfg(target_arch = "x86_64")]
        Backend::Avx2 => {
            if let Some(simd) = usable(Avx2::detect()) {
                // SAFETY: the token exists, so AVX2 was detected.
                return unsafe { screlu_dot_avx2(simd, us, them, w, offset) };
            }
        }
        _ => {}
    }
    layers::screlu_dot(Scalar, us, them, w, offset)
}

// The entry points: the generic loops compiled with each instruction set enabled. The
// callers hold the token, which proves the CPU has it.

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn update_avx2<const A: usize, const S: usize>(
    simd: Avx2,
    out: &mut Column,
    inp: &Column,
    adds: [&Column; A],
    subs: [&Column; S],
) {
    layers::update(simd, out, inp, adds, subs)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx2")]
fn update_avx512<const A: usize, const S: usize>(
    simd: Avx512,
    out: &mut Column,
    inp: &Column,
    adds: [&Column; A],
    subs: [&Column; S],
) {
    layers::update(simd, out, inp, adds, subs)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn screlu_dot_avx2(simd: Avx2, us: &Column, them: &Column, w: &OutputWeights, offset: i32) -> i32 {
    layers::screlu_dot(simd, us, them, w, offset)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx2")]
fn screlu_dot_avx512(simd: Avx512, us: &Column, them: &Column, w: &OutputWeights, offset: i32) -> i32 {
    layers::screlu_dot(simd, us, them, w, offset)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::features::QA;

    /// The output layer as the formula says, one lane at a time, independent of `layers`.
    fn plain_screlu_dot(us: &Column, them: &Column, w: &OutputWeights) -> i32 {
        let screlu = |x: i16| (x as i32).clamp(0, QA).pow(2);
        let half = |acc: &Column, w: &[i16]| {
            acc.0.iter().zip(w).fold(0i32, |s, (&x, &w)| s.wrapping_add(screlu(x).wrapping_mul(w as i32)))
        };
        half(us, &w.0[..HIDDEN]).wrapping_add(half(them, &w.0[HIDDEN..]))
    }

    /// Every path this CPU has, the scalar one included, against the plain formulas, on
    /// values across the whole i16 range (so accumulators clip and the sums wrap).
    #[test]
    fn every_available_path_matches_the_plain_formulas() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state as i16
        };
        let mut column = || {
            let mut c = Column([0; HIDDEN]);
            c.0.iter_mut().for_each(|x| *x = next());
            c
        };
        let columns: Vec<Column> = (0..8).map(|_| column()).collect();
        let mut weights = OutputWeights([0; 2 * HIDDEN]);
        weights.0.iter_mut().zip(columns[6].0.iter().chain(&columns[7].0)).for_each(|(w, &x)| *w = x);
        for backend in Backend::ALL {
            if !backend.available() {
                // Straight to stderr, which the test harness does not capture (it captures
                // `eprintln!`), so the skip shows in every run's output.
                use std::io::Write;
                let _ = writeln!(std::io::stderr(), "skipped: the {} path (this CPU lacks it)", backend.name());
                continue;
            }
            let (a, b, c, d, e) = (&columns[0], &columns[1], &columns[2], &columns[3], &columns[4]);
            let mut out = Column([0; HIDDEN]);
            update_with(backend, &mut out, a, [b, c], [d, e]);
            for j in 0..HIDDEN {
                let want = a.0[j].wrapping_add(b.0[j]).wrapping_add(c.0[j]).wrapping_sub(d.0[j]).wrapping_sub(e.0[j]);
                assert_eq!(out.0[j], want, "{backend:?} update, lane {j}");
            }
            let offset = weights.screlu_offset();
            assert_eq!(
                screlu_dot_with(backend, a, b, &weights, offset),
                plain_screlu_dot(a, b, &weights),
                "{backend:?}"
            );
            let clipped = Column([i16::MAX; HIDDEN]);
            let extreme = OutputWeights([i16::MIN; 2 * HIDDEN]);
            let want = plain_screlu_dot(&clipped, &clipped, &extreme);
            let offset = extreme.screlu_offset();
            assert_eq!(screlu_dot_with(backend, &clipped, &clipped, &extreme, offset), want, "{backend:?}");
        }
    }
}
