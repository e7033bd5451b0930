//! Move ordering: every legal move gets a score once, then moves are picked best first
//! (selection sort, so a cutoff after the first few moves costs little).
//!
//! Order: hash move; captures and queen promotions that do not lose material (SEE >= 0),
//! by MVV/LVA; the two killers; the counter-move; the other quiets by history; losing
//! captures and under-promotions last.

use super::history::History;
use crate::board::Board;
use crate::movegen::{Move, MoveList, MAX_MOVES};
use crate::see::{captured_value, see_ge};
use crate::types::Piece;

const HASH_MOVE: i32 = 4_000_000;
const GOOD_CAPTURE: i32 = 2_000_000;
const KILLER_1: i32 = 1_000_002;
const KILLER_2: i32 = 1_000_001;
const COUNTER: i32 = 1_000_000;
const BAD_CAPTURE: i32 = -2_000_000;

/// MVV/LVA: most valuable victim first, then least valuable attacker.
#[inline(always)]
pub fn mvv_lva(board: &Board, m: Move) -> i32 {
    let attacker = board.piece_on(m.from()).map_or(0, |p| p.index() as i32);
    let promo = if m.is_promotion() { crate::see::see_value(m.promotion()) } else { 0 };
    (captured_value(board, m) + promo) * 8 - attacker
}

/// Whether a move changes material (capture or promotion) — not "quiet".
#[inline(always)]
pub fn is_tactical(board: &Board, m: Move) -> bool {
    m.is_promotion() || m.is_en_passant() || (!m.is_castle() && board.piece_on(m.to()).is_some())
}

pub struct MovePicker {
    list: MoveList,
    scores: [i32; MAX_MOVES],
    next: usize,
}

impl MovePicker {
    /// Scores all legal moves of `board` for the main search.
    pub fn new(board: &Board, hash_move: Move, history: &History, ply: usize, counter: Move) -> MovePicker {
        let list = board.legal_moves();
        let mut scores = [0i32; MAX_MOVES];
        let side = board.side_to_move();
        let killers = history.killers[ply];
        for (i, &m) in list.iter().enumerate() {
            scores[i] = if m == hash_move {
                HASH_MOVE
            } else if is_tactical(board, m) {
                let under = m.is_promotion() && m.promotion() != Piece::Queen;
                if !under && see_ge(board, m, 0) {
                    GOOD_CAPTURE + mvv_lva(board, m)
                } else {
                    BAD_CAPTURE + mvv_lva(board, m)
                }
            } else if m == killers[0] {
                KILLER_1
            } else if m == killers[1] {
                KILLER_2
            } else if m == counter {
                COUNTER
            } else {
                history.quiet_score(side, m)
            };
        }
        MovePicker { list, scores, next: 0 }
    }

    /// Captures and queen promotions for quiescence (or all evasions when in check),
    /// ordered by MVV/LVA with the hash move first.
    pub fn new_quiescence(board: &Board, hash_move: Move) -> MovePicker {
        let mut list = MoveList::new();
        if board.in_check() {
            board.evasions(&mut list);
        } else {
            board.captures(&mut list);
        }
        let mut scores = [0i32; MAX_MOVES];
        for (i, &m) in list.iter().enumerate() {
            scores[i] = if m == hash_move {
                HASH_MOVE
            } else if is_tactical(board, m) {
                GOOD_CAPTURE + mvv_lva(board, m)
            } else {
                0
            };
        }
        MovePicker { list, scores, next: 0 }
    }

    pub fn len(&self) -> usize {
        self.list.len()
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The next best move with its ordering score.
    #[inline]
    pub fn next(&mut self) -> Option<(Move, i32)> {
        let n = self.list.len();
        if self.next >= n {
            return None;
        }
        let mut best = self.next;
        for i in self.next + 1..n {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        self.list.as_mut_slice().swap(self.next, best);
        self.scores.swap(self.next, best);
        let r = (self.list[self.next], self.scores[self.next]);
        self.next += 1;
        Some(r)
    }
}

/// Whether an ordering score marks a losing capture.
#[inline(always)]
pub fn is_bad_capture_score(score: i32) -> bool {
    score < BAD_CAPTURE / 2
}

/// Whether an ordering score marks a killer or counter-move.
#[inline(always)]
pub fn is_refutation_score(score: i32) -> bool {
    (COUNTER..=KILLER_1).contains(&score)
}
