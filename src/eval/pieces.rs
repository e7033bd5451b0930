//! The first pass over one side's pieces: material, placement, mobility, bishop pair, rooks
//! and queens on open files, and the attack maps the later terms need.

use super::acc::{Acc, Attacks, Side};
use super::trace::Tracer;
use crate::bitboard::Bitboard;
use crate::tables;
use crate::types::{Piece, Square};

/// Scores `us` (own frame) against `them` (same frame) and returns what `us` attacks.
///
/// - **Material** per piece and **placement** from the piece's 64-square table (pawns are
///   scored with the pawn structure).
/// - **Mobility**: per knight, bishop, rook and queen, the number of squares it attacks that
///   hold no own piece and are not attacked by enemy pawns (moving there would just lose the
///   piece), looked up in a per-type table (a trapped piece is bad, the tenth square matters
///   less than the second).
/// - While looping, the attack maps (by type, all, twice) and the pieces hitting the enemy
///   king zone (king square plus neighbours) are gathered for the second pass.
/// - **Bishop pair**: two bishops cover both square colours.
/// - **Rooks and queens on files without own pawns**: open (no pawns at all) or semi-open
///   (only enemy pawns, which the piece can attack).
#[inline(always)]
pub fn evaluate<T: Tracer>(us: &Side, them: &Side, acc: &mut Acc<T>) -> Attacks {
    let occ = us.all | them.all;
    let pawn_attacks = us.pawns.pawn_attacks_up();
    let mut a = Attacks::default();
    a.by[Piece::Pawn.index()] = pawn_attacks;
    a.all = pawn_attacks;
    a.twice = us.pawns.pawn_double_attacks_up();

    let area = !(us.all | them.pawns.pawn_attacks_down());
    let zone = tables::king_attacks(them.king) | them.king.bb();
    macro_rules! pieces {
        ($piece:expr, $psqt:ident, $mobility:ident, $attacks:expr) => {{
            let set = us.of($piece);
            let p = $piece.index();
            term!(acc, MATERIAL[p], set.count() as i32);
            for sq in set {
                term!(acc, $psqt[sq.index()], 1);
                let att: Bitboard = $attacks(sq);
                term!(acc, $mobility[(att & area).count() as usize], 1);
                a.twice |= a.all & att;
                a.all |= att;
                a.by[p] |= att;
                // Branch-free: whether a piece hits the zone is hard to predict.
                let hits = (att & zone).count() as i32;
                a.zone_attackers[p] += (hits != 0) as i32;
                a.zone_attacks += hits;
            }
        }};
    }
    pieces!(Piece::Knight, KNIGHT_PSQT, KNIGHT_MOBILITY, tables::knight_attacks);
    pieces!(Piece::Bishop, BISHOP_PSQT, BISHOP_MOBILITY, |sq| tables::bishop_attacks(sq, occ));
    pieces!(Piece::Rook, ROOK_PSQT, ROOK_MOBILITY, |sq| tables::rook_attacks(sq, occ));
    pieces!(Piece::Queen, QUEEN_PSQT, QUEEN_MOBILITY, |sq: Square| tables::queen_attacks(sq, occ));

    term!(acc, KING_PSQT[us.king.index()], 1);
    let king_attacks = tables::king_attacks(us.king);
    a.twice |= a.all & king_attacks;
    a.all |= king_attacks;
    a.by[Piece::King.index()] = king_attacks;

    if us.bishops.several() {
        term!(acc, BISHOP_PAIR, 1);
    }

    if (us.rooks | us.queens).any() {
        let own_files = us.pawns.file_fill();
        let their_files = them.pawns.file_fill();
        let open = !own_files & !their_files;
        let semi_open = !own_files & their_files;
        term!(acc, ROOK_OPEN_FILE, (us.rooks & open).count() as i32);
        term!(acc, ROOK_SEMI_OPEN_FILE, (us.rooks & semi_open).count() as i32);
        term!(acc, QUEEN_OPEN_FILE, (us.queens & open).count() as i32);
        term!(acc, QUEEN_SEMI_OPEN_FILE, (us.queens & semi_open).count() as i32);
    }
    a
}
