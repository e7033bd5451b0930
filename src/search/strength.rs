//! Playing weaker on purpose (`UCI_LimitStrength` with `UCI_Elo`, and `Skill Level`).
//!
//! A limited search differs from a full one in two ways, both set by one Elo figure:
//! - **fewer nodes**: it stops after the iteration in which it reached a node budget that
//!   doubles every `ELO_PER_DOUBLING` Elo (a hard cap of `HARD_NODES_FACTOR` budgets, at
//!   least `HARD_NODES_MIN`, ends a runaway iteration), so it sees less deep, as a weaker
//!   player does;
//! - **human-sized mistakes** below `NOISE_END_ELO`: it searches `NOISY_MULTIPV` lines and
//!   plays one of them at random, each with a chance that falls off with how much worse
//!   it scores than the best (a softmax with a temperature in centipawns that shrinks to
//!   0 as the Elo rises). A clearly lost move is almost never chosen; among near-equal
//!   moves the choice is free.
//!
//! On a clock the level also thinks for a share of the time a full search would: the
//! share halves every `TIME_ELO_PER_HALVING` Elo below `ELO_MAX`. At long time controls
//! the node budget is what binds; at short ones, where the budgets of the top levels would
//! exceed what the clock allows, the time share keeps every level above the one below.
//!
//! The clock still applies on top, so a limited search never loses on time, and it only
//! ever plays a legal root move. The constants are calibrated in games against
//! Stockfish 15.1's own `UCI_LimitStrength` (docs/strength.md).

use crate::moves::Move;
use crate::rng::SplitMix64;

/// The weakest and strongest `UCI_Elo`.
pub const ELO_MIN: u32 = 1320;
pub const ELO_MAX: u32 = 2800;
/// The highest `Skill Level`: full strength, no limit.
pub const SKILL_MAX: u32 = 20;

/// The node budget at `ELO_MIN`, and the Elo that doubles it.
pub const NODES_AT_ELO_MIN: f64 = 136.0;
pub const ELO_PER_DOUBLING: f64 = 100.0;
/// The hard node cap, in node budgets, and its floor: the first iteration (all its lines)
/// always completes, so that every move played has a score behind it.
pub const HARD_NODES_FACTOR: u64 = 4;
pub const HARD_NODES_MIN: u64 = 5000;
/// The Elo below `ELO_MAX` that halves the share of the clock a level thinks for.
pub const TIME_ELO_PER_HALVING: f64 = 200.0;
/// Root lines searched when mistakes are allowed.
pub const NOISY_MULTIPV: usize = 4;
/// The softmax temperature (centipawns) at `ELO_MIN`; it falls to 0 at `NOISE_END_ELO`
/// as the distance to it to the power `TEMPERATURE_EXPONENT`, so that the lowest levels,
/// whose searches are only a few plies deep, still differ clearly.
pub const TEMPERATURE_AT_ELO_MIN: f64 = 15.0;
pub const NOISE_END_ELO: f64 = 2050.0;
pub const TEMPERATURE_EXPONENT: f64 = 1.2;

/// A strength limit: the Elo to play at and the seed of its random choices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strength {
    pub elo: u32,
    pub seed: u64,
}

impl Strength {
    /// The limit for `UCI_Elo` (clamped to `ELO_MIN..=ELO_MAX`).
    pub fn from_elo(elo: u32, seed: u64) -> Strength {
        Strength { elo: elo.clamp(ELO_MIN, ELO_MAX), seed }
    }

    /// The limit for a `Skill Level` (0–20), on the same scale: level 0 is `ELO_MIN`, each
    /// level adds an equal step, and level 20 is full strength (`None`).
    pub fn from_skill(level: u32, seed: u64) -> Option<Strength> {
        (level < SKILL_MAX).then(|| Strength::from_elo(ELO_MIN + level * (ELO_MAX - ELO_MIN) / SKILL_MAX, seed))
    }

    /// Nodes after which no new iteration starts.
    pub fn node_budget(self) -> u64 {
        let doublings = (self.elo - ELO_MIN) as f64 / ELO_PER_DOUBLING;
        (NODES_AT_ELO_MIN * doublings.exp2()).round() as u64
    }

    /// The node count at which the search stops in any case.
    pub fn hard_nodes(self) -> u64 {
        (self.node_budget() * HARD_NODES_FACTOR).max(HARD_NODES_MIN)
    }

    /// The share of a full search's time limits this level thinks for (1 at `ELO_MAX`).
    pub fn time_share(self) -> f64 {
        ((self.elo as f64 - ELO_MAX as f64) / TIME_ELO_PER_HALVING).exp2()
    }

    /// The softmax temperature in centipawns (0: always the best line).
    pub fn temperature(self) -> f64 {
        let t = (NOISE_END_ELO - self.elo as f64) / (NOISE_END_ELO - ELO_MIN as f64);
        TEMPERATURE_AT_ELO_MIN * t.max(0.0).powf(TEMPERATURE_EXPONENT)
    }

    /// Root lines to search: several when a worse line may be chosen.
    pub fn multipv(self) -> usize {
        if self.temperature() > 0.0 {
            NOISY_MULTIPV
        } else {
            1
        }
    }

    /// The index of the line to play among `scores` (best first, centipawns; mate scores
    /// as large numbers): drawn with weight `exp((score - best) / temperature)`.
    pub fn pick(self, scores: &[i32]) -> usize {
        let t = self.temperature();
        let Some(&best) = scores.first() else { return 0 };
        if t <= 0.0 || scores.len() == 1 {
            return 0;
        }
        let weights: Vec<f64> = scores.iter().map(|&s| (((s - best) as f64) / t).exp()).collect();
        let total: f64 = weights.iter().sum();
        // 53 random bits: a uniform number in [0, 1).
        let unit = (SplitMix64::new(self.seed).next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        let mut x = unit * total;
        for (i, w) in weights.iter().enumerate() {
            if x < *w {
                return i;
            }
            x -= w;
        }
        0
    }
}

/// The move of the chosen line, if any line was completed.
pub fn chosen_move(strength: Strength, lines: &[(i32, Vec<Move>)]) -> Option<usize> {
    if lines.is_empty() {
        return None;
    }
    let scores: Vec<i32> = lines.iter().map(|(s, _)| *s).collect();
    Some(strength.pick(&scores))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_grow_with_elo_and_skill_maps_onto_elo() {
        let (mut last, mut last_share) = (0, 0.0);
        for elo in (ELO_MIN..=ELO_MAX).step_by(100) {
            let s = Strength::from_elo(elo, 0);
            let (n, share) = (s.node_budget(), s.time_share());
            assert!(n > last && share > last_share, "{elo}: {n} {share}");
            (last, last_share) = (n, share);
        }
        assert_eq!(Strength::from_elo(ELO_MAX, 0).time_share(), 1.0);
        assert_eq!(Strength::from_elo(ELO_MAX - 2 * TIME_ELO_PER_HALVING as u32, 0).time_share(), 0.25);
        assert_eq!(Strength::from_skill(0, 0).unwrap().elo, ELO_MIN);
        assert_eq!(Strength::from_skill(SKILL_MAX, 0), None);
        assert!(Strength::from_skill(19, 0).unwrap().elo < ELO_MAX);
        assert_eq!(Strength::from_elo(99_999, 0).elo, ELO_MAX);
        assert_eq!(Strength::from_elo(0, 0).elo, ELO_MIN);
        assert_eq!(Strength::from_elo(ELO_MAX, 0).temperature(), 0.0);
        assert_eq!(Strength::from_elo(ELO_MAX, 0).multipv(), 1);
    }

    /// Near-equal lines are chosen about equally often, a line 5 temperatures worse almost
    /// never, and the best line most often.
    #[test]
    fn pick_prefers_better_lines() {
        let mut counts = [0usize; 4];
        let s = Strength::from_elo(ELO_MIN, 0);
        let t = s.temperature() as i32;
        for seed in 0..20_000 {
            counts[Strength { seed, ..s }.pick(&[50, 50, 50 - t, 50 - 5 * t])] += 1;
        }
        assert!(counts[0] > counts[2] && counts[1] > counts[2], "{counts:?}");
        assert!((counts[0] as f64 / counts[1] as f64 - 1.0).abs() < 0.1, "{counts:?}");
        assert!(counts[3] < 200, "{counts:?}");
        assert_eq!(Strength::from_elo(ELO_MAX, 7).pick(&[10, 9, 8]), 0);
    }
}
