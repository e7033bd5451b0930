//! Static evaluation: a hand-written, tapered (middlegame/endgame) evaluation.
//!
//! Each side is scored in its own frame ([`Side`]): black's bitboards are mirrored
//! vertically so that every side "moves up" and the same code and tables serve both
//! colours. White's score minus black's score is then blended by the game phase, scaled
//! down in obviously drawish material situations, and returned from the point of view the
//! caller asks for. Because both colours go through identical code, the evaluation is
//! exactly colour-symmetric: `evaluate(b) == evaluate(&b.mirrored())`.
//!
//! Terms (every weight is a named constant in [`params`]):
//!
//! - **Material**: the usual piece values; pawns are worth a little more in the endgame,
//!   where they promote, and rooks/queens gain as the board empties.
//! - **Piece-square tables** ([`psqt`]), built from small formulas rather than typed in:
//!   knights and bishops like the centre (bishops also the long diagonals), pawns gain as
//!   they advance and like the centre files early, rooks like the 7th rank, the queen mildly
//!   prefers the centre, the king stays home behind its pawns in the middlegame and walks to
//!   the centre in the endgame. Material is folded into the same table.
//! - **Mobility**: per knight, bishop, rook and queen, the number of attacked squares not
//!   occupied by own pieces and not attacked by enemy pawns, through a concave per-type
//!   table (a trapped piece is bad, the tenth square matters less than the second).
//! - **Pawn structure** ([`pawns`]): isolated and doubled pawns are penalised, connected
//!   pawns rewarded; passed pawns get a bonus growing with rank (mostly in the endgame),
//!   plus endgame bonuses for a free path and for the enemy king being far from them.
//! - **King safety** (middlegame only): shelter from own pawns on the three files around a
//!   king on its first two ranks, and a king-attack bonus, quadratic in "attack units",
//!   when two or more pieces hit the squares around the enemy king.
//! - **Bishop pair**, **rooks and queens on open / semi-open files**.
//! - **Tempo**: a small bonus for the side to move.
//! - **Drawish scaling**: without pawns a lone minor cannot win and a one-minor advantage
//!   rarely does; lone opposite-coloured bishops halve the advantage.
//!
//! The middlegame and endgame halves are blended by the game phase (non-pawn material:
//! N = B = 1, R = 2, Q = 4, 24 = all pieces on the board).
//!
//! Everything is computed from scratch from the board's bitboards, with no allocation.

pub mod params;
pub mod pawns;
pub mod psqt;
pub mod score;

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::tables;
use crate::types::{Color, Piece, Rank, Square};
use params::*;
use psqt::PSQT;
pub use score::S;

/// One side's pieces, in that side's own frame: for black every bitboard is flipped
/// vertically so that its pawns move up the board, as white's do.
#[derive(Copy, Clone)]
pub struct Side {
    pub pawns: Bitboard,
    pub knights: Bitboard,
    pub bishops: Bitboard,
    pub rooks: Bitboard,
    pub queens: Bitboard,
    pub king: Square,
    pub all: Bitboard,
    /// Files holding at least one of these pawns (the same in both frames).
    pub pawn_files: u64,
}

impl Side {
    /// The pieces of `c`, in white's (unflipped) frame.
    #[inline(always)]
    fn new(board: &Board, c: Color) -> Side {
        Side {
            pawns: board.colored(c, Piece::Pawn),
            knights: board.colored(c, Piece::Knight),
            bishops: board.colored(c, Piece::Bishop),
            rooks: board.colored(c, Piece::Rook),
            queens: board.colored(c, Piece::Queen),
            king: board.king_sq(c),
            all: board.color(c),
            pawn_files: pawns::file_fill(board.colored(c, Piece::Pawn).raw()),
        }
    }

    /// The same pieces mirrored vertically (black's frame).
    #[inline(always)]
    fn flipped(&self) -> Side {
        Side {
            pawns: self.pawns.flip_vertical(),
            knights: self.knights.flip_vertical(),
            bishops: self.bishops.flip_vertical(),
            rooks: self.rooks.flip_vertical(),
            queens: self.queens.flip_vertical(),
            king: self.king.flip_rank(),
            all: self.all.flip_vertical(),
            pawn_files: self.pawn_files,
        }
    }
}

/// Game phase from non-pawn material: 24 with all pieces on the board, 0 with none
/// (capped at 24, so extra promoted pieces cannot push it beyond a full middlegame).
#[inline(always)]
pub fn phase(board: &Board) -> i32 {
    let minors = (board.pieces(Piece::Knight) | board.pieces(Piece::Bishop)).count() as i32;
    let p = minors * PHASE_WEIGHT[Piece::Knight.index()]
        + board.pieces(Piece::Rook).count() as i32 * PHASE_WEIGHT[Piece::Rook.index()]
        + board.pieces(Piece::Queen).count() as i32 * PHASE_WEIGHT[Piece::Queen.index()];
    p.min(PHASE_TOTAL)
}

/// The evaluation from the side to move's point of view (positive = good for it), in
/// centipawns, including the tempo bonus.
#[inline]
pub fn evaluate(board: &Board) -> i32 {
    let v = evaluate_white(board);
    let v = if board.side_to_move() == Color::White { v } else { -v };
    v + TEMPO
}

/// The evaluation from white's point of view, without tempo.
///
/// Portable builds (no `target-cpu`) lack the `popcnt` instruction, and the evaluation
/// counts bits a lot (mobility, pawn terms); so on x86-64 the same code is also compiled
/// with `popcnt` enabled and picked at run time when the CPU has it (it always does on
/// anything from the last fifteen years). The detection result is cached by std.
#[inline]
pub fn evaluate_white(board: &Board) -> i32 {
    #[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
    {
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU supports popcnt, checked just above.
            return unsafe { evaluate_white_popcnt(board) };
        }
    }
    evaluate_white_impl(board)
}

#[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
#[target_feature(enable = "popcnt")]
unsafe fn evaluate_white_popcnt(board: &Board) -> i32 {
    evaluate_white_impl(board)
}

#[inline(always)]
fn evaluate_white_impl(board: &Board) -> i32 {
    let white = Side::new(board, Color::White);
    let black = Side::new(board, Color::Black);
    // Black is scored in its own (flipped) frame, against white as seen from there.
    let s = side_score(&white, &black) - side_score(&black.flipped(), &white.flipped());
    let v = s.taper(phase(board), PHASE_TOTAL);
    if v == 0 {
        return 0;
    }
    let strong = if v > 0 { Color::White } else { Color::Black };
    let f = scale_factor(board, strong);
    if f == SCALE_NORMAL {
        v
    } else {
        v * f / SCALE_NORMAL
    }
}

/// Sum of material + placement of one piece set.
#[inline(always)]
fn psqt_sum(p: Piece, set: Bitboard) -> S {
    let mut s = S::ZERO;
    for sq in set {
        s += PSQT[p.index()][sq.index()];
    }
    s
}

/// Everything scored for `us` (in its own frame, moving up) against `them` (same frame).
#[inline(always)]
fn side_score(us: &Side, them: &Side) -> S {
    let occ = us.all | them.all;
    // Material and placement of pawns and king here; the other pieces in the loop below.
    let mut s = psqt_sum(Piece::Pawn, us.pawns) + PSQT[Piece::King.index()][us.king.index()];

    // Mobility: squares a piece attacks that are neither occupied by our own pieces nor
    // attacked by enemy pawns (moving there would just lose the piece), counted per piece
    // and looked up in a concave per-type table.
    //
    // King attack, gathered in the same loop: pieces hitting the enemy king zone.
    let area = !(us.all | Bitboard::from_raw(pawns::attacks_down(them.pawns.raw())));
    let zone = tables::king_attacks(them.king) | them.king.bb();
    let mut attackers = 0;
    let mut units = 0;
    macro_rules! piece_terms {
        ($set:expr, $piece:expr, $table:expr, $attacks:expr) => {
            for sq in $set {
                s += PSQT[$piece.index()][sq.index()];
                let att: Bitboard = $attacks(sq);
                s += $table[(att & area).count() as usize];
                // Branch-free: whether a piece hits the zone is hard to predict.
                let hits = (att & zone).count() as i32;
                let touches = (hits != 0) as i32;
                attackers += touches;
                units += touches * KING_ATTACK_WEIGHT[$piece.index()] + hits;
            }
        };
    }
    piece_terms!(us.knights, Piece::Knight, KNIGHT_MOBILITY, tables::knight_attacks);
    piece_terms!(us.bishops, Piece::Bishop, BISHOP_MOBILITY, |sq| tables::bishop_attacks(sq, occ));
    piece_terms!(us.rooks, Piece::Rook, ROOK_MOBILITY, |sq| tables::rook_attacks(sq, occ));
    piece_terms!(us.queens, Piece::Queen, QUEEN_MOBILITY, |sq| tables::queen_attacks(sq, occ));

    // King attack: only a coordinated attack (two or more pieces) counts; the bonus grows
    // quadratically with the attack units and is a middlegame term only.
    if attackers >= KING_ATTACK_MIN_ATTACKERS {
        s += S((units * units * KING_ATTACK_SCALE / 16).min(KING_ATTACK_MAX), 0);
    }

    // Bishop pair: two bishops cover both square colours and grow stronger as the board
    // opens up (bigger in the endgame).
    if us.bishops.several() {
        s += BISHOP_PAIR;
    }

    // Rooks (and, less, queens) on files without own pawns: open (no pawns at all) or
    // semi-open (only enemy pawns, which the rook can attack).
    if (us.rooks | us.queens).any() {
        let (own_files, their_files) = (us.pawn_files, them.pawn_files);
        for sq in us.rooks {
            let b = sq.bb().raw();
            if b & own_files == 0 {
                s += if b & their_files == 0 { ROOK_OPEN_FILE } else { ROOK_SEMI_OPEN_FILE };
            }
        }
        for sq in us.queens {
            let b = sq.bb().raw();
            if b & own_files == 0 {
                s += if b & their_files == 0 { QUEEN_OPEN_FILE } else { QUEEN_SEMI_OPEN_FILE };
            }
        }
    }

    s += king_shelter(us);
    s += pawns::pawn_structure(us, them, occ);
    s
}

/// King shelter (middlegame only): while the king is on its first two ranks, each of the
/// files around it (its own file and the neighbours) is checked for an own pawn in front
/// of the king: one rank ahead is best, two ranks ahead is good, a pawn pushed further is
/// a small minus and no pawn at all on that file ahead of the king is penalised (an open
/// line towards the king).
#[inline(always)]
fn king_shelter(us: &Side) -> S {
    let k = us.king;
    let kr = k.rank().index() as u8;
    if kr > SHELTER_MAX_KING_RANK {
        return S::ZERO;
    }
    // Branch-free, with popcounts over the (two or three) files around the king.
    let ahead = !0u64 << (8 * (kr as u32 + 1));
    let kfile = Bitboard::file(k.file()).raw();
    let files = kfile | pawns::west(kfile) | pawns::east(kfile);
    let shield = us.pawns.raw() & files & ahead;
    let one = shield & Bitboard::rank(Rank::from_index(kr as usize + 1)).raw();
    let two = shield & Bitboard::rank(Rank::from_index(kr as usize + 2)).raw() & !(one << 8);
    let covered = (pawns::south_fill(shield) & Bitboard::RANK_1.raw()).count_ones() as i32;
    let n_files = (files & Bitboard::RANK_1.raw()).count_ones() as i32;
    let (n1, n2) = (one.count_ones() as i32, two.count_ones() as i32);
    let mg = n1 * SHELTER_ONE_AHEAD
        + n2 * SHELTER_TWO_AHEAD
        + (covered - n1 - n2) * SHELTER_FAR
        + (n_files - covered) * SHELTER_MISSING;
    S(mg, 0)
}

/// Non-pawn material of one side, in middlegame units.
#[inline(always)]
fn non_pawn_material(board: &Board, c: Color) -> i32 {
    let mut m = 0;
    for p in [Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen] {
        m += board.colored(c, p).count() as i32 * MATERIAL[p.index()].mg();
    }
    m
}

/// Drawish-endgame scaling, out of `SCALE_NORMAL`, for an advantage of `strong`:
/// without pawns, a side with a single minor piece cannot win at all, two knights
/// (practically) cannot, and being at most a minor piece ahead (rook v minor, rook+minor v
/// rook, ...) is usually a draw. Lone opposite-coloured bishops halve the advantage.
#[inline(always)]
fn scale_factor(board: &Board, strong: Color) -> i32 {
    let weak = strong.flip();
    if board.colored(strong, Piece::Pawn).is_empty() {
        let heavy = board.colored(strong, Piece::Rook) | board.colored(strong, Piece::Queen);
        let knights = board.colored(strong, Piece::Knight);
        let bishops = board.colored(strong, Piece::Bishop);
        if heavy.is_empty() {
            if (knights | bishops).count() <= 1 {
                return SCALE_CANNOT_WIN;
            }
            if bishops.is_empty() && knights.count() <= 2 {
                return SCALE_ONLY_KNIGHTS;
            }
        }
        if non_pawn_material(board, strong) - non_pawn_material(board, weak) <= SCALE_MINOR_MARGIN {
            return SCALE_MINOR_UP_NO_PAWNS;
        }
    }
    let bishops = board.pieces(Piece::Bishop);
    let others = board.pieces(Piece::Knight) | board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
    if others.is_empty()
        && board.colored(strong, Piece::Bishop).count() == 1
        && board.colored(weak, Piece::Bishop).count() == 1
    {
        const DARK: u64 = 0xAA55_AA55_AA55_AA55;
        let dark = bishops.raw() & DARK;
        if dark != 0 && dark != bishops.raw() {
            return SCALE_OPPOSITE_BISHOPS;
        }
    }
    SCALE_NORMAL
}
