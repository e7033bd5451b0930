//! Two small hash functions shared by the file formats and the tools, kept here so that
//! none of them depends on another's module for them:
//!
//! - [`fnv1a64`]: FNV-1a 64, the checksum of the `.nnue` network file and of the trainer's
//!   checkpoints, and the first step of a training record's duplicate key.
//! - [`mix64`]: the output function of SplitMix64 (Steele, Lea and Flood), a bijection of
//!   `u64` that spreads every input bit over the whole output. The random generator
//!   ([`crate::rng::SplitMix64`]) is a counter passed through it; the training record's
//!   duplicate key and datagen's per-game seeds use it to finish a hash.
//!
//! This module uses nothing of the crate, so every layer can use it.

/// FNV-1a 64 offset basis and prime.
const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// FNV-1a 64 of `bytes`.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(FNV_OFFSET, |h, &b| (h ^ b as u64).wrapping_mul(FNV_PRIME))
}

/// The SplitMix64 output function: a bijective mix of all 64 bits.
#[inline]
pub const fn mix64(x: u64) -> u64 {
    let mut z = x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn published_values() {
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        // SplitMix64's first output from state 0 is mix64 of its increment.
        assert_eq!(mix64(0x9E37_79B9_7F4A_7C15), 0xE220_A839_7B1D_CDAF);
    }
}
