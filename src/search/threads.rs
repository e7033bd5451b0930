//! Lazy SMP: a pool of searchers that all search the same root position and share only
//! the lock-free transposition table. Each thread owns its board, histories, killers,
//! stacks and PV (everything in a [`Searcher`], including any evaluation caches a searcher
//! holds), so the threads never write to each other's memory; what one thread learns
//! reaches the others through the table.
//!
//! The main thread (index 0) is the one a single-threaded search would be: it owns the
//! clock, the `info` output and the final move, and it obeys the caller's [`Control`]
//! (`stop`, `ponderhit`). Helpers search without a clock, skip some depths so they spread
//! over neighbouring iterations (see `SMP_SKIP_*` in `params.rs`), report nothing, and
//! stop when the main thread's search ends — for whatever reason it ends, so `stop`,
//! `quit` and a new `go` reach every thread through the main one.
//!
//! With one thread the pool runs the main searcher on the caller's thread and the search
//! is exactly the single-threaded one. With more, helper threads are started for each
//! search (scoped threads, so they borrow the pool's searchers and cannot outlive it);
//! starting a few threads costs microseconds, far below one move's thinking time.

use super::report::{CurrentMoveSink, Report, Reporter, SearchResult, Silent};
use super::tt::TranspositionTable;
use super::{Control, Limits, Options, Searcher};
use crate::board::Board;
use crate::eval::nnue::Network;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// Most search threads a pool accepts (the `Threads` option's maximum).
pub const MAX_THREADS: usize = 1024;
/// Stack of each helper thread: the search recursion and its move lists live there.
const HELPER_STACK_BYTES: usize = 32 << 20;

/// The search threads and what they share.
pub struct ThreadPool {
    tt: Arc<TranspositionTable>,
    /// The caller's flags: the main thread obeys them.
    control: Arc<Control>,
    /// The helpers' flags: `stop` is raised when the main thread's search ends.
    helper_control: Arc<Control>,
    /// Index 0 is the main thread.
    searchers: Vec<Searcher>,
    /// The node count of each thread in the last search (main thread first).
    thread_nodes: Vec<u64>,
}

impl ThreadPool {
    /// A pool of `threads` searchers (clamped to 1..=MAX_THREADS) sharing `tt`.
    pub fn new(threads: usize, tt: Arc<TranspositionTable>, control: Arc<Control>) -> ThreadPool {
        let mut pool = ThreadPool {
            tt,
            control,
            helper_control: Arc::new(Control::default()),
            searchers: Vec::new(),
            thread_nodes: Vec::new(),
        };
        pool.set_threads(threads);
        pool
    }

    /// Number of search threads.
    pub fn threads(&self) -> usize {
        self.searchers.len()
    }

    /// Grows or shrinks the pool; the searchers that stay keep what they learnt.
    pub fn set_threads(&mut self, threads: usize) {
        let n = threads.clamp(1, MAX_THREADS);
        self.searchers.truncate(n);
        while self.searchers.len() < n {
            let id = self.searchers.len();
            let control = if id == 0 { self.control.clone() } else { self.helper_control.clone() };
            let mut s = Searcher::new(self.tt.clone(), control);
            s.join_pool(id);
            if let Some(main) = self.searchers.first() {
                s.set_options(main.options());
                s.set_network(main.network().cloned());
                s.set_tablebases(main.tb.clone());
            }
            self.searchers.push(s);
        }
    }

    /// Uses another table (after a `Hash` change).
    pub fn set_tt(&mut self, tt: Arc<TranspositionTable>) {
        for s in &mut self.searchers {
            s.set_tt(tt.clone());
        }
        self.tt = tt;
    }

    /// Sets the search options of every thread.
    pub fn set_options(&mut self, options: Options) {
        for s in &mut self.searchers {
            s.set_options(options);
        }
    }

    /// Evaluates with `net` on every thread (`None`: the classical evaluation).
    pub fn set_network(&mut self, net: Option<Arc<Network>>) {
        for s in &mut self.searchers {
            s.set_network(net.clone());
        }
    }

    /// Gives every thread these tablebases (`None`: none).
    pub fn set_tablebases(&mut self, tb: Option<Arc<crate::syzygy::Tablebases>>) {
        for s in &mut self.searchers {
            s.set_tablebases(tb.clone());
        }
    }

    /// Announces the main thread's root moves to `sink` (`info currmove`); helpers never do.
    pub fn set_current_move_sink(&mut self, sink: Option<CurrentMoveSink>) {
        if let Some(main) = self.searchers.first_mut() {
            main.set_current_move_sink(sink);
        }
    }

    /// The nodes each thread searched in the last search, the main thread first (a helper
    /// that could not be started is left out). The result's `stats.nodes` is their sum.
    pub fn thread_nodes(&self) -> &[u64] {
        &self.thread_nodes
    }

    /// Forgets every thread's histories (for `ucinewgame`).
    pub fn clear(&mut self) {
        for s in &mut self.searchers {
            s.clear();
        }
    }

    /// Searches `board` on every thread; the main thread reports to `reporter` (node
    /// counts summed over the threads) and the result's counters are the threads' sums.
    pub fn search(&mut self, board: &Board, limits: Limits, reporter: &mut dyn Reporter) -> SearchResult {
        // 1. One new table age per search, not one per thread.
        self.tt.new_search();
        // A strength limit is calibrated on one thread: helpers would only add strength.
        if self.searchers.len() == 1 || limits.strength.is_some() {
            let result = self.searchers[0].search(board, limits, reporter);
            self.thread_nodes = vec![result.stats.nodes];
            return result;
        }

        // 2. Helpers get the same root moves and depth but no clock or mate limit: they
        //    run until the main thread is done. A node limit is the total over threads,
        //    shared out equally (each thread stops at its share).
        let share = limits.nodes.map(|n| (n / self.searchers.len() as u64).max(1));
        let mut limits = limits;
        limits.nodes = share;
        let helper_limits = Limits {
            depth: limits.depth,
            nodes: share,
            searchmoves: limits.searchmoves.clone(),
            multipv: 1,
            ..Limits::default()
        };
        self.helper_control.stop.store(false, Ordering::SeqCst);
        let helper_control = self.helper_control.clone();
        let (main, helpers) = self.searchers.split_first_mut().expect("a pool has a main thread");
        let others: Vec<Arc<AtomicU64>> = helpers.iter().map(|h| h.progress()).collect();
        let others_tb: Vec<Arc<AtomicU64>> = helpers.iter().map(|h| h.tb_progress()).collect();
        for p in others.iter().chain(&others_tb) {
            p.store(0, Ordering::Relaxed);
        }

        let (main_result, helper_results) = std::thread::scope(|scope| {
            // 3. Start the helpers; one that cannot be started is simply left out.
            let mut handles = Vec::with_capacity(helpers.len());
            for h in helpers.iter_mut() {
                let l = helper_limits.clone();
                let spawned = std::thread::Builder::new()
                    .name("helper".into())
                    .stack_size(HELPER_STACK_BYTES)
                    .spawn_scoped(scope, move || h.search(board, l, &mut Silent));
                if let Ok(handle) = spawned {
                    handles.push(handle);
                }
            }
            // 4. The main thread searches here, then stops the helpers and collects them.
            let mut summing = SummingReporter { inner: reporter, others: &others, others_tb: &others_tb };
            let main_result = main.search(board, limits, &mut summing);
            helper_control.stop.store(true, Ordering::SeqCst);
            let helper_results: Vec<SearchResult> = handles.into_iter().filter_map(|h| h.join().ok()).collect();
            (main_result, helper_results)
        });

        // 5. Counters are sums; the move is the main thread's.
        let mut result = main_result;
        self.thread_nodes = std::iter::once(&result).chain(&helper_results).map(|r| r.stats.nodes).collect();
        for r in &helper_results {
            result.stats.add(&r.stats);
        }
        result
    }
}

/// Passes the main thread's reports on with the helpers' published nodes added.
struct SummingReporter<'a> {
    inner: &'a mut dyn Reporter,
    others: &'a [Arc<AtomicU64>],
    others_tb: &'a [Arc<AtomicU64>],
}

impl Reporter for SummingReporter<'_> {
    fn report(&mut self, r: &Report) {
        let mut total = r.clone();
        total.nodes += self.others.iter().map(|p| p.load(Ordering::Relaxed)).sum::<u64>();
        total.tbhits += self.others_tb.iter().map(|p| p.load(Ordering::Relaxed)).sum::<u64>();
        self.inner.report(&total);
    }

    fn listening(&self) -> bool {
        self.inner.listening()
    }
}
