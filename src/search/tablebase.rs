//! The search's use of the Syzygy tables.
//!
//! - At the root of a position the tables cover, the moves are ranked by DTZ (by WDL if
//!   the DTZ tables are missing) and the search chooses only among the moves of the best
//!   rank: a won ending is converted within the fifty-move rule, a lost one resisted
//!   longest, a draw held. After a DTZ ranking the search does not probe inside: the root
//!   restriction already decides the result.
//! - Inside the search, right after a capture or pawn move (the only moves that change
//!   which table a position is in, and the only positions where the halfmove clock is 0,
//!   so that WDL's fifty-move accounting is exact), a WDL probe ends the node when its
//!   result decides it, and is stored in the hash table as a bound.

use super::params::{MAX_PLY, TB_CURSED_SCORE, TB_STORE_DEPTH_BONUS, TB_WIN};
use super::tt::{score_to_tt, Bound};
use super::Searcher;
use crate::moves::Move;

/// What a WDL probe inside the search decided.
pub(super) struct TbProbe {
    pub score: i32,
    pub bound: Bound,
}

impl Searcher {
    /// Step 0 of a search: ranks the root moves by the tables and keeps those of the best
    /// rank among `root_moves`. Sets the probe limit for the search and the score shown.
    pub(super) fn tablebase_root(&mut self, root_moves: &mut Vec<Move>) {
        self.root_tb_score = None;
        self.tb_pieces = 0;
        let Some(tb) = self.tb.clone() else { return };
        self.tb_pieces = tb.max_pieces().min(self.options.tb_probe_limit);
        if self.tb_pieces == 0 || (self.board.occupied().count() as usize) > self.tb_pieces {
            return;
        }
        let Some(ranking) = tb.rank_root(&mut self.board, self.options.tb_rule50) else { return };
        self.stats.tbhits += ranking.moves.len() as u64;
        let rank_of = |m: Move| ranking.moves.iter().find(|r| r.mv == m).map(|r| (r.rank, r.outcome()));
        let Some((best_rank, outcome)) = root_moves.iter().filter_map(|&m| rank_of(m)).max_by_key(|&(r, _)| r) else {
            return;
        };
        root_moves.retain(|&m| rank_of(m).is_some_and(|(r, _)| r == best_rank));
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
