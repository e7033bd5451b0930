//! A filter in front of the repetition scan (`Board::is_repetition`): how many positions of
//! the current line (the game before the root, then the search path) fall in each bucket of
//! their keys' low bits. A node whose bucket holds only itself repeats nothing, so most
//! nodes skip the scan, which strides over the undo records as far back as the fifty-move
//! clock allows. The filter only answers "maybe": a crowded bucket falls back to the scan,
//! so the search is node for node the same with or without it.

use crate::board::Board;
use crate::search::params::REPETITION_FILTER_BITS;

const SIZE: usize = 1 << REPETITION_FILTER_BITS;

/// The bucket of a position's key.
#[inline(always)]
fn bucket(key: u64) -> usize {
    key as usize & (SIZE - 1)
}

/// Counts of the line's positions per key bucket.
pub struct RepetitionFilter {
    /// `u32`: a line is as long as the moves a `position` command lists, with no bound.
    counts: Box<[u32; SIZE]>,
}

impl Default for RepetitionFilter {
    fn default() -> RepetitionFilter {
        RepetitionFilter { counts: Box::new([0; SIZE]) }
    }
}

impl RepetitionFilter {
    /// Counts `board`'s line afresh: every position its undo stack remembers, and its own.
    pub fn reset(&mut self, board: &Board) {
        self.counts.fill(0);
        for key in board.line_keys() {
            self.counts[bucket(key)] += 1;
        }
    }

    /// A move (or a pass) reached the position with `key`.
    #[inline(always)]
    pub fn push(&mut self, key: u64) {
        self.counts[bucket(key)] += 1;
    }

    /// The position with `key`, counted by [`push`](Self::push), was left again.
    #[inline(always)]
    pub fn pop(&mut self, key: u64) {
        self.counts[bucket(key)] -= 1;
    }

    /// May the current position, whose key is `key`, repeat an earlier one on the line?
    /// `false` is certain; `true` asks the scan.
    #[inline(always)]
    pub fn may_repeat(&self, key: u64) -> bool {
        self.counts[bucket(key)] > 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    /// Along random lines (kings and knights shuffling, so that positions do repeat; one
    /// start with a game history that already repeats), the filter never says "no" where
    /// the scan finds a repetition, and it does say "no" for most positions. A missing
    /// `push` or an extra `pop` makes a repeated position's bucket look empty and fails the
    /// first assertion.
    #[test]
    fn never_hides_a_repetition() {
        let mut rng = SplitMix64::new(7);
        let mut repeats = 0;
        let mut skipped = 0;
        let mut nodes = 0;
        // The knights' start has a game history before the "root": out and back, twice.
        let out_and_back = ["b1c3", "g8f6", "c3b1", "f6g8"].repeat(2);
        for (fen, history) in [
            ("8/8/3k4/8/8/4K3/8/8 w - - 0 1", &[][..]),
            ("4k1n1/8/8/8/8/8/8/1N2K3 w - - 0 1", &out_and_back[..]),
            ("r1bqkbnr/pppppppp/2n5/8/8/2N5/PPPPPPPP/R1BQKBNR w KQkq - 2 2", &[][..]),
        ] {
            let mut board = Board::from_fen(fen).unwrap();
            for uci in history {
                board.make(board.parse_uci_move(uci).unwrap());
            }
            let mut filter = RepetitionFilter::default();
            filter.reset(&board);
            for _ in 0..2_000 {
                let moves = board.legal_moves();
                let shrink = board.game_ply() > 40 || moves.is_empty();
                if shrink && board.game_ply() > 8 {
                    filter.pop(board.key());
                    board.unmake();
                } else if !moves.is_empty() {
                    board.make(moves[rng.below(moves.len())]);
                    filter.push(board.key());
                }
                nodes += 1;
                // Any earlier occurrence counts (a search ply beyond the line's length).
                let scan = board.is_repetition(usize::MAX);
                repeats += scan as usize;
                if !filter.may_repeat(board.key()) {
                    assert!(!scan, "the filter hid a repetition: {}", board.to_fen());
                    skipped += 1;
                }
            }
        }
        assert!(repeats > 0, "the lines must repeat positions for the test to mean anything");
        assert!(skipped * 2 > nodes, "the filter should skip most scans: {skipped} of {nodes}");
    }
}
