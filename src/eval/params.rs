//! The evaluation's fixed constants: the numbers that shape how terms combine rather than
//! how much a feature is worth. They are hand-set and *not* tuned (the tuned weights live in
//! [`super::weights`]); each says why it stays fixed.

/// Game-phase weight of each piece, indexed by `Piece::index()` (pawns and kings count
/// nothing); all pieces on the board make `PHASE_TOTAL`, the pure middlegame. This is the
/// usual fixed definition of "how much material is left"; tuning it would make every
/// middlegame/endgame pair depend on it.
pub const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
pub const PHASE_TOTAL: i32 = 24;

/// King safety counts only when at least this many of our pieces (knights, bishops, rooks,
/// queens) attack the enemy king zone: a lone attacker is rarely dangerous. A structural
/// gate, not a weight (the tuner fits the weights of the units inside it).
pub const KING_ATTACK_MIN_ATTACKERS: i32 = 2;

/// King danger "units" (a linear sum of tuned weights, see `king.rs`) become a bonus for the
/// attacker of `max(units.mg, 0)² / KING_DANGER_MG_DIV` in the middlegame and
/// `units.eg / KING_DANGER_EG_DIV` in the endgame. The divisors only fix the scale of the unit
/// weights, so they are not tuned.
pub const KING_DANGER_MG_DIV: i32 = 256;
pub const KING_DANGER_EG_DIV: i32 = 16;

/// Scale factors are out of `SCALE_NORMAL` (no scaling).
pub const SCALE_NORMAL: i32 = 64;
/// The stronger side has no pawns and at most one minor piece: it cannot mate, whatever the
/// data says, so this factor is fixed at zero.
pub const SCALE_CANNOT_WIN: i32 = 0;
/// "At most a minor piece ahead" in non-pawn material, in nominal centipawns
/// (`Piece::nominal_value`: a minor is 300, rook against minor 200). Compared with fixed
/// values, not the tuned `MATERIAL`, so that retuning cannot move a rule about which
/// endings are drawn.
pub const SCALE_MINOR_MARGIN: i32 = 300;

/// The pawn hash table of each search thread: 2^13 entries of 32 bytes (256 KB), small
/// enough to stay in the L2 cache. The `bench` statistics line reports its hit rate.
pub const PAWN_TABLE_BITS: u32 = 13;
