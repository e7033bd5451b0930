//! The search: iterative deepening over a fail-soft negamax alpha-beta with principal
//! variation search, aspiration windows and a transposition table; at the horizon a
//! quiescence search with stand pat that resolves captures ordered by MVV/LVA and prunes
//! the ones a static exchange evaluation says lose material.
//!
//! The search never prints. It hands structured reports to a [`Reporter`], and the
//! protocol layer decides how they look.
//!
//! One file per concern, in the order a search runs through them:
//!
//! - [`limits`](Limits) and `report`: what the caller asks for and what it gets back;
//! - `deepening`: the root — iterative deepening, aspiration windows, MultiPV, when to stop;
//! - `negamax`: the main alpha-beta search, step by step;
//! - `qsearch`: quiescence search at the horizon; `repetition`: the filter before the
//!   repetition scan;
//! - [`movepick`]: staged move ordering; [`history`]: killers, history, counter-moves;
//! - `correction`: the static-eval correction history;
//! - `tablebase`: Syzygy probes at the root (ranking the moves) and inside the search;
//! - [`tt`]: the transposition table; `pv`: the principal variation;
//! - [`time`]: time limits from the clock, scaled by how settled the search is;
//!   [`params`]: every tunable number; [`tunable`]: the ones SPSA may tune.
//!
//! This file holds the [`Searcher`] (everything one search thread owns) and the checks
//! every node makes (limits, draws).

mod correction;
mod deepening;
pub mod history;
mod limits;
mod material_scale;
pub mod movepick;
mod negamax;
mod nnue_stack;
pub mod params;
mod pv;
mod qsearch;
mod repetition;
mod report;
mod static_eval;
pub mod strength;
mod tablebase;
pub mod threads;
pub mod time;
pub mod tt;
pub mod tunable;

#[cfg(feature = "spsa")]
pub use negamax::rebuild_lmr;

pub use limits::{Control, Limits, Options};
pub use report::{CurrentMove, CurrentMoveSink, Report, Reporter, Score, SearchResult, Silent, Stats, WdlRoot};
pub use strength::Strength;
pub use threads::ThreadPool;
pub use tt::Bound;

use crate::board::Board;
use crate::eval::Evaluator;
use crate::moves::Move;
use crate::syzygy::Tablebases;
use crate::types::Piece;
use correction::{CorrectionHistory, Slots};
use history::History;
use movepick::MovePicker;
use params::*;
use pv::PvTable;
use repetition::RepetitionFilter;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;
use time::TimeManager;
use tt::TranspositionTable;

/// What a call into the search is for. Each entry point sets it as it starts, so nothing is
/// switched off and back on by hand: [`Searcher::search`] plays, [`Searcher::quiescence`]
/// filters datagen's positions, and unit tests call the node functions directly.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Purpose {
    /// A game search (`go`, bench, datagen's moves): static evals corrected by the
    /// correction history, the hash table read everywhere.
    Play,
    /// Datagen's quiet filter: a value that depends on the position only, so static evals
    /// as they are (not corrected by what earlier searches learnt) and no hash table reads
    /// in quiescence (a score stored by an earlier, deeper search would cut a capture's line
    /// short). Nor are its results stored: the filter must leave the game's next searches
    /// as it found them, so that the filter changes which positions are written, never the
    /// games.
    QuietFilter,
    /// A unit test calling `negamax` or `qsearch` directly: uncorrected static evals, the
    /// hash table read as in play.
    #[cfg(test)]
    Direct,
}

impl Purpose {
    /// Are static evals corrected by the correction history?
    #[inline(always)]
    fn corrects_eval(self) -> bool {
        self == Purpose::Play
    }

    /// Does quiescence search read and write the hash table?
    #[inline(always)]
    fn qsearch_uses_tt(self) -> bool {
        self != Purpose::QuietFilter
    }
}

#[derive(Clone, Copy, Default)]
struct StackEntry {
    eval: i32,
    /// Move played to leave this ply, and the piece index (color * 6 + piece) that moved.
    mv: Move,
    moved: usize,
    /// The move a singular-extension search at this ply leaves out (`NULL`: none).
    excluded: Move,
}

/// Everything one search thread owns.
pub struct Searcher {
    board: Board,
    tt: Arc<TranspositionTable>,
    control: Arc<Control>,
    history: History,
    correction: CorrectionHistory,
    /// What the running call is for, set by its entry point (see [`Purpose`]).
    purpose: Purpose,
    options: Options,
    stats: Stats,
    stack: [StackEntry; MAX_PLY + 4],
    /// The move pickers of the nodes on the current path, two per ply (`picker_slot`).
    pickers: Vec<MovePicker>,
    pv: PvTable,
    limits: Limits,
    /// The clock's limits and the decision to start another iteration (main thread).
    time: TimeManager,
    start: Instant,
    stopped: bool,
    root_excluded: Vec<Move>,
    /// `searchmoves` left out some legal moves: the root's score is over a restricted move
    /// set, not the position's value, so it is not stored (like MultiPV's later lines).
    root_restricted: bool,
    /// Score of the root PV's first move in the current root search: the last root move
    /// whose search finished and raised alpha (a lower bound if it reached beta).
    root_best_score: i32,
    /// Nodes spent under each root move in this search, over all iterations (time management).
    root_nodes: Vec<(Move, u64)>,
    /// 0 for the main thread (and a lone searcher); helper threads of the pool count from 1.
    thread_id: usize,
    /// This searcher's node count, published every `CHECK_EVERY` nodes for `info nodes`.
    progress: Arc<AtomicU64>,
    /// Does this searcher start a new table age at each search? A pool does it once for
    /// all its threads instead.
    owns_tt_age: bool,
    /// The evaluation with this thread's own pawn hash table.
    evaluator: Evaluator,
    /// The network and this thread's accumulators when the network evaluates (`None`: the
    /// classical `evaluator`).
    nnue: Option<nnue_stack::Nnue>,
    /// Syzygy tablebases, shared by all threads (`None`: no tables).
    tb: Option<Arc<Tablebases>>,
    /// Probe WDL inside this search for positions with at most this many pieces (0: no
    /// probes: no tables, or the root was already ranked by DTZ).
    tb_pieces: usize,
    /// The score to show while the root's moves are restricted by the tables (the search's
    /// own score unless it found a mate).
    root_tb_score: Option<i32>,
    /// Root moves the tables rank as sure wins but slower than the fastest: they count only
    /// if the search proves a mate with them (`tablebase.rs`).
    root_mate_only: Vec<Move>,
    /// This searcher's tablebase hits, published with `progress`.
    tb_progress: Arc<AtomicU64>,
    /// Where the main thread announces each root move it starts (`None`: nowhere).
    current_move_sink: Option<CurrentMoveSink>,
    /// Which positions on the line could repeat (spares most nodes the repetition scan).
    repetition: RepetitionFilter,
}

impl Searcher {
    pub fn new(tt: Arc<TranspositionTable>, control: Arc<Control>) -> Searcher {
        Searcher {
            board: Board::startpos(),
            tt,
            control,
            history: History::default(),
            correction: CorrectionHistory::default(),
            purpose: Purpose::Play,
            options: Options::default(),
            stats: Stats::default(),
            stack: [StackEntry::default(); MAX_PLY + 4],
            pickers: (0..2 * (MAX_PLY + 4)).map(|_| MovePicker::empty()).collect(),
            pv: PvTable::new(),
            limits: Limits::default(),
            time: TimeManager::default(),
            start: Instant::now(),
            stopped: false,
            root_excluded: Vec::new(),
            root_restricted: false,
            root_best_score: 0,
            root_nodes: Vec::new(),
            thread_id: 0,
            progress: Arc::new(AtomicU64::new(0)),
            owns_tt_age: true,
            evaluator: Evaluator::new(),
            nnue: None,
            tb: None,
            tb_pieces: 0,
            root_tb_score: None,
            root_mate_only: Vec::new(),
            tb_progress: Arc::new(AtomicU64::new(0)),
            current_move_sink: None,
            repetition: RepetitionFilter::default(),
        }
    }

    /// Makes this a thread of a pool: `id` 0 is the main thread, helpers count from 1.
    pub(crate) fn join_pool(&mut self, id: usize) {
        self.thread_id = id;
        self.owns_tt_age = false;
    }

    /// The published node count of the running (or last) search.
    pub(crate) fn progress(&self) -> Arc<AtomicU64> {
        self.progress.clone()
    }

    /// The published tablebase hits of the running (or last) search.
    pub(crate) fn tb_progress(&self) -> Arc<AtomicU64> {
        self.tb_progress.clone()
    }

    /// Uses these tablebases from the next search on (`None`: none).
    pub fn set_tablebases(&mut self, tb: Option<Arc<Tablebases>>) {
        self.tb = tb.filter(|t| t.max_pieces() > 0);
    }

    /// The evaluator (for its pawn hash table statistics).
    pub fn evaluator(&self) -> &Evaluator {
        &self.evaluator
    }

    /// Uses another hash table (after a `Hash` change).
    pub fn set_tt(&mut self, tt: Arc<TranspositionTable>) {
        self.tt = tt;
    }

    /// Announces each root move to `sink` once a search has run `CURRMOVE_DELAY_MS` (main
    /// thread only; `None`: no announcements).
    pub fn set_current_move_sink(&mut self, sink: Option<CurrentMoveSink>) {
        self.current_move_sink = sink;
    }

    /// Tells the sink which root move starts now, if the search has run long enough.
    pub(super) fn announce_root_move(&mut self, depth: i32, mv: Move, number: usize) {
        if self.thread_id != 0 {
            return;
        }
        if let Some(sink) = self.current_move_sink.as_mut() {
            if self.start.elapsed() >= std::time::Duration::from_millis(CURRMOVE_DELAY_MS) {
                sink(&CurrentMove { depth, mv, number });
            }
        }
    }

    /// Sets the search options (they stay until changed).
    pub fn set_options(&mut self, options: Options) {
        self.options = options;
    }

    /// The search options in use.
    pub fn options(&self) -> Options {
        self.options
    }

    /// Forgets everything learnt (for `ucinewgame` and deterministic bench positions).
    pub fn clear(&mut self) {
        self.history.clear();
        self.correction.clear();
    }

    /// Checks the clock and node limit; sets `stopped`.
    #[inline]
    fn check_limits(&mut self) {
        if self.control.stop.load(Ordering::Relaxed) {
            self.stopped = true;
            return;
        }
        if let Some(n) = self.limits.nodes {
            if self.stats.nodes >= n {
                self.stopped = true;
                return;
            }
        }
        if self.stats.nodes.is_multiple_of(CHECK_EVERY) {
            self.progress.store(self.stats.nodes, Ordering::Relaxed);
            self.tb_progress.store(self.stats.tbhits, Ordering::Relaxed);
            if !self.limits.infinite && !self.control.pondering.load(Ordering::Relaxed) {
                if let Some(hard) = self.time.hard() {
                    if self.start.elapsed() >= hard {
                        self.stopped = true;
                    }
                }
            }
        }
    }

    /// The picker slot of a node at `ply`: one for the node itself and one for the
    /// singular-extension search it may run at the same ply (the only search that reuses a
    /// ply while a node there is picking moves; quiescence uses the first, as a main-search
    /// node at the same ply hands over to it before it picks).
    #[inline(always)]
    fn picker_slot(ply: usize, singular_search: bool) -> usize {
        2 * ply + singular_search as usize
    }

    /// Draw by repetition, fifty-move rule or insufficient material.
    #[inline]
    fn is_draw(&self, ply: usize) -> bool {
        let may_repeat = self.repetition.may_repeat(self.board.key());
        debug_assert!(may_repeat || !self.board.is_repetition(ply), "{}", self.board.to_fen());
        (may_repeat && self.board.is_repetition(ply))
            || self.board.insufficient_material()
            || (self.board.fifty_move_draw() && (!self.board.in_check() || self.board.count_moves() > 0))
    }

    /// The static eval of the current position (whose correction slots are `slots`),
    /// corrected by the correction history (a game search) or as it is (the other purposes).
    #[inline]
    fn corrected(&self, raw_eval: i32, slots: &Slots) -> i32 {
        if self.purpose.corrects_eval() {
            self.correction.correct(slots, raw_eval)
        } else {
            raw_eval
        }
    }

    /// Makes `board` the root of a call into the node functions outside a `go`, for
    /// `purpose`: no limits, no clock, fresh statistics. The entry points other than
    /// `search` start here.
    fn start_unlimited(&mut self, board: &Board, purpose: Purpose) {
        self.purpose = purpose;
        self.set_root(board);
        self.stats = Stats::default();
        self.stopped = false;
        self.limits = Limits::default();
        self.time = time::TimeManager::default();
    }

    /// The entry point of unit tests that call `negamax` or `qsearch` directly on `board`:
    /// no limits, no clock, uncorrected evals, the hash table read as in a game search.
    #[cfg(test)]
    pub(super) fn ready_for_direct_call(&mut self, board: &Board) {
        self.start_unlimited(board, Purpose::Direct);
    }

    /// Does the side to move have a piece other than pawns and king (zugzwang guard)?
    #[inline]
    fn has_non_pawn_material(&self) -> bool {
        let us = self.board.color(self.board.side_to_move());
        let pk = self.board.pieces(Piece::Pawn) | self.board.pieces(Piece::King);
        (us & !pk).any()
    }
}
