//! `S`: a (middlegame, endgame) score pair, tapered into one number by the game phase.

use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// Middlegame and endgame halves of a score, in centipawns.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct S(pub i32, pub i32);

impl S {
    pub const ZERO: S = S(0, 0);

    #[inline(always)]
    pub const fn mg(self) -> i32 {
        self.0
    }
    #[inline(always)]
    pub const fn eg(self) -> i32 {
        self.1
    }
    /// `const` addition, for building tables at compile time.
    #[inline(always)]
    pub const fn plus(self, o: S) -> S {
        S(self.0 + o.0, self.1 + o.1)
    }
    /// Blend by `phase` in `0..=total` (total = pure middlegame). Division truncates toward
    /// zero, so `taper(-s) == -taper(s)`: the blend keeps colour symmetry exact.
    #[inline(always)]
    pub const fn taper(self, phase: i32, total: i32) -> i32 {
        (self.0 * phase + self.1 * (total - phase)) / total
    }
}

impl Add for S {
    type Output = S;
    #[inline(always)]
    fn add(self, o: S) -> S {
        S(self.0 + o.0, self.1 + o.1)
    }
}
impl Sub for S {
    type Output = S;
    #[inline(always)]
    fn sub(self, o: S) -> S {
        S(self.0 - o.0, self.1 - o.1)
    }
}
impl AddAssign for S {
    #[inline(always)]
    fn add_assign(&mut self, o: S) {
        self.0 += o.0;
        self.1 += o.1;
    }
}
impl SubAssign for S {
    #[inline(always)]
    fn sub_assign(&mut self, o: S) {
        self.0 -= o.0;
        self.1 -= o.1;
    }
}
impl Neg for S {
    type Output = S;
    #[inline(always)]
    fn neg(self) -> S {
        S(-self.0, -self.1)
    }
}
impl Mul<i32> for S {
    type Output = S;
    #[inline(always)]
    fn mul(self, k: i32) -> S {
        S(self.0 * k, self.1 * k)
    }
}
