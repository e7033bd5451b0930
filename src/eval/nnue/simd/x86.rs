//! The x86-64 implementations of [`Vector`]: AVX2 (256-bit registers) and AVX-512 F and BW
//! (512-bit). Each type is a token with a private field: the only way to get one is
//! `detect`, which asks the CPU, so holding one proves the instructions are there. Every
//! `unsafe` below rests on that (and on a slice length checked just before it).
//!
//! The methods are `#[inline(always)]` without `#[target_feature]` of their own (safe trait
//! methods cannot have one): they inline into the layer functions, and those into the
//! entry points in `simd`, which carry `#[target_feature]`, where the intrinsics then
//! inline as single instructions.

use super::vector::Vector;
use std::arch::x86_64::*;

/// AVX2: sixteen i16 lanes a register.
#[derive(Clone, Copy, Debug)]
pub struct Avx2 {
    _detected: (),
}

impl Avx2 {
    /// The token, if this CPU has AVX2.
    #[inline]
    pub fn detect() -> Option<Avx2> {
        std::arch::is_x86_feature_detected!("avx2").then_some(Avx2 { _detected: () })
    }
}

impl Vector for Avx2 {
    const LANES: usize = 16;
    type I16 = __m256i;
    type I32 = __m256i;

    #[inline(always)]
    fn splat(self, x: i16) -> __m256i {
        // SAFETY: an `Avx2` exists only if AVX2 was detected (`Avx2::detect`).
        unsafe { _mm256_set1_epi16(x) }
    }
    #[inline(always)]
    fn zero_i32(self) -> __m256i {
        // SAFETY: an `Avx2` exists only if AVX2 was detected.
        unsafe { _mm256_setzero_si256() }
    }
    #[inline(always)]
    fn load(self, src: &[i16]) -> __m256i {
        let src = &src[..Self::LANES];
        // SAFETY: AVX2 was detected (the token), and `src` holds 16 i16 = 32 bytes, read
        // unaligned.
        unsafe { _mm256_loadu_si256(src.as_ptr().cast()) }
    }
    #[inline(always)]
    fn store(self, dst: &mut [i16], v: __m256i) {
        let dst = &mut dst[..Self::LANES];
        // SAFETY: AVX2 was detected (the token), and `dst` holds 16 i16 = 32 bytes, written
        // unaligned.
        unsafe { _mm256_storeu_si256(dst.as_mut_ptr().cast(), v) }
    }
    #[inline(always)]
    fn add(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: an `Avx2` exists only if AVX2 was detected.
        unsafe { _mm256_add_epi16(a, b) }
    }
    #[inline(always)]
    fn sub(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: an `Avx2` exists only if AVX2 was detected.
        unsafe { _mm256_sub_epi16(a, b) }
    }
    #[inline(always)]
    fn mul(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: an `Avx2` exists only if AVX2 was detected.
        unsafe { _mm256_mullo_epi16(a, b) }
    }
    #[inline(always)]
    fn min(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: an `Avx2` exists only if AVX2 was detected.
        unsafe { _mm256_min_epi16(a, b) }
    }
    #[inline(always)]
    fn max(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: an `Avx2` exists only if AVX2 was detected.
        unsafe { _mm256_max_epi16(a, b) }
    }
    #[inline(always)]
    fn mul_add_pairs(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: an `Avx2` exists only if AVX2 was detected.
        unsafe { _mm256_madd_epi16(a, b) }
    }
    #[inline(always)]
    fn add_i32(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: an `Avx2` exists only if AVX2 was detected.
        unsafe { _mm256_add_epi32(a, b) }
    }
    #[inline(always)]
    fn sum_i32(self, v: __m256i) -> i32 {
        // SAFETY: an `Avx2` exists only if AVX2 was detected (AVX2 includes SSE2).
        unsafe {
            let s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
            let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b01_00_11_10>(s));
            let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
            _mm_cvtsi128_si32(s)
        }
    }
}

/// AVX-512 F and BW (with AVX2 for the last steps of a sum): thirty-two i16 lanes a register.
#[derive(Clone, Copy, Debug)]
pub struct Avx512 {
    _detected: (),
}

impl Avx512 {
    /// The token, if this CPU has AVX-512 F and BW, and AVX2.
    #[inline]
    pub fn detect() -> Option<Avx512> {
        let has = std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512bw");
        has.then_some(Avx512 { _detected: () })
    }

    /// The AVX2 token (an `Avx512` was made only where AVX2 was detected too).
    #[inline(always)]
    fn avx2(self) -> Avx2 {
        Avx2 { _detected: () }
    }
}

impl Vector for Avx512 {
    const LANES: usize = 32;
    type I16 = __m512i;
    type I32 = __m512i;

    #[inline(always)]
    fn splat(self, x: i16) -> __m512i {
        // SAFETY: an `Avx512` exists only if AVX-512 F and BW were detected (`Avx512::detect`).
        unsafe { _mm512_set1_epi16(x) }
    }
    #[inline(always)]
    fn zero_i32(self) -> __m512i {
        // SAFETY: an `Avx512` exists only if AVX-512 F and BW were detected.
        unsafe { _mm512_setzero_si512() }
    }
    #[inline(always)]
    fn load(self, src: &[i16]) -> __m512i {
        let src = &src[..Self::LANES];
        // SAFETY: AVX-512 F was detected (the token), and `src` holds 32 i16 = 64 bytes, read
        // unaligned.
        unsafe { _mm512_loadu_si512(src.as_ptr().cast()) }
    }
    #[inline(always)]
    fn store(self, dst: &mut [i16], v: __m512i) {
        let dst = &mut dst[..Self::LANES];
        // SAFETY: AVX-512 F was detected (the token), and `dst` holds 32 i16 = 64 bytes,
        // written unaligned.
        unsafe { _mm512_storeu_si512(dst.as_mut_ptr().cast(), v) }
    }
    #[inline(always)]
    fn add(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: an `Avx512` exists only if AVX-512 F and BW were detected.
        unsafe { _mm512_add_epi16(a, b) }
    }
    #[inline(always)]
    fn sub(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: an `Avx512` exists only if AVX-512 F and BW were detected.
        unsafe { _mm512_sub_epi16(a, b) }
    }
    #[inline(always)]
    fn mul(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: an `Avx512` exists only if AVX-512 F and BW were detected.
        unsafe { _mm512_mullo_epi16(a, b) }
    }
    #[inline(always)]
    fn min(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: an `Avx512` exists only if AVX-512 F and BW were detected.
        unsafe { _mm512_min_epi16(a, b) }
    }
    #[inline(always)]
    fn max(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: an `Avx512` exists only if AVX-512 F and BW were detected.
        unsafe { _mm512_max_epi16(a, b) }
    }
    #[inline(always)]
    fn mul_add_pairs(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: an `Avx512` exists only if AVX-512 F and BW were detected.
        unsafe { _mm512_madd_epi16(a, b) }
    }
    #[inline(always)]
    fn add_i32(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: an `Avx512` exists only if AVX-512 F and BW were detected.
        unsafe { _mm512_add_epi32(a, b) }
    }
    #[inline(always)]
    fn sum_i32(self, v: __m512i) -> i32 {
        // SAFETY: an `Avx512` exists only if AVX-512 F was detected; the halves are then
        // summed by the AVX2 path, detected with it.
        let half = unsafe { _mm256_add_epi32(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64::<1>(v)) };
        self.avx2().sum_i32(half)
    }
}
