//! Perft: counting the leaves of the legal move tree, for verifying move generation.
//! Bulk counting at the last ply by default; optionally every leaf played (`bulk: false`),
//! the tree split below the root over threads, and a shared lock-free transposition table
//! (`perft_table`).

use crate::board::Board;
use crate::error::SuiteLineError;
use crate::movegen::{MoveList, ALL};
use crate::perft_table::{PerftTable, TableError};
use crate::types::{CastleSide, Color};
use crate::Move;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

/// How to run perft. Every combination gives the same counts.
#[derive(Clone, Copy, Debug)]
pub struct PerftOptions {
    /// Count the moves at the last ply instead of playing them.
    pub bulk: bool,
    /// Threads sharing the subtrees below the root (1 = run on the caller's thread).
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
        // Count the children's moves right here, without playing the moves in full.
        for &m in &list {
            total += board.count_after_inline(m);
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

/// Live counters of a running `divide`, for a progress display on another thread.
#[derive(Default)]
pub struct PerftCounters {
    /// Root moves, and root moves whose whole subtree is counted.
    pub roots_total: AtomicUsize,
    pub roots_done: AtomicUsize,
    /// Work units (subtrees below the root), and those finished.
    pub tasks_total: AtomicUsize,
    pub tasks_done: AtomicUsize,
    /// Leaves counted in finished work units.
    pub nodes: AtomicU64,
}

/// A reusable perft runner: the options and, when hashing, one table allocated up front and
/// shared by every later call (entries are keyed exactly, so positions never mix).
pub struct Perft {
    opts: PerftOptions,
    table: Option<PerftTable>,
}

/// Work units are split below the root until there are this many per thread...
const TASKS_PER_THREAD: usize = 256;
/// ...but a unit keeps at least this much remaining depth (shallower ones cost more to set
/// up than they save),
const MIN_TASK_DEPTH: u32 = 3;
/// ...and its path from the root is at most this long.
const MAX_SPLIT_PLIES: usize = 4;

/// A subtree below the root: the moves from the root to it, and the root move it counts for.
#[derive(Clone, Copy)]
struct Task {
    root: usize,
    path: [Move; MAX_SPLIT_PLIES],
    len: usize,
}

impl Perft {
    /// A runner with these options; allocates the hash table now (an error if it cannot).
    pub fn new(opts: PerftOptions) -> Result<Perft, TableError> {
        let opts = PerftOptions { threads: opts.threads.clamp(1, 256), ..opts };
        let table = match opts.hash_mb {
            0 => None,
            mb => Some(PerftTable::new(mb)?),
        };
        Ok(Perft { opts, table })
    }

    pub fn options(&self) -> PerftOptions {
        self.opts
    }

    /// Perft split by root move ("divide"), in move-generation order.
    pub fn divide(&self, board: &Board, depth: u32) -> Vec<(Move, u64)> {
        self.divide_counted(board, depth, &PerftCounters::default())
    }

    /// Total leaf count (1 at depth 0).
    pub fn count(&self, board: &Board, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.opts.threads == 1 && self.table.is_none() {
            return perft(&mut board.clone(), depth, self.opts.bulk);
        }
        self.divide(board, depth).iter().map(|(_, n)| n).sum()
    }

    /// `divide`, keeping `counters` up to date as the work proceeds.
    ///
    /// 1. The root moves are expanded breadth-first into subtrees until there are enough of
    ///    them to keep every thread busy to the end (a few root moves often hold most of the
    ///    nodes: 1. e4 and 1. d4 are a third of the start position's tree).
    /// 2. Threads take subtrees, each from its own share first; a thread replays the
    ///    subtree's path on its own copy of the board and counts it (through the shared table
    ///    if any, so transpositions between subtrees are counted once).
    /// 3. Each count is added to its root move; a root move is done when all its subtrees are.
    pub fn divide_counted(&self, board: &Board, depth: u32, counters: &PerftCounters) -> Vec<(Move, u64)> {
        if depth == 0 {
            return Vec::new();
        }
        if let Some(t) = &self.table {
            t.new_generation();
        }
        let roots: Vec<Move> = board.legal_moves().iter().copied().collect();
        let tasks = split(board, &roots, depth, self.opts.threads * TASKS_PER_THREAD);
        let mut pending: Vec<AtomicUsize> = roots.iter().map(|_| AtomicUsize::new(0)).collect();
        for t in &tasks {
            *pending[t.root].get_mut() += 1;
        }
        // Root moves without any subtree (every line ends in mate or stalemate early).
        let empty_roots = pending.iter_mut().map(|p| *p.get_mut()).filter(|&p| p == 0).count();
        counters.roots_total.store(roots.len(), Ordering::Relaxed);
        counters.roots_done.store(empty_roots, Ordering::Relaxed);
        counters.tasks_total.store(tasks.len(), Ordering::Relaxed);
        counters.tasks_done.store(0, Ordering::Relaxed);
        counters.nodes.store(0, Ordering::Relaxed);

        let counts: Vec<AtomicU64> = roots.iter().map(|_| AtomicU64::new(0)).collect();
        let hashing = self.table.as_ref().map(|tt| Hashing::new(tt, board));
        // Each thread starts on its own contiguous share of the subtrees and then helps with
        // the others'. Neighbouring subtrees transpose into each other a lot; threads that
        // worked side by side would often count the same position at the same time.
        let threads = self.opts.threads;
        let shares: Vec<(AtomicUsize, usize)> = (0..threads)
            .map(|t| (AtomicUsize::new(t * tasks.len() / threads), (t + 1) * tasks.len() / threads))
            .collect();
        let work = |me: usize| {
            let mut b = board.clone();
            for (next, end) in (0..threads).map(|k| &shares[(me + k) % threads]) {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= *end {
                        break;
                    }
                    let task = &tasks[i];
                    for &m in &task.path[..task.len] {
                        b.make(m);
                    }
                    let rest = depth - task.len as u32;
                    let n = match &hashing {
                        Some(h) => perft_hashed(&mut b, rest, self.opts.bulk, h),
                        None => perft(&mut b, rest, self.opts.bulk),
                    };
                    for _ in 0..task.len {
                        b.unmake();
                    }
                    counts[task.root].fetch_add(n, Ordering::Relaxed);
                    counters.nodes.fetch_add(n, Ordering::Relaxed);
                    counters.tasks_done.fetch_add(1, Ordering::Relaxed);
                    if pending[task.root].fetch_sub(1, Ordering::AcqRel) == 1 {
                        counters.roots_done.fetch_add(1, Ordering::Relaxed);
                    }
                }
            }
        };
        if threads == 1 {
            work(0);
        } else {
            std::thread::scope(|s| {
                for t in 0..threads {
                    s.spawn(move || work(t));
                }
            });
        }
        roots.into_iter().zip(counts.iter().map(|c| c.load(Ordering::Relaxed))).collect()
    }
}

/// Expands the root moves into at least `want` subtrees where depth allows (see
/// `Perft::divide_counted`). Lines that end in mate or stalemate before the split ply are
/// dropped: they have no leaves at the full depth.
fn split(board: &Board, roots: &[Move], depth: u32, want: usize) -> Vec<Task> {
    let mut tasks: Vec<Task> = roots
        .iter()
        .enumerate()
        .map(|(root, &m)| Task { root, path: [m; MAX_SPLIT_PLIES], len: 1 })
        .collect();
    let mut b = board.clone();
    let mut plies = 1;
    while tasks.len() < want && plies < MAX_SPLIT_PLIES && depth >= plies as u32 + 1 + MIN_TASK_DEPTH {
        let mut deeper = Vec::with_capacity(tasks.len() * 32);
        for t in &tasks {
            for &m in &t.path[..t.len] {
                b.make(m);
            }
            for &m in &b.legal_moves() {
                let mut child = *t;
                child.path[child.len] = m;
                child.len += 1;
                deeper.push(child);
            }
            for _ in 0..t.len {
                b.unmake();
            }
        }
        tasks = deeper;
        plies += 1;
    }
    tasks
}

/// A table plus the salt that makes its keys exact for this run.
///
/// The Zobrist key says which castling rights are held but not which rook each belongs to;
/// in Chess960 two positions can differ only in that (an inner or outer rook). The rook
/// squares never change during one run, so they are folded into every key as a salt,
/// computed once from the root (positions further down may have lost the rights).
struct Hashing<'a> {
    tt: &'a PerftTable,
    salt: u64,
}

impl<'a> Hashing<'a> {
    fn new(tt: &'a PerftTable, board: &Board) -> Hashing<'a> {
        let mut salt = 0u64;
        for c in Color::ALL {
            for side in CastleSide::ALL {
                let sq = board.castle_rook(c, side).map_or(0, |s| s.index() as u64 + 1);
                salt = (salt ^ sq).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29);
            }
        }
        Hashing { tt, salt }
    }
}

/// Hashed perft (depth >= 0). Like `perft`, it runs in a `popcnt` copy when the CPU has one.
fn perft_hashed(board: &mut Board, depth: u32, bulk: bool, h: &Hashing) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if !cfg!(target_feature = "popcnt") && std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the CPU supports `popcnt`, checked just above.
        return unsafe { perft_hashed_popcnt(board, depth, bulk, h) };
    }
    perft_hashed_plain(board, depth, bulk, h)
}

fn perft_hashed_plain(board: &mut Board, depth: u32, bulk: bool, h: &Hashing) -> u64 {
    hashed_body(board, depth, bulk, h, perft_hashed_plain, perft_plain)
}

/// `perft_hashed` with `popcnt` enabled. Callers must make sure the CPU supports it.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
unsafe fn perft_hashed_popcnt(board: &mut Board, depth: u32, bulk: bool, h: &Hashing) -> u64 {
    hashed_body(
        board,
        depth,
        bulk,
        h,
        // SAFETY: only reached through `perft_hashed`, which checked for `popcnt`.
        |b, d, bulk, h| unsafe { perft_hashed_popcnt(b, d, bulk, h) },
        // SAFETY: as above.
        |b, d, bulk| unsafe { perft_popcnt(b, d, bulk) },
    )
}

/// One node of the hashed recursion.
///
/// 1. Depths 0 and 1 are cheaper to count than to look up (a table probe is a cache miss).
/// 2. A stored count for this position and depth is the answer.
/// 3. At depth 2 the children's moves are counted right here (`count_after_inline`).
/// 4. Deeper, the children are looked up in the table before they are played: their keys
///    come from `key_after` (no make/unmake), their buckets are prefetched first so the
///    cache misses overlap instead of queueing, and only a child that is not found is
///    played and counted (its own probe then finds the bucket in the cache).
#[inline(always)]
fn hashed_body(
    board: &mut Board,
    depth: u32,
    bulk: bool,
    h: &Hashing,
    recurse: impl Fn(&mut Board, u32, bool, &Hashing) -> u64,
    plain: impl Fn(&mut Board, u32, bool) -> u64,
) -> u64 {
    if depth < 2 {
        return plain(board, depth, bulk);
    }
    let key = board.key() ^ h.salt;
    if let Some(n) = h.tt.probe(key, depth) {
        return n;
    }
    let mut list = MoveList::new();
    board.generate::<ALL, _>(&mut list);
    let mut total = 0;
    if depth == 2 && bulk {
        for &m in &list {
            total += board.count_after_inline(m);
        }
    } else if depth == 2 {
        for &m in &list {
            board.make_inline(m);
            total += plain(board, 1, false);
            board.unmake_inline();
        }
    } else {
        for &m in &list {
            h.tt.prefetch(board.key_after(m) ^ h.salt);
        }
        for &m in &list {
            if let Some(n) = h.tt.probe(board.key_after(m) ^ h.salt, depth - 1) {
                total += n;
                continue;
            }
            board.make_inline(m);
            total += recurse(board, depth - 1, bulk, h);
            board.unmake_inline();
        }
    }
    h.tt.store(key, depth, total);
    total
}

/// Perft split by root move ("divide") with one-off options; a table, if asked for, lives
/// for this call only (if it cannot be allocated the count runs without one). Use `Perft`
/// to keep one table across calls.
pub fn divide(board: &Board, depth: u32, opts: PerftOptions) -> Vec<(Move, u64)> {
    runner(opts).divide(board, depth)
}

/// Below this depth a stoppable perft runs the plain recursion without looking at the
/// stop flag: such subtrees take well under a millisecond.
const STOP_CHECK_DEPTH: u32 = 3;

/// Divide that can be interrupted: `each` gets every root move's count as soon as it is
/// known (move-generation order), and the count stops early once `stop` is set. Returns
/// false if it was stopped before the end.
pub fn divide_until(board: &Board, depth: u32, stop: &AtomicBool, mut each: impl FnMut(Move, u64)) -> bool {
    if depth == 0 {
        return true;
    }
    let mut b = board.clone();
    let list = b.legal_moves();
    for &m in &list {
        b.make(m);
        let n = perft_until(&mut b, depth - 1, stop);
        b.unmake();
        match n {
            Some(n) => each(m, n),
            None => return false,
        }
    }
    true
}

/// Bulk-counting perft that gives up (None) once `stop` is set.
fn perft_until(board: &mut Board, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth <= STOP_CHECK_DEPTH {
        return Some(perft(board, depth, true));
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let list = board.legal_moves();
    let mut total = 0;
    for &m in &list {
        board.make(m);
        let n = perft_until(board, depth - 1, stop);
        board.unmake();
        total += n?;
    }
    Some(total)
}

/// Total perft count with one-off options (see `divide`).
pub fn perft_with(board: &Board, depth: u32, opts: PerftOptions) -> u64 {
    if depth == 0 {
        return 1;
    }
    if opts.threads <= 1 && opts.hash_mb == 0 {
        return perft(&mut board.clone(), depth, opts.bulk);
    }
    runner(opts).count(board, depth)
}

fn runner(opts: PerftOptions) -> Perft {
    Perft::new(opts).unwrap_or_else(|_| Perft { opts: PerftOptions { hash_mb: 0, ..opts }, table: None })
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
