//! What a search hands back: per-iteration reports (through a [`Reporter`]), scores as a
//! GUI shows them, counters and the final result. The search never prints; the protocol
//! layer formats these.

use super::params::{MATE, MATE_BOUND, TB_WIN_BOUND};
use super::tt::Bound;
use crate::board::Board;
use crate::eval::wdl::Wdl;
use crate::moves::Move;
use std::time::Duration;

/// A score as a GUI shows it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Score {
    Cp(i32),
    /// Mate in this many moves (negative: getting mated).
    Mate(i32),
}

/// What the win/draw/loss chances of a root's scores are computed from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct WdlRoot {
    /// The root's material on the model's scale (see `crate::eval::wdl::material`).
    pub material: i32,
    /// The factor the search multiplied the network's evaluation by at the root, as a
    /// numerator and a denominator: the model was fitted on unscaled scores, so it is
    /// divided out first ((1, 1) when nothing was scaled).
    pub scale: (i32, i32),
}

impl WdlRoot {
    /// For a search from `board`; `scaled`: whether its evaluation is scaled by material
    /// (the network in play is; the classical evaluation is not).
    pub fn of(board: &Board, scaled: bool) -> WdlRoot {
        let scale = if scaled { super::material_scale::material_scale(board) } else { (1, 1) };
        WdlRoot { material: crate::eval::wdl::material(board), scale }
    }
}

impl Score {
    /// The win/draw/loss chances of this score for the side to move at `root` (see
    /// `crate::eval::wdl`): mates and tablebase results are certainties.
    pub fn wdl(self, root: WdlRoot) -> Wdl {
        match self {
            Score::Mate(n) if n > 0 => Wdl::WON,
            Score::Mate(_) => Wdl::LOST,
            Score::Cp(cp) if cp >= TB_WIN_BOUND => Wdl::WON,
            Score::Cp(cp) if cp <= -TB_WIN_BOUND => Wdl::LOST,
            Score::Cp(cp) => {
                let (num, den) = root.scale;
                crate::eval::wdl::wdl((cp as i64 * den as i64 / num.max(1) as i64) as i32, root.material)
            }
        }
    }

    pub fn from_internal(s: i32) -> Score {
        if s >= MATE_BOUND {
            Score::Mate((MATE - s + 1) / 2)
        } else if s <= -MATE_BOUND {
            Score::Mate(-(MATE + s) / 2)
        } else {
            Score::Cp(s)
        }
    }
}

/// Counters reported at the end of a search and by `bench`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stats {
    pub nodes: u64,
    pub qnodes: u64,
    /// Quiescence captures skipped because SEE said they lose material.
    pub see_pruned: u64,
    /// Quiescence captures skipped by delta pruning.
    pub delta_pruned: u64,
    pub seldepth: usize,
    /// Tablebase probes that gave a result.
    pub tbhits: u64,
}

impl Stats {
    /// Adds `other`'s counters to these (the deeper selective depth wins): totals over the
    /// threads of a pool, or over the positions of a bench.
    pub fn add(&mut self, other: &Stats) {
        self.nodes += other.nodes;
        self.qnodes += other.qnodes;
        self.see_pruned += other.see_pruned;
        self.delta_pruned += other.delta_pruned;
        self.tbhits += other.tbhits;
        self.seldepth = self.seldepth.max(other.seldepth);
    }
}

/// One iteration's (one PV line's) report.
#[derive(Clone, Debug)]
pub struct Report {
    pub depth: i32,
    pub seldepth: usize,
    pub multipv: usize,
    pub score: Score,
    pub bound: Bound,
    pub nodes: u64,
    pub time: Duration,
    pub hashfull: u32,
    pub tbhits: u64,
    pub pv: Vec<Move>,
}

/// The root move the main thread is about to search (`info currmove … currmovenumber …`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CurrentMove {
    pub depth: i32,
    pub mv: Move,
    /// 1 for the first root move searched at this depth (and MultiPV line).
    pub number: usize,
}

/// Where the main thread announces its current root move once a search has run for
/// `CURRMOVE_DELAY_MS`; set by the protocol layer for the next searches.
pub type CurrentMoveSink = Box<dyn FnMut(&CurrentMove) + Send>;

impl Report {
    /// The win/draw/loss chances this report stands for (see [`Score::wdl`]); a root with
    /// no legal move (depth 0, no line) is decided: mated, or a stalemate's sure draw.
    pub fn wdl(&self, root: WdlRoot) -> Wdl {
        if self.depth == 0 && self.pv.is_empty() && self.score == Score::Cp(0) {
            return Wdl::DRAWN;
        }
        self.score.wdl(root)
    }
}

/// Receives the search's reports.
pub trait Reporter {
    fn report(&mut self, r: &Report);

    /// Whether reports are wanted at all: when not, the search builds none (no hash-table
    /// sample for `hashfull`, no copy of the line), which matters to `datagen`'s thousands
    /// of short searches.
    fn listening(&self) -> bool {
        true
    }
}

/// A reporter that ignores everything (bench, datagen, tests).
pub struct Silent;
impl Reporter for Silent {
    fn report(&mut self, _r: &Report) {}

    fn listening(&self) -> bool {
        false
    }
}

/// The outcome of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    pub best: Move,
    pub ponder: Option<Move>,
    pub score: i32,
    pub depth: i32,
    pub stats: Stats,
    pub time: Duration,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A root score of the scaled network evaluation gives the chances the model gives its
    /// unscaled value: 258 at the start position's scale of 25,800 / 24,000 is 240.
    #[test]
    fn wdl_divides_the_material_scale_out() {
        let start = Board::startpos();
        let scaled = WdlRoot::of(&start, true);
        let plain = WdlRoot::of(&start, false);
        assert_eq!(scaled.scale, (25_800, 24_000));
        assert_eq!(plain.scale, (1, 1));
        assert_eq!(Score::Cp(258).wdl(scaled), Score::Cp(240).wdl(plain));
        assert_ne!(Score::Cp(258).wdl(plain), Score::Cp(240).wdl(plain));
        // Mates and tablebase results stay certain whatever the scale.
        assert_eq!(Score::Cp(TB_WIN_BOUND).wdl(scaled), Wdl::WON);
        assert_eq!(Score::Mate(-3).wdl(scaled), Wdl::LOST);
    }
}
