//! Quiet-move ordering memory: killer moves per ply, butterfly history per side and
//! from/to squares, and counter-moves indexed by the previous move's piece and target.

use super::params::{HISTORY_AGE_DIVISOR, HISTORY_BONUS_CAP, HISTORY_MAX, HISTORY_SCALE, MAX_PLY};
use crate::moves::Move;
use crate::types::Color;

/// The ordering memory of one search thread.
pub struct History {
    killers: [[Move; 2]; MAX_PLY + 2],
    butterfly: Box<[[[i32; 64]; 64]; 2]>,
    /// [color * 6 + piece][to] of the previous move -> the move that refuted it.
    counters: Box<[[Move; 64]; 12]>,
}

impl Default for History {
    fn default() -> Self {
        History {
            killers: [[Move::NULL; 2]; MAX_PLY + 2],
            butterfly: Box::new([[[0; 64]; 64]; 2]),
            counters: Box::new([[Move::NULL; 64]; 12]),
        }
    }
}

/// The history bonus for a cutoff at `depth`.
#[inline]
pub fn bonus(depth: i32) -> i32 {
    (depth * depth * HISTORY_SCALE).min(HISTORY_BONUS_CAP)
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

    #[inline(always)]
    pub fn quiet_score(&self, side: Color, m: Move) -> i32 {
        self.butterfly[side.index()][m.from().index()][m.to().index()]
    }

    /// Moves an entry towards +-HISTORY_MAX ("gravity": large entries change slowly).
    #[inline(always)]
    fn update(entry: &mut i32, delta: i32) {
        *entry += delta - *entry * delta.abs() / HISTORY_MAX;
    }

    /// Rewards the quiet move that caused a cutoff and punishes the quiets tried before it.
    pub fn cutoff(&mut self, side: Color, best: Move, tried: &[Move], depth: i32, ply: usize) {
        let b = bonus(depth);
        let table = &mut self.butterfly[side.index()];
        Self::update(&mut table[best.from().index()][best.to().index()], b);
        for &m in tried {
            if m != best {
                Self::update(&mut table[m.from().index()][m.to().index()], -b);
            }
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
        for side in self.butterfly.iter_mut() {
            for row in side.iter_mut() {
                for v in row.iter_mut() {
                    *v /= HISTORY_AGE_DIVISOR;
                }
            }
        }
        self.killers = [[Move::NULL; 2]; MAX_PLY + 2];
    }
}
