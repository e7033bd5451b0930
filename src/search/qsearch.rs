//! Quiescence search: at the horizon, resolve captures (and queen promotions) until the
//! position is quiet, so the static evaluation is never taken in the middle of an exchange.

use super::correction::Slots;
use super::params::*;
use super::tt::{score_from_tt, score_to_tt, Bound};
use super::{Purpose, Searcher};
use crate::board::Board;
use crate::moves::Move;
use crate::see::see_ge;
use crate::types::Piece;

impl Searcher {
    /// Datagen's quiet filter: the full-window quiescence value of `board` from the side to
    /// move's point of view, without a node or time limit. It equals the static evaluation
    /// exactly when no capture or promotion improves on standing pat: `datagen` keeps only
    /// such quiet positions.
    ///
    /// The static evaluation is taken as it is here, without the correction history
    /// learnt by earlier searches, and the hash table is neither read (a score stored by an
    /// earlier, deeper search would cut a capture's line short) nor written (the filter must
    /// not change the games): `Purpose::QuietFilter`. The next `search` plays as usual again.
    pub fn quiescence(&mut self, board: &Board) -> i32 {
        self.start_unlimited(board, Purpose::QuietFilter);
        self.qsearch(-INFINITY, INFINITY, 0)
    }

    /// Quiescence search: stand pat, then captures and queen promotions (all evasions in
    /// check), with delta pruning and SEE pruning of losing captures. (Quiet checks at the
    /// first ply were tried and did not gain: docs/experiments.md, S5 and S6.)
    pub(super) fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize) -> i32 {
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
            return if in_check { 0 } else { self.evaluate(ply) };
        }

        // Step 1. Hash table: any stored depth is at least quiescence depth.
        let key = self.board.key();
        let tt_entry = if self.purpose.qsearch_uses_tt() { self.tt.probe(key) } else { None };
        let pv_node = beta - alpha > 1;
        let mut tt_move = Move::NULL;
        if let Some(e) = tt_entry {
            let s = score_from_tt(e.score, ply);
            if !pv_node
                && (e.bound == Bound::Exact
                    || (e.bound == Bound::Lower && s >= beta)
                    || (e.bound == Bound::Upper && s <= alpha))
            {
                return s;
            }
            tt_move = e.mv;
        }

        // Step 2. Stand pat: the side to move can usually do at least as well as the static
        // evaluation by not capturing. Not available in check.
        let raw_eval = if in_check { -INFINITY } else { tt_entry.map_or_else(|| self.evaluate(ply), |e| e.eval) };
        let static_eval = if in_check { -INFINITY } else { self.corrected(raw_eval, &Slots::of(&self.board)) };
        let mut best_score = static_eval;
        if !in_check {
            if best_score >= beta {
                return best_score;
            }
            alpha = alpha.max(best_score);
        }

        let slot = Self::picker_slot(ply, false);
        self.pickers[slot].start_quiescence(&self.board, tt_move);
        let mut best_move = Move::NULL;
        let mut legal = 0;
        while let Some((m, _)) = self.pickers[slot].next(&self.board, &self.history) {
            legal += 1;
            if !in_check {
                // Under-promotions are never better than queening here.
                if m.is_promotion() && m.promotion() != Piece::Queen {
                    continue;
                }
                // Step 3. Delta pruning: even winning the victim (plus a margin) cannot raise alpha.
                let victim = self.board.captured_piece(m).map_or(0, Piece::nominal_value);
                let promotion = Piece::Queen.nominal_value() - Piece::Pawn.nominal_value();
                let gain = victim + if m.is_promotion() { promotion } else { 0 };
                let optimistic = static_eval + gain + DELTA_MARGIN.get();
                if optimistic <= alpha && !m.is_promotion() {
                    self.stats.delta_pruned += 1;
                    // Fail soft with what the skipped capture might have scored.
                    best_score = best_score.max(optimistic);
                    continue;
                }
                // Step 4. SEE pruning: a capture that loses material is not worth resolving.
                if self.options.qsearch_see && !see_ge(&self.board, m, 0) {
                    self.stats.see_pruned += 1;
                    continue;
                }
            }
            self.make_move(ply, m);
            let score = -self.qsearch(-beta, -alpha, ply + 1);
            self.unmake_move();
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
        // Only bounds: an exact depth-0 result would replace a deeper entry of this position.
        let bound = if best_score >= beta { Bound::Lower } else { Bound::Upper };
        if self.purpose.qsearch_uses_tt() {
            self.tt.store(key, best_move, score_to_tt(best_score, ply), raw_eval.max(-MATE_BOUND), 0, bound);
        }
        best_score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::evaluate;
    use crate::search::tt::TranspositionTable;
    use crate::search::Control;
    use std::sync::Arc;

    /// Fail soft through delta pruning: standing pat far below alpha, the one capture (a
    /// pawn) cannot reach alpha even with the margin and is pruned; the score returned is
    /// what it might have scored, `eval + pawn + DELTA_MARGIN`, not the stand-pat eval.
    /// Without `best_score.max(optimistic)` the result would be the eval and this fails.
    #[test]
    fn delta_pruned_captures_raise_the_fail_soft_score() {
        // White (to move): king and knight against a queen; Nh1xg3 is the only capture.
        let board = Board::from_fen("3qk3/8/8/8/8/6p1/8/1K5N w - - 0 1").unwrap();
        let eval = evaluate(&board);
        let optimistic = eval + Piece::Pawn.nominal_value() + DELTA_MARGIN.get();
        assert!(optimistic < 0, "the capture must not reach alpha: eval {eval}");
        let mut s = Searcher::new(Arc::new(TranspositionTable::new(1)), Arc::new(Control::default()));
        s.ready_for_direct_call(&board);
        assert_eq!(s.qsearch(0, 1, 1), optimistic, "eval {eval}");
        assert_eq!(s.stats.delta_pruned, 1);
    }

    /// A depth-0 result must not be stored as exact: an exact entry replaces any entry of
    /// the same position, deep ones included. Each position has a capture that raises alpha
    /// in a full window, which is where an exact store would happen.
    #[test]
    fn quiescence_stores_only_bounds() {
        for fen in [
            "4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1",                            // Rxd5, a free queen
            "rnbqkb1r/pppppppp/8/4n3/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2", // dxe5, a free knight
            "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", // Qxf7#
        ] {
            let board = Board::from_fen(fen).unwrap();
            let tt = Arc::new(TranspositionTable::new(1));
            let mut s = Searcher::new(tt.clone(), Arc::new(Control::default()));
            s.ready_for_direct_call(&board);
            let v = s.qsearch(-INFINITY, INFINITY, 0);
            let e = tt.probe(board.key()).unwrap_or_else(|| panic!("no entry for {fen}"));
            assert_ne!(e.bound, Bound::Exact, "{fen}: exact quiescence entry (score {v})");
            assert!(!e.mv.is_null(), "{fen}: the capture that raised alpha is kept as the hash move");
        }
    }
}
