//! The perft runner: options, the tree split below the root over threads, an optional shared
//! table, and live counters for a progress display.

use super::count::perft;
use super::hashed::{perft_hashed, Hashing};
use super::table::{PerftTable, TableError};
use crate::board::Board;
use crate::Move;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

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
    let mut tasks: Vec<Task> =
        roots.iter().enumerate().map(|(root, &m)| Task { root, path: [m; MAX_SPLIT_PLIES], len: 1 }).collect();
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

/// Perft split by root move ("divide") with one-off options; a table, if asked for, lives
/// for this call only (if it cannot be allocated the count runs without one). Use `Perft`
/// to keep one table across calls.
pub fn divide(board: &Board, depth: u32, opts: PerftOptions) -> Vec<(Move, u64)> {
    runner(opts).divide(board, depth)
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
