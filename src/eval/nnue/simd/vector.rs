//! The vector operations the network's layers are written over ([`Vector`]), and the
//! portable implementation ([`Scalar`], one lane). The x86 implementations are in `x86`.

/// One instruction set's registers and the few operations the layers need. A value of an
/// implementing type is the proof that this CPU has the instructions (each x86 type is made
/// only after they were detected), so every method is safe and the layers never say
/// `unsafe`. All arithmetic wraps, exactly like `i16::wrapping_*` and `i32::wrapping_*`.
pub trait Vector: Copy {
    /// i16 lanes in one register.
    const LANES: usize;
    /// A register of `LANES` i16.
    type I16: Copy;
    /// A register of i32 sums (`LANES / 2` lanes, one for the scalar path).
    type I32: Copy;

    /// Every lane `x`.
    fn splat(self, x: i16) -> Self::I16;
    /// Every i32 lane 0.
    fn zero_i32(self) -> Self::I32;
    /// The first `LANES` values of `src` (panics if it is shorter).
    fn load(self, src: &[i16]) -> Self::I16;
    /// Writes `v` to the first `LANES` values of `dst` (panics if it is shorter).
    fn store(self, dst: &mut [i16], v: Self::I16);
    fn add(self, a: Self::I16, b: Self::I16) -> Self::I16;
    fn sub(self, a: Self::I16, b: Self::I16) -> Self::I16;
    /// The low 16 bits of each lane's product.
    fn mul(self, a: Self::I16, b: Self::I16) -> Self::I16;
    fn min(self, a: Self::I16, b: Self::I16) -> Self::I16;
    fn max(self, a: Self::I16, b: Self::I16) -> Self::I16;
    /// Each lane's exact product `a · b` in i32, adjacent pairs of lanes added into one i32
    /// lane: the i32 lanes together sum to `Σ a · b` (modulo 2³²).
    fn mul_add_pairs(self, a: Self::I16, b: Self::I16) -> Self::I32;
    fn add_i32(self, a: Self::I32, b: Self::I32) -> Self::I32;
    /// The sum of the i32 lanes.
    fn sum_i32(self, v: Self::I32) -> i32;
}

/// The portable path: a "register" of one lane, plain integer arithmetic (which the
/// compiler may still vectorise for the baseline CPU).
#[derive(Clone, Copy, Debug)]
pub struct Scalar;

impl Vector for Scalar {
    const LANES: usize = 1;
    type I16 = i16;
    type I32 = i32;

    #[inline(always)]
    fn splat(self, x: i16) -> i16 {
        x
    }
    #[inline(always)]
    fn zero_i32(self) -> i32 {
        0
    }
    #[inline(always)]
    fn load(self, src: &[i16]) -> i16 {
        src[0]
    }
    #[inline(always)]
    fn store(self, dst: &mut [i16], v: i16) {
        dst[0] = v;
    }
    #[inline(always)]
    fn add(self, a: i16, b: i16) -> i16 {
        a.wrapping_add(b)
    }
    #[inline(always)]
    fn sub(self, a: i16, b: i16) -> i16 {
        a.wrapping_sub(b)
    }
    #[inline(always)]
    fn mul(self, a: i16, b: i16) -> i16 {
        a.wrapping_mul(b)
    }
    #[inline(always)]
    fn min(self, a: i16, b: i16) -> i16 {
        a.min(b)
    }
    #[inline(always)]
    fn max(self, a: i16, b: i16) -> i16 {
        a.max(b)
    }
    #[inline(always)]
    fn mul_add_pairs(self, a: i16, b: i16) -> i32 {
        // |a · b| ≤ 2³⁰: exact in i32.
        a as i32 * b as i32
    }
    #[inline(always)]
    fn add_i32(self, a: i32, b: i32) -> i32 {
        a.wrapping_add(b)
    }
    #[inline(always)]
    fn sum_i32(self, v: i32) -> i32 {
        v
    }
}
