//! Quiet-move ordering memory: killer moves per ply, butterfly history per side and
//! from/to squares, continuation history (how a quiet move fared after the moves one and
//! two plies earlier, each as piece and target), and counter-moves indexed by the previous
//! move's piece and target.
//!
//! History entries move towards +-`HISTORY_MAX` with the gravity update, so they stay
//! bounded and large ones change slowly.

use super::params::{HISTORY_AGE_DIVISOR, HISTORY_BONUS_CAP, HISTORY_MAX, HISTORY_SCALE, MAX_PLY};
use crate::board::Board;
use crate::moves::Move;
use crate::types::Color;

/// An earlier move as the continuation history indexes it: `(color * 6 + piece) * 64 + to`.
/// `None` where there is no such move (near the root, or a null move).
pub type ContKey = Option<usize>;

/// The earlier moves, one and two plies back, a node's quiet moves are scored under.
pub type ContKeys = [ContKey; 2];

/// The moving piece of `m` on `board` as the history tables index it: `color * 6 + piece`.
#[inline(always)]
pub fn piece_index(board: &Board, m: Move) -> usize {
    board.piece_on(m.from()).map_or(0, |p| p.index()) + 6 * board.side_to_move().index()
}

/// The continuation key of the move `m` played by the piece with index `piece` (`color * 6 + piece`).
#[inline(always)]
pub fn cont_key(piece: usize, m: Move) -> usize {
    piece * 64 + m.to().index()
}

/// Entries per earlier move: one per (piece, target) of the move that follows it.
const CONT_ROW: usize = 12 * 64;

/// Words of the bitset that marks the continuation rows holding a non-zero entry.
const LIVE_WORDS: usize = CONT_ROW / 64;

/// The ordering memory of one search thread.
pub struct History {
    killers: [[Move; 2]; MAX_PLY + 2],
    butterfly: Box<[[[i32; 64]; 64]; 2]>,
    /// Continuation history: row `cont_key(earlier move)`, column `cont_key(this move)`
    /// (one flat table of 12 * 64 rows; 16 bits suffice for entries within HISTORY_MAX).
    continuation: Box<[i16]>,
    /// Bit `row` is set when continuation row `row` may hold a non-zero entry: every other
    /// row is all zero, so ageing skips it (the whole table is 1.2 MB, most of it unused).
    live_rows: [u64; LIVE_WORDS],
    /// [color * 6 + piece][to] of the previous move -> the move that refuted it.
    counters: Box<[[Move; 64]; 12]>,
}

impl Default for History {
    fn default() -> Self {
        History {
            killers: [[Move::NULL; 2]; MAX_PLY + 2],
            butterfly: Box::new([[[0; 64]; 64]; 2]),
            continuation: vec![0i16; CONT_ROW * CONT_ROW].into_boxed_slice(),
            live_rows: [0; LIVE_WORDS],
            counters: Box::new([[Move::NULL; 64]; 12]),
        }
    }
}

/// The history bonus for a cutoff at `depth`.
#[inline]
pub fn bonus(depth: i32) -> i32 {
    (depth * depth * HISTORY_SCALE.get()).min(HISTORY_BONUS_CAP.get())
}

impl History {
    pub fn clear(&mut self) {
        *self = History::default();
    }

    /// The two killer moves of `ply` (quiet moves that caused a cutoff at this ply).
    #[inline(always)]
    pub fn killers(&self, ply: usize) -> [Move; 2] {
        self.killers[ply]
    }

    /// The ordering score of quiet move `m` by the piece with index `piece`: butterfly
    /// history plus the continuation entries under the earlier moves `cont`.
    #[inline(always)]
    pub fn quiet_score(&self, side: Color, m: Move, piece: usize, cont: &ContKeys) -> i32 {
        let own = cont_key(piece, m);
        let mut s = self.butterfly[side.index()][m.from().index()][m.to().index()];
        for &row in cont.iter().flatten() {
            s += self.continuation[row * CONT_ROW + own] as i32;
        }
        s
    }

    /// Moves an entry towards +-HISTORY_MAX ("gravity": large entries change slowly).
    #[inline(always)]
    fn update(entry: &mut i32, delta: i32) {
        *entry += delta - *entry * delta.abs() / HISTORY_MAX;
    }

    /// The gravity update of one quiet move's butterfly and continuation entries.
    #[inline(always)]
    fn update_quiet(&mut self, side: Color, m: Move, piece: usize, cont: &ContKeys, delta: i32) {
        Self::update(&mut self.butterfly[side.index()][m.from().index()][m.to().index()], delta);
        let own = cont_key(piece, m);
        for &row in cont.iter().flatten() {
            self.live_rows[row / 64] |= 1 << (row % 64);
            let entry = &mut self.continuation[row * CONT_ROW + own];
            let mut v = *entry as i32;
            Self::update(&mut v, delta);
            *entry = v as i16;
        }
    }

    /// Rewards the quiet move that caused a cutoff on `board` (the node's position) and
    /// punishes the quiets tried before it, in the butterfly and continuation tables.
    pub fn cutoff(&mut self, board: &Board, best: Move, tried: &[Move], cont: &ContKeys, depth: i32, ply: usize) {
        let b = bonus(depth);
        let side = board.side_to_move();
        let mut rewarded = false;
        for &m in tried {
            let delta = if m == best { b } else { -b };
            rewarded |= m == best;
            self.update_quiet(side, m, piece_index(board, m), cont, delta);
        }
        // `best` is missing only when the node tried more quiets than it tracks.
        if !rewarded {
            self.update_quiet(side, best, piece_index(board, best), cont, b);
        }
        let k = &mut self.killers[ply];
        if k[0] != best {
            k[1] = k[0];
            k[0] = best;
        }
    }

    #[inline(always)]
    pub fn counter(&self, prev_piece_index: usize, prev_to: usize) -> Move {
        self.counters[prev_piece_index][prev_to]
    }

    #[inline(always)]
    pub fn set_counter(&mut self, prev_piece_index: usize, prev_to: usize, m: Move) {
        self.counters[prev_piece_index][prev_to] = m;
    }

    /// Halves every history entry (between searches: keeps what was learnt, fades it).
    pub fn age(&mut self) {
        // Row by row: a flat loop over one row compiles to vector instructions, a doubly
        // flattened iterator does not.
        for row in self.butterfly.iter_mut().flatten() {
            for v in row.iter_mut() {
                *v /= HISTORY_AGE_DIVISOR;
            }
        }
        for (word, bits) in self.live_rows.iter_mut().enumerate() {
            let mut rest = *bits;
            while rest != 0 {
                let row = word * 64 + rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let mut any = 0;
                for v in &mut self.continuation[row * CONT_ROW..(row + 1) * CONT_ROW] {
                    *v /= HISTORY_AGE_DIVISOR as i16;
                    any |= *v;
                }
                if any == 0 {
                    *bits &= !(1 << (row % 64));
                }
            }
        }
        self.killers = [[Move::NULL; 2]; MAX_PLY + 2];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board_after(moves: &[&str]) -> Board {
        let mut b = Board::startpos();
        for m in moves {
            let mv = b.parse_uci_move(m).expect("legal move");
            b.make(mv);
        }
        b
    }

    #[test]
    fn continuation_history_is_kept_per_earlier_move() {
        let mut h = History::default();
        let b = board_after(&["e2e4"]);
        let (good, bad) = (b.parse_uci_move("g8f6").unwrap(), b.parse_uci_move("b8c6").unwrap());
        let after_e4: ContKeys = [Some(cont_key(0, "e2e4".parse().unwrap())), None];
        let after_d4: ContKeys = [Some(cont_key(0, "d2d4".parse().unwrap())), None];
        h.cutoff(&b, good, &[bad, good], &after_e4, 8, 1);
        let knight = 6 + 1;
        let score = |h: &History, m, cont: &ContKeys| h.quiet_score(b.side_to_move(), m, knight, cont);
        assert!(score(&h, good, &after_e4) > score(&h, bad, &after_e4));
        // The butterfly entry is shared; the continuation entry belongs to 1. e4 alone.
        assert!(score(&h, good, &after_e4) > score(&h, good, &after_d4));
        assert!(score(&h, good, &after_d4) > 0);
        assert_eq!(h.killers(1)[0], good);
    }

    #[test]
    fn continuation_entries_stay_bounded_age_and_clear() {
        let mut h = History::default();
        let b = Board::startpos();
        let m = b.parse_uci_move("g1f3").unwrap();
        let cont: ContKeys = [Some(cont_key(7, "b8c6".parse().unwrap())), Some(cont_key(4, "d1d2".parse().unwrap()))];
        for _ in 0..10_000 {
            h.cutoff(&b, m, &[m], &cont, 30, 0);
        }
        let s = h.quiet_score(b.side_to_move(), m, 1, &cont);
        assert!(s > 2 * HISTORY_MAX && s <= 3 * HISTORY_MAX, "{s}");
        h.age();
        assert!(h.quiet_score(b.side_to_move(), m, 1, &cont) <= s / HISTORY_AGE_DIVISOR + 3);
        // Ageing fades every entry to zero in time, and a row that is all zero is no longer
        // visited.
        for _ in 0..16 {
            h.age();
        }
        assert_eq!(h.quiet_score(b.side_to_move(), m, 1, &cont), 0);
        assert_eq!(h.live_rows, [0; LIVE_WORDS]);
        h.clear();
        assert_eq!(h.quiet_score(b.side_to_move(), m, 1, &cont), 0);
    }
}
