//! The perft transposition table: subtree counts shared lock-free between threads.
//!
//! Each 64-byte bucket (one cache line) holds four entries of two words: `key ^ data` and
//! `data`, where `data` packs the remaining depth, a generation and the count. An entry is
//! trusted only if `check ^ data` gives back the full 64-bit key *and* the depth matches, so
//! a torn write from another thread (one word new, the other old) or a different position
//! hashed to the same bucket is never taken for a hit.
//!
//! The memory is taken from the operating system once, zeroed lazily (on Linux an anonymous
//! mapping, advised to use transparent huge pages: a 2 GB table then costs about a thousand
//! page faults instead of half a million, and far fewer TLB misses on random probes). One
//! table is meant to serve a whole run — every root move, every suite position, every level
//! of a `perft-diff` descent — because entries carry their full key and cannot be confused.

use crate::memory::{Zeroable, ZeroedSlice};
use std::sync::atomic::{AtomicU64, AtomicU8, AtomicUsize, Ordering};

/// Entries per bucket (a bucket is one 64-byte cache line).
const BUCKET_ENTRIES: usize = 4;
/// Bits of `data` holding the remaining depth.
const DEPTH_BITS: u32 = 8;
/// Bits of `data` holding the generation of the run that stored it.
const GEN_BITS: u32 = 8;
/// Counts that fit in the rest of `data`; larger subtrees (only near the root of very deep
/// runs) are simply not stored.
const COUNT_SHIFT: u32 = DEPTH_BITS + GEN_BITS;
const MAX_COUNT: u64 = (1 << (64 - COUNT_SHIFT)) - 1;
/// Smallest table, whatever size is asked for.
const MIN_BUCKETS: usize = 1024;
/// The part of the table in use at first (see `PerftTable`).
const START_BYTES: usize = 32 << 20;
/// The part in use doubles when twice as many new entries as it has buckets have gone in
/// since the last doubling; each doubling halves the fill, so it is nearly full (four
/// entries a bucket) when it grows. A fuller, smaller table pays: perft 8 from the start
/// position stays at 256 MB instead of 512 MB, with fewer page faults and TLB misses,
/// and the few depth-2 entries replaced in full buckets cost less than that (one entry a
/// bucket: 10.2-12.7 s, CPU 19.4-24.1 user + 0.8-1.2 sys; two: 9.7-9.8 s, 18.8 + 0.3-0.5).
const GROW_INSERTS_PER_BUCKET: usize = 2;
/// New entries are counted by sampling: only those whose key has these bits clear, each
/// counting for all. Keys are uniformly random, so the estimate is good, and the shared
/// counter is written 64 times less often.
const INSERT_SAMPLE_MASK: u64 = 63;

#[repr(C, align(64))]
struct Bucket {
    words: [AtomicU64; 2 * BUCKET_ENTRIES],
}

// SAFETY: a bucket is eight `AtomicU64`s (all-zero is eight zeros, the empty bucket), needs
// no drop and is 64-byte aligned.
unsafe impl Zeroable for Bucket {}

/// The operating system would not give the memory for a table of `mb` MiB.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableError {
    pub mb: usize,
}

impl std::fmt::Display for TableError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "cannot allocate a {} MB perft hash table (try a smaller --hash)", self.mb)
    }
}

impl std::error::Error for TableError {}

/// A lock-free table of perft subtree counts keyed by (Zobrist key, remaining depth).
///
/// Only the first part of the table is used at first, and the part in use doubles whenever
/// it is about half full, up to the size asked for. Fresh memory costs a page fault and
/// zeroing by the kernel on first touch (about a second per gigabyte on this kind of virtual
/// machine), so a perft 7 that needs 40 MB of entries no longer pays for a 1 GB table it
/// was given. Growing changes the index mask; the thread that grows it then moves the entries
/// that now index into the new half (their key is `check ^ data`). Entries a race leaves
/// behind are only missed and recomputed, never misread, because every entry carries its
/// full key.
pub struct PerftTable {
    mem: ZeroedSlice<Bucket>,
    /// Mask of the whole allocation (buckets - 1).
    max_mask: usize,
    /// Mask of the part in use.
    mask: AtomicUsize,
    generation: AtomicU8,
    /// New entries since the part in use last grew (sampled). On a cache line of its own:
    /// the fields above are read on every probe by every thread, and must not be knocked
    /// out of their caches whenever one thread counts a store.
    inserts: CacheLine<AtomicUsize>,
}

/// A value alone on its cache line.
#[repr(align(64))]
struct CacheLine<T>(T);

impl PerftTable {
    /// A table of at most `mb` MiB (rounded down to a power of two number of buckets), or
    /// an error if the memory cannot be had.
    pub fn new(mb: usize) -> Result<PerftTable, TableError> {
        let bytes = mb.max(1).saturating_mul(1 << 20);
        let buckets = (bytes / std::mem::size_of::<Bucket>()).max(MIN_BUCKETS);
        // Round down to a power of two so that the index is a mask.
        let buckets = 1usize << (usize::BITS - 1 - buckets.leading_zeros());
        let mem = ZeroedSlice::new(buckets).ok_or(TableError { mb })?;
        let start = (START_BYTES / std::mem::size_of::<Bucket>()).clamp(MIN_BUCKETS, buckets);
        Ok(PerftTable {
            mem,
            max_mask: buckets - 1,
            mask: AtomicUsize::new(start - 1),
            generation: AtomicU8::new(1),
            inserts: CacheLine(AtomicUsize::new(0)),
        })
    }

    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        self.mem.len() * std::mem::size_of::<Bucket>()
    }

    /// Bytes of the part in use.
    pub fn bytes_in_use(&self) -> usize {
        (self.mask.load(Ordering::Relaxed) + 1) * std::mem::size_of::<Bucket>()
    }

    /// Starts a new run: entries of earlier runs stay valid (they are keyed exactly) but are
    /// replaced first.
    pub fn new_generation(&self) {
        let g = self.generation.load(Ordering::Relaxed);
        self.generation.store(if g == u8::MAX { 1 } else { g + 1 }, Ordering::Relaxed);
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &Bucket {
        let i = key as usize & self.mask.load(Ordering::Relaxed) & self.max_mask;
        // SAFETY: `mem` holds `max_mask + 1` buckets and `i <= max_mask`.
        unsafe { self.mem.get_unchecked(i) }
    }

    /// Asks the CPU to start loading the bucket of `key` (no effect on other targets).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let p = self.bucket(key) as *const Bucket as *const i8;
            // SAFETY: a prefetch is only a hint and never faults; `p` points into the table.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The stored count of the subtree of `depth` below the position with `key`, if any.
    #[inline(always)]
    pub fn probe(&self, key: u64, depth: u32) -> Option<u64> {
        let b = self.bucket(key);
        for e in 0..BUCKET_ENTRIES {
            let check = b.words[2 * e].load(Ordering::Relaxed);
            let data = b.words[2 * e + 1].load(Ordering::Relaxed);
            if check ^ data == key && data != 0 && (data & 0xFF) as u32 == depth {
                return Some(data >> COUNT_SHIFT);
            }
        }
        None
    }

    /// Stores a subtree count. Replaces, in this order of preference: the same position and
    /// depth, an empty entry, an entry of an earlier run, the entry of smallest depth (deep
    /// counts are the expensive ones to recompute).
    #[inline(always)]
    pub fn store(&self, key: u64, depth: u32, count: u64) {
        if count > MAX_COUNT || depth > 0xFF {
            return;
        }
        let gen = self.generation.load(Ordering::Relaxed) as u64;
        self.put(self.bucket(key), key, count << COUNT_SHIFT | gen << DEPTH_BITS | depth as u64);
        if key & INSERT_SAMPLE_MASK == 0 {
            self.count_inserts(INSERT_SAMPLE_MASK as usize + 1);
        }
    }

    /// Writes `data` for `key` into bucket `b`, choosing the entry as `store` describes.
    #[inline(always)]
    fn put(&self, b: &Bucket, key: u64, data: u64) {
        let gen = data >> DEPTH_BITS & 0xFF;
        let depth = data & 0xFF;
        let mut victim = 0;
        let mut worst = u64::MAX;
        for e in 0..BUCKET_ENTRIES {
            let check = b.words[2 * e].load(Ordering::Relaxed);
            let data = b.words[2 * e + 1].load(Ordering::Relaxed);
            if data == 0 || (check ^ data == key && data & 0xFF == depth) {
                victim = e;
                break;
            }
            let old_run = (data >> DEPTH_BITS & 0xFF) != gen;
            // Lower is replaced first: earlier runs before this one, then shallow before deep.
            let rank = if old_run { 0 } else { 0x100 } | (data & 0xFF);
            if rank < worst {
                worst = rank;
                victim = e;
            }
        }
        b.words[2 * victim].store(key ^ data, Ordering::Relaxed);
        b.words[2 * victim + 1].store(data, Ordering::Relaxed);
    }

    /// Counts `n` new entries and doubles the part in use when it is about half full.
    #[inline(always)]
    fn count_inserts(&self, n: usize) {
        let mask = self.mask.load(Ordering::Relaxed);
        if mask == self.max_mask {
            return;
        }
        let total = self.inserts.0.fetch_add(n, Ordering::Relaxed) + n;
        if total >= (mask + 1) * GROW_INSERTS_PER_BUCKET
            && self.mask.compare_exchange(mask, mask * 2 + 1, Ordering::Relaxed, Ordering::Relaxed).is_ok()
        {
            self.inserts.0.store(0, Ordering::Relaxed);
            self.move_to_new_half(mask + 1);
        }
    }

    /// After the part in use grew from `old` buckets to `2 * old`: moves every entry whose key
    /// now indexes bucket `i + old` there from bucket `i`.
    #[cold]
    fn move_to_new_half(&self, old: usize) {
        for i in 0..old {
            // SAFETY: as in `bucket`: `i < old <= max_mask + 1`.
            let b = unsafe { self.mem.get_unchecked(i) };
            // SAFETY: `i + old <= max_mask` because the mask just grew to `2 * old - 1`.
            let to = unsafe { self.mem.get_unchecked(i + old) };
            for e in 0..BUCKET_ENTRIES {
                let check = b.words[2 * e].load(Ordering::Relaxed);
                let data = b.words[2 * e + 1].load(Ordering::Relaxed);
                let key = check ^ data;
                if data != 0 && key as usize & old != 0 {
                    self.put(to, key, data);
                    b.words[2 * e + 1].store(0, Ordering::Relaxed);
                    b.words[2 * e].store(0, Ordering::Relaxed);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_part_in_use_grows_and_old_entries_stay_exact() {
        let t = PerftTable::new(256).unwrap();
        assert_eq!(t.bytes(), 256 << 20);
        assert_eq!(t.bytes_in_use(), START_BYTES);
        let mut rng = 0x1234_5678u64;
        let mut keys = Vec::new();
        let start_buckets = START_BYTES / 64;
        for i in 0..(start_buckets * GROW_INSERTS_PER_BUCKET * 3) as u64 {
            rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            t.store(rng, 2, i + 1);
            keys.push((rng, i + 1));
        }
        assert!(t.bytes_in_use() >= 4 * START_BYTES, "{}", t.bytes_in_use());
        // Whatever is found is right: lookups after growing may miss, never misread.
        let found = keys
            .iter()
            .filter(|&&(k, n)| match t.probe(k, 2) {
                Some(got) => {
                    assert_eq!(got, n);
                    true
                }
                None => false,
            })
            .count();
        // Entries are moved when the table grows: nearly all are still found (a few were
        // replaced in full buckets).
        assert!(found > keys.len() * 9 / 10, "{found} of {}", keys.len());
    }

    #[test]
    fn store_probe_and_exact_keys() {
        let t = PerftTable::new(1).unwrap();
        assert_eq!(t.bytes(), 1 << 20);
        t.store(0x1234_5678_9abc_def0, 3, 97_862);
        assert_eq!(t.probe(0x1234_5678_9abc_def0, 3), Some(97_862));
        // Another depth of the same position, or another key in the same bucket: no hit.
        assert_eq!(t.probe(0x1234_5678_9abc_def0, 4), None);
        assert_eq!(t.probe(0x1234_5678_9abc_def0 ^ (1 << 40), 3), None);
        assert_eq!(t.bytes_in_use(), 1 << 20);
        // A count too large to pack is not stored rather than stored wrong.
        t.store(42, 5, MAX_COUNT + 1);
        assert_eq!(t.probe(42, 5), None);
    }

    #[test]
    fn replacement_keeps_deep_entries_of_this_run() {
        let t = PerftTable::new(1).unwrap();
        let buckets = t.mask.load(Ordering::Relaxed) as u64 + 1;
        // Five keys in one bucket: depths 6, 2, 3, 4, then a new depth-2 entry.
        let keys: Vec<u64> = (1..=5).map(|i| 7 + i * buckets).collect();
        for (k, d) in keys.iter().zip([6, 2, 3, 4]) {
            t.store(*k, d, 100 + d as u64);
        }
        t.store(keys[4], 2, 555);
        assert_eq!(t.probe(keys[4], 2), Some(555));
        assert_eq!(t.probe(keys[1], 2), None, "the shallowest entry is the one replaced");
        assert_eq!(t.probe(keys[0], 6), Some(106));
        // In a new run, entries of the earlier run go first, even deep ones.
        t.new_generation();
        t.store(keys[1], 2, 7);
        assert_eq!(t.probe(keys[4], 2), None, "old depth-2 entry replaced first");
        t.store(keys[4], 2, 8);
        assert_eq!(t.probe(keys[2], 3), None, "old depth-3 entry replaced before new depth-2 ones");
        assert_eq!((t.probe(keys[1], 2), t.probe(keys[4], 2)), (Some(7), Some(8)));
        assert_eq!(t.probe(keys[0], 6), Some(106), "still trusted: keys are exact");
    }
}
