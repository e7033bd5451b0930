//! The search: iterative deepening over a fail-soft negamax alpha-beta with principal
//! variation search, aspiration windows and a transposition table; at the horizon a
//! quiescence search with stand pat that resolves captures ordered by MVV/LVA and prunes
//! the ones a static exchange evaluation says lose material.
//!
//! The search never prints. It hands structured reports to a [`Reporter`], and the
//! protocol layer decides how they look.

pub mod history;
pub mod movepick;
pub mod params;
pub mod time;
pub mod tt;

use crate::board::Board;
use crate::eval::Evaluator;
use crate::movegen::Move;
use crate::see::{captured_value, see_ge};
use crate::types::Piece;
use history::History;
use movepick::{is_bad_capture_score, is_refutation_score, is_tactical, MovePicker};
use params::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use time::{Clock, TimeLimits};
use tt::{TranspositionTable, BOUND_EXACT, BOUND_LOWER, BOUND_UPPER};

/// What to search for; `None`/empty means no limit of that kind.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    /// Stop once a mate in at most this many moves is found.
    pub mate: Option<i32>,
    pub clock: Clock,
    pub infinite: bool,
    pub searchmoves: Vec<Move>,
    pub multipv: usize,
    pub move_overhead_ms: u64,
}

/// Flags shared between the protocol thread and the search.
#[derive(Default)]
pub struct Control {
    /// Set to end the search as soon as possible.
    pub stop: AtomicBool,
    /// True while pondering: the clock does not run until `ponderhit` clears it.
    pub pondering: AtomicBool,
}

/// A score as a GUI shows it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Score {
    Cp(i32),
    /// Mate in this many moves (negative: getting mated).
    Mate(i32),
}

impl Score {
    pub fn from_internal(s: i32) -> Score {
        if s >= MATE_BOUND {
            Score::Mate((MATE - s + 1) / 2)
        } else if s <= -MATE_BOUND {
            Score::Mate(-(MATE + s) / 2)
        } else {
            Score::Cp(s)
        }
    }
}

/// Whether a reported score is exact or only a bound (aspiration failure).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    Lower,
    Upper,
}

/// Counters reported at the end of a search and by `bench`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stats {
    pub nodes: u64,
    pub qnodes: u64,
    /// Quiescence captures skipped because SEE said they lose material.
    pub see_pruned: u64,
    /// Quiescence captures skipped by delta pruning.
    pub delta_pruned: u64,
    pub seldepth: usize,
}

/// One iteration's (one PV line's) report.
#[derive(Clone, Debug)]
pub struct Report {
    pub depth: i32,
    pub seldepth: usize,
    pub multipv: usize,
    pub score: Score,
    pub bound: Bound,
    pub nodes: u64,
    pub time: Duration,
    pub hashfull: u32,
    pub pv: Vec<Move>,
}

/// Receives the search's reports.
pub trait Reporter {
    fn report(&mut self, r: &Report);
}

/// A reporter that ignores everything (bench, tests).
pub struct Silent;
impl Reporter for Silent {
    fn report(&mut self, _r: &Report) {}
}

/// The outcome of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    pub best: Move,
    pub ponder: Option<Move>,
    pub score: i32,
    pub depth: i32,
    pub stats: Stats,
    pub time: Duration,
}

/// Search options that are not limits.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Prune SEE-losing captures in quiescence (off: MVV/LVA ordering only).
    pub qsearch_see: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options { qsearch_see: true }
    }
}

#[derive(Clone, Copy, Default)]
struct StackEntry {
    eval: i32,
    /// Move played to leave this ply, and the piece index (color * 6 + piece) that moved.
    mv: Move,
    moved: usize,
}

/// A principal variation line per ply (triangular table).
struct PvTable {
    lines: Vec<[Move; MAX_PLY + 1]>,
    lens: [usize; MAX_PLY + 1],
}

impl PvTable {
    fn new() -> PvTable {
        PvTable { lines: vec![[Move::NULL; MAX_PLY + 1]; MAX_PLY + 1], lens: [0; MAX_PLY + 1] }
    }
    fn clear(&mut self, ply: usize) {
        self.lens[ply] = 0;
    }
    fn update(&mut self, ply: usize, m: Move) {
        let child_len = if ply + 1 <= MAX_PLY { self.lens[ply + 1] } else { 0 };
        let (head, tail) = self.lines.split_at_mut(ply + 1);
        head[ply][0] = m;
        let n = child_len.min(MAX_PLY - 1);
        if n > 0 {
            head[ply][1..=n].copy_from_slice(&tail[0][..n]);
        }
        self.lens[ply] = n + 1;
    }
    fn line(&self, ply: usize) -> &[Move] {
        &self.lines[ply][..self.lens[ply]]
    }
}

/// Late-move reduction table, indexed by depth and move number.
fn lmr_table() -> Box<[[i32; 64]; 64]> {
    let mut t = Box::new([[0i32; 64]; 64]);
    for d in 1..64 {
        for m in 1..64 {
            t[d][m] = (LMR_BASE + (d as f64).ln() * (m as f64).ln() / LMR_DIVISOR) as i32;
        }
    }
    t
}

/// Everything one search thread owns.
pub struct Searcher {
    board: Board,
    tt: Arc<TranspositionTable>,
    control: Arc<Control>,
    pub history: History,
    pub options: Options,
    stats: Stats,
    stack: [StackEntry; MAX_PLY + 4],
    pv: PvTable,
    lmr: Box<[[i32; 64]; 64]>,
    limits: Limits,
    time: TimeLimits,
    start: Instant,
    stopped: bool,
    root_excluded: Vec<Move>,
    /// The evaluation with this thread's own pawn hash table.
    evaluator: Evaluator,
}

/// The bound type of a node's result: a fail-high is a lower bound, a raised alpha is exact,
/// anything else an upper bound.
#[inline(always)]
fn bound_of(best_score: i32, beta: i32, raised_alpha: bool) -> u8 {
    if best_score >= beta {
        BOUND_LOWER
    } else if raised_alpha {
        BOUND_EXACT
    } else {
        BOUND_UPPER
    }
}

#[inline(always)]
fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

#[inline(always)]
fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

impl Searcher {
    pub fn new(tt: Arc<TranspositionTable>, control: Arc<Control>) -> Searcher {
        Searcher {
            board: Board::startpos(),
            tt,
            control,
            history: History::default(),
            options: Options::default(),
            stats: Stats::default(),
            stack: [StackEntry::default(); MAX_PLY + 4],
            pv: PvTable::new(),
            lmr: lmr_table(),
            limits: Limits::default(),
            time: TimeLimits::default(),
            start: Instant::now(),
            stopped: false,
            root_excluded: Vec::new(),
            evaluator: Evaluator::new(),
        }
    }

    /// Uses another hash table (after a `Hash` change).
    pub fn set_tt(&mut self, tt: Arc<TranspositionTable>) {
        self.tt = tt;
    }

    /// The evaluator (for its pawn hash table statistics).
    pub fn evaluator(&self) -> &Evaluator {
        &self.evaluator
    }

    /// Forgets everything learnt (for `ucinewgame` and deterministic bench positions).
    pub fn clear(&mut self) {
        self.history.clear();
    }

    /// Searches `board` within `limits`, reporting each iteration to `reporter`.
    pub fn search(&mut self, board: &Board, limits: Limits, reporter: &mut dyn Reporter) -> SearchResult {
        self.start = Instant::now();
        self.board = board.clone();
        self.stats = Stats::default();
        self.stopped = false;
        self.time = TimeLimits::from_clock(&limits.clock, limits.move_overhead_ms);
        self.limits = limits;
        self.tt.new_search();
        self.history.age();

        // Root moves: all legal moves, or those `searchmoves` allows.
        let mut root_moves: Vec<Move> = self.board.legal_moves().iter().copied().collect();
        if !self.limits.searchmoves.is_empty() {
            let allowed: Vec<Move> =
                root_moves.iter().copied().filter(|m| self.limits.searchmoves.contains(m)).collect();
            if !allowed.is_empty() {
                root_moves = allowed;
            }
        }
        self.limits.searchmoves = root_moves.clone();
        if root_moves.is_empty() {
            return SearchResult {
                best: Move::NULL,
                ponder: None,
                score: if self.board.in_check() { -MATE } else { 0 },
                depth: 0,
                stats: self.stats,
                time: self.start.elapsed(),
            };
        }
        // A legal fallback in case the search is stopped before depth 1 completes.
        let tt_move = self.tt.probe(self.board.key()).map(|e| e.mv).filter(|m| root_moves.contains(m));
        let mut best = tt_move.unwrap_or(root_moves[0]);
        let mut best_pv: Vec<Move> = vec![best];
        let mut best_score = 0;
        let mut completed_depth = 0;
        let max_depth = self.limits.depth.unwrap_or(MAX_PLY as i32 - 1).clamp(1, MAX_PLY as i32 - 1);
        let multipv = self.limits.multipv.clamp(1, root_moves.len());
        let mut prev_scores = vec![0i32; multipv];

        'deepening: for depth in 1..=max_depth {
            // MultiPV: each line is searched with the better lines' first moves excluded;
            // the lines are then reported best first.
            self.root_excluded.clear();
            let mut lines: Vec<(i32, Vec<Move>)> = Vec::with_capacity(multipv);
            for pv_idx in 0..multipv {
                let (score, bound_ok) = self.aspiration(depth, prev_scores[pv_idx], pv_idx, reporter);
                if self.stopped && !bound_ok {
                    break;
                }
                let line: Vec<Move> = self.pv.line(0).to_vec();
                if line.is_empty() {
                    break;
                }
                self.root_excluded.push(line[0]);
                lines.push((score, line));
                if self.stopped {
                    break;
                }
            }
            if lines.is_empty() {
                break 'deepening;
            }
            lines.sort_by_key(|(score, _)| std::cmp::Reverse(*score));
            for (i, (score, line)) in lines.iter().enumerate() {
                prev_scores[i] = *score;
                reporter.report(&self.make_report(depth, i + 1, *score, Bound::Exact, line.clone()));
            }
            best = lines[0].1[0];
            best_pv = lines[0].1.clone();
            best_score = lines[0].0;
            completed_depth = depth;
            if self.stopped {
                break 'deepening;
            }
            // Stop early: mate found within the requested distance, or soft time used.
            if let Some(m) = self.limits.mate {
                if let Score::Mate(n) = Score::from_internal(best_score) {
                    if n > 0 && n <= m {
                        break;
                    }
                }
            }
            if !self.limits.infinite && !self.control.pondering.load(Ordering::Relaxed) {
                if let Some(soft) = self.time.soft {
                    if self.start.elapsed() >= soft.mul_f64(0.6) {
                        break;
                    }
                }
                // A single legal move needs no thought under a clock.
                if root_moves.len() == 1 && self.limits.clock.time_ms.is_some() && depth >= 4 {
                    break;
                }
            }
        }

        let ponder = best_pv.get(1).copied().or_else(|| self.ponder_from_tt(best));
        SearchResult {
            best,
            ponder,
            score: best_score,
            depth: completed_depth,
            stats: self.stats,
            time: self.start.elapsed(),
        }
    }

    /// A ponder move from the hash table when the PV is only one move long.
    fn ponder_from_tt(&mut self, best: Move) -> Option<Move> {
        self.board.make(best);
        let m = self.tt.probe(self.board.key()).map(|e| e.mv).filter(|&m| self.board.legal_moves().contains(m));
        self.board.unmake();
        m
    }

    fn make_report(&self, depth: i32, multipv: usize, score: i32, bound: Bound, pv: Vec<Move>) -> Report {
        Report {
            depth,
            seldepth: self.stats.seldepth,
            multipv,
            score: Score::from_internal(score),
            bound,
            nodes: self.stats.nodes,
            time: self.start.elapsed(),
            hashfull: self.tt.hashfull(),
            pv,
        }
    }

    /// One root search at `depth` inside a window around the previous score, widened on
    /// failure. Returns the score and whether it is usable (exact and not cut short).
    fn aspiration(&mut self, depth: i32, prev: i32, pv_idx: usize, reporter: &mut dyn Reporter) -> (i32, bool) {
        let mut delta = ASPIRATION_WINDOW;
        let (mut alpha, mut beta) = if depth >= ASPIRATION_MIN_DEPTH && prev.abs() < MATE_BOUND {
            ((prev - delta).max(-INFINITY), (prev + delta).min(INFINITY))
        } else {
            (-INFINITY, INFINITY)
        };
        loop {
            let score = self.negamax(alpha, beta, depth, 0, false);
            if self.stopped {
                return (score, false);
            }
            if score <= alpha {
                if self.start.elapsed() > Duration::from_secs(1) && pv_idx == 0 && self.pv.lens[0] > 0 {
                    let pv = self.pv.line(0).to_vec();
                    reporter.report(&self.make_report(depth, pv_idx + 1, alpha, Bound::Upper, pv));
                }
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
            } else if score >= beta {
                if self.start.elapsed() > Duration::from_secs(1) && pv_idx == 0 && self.pv.lens[0] > 0 {
                    let pv = self.pv.line(0).to_vec();
                    reporter.report(&self.make_report(depth, pv_idx + 1, beta, Bound::Lower, pv));
                }
                beta = (score + delta).min(INFINITY);
            } else {
                return (score, true);
            }
            delta += delta / 2;
            if delta > 1000 {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
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
        if self.stats.nodes % CHECK_EVERY == 0
            && !self.limits.infinite
            && !self.control.pondering.load(Ordering::Relaxed)
        {
            if let Some(hard) = self.time.hard {
                if self.start.elapsed() >= hard {
                    self.stopped = true;
                }
            }
        }
    }

    /// Draw by repetition, fifty-move rule or insufficient material.
    #[inline]
    fn is_draw(&self, ply: usize) -> bool {
        self.board.is_repetition(ply)
            || self.board.insufficient_material()
            || (self.board.fifty_move_draw() && (!self.board.in_check() || self.board.count_moves() > 0))
    }

    /// Does the side to move have a piece other than pawns and king (zugzwang guard)?
    #[inline]
    fn has_non_pawn_material(&self) -> bool {
        let us = self.board.color(self.board.side_to_move());
        let pk = self.board.pieces(Piece::Pawn) | self.board.pieces(Piece::King);
        (us & !pk).any()
    }

    /// Fail-soft negamax with principal variation search.
    fn negamax(&mut self, mut alpha: i32, mut beta: i32, mut depth: i32, ply: usize, cut_node: bool) -> i32 {
        let root = ply == 0;
        let pv_node = beta - alpha > 1;
        let in_check = self.board.in_check();

        // Step 1. Check extension: never stop searching while in check.
        if in_check {
            depth += 1;
        }
        // Step 2. At the horizon, resolve captures in quiescence.
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply);
        }
        self.pv.clear(ply);
        self.stats.nodes += 1;
        self.stats.seldepth = self.stats.seldepth.max(ply);
        self.check_limits();
        if self.stopped {
            return 0;
        }

        if !root {
            // Step 3. Draws, and the ply limit.
            if self.is_draw(ply) {
                return 0;
            }
            if ply >= MAX_PLY {
                return if in_check { 0 } else { self.evaluator.evaluate(&self.board) };
            }
            // Step 4. Mate distance pruning: no line here can beat a mate already found nearer the root.
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }

        // Step 5. Transposition table: cut off in non-PV nodes when the stored bound allows.
        let key = self.board.key();
        let tt_entry = self.tt.probe(key);
        let mut tt_move = Move::NULL;
        if let Some(e) = tt_entry {
            tt_move = e.mv;
            let s = score_from_tt(e.score, ply);
            if !pv_node
                && e.depth >= depth
                && (e.bound == BOUND_EXACT
                    || (e.bound == BOUND_LOWER && s >= beta)
                    || (e.bound == BOUND_UPPER && s <= alpha))
            {
                return s;
            }
        }
        if root {
            if !self.root_excluded.is_empty() || !self.limits.searchmoves.contains(&tt_move) {
                tt_move = Move::NULL;
            }
        }

        // Step 6. Static evaluation, and whether it improves on two plies ago.
        let raw_eval = if in_check { -INFINITY } else { tt_entry.map_or_else(|| self.evaluator.evaluate(&self.board), |e| e.eval) };
        // A stored bound on the score may sharpen the evaluation.
        let eval = match tt_entry {
            Some(e) if !in_check && e.score.abs() < MATE_BOUND => {
                let s = e.score;
                if e.bound == BOUND_EXACT || (e.bound == BOUND_LOWER && s > raw_eval) || (e.bound == BOUND_UPPER && s < raw_eval) {
                    s
                } else {
                    raw_eval
                }
            }
            _ => raw_eval,
        };
        self.stack[ply].eval = raw_eval;
        let improving = !in_check && ply >= 2 && raw_eval > self.stack[ply - 2].eval;

        if !pv_node && !in_check && !root {
            // Step 7. Reverse futility pruning: far enough above beta at low depth, the
            // opponent will not catch up.
            if depth <= RFP_DEPTH && eval - RFP_MARGIN * (depth - improving as i32) >= beta && eval.abs() < MATE_BOUND {
                return eval;
            }
            // Step 8. Null-move pruning: if passing still fails high, a real move will too.
            // Not without pieces (zugzwang in pawn endings) nor right after another null move.
            let last_null = ply > 0 && self.stack[ply - 1].mv.is_null();
            if depth >= NMP_DEPTH && eval >= beta && !last_null && self.has_non_pawn_material() && beta.abs() < MATE_BOUND {
                let r = NMP_BASE_REDUCTION + depth / NMP_DEPTH_DIVISOR + ((eval - beta) / NMP_EVAL_DIVISOR).min(3);
                self.stack[ply].mv = Move::NULL;
                self.stack[ply].moved = 0;
                self.board.make_null();
                let score = -self.negamax(-beta, -beta + 1, depth - 1 - r, ply + 1, !cut_node);
                self.board.unmake_null();
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    return if score >= MATE_BOUND { beta } else { score };
                }
            }
        }

        // Step 9. Internal iterative reduction: without a hash move this node was not
        // searched before; search it a little shallower.
        if !root && tt_move.is_null() && depth >= IIR_DEPTH && (pv_node || cut_node) {
            depth -= 1;
        }

        // Step 10. The move loop.
        let counter = if ply > 0 && !self.stack[ply - 1].mv.is_null() {
            let prev = self.stack[ply - 1];
            self.history.counter(prev.moved, prev.mv.to().index())
        } else {
            Move::NULL
        };
        let mut picker = MovePicker::new(&self.board, tt_move, &self.history, ply, counter);
        let us = self.board.side_to_move();
        let mut best_score = -INFINITY;
        let mut best_move = Move::NULL;
        let mut legal = 0usize;
        let mut quiets_tried = [Move::NULL; 64];
        let mut n_quiets = 0usize;
        let lmp_limit = (LMP_BASE + depth * depth) / if improving { 1 } else { 2 };
        let orig_alpha = alpha;

        while let Some((m, order)) = picker.next(&self.board, &self.history) {
            if root && (self.root_excluded.contains(&m) || !self.limits.searchmoves.contains(&m)) {
                continue;
            }
            let tactical = is_tactical(&self.board, m);
            let quiet = !tactical;

            // Step 11. Shallow pruning of late moves, once a non-losing line exists.
            if !root && best_score > -MATE_BOUND && self.has_non_pawn_material() {
                if quiet {
                    // Late move pruning: enough quiets tried at low depth.
                    let late = !pv_node && !in_check && depth <= LMP_DEPTH && n_quiets as i32 >= lmp_limit;
                    // Futility: a quiet move cannot lift a hopeless eval above alpha.
                    let futile = !in_check
                        && depth <= FUTILITY_DEPTH
                        && eval + FUTILITY_BASE + FUTILITY_MARGIN * depth <= alpha
                        && !is_refutation_score(order);
                    // Quiet checks are kept: they may mate, which the static eval cannot see.
                    if (late || futile) && !self.board.gives_check(m) {
                        continue;
                    }
                    if depth <= SEE_PRUNE_DEPTH && !see_ge(&self.board, m, -SEE_QUIET_MARGIN * depth) {
                        continue;
                    }
                } else if depth <= SEE_PRUNE_DEPTH
                    && is_bad_capture_score(order)
                    && !see_ge(&self.board, m, -SEE_CAPTURE_MARGIN * depth * depth)
                {
                    continue;
                }
            }

            let moved_piece = self.board.piece_on(m.from()).map_or(0, |p| p.index()) + 6 * us.index();
            self.stack[ply].mv = m;
            self.stack[ply].moved = moved_piece;
            self.board.make(m);
            legal += 1;
            if quiet && n_quiets < quiets_tried.len() {
                quiets_tried[n_quiets] = m;
                n_quiets += 1;
            }
            let gives_check = self.board.in_check();
            let new_depth = depth - 1;

            // Step 12. Principal variation search with late move reductions.
            let mut score;
            if depth >= LMR_DEPTH && legal > LMR_MIN_MOVES + pv_node as usize && (quiet || is_bad_capture_score(order)) {
                let mut r = self.lmr[depth.min(63) as usize][legal.min(63)];
                r -= pv_node as i32;
                r += !improving as i32;
                r += cut_node as i32;
                r -= gives_check as i32;
                r -= is_refutation_score(order) as i32;
                if quiet && !is_refutation_score(order) {
                    r -= (order / LMR_HISTORY_DIVISOR).clamp(-2, 2);
                }
                let r = r.clamp(0, new_depth - 1);
                score = -self.negamax(-alpha - 1, -alpha, new_depth - r, ply + 1, true);
                if score > alpha && r > 0 {
                    score = -self.negamax(-alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
                }
            } else if !pv_node || legal > 1 {
                score = -self.negamax(-alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
            } else {
                score = alpha + 1; // forces the full-window search below
            }
            if pv_node && (legal == 1 || score > alpha) {
                score = -self.negamax(-beta, -alpha, new_depth, ply + 1, false);
            }
            self.board.unmake();
            if self.stopped {
                return 0;
            }

            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = m;
                    alpha = score;
                    if pv_node {
                        self.pv.update(ply, m);
                    }
                    if alpha >= beta {
                        // Step 13. Remember what refuted this node.
                        if quiet {
                            self.history.cutoff(us, m, &quiets_tried[..n_quiets], depth, ply);
                            if ply > 0 && !self.stack[ply - 1].mv.is_null() {
                                let prev = self.stack[ply - 1];
                                self.history.set_counter(prev.moved, prev.mv.to().index(), m);
                            }
                        }
                        break;
                    }
                }
            }
        }

        // Step 14. No legal move: mate or stalemate.
        if legal == 0 {
            if root && !picker.is_empty() {
                // Every root move was excluded (MultiPV beyond the move count).
                return alpha;
            }
            return if in_check { -MATE + ply as i32 } else { 0 };
        }

        let bound = bound_of(best_score, beta, alpha > orig_alpha);
        if !(root && !self.root_excluded.is_empty()) {
            self.tt.store(key, best_move, score_to_tt(best_score, ply), raw_eval.max(-MATE_BOUND), depth, bound);
        }
        best_score
    }

    /// Quiescence search: stand pat, then captures and queen promotions (all evasions in
    /// check), with delta pruning and SEE pruning of losing captures.
    fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv.clear(ply);
        self.stats.nodes += 1;
        self.stats.qnodes += 1;
        self.stats.seldepth = self.stats.seldepth.max(ply);
        self.check_limits();
        if self.stopped {
            return 0;
        }
        if self.is_draw(ply) {
            return 0;
        }
        let in_check = self.board.in_check();
        if ply >= MAX_PLY {
            return if in_check { 0 } else { self.evaluator.evaluate(&self.board) };
        }

        // Step 1. Hash table: any stored depth is at least quiescence depth.
        let key = self.board.key();
        let tt_entry = self.tt.probe(key);
        let pv_node = beta - alpha > 1;
        let mut tt_move = Move::NULL;
        if let Some(e) = tt_entry {
            let s = score_from_tt(e.score, ply);
            if !pv_node
                && (e.bound == BOUND_EXACT
                    || (e.bound == BOUND_LOWER && s >= beta)
                    || (e.bound == BOUND_UPPER && s <= alpha))
            {
                return s;
            }
            tt_move = e.mv;
        }

        // Step 2. Stand pat: the side to move can usually do at least as well as the static
        // evaluation by not capturing. Not available in check.
        let raw_eval = if in_check { -INFINITY } else { tt_entry.map_or_else(|| self.evaluator.evaluate(&self.board), |e| e.eval) };
        let mut best_score = raw_eval;
        if !in_check {
            if best_score >= beta {
                return best_score;
            }
            alpha = alpha.max(best_score);
        }

        let mut picker = MovePicker::new_quiescence(&self.board, tt_move);
        let mut best_move = Move::NULL;
        let orig_alpha = alpha;
        let mut legal = 0;
        while let Some((m, _)) = picker.next(&self.board, &self.history) {
            legal += 1;
            if !in_check {
                // Under-promotions are never better than queening here.
                if m.is_promotion() && m.promotion() != Piece::Queen {
                    continue;
                }
                // Step 3. Delta pruning: even winning the victim (plus a margin) cannot raise alpha.
                let gain = captured_value(&self.board, m)
                    + if m.is_promotion() { crate::see::see_value(Piece::Queen) - 100 } else { 0 };
                if raw_eval + gain + DELTA_MARGIN <= alpha && !m.is_promotion() {
                    self.stats.delta_pruned += 1;
                    continue;
                }
                // Step 4. SEE pruning: a capture that loses material is not worth resolving.
                if self.options.qsearch_see && !see_ge(&self.board, m, 0) {
                    self.stats.see_pruned += 1;
                    continue;
                }
            }
            self.board.make(m);
            let score = -self.qsearch(-beta, -alpha, ply + 1);
            self.board.unmake();
            if self.stopped {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = m;
                    alpha = score;
                    if pv_node {
                        self.pv.update(ply, m);
                    }
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        if in_check && legal == 0 {
            return -MATE + ply as i32;
        }
        let bound = bound_of(best_score, beta, alpha > orig_alpha);
        self.tt.store(key, best_move, score_to_tt(best_score, ply), raw_eval.max(-MATE_BOUND), 0, bound);
        best_score
    }
}
