//! Threats: enemy pieces attacked by something cheaper, or attacked and left undefended.

use super::acc::{Acc, Attacks, Side};
use super::trace::Tracer;
use crate::types::Piece;

/// The threats we make against `them` (`ours`/`theirs`: both sides' attacks, our frame):
///
/// - **By pawns**: a knight, bishop, rook or queen attacked by a pawn must usually move.
/// - **By minors**: rooks and queens attacked by a knight or bishop; pawns, knights and
///   bishops only when no enemy pawn defends them (otherwise it is an even trade at best).
/// - **By rooks**: queens; other pieces and pawns only when no enemy pawn defends them.
/// - **By the king**: undefended pieces and pawns next to our king.
/// - **Hanging**: knights, bishops, rooks and queens we attack that nothing defends.
#[inline(always)]
pub fn evaluate<T: Tracer>(them: &Side, ours: &Attacks, theirs: &Attacks, acc: &mut Acc<T>) {
    let pawn_defended = theirs.by[Piece::Pawn.index()];
    let by_pawns = ours.by[Piece::Pawn.index()];
    let by_minors = ours.by[Piece::Knight.index()] | ours.by[Piece::Bishop.index()];
    let by_rooks = ours.by[Piece::Rook.index()];

    for p in [Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen] {
        term!(acc, THREAT_BY_PAWN[p.index() - 1], (by_pawns & them.of(p)).count() as i32);
    }
    for p in [Piece::Pawn, Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen] {
        let victims = them.of(p);
        let minor_targets = if p >= Piece::Rook { victims } else { victims & !pawn_defended };
        term!(acc, THREAT_BY_MINOR[p.index()], (by_minors & minor_targets).count() as i32);
        let rook_targets = if p == Piece::Queen { victims } else { victims & !pawn_defended };
        term!(acc, THREAT_BY_ROOK[p.index()], (by_rooks & rook_targets).count() as i32);
    }

    let undefended = them.all & !theirs.all;
    term!(acc, THREAT_BY_KING, (ours.by[Piece::King.index()] & undefended).count() as i32);
    let pieces = them.all & !them.pawns & !them.king.bb();
    term!(acc, HANGING, (pieces & undefended & ours.all).count() as i32);
}
