//! Move ordering: every legal move gets a score once, then moves are picked best first
//! (selection sort, so a cutoff after the first few moves costs little).
//!
//! Order: hash move; captures and queen promotions that do not lose material (SEE >= 0),
//! by MVV/LVA; the two killers; the counter-move; the other quiets by butterfly plus
//! continuation history; losing captures and under-promotions last. Once the search starts
//! pruning quiet moves at a node, the quiets left are cut down to those that give check.

use super::history::{piece_index, ContKeys, History};
use crate::board::Board;
use crate::movegen::{MoveList, ALL, MAX_MOVES};
use crate::moves::Move;
use crate::see::see_ge;

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
    let promo = if m.is_promotion() { m.promotion().nominal_value() } else { 0 };
    let victim = board.captured_piece(m).map_or(0, Piece::nominal_value);
    (victim + promo) * 8 - attacker
}

/// Whether a move changes material (capture or promotion) — not "quiet".
#[inline(always)]
pub fn is_tactical(board: &Board, m: Move) -> bool {
    m.is_promotion() || m.is_en_passant() || (!m.is_castle() && board.piece_on(m.to()).is_some())
}

#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Stage {
    HashMove,
    InitCaptures,
    GoodCaptures,
    Refutations,
    InitQuiets,
    Quiets,
    BadCaptures,
    Done,
}

/// A staged move picker over the legal moves of one node. Work is done only when a stage
/// is reached: SEE runs on a capture when it is picked, history is read only when the
/// quiet moves are reached, so a cutoff by the hash move or a good capture is cheap.
pub struct MovePicker {
    list: MoveList,
    scores: [i32; MAX_MOVES],
    stage: Stage,
    tt_move: Move,
    refutations: [Move; 3],
    /// Moves before `next` were handed out (or set aside as bad captures).
    next: usize,
    /// End of the tactical moves still to pick; losing captures found while picking are
    /// swapped to just before `captures_end`, so they wait in `tactical_end..captures_end`.
    tactical_end: usize,
    captures_end: usize,
    /// Next losing capture to hand out (counts down from `captures_end`).
    bad_next: usize,
    quiescence: bool,
    /// The earlier moves whose continuation history scores the quiets.
    cont: ContKeys,
    /// End of the quiet moves still to pick (the list's end until quiets are cut down).
    quiets_end: usize,
    /// Set by [`MovePicker::checks_only`]: of the quiets, only those giving check are left.
    checks_only: bool,
}

impl MovePicker {
    /// An empty picker: a slot that [`MovePicker::start`] and
    /// [`MovePicker::start_quiescence`] fill in place. The search keeps one slot per node on
    /// its path, so that no node builds (and copies) its 1.5 KB picker afresh.
    pub fn empty() -> MovePicker {
        MovePicker {
            list: MoveList::new(),
            scores: [0; MAX_MOVES],
            stage: Stage::Done,
            tt_move: Move::NULL,
            refutations: [Move::NULL; 3],
            next: 0,
            tactical_end: 0,
            captures_end: 0,
            bad_next: 0,
            quiescence: false,
            cont: [None; 2],
            quiets_end: MAX_MOVES,
            checks_only: false,
        }
    }

    /// Makes this picker the one of a main-search node: its legal moves, the hash move
    /// first, then as the module describes. Scores are written as their stage comes, so
    /// the ones left from an earlier node are never read.
    #[inline(always)]
    pub fn start(
        &mut self,
        board: &Board,
        hash_move: Move,
        history: &History,
        ply: usize,
        counter: Move,
        cont: ContKeys,
    ) {
        let k = history.killers(ply);
        self.list.clear();
        board.generate::<ALL, _>(&mut self.list);
        self.reset(hash_move, [k[0], k[1], counter], false, cont);
    }

    /// Makes this picker the one of a quiescence node: captures and promotions (or all
    /// evasions when in check), ordered by MVV/LVA with the hash move first. No SEE here:
    /// quiescence decides itself.
    #[inline(always)]
    pub fn start_quiescence(&mut self, board: &Board, hash_move: Move) {
        self.list.clear();
        if board.in_check() {
            // In check the generator yields exactly the evasions.
            board.generate::<ALL, _>(&mut self.list);
        } else {
            board.captures(&mut self.list);
        }
        self.reset(hash_move, [Move::NULL; 3], true, [None; 2]);
    }

    #[inline(always)]
    fn reset(&mut self, tt_move: Move, refutations: [Move; 3], quiescence: bool, cont: ContKeys) {
        self.stage = Stage::HashMove;
        self.tt_move = tt_move;
        self.refutations = refutations;
        self.next = 0;
        self.tactical_end = 0;
        self.captures_end = 0;
        self.bad_next = 0;
        self.quiescence = quiescence;
        self.cont = cont;
        self.quiets_end = MAX_MOVES;
        self.checks_only = false;
    }

    pub fn len(&self) -> usize {
        self.list.len()
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Index of the best-scored move in `from..to` (`from < to`; the first of equal scores).
    /// Over a slice with the best score kept in a register, so the loop has no bounds checks
    /// and compiles to conditional moves: most of the picker's time goes here.
    #[inline(always)]
    fn best_in(&self, from: usize, to: usize) -> usize {
        let scores = &self.scores[from..to];
        let (mut best, mut best_score) = (0, scores[0]);
        for (i, &s) in scores.iter().enumerate().skip(1) {
            if s > best_score {
                best = i;
                best_score = s;
            }
        }
        from + best
    }

    #[inline(always)]
    fn swap(&mut self, a: usize, b: usize) {
        self.list.as_mut_slice().swap(a, b);
        self.scores.swap(a, b);
    }

    /// From now on hand out only the quiet moves that give check (and the losing captures
    /// after them): the search prunes every other quiet once late-move or futility pruning
    /// has started at a node, so they need neither scoring nor picking.
    pub fn checks_only(&mut self, board: &Board) {
        if self.checks_only {
            return;
        }
        self.checks_only = true;
        if self.stage == Stage::Quiets {
            self.keep_quiet_checks(board);
        }
    }

    /// Moves the quiet moves that give check to the front of `next..quiets_end`, in their
    /// present order, and ends the quiets after them.
    fn keep_quiet_checks(&mut self, board: &Board) {
        let info = board.check_info();
        let mut end = self.next;
        for i in self.next..self.quiets_end {
            if board.gives_check_with(&info, self.list[i]) {
                self.swap(end, i);
                end += 1;
            }
        }
        self.quiets_end = end;
    }

    /// The next move with its ordering score (see the score constants).
    pub fn next(&mut self, board: &Board, history: &History) -> Option<(Move, i32)> {
        loop {
            match self.stage {
                Stage::HashMove => {
                    self.stage = Stage::InitCaptures;
                    if !self.tt_move.is_null() {
                        if let Some(i) = self.list.iter().position(|&m| m == self.tt_move) {
                            self.swap(0, i);
                            self.next = 1;
                            return Some((self.tt_move, HASH_MOVE));
                        }
                    }
                }
                Stage::InitCaptures => {
                    // Partition tactical moves to the front of what is left, scored MVV/LVA.
                    let n = self.list.len();
                    let mut end = self.next;
                    for i in self.next..n {
                        let m = self.list[i];
                        let tactical = is_tactical(board, m);
                        if self.quiescence || tactical {
                            self.swap(end, i);
                            self.scores[end] = if tactical { mvv_lva(board, m) } else { 0 };
                            end += 1;
                        }
                    }
                    self.tactical_end = end;
                    self.captures_end = end;
                    self.bad_next = end;
                    self.stage = Stage::GoodCaptures;
                }
                Stage::GoodCaptures => {
                    if self.next >= self.tactical_end {
                        // Quiet moves start after the parked losing captures.
                        self.next = self.captures_end;
                        self.stage = if self.quiescence { Stage::Done } else { Stage::Refutations };
                        continue;
                    }
                    let b = self.best_in(self.next, self.tactical_end);
                    self.swap(self.next, b);
                    let m = self.list[self.next];
                    let sc = self.scores[self.next];
                    self.next += 1;
                    if self.quiescence {
                        return Some((m, GOOD_CAPTURE + sc));
                    }
                    let under = m.is_promotion() && m.promotion() != Piece::Queen;
                    if under || !see_ge(board, m, 0) {
                        // Park it after the remaining candidates; hand it out last.
                        self.next -= 1;
                        self.tactical_end -= 1;
                        self.swap(self.next, self.tactical_end);
                        continue;
                    }
                    return Some((m, GOOD_CAPTURE + sc));
                }
                Stage::Refutations => {
                    // Killers and counter-move, if they are legal quiet moves here.
                    while let Some(pos) = self.refutations.iter().position(|m| !m.is_null()) {
                        let r = self.refutations[pos];
                        let class = [KILLER_1, KILLER_2, COUNTER][pos];
                        for x in self.refutations.iter_mut() {
                            if *x == r {
                                *x = Move::NULL;
                            }
                        }
                        if r == self.tt_move {
                            continue;
                        }
                        let n = self.list.len();
                        if let Some(i) = (self.next..n).find(|&i| self.list[i] == r) {
                            self.swap(self.next, i);
                            self.next += 1;
                            return Some((r, class));
                        }
                    }
                    self.stage = Stage::InitQuiets;
                }
                Stage::InitQuiets => {
                    self.quiets_end = self.list.len();
                    if self.checks_only {
                        self.keep_quiet_checks(board);
                    }
                    let side = board.side_to_move();
                    for i in self.next..self.quiets_end {
                        let m = self.list[i];
                        self.scores[i] = history.quiet_score(side, m, piece_index(board, m), &self.cont);
                    }
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => {
                    if self.next >= self.quiets_end {
                        self.stage = Stage::BadCaptures;
                        continue;
                    }
                    let b = self.best_in(self.next, self.quiets_end);
                    self.swap(self.next, b);
                    let r = (self.list[self.next], self.scores[self.next]);
                    self.next += 1;
                    return Some(r);
                }
                Stage::BadCaptures => {
                    // Parked in the order found (best MVV/LVA first) from captures_end down.
                    if self.bad_next <= self.tactical_end {
                        self.stage = Stage::Done;
                        continue;
                    }
                    self.bad_next -= 1;
                    let i = self.bad_next;
                    return Some((self.list[i], BAD_CAPTURE + self.scores[i]));
                }
                Stage::Done => return None,
            }
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// White has captures that win (Nxa4, Rxa4, Qxa4), two that lose (Nxd5, Qxd5), one quiet
    /// check (Qh5+) and many quiet moves that give none.
    const FEN: &str = "4k3/8/4p3/3p4/np6/2N5/8/R2QK3 w - - 0 1";

    fn picker(board: &Board, history: &History) -> MovePicker {
        let mut p = MovePicker::empty();
        p.start(board, Move::NULL, history, 0, Move::NULL, [None; 2]);
        p
    }

    fn quiet_checks(board: &Board) -> Vec<Move> {
        let mut v: Vec<Move> =
            board.legal_moves().iter().copied().filter(|&m| !is_tactical(board, m) && board.gives_check(m)).collect();
        v.sort_by_key(|m| (m.from().index(), m.to().index()));
        v
    }

    /// Cut down in the middle of the quiets: the quiets after it all give check, no quiet
    /// check is lost, and the losing captures still come last.
    #[test]
    fn checks_only_keeps_every_quiet_check_and_the_losing_captures() {
        let board = Board::from_fen(FEN).unwrap();
        let history = History::default();
        let mut p = picker(&board, &history);
        let mut seen = Vec::new();
        let mut cut = false;
        while let Some((m, order)) = p.next(&board, &history) {
            let quiet = !is_tactical(&board, m);
            if quiet && !cut {
                // The first quiet is handed out as usual; everything after the cut is checked.
                p.checks_only(&board);
                cut = true;
            } else if quiet {
                assert!(board.gives_check(m), "a quiet move without check after the cut");
            }
            seen.push((m, order));
        }
        assert!(cut, "the position has quiet moves");
        let all = board.legal_moves().len();
        assert!(seen.len() < all, "nothing was dropped: {} of {all}", seen.len());
        let first_quiet = seen.iter().position(|&(m, _)| !is_tactical(&board, m)).unwrap();
        let mut checks: Vec<Move> = seen[first_quiet + 1..]
            .iter()
            .map(|&(m, _)| m)
            .chain(std::iter::once(seen[first_quiet].0).filter(|&m| board.gives_check(m)))
            .filter(|&m| !is_tactical(&board, m))
            .collect();
        checks.sort_by_key(|m| (m.from().index(), m.to().index()));
        assert_eq!(checks, quiet_checks(&board));
        let bad: Vec<_> = seen.iter().filter(|&&(_, o)| is_bad_capture_score(o)).collect();
        assert_eq!(bad.len(), 2, "Nxd5 and Qxd5 lose material");
        assert!(seen.iter().rev().take(2).all(|&(_, o)| is_bad_capture_score(o)), "losing captures last");
    }

    /// Cut down before the quiets are reached (as when a killer is pruned): of the quiets,
    /// only the checks follow.
    #[test]
    fn checks_only_before_the_quiets_hands_out_only_quiet_checks() {
        let board = Board::from_fen(FEN).unwrap();
        let history = History::default();
        let mut p = picker(&board, &history);
        let (first, order) = p.next(&board, &history).unwrap();
        assert!(is_tactical(&board, first) && !is_bad_capture_score(order), "a winning capture comes first");
        p.checks_only(&board);
        let rest: Vec<Move> = std::iter::from_fn(|| p.next(&board, &history)).map(|(m, _)| m).collect();
        let mut quiets: Vec<Move> = rest.iter().copied().filter(|&m| !is_tactical(&board, m)).collect();
        quiets.sort_by_key(|m| (m.from().index(), m.to().index()));
        assert!(!quiets.is_empty(), "Qh5+");
        assert_eq!(quiets, quiet_checks(&board));
        let tactical = board.legal_moves().iter().filter(|&&m| is_tactical(&board, m)).count();
        assert_eq!(rest.len(), quiets.len() + tactical - 1, "every capture is still handed out");
    }
}
