//! The king-danger curve: the bonus an attacker gets for its danger units (see `king.rs` for
//! the units and why the curve is a square). Its own file because both the evaluation
//! (`king.rs`) and the tracer's check (`trace.rs`) apply it, and neither may import the other.

use super::params::{KING_DANGER_EG_DIV, KING_DANGER_MG_DIV};
use super::score::S;

/// The king-danger bonus of `units`: `max(units.mg, 0)² / KING_DANGER_MG_DIV` in the middlegame
/// and `units.eg / KING_DANGER_EG_DIV` in the endgame.
#[inline(always)]
pub fn danger_bonus(units: S) -> S {
    let mg = units.mg().max(0);
    S(mg * mg / KING_DANGER_MG_DIV, units.eg() / KING_DANGER_EG_DIV)
}
