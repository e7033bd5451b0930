//! Which static evaluation the search uses, and the moves that keep it up to date.
//!
//! With a network set ([`Searcher::set_network`], the UCI option `UseNNUE`) the static eval
//! is the network's; otherwise the classical [`Evaluator`](crate::eval::Evaluator). The
//! network's accumulators live on an [`AccumulatorStack`], one per ply: every move the
//! search makes goes through [`Searcher::make_move`] / [`Searcher::make_null_move`], which
//! record the move's feature changes at the child's ply before changing the board; unmaking
//! needs nothing (the parent's accumulator is still there). The accumulator of a ply is
//! computed only when that node is evaluated. Everything else (the correction history,
//! pruning margins) sees a static eval and does not know which evaluation gave it.

use super::material_scale::scaled_by_material;
use super::nnue_stack::Nnue;
use super::params::{MAX_PLY, TB_WIN_BOUND};
use super::Searcher;
use crate::board::Board;
use crate::eval::nnue::{self, AccumulatorStack, Network};
use crate::moves::Move;
use std::sync::Arc;

/// Plies of the accumulator stack: the deepest node a search makes a move to is `MAX_PLY`.
const STACK_PLIES: usize = MAX_PLY + 4;

/// The network's evaluation is kept inside this bound, away from tablebase and mate
/// scores (a trained network never comes near it; a broken or random one might).
const NNUE_EVAL_LIMIT: i32 = TB_WIN_BOUND - 1;

impl Searcher {
    /// Evaluates with `net` (shared read-only by every thread), or with the classical
    /// evaluation when `None`. Takes effect at the next search.
    pub fn set_network(&mut self, net: Option<Arc<Network>>) {
        self.nnue = net.map(|net| match self.nnue.take() {
            Some(old) => Nnue { net, stack: old.stack },
            None => Nnue { net, stack: AccumulatorStack::new(STACK_PLIES) },
        });
    }

    /// The network in use, if any.
    pub fn network(&self) -> Option<&Arc<Network>> {
        self.nnue.as_ref().map(|n| &n.net)
    }

    /// Makes `board` the search's root: its board, the accumulators' first ply and the
    /// line the repetition filter counts (at a search's start).
    pub(super) fn set_root(&mut self, board: &Board) {
        self.board = board.clone();
        if let Some(n) = self.nnue.as_mut() {
            n.stack.refresh(0, &n.net, &self.board);
        }
        self.repetition.reset(&self.board);
    }

    /// The static evaluation of `board` for the side to move, uncorrected, with the
    /// evaluation in use: what the quiescence search stands pat on at its root.
    pub fn static_evaluation(&mut self, board: &Board) -> i32 {
        self.set_root(board);
        self.evaluate(0)
    }

    /// The uncorrected static evaluation of the position at `ply`, for the side to move.
    #[inline]
    pub(super) fn evaluate(&mut self, ply: usize) -> i32 {
        match self.nnue.as_mut() {
            Some(n) => {
                let (side, pieces) = (self.board.side_to_move(), self.board.occupied().count());
                let e = nnue::evaluate(&n.net, n.stack.get(ply, &n.net), side, pieces);
                // Debug builds check every incremental evaluation against a full refresh
                // (release builds run the same check in `tests/nnue_incremental.rs`).
                debug_assert_eq!(e, nnue::evaluate_board(&n.net, &self.board), "{}", self.board.to_fen());
                let e = e.clamp(-NNUE_EVAL_LIMIT, NNUE_EVAL_LIMIT);
                if self.options.material_scale {
                    scaled_by_material(e, &self.board).clamp(-NNUE_EVAL_LIMIT, NNUE_EVAL_LIMIT)
                } else {
                    e
                }
            }
            None => self.evaluator.evaluate(&self.board),
        }
    }

    /// Plays `m` from the node at `ply` (the child is at `ply + 1`).
    #[inline]
    pub(super) fn make_move(&mut self, ply: usize, m: Move) {
        if let Some(n) = self.nnue.as_mut() {
            n.stack.push_move(ply, &n.net, &self.board, m);
        }
        self.board.make(m);
        self.tt.prefetch(self.board.key());
        self.repetition.push(self.board.key());
    }

    /// Takes back the move [`make_move`](Self::make_move) played.
    #[inline]
    pub(super) fn unmake_move(&mut self) {
        self.repetition.pop(self.board.key());
        self.board.unmake();
    }

    /// Passes from the node at `ply` (null-move pruning).
    #[inline]
    pub(super) fn make_null_move(&mut self, ply: usize) {
        if let Some(n) = self.nnue.as_mut() {
            n.stack.push_null(ply);
        }
        self.board.make_null();
        self.tt.prefetch(self.board.key());
        self.repetition.push(self.board.key());
    }

    /// Takes back the pass [`make_null_move`](Self::make_null_move) made.
    #[inline]
    pub(super) fn unmake_null_move(&mut self) {
        self.repetition.pop(self.board.key());
        self.board.unmake_null();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::tt::TranspositionTable;
    use crate::search::{Control, Options};

    #[test]
    fn play_scales_the_network_eval_and_datagen_does_not() {
        let board = Board::from_fen("r3k3/8/8/8/8/8/8/3QK2R w - - 0 1").unwrap();
        let mut s = Searcher::new(Arc::new(TranspositionTable::new(1)), Arc::new(Control::default()));
        s.set_network(Some(nnue::default_network()));
        let played = s.static_evaluation(&board);
        s.set_options(Options { material_scale: false, ..s.options() });
        let raw = s.static_evaluation(&board);
        assert_eq!(raw, nnue::evaluate_board(&nnue::default_network(), &board));
        assert_eq!(played, scaled_by_material(raw, &board));
        assert_ne!(played, raw, "a queen and two rooks (1,900) scale by 19,900 / 24,000");
    }
}
