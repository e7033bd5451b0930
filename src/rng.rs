//! The one random generator of the tools: [`SplitMix64`] (Steele, Lea and Flood), a `u64`
//! counter advanced by a fixed odd step and passed through [`mix64`]. Its whole state is one
//! `u64` (a trainer checkpoint stores it), its stream is fixed by its published constants
//! (the same on every platform and with every version of every crate), and it is fast and
//! well mixed enough for shuffles, openings and initial weights.
//!
//! Used by the network trainer (the split, the epoch shuffles, the initial weights), genfens
//! (opening positions), datagen (each game's opening), the tuner (the held-out split and the
//! batch shuffles), a limited-strength search's choice of move (`search::strength`) and [`crate::eval::nnue::Network::random`] (test networks). `build.rs`
//! keeps its own xorshift (`tables::gen`) for the magic search, which runs before this crate
//! exists.

use crate::hash::mix64;

/// SplitMix64's step: the fractional part of the golden ratio, times 2^64 (odd).
pub const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// A SplitMix64 generator. `state` is public so that it can be saved and restored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitMix64 {
    pub state: u64,
}

impl SplitMix64 {
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GAMMA);
        mix64(self.state)
    }

    /// A number in `0..n` (`n > 0`), by the multiply-high method (bias below 2^-32 for every
    /// `n` used here).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }

    /// A number in `[-r, r)`, from the top 24 bits of one draw.
    pub fn uniform(&mut self, r: f32) -> f32 {
        let unit = (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
        (unit * 2.0 - 1.0) * r
    }

    /// Fisher–Yates shuffle: one draw per element after the first, from the end down.
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i + 1);
            v.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_is_fixed() {
        // SplitMix64 from seed 0: published first outputs.
        let mut r = SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        let mut r = SplitMix64::new(5);
        assert!((0..1000).all(|_| r.below(7) < 7));
        assert!((0..1000).all(|_| (-0.5..0.5).contains(&r.uniform(0.5))));
        let mut v: Vec<u32> = (0..50).collect();
        r.shuffle(&mut v);
        v.sort_unstable();
        assert_eq!(v, (0..50).collect::<Vec<_>>());
    }
}
