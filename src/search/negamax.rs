//! The main search: fail-soft negamax alpha-beta with principal variation search, told as
//! numbered steps (draws, mate distance, hash cutoffs, static pruning, null move, the move
//! loop with late-move pruning and reductions, and the hash store).

use super::correction::Slots;
use super::history::{cont_key, piece_index, ContKeys};
use super::movepick::{is_bad_capture_score, is_refutation_score, is_tactical};
use super::params::*;
use super::tt::{bound_of, score_from_tt, score_to_tt, Bound};
use super::Searcher;
use crate::moves::Move;
use crate::see::see_ge;
use once_cell::sync::Lazy;

/// The late-move reduction at depth `d` for move number `m` (both at least 1).
fn lmr_formula(d: usize, m: usize) -> i32 {
    let base = LMR_BASE_CENTI.get() as f64 / 100.0;
    let divisor = LMR_DIVISOR_CENTI.get() as f64 / 100.0;
    (base + (d as f64).ln() * (m as f64).ln() / divisor) as i32
}

/// Late-move reductions, indexed by depth and move number.
fn lmr_table() -> [[i32; LMR_TABLE_SIZE]; LMR_TABLE_SIZE] {
    let mut t = [[0i32; LMR_TABLE_SIZE]; LMR_TABLE_SIZE];
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            *r = lmr_formula(d, m);
        }
    }
    t
}

/// The reduction table, built once, on first use.
#[cfg(not(feature = "spsa"))]
static LMR: Lazy<[[i32; LMR_TABLE_SIZE]; LMR_TABLE_SIZE]> = Lazy::new(lmr_table);

/// A tuning build's table: rebuilt by [`rebuild_lmr`] when an LMR option changes.
#[cfg(feature = "spsa")]
static LMR: Lazy<[[std::sync::atomic::AtomicI32; LMR_TABLE_SIZE]; LMR_TABLE_SIZE]> =
    Lazy::new(|| lmr_table().map(|row| row.map(std::sync::atomic::AtomicI32::new)));

/// Recomputes the reduction table from `LMR_BASE_CENTI` and `LMR_DIVISOR_CENTI` (a tuning
/// build calls this after `setoption`).
#[cfg(feature = "spsa")]
pub fn rebuild_lmr() {
    for (row, new) in LMR.iter().zip(lmr_table()) {
        for (r, v) in row.iter().zip(new) {
            r.store(v, std::sync::atomic::Ordering::Relaxed);
        }
    }
}

/// The reduction for depth `d` and move number `m` (clamped to the table's size).
#[inline(always)]
fn lmr(d: usize, m: usize) -> i32 {
    let (d, m) = (d.min(LMR_TABLE_SIZE - 1), m.min(LMR_TABLE_SIZE - 1));
    #[cfg(not(feature = "spsa"))]
    {
        LMR[d][m]
    }
    #[cfg(feature = "spsa")]
    {
        LMR[d][m].load(std::sync::atomic::Ordering::Relaxed)
    }
}

impl Searcher {
    /// Is the static eval at `ply` better than at our previous move? When that node was in
    /// check (no eval), the one before it decides; with neither known (near the root),
    /// say no, which prunes less.
    #[inline]
    fn improving(&self, ply: usize, eval: i32) -> bool {
        let earlier = |back: usize| {
            if ply >= back {
                Some(self.stack[ply - back].eval).filter(|&e| e != -INFINITY)
            } else {
                None
            }
        };
        match earlier(2).or_else(|| earlier(4)) {
            Some(e) => eval > e,
            None => false,
        }
    }

    /// The moves one and two plies before `ply`, as the continuation history indexes them.
    #[inline]
    fn cont_keys(&self, ply: usize) -> ContKeys {
        let key = |back: usize| {
            let e = self.stack[ply.checked_sub(back)?];
            (!e.mv.is_null()).then(|| cont_key(e.moved, e.mv))
        };
        [key(1), key(2)]
    }

    /// Fail-soft negamax with principal variation search.
    pub(super) fn negamax(&mut self, mut alpha: i32, mut beta: i32, mut depth: i32, ply: usize, cut_node: bool) -> i32 {
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
                return if in_check { 0 } else { self.evaluate(ply) };
            }
            // Step 4. Mate distance pruning: no line here can beat a mate already found nearer the root.
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }

        // Step 5. Transposition table: cut off in non-PV nodes when the stored bound allows
        // (not in a singular search, whose result is about other moves than the entry's).
        let excluded = self.stack[ply].excluded;
        let singular_search = !excluded.is_null();
        let key = self.board.key();
        let tt_entry = self.tt.probe(key);
        let mut tt_move = Move::NULL;
        if let Some(e) = tt_entry {
            tt_move = e.mv;
            let s = score_from_tt(e.score, ply);
            if !pv_node
                && !singular_search
                && e.depth >= depth
                && (e.bound == Bound::Exact
                    || (e.bound == Bound::Lower && s >= beta)
                    || (e.bound == Bound::Upper && s <= alpha))
            {
                return s;
            }
        }
        if root && (!self.root_excluded.is_empty() || !self.limits.searchmoves.contains(&tt_move)) {
            tt_move = Move::NULL;
        }

        // Step 5a. Tablebases: right after a capture or pawn move, a WDL probe may decide
        // the node (a win at least as good as beta, a loss no better than alpha, a draw);
        // otherwise, in a PV node, it bounds the score from one side.
        let mut tb_max = INFINITY;
        let mut tb_floor = -INFINITY;
        if !root && !singular_search {
            if let Some(probe) = self.tablebase_probe(depth, ply) {
                let decisive = match probe.bound {
                    Bound::Exact => true,
                    Bound::Lower => probe.score >= beta,
                    Bound::Upper => probe.score <= alpha,
                };
                if decisive {
                    self.store_tablebase(key, &probe, depth, ply);
                    return probe.score;
                }
                if pv_node {
                    if probe.bound == Bound::Lower {
                        tb_floor = probe.score;
                        alpha = alpha.max(probe.score);
                    } else {
                        tb_max = probe.score;
                    }
                }
            }
        }

        // Step 6. Static evaluation (the table keeps it uncorrected), corrected by what
        // this pawn structure and these placements taught, and whether it improves on two
        // plies ago.
        let raw_eval = if in_check { -INFINITY } else { tt_entry.map_or_else(|| self.evaluate(ply), |e| e.eval) };
        // The correction's slots serve twice: here, and to learn from the result (step 15).
        let slots = (!in_check).then(|| Slots::of(&self.board));
        let static_eval = slots.as_ref().map_or(-INFINITY, |slots| self.corrected(raw_eval, slots));
        // A stored bound on the score may sharpen the evaluation.
        let eval = match tt_entry {
            Some(e) if !in_check => e.sharpen(static_eval),
            _ => static_eval,
        };
        self.stack[ply].eval = static_eval;
        let improving = !in_check && self.improving(ply, static_eval);

        if !pv_node && !in_check && !root && !singular_search {
            // Step 7. Reverse futility pruning: far enough above beta at low depth, the
            // opponent will not catch up.
            if depth <= RFP_DEPTH
                && eval - RFP_MARGIN.get() * (depth - improving as i32) >= beta
                && eval.abs() < MATE_BOUND
            {
                return eval;
            }
            // Step 8. Null-move pruning: if passing still fails high, a real move will too.
            // Not without pieces (zugzwang in pawn endings) nor right after another null move.
            let last_null = ply > 0 && self.stack[ply - 1].mv.is_null();
            if depth >= NMP_DEPTH
                && eval >= beta
                && !last_null
                && self.has_non_pawn_material()
                && beta.abs() < MATE_BOUND
            {
                let r = NMP_BASE_REDUCTION.get()
                    + depth / NMP_DEPTH_DIVISOR.get()
                    + ((eval - beta) / NMP_EVAL_DIVISOR.get()).min(NMP_MAX_EVAL_REDUCTION);
                self.stack[ply].mv = Move::NULL;
                self.stack[ply].moved = 0;
                self.make_null_move(ply);
                let score = -self.negamax(-beta, -beta + 1, depth - 1 - r, ply + 1, !cut_node);
                self.unmake_null_move();
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
        let cont = self.cont_keys(ply);
        let slot = Self::picker_slot(ply, singular_search);
        self.pickers[slot].start(&self.board, tt_move, &self.history, ply, counter, cont);
        let mut best_score = tb_floor;
        let mut best_move = Move::NULL;
        let mut legal = 0usize;
        let mut quiets_tried = [Move::NULL; MAX_TRACKED_QUIETS];
        let mut n_quiets = 0usize;
        let lmp_limit = (LMP_BASE.get() + depth * depth) / if improving { 1 } else { LMP_NOT_IMPROVING_DIVISOR };
        let orig_alpha = alpha;

        while let Some((m, order)) = self.pickers[slot].next(&self.board, &self.history) {
            if root && (self.root_excluded.contains(&m) || !self.limits.searchmoves.contains(&m)) {
                continue;
            }
            if m == excluded {
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
                    let futility_value = eval + FUTILITY_BASE.get() + FUTILITY_MARGIN.get() * depth;
                    let futile_node = !in_check && depth <= FUTILITY_DEPTH && futility_value <= alpha;
                    let futile = futile_node && !is_refutation_score(order);
                    // Quiet checks are kept: they may mate, which the static eval cannot see.
                    if (late || futile) && !self.board.gives_check(m) {
                        // Every later quiet that gives no check is pruned too (`n_quiets` and
                        // alpha only grow, and the killers and counter-move come first), so
                        // the picker drops them unseen.
                        self.pickers[slot].checks_only(&self.board);
                        if futile_node {
                            // Fail soft with what the skipped moves might have scored.
                            best_score = best_score.max(futility_value);
                        }
                        continue;
                    }
                    if depth <= SEE_PRUNE_DEPTH && !see_ge(&self.board, m, -SEE_QUIET_MARGIN.get() * depth) {
                        continue;
                    }
                } else if depth <= SEE_PRUNE_DEPTH
                    && is_bad_capture_score(order)
                    && !see_ge(&self.board, m, -SEE_CAPTURE_MARGIN.get() * depth * depth)
                {
                    continue;
                }
            }

            // Step 11a. Singular extension: is the hash move far better than every other
            // move? Search the others at half depth against a lowered bound.
            let mut extension = 0;
            if let Some(e) = tt_entry.filter(|_| m == tt_move && !root && !singular_search && self.options.singular) {
                let tt_score = score_from_tt(e.score, ply);
                if depth >= SE_DEPTH
                    && e.depth >= depth - SE_TT_DEPTH_MARGIN
                    && e.bound != Bound::Upper
                    && tt_score.abs() < MATE_BOUND
                {
                    let singular_beta = tt_score - SE_MARGIN.get() * depth;
                    self.stack[ply].excluded = m;
                    let s = self.negamax(singular_beta - 1, singular_beta, (depth - 1) / 2, ply, cut_node);
                    self.stack[ply].excluded = Move::NULL;
                    if self.stopped {
                        return 0;
                    }
                    if s < singular_beta {
                        extension = 1;
                    } else if singular_beta >= beta {
                        // Multi-cut: another move beats beta even at half depth.
                        return singular_beta;
                    } else if tt_score >= beta {
                        // Not singular, and the hash score beats beta: a cutoff is expected
                        // anyway, so search it shallower.
                        extension = -SE_BEATS_BETA_REDUCTION;
                    } else if cut_node {
                        // Not singular, at an expected cut node: shallower too.
                        extension = -SE_CUT_NODE_REDUCTION;
                    }
                }
            }

            let moved_piece = piece_index(&self.board, m);
            self.stack[ply].mv = m;
            self.stack[ply].moved = moved_piece;
            let nodes_before = self.stats.nodes;
            if root {
                self.announce_root_move(depth, m, legal + 1);
            }
            self.make_move(ply, m);
            legal += 1;
            if quiet && n_quiets < quiets_tried.len() {
                quiets_tried[n_quiets] = m;
                n_quiets += 1;
            }
            let gives_check = self.board.in_check();
            let new_depth = depth - 1 + extension;

            // Step 12. Principal variation search with late move reductions (a root move
            // the tables rank slower than the fastest win is searched only for a mate).
            let mate_only = root && self.is_mate_only_root_move(m);
            let mut score;
            if mate_only {
                score = self.search_mate_only_root_move(alpha, beta, new_depth);
            } else if depth >= LMR_DEPTH
                && legal > LMR_MIN_MOVES + pv_node as usize
                && (quiet || is_bad_capture_score(order))
            {
                let mut r = lmr(depth as usize, legal);
                r -= pv_node as i32;
                r += !improving as i32;
                r += cut_node as i32;
                r -= gives_check as i32;
                r -= is_refutation_score(order) as i32;
                if quiet && !is_refutation_score(order) {
                    r -= (order / LMR_HISTORY_DIVISOR.get()).clamp(-LMR_HISTORY_MAX_ADJUST, LMR_HISTORY_MAX_ADJUST);
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
            if pv_node && (legal == 1 || score > alpha) && !mate_only {
                score = -self.negamax(-beta, -alpha, new_depth, ply + 1, false);
            }
            self.unmake_move();
            if root {
                self.count_root_nodes(m, self.stats.nodes - nodes_before);
            }
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
                        if root {
                            self.root_best_score = score;
                        }
                    }
                    if alpha >= beta {
                        // Step 13. Remember what refuted this node.
                        if quiet {
                            self.history.cutoff(&self.board, m, &quiets_tried[..n_quiets], &cont, depth, ply);
                            if ply > 0 && !self.stack[ply - 1].mv.is_null() {
                                let prev = self.stack[ply - 1];
                                self.history.set_counter(prev.moved, prev.mv.to().index(), m);
                            }
                        }
                        break;
                    }
                    // A move that raised alpha without a cutoff is hard to beat: search
                    // the rest a ply shallower (not at the root, whose depth is reported).
                    if !root
                        && depth > ALPHA_RAISE_MIN_DEPTH
                        && depth < ALPHA_RAISE_MAX_DEPTH
                        && score.abs() < MATE_BOUND
                    {
                        depth -= 1;
                    }
                }
            }
        }

        // Step 14. No legal move: mate or stalemate (or, in a singular search, only the
        // excluded move: it fails low).
        if legal == 0 {
            if singular_search {
                return alpha;
            }
            if root && !self.pickers[slot].is_empty() {
                // Every root move was excluded (MultiPV beyond the move count).
                return alpha;
            }
            return if in_check { -MATE + ply as i32 } else { 0 };
        }

        // A tablebase loss bounds a PV node's score from above.
        best_score = best_score.min(tb_max);
        let bound = bound_of(best_score, beta, alpha > orig_alpha);
        // A singular search leaves out the best move, and the root's result over a restricted
        // move set (MultiPV's later lines, `searchmoves`) is not the position's value either:
        // neither is stored.
        if !singular_search && (!root || (self.root_excluded.is_empty() && !self.root_restricted)) {
            self.tt.store(key, best_move, score_to_tt(best_score, ply), raw_eval.max(-MATE_BOUND), depth, bound);
        }
        // Step 15. Teach the correction history, from quiet results that bound the score on
        // the side away from the static eval. It learns the raw evaluation's error, so that
        // a settled entry corrects it in full.
        let informative = match bound {
            Bound::Lower => best_score > static_eval,
            Bound::Upper => best_score < static_eval,
            Bound::Exact => true,
        };
        let quiet_best = best_move.is_null() || !is_tactical(&self.board, best_move);
        if let Some(slots) = &slots {
            if informative && quiet_best && !singular_search && best_score.abs() < MATE_BOUND {
                self.correction.update(slots, raw_eval, best_score, depth);
            }
        }
        best_score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::eval::evaluate;
    use crate::search::tt::TranspositionTable;
    use crate::search::Control;
    use std::sync::Arc;

    fn searcher() -> Searcher {
        Searcher::new(Arc::new(TranspositionTable::new(1)), Arc::new(Control::default()))
    }

    /// `improving` compares with our eval two plies back; when we were in check there (no
    /// eval, stored as -INFINITY) it falls back to four plies back, and with neither it says
    /// no. Without the fallback the second assertion fails (nothing to compare: false); if the
    /// in-check -INFINITY were compared as an eval, every eval would "improve" on it and the
    /// third fails.
    #[test]
    fn improving_falls_back_past_a_ply_in_check() {
        let mut s = searcher();
        s.stack[0].eval = 50;
        s.stack[2].eval = 100;
        assert!(!s.improving(4, 60), "two plies back (100) decides first");
        s.stack[2].eval = -INFINITY;
        assert!(s.improving(4, 60), "in check two plies back: 60 > 50 four plies back");
        assert!(!s.improving(4, 40), "in check two plies back: 40 < 50 four plies back");
        s.stack[0].eval = -INFINITY;
        assert!(!s.improving(4, 60), "neither known: not improving");
        assert!(!s.improving(1, 60), "near the root nothing is known");
    }

    /// Fail soft through futility pruning: far below alpha at depth 1, the first quiet move
    /// is searched and every later quiet is pruned as futile; the node's score is then what
    /// a pruned move might have scored, `eval + FUTILITY_BASE + FUTILITY_MARGIN`, not the
    /// lower score of the one move searched. Without `best_score.max(futility_value)` the
    /// result would be that searched move's score (about the static eval) and this fails.
    #[test]
    fn futility_pruned_quiets_raise_the_fail_soft_score() {
        // White (to move) has king, knight and pawns against a queen: no captures, no checks.
        let board = Board::from_fen("3qk3/8/8/8/8/8/PPP5/1K5N w - - 0 1").unwrap();
        let eval = evaluate(&board);
        let futility_value = eval + FUTILITY_BASE.get() + FUTILITY_MARGIN.get();
        assert!(futility_value < 0, "the position must be hopeless for white: eval {eval}");
        let mut s = searcher();
        s.ready_for_direct_call(&board);
        let score = s.negamax(0, 1, 1, 1, true);
        assert_eq!(score, futility_value, "eval {eval}");
    }
}
