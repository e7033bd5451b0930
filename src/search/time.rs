//! Time management: a soft limit (do not start another iteration after it) and a hard
//! limit (abort the search), both derived from the clock, increment, `movestogo` and
//! `Move Overhead`; and the [`TimeManager`], which scales the soft limit after each
//! iteration by how settled the search looks (best-move stability, the best move's share
//! of the nodes, a falling score).

use super::params::*;
use crate::moves::Move;
use std::time::Duration;

/// What `go` said about time.
#[derive(Clone, Copy, Debug, Default)]
pub struct Clock {
    pub time_ms: Option<u64>,
    pub inc_ms: u64,
    pub movestogo: Option<u64>,
    pub movetime_ms: Option<u64>,
}

/// Soft and hard limits; `None` means no limit.
#[derive(Clone, Copy, Debug, Default)]
pub struct TimeLimits {
    pub soft: Option<Duration>,
    pub hard: Option<Duration>,
}

impl TimeLimits {
    pub fn from_clock(clock: &Clock, overhead_ms: u64) -> TimeLimits {
        if let Some(mt) = clock.movetime_ms {
            // A fixed time per move is used in full: no soft limit, only the hard one.
            let t = Duration::from_millis(mt.saturating_sub(overhead_ms).max(MIN_THINK_MS));
            return TimeLimits { soft: None, hard: Some(t) };
        }
        let Some(time) = clock.time_ms else { return TimeLimits::default() };
        // Keep the overhead (GUI/network lag) off the clock entirely, several times over:
        // every move pays it, so a short clock with a small increment settles above this
        // reserve instead of draining to the last move's overhead.
        let available = time.saturating_sub(overhead_ms * OVERHEAD_RESERVE_MOVES);
        let mtg = clock.movestogo.unwrap_or(DEFAULT_MOVES_TO_GO).clamp(1, MAX_MOVES_TO_GO);
        let mut soft = available / mtg + clock.inc_ms * INC_SHARE / 1000;
        let mut hard = (soft * HARD_FACTOR).min(available * HARD_MAX_SHARE / 1000);
        if mtg == 1 {
            // Last move before the time control: use most of what is there.
            hard = available * LAST_MOVE_SHARE / 1000;
        }
        soft = soft.min(hard).max(MIN_THINK_MS);
        hard = hard.max(soft);
        TimeLimits { soft: Some(Duration::from_millis(soft)), hard: Some(Duration::from_millis(hard)) }
    }

    /// Both limits times `share` (0 to 1), each at least `MIN_THINK_MS`: a weaker level
    /// thinks for part of the time a full search would.
    pub fn scaled(self, share: f64) -> TimeLimits {
        let scale = |d: Duration| d.mul_f64(share.clamp(0.0, 1.0)).max(Duration::from_millis(MIN_THINK_MS));
        TimeLimits { soft: self.soft.map(scale), hard: self.hard.map(scale) }
    }
}

/// Decides, after each finished iteration, whether to start another. The soft limit is
/// scaled by how settled the search looks: shorter when the best move has stayed the same
/// for several iterations and took most of the root's nodes, longer when it keeps changing,
/// took few nodes, or the score is falling. The scaled soft limit never exceeds the hard
/// limit, which is not scaled: the search is aborted there whatever the factors say. Only
/// the main thread keeps one (helpers have no clock).
#[derive(Clone, Debug)]
pub struct TimeManager {
    limits: TimeLimits,
    /// Best move of the last finished iteration (null before the first).
    best: Move,
    /// Finished iterations in a row, after the first, that kept `best`.
    stable: u32,
    /// Scores of the last iterations, oldest first (at most `SCORE_DROP_ITERATIONS`).
    scores: Vec<i32>,
    /// Product of the factors, clamped (1 before the first iteration).
    scale: f64,
}

impl Default for TimeManager {
    fn default() -> Self {
        TimeManager::new(TimeLimits::default())
    }
}

impl TimeManager {
    pub fn new(limits: TimeLimits) -> TimeManager {
        TimeManager {
            limits,
            best: Move::NULL,
            stable: 0,
            scores: Vec::with_capacity(SCORE_DROP_ITERATIONS),
            scale: 1.0,
        }
    }

    /// The hard limit: the search is aborted there.
    #[inline]
    pub fn hard(&self) -> Option<Duration> {
        self.limits.hard
    }

    /// Takes in a finished iteration: its best move, its score and the share (0 to 1) of the
    /// root's nodes so far that went to searching the best move (`None`: not known, e.g.
    /// with MultiPV, where later lines exclude the best move).
    pub fn iteration_done(&mut self, best: Move, score: i32, best_node_share: Option<f64>) {
        if !self.best.is_null() && best == self.best {
            self.stable += 1;
        } else {
            self.stable = 0;
        }
        self.best = best;
        let drop = if self.scores.is_empty() {
            0
        } else {
            let avg = self.scores.iter().map(|&s| s as i64).sum::<i64>() / self.scores.len() as i64;
            (avg - score as i64).clamp(i32::MIN as i64, i32::MAX as i64) as i32
        };
        if self.scores.len() == SCORE_DROP_ITERATIONS {
            self.scores.remove(0);
        }
        self.scores.push(score);
        self.scale = (stability_factor(self.stable) * node_share_factor(best_node_share) * score_drop_factor(drop))
            .clamp(TIME_SCALE_MIN, TIME_SCALE_MAX);
    }

    /// The soft limit as scaled after the last iteration, at most the hard limit.
    pub fn soft(&self) -> Option<Duration> {
        let soft = self.limits.soft?.mul_f64(self.scale);
        Some(self.limits.hard.map_or(soft, |h| soft.min(h)))
    }

    /// Should no new iteration start after `elapsed`? Only once so much of the scaled soft
    /// limit is used that the next iteration would most likely not finish anyway.
    pub fn should_stop(&self, elapsed: Duration) -> bool {
        self.soft().is_some_and(|soft| elapsed >= soft.mul_f64(SOFT_STOP_FRACTION))
    }
}

/// Longer thought while the best move changes, shorter once it has held for a while.
fn stability_factor(stable: u32) -> f64 {
    STABILITY_UNSTABLE_FACTOR - STABILITY_STEP * stable.min(STABILITY_MAX_COUNT) as f64
}

/// Shorter thought when the best move took most of the root's nodes (the alternatives were
/// refuted quickly), longer when it took few.
fn node_share_factor(share: Option<f64>) -> f64 {
    share.map_or(1.0, |s| NODE_SHARE_BASE - NODE_SHARE_WEIGHT * s.clamp(0.0, 1.0))
}

/// Longer thought when the score falls (`drop` centipawns below the previous iterations).
fn score_drop_factor(drop: i32) -> f64 {
    1.0 + SCORE_DROP_PER_CP * drop.clamp(0, SCORE_DROP_MAX_CP) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::MoveKind;
    use crate::types::Square;

    fn mv(from: usize, to: usize) -> Move {
        Move::new(Square::from_index(from), Square::from_index(to), MoveKind::Normal)
    }

    /// 10 s + 0.1 s, 30 moves to go by default: a soft limit of about 0.4 s.
    fn clock() -> TimeLimits {
        let c = Clock { time_ms: Some(10_000), inc_ms: 100, movestogo: None, movetime_ms: None };
        TimeLimits::from_clock(&c, 20)
    }

    /// `iterations` iterations with the given best moves, scores and node shares.
    fn run(moves: &[Move], scores: &[i32], share: Option<f64>) -> TimeManager {
        let mut tm = TimeManager::new(clock());
        for (&m, &s) in moves.iter().zip(scores) {
            tm.iteration_done(m, s, share);
        }
        tm
    }

    #[test]
    fn stable_best_move_means_a_shorter_soft_limit() {
        let (a, b) = (mv(12, 28), mv(11, 27));
        let stable = run(&[a; 8], &[20; 8], None);
        let unstable = run(&[a, b, a, b, a, b, a, b], &[20; 8], None);
        let base = clock().soft.unwrap();
        assert!(stable.soft().unwrap() < base, "{:?} vs {base:?}", stable.soft());
        assert!(unstable.soft().unwrap() > base, "{:?} vs {base:?}", unstable.soft());
        assert!(stable.soft() < unstable.soft());
        // The stability bonus shrinks step by step, then stays.
        let mut tm = TimeManager::new(clock());
        let mut last = Duration::MAX;
        for i in 0..10 {
            tm.iteration_done(a, 20, None);
            let s = tm.soft().unwrap();
            if i <= STABILITY_MAX_COUNT as usize {
                assert!(s < last, "iteration {i}: {s:?} not below {last:?}");
            } else {
                assert_eq!(s, last);
            }
            last = s;
        }
        // A change resets it.
        tm.iteration_done(b, 20, None);
        assert!(tm.soft().unwrap() > last);
    }

    #[test]
    fn node_share_scales_the_soft_limit() {
        let a = mv(12, 28);
        let most = run(&[a; 4], &[0; 4], Some(0.95)).soft().unwrap();
        let half = run(&[a; 4], &[0; 4], Some(0.5)).soft().unwrap();
        let few = run(&[a; 4], &[0; 4], Some(0.1)).soft().unwrap();
        assert!(most < half && half < few, "{most:?} {half:?} {few:?}");
    }

    #[test]
    fn a_falling_score_means_more_time_but_bounded() {
        let a = mv(12, 28);
        let steady = run(&[a; 5], &[30, 30, 30, 30, 30], None).soft().unwrap();
        let rising = run(&[a; 5], &[30, 30, 30, 30, 90], None).soft().unwrap();
        let falling = run(&[a; 5], &[30, 30, 30, 30, 0], None).soft().unwrap();
        let collapsing = run(&[a; 5], &[30, 30, 30, 30, -500], None).soft().unwrap();
        assert_eq!(steady, rising);
        assert!(falling > steady);
        assert!(collapsing > falling);
        let cap = steady.mul_f64(1.0 + SCORE_DROP_PER_CP * SCORE_DROP_MAX_CP as f64);
        assert!(collapsing <= cap + Duration::from_micros(1), "{collapsing:?} > {cap:?}");
        // Mate scores do not overflow anything.
        let mated = run(&[a; 3], &[31_990, 31_990, -31_990], None).soft().unwrap();
        assert!(mated <= clock().hard.unwrap());
    }

    #[test]
    fn scaled_limits_shrink_but_stay_positive() {
        let full = TimeLimits::from_clock(&Clock { time_ms: Some(10_000), inc_ms: 100, ..Clock::default() }, 10);
        let half = full.scaled(0.5);
        assert_eq!(half.soft.unwrap(), full.soft.unwrap() / 2);
        assert_eq!(half.hard.unwrap(), full.hard.unwrap() / 2);
        assert_eq!(full.scaled(1.0).hard, full.hard);
        assert_eq!(full.scaled(0.0).soft, Some(Duration::from_millis(MIN_THINK_MS)));
        assert_eq!(TimeLimits::default().scaled(0.5).hard, None);
    }

    #[test]
    fn the_soft_limit_never_exceeds_the_hard_limit() {
        let (a, b) = (mv(12, 28), mv(11, 27));
        for c in [
            Clock { time_ms: Some(1000), inc_ms: 10, movestogo: None, movetime_ms: None },
            Clock { time_ms: Some(100), inc_ms: 5, movestogo: None, movetime_ms: None },
            Clock { time_ms: Some(5000), inc_ms: 0, movestogo: Some(1), movetime_ms: None },
            Clock { time_ms: Some(300), inc_ms: 0, movestogo: Some(2), movetime_ms: None },
            Clock { time_ms: Some(3), inc_ms: 5, movestogo: None, movetime_ms: None },
        ] {
            let limits = TimeLimits::from_clock(&c, 20);
            let hard = limits.hard.unwrap();
            let mut tm = TimeManager::new(limits);
            // The most unstable search possible: the move changes, few nodes, the score falls.
            for i in 0..10 {
                tm.iteration_done(if i % 2 == 0 { a } else { b }, -100 * i, Some(0.0));
                assert!(tm.soft().unwrap() <= hard, "{c:?}: {:?} > {hard:?}", tm.soft());
                assert_eq!(tm.hard(), Some(hard));
            }
            assert!(tm.should_stop(hard));
        }
    }

    #[test]
    fn movetime_and_no_clock_have_no_soft_limit() {
        let movetime = Clock { movetime_ms: Some(100), ..Clock::default() };
        for limits in [TimeLimits::from_clock(&movetime, 20), TimeLimits::default()] {
            let mut tm = TimeManager::new(limits);
            tm.iteration_done(mv(12, 28), 0, Some(1.0));
            assert_eq!(tm.soft(), None);
            assert!(!tm.should_stop(Duration::from_secs(1000)));
            assert_eq!(tm.hard(), limits.hard);
        }
    }

    #[test]
    fn limits_leave_time_on_the_clock() {
        // Whatever the clock, the hard limit leaves the overhead and most of the rest.
        for time in [1u64, 5, 20, 21, 50, 100, 300, 1000, 60_000] {
            for inc in [0u64, 5, 10, 1000] {
                for mtg in [None, Some(1), Some(2), Some(40)] {
                    let c = Clock { time_ms: Some(time), inc_ms: inc, movestogo: mtg, movetime_ms: None };
                    let l = TimeLimits::from_clock(&c, 20);
                    let (soft, hard) = (l.soft.unwrap(), l.hard.unwrap());
                    assert!(soft <= hard, "{c:?}");
                    let available = time.saturating_sub(20 * OVERHEAD_RESERVE_MOVES);
                    let share = if mtg == Some(1) { LAST_MOVE_SHARE } else { HARD_MAX_SHARE };
                    let most = (available * share / 1000).max(MIN_THINK_MS);
                    assert!(hard <= Duration::from_millis(most), "{c:?}: hard {hard:?} > {most} ms");
                }
            }
        }
    }
}
