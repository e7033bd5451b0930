//! Every search tunable in one place: each pruning rule is a depth limit and a margin.

/// Score of a mate at the root; mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 32000;
/// Scores beyond this are mate scores.
pub const MATE_BOUND: i32 = MATE - 1000;
pub const INFINITY: i32 = 32001;
/// Deepest ply the search may reach.
pub const MAX_PLY: usize = 120;

/// Aspiration windows: used from this depth, starting this wide, widened by half on failure.
pub const ASPIRATION_MIN_DEPTH: i32 = 5;
pub const ASPIRATION_WINDOW: i32 = 20;

/// Reverse futility pruning: at depth <= this, stop if eval - margin * depth >= beta.
pub const RFP_DEPTH: i32 = 7;
pub const RFP_MARGIN: i32 = 75;

/// Null-move pruning: from this depth, reduction base + depth / divisor (+ eval excess).
pub const NMP_DEPTH: i32 = 3;
pub const NMP_BASE_REDUCTION: i32 = 3;
pub const NMP_DEPTH_DIVISOR: i32 = 4;
pub const NMP_EVAL_DIVISOR: i32 = 200;

/// Futility pruning of quiet moves: at depth <= this, skip if eval + base + margin * depth <= alpha.
pub const FUTILITY_DEPTH: i32 = 6;
pub const FUTILITY_BASE: i32 = 80;
pub const FUTILITY_MARGIN: i32 = 90;

/// Late move pruning: at depth <= this, skip quiets after base + depth^2 (halved if not improving).
pub const LMP_DEPTH: i32 = 8;
pub const LMP_BASE: i32 = 3;

/// SEE pruning in the main search: at depth <= this, skip captures losing more than
/// `SEE_CAPTURE_MARGIN * depth^2` and quiets losing more than `SEE_QUIET_MARGIN * depth`.
pub const SEE_PRUNE_DEPTH: i32 = 8;
pub const SEE_CAPTURE_MARGIN: i32 = 20;
pub const SEE_QUIET_MARGIN: i32 = 60;

/// Late move reductions: from this depth and this move number; r = base + ln(d) ln(m) / divisor.
pub const LMR_DEPTH: i32 = 3;
pub const LMR_MIN_MOVES: usize = 2;
pub const LMR_BASE: f64 = 0.75;
pub const LMR_DIVISOR: f64 = 2.25;
/// History score that shifts the reduction by one ply.
pub const LMR_HISTORY_DIVISOR: i32 = 8192;

/// Internal iterative reduction: without a hash move, reduce by one from this depth.
pub const IIR_DEPTH: i32 = 4;

/// Delta pruning in quiescence: skip a capture if stand pat + victim + margin <= alpha.
pub const DELTA_MARGIN: i32 = 200;

/// History: bonus = min(depth^2 * scale, cap); entries saturate at HISTORY_MAX.
pub const HISTORY_SCALE: i32 = 16;
pub const HISTORY_BONUS_CAP: i32 = 1600;
pub const HISTORY_MAX: i32 = 16384;

/// Nodes between clock checks.
pub const CHECK_EVERY: u64 = 1024;

/// Lazy SMP: helper thread `i` (1-based) uses pattern `(i - 1) % 20` and skips every depth
/// `d` with `((d + phase) / size)` odd, so the helpers spread over neighbouring depths
/// instead of all searching the same tree.
pub const SMP_SKIP_SIZE: [i32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
pub const SMP_SKIP_PHASE: [i32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];
/// Thread vote: a thread's move gets `(score - lowest score + base) * depth` votes.
pub const SMP_VOTE_SCORE_BASE: i32 = 14;
