//! Every search tunable in one place: each pruning rule is a depth limit and a margin,
//! and every other number the search decides by (time, windows, table replacement) has a
//! name and a line saying what it does. The margins SPSA may tune are [`Tunable`]s
//! (declared in the `tunables!` block below; read them with `.get()`): constants in a normal
//! build, UCI options in a `--features spsa` build (see [`super::tunable`]).

use super::tunable::{tunables, Tunable};

/// Score of a mate at the root; mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 32000;
/// Scores beyond this are mate scores.
pub const MATE_BOUND: i32 = MATE - 1000;
pub const INFINITY: i32 = 32001;
/// Deepest ply the search may reach.
pub const MAX_PLY: usize = 120;
/// A tablebase win `ply` plies from the root scores `TB_WIN - ply`: below every mate score,
/// above every evaluation, so it can never be mistaken for a mate (nor a mate for it).
pub const TB_WIN: i32 = MATE_BOUND - 1000;
/// Scores from here to `MATE_BOUND` are tablebase wins (with the ply they were found at).
pub const TB_WIN_BOUND: i32 = TB_WIN - MAX_PLY as i32;
/// A cursed win (a win the fifty-move rule voids) while the rule counts: just above a draw.
pub const TB_CURSED_SCORE: i32 = 1;
/// A tablebase result is stored in the hash table this much deeper than the node's depth:
/// no search below it can improve on it.
pub const TB_STORE_DEPTH_BONUS: i32 = 6;

/// Aspiration windows: used from this depth, starting this wide, widened by half on failure.
pub const ASPIRATION_MIN_DEPTH: i32 = 5;
/// On each failure the window's half-width grows by itself divided by this.
pub const ASPIRATION_WIDEN_DIVISOR: i32 = 2;
/// Once the half-width exceeds this, the window opens fully.
pub const ASPIRATION_MAX_DELTA: i32 = 1000;
/// Each fail high re-searches a ply shallower than the search before it, down to this many
/// plies below the iteration's depth; a fail low returns to the full depth.
pub const ASPIRATION_FAIL_HIGH_MAX_REDUCTION: i32 = 3;
/// Aspiration failures are reported (`lowerbound`/`upperbound` lines) only once the search
/// has run this long, so that short searches print one line per depth.
pub const BOUND_REPORT_DELAY_MS: u64 = 1000;
/// Root moves are announced (`currmove`) only after the search has run this long, so short
/// searches send no more lines than before.
pub const CURRMOVE_DELAY_MS: u64 = 1000;

/// Reverse futility pruning: at depth <= this, stop if eval - `RFP_MARGIN` * depth >= beta.
pub const RFP_DEPTH: i32 = 7;

/// Null-move pruning: from this depth, reduction base + depth / divisor (+ eval excess).
pub const NMP_DEPTH: i32 = 3;
/// The eval-excess part of the null-move reduction is capped at this many plies.
pub const NMP_MAX_EVAL_REDUCTION: i32 = 3;

/// Futility pruning of quiet moves: at depth <= this, skip if eval + `FUTILITY_BASE` +
/// `FUTILITY_MARGIN` * depth <= alpha.
pub const FUTILITY_DEPTH: i32 = 6;

/// Late move pruning: at depth <= this, skip quiets after `LMP_BASE` + depth^2 (halved if not improving).
pub const LMP_DEPTH: i32 = 8;
/// The late-move limit is divided by this when the position is not improving.
pub const LMP_NOT_IMPROVING_DIVISOR: i32 = 2;

/// SEE pruning in the main search: at depth <= this, skip captures losing more than
/// `SEE_CAPTURE_MARGIN * depth^2` and quiets losing more than `SEE_QUIET_MARGIN * depth`.
pub const SEE_PRUNE_DEPTH: i32 = 8;

/// Late move reductions: from this depth and this move number; r = `LMR_BASE_CENTI` / 100 +
/// ln(d) ln(m) / (`LMR_DIVISOR_CENTI` / 100), shifted by one ply per `LMR_HISTORY_DIVISOR`
/// of history score ...
pub const LMR_DEPTH: i32 = 3;
pub const LMR_MIN_MOVES: usize = 2;
/// ... by at most this many plies either way.
pub const LMR_HISTORY_MAX_ADJUST: i32 = 2;
/// The reduction table covers depths and move numbers below this (larger ones use the
/// last entry).
pub const LMR_TABLE_SIZE: usize = 64;

/// Quiet moves remembered per node for the history malus on a cutoff (later ones are
/// not penalised).
pub const MAX_TRACKED_QUIETS: usize = 64;

/// Singular extensions: from this depth, a hash move whose stored lower bound is at most
/// `SE_TT_DEPTH_MARGIN` plies shallower is tested. The other moves are searched to half
/// the depth against `tt score - SE_MARGIN * depth`; if all fail low, the hash move is
/// extended by a ply.
pub const SE_DEPTH: i32 = 8;
pub const SE_TT_DEPTH_MARGIN: i32 = 3;
/// A hash move that is not singular is searched this many plies shallower when its stored
/// score beats beta, or else `SE_CUT_NODE_REDUCTION` plies at an expected cut node.
pub const SE_BEATS_BETA_REDUCTION: i32 = 2;
pub const SE_CUT_NODE_REDUCTION: i32 = 1;

/// Material scaling of the network's evaluation in play: the eval times
/// `(MATERIAL_SCALE_BASE + material) / (MATERIAL_SCALE_BASE + MATERIAL_SCALE_NEUTRAL)`, where
/// material is every piece but the kings at its nominal value (7,800 at the start). The scale
/// is 1 at the neutral material, about 1.08 at the start and 0.75 with the kings alone, so
/// the side ahead keeps pieces on and an ending scores a little nearer a draw.
pub const MATERIAL_SCALE_BASE: i32 = 18_000;
pub const MATERIAL_SCALE_NEUTRAL: i32 = 6_000;

/// Correction history: entries per side, indexed by pawn key.
pub const CORRECTION_SIZE: usize = 16384;
/// Entries are kept in 1/this of a centipawn; an update moves an entry by
/// `weight / CORRECTION_GRAIN` of the way, with weight `depth + 1` up to the cap.
pub const CORRECTION_GRAIN: i32 = 256;
pub const CORRECTION_WEIGHT_CAP: i32 = 16;
/// The largest correction, in grains (64 centipawns).
pub const CORRECTION_MAX: i32 = 64 * CORRECTION_GRAIN;
/// The correction is the mean of the pawn-structure entry, weighted this much, ...
pub const CORRECTION_PAWN_WEIGHT: i32 = 2;
/// ... and the two sides' placement entries, weighted this much each.
pub const CORRECTION_NON_PAWN_WEIGHT: i32 = 1;

/// Internal iterative reduction: without a hash move, reduce by one from this depth.
pub const IIR_DEPTH: i32 = 4;
/// After a move raises alpha (without a cutoff) at a depth strictly between these, the
/// remaining moves are searched a ply shallower.
pub const ALPHA_RAISE_MIN_DEPTH: i32 = 1;
pub const ALPHA_RAISE_MAX_DEPTH: i32 = 12;

/// History: bonus = min(depth^2 * `HISTORY_SCALE`, `HISTORY_BONUS_CAP`); entries saturate at this.
pub const HISTORY_MAX: i32 = 16384;
/// Between searches every history entry is divided by this (keeps what was learnt, fades it).
pub const HISTORY_AGE_DIVISOR: i32 = 2;

/// Transposition-table replacement: an entry's worth is its depth minus this many plies
/// per search it is old, and the least worth in a bucket is replaced ...
pub const TT_AGE_WEIGHT: i32 = 8;
/// ... while a non-exact result does not overwrite an entry of the same position and search
/// that is at least this much deeper (e.g. a quiescence bound over a deep result).
pub const TT_KEEP_DEEPER_BY: i32 = 4;

/// The repetition filter has 2^this buckets of the line's keys (`repetition.rs`).
pub const REPETITION_FILTER_BITS: u32 = 10;

/// Nodes between clock checks.
pub const CHECK_EVERY: u64 = 1024;

// ---- time management (see `time.rs`) -------------------------------------------------

/// The clock is planned as if this many moves' `Move Overhead` were already gone (lag is
/// paid on every move, also the next ones).
pub const OVERHEAD_RESERVE_MOVES: u64 = 3;
/// Moves assumed left when `movestogo` is not given.
pub const DEFAULT_MOVES_TO_GO: u64 = 20;
/// `movestogo` is read as at most this many moves.
pub const MAX_MOVES_TO_GO: u64 = 60;
/// Fraction of the increment spent on top of the base share (per mille).
pub const INC_SHARE: u64 = 750;
/// The hard limit is this many times the soft limit ...
pub const HARD_FACTOR: u64 = 4;
/// ... but never more than this share of the remaining time (per mille) ...
pub const HARD_MAX_SHARE: u64 = 350;
/// ... except on the last move before the time control, which may use this share (per mille).
pub const LAST_MOVE_SHARE: u64 = 800;
/// Never plan to use less than this, so a move is always found.
pub const MIN_THINK_MS: u64 = 1;
/// No new iteration starts once this fraction of the soft limit is used: it would most
/// likely not finish before the hard limit.
pub const SOFT_STOP_FRACTION: f64 = 0.6;
/// With a single legal move under a clock, the search stops after this depth (deep enough
/// for a ponder move and a sensible score).
pub const SINGLE_REPLY_DEPTH: i32 = 4;

// The soft limit is scaled after each iteration by the factors below (their product is
// clamped to `TIME_SCALE_MIN..=TIME_SCALE_MAX`, and the result never exceeds the hard limit).

/// Best-move stability: the factor when the best move just changed (or on the first iteration) ...
pub const STABILITY_UNSTABLE_FACTOR: f64 = 1.3;
/// ... less this much for each further iteration in a row with the same best move ...
pub const STABILITY_STEP: f64 = 0.1;
/// ... counting at most this many iterations (so the factor bottoms out at 1.3 - 0.5 = 0.8).
pub const STABILITY_MAX_COUNT: u32 = 5;
/// Node share: the factor is base - weight * (share of the root's nodes spent under the
/// best move), from 1.6 (no nodes) down to 0.7 (all nodes) ...
pub const NODE_SHARE_BASE: f64 = 1.6;
/// ... with this weight.
pub const NODE_SHARE_WEIGHT: f64 = 0.9;
/// Score drop: the factor grows by this much per centipawn the score fell below the average
/// of the previous iterations' scores ...
pub const SCORE_DROP_PER_CP: f64 = 0.006;
/// ... counting at most this many centipawns (so at most 1 + 0.006 * 80 = 1.48).
pub const SCORE_DROP_MAX_CP: i32 = 80;
/// The score drop is measured against the average of up to this many previous iterations.
pub const SCORE_DROP_ITERATIONS: usize = 3;
/// The product of the factors is clamped to at least this ...
pub const TIME_SCALE_MIN: f64 = 0.4;
/// ... and at most this (and the scaled soft limit to the hard limit).
pub const TIME_SCALE_MAX: f64 = 2.5;

/// Lazy SMP: helper thread `i` (1-based) uses pattern `(i - 1) % 20` and skips every depth
/// `d` with `((d + phase) / size)` odd, so the helpers spread over neighbouring depths
/// instead of all searching the same tree.
pub const SMP_SKIP_SIZE: [i32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
pub const SMP_SKIP_PHASE: [i32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];

// ---- tunables: the margins SPSA may tune (`NAME = default, min..=max, c_end;`) ------------

tunables! {
    /// Aspiration windows start this wide (centipawns either side).
    ASPIRATION_WINDOW = 20, 8..=60, 3.0;
    /// Reverse futility pruning margin per ply of depth.
    RFP_MARGIN = 60, 20..=150, 6.0;
    /// Null-move pruning: the reduction is this ...
    NMP_BASE_REDUCTION = 3, 1..=6, 0.5;
    /// ... plus depth divided by this ...
    NMP_DEPTH_DIVISOR = 4, 2..=8, 0.5;
    /// ... plus (eval - beta) divided by this (capped at `NMP_MAX_EVAL_REDUCTION`).
    NMP_EVAL_DIVISOR = 200, 80..=400, 20.0;
    /// Futility pruning of quiet moves: the margin's constant part ...
    FUTILITY_BASE = 64, 0..=200, 10.0;
    /// ... and its part per ply of depth.
    FUTILITY_MARGIN = 72, 30..=150, 7.0;
    /// Late move pruning: quiets allowed before pruning, on top of depth squared.
    LMP_BASE = 3, 1..=8, 0.5;
    /// SEE pruning: captures may lose this times depth squared ...
    SEE_CAPTURE_MARGIN = 20, 5..=60, 3.0;
    /// ... and quiet moves this times depth.
    SEE_QUIET_MARGIN = 60, 20..=150, 6.0;
    /// Late move reductions: the constant part of the reduction, in hundredths of a ply ...
    LMR_BASE_CENTI = 75, 25..=150, 8.0;
    /// ... and the divisor of ln(depth) ln(move number), in hundredths.
    LMR_DIVISOR_CENTI = 225, 150..=350, 15.0;
    /// History score that shifts a reduction by one ply.
    LMR_HISTORY_DIVISOR = 8192, 2048..=32768, 800.0;
    /// Singular extensions: the singular margin per ply of depth.
    SE_MARGIN = 2, 1..=5, 0.5;
    /// Delta pruning in quiescence: skip a capture if stand pat + victim + this <= alpha. The
    /// victim (and a promotion: the queen's value less the pawn's) is valued by
    /// `Piece::nominal_value`, as in MVV/LVA ordering and SEE.
    DELTA_MARGIN = 200, 50..=400, 20.0;
    /// History bonus per depth squared ...
    HISTORY_SCALE = 16, 4..=40, 2.0;
    /// ... up to this.
    HISTORY_BONUS_CAP = 1600, 400..=4000, 150.0;
}

/// The tunable named `name` (UCI option names compare without case).
pub fn find_tunable(name: &str) -> Option<&'static Tunable> {
    TUNABLES.iter().copied().find(|t| t.name.eq_ignore_ascii_case(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tunable_names_are_unique_and_defaults_in_range() {
        let mut seen = std::collections::HashSet::new();
        for t in TUNABLES {
            assert!(seen.insert(t.name.to_ascii_lowercase()), "{} declared twice", t.name);
            // Non-negative ranges: the UCI layer reads them as spin options.
            assert!(0 <= t.min && t.min <= t.default && t.default <= t.max, "{}", t.name);
            assert!(t.c_end > 0.0 && t.c_end <= (t.max - t.min) as f64 / 2.0, "{}: c_end {}", t.name, t.c_end);
            assert_eq!(t.get(), t.default, "{} does not start at its default", t.name);
            assert_eq!(find_tunable(&t.name.to_ascii_lowercase()).map(|f| f.name), Some(t.name));
        }
        assert!(find_tunable("NoSuchParameter").is_none());
    }
}
