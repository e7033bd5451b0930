//! Move-ordering memory of one search thread:
//!
//! - killer moves per ply;
//! - butterfly history per side and from/to squares;
//! - continuation history: how a quiet move (piece, target) fared after the move one and
//!   two plies earlier (piece, target);
//! - capture history: how a capture (piece, target, captured piece) fared;
//! - counter-moves, indexed by the previous move's piece and target.
//!
//! Every table moves towards ±`HISTORY_MAX` with the gravity update, so entries stay
//! bounded and large ones change slowly.

use super::params::{HISTORY_AGE_DIVISOR, HISTORY_BONUS_CAP, HISTORY_MAX, HISTORY_SCALE, MAX_PLY};
use crate::moves::Move;
use crate::types::Color;

/// A move as the continuation tables see it: the moving piece (`color * 6 + piece`) and
/// its target square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceTo {
    pub piece: usize,
    pub to: usize,
}

/// The earlier moves a quiet move's continuation history is read under: one and two plies
/// back (`None` at the root, or after a null move).
pub type ContKeys = [Option<PieceTo>; 2];

/// One continuation table: [piece][to] of the earlier move, then [piece][to] of this one.
type ContTable = [[[i16; 64]; 12]; 64];

/// The ordering memory of one search thread.
pub struct History {
    killers: [[Move; 2]; MAX_PLY + 2],
    butterfly: Box<[[[i32; 64]; 64]; 2]>,
    /// Indexed by the earlier move's piece: `continuation[piece][to][piece][to]`.
    continuation: Box<[ContTable]>,
    /// `captures[piece][to][captured piece]`.
    captures: Box<[[[i16; 6]; 64]; 12]>,
    /// [color * 6 + piece][to] of the previous move -> the move that refuted it.
    counters: Box<[[Move; 64]; 12]>,
}

impl Default for History {
    fn default() -> Self {
        History {
            killers: [[Move::NULL; 2]; MAX_PLY + 2],
            butterfly: Box::new([[[0; 64]; 64]; 2]),
            // Built on the heap: the table is over a megabyte.
            continuation: vec![[[[0i16; 64]; 12]; 64]; 12].into_boxed_slice(),
            captures: Box::new([[[0; 6]; 64]; 12]),
            counters: Box::new([[Move::NULL; 64]; 12]),
        }
    }
}

/// The history bonus for a cutoff at `depth`.
#[inline]
pub fn bonus(depth: i32) -> i32 {
    (depth * depth * HISTORY_SCALE).min(HISTORY_BONUS_CAP)
}

/// Moves an entry towards ±HISTORY_MAX ("gravity": large entries change slowly).
#[inline(always)]
fn update(entry: &mut i32, delta: i32) {
    *entry += delta - *entry * delta.abs() / HISTORY_MAX;
}

/// The gravity update on a 16-bit entry (|entry| <= HISTORY_MAX fits).
#[inline(always)]
fn update16(entry: &mut i16, delta: i32) {
    let mut v = *entry as i32;
    update(&mut v, delta);
    *entry = v as i16;
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

    /// The ordering score of a quiet move: butterfly plus both continuation entries.
    #[inline(always)]
    pub fn quiet_score(&self, side: Color, m: Move, piece: usize, cont: &ContKeys) -> i32 {
        let to = m.to().index();
        let mut s = self.butterfly[side.index()][m.from().index()][to];
        for k in cont.iter().flatten() {
            s += self.continuation[k.piece][k.to][piece][to] as i32;
        }
        s
    }

    /// The capture-history entry of a capture by `piece` of `captured` on `to`.
    #[inline(always)]
    pub fn capture_score(&self, piece: usize, to: usize, captured: usize) -> i32 {
        self.captures[piece][to][captured] as i32
    }

    /// Rewards a quiet move that caused a cutoff (and makes it a killer) and punishes the
    /// quiets tried before it. `tried` holds each move with its piece index.
    pub fn quiet_cutoff(&mut self, side: Color, best: Move, tried: &[(Move, usize)], cont: &ContKeys, depth: i32, ply: usize) {
        let b = bonus(depth);
        for &(m, piece) in tried {
            let delta = if m == best { b } else { -b };
            self.update_quiet(side, m, piece, cont, delta);
        }
        let k = &mut self.killers[ply];
        if k[0] != best {
            k[1] = k[0];
            k[0] = best;
        }
    }

    #[inline(always)]
    fn update_quiet(&mut self, side: Color, m: Move, piece: usize, cont: &ContKeys, delta: i32) {
        let (from, to) = (m.from().index(), m.to().index());
        update(&mut self.butterfly[side.index()][from][to], delta);
        for k in cont.iter().flatten() {
            update16(&mut self.continuation[k.piece][k.to][piece][to], delta);
        }
    }

    /// After a cutoff: rewards the capture that caused it (if `best` is one) and punishes
    /// the captures tried before it. `tried` holds (move, piece, target, captured piece).
    pub fn capture_cutoff(&mut self, best: Move, tried: &[(Move, usize, usize, usize)], depth: i32) {
        let b = bonus(depth);
        for &(m, piece, to, captured) in tried {
            let delta = if m == best { b } else { -b };
            update16(&mut self.captures[piece][to][captured], delta);
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

    /// Divides every history entry by `HISTORY_AGE_DIVISOR` and forgets the killers
    /// (between searches: keeps what was learnt, fades it).
    pub fn age(&mut self) {
        for v in self.butterfly.iter_mut().flatten().flatten() {
            *v /= HISTORY_AGE_DIVISOR;
        }
        for v in self.continuation.iter_mut().flatten().flatten().flatten() {
            *v /= HISTORY_AGE_DIVISOR as i16;
        }
        for v in self.captures.iter_mut().flatten().flatten() {
            *v /= HISTORY_AGE_DIVISOR as i16;
        }
        self.killers = [[Move::NULL; 2]; MAX_PLY + 2];
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Square;

    fn mv(from: &str, to: &str) -> Move {
        Move::new(from.parse::<Square>().unwrap(), to.parse::<Square>().unwrap(), crate::moves::MoveKind::Normal)
    }

    #[test]
    fn continuation_history_depends_on_the_earlier_move() {
        let mut h = History::default();
        let after_e4: ContKeys = [Some(PieceTo { piece: 6, to: 28 }), None];
        let after_d4: ContKeys = [Some(PieceTo { piece: 6, to: 27 }), None];
        let (good, bad) = (mv("g1", "f3"), mv("b1", "c3"));
        h.quiet_cutoff(Color::White, good, &[(bad, 1), (good, 1)], &after_e4, 8, 3);
        let score = |h: &History, m, cont| h.quiet_score(Color::White, m, 1, cont);
        assert!(score(&h, good, &after_e4) > score(&h, bad, &after_e4));
        // Butterfly history is shared, continuation history is not.
        assert!(score(&h, good, &after_e4) > score(&h, good, &after_d4));
        assert_eq!(h.killers(3)[0], good);
    }

    #[test]
    fn entries_stay_bounded_and_age() {
        let mut h = History::default();
        let cont: ContKeys = [Some(PieceTo { piece: 0, to: 20 }), Some(PieceTo { piece: 7, to: 40 })];
        let m = mv("e2", "e4");
        for _ in 0..10_000 {
            h.quiet_cutoff(Color::White, m, &[(m, 0)], &cont, 30, 0);
            h.capture_cutoff(m, &[(m, 0, 28, 1)], 30);
        }
        let s = h.quiet_score(Color::White, m, 0, &cont);
        assert!(s > 0 && s <= 3 * HISTORY_MAX, "{s}");
        assert!(h.capture_score(0, 28, 1) <= HISTORY_MAX);
        h.age();
        assert!(h.quiet_score(Color::White, m, 0, &cont) <= s / HISTORY_AGE_DIVISOR + 3);
        h.clear();
        assert_eq!(h.quiet_score(Color::White, m, 0, &cont), 0);
        assert_eq!(h.capture_score(0, 28, 1), 0);
    }
}
