//! Static-evaluation correction history: per side to move, running averages of how far
//! search results landed from the static evaluation, kept for the pawn structure and for
//! each side's placement of its other pieces. The search adds their weighted mean to the
//! evaluation it prunes by, so positions the evaluation misjudges are pruned less blindly.
//! It learns only from results that bound the truth on the informative side (a fail high
//! above the eval, a fail low below it, or an exact score).

use super::params::{
    CORRECTION_GRAIN, CORRECTION_MAX, CORRECTION_NON_PAWN_WEIGHT, CORRECTION_PAWN_WEIGHT, CORRECTION_SIZE,
    CORRECTION_WEIGHT_CAP, TB_WIN_BOUND,
};
use crate::board::Board;
use crate::types::{Color, Piece};

/// One table: `[side to move][key % CORRECTION_SIZE]`, in 1/CORRECTION_GRAIN centipawns.
type Table = Box<[[i32; CORRECTION_SIZE]; 2]>;

fn table() -> Table {
    vec![[0; CORRECTION_SIZE]; 2].into_boxed_slice().try_into().expect("two sides")
}

pub struct CorrectionHistory {
    /// By pawn structure.
    pawn: Table,
    /// By the placement of White's, then Black's, knights, bishops, rooks, queens and king.
    non_pawn: [Table; 2],
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory { pawn: table(), non_pawn: [table(), table()] }
    }
}

/// Odd multipliers that spread each piece type's bitboard over the key's high bits.
const PLACEMENT_MULTIPLIERS: [u64; 5] =
    [0x9E37_79B9_7F4A_7C15, 0xBF58_476D_1CE4_E5B9, 0x94D0_49BB_1331_11EB, 0xD6E8_FEB8_6659_FD93, 0xA076_1D64_78BD_642F];

/// A hash of where `color`'s pieces other than pawns stand, from its bitboards (no
/// incremental key needed): the products' high bits depend on every bit of each bitboard.
#[inline(always)]
fn placement_index(board: &Board, color: Color) -> usize {
    let pieces = [Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen, Piece::King];
    let mut h = 0u64;
    for (p, m) in pieces.into_iter().zip(PLACEMENT_MULTIPLIERS) {
        h ^= board.colored(color, p).raw().wrapping_mul(m);
    }
    h ^= h >> 29;
    (h.wrapping_mul(PLACEMENT_MULTIPLIERS[0]) >> 40) as usize % CORRECTION_SIZE
}

/// Where one position's entries are: its side to move and its pawn, White and Black
/// placement indices. A node computes them once, to correct its evaluation and later to
/// learn from its result.
#[derive(Clone, Copy)]
pub struct Slots {
    side: usize,
    index: [usize; 3],
}

impl Slots {
    #[inline(always)]
    pub fn of(board: &Board) -> Slots {
        let pawn = (board.pawn_key() % CORRECTION_SIZE as u64) as usize;
        let white = placement_index(board, Color::White);
        let black = placement_index(board, Color::Black);
        Slots { side: board.side_to_move().index(), index: [pawn, white, black] }
    }
}

impl CorrectionHistory {
    pub fn clear(&mut self) {
        let [white, black] = &mut self.non_pawn;
        for t in [&mut self.pawn, white, black] {
            for side in t.iter_mut() {
                side.fill(0);
            }
        }
    }

    /// `eval` corrected by the weighted mean of what the pawn structure and each side's
    /// placement have taught, kept off the mate range.
    #[inline]
    pub fn correct(&self, slots: &Slots, eval: i32) -> i32 {
        let Slots { side, index: [p, w, b] } = *slots;
        let sum = self.pawn[side][p] * CORRECTION_PAWN_WEIGHT
            + (self.non_pawn[0][side][w] + self.non_pawn[1][side][b]) * CORRECTION_NON_PAWN_WEIGHT;
        let weights = CORRECTION_PAWN_WEIGHT + 2 * CORRECTION_NON_PAWN_WEIGHT;
        (eval + sum / (weights * CORRECTION_GRAIN)).clamp(-TB_WIN_BOUND + 1, TB_WIN_BOUND - 1)
    }

    /// Learns from a search of the position of `slots` that scored `score` where the
    /// uncorrected evaluation said `raw_eval`: its pawn entry and both placement entries move
    /// towards their difference, by more for deeper searches. The difference is taken from
    /// the raw eval, not the corrected one, so a position whose searches keep landing at the
    /// same score is corrected to that score (from the corrected eval the entries would
    /// settle halfway).
    pub fn update(&mut self, slots: &Slots, raw_eval: i32, score: i32, depth: i32) {
        let Slots { side, index: [p, w, b] } = *slots;
        let diff = score - raw_eval;
        let weight = (depth + 1).clamp(1, CORRECTION_WEIGHT_CAP);
        let target = diff * CORRECTION_GRAIN;
        let [white, black] = &mut self.non_pawn;
        for e in [&mut self.pawn[side][p], &mut white[side][w], &mut black[side][b]] {
            *e = ((*e * (CORRECTION_GRAIN - weight) + target * weight) / CORRECTION_GRAIN)
                .clamp(-CORRECTION_MAX, CORRECTION_MAX);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn learns_towards_the_search_and_stays_bounded() {
        let b = Board::startpos();
        let mut c = CorrectionHistory::default();
        assert_eq!(c.correct(&Slots::of(&b), 10), 10);
        for _ in 0..200 {
            c.update(&Slots::of(&b), 0, 60, 10);
        }
        let v = c.correct(&Slots::of(&b), 10);
        assert!((60..=70).contains(&v), "{v}");
        for _ in 0..1000 {
            c.update(&Slots::of(&b), 0, 5000, 30);
        }
        assert!(c.correct(&Slots::of(&b), 0) <= CORRECTION_MAX / CORRECTION_GRAIN);
        // The other side to move has its own entry.
        let mut other = b.clone();
        other.make_null();
        assert_eq!(c.correct(&Slots::of(&other), 10), 10);
        c.clear();
        assert_eq!(c.correct(&Slots::of(&b), 10), 10);
    }

    /// What one position teaches reaches another in proportion to what they share: the
    /// same pawns and White pieces but Black's knight elsewhere shares the pawn and White
    /// entries (weights 2 and 1 of 4), so it gets three quarters of the correction; moving a
    /// White piece too leaves only the pawn entry (a half). If the placements were not keyed
    /// (or all keyed alike) the second position would get the full correction and this fails.
    #[test]
    fn placements_share_what_they_have_in_common() {
        let learnt = Board::from_fen("r1bqkbnr/pppppppp/2n5/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 1").unwrap();
        let black_moved = Board::from_fen("r1bqkbnr/pppppppp/8/8/8/n4N2/PPPPPPPP/RNBQKB1R w KQkq - 0 1").unwrap();
        let both_moved = Board::from_fen("r1bqkbnr/pppppppp/8/8/8/n1N2N2/PPPPPPPP/R1BQKB1R w KQkq - 0 1").unwrap();
        let mut c = CorrectionHistory::default();
        for _ in 0..500 {
            c.update(&Slots::of(&learnt), 0, 40, 12);
        }
        assert!((38..=40).contains(&c.correct(&Slots::of(&learnt), 0)), "{}", c.correct(&Slots::of(&learnt), 0));
        let three_quarters = c.correct(&Slots::of(&black_moved), 0);
        assert!((28..=30).contains(&three_quarters), "{three_quarters}");
        let half = c.correct(&Slots::of(&both_moved), 0);
        assert!((18..=20).contains(&half), "{half}");
    }

    #[test]
    fn a_consistent_search_score_is_corrected_in_full() {
        // As the search uses it: raw eval 10, every search of the structure says 70.
        let b = Board::startpos();
        let mut c = CorrectionHistory::default();
        let (raw, score) = (10, 70);
        for _ in 0..500 {
            let corrected = c.correct(&Slots::of(&b), raw);
            assert!(corrected <= score, "overshot: {corrected}");
            c.update(&Slots::of(&b), raw, score, 12);
        }
        let corrected = c.correct(&Slots::of(&b), raw);
        assert!((score - 2..=score).contains(&corrected), "settled at {corrected}, not near {score}");
    }
}
