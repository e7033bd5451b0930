//! Evaluation tracers: what the evaluation reports about its features as it computes them.
//!
//! The evaluation is generic over [`Tracer`]. The engine passes [`NoTrace`] (`ON = false`,
//! empty methods: the tracing code compiles away). The tuner passes a [`Trace`], which
//! records everything needed to recompute the evaluation from any weight vector:
//!
//! - per flat weight (see [`layout`]), white's feature count minus black's;
//! - per attacking side, its king-danger unit counts (these go through a non-linear
//!   transform, so they cannot be merged across colours);
//! - the phase, and the scale case for either side being ahead.
//!
//! It also records what the code actually added for each term, so [`Trace::check`] can name
//! the term when `weights · trace` and the evaluation disagree.

use super::danger::danger_bonus;
use super::layout::{self, COUNT};
use super::scale::ScaleCase;
use super::score::S;
use super::taper::finish;
use crate::types::Color;
use std::fmt;

/// What [`Trace::check`] found wrong: the first part of the evaluation the trace does not
/// account for. Each prints as one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TraceMismatch {
    /// A linear term added something other than weight × count.
    Term { name: String, added: S, weight: S, count: i32 },
    /// A side's king danger computed by the evaluation differs from the trace's.
    KingDanger { color: Color, units: S, bonus: S, traced_units: S, traced_bonus: S },
    /// The evaluation summed more (or less) than the traced terms.
    Untraced { total: S, traced: S },
}

impl fmt::Display for TraceMismatch {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            TraceMismatch::Term { name, added, weight, count } => write!(
                f,
                "term {name}: the evaluation added {added:?}, but weight {weight:?} × count {count} = {:?}",
                *weight * *count
            ),
            TraceMismatch::KingDanger { color, units, bonus, traced_units, traced_bonus } => write!(
                f,
                "king danger of {color:?}: the evaluation computed units {units:?} and bonus {bonus:?}, \
                 the trace gives units {traced_units:?} and bonus {traced_bonus:?}"
            ),
            TraceMismatch::Untraced { total, traced } => {
                write!(f, "untraced contribution: the evaluation summed {total:?}, the traced terms {traced:?}")
            }
        }
    }
}

impl std::error::Error for TraceMismatch {}

/// Receives the features of one evaluation.
pub trait Tracer {
    /// Whether anything is recorded; the evaluation skips tracing work when `false`.
    const ON: bool;
    /// `color` got `n` counts of flat weight `index`, adding `added` to its score.
    fn linear(&mut self, color: Color, index: usize, n: i32, added: S);
    /// Attacker `color` got `n` counts of king-danger unit weight `index`.
    fn danger(&mut self, color: Color, index: usize, n: i32);
    /// Attacker `color`'s danger `units` were turned into `bonus` and added to its score.
    fn danger_bonus(&mut self, color: Color, units: S, bonus: S);
    /// The summed score, white's minus black's, before the phase blend.
    fn total(&mut self, s: S);
    /// The game phase.
    fn phase(&mut self, phase: i32);
    /// The scale case that would apply if `strong` were ahead.
    fn scale(&mut self, strong: Color, case: ScaleCase);
}

/// The engine's tracer: records nothing, costs nothing.
pub struct NoTrace;

impl Tracer for NoTrace {
    const ON: bool = false;
    #[inline(always)]
    fn linear(&mut self, _: Color, _: usize, _: i32, _: S) {}
    #[inline(always)]
    fn danger(&mut self, _: Color, _: usize, _: i32) {}
    #[inline(always)]
    fn danger_bonus(&mut self, _: Color, _: S, _: S) {}
    #[inline(always)]
    fn total(&mut self, _: S) {}
    #[inline(always)]
    fn phase(&mut self, _: i32) {}
    #[inline(always)]
    fn scale(&mut self, _: Color, _: ScaleCase) {}
}

/// A full record of one evaluation's features (dense, reused across positions).
#[derive(Clone, Debug)]
pub struct Trace {
    /// Per flat weight: white's count minus black's.
    pub coef: Vec<i32>,
    /// Per flat weight: what the evaluation added for it, white's minus black's.
    pub added: Vec<S>,
    /// Per attacking colour: king-danger unit counts per flat weight.
    pub danger: [Vec<i32>; 2],
    /// Per attacking colour: the danger units and bonus the evaluation computed, when danger
    /// was counted at all.
    pub danger_seen: [Option<(S, S)>; 2],
    /// The summed score before the phase blend, white's minus black's.
    pub total: S,
    pub phase: i32,
    /// The scale case if white (`[0]`) or black (`[1]`) is ahead.
    pub scale: [ScaleCase; 2],
}

impl Default for Trace {
    fn default() -> Self {
        Trace::new()
    }
}

impl Trace {
    pub fn new() -> Trace {
        Trace {
            coef: vec![0; COUNT],
            added: vec![S::ZERO; COUNT],
            danger: [vec![0; COUNT], vec![0; COUNT]],
            danger_seen: [None; 2],
            total: S::ZERO,
            phase: 0,
            scale: [ScaleCase::Normal; 2],
        }
    }

    /// Forgets the last position.
    pub fn reset(&mut self) {
        self.coef.fill(0);
        self.added.fill(S::ZERO);
        self.danger[0].fill(0);
        self.danger[1].fill(0);
        self.danger_seen = [None; 2];
        self.total = S::ZERO;
        self.phase = 0;
        self.scale = [ScaleCase::Normal; 2];
    }

    /// The danger units of attacker `c` under weights `w`, if its danger was counted.
    pub fn danger_units(&self, c: Color, w: &[S]) -> Option<S> {
        self.danger_seen[c.index()]?;
        let mut u = S::ZERO;
        for (i, &n) in self.danger[c.index()].iter().enumerate() {
            u += w[i] * n;
        }
        Some(u)
    }

    /// The score before the phase blend, white's minus black's, under weights `w`.
    pub fn sum(&self, w: &[S]) -> S {
        let mut s = S::ZERO;
        for (i, &n) in self.coef.iter().enumerate() {
            s += w[i] * n;
        }
        for c in Color::ALL {
            if let Some(u) = self.danger_units(c, w) {
                s += danger_bonus(u) * c.sign();
            }
        }
        s
    }

    /// The evaluation (white's view) recomputed from this trace with weights `w` and scale
    /// factors `factor`, in integers exactly as the engine computes it.
    pub fn evaluate(&self, w: &[S], factor: impl Fn(ScaleCase) -> i32) -> i32 {
        finish(self.sum(w), self.phase, |strong| factor(self.scale[strong.index()]))
    }

    /// Checks that this trace accounts for every centipawn the evaluation added, with weights
    /// `w` (normally `layout::current()`); the error names the first term that does not.
    pub fn check(&self, w: &[S]) -> Result<(), TraceMismatch> {
        // 1. Each linear term: what the code added equals weight × count.
        for (i, (&added, &n)) in self.added.iter().zip(&self.coef).enumerate() {
            if added != w[i] * n {
                return Err(TraceMismatch::Term { name: layout::name_of(i), added, weight: w[i], count: n });
            }
        }
        // 2. King danger: the units and bonus the code computed, recomputed from the counts.
        let mut sum = self.added.iter().fold(S::ZERO, |a, &b| a + b);
        for c in Color::ALL {
            let recomputed = self.danger_units(c, w);
            let seen = self.danger_seen[c.index()];
            if let (Some(u), Some((units, bonus))) = (recomputed, seen) {
                if u != units || danger_bonus(u) != bonus {
                    return Err(TraceMismatch::KingDanger {
                        color: c,
                        units,
                        bonus,
                        traced_units: u,
                        traced_bonus: danger_bonus(u),
                    });
                }
                sum += bonus * c.sign();
            }
        }
        // 3. Nothing was added outside the traced terms.
        if sum != self.total {
            return Err(TraceMismatch::Untraced { total: self.total, traced: sum });
        }
        Ok(())
    }
}

impl Tracer for Trace {
    const ON: bool = true;
    fn linear(&mut self, color: Color, index: usize, n: i32, added: S) {
        self.coef[index] += n * color.sign();
        self.added[index] += added * color.sign();
    }
    fn danger(&mut self, color: Color, index: usize, n: i32) {
        self.danger[color.index()][index] += n;
    }
    fn danger_bonus(&mut self, color: Color, units: S, bonus: S) {
        self.danger_seen[color.index()] = Some((units, bonus));
    }
    fn total(&mut self, s: S) {
        self.total = s;
    }
    fn phase(&mut self, phase: i32) {
        self.phase = phase;
    }
    fn scale(&mut self, strong: Color, case: ScaleCase) {
        self.scale[strong.index()] = case;
    }
}
