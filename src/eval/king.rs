//! King safety: the pawn shelter in front of our king, and the danger our pieces pose to the
//! enemy king.
//!
//! # King danger and the tuner
//! Danger is gathered as "units", a linear sum of tuned weights times features (attackers by
//! type, attacks on the zone, weak zone squares, safe and unsafe checks, no queen, an offset),
//! and only then made non-linear: the attacker gets `max(units.mg, 0)² / KING_DANGER_MG_DIV` in
//! the middlegame (a coordinated attack is worth far more than the sum of its parts, which is
//! what the square expresses) and a plain `units.eg / KING_DANGER_EG_DIV` in the endgame, where
//! attacks on the king matter little and a linear term is enough.
//!
//! The trace records the unit features of each attacker separately from the linear terms.
//! The tuner recomputes the units from the current weights for every position it evaluates
//! and differentiates through the transform by the chain rule:
//! `d bonus.mg / d w.mg = 2 · max(units.mg, 0) / KING_DANGER_MG_DIV · count` and
//! `d bonus.eg / d w.eg = count / KING_DANGER_EG_DIV`. So king danger is fitted exactly, not
//! linearised. (Clamping the endgame half at zero as well would leave its weights, which start
//! at zero, with a zero gradient for ever.)

use super::acc::{Acc, Attacks, Side};
use super::danger::danger_bonus;
use super::params::*;
use super::trace::Tracer;
use crate::bitboard::Bitboard;
use crate::tables;
use crate::types::Piece;

/// King shelter: while the king is on its first two ranks, each of the files around it (its
/// own file and the neighbours) is checked for an own pawn in front of the king: one rank
/// ahead is best, two ranks ahead is good, further is less, and no pawn at all on that file
/// ahead of the king is an open line towards it.
#[inline(always)]
pub fn shelter<T: Tracer>(us: &Side, acc: &mut Acc<T>) {
    let k = us.king.index();
    let kr = k >> 3;
    if kr > 1 {
        return;
    }
    // Branch-free, with popcounts over the (two or three) files around the king.
    const RANK_1: u64 = Bitboard::RANK_1.raw();
    let ahead = !0u64 << (8 * (kr + 1));
    let kfile = Bitboard::file(us.king.file());
    let files = (kfile | kfile.west() | kfile.east()).raw();
    let shield = us.pawns.raw() & files & ahead;
    let one = shield & RANK_1 << (8 * (kr + 1));
    let two = shield & RANK_1 << (8 * (kr + 2)) & !(one << 8);
    let covered = (Bitboard::from_raw(shield).south_fill() & Bitboard::RANK_1).count() as i32;
    let n_files = (files & RANK_1).count_ones() as i32;
    let (n1, n2) = (one.count_ones() as i32, two.count_ones() as i32);
    term!(acc, SHELTER_ONE_AHEAD, n1);
    term!(acc, SHELTER_TWO_AHEAD, n2);
    term!(acc, SHELTER_FAR, covered - n1 - n2);
    term!(acc, SHELTER_MISSING, n_files - covered);
}

/// The danger `us` poses to the enemy king (`ours`/`theirs`: both sides' attacks, in our
/// frame), added to our score as a bonus. Counted only when at least
/// `KING_ATTACK_MIN_ATTACKERS` of our pieces hit the king zone.
///
/// - **Attackers** by type, and every attack of theirs on a zone square.
/// - **Weak zone squares**: attacked by us, defended at most once and then only by the king or
///   queen.
/// - **Checks**: squares from which a piece of ours could check (it attacks the square and we
///   have nothing there), safe when the enemy does not defend it, or it is a weak square we
///   attack twice; unsafe checks count less.
/// - **No queen**: an attack without the queen is much weaker.
#[inline(always)]
pub fn danger<T: Tracer>(us: &Side, them: &Side, ours: &Attacks, theirs: &Attacks, acc: &mut Acc<T>) {
    let attackers: i32 = ours.zone_attackers.iter().sum();
    if attackers < KING_ATTACK_MIN_ATTACKERS {
        return;
    }
    let (n, b, r, q, k) =
        (Piece::Knight.index(), Piece::Bishop.index(), Piece::Rook.index(), Piece::Queen.index(), Piece::King.index());
    for p in [n, b, r, q] {
        danger!(acc, KING_ATTACKER[p - 1], ours.zone_attackers[p]);
    }
    danger!(acc, KING_ZONE_ATTACK, ours.zone_attacks);

    let zone = tables::king_attacks(them.king) | them.king.bb();
    let weak = ours.all & !theirs.twice & (!theirs.all | theirs.by[k] | theirs.by[q]);
    danger!(acc, KING_WEAK_SQUARE, (weak & zone).count() as i32);

    let occ = us.all | them.all;
    let safe = !us.all & (!theirs.all | (weak & ours.twice));
    let bishop_lines = tables::bishop_attacks(them.king, occ);
    let rook_lines = tables::rook_attacks(them.king, occ);
    let checks: [Bitboard; 4] = [
        tables::knight_attacks(them.king) & ours.by[n],
        bishop_lines & ours.by[b],
        rook_lines & ours.by[r],
        (bishop_lines | rook_lines) & ours.by[q],
    ];
    let mut unsafe_checks = Bitboard::EMPTY;
    for (i, &c) in checks.iter().enumerate() {
        let c = c & !us.all;
        danger!(acc, KING_SAFE_CHECK[i], (c & safe).count() as i32);
        unsafe_checks |= c & !safe;
    }
    danger!(acc, KING_UNSAFE_CHECK, unsafe_checks.count() as i32);
    danger!(acc, KING_NO_QUEEN, us.queens.is_empty() as i32);
    danger!(acc, KING_DANGER_OFFSET, 1);

    acc.add_danger_bonus(danger_bonus(acc.danger_units()));
}
