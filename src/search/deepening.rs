//! Iterative deepening at the root: one search per depth, each inside an aspiration
//! window around the previous score, MultiPV lines searched one after another, and the
//! decisions to stop (time, mate found, single legal move).

use super::params::*;
use super::report::{Report, Reporter, Score, SearchResult, Stats};
use super::strength::chosen_move;
use super::time::{TimeLimits, TimeManager};
use super::tt::Bound;
use super::{Limits, Purpose, Searcher};
use crate::board::Board;
use crate::moves::Move;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

impl Searcher {
    /// Searches `board` within `limits`, reporting each iteration to `reporter`.
    pub fn search(&mut self, board: &Board, limits: Limits, reporter: &mut dyn Reporter) -> SearchResult {
        self.purpose = Purpose::Play;
        self.start = Instant::now();
        self.set_root(board);
        self.stats = Stats::default();
        self.stopped = false;
        let time = TimeLimits::from_clock(&limits.clock, limits.move_overhead_ms);
        self.time = TimeManager::new(limits.strength.map_or(time, |s| time.scaled(s.time_share())));
        self.limits = limits;
        self.progress.store(0, Ordering::Relaxed);
        self.tb_progress.store(0, Ordering::Relaxed);
        if self.owns_tt_age {
            self.tt.new_search();
        }
        self.history.age();

        // Root moves: all legal moves, or those `searchmoves` allows.
        let mut root_moves: Vec<Move> = self.board.legal_moves().iter().copied().collect();
        let legal_count = root_moves.len();
        if !self.limits.searchmoves.is_empty() {
            let allowed: Vec<Move> =
                root_moves.iter().copied().filter(|m| self.limits.searchmoves.contains(m)).collect();
            if !allowed.is_empty() {
                root_moves = allowed;
            }
        }
        // Tablebases: in a position they cover, only the moves that keep its value.
        self.tablebase_root(&mut root_moves);
        self.root_restricted = root_moves.len() < legal_count || !self.root_mate_only.is_empty();
        self.limits.searchmoves = root_moves.clone();
        self.root_nodes = root_moves.iter().map(|&m| (m, 0)).collect();
        if root_moves.is_empty() {
            // Mated or stalemated: no move to search, but a GUI or script still expects a
            // score (`mate 0` or `cp 0`) before `bestmove (none)`.
            let score = if self.board.in_check() { -MATE } else { 0 };
            if self.thread_id == 0 {
                reporter.report(&Report {
                    depth: 0,
                    seldepth: 0,
                    multipv: 1,
                    score: Score::from_internal(score),
                    bound: Bound::Exact,
                    nodes: 0,
                    time: self.start.elapsed(),
                    hashfull: self.tt.hashfull(),
                    tbhits: 0,
                    pv: Vec::new(),
                });
            }
            return SearchResult {
                best: Move::NULL,
                ponder: None,
                score,
                depth: 0,
                stats: self.stats,
                time: self.start.elapsed(),
            };
        }
        // A legal fallback in case the search is stopped before depth 1 completes (not a
        // move that counts only as a mate: none is proven yet).
        let tt_move = self
            .tt
            .probe(self.board.key())
            .map(|e| e.mv)
            .filter(|&m| root_moves.contains(&m) && !self.is_mate_only_root_move(m));
        let mut best = tt_move.unwrap_or(root_moves[0]);
        let mut best_pv: Vec<Move> = vec![best];
        let mut best_score = 0;
        let mut completed_depth = 0;
        let max_depth = self.limits.depth.unwrap_or(MAX_PLY as i32 - 1).clamp(1, MAX_PLY as i32 - 1);
        // Lines reported, and lines searched: a strength limit may search more to choose
        // among them.
        let shown = self.limits.multipv.max(1);
        let strength = self.limits.strength;
        let multipv = shown.max(strength.map_or(1, |s| s.multipv())).clamp(1, root_moves.len());
        let mut prev_scores = vec![0i32; multipv];
        let mut last_lines: Vec<(i32, Vec<Move>)> = Vec::new();

        'deepening: for depth in 1..=max_depth {
            // Lazy SMP: helpers skip some depths so that they spread over several.
            if self.thread_id > 0 {
                let i = (self.thread_id - 1) % SMP_SKIP_SIZE.len();
                if ((depth + SMP_SKIP_PHASE[i]) / SMP_SKIP_SIZE[i]) % 2 == 1 && depth < max_depth {
                    continue;
                }
            }
            // MultiPV: each line is searched with the better lines' first moves excluded;
            // the lines are then reported best first.
            self.root_excluded.clear();
            let mut lines: Vec<(i32, Vec<Move>)> = Vec::with_capacity(multipv);
            let mut partial = None;
            for (pv_idx, &prev) in prev_scores.iter().enumerate() {
                let score = match self.aspiration(depth, prev, pv_idx, reporter) {
                    Outcome::Done(score) => score,
                    Outcome::Stopped(p) => {
                        if pv_idx == 0 {
                            partial = p;
                        }
                        break;
                    }
                };
                let line: Vec<Move> = self.pv.line(0).to_vec();
                if line.is_empty() {
                    break;
                }
                self.root_excluded.push(line[0]);
                lines.push((score, line));
            }
            if lines.is_empty() {
                // Stopped before the first line was done. A root move whose search finished
                // in this iteration is played if it scores at least as well as the last
                // iteration's best (or if no iteration finished at all).
                if let Some(p) = partial {
                    if completed_depth == 0 || p.score >= best_score {
                        self.send_report(reporter, depth, 1, p.score, p.bound, &p.pv);
                        best = p.pv[0];
                        best_score = p.score;
                        best_pv = p.pv;
                    }
                }
                break 'deepening;
            }
            lines.sort_by_key(|(score, _)| std::cmp::Reverse(*score));
            for (i, (score, line)) in lines.iter().enumerate() {
                prev_scores[i] = *score;
                if i < shown {
                    self.send_report(reporter, depth, i + 1, *score, Bound::Exact, line);
                }
            }
            best = lines[0].1[0];
            best_pv = lines[0].1.clone();
            best_score = lines[0].0;
            completed_depth = depth;
            if strength.is_some() {
                last_lines = lines;
            }
            if self.stopped {
                break 'deepening;
            }
            if self.limits.soft_nodes.is_some_and(|soft| self.stats.nodes >= soft) {
                break 'deepening;
            }
            // Time decisions are the main thread's (helpers have no clock and stop with it).
            if self.thread_id == 0 {
                let share = (multipv == 1).then(|| self.node_share(best));
                self.time.iteration_done(best, best_score, share);
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
                if self.thread_id == 0 && self.time.should_stop(self.start.elapsed()) {
                    break;
                }
                // A single legal move needs no thought under a clock.
                if root_moves.len() == 1 && self.limits.clock.time_ms.is_some() && depth >= SINGLE_REPLY_DEPTH {
                    break;
                }
            }
        }

        // A strength limit may play another of the last iteration's lines; it is reported
        // as the first line so that the last `info` a GUI shows starts with the move played.
        if let Some(i) = strength.and_then(|s| chosen_move(s, &last_lines)).filter(|&i| i > 0) {
            let (score, line) = &last_lines[i];
            best = line[0];
            best_pv = line.clone();
            best_score = *score;
            self.send_report(reporter, completed_depth, 1, best_score, Bound::Exact, &best_pv);
        }
        self.progress.store(self.stats.nodes, Ordering::Relaxed);
        self.tb_progress.store(self.stats.tbhits, Ordering::Relaxed);
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

    /// Nodes spent under a root move: called after each root move's search.
    pub(super) fn count_root_nodes(&mut self, m: Move, nodes: u64) {
        if let Some(entry) = self.root_nodes.iter_mut().find(|(r, _)| *r == m) {
            entry.1 += nodes;
        }
    }

    /// The share (0 to 1) of the root moves' nodes in this search that went to `best`.
    fn node_share(&self, best: Move) -> f64 {
        let total: u64 = self.root_nodes.iter().map(|&(_, n)| n).sum();
        let mine = self.root_nodes.iter().find(|(m, _)| *m == best).map_or(0, |&(_, n)| n);
        mine as f64 / total.max(1) as f64
    }

    /// A ponder move from the hash table when the PV is only one move long.
    fn ponder_from_tt(&mut self, best: Move) -> Option<Move> {
        self.board.make(best);
        let m = self.tt.probe(self.board.key()).map(|e| e.mv).filter(|&m| self.board.legal_moves().contains(m));
        self.board.unmake();
        m
    }

    /// Reports one line to `reporter`, if it listens.
    fn send_report(
        &self,
        reporter: &mut dyn Reporter,
        depth: i32,
        multipv: usize,
        score: i32,
        bound: Bound,
        pv: &[Move],
    ) {
        if !reporter.listening() {
            return;
        }
        // While the tables restrict the root, they know its value better than the search
        // (unless the search found a mate).
        let score = match self.root_tb_score {
            Some(tb) if score.abs() < MATE_BOUND => tb,
            _ => score,
        };
        reporter.report(&Report {
            depth,
            seldepth: self.stats.seldepth,
            multipv,
            score: Score::from_internal(score),
            bound,
            nodes: self.stats.nodes,
            time: self.start.elapsed(),
            hashfull: self.tt.hashfull(),
            tbhits: self.stats.tbhits,
            pv: pv.to_vec(),
        });
    }

    /// One root search at `depth` inside a window around the previous score, widened on
    /// failure, until the score is exact or the search is stopped.
    fn aspiration(&mut self, depth: i32, prev: i32, pv_idx: usize, reporter: &mut dyn Reporter) -> Outcome {
        let mut delta = ASPIRATION_WINDOW.get();
        let (mut alpha, mut beta) = if depth >= ASPIRATION_MIN_DEPTH && prev.abs() < MATE_BOUND {
            ((prev - delta).max(-INFINITY), (prev + delta).min(INFINITY))
        } else {
            (-INFINITY, INFINITY)
        };
        let mut partial = None;
        // A fail high means the previous iterations missed something good for us; the
        // re-searches that find out how good go a ply shallower each, so that a tactic
        // just found is measured quickly.
        let mut search_depth = depth;
        loop {
            let score = self.negamax(alpha, beta, search_depth, 0, false);
            // The root PV holds a move only if its search finished (an aborted child search
            // returns before the PV is updated), so its score can be trusted even now.
            let line = self.pv.line(0);
            if !line.is_empty() {
                let bound = if self.root_best_score >= beta { Bound::Lower } else { Bound::Exact };
                partial = Some(Partial { score: self.root_best_score, bound, pv: line.to_vec() });
            }
            if self.stopped {
                return Outcome::Stopped(partial);
            }
            if score <= alpha && alpha <= -INFINITY {
                // A full window and still no score: every root move left for this line
                // was excluded or counts only as a mate it did not prove. No line, and
                // nothing to widen (the caller sees the empty PV).
                return Outcome::Done(score);
            }
            if score <= alpha {
                if self.start.elapsed() > Duration::from_millis(BOUND_REPORT_DELAY_MS)
                    && pv_idx == 0
                    && !self.pv.line(0).is_empty()
                {
                    self.send_report(reporter, depth, pv_idx + 1, alpha, Bound::Upper, self.pv.line(0));
                }
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
                search_depth = depth;
            } else if score >= beta {
                if self.start.elapsed() > Duration::from_millis(BOUND_REPORT_DELAY_MS)
                    && pv_idx == 0
                    && !self.pv.line(0).is_empty()
                {
                    self.send_report(reporter, depth, pv_idx + 1, beta, Bound::Lower, self.pv.line(0));
                }
                beta = (score + delta).min(INFINITY);
                if score.abs() < MATE_BOUND {
                    search_depth = (search_depth - 1).max(depth - ASPIRATION_FAIL_HIGH_MAX_REDUCTION).max(1);
                }
            } else {
                return Outcome::Done(score);
            }
            delta += delta / ASPIRATION_WIDEN_DIVISOR;
            if delta > ASPIRATION_MAX_DELTA {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }
}

/// How a root search at one depth ended.
enum Outcome {
    /// An exact score inside the window; the PV is in `pv.line(0)`.
    Done(i32),
    /// Stopped, with the best root move whose search had finished, if any.
    Stopped(Option<Partial>),
}

/// The best root move of an unfinished root search: its score is exact, or a lower bound
/// if it failed high, and only moves whose own search finished count.
struct Partial {
    score: i32,
    bound: Bound,
    pv: Vec<Move>,
}
