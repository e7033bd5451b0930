//! The transposition table: buckets of four 16-byte entries (one cache line), shared by
//! reference between search threads without locks. Each entry stores `key ^ data` and
//! `data`; a torn write by another thread fails the key check and reads as a miss.
//!
//! Replacement: within a bucket an entry for the same key is overwritten (keeping its move
//! if the new one has none, and not by a much shallower bound of the same search);
//! otherwise the entry with the lowest `depth - TT_AGE_WEIGHT * age distance` is replaced,
//! so old searches' entries go first and deep entries stay (weights in `params.rs`).

use super::params::{MATE_BOUND, TB_WIN_BOUND, TT_AGE_WEIGHT, TT_KEEP_DEEPER_BY};
use crate::error::HashAllocError;
use crate::memory::{Zeroable, ZeroedSlice};
use crate::moves::Move;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// What a score is: exact, or only a bound on the true value. Used for hash entries (a
/// node that failed high or low) and for reported scores (an aspiration window failure).
/// The discriminants are the two bits stored in an entry; 0 is never stored, so a used
/// slot is never all zero.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Bound {
    /// The true score is at most this (no move raised alpha).
    Upper = 1,
    /// The true score is at least this (a fail high).
    Lower = 2,
    Exact = 3,
}

impl Bound {
    /// The bound stored in two bits of an entry.
    #[inline(always)]
    fn from_bits(bits: u64) -> Bound {
        debug_assert!(bits != 0);
        match bits {
            1 => Bound::Upper,
            2 => Bound::Lower,
            _ => Bound::Exact,
        }
    }
}

const BUCKET_SIZE: usize = 4;
/// `hashfull` looks at this many entries (the UCI value is per mille of them).
const HASHFULL_SAMPLE: usize = 1000;

/// What a probe returns.
#[derive(Copy, Clone, Debug)]
pub struct TtEntry {
    pub mv: Move,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

impl TtEntry {
    /// The static eval `eval` sharpened by this entry's score: the score when it is exact
    /// or a bound beyond `eval` on its own side (a lower bound above it, an upper bound
    /// below it), else `eval`. Mate scores are left out: they say how a line ends, not what
    /// the position is worth to pruning.
    #[inline]
    pub fn sharpen(&self, eval: i32) -> i32 {
        let s = self.score;
        let sharper = s.abs() < MATE_BOUND
            && match self.bound {
                Bound::Exact => true,
                Bound::Lower => s > eval,
                Bound::Upper => s < eval,
            };
        if sharper {
            s
        } else {
            eval
        }
    }
}

struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

#[repr(align(64))]
struct Bucket {
    slots: [Slot; BUCKET_SIZE],
}

// SAFETY: a bucket is eight `AtomicU64`s (all zero: four empty slots), needs no drop and is
// 64-byte aligned.
unsafe impl Zeroable for Bucket {}

pub struct TranspositionTable {
    /// Zeroed memory of its own, on huge pages where the system has them (`crate::memory`).
    buckets: ZeroedSlice<Bucket>,
    age: AtomicU8,
}

// data layout: move 16 | score 16 | eval 16 | depth 8 | bound 2 | age 6
fn pack(mv: Move, score: i32, eval: i32, depth: i32, bound: Bound, age: u8) -> u64 {
    mv.raw() as u64
        | ((score as i16 as u16 as u64) << 16)
        | ((eval as i16 as u16 as u64) << 32)
        | ((depth.clamp(-1, 254) + 1) as u64) << 48
        | ((bound as u64) << 56)
        | (((age & 63) as u64) << 58)
}

fn unpack(data: u64) -> (TtEntry, u8) {
    (
        TtEntry {
            mv: Move::from_raw(data as u16),
            score: (data >> 16) as u16 as i16 as i32,
            eval: (data >> 32) as u16 as i16 as i32,
            depth: ((data >> 48) & 0xFF) as i32 - 1,
            bound: Bound::from_bits((data >> 56) & 3),
        },
        ((data >> 58) & 63) as u8,
    )
}

impl TranspositionTable {
    /// A table of about `mb` MiB (at least one bucket).
    pub fn new(mb: usize) -> TranspositionTable {
        Self::try_new(mb).expect("out of memory for the hash table")
    }

    /// Like `new`, but reports an allocation failure instead of aborting.
    pub fn try_new(mb: usize) -> Result<TranspositionTable, HashAllocError> {
        let n = ((mb.max(1) << 20) / std::mem::size_of::<Bucket>()).max(1);
        let buckets = ZeroedSlice::new(n).ok_or(HashAllocError { mb })?;
        Ok(TranspositionTable { buckets, age: AtomicU8::new(0) })
    }

    /// Empties the table.
    pub fn clear(&self) {
        for b in self.buckets.iter() {
            for s in &b.slots {
                s.check.store(0, Ordering::Relaxed);
                s.data.store(0, Ordering::Relaxed);
            }
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Starts a new search (ages existing entries).
    pub fn new_search(&self) {
        self.age.store((self.age.load(Ordering::Relaxed) + 1) & 63, Ordering::Relaxed);
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &Bucket {
        // Multiply-shift maps the key uniformly onto the bucket count (no power of two needed).
        let idx = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[idx]
    }

    /// Asks the CPU to start loading the bucket of `key`, so that a probe soon after finds it
    /// in cache (a table far larger than the cache misses on almost every probe). Only a
    /// hint: it changes no result.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let bucket: *const Bucket = self.bucket(key);
            // SAFETY: `bucket` points into `self.buckets`, and a prefetch only hints at a
            // cache line: it reads nothing and cannot fault.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(bucket.cast::<i8>()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Looks the position up.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        for s in &self.bucket(key).slots {
            let data = s.data.load(Ordering::Relaxed);
            if data != 0 && s.check.load(Ordering::Relaxed) ^ data == key {
                return Some(unpack(data).0);
            }
        }
        None
    }

    /// Stores a result. `score` must already be adjusted to be node-relative for mates.
    #[inline]
    pub fn store(&self, key: u64, mv: Move, score: i32, eval: i32, depth: i32, bound: Bound) {
        let age = self.age.load(Ordering::Relaxed);
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut worst = i32::MAX;
        for (i, s) in bucket.slots.iter().enumerate() {
            let data = s.data.load(Ordering::Relaxed);
            if data == 0 {
                victim = i;
                break;
            }
            if s.check.load(Ordering::Relaxed) ^ data == key {
                let (old, old_age) = unpack(data);
                // A much shallower bound (e.g. from quiescence) does not overwrite a deep
                // result of this search; an exact score always does.
                if bound != Bound::Exact && old.depth >= depth + TT_KEEP_DEEPER_BY && old_age == age {
                    return;
                }
                let mv = if mv.is_null() { old.mv } else { mv };
                let d = pack(mv, score, eval, depth, bound, age);
                s.check.store(key ^ d, Ordering::Relaxed);
                s.data.store(d, Ordering::Relaxed);
                return;
            }
            let (e, a) = unpack(data);
            let age_dist = (age.wrapping_sub(a) & 63) as i32;
            let worth = e.depth - TT_AGE_WEIGHT * age_dist;
            if worth < worst {
                worst = worth;
                victim = i;
            }
        }
        let d = pack(mv, score, eval, depth, bound, age);
        let s = &bucket.slots[victim];
        s.check.store(key ^ d, Ordering::Relaxed);
        s.data.store(d, Ordering::Relaxed);
    }

    /// Permille of the first thousand buckets' entries written in this search.
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed);
        let n = self.buckets.len().min(HASHFULL_SAMPLE / BUCKET_SIZE);
        let mut used = 0;
        for b in &self.buckets[..n] {
            for s in &b.slots {
                let data = s.data.load(Ordering::Relaxed);
                if data != 0 && unpack(data).1 == age {
                    used += 1;
                }
            }
        }
        (used * 1000 / (n * BUCKET_SIZE).max(1)) as u32
    }
}

/// The bound type of a node's result: a fail-high is a lower bound, a raised alpha is exact,
/// anything else an upper bound.
#[inline(always)]
pub(crate) fn bound_of(best_score: i32, beta: i32, raised_alpha: bool) -> Bound {
    if best_score >= beta {
        Bound::Lower
    } else if raised_alpha {
        Bound::Exact
    } else {
        Bound::Upper
    }
}

#[inline(always)]
pub(crate) fn score_to_tt(score: i32, ply: usize) -> i32 {
    // Mate and tablebase scores count plies from the root; the table keeps them counted
    // from the node, so that they mean the same wherever the position is met again.
    if score >= TB_WIN_BOUND {
        score + ply as i32
    } else if score <= -TB_WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

#[inline(always)]
pub(crate) fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= TB_WIN_BOUND {
        score - ply as i32
    } else if score <= -TB_WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::params::MATE;

    fn entry(score: i32, bound: Bound) -> TtEntry {
        TtEntry { mv: Move::NULL, score, eval: 0, depth: 3, bound }
    }

    /// An exact score always replaces the eval; a bound only from its own side (a lower
    /// bound above the eval, an upper bound below it); a mate score never. Each assertion
    /// fails if its case is handled like one of the others.
    #[test]
    fn a_stored_bound_sharpens_the_eval_only_from_its_own_side() {
        assert_eq!(entry(40, Bound::Exact).sharpen(100), 40);
        assert_eq!(entry(150, Bound::Lower).sharpen(100), 150);
        assert_eq!(entry(50, Bound::Lower).sharpen(100), 100);
        assert_eq!(entry(50, Bound::Upper).sharpen(100), 50);
        assert_eq!(entry(150, Bound::Upper).sharpen(100), 100);
        assert_eq!(entry(MATE - 5, Bound::Exact).sharpen(100), 100);
        assert_eq!(entry(-MATE + 5, Bound::Upper).sharpen(100), 100);
    }
}
