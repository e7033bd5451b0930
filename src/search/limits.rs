//! What the protocol layer asks of a search: limits, stop/ponder flags shared with the
//! search thread, and search options that are not limits.

use super::strength::Strength;
use super::time::Clock;
use crate::moves::Move;
use std::sync::atomic::AtomicBool;

/// What to search for; `None`/empty means no limit of that kind.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    /// Stop after the iteration during which this many nodes were reached (a soft limit:
    /// iterations are finished; `nodes` stays the hard cap).
    pub soft_nodes: Option<u64>,
    /// Stop once a mate in at most this many moves is found.
    pub mate: Option<i32>,
    pub clock: Clock,
    pub infinite: bool,
    pub searchmoves: Vec<Move>,
    pub multipv: usize,
    pub move_overhead_ms: u64,
    /// Play weaker on purpose (`UCI_LimitStrength`, `Skill Level`): the caller sets the
    /// node limits from it; the search adds lines and picks among them.
    pub strength: Option<Strength>,
}

/// Flags shared between the protocol thread and the search.
#[derive(Default)]
pub struct Control {
    /// Set to end the search as soon as possible.
    pub stop: AtomicBool,
    /// True while pondering: the clock does not run until `ponderhit` clears it.
    pub pondering: AtomicBool,
}

/// Search options that are not limits.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Prune SEE-losing captures in quiescence (off: MVV/LVA ordering only).
    pub qsearch_see: bool,
    /// Singular extensions (off: the hash move is never tested for being singular).
    pub singular: bool,
    /// Scale the network's evaluation by the material on the board (off in datagen, whose
    /// stored scores are the next network's targets and so must stay on the network's scale).
    pub material_scale: bool,
    /// Tablebases: probe WDL inside the search only from this remaining depth on.
    pub tb_probe_depth: i32,
    /// Tablebases: the fifty-move rule counts (cursed wins score as draws).
    pub tb_rule50: bool,
    /// Tablebases: probe only positions with at most this many pieces (0: never).
    pub tb_probe_limit: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            qsearch_see: true,
            singular: true,
            material_scale: true,
            tb_probe_depth: 1,
            tb_rule50: true,
            tb_probe_limit: crate::syzygy::MAX_PIECES,
        }
    }
}
