//! Perft: counting the leaves of the legal move tree, for verifying move generation.
//! Bulk counting at the last ply by default; optionally every leaf played (`bulk: false`),
//! root moves split over threads, and a shared lock-free transposition table.

use crate::board::Board;
use crate::error::SuiteLineError;
use crate::movegen::{MoveList, ALL};
use crate::moves::Move;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// How to run perft. Every combination gives the same counts.
#[derive(Clone, Copy, Debug)]
pub struct PerftOptions {
    /// Count the moves at the last ply instead of playing them.
    pub bulk: bool,
    /// Threads splitting the root moves (1 = run on the caller's thread).
    pub threads: usize,
    /// Transposition table size in MiB (0 = none).
    pub hash_mb: usize,
}

impl Default for PerftOptions {
    fn default() -> Self {
        PerftOptions { bulk: true, threads: 1, hash_mb: 0 }
    }
}

/// Plain recursive perft.
///
/// On x86-64 CPUs with the `popcnt` instruction (detected at run time, so the binary stays
/// portable) the whole recursion runs in a copy of the code compiled with that instruction
/// enabled: bulk counting is mostly popcounts, which the baseline x86-64 target has to
/// emulate with a dozen shifts and masks.
pub fn perft(board: &mut Board, depth: u32, bulk: bool) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if !cfg!(target_feature = "popcnt") && std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the CPU supports `popcnt`, checked just above.
        return unsafe { perft_popcnt(board, depth, bulk) };
    }
    perft_plain(board, depth, bulk)
}

/// `perft` for the compile-time target features.
fn perft_plain(board: &mut Board, depth: u32, bulk: bool) -> u64 {
    perft_body(board, depth, bulk, perft_plain)
}

/// `perft` with `popcnt` enabled. Callers must make sure the CPU supports it.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
unsafe fn perft_popcnt(board: &mut Board, depth: u32, bulk: bool) -> u64 {
    perft_body(board, depth, bulk, |b, d, bulk| {
        // SAFETY: we only get here through `perft`, which checked that the CPU has `popcnt`.
        unsafe { perft_popcnt(b, d, bulk) }
    })
}

/// The perft recursion, inlined into each feature-specific copy; `recurse` is that copy.
#[inline(always)]
fn perft_body(board: &mut Board, depth: u32, bulk: bool, recurse: impl Fn(&mut Board, u32, bool) -> u64) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 && bulk {
        return board.count_moves_inline();
    }
    let mut list = MoveList::new();
    board.generate::<ALL, _>(&mut list);
    if depth == 1 {
        for &m in &list {
            board.make_inline(m);
            board.unmake_inline();
        }
        return list.len() as u64;
    }
    let mut total = 0;
    if depth == 2 && bulk {
        // Count the children's moves right here instead of through a recursive call.
        for &m in &list {
            board.make_inline(m);
            total += board.count_moves_inline();
            board.unmake_inline();
        }
        return total;
    }
    for &m in &list {
        board.make_inline(m);
        total += recurse(board, depth - 1, bulk);
        board.unmake_inline();
    }
    total
}

/// A lock-free perft hash table: each slot stores `key ^ data` and `data`
/// (data = count << 8 | depth), so a torn write from another thread is detected on read.
pub struct PerftTable {
    slots: Vec<[AtomicU64; 2]>,
    mask: usize,
}

impl PerftTable {
    pub fn new(mb: usize) -> PerftTable {
        let n = ((mb.max(1) << 20) / 16).next_power_of_two() / 2;
        let n = n.max(1024);
        let slots = (0..n).map(|_| [AtomicU64::new(0), AtomicU64::new(0)]).collect();
        PerftTable { slots, mask: n - 1 }
    }

    fn probe(&self, key: u64, depth: u32) -> Option<u64> {
        let slot = &self.slots[key as usize & self.mask];
        let check = slot[0].load(Ordering::Relaxed);
        let data = slot[1].load(Ordering::Relaxed);
        (check ^ data == key && data & 0xFF == depth as u64 && data != 0).then_some(data >> 8)
    }

    fn store(&self, key: u64, depth: u32, count: u64) {
        let slot = &self.slots[key as usize & self.mask];
        let data = count << 8 | depth as u64;
        slot[0].store(key ^ data, Ordering::Relaxed);
        slot[1].store(data, Ordering::Relaxed);
    }
}

fn perft_hashed(board: &mut Board, depth: u32, bulk: bool, tt: &PerftTable) -> u64 {
    if depth <= 1 {
        return perft(board, depth, bulk);
    }
    // Mix the depth into the index so that different depths of one position do not collide.
    let key = board.key() ^ (depth as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    if let Some(n) = tt.probe(key, depth) {
        return n;
    }
    let list = board.legal_moves();
    let mut total = 0;
    for &m in &list {
        board.make(m);
        total += perft_hashed(board, depth - 1, bulk, tt);
        board.unmake();
    }
    tt.store(key, depth, total);
    total
}

/// Perft split by root move ("divide"), in move-generation order.
pub fn divide(board: &Board, depth: u32, opts: PerftOptions) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let moves: Vec<Move> = board.legal_moves().iter().copied().collect();
    let tt = (opts.hash_mb > 0).then(|| PerftTable::new(opts.hash_mb));
    let counts: Vec<AtomicU64> = moves.iter().map(|_| AtomicU64::new(0)).collect();
    let next = AtomicUsize::new(0);
    let work = || {
        let mut b = board.clone();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= moves.len() {
                break;
            }
            b.make(moves[i]);
            let n = match &tt {
                Some(tt) => perft_hashed(&mut b, depth - 1, opts.bulk, tt),
                None => perft(&mut b, depth - 1, opts.bulk),
            };
            b.unmake();
            counts[i].store(n, Ordering::Relaxed);
        }
    };
    let threads = opts.threads.clamp(1, 256);
    if threads == 1 {
        work();
    } else {
        std::thread::scope(|s| {
            for _ in 0..threads {
                s.spawn(work);
            }
        });
    }
    moves.into_iter().zip(counts.iter().map(|c| c.load(Ordering::Relaxed))).collect()
}

/// Total perft count with the given options.
pub fn perft_with(board: &Board, depth: u32, opts: PerftOptions) -> u64 {
    if depth == 0 {
        return 1;
    }
    if opts.threads <= 1 && opts.hash_mb == 0 {
        return perft(&mut board.clone(), depth, opts.bulk);
    }
    divide(board, depth, opts).iter().map(|(_, n)| n).sum()
}

/// One line of an EPD perft suite: `FEN ;D1 20 ;D2 400 ...`.
#[derive(Clone, Debug)]
pub struct SuiteEntry {
    pub fen: String,
    pub depths: Vec<(u32, u64)>,
}

/// Parses one suite line; `Ok(None)` for blank lines and `#` comments.
pub fn parse_suite_line(line: &str) -> Result<Option<SuiteEntry>, SuiteLineError> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let mut parts = line.split(';');
    let fen = parts.next().unwrap_or("").trim().to_string();
    let mut depths = Vec::new();
    for p in parts {
        let p = p.trim();
        if p.is_empty() {
            continue;
        }
        let mut it = p.split_whitespace();
        let (d, n) = (it.next().unwrap_or(""), it.next().unwrap_or(""));
        let depth = d
            .strip_prefix('D')
            .and_then(|x| x.parse::<u32>().ok())
            .ok_or_else(|| SuiteLineError::BadDepth(p.to_string()))?;
        let count = n.parse::<u64>().map_err(|_| SuiteLineError::BadCount(p.to_string()))?;
        depths.push((depth, count));
    }
    if depths.is_empty() {
        return Err(SuiteLineError::NoCounts);
    }
    Ok(Some(SuiteEntry { fen, depths }))
}
