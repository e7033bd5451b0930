//! Every evaluation weight, in one place.
//!
//! Values are `S(mg, eg)` pairs: the middlegame and endgame halves of a tapered score, in
//! centipawns. All numbers here are hand-chosen for Horizon (rough, untuned starting
//! points); the piece-square tables are *built* from the small per-file / per-rank arrays
//! below by `psqt.rs`, not written out square by square.
//!
//! Conventions: ranks are "relative" (0 = own back rank, 6 = the 7th rank from the owner's
//! side); "edge distance" of a file or rank is `min(x, 7 - x)`, 0 on the rim, 3 in the centre.

use super::score::S;

// ---- material ------------------------------------------------------------------------------

/// Piece values indexed by `Piece::index()` (the king's value is unused: always present).
/// Pawns gain a little in the endgame, minors lose a little, rooks and queens gain.
pub const MATERIAL: [S; 6] = [
    S(100, 122), // pawn
    S(320, 305), // knight
    S(332, 325), // bishop
    S(495, 545), // rook
    S(960, 1010), // queen
    S(0, 0),     // king
];

/// Game-phase weight of each piece (pawns and kings count nothing); 24 = full middlegame.
pub const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
pub const PHASE_TOTAL: i32 = 24;

// ---- piece-square table ingredients -----------------------------------------------------

/// Pawn bonus by relative rank (rank 0 and 7 never hold pawns).
pub const PAWN_RANK: [S; 8] =
    [S(0, 0), S(0, 0), S(2, 4), S(6, 10), S(12, 20), S(20, 34), S(30, 50), S(0, 0)];
/// Middlegame bonus for pawns on the central files (by file edge distance), applied on
/// relative ranks 2..=4 only: occupy the centre, don't rush the wing pawns.
pub const PAWN_CENTER_FILE_MG: [i32; 4] = [-4, 0, 6, 14];
/// Penalty for an unmoved centre pawn (d2/e2), which blocks the bishops.
pub const PAWN_CENTER_UNMOVED_MG: i32 = -8;

/// Knight: by file edge distance and by relative rank (hand-written, additive).
pub const KNIGHT_FILE: [S; 4] = [S(-22, -20), S(-6, -6), S(4, 4), S(10, 8)];
pub const KNIGHT_RANK: [S; 8] =
    [S(-18, -16), S(-6, -6), S(2, 2), S(8, 8), S(14, 10), S(18, 8), S(8, 0), S(-12, -12)];

/// Bishop: centralisation by file and rank edge distance, bonus on the two long diagonals,
/// small penalty for staying on the back rank (undeveloped) in the middlegame.
pub const BISHOP_EDGE: [S; 4] = [S(-8, -10), S(-2, -3), S(2, 3), S(5, 6)];
pub const BISHOP_LONG_DIAGONAL: S = S(10, 4);
pub const BISHOP_BACK_RANK_MG: i32 = -10;

/// Rook: 7th-rank bonus, slight preference for central files in the middlegame.
pub const ROOK_SEVENTH: S = S(20, 24);
pub const ROOK_FILE_MG: [i32; 4] = [-4, 0, 3, 6];

/// Queen: mild centralisation (by file and rank edge distance); early queen sorties are
/// left to the search and mobility to sort out.
pub const QUEEN_EDGE: [S; 4] = [S(-4, -10), S(-1, -3), S(1, 3), S(3, 8)];

/// King, middlegame: stay home (by relative rank) and on the castled wings (by file).
pub const KING_RANK_MG: [i32; 8] = [0, -18, -40, -60, -72, -80, -80, -80];
pub const KING_FILE_MG: [i32; 8] = [14, 24, 6, -10, -10, 6, 24, 14];
/// King, endgame: centralisation per unit of (file + rank) edge distance, centred on zero.
pub const KING_CENTER_EG: i32 = 9;

// ---- mobility --------------------------------------------------------------------------

/// Mobility by number of reachable squares (not own-occupied, not attacked by enemy pawns).
/// Concave: the first few squares matter most.
pub const KNIGHT_MOBILITY: [S; 9] = [
    S(-32, -40), S(-16, -22), S(-5, -9), S(0, -1), S(5, 5), S(10, 10), S(14, 14), S(17, 17),
    S(19, 19),
];
pub const BISHOP_MOBILITY: [S; 14] = [
    S(-28, -38), S(-14, -20), S(-3, -7), S(4, 2), S(10, 9), S(15, 15), S(19, 20), S(22, 24),
    S(25, 28), S(27, 31), S(29, 33), S(31, 35), S(33, 37), S(35, 39),
];
pub const ROOK_MOBILITY: [S; 15] = [
    S(-22, -42), S(-13, -22), S(-7, -7), S(-3, 3), S(0, 12), S(3, 20), S(6, 27), S(9, 33),
    S(11, 38), S(13, 42), S(15, 46), S(17, 49), S(18, 51), S(19, 53), S(20, 55),
];
pub const QUEEN_MOBILITY: [S; 28] = [
    S(-20, -36), S(-14, -26), S(-9, -18), S(-5, -11), S(-2, -5), S(0, 0), S(2, 4), S(4, 8),
    S(6, 12), S(8, 15), S(9, 18), S(10, 21), S(11, 23), S(12, 25), S(13, 27), S(14, 29),
    S(15, 30), S(16, 31), S(17, 32), S(17, 33), S(18, 34), S(18, 35), S(19, 36), S(19, 37),
    S(20, 38), S(20, 38), S(21, 39), S(21, 39),
];

// ---- pawn structure ---------------------------------------------------------------------

/// Passed pawn by relative rank: grows with advancement, much bigger in the endgame.
pub const PASSED_RANK: [S; 8] =
    [S(0, 0), S(2, 8), S(4, 12), S(10, 22), S(24, 42), S(44, 74), S(70, 118), S(0, 0)];
/// Endgame: per square of enemy-king distance to the pawn's stop square, times the rank
/// weight below (the enemy king far away is good).
pub const PASSED_THEIR_KING_DIST_EG: i32 = 5;
/// Endgame: per square of own-king distance to the stop square, times the rank weight.
pub const PASSED_OUR_KING_DIST_EG: i32 = 2;
/// How much the king-distance terms count by relative rank of the pawn.
pub const PASSED_KING_RANK_WEIGHT: [i32; 8] = [0, 0, 0, 1, 2, 3, 5, 0];
/// Endgame bonus by rank when no piece at all stands on the pawn's path to promotion.
pub const PASSED_FREE_PATH_EG: [i32; 8] = [0, 0, 2, 5, 10, 18, 30, 0];

/// No own pawn on either neighbouring file.
pub const ISOLATED: S = S(-10, -14);
/// Per pawn with another own pawn behind it on the same file.
pub const DOUBLED: S = S(-8, -20);
/// Pawn defended by an own pawn, or standing beside one (phalanx).
pub const CONNECTED: S = S(6, 5);

// ---- king safety ------------------------------------------------------------------------

/// Middlegame shelter, for each of the (up to three) files around the king: an own pawn
/// one rank in front of the king, two ranks in front, further (pushed away), or none on that
/// file in front of the king at all.
pub const SHELTER_ONE_AHEAD: i32 = 16;
pub const SHELTER_TWO_AHEAD: i32 = 8;
pub const SHELTER_FAR: i32 = -6;
pub const SHELTER_MISSING: i32 = -20;
/// Shelter only counts while the king is on its first two relative ranks.
pub const SHELTER_MAX_KING_RANK: u8 = 1;

/// King attack: each non-pawn piece whose attacks touch the enemy king zone (king square
/// plus its neighbours) adds its weight in "attack units", and each attacked zone square
/// adds one more unit. With at least two attackers the middlegame bonus is
/// `units² * KING_ATTACK_SCALE / 16`, capped at `KING_ATTACK_MAX`.
pub const KING_ATTACK_WEIGHT: [i32; 6] = [0, 2, 2, 3, 5, 0];
pub const KING_ATTACK_SCALE: i32 = 3;
pub const KING_ATTACK_MAX: i32 = 400;
pub const KING_ATTACK_MIN_ATTACKERS: i32 = 2;

// ---- pieces -----------------------------------------------------------------------------

pub const BISHOP_PAIR: S = S(28, 48);
pub const ROOK_OPEN_FILE: S = S(26, 10);
pub const ROOK_SEMI_OPEN_FILE: S = S(12, 6);
pub const QUEEN_OPEN_FILE: S = S(6, 4);
pub const QUEEN_SEMI_OPEN_FILE: S = S(3, 2);

/// Bonus for the side to move (added after tapering).
pub const TEMPO: i32 = 14;

// ---- endgame scaling (factors out of SCALE_NORMAL) --------------------------------------

pub const SCALE_NORMAL: i32 = 64;
/// Stronger side has no pawns and at most a minor piece of non-pawn material: cannot mate.
pub const SCALE_CANNOT_WIN: i32 = 0;
/// Stronger side has no pawns, only knights (two knights cannot force mate).
pub const SCALE_ONLY_KNIGHTS: i32 = 4;
/// Stronger side has no pawns and is at most a minor piece ahead (KRKB, KRNKR, ...).
pub const SCALE_MINOR_UP_NO_PAWNS: i32 = 12;
/// Lone opposite-coloured bishops (plus pawns).
pub const SCALE_OPPOSITE_BISHOPS: i32 = 32;
/// "At most a minor ahead" threshold, in middlegame material units.
pub const SCALE_MINOR_MARGIN: i32 = 340;
