//! The search's use of the Syzygy tables.
//!
//! - At the root of a position the tables cover, the moves are ranked by DTZ (by WDL if
//!   the DTZ tables are missing) and the search chooses only among the moves of the best
//!   rank: a won ending is converted within the fifty-move rule, a lost one resisted
//!   longest, a draw held. After a DTZ ranking the search does not probe inside: the root
//!   restriction already decides the result.
//! - A win that is sure within the fifty-move rule is played by the least DTZ (see
//!   `RootRanking::fastest_moves`): steady progress, never a repetition. The other sure
//!   wins of the best rank stay root moves, but count only if the search proves a mate
//!   with them, so that a proven mate still beats the DTZ order.
//! - Inside the search, right after a capture or pawn move (the only moves that change
//!   which table a position is in, and the only positions where the halfmove clock is 0,
//!   so that WDL's fifty-move accounting is exact), a WDL probe ends the node when its
//!   result decides it, and is stored in the hash table as a bound.

use super::params::{MATE_BOUND, MAX_PLY, TB_CURSED_SCORE, TB_STORE_DEPTH_BONUS, TB_WIN};
use super::tt::{score_to_tt, Bound};
use super::Searcher;
use crate::moves::Move;

/// What a WDL probe inside the search decided.
pub(super) struct TbProbe {
    pub score: i32,
    pub bound: Bound,
}

impl Searcher {
    /// Step 0 of a search: ranks the root moves by the tables and keeps, among
    /// `root_moves`, the fastest moves of the best rank first and then the rest of that rank
    /// (which count only as mates: `root_mate_only`). Sets the probe limit for the search
    /// and the score shown.
    pub(super) fn tablebase_root(&mut self, root_moves: &mut Vec<Move>) {
        self.root_tb_score = None;
        self.root_mate_only.clear();
        self.tb_pieces = 0;
        let Some(tb) = self.tb.clone() else { return };
        self.tb_pieces = tb.max_pieces().min(self.options.tb_probe_limit);
        if self.tb_pieces == 0 || (self.board.occupied().count() as usize) > self.tb_pieces {
            return;
        }
        let Some(ranking) = tb.rank_root(&mut self.board, self.options.tb_rule50) else { return };
        self.stats.tbhits += ranking.moves.len() as u64;
        let ranking = ranking.only(|m| root_moves.contains(&m));
        let Some(outcome) = ranking.moves.first().map(|r| r.outcome()) else { return };
        let fastest = ranking.fastest_moves();
        self.root_mate_only = ranking.best_moves().into_iter().filter(|m| !fastest.contains(m)).collect();
        *root_moves = fastest.into_iter().chain(self.root_mate_only.iter().copied()).collect();
        self.root_tb_score = Some(match outcome {
            2 => TB_WIN - 1,
            1 if self.options.tb_rule50 => TB_CURSED_SCORE,
            1 => TB_WIN - 1,
            0 => 0,
            -1 if self.options.tb_rule50 => -TB_CURSED_SCORE,
            _ => -TB_WIN + 1,
        });
        if ranking.by_dtz {
            self.tb_pieces = 0;
        }
    }

    /// Does root move `m` count only if the search proves a mate with it (a sure win the
    /// tables rank slower than the fastest)?
    pub(super) fn is_mate_only_root_move(&self, m: Move) -> bool {
        self.root_mate_only.contains(&m)
    }

    /// Searches a root move that counts only as a mate, already made on the board, `depth`
    /// plies deep: in a window from just below the mate scores (or from `alpha`, if that is
    /// higher) up to `beta`, so that anything short of a mate fails low cheaply. Returns a
    /// mate score above `alpha` if one is proven, else a score at most `alpha` (the move
    /// then never becomes the best).
    pub(super) fn search_mate_only_root_move(&mut self, alpha: i32, beta: i32, depth: i32) -> i32 {
        let floor = alpha.max(MATE_BOUND - 1);
        let ceiling = beta.max(floor + 1);
        let score = -self.negamax(-ceiling, -floor, depth, 1, false);
        if score > floor {
            score
        } else {
            score.min(alpha)
        }
    }

    /// A WDL probe at an interior node, when the position qualifies: right after a
    /// zeroing move, at least `tb_probe_depth` deep, few enough pieces, no castling.
    /// Wins score `TB_WIN - ply` (a lower bound: a mate may be better), losses the
    /// negative (an upper bound), draws 0 (exact); with the fifty-move rule on, cursed
    /// wins and blessed losses are draws, scored ±`TB_CURSED_SCORE`.
    #[inline]
    pub(super) fn tablebase_probe(&mut self, depth: i32, ply: usize) -> Option<TbProbe> {
        if self.tb_pieces == 0
            || self.board.halfmove_clock() != 0
            || depth < self.options.tb_probe_depth
            || self.board.occupied().count() as usize > self.tb_pieces
            || self.board.castle_rights() != 0
        {
            return None;
        }
        let tb = self.tb.as_ref()?;
        let wdl = tb.probe_wdl(&mut self.board)?.value();
        self.stats.tbhits += 1;
        let draw_band = if self.options.tb_rule50 { 1 } else { 0 };
        Some(if wdl > draw_band {
            TbProbe { score: TB_WIN - ply as i32, bound: Bound::Lower }
        } else if wdl < -draw_band {
            TbProbe { score: -TB_WIN + ply as i32, bound: Bound::Upper }
        } else {
            TbProbe { score: wdl * TB_CURSED_SCORE, bound: Bound::Exact }
        })
    }

    /// Stores a decisive tablebase result in the hash table.
    pub(super) fn store_tablebase(&mut self, key: u64, probe: &TbProbe, depth: i32, ply: usize) {
        let eval = self.evaluate(ply);
        let depth = (depth + TB_STORE_DEPTH_BONUS).min(MAX_PLY as i32 - 1);
        self.tt.store(key, Move::NULL, score_to_tt(probe.score, ply), eval, depth, probe.bound);
    }
}
