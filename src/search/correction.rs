//! Static-evaluation correction history: per side to move and pawn structure, a running
//! average of how far search results landed from the static evaluation. The search adds
//! it to the evaluation it prunes by, so structures the evaluation misjudges are pruned
//! less blindly. It learns only from results that bound the truth on the informative side
//! (a fail high above the eval, a fail low below it, or an exact score).

use super::params::{CORRECTION_GRAIN, CORRECTION_MAX, CORRECTION_SIZE, CORRECTION_WEIGHT_CAP, TB_WIN_BOUND};
use crate::board::Board;

pub struct CorrectionHistory {
    /// `[side to move][pawn key % CORRECTION_SIZE]`, in 1/CORRECTION_GRAIN centipawns.
    table: Box<[[i32; CORRECTION_SIZE]; 2]>,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory { table: vec![[0; CORRECTION_SIZE]; 2].into_boxed_slice().try_into().expect("two sides") }
    }
}

impl CorrectionHistory {
    pub fn clear(&mut self) {
        for side in self.table.iter_mut() {
            side.fill(0);
        }
    }

    #[inline(always)]
    fn slot(board: &Board) -> (usize, usize) {
        (board.side_to_move().index(), (board.pawn_key() % CORRECTION_SIZE as u64) as usize)
    }

    /// `eval` corrected by what this pawn structure has taught, kept off the mate range.
    #[inline]
    pub fn correct(&self, board: &Board, eval: i32) -> i32 {
        let (side, i) = Self::slot(board);
        (eval + self.table[side][i] / CORRECTION_GRAIN).clamp(-TB_WIN_BOUND + 1, TB_WIN_BOUND - 1)
    }

    /// Learns from a search of `board` that scored `score` where the uncorrected
    /// evaluation said `raw_eval`: the entry moves towards their difference, by more for
    /// deeper searches. The difference is taken from the raw eval, not the corrected one,
    /// so a structure whose searches keep landing at the same score is corrected to that
    /// score (from the corrected eval the entry would settle halfway).
    pub fn update(&mut self, board: &Board, raw_eval: i32, score: i32, depth: i32) {
        let (side, i) = Self::slot(board);
        let diff = score - raw_eval;
        let weight = (depth + 1).clamp(1, CORRECTION_WEIGHT_CAP);
        let e = &mut self.table[side][i];
        let target = diff * CORRECTION_GRAIN;
        *e = ((*e * (CORRECTION_GRAIN - weight) + target * weight) / CORRECTION_GRAIN)
            .clamp(-CORRECTION_MAX, CORRECTION_MAX);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn learns_towards_the_search_and_stays_bounded() {
        let b = Board::startpos();
        let mut c = CorrectionHistory::default();
        assert_eq!(c.correct(&b, 10), 10);
        for _ in 0..200 {
            c.update(&b, 0, 60, 10);
        }
        let v = c.correct(&b, 10);
        assert!((60..=70).contains(&v), "{v}");
        for _ in 0..1000 {
            c.update(&b, 0, 5000, 30);
        }
        assert!(c.correct(&b, 0) <= CORRECTION_MAX / CORRECTION_GRAIN);
        // The other side to move has its own entry.
        let mut other = b.clone();
        other.make_null();
        assert_eq!(c.correct(&other, 10), 10);
        c.clear();
        assert_eq!(c.correct(&b, 10), 10);
    }

    #[test]
    fn a_consistent_search_score_is_corrected_in_full() {
        // As the search uses it: raw eval 10, every search of the structure says 70.
        let b = Board::startpos();
        let mut c = CorrectionHistory::default();
        let (raw, score) = (10, 70);
        for _ in 0..500 {
            let corrected = c.correct(&b, raw);
            assert!(corrected <= score, "overshot: {corrected}");
            c.update(&b, raw, score, 12);
        }
        let corrected = c.correct(&b, raw);
        assert!((score - 2..=score).contains(&corrected), "settled at {corrected}, not near {score}");
    }
}
