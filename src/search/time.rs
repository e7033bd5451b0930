//! Time management: a soft limit (do not start another iteration after it) and a hard
//! limit (abort the search), both derived from the clock, increment, `movestogo` and
//! `Move Overhead`.

use super::params::{
    DEFAULT_MOVES_TO_GO, HARD_FACTOR, HARD_MAX_SHARE, INC_SHARE, LAST_MOVE_SHARE, MAX_MOVES_TO_GO, MIN_THINK_MS,
};
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
        // Keep the overhead (GUI/network lag) off the clock entirely.
        let available = time.saturating_sub(overhead_ms);
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
}
