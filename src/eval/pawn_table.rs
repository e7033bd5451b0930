//! The pawn hash table: the pawn-structure score and passed pawns of recent pawn
//! configurations, keyed by the board's pawn key. Pawns move rarely, so most evaluations in a
//! search find their pawn structure here instead of recomputing it.
//!
//! Each search thread owns its table, so there is no sharing and no locking. An entry stores
//! the whole 64-bit key, so a hit is a true hit barring a 64-bit key collision.

use super::score::S;
use crate::bitboard::Bitboard;

/// The cached pawn evaluation of one pawn configuration.
#[derive(Copy, Clone, Default, Debug, PartialEq, Eq)]
pub struct PawnEntry {
    /// The board's `pawn_key()`.
    pub key: u64,
    /// White's pawn-structure score minus black's.
    pub score: S,
    /// Passed pawns of white and of black, each in its own frame.
    pub passed: [Bitboard; 2],
}

/// A direct-mapped table of `PawnEntry`, with hit statistics.
///
/// It starts (and is cleared to) all zeros. Key 0 is the pawn key of a position without pawns
/// and the zero entry is exactly that position's evaluation (tested in `pawns.rs`), so an
/// untouched slot never gives a wrong answer.
pub struct PawnTable {
    entries: Box<[PawnEntry]>,
    mask: usize,
    probes: u64,
    hits: u64,
}

impl PawnTable {
    /// A table of `2^bits` entries.
    pub fn new(bits: u32) -> PawnTable {
        let n = 1usize << bits;
        PawnTable { entries: vec![PawnEntry::default(); n].into_boxed_slice(), mask: n - 1, probes: 0, hits: 0 }
    }

    /// The entry for `key`, computed with `compute` (and stored) when it is not in the table.
    #[inline(always)]
    pub fn probe(&mut self, key: u64, compute: impl FnOnce() -> PawnEntry) -> PawnEntry {
        self.probes += 1;
        let i = key as usize & self.mask;
        let slot = &mut self.entries[i];
        if slot.key == key {
            self.hits += 1;
            return *slot;
        }
        let mut e = compute();
        e.key = key;
        *slot = e;
        e
    }

    /// Empties the table and zeroes the statistics.
    pub fn clear(&mut self) {
        self.entries.fill(PawnEntry::default());
        self.probes = 0;
        self.hits = 0;
    }

    /// Lookups since the last clear.
    pub fn probes(&self) -> u64 {
        self.probes
    }

    /// Lookups that found their entry.
    pub fn hits(&self) -> u64 {
        self.hits
    }
}
