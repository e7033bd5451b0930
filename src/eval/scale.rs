//! Endgame scaling: material situations where the side ahead often cannot win, so its
//! advantage is scaled down (a factor out of [`SCALE_NORMAL`]).
//!
//! Which case applies depends only on the material of the side ahead (`strong`) and the other
//! side, so the evaluation first tapers the score, then asks for the factor of whichever side
//! the score favours. The factors of the cases the data can speak to are tuned weights
//! (`weights::SCALE_*`); the two fixed ones are facts (no scaling, and "cannot mate").
//!
//! How the tuner handles this non-linear step: the evaluation is `taper(weights · features)
//! × factor / 64`, linear in the weights for a fixed factor and linear in the factor for fixed
//! weights. The trace records the case for both possible strong sides; every time the tuner
//! evaluates a position it picks the case by the sign of the current tapered score (exactly as
//! the engine does) and uses the current factor, and the gradient flows to the weights through
//! `factor / 64` and to the factor through `taper(...) / 64`.

use super::params::*;
use super::weights;
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::types::{Color, Piece};

/// A material situation with its own scale factor.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
#[repr(u8)]
pub enum ScaleCase {
    /// Nothing special: the advantage counts in full.
    Normal,
    /// The side ahead has no pawns and at most one minor piece.
    CannotWin,
    /// The side ahead has no pawns and only one or two knights.
    OnlyKnights,
    /// The side ahead has no pawns and is at most a minor piece up (KRKB, KRNKR, ...).
    MinorUpNoPawns,
    /// Only one bishop each, on opposite colours, and pawns.
    OppositeBishops,
    /// One bishop each, on opposite colours, with the same other pieces on both sides.
    OppositeBishopsPieces,
    /// The side ahead has a single pawn, the other side has pieces, and the non-pawn material
    /// is at most a minor apart (KRPKR, KBPKN, ...).
    OnePawn,
    /// The same with two pawns.
    TwoPawns,
}

impl ScaleCase {
    pub const ALL: [ScaleCase; 8] = [
        ScaleCase::Normal,
        ScaleCase::CannotWin,
        ScaleCase::OnlyKnights,
        ScaleCase::MinorUpNoPawns,
        ScaleCase::OppositeBishops,
        ScaleCase::OppositeBishopsPieces,
        ScaleCase::OnePawn,
        ScaleCase::TwoPawns,
    ];
    /// The cases whose factor the tuner fits.
    pub const TUNED: [ScaleCase; 6] = [
        ScaleCase::OnlyKnights,
        ScaleCase::MinorUpNoPawns,
        ScaleCase::OppositeBishops,
        ScaleCase::OppositeBishopsPieces,
        ScaleCase::OnePawn,
        ScaleCase::TwoPawns,
    ];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    pub fn from_index(i: usize) -> Option<ScaleCase> {
        ScaleCase::ALL.get(i).copied()
    }

    /// The factor compiled into this build, out of `SCALE_NORMAL`.
    #[inline(always)]
    pub const fn factor(self) -> i32 {
        match self {
            ScaleCase::Normal => SCALE_NORMAL,
            ScaleCase::CannotWin => SCALE_CANNOT_WIN,
            ScaleCase::OnlyKnights => weights::SCALE_ONLY_KNIGHTS,
            ScaleCase::MinorUpNoPawns => weights::SCALE_MINOR_UP_NO_PAWNS,
            ScaleCase::OppositeBishops => weights::SCALE_OPPOSITE_BISHOPS,
            ScaleCase::OppositeBishopsPieces => weights::SCALE_OPPOSITE_BISHOPS_PIECES,
            ScaleCase::OnePawn => weights::SCALE_ONE_PAWN,
            ScaleCase::TwoPawns => weights::SCALE_TWO_PAWNS,
        }
    }

    /// One line saying when the case applies (written above its constant in `weights.rs`).
    pub const fn description(self) -> &'static str {
        match self {
            ScaleCase::Normal => "Nothing special: the advantage counts in full.",
            ScaleCase::CannotWin => "The side ahead has no pawns and at most one minor piece.",
            ScaleCase::OnlyKnights => "The side ahead has no pawns and only one or two knights.",
            ScaleCase::MinorUpNoPawns => "The side ahead has no pawns and is at most a minor piece up.",
            ScaleCase::OppositeBishops => "Only one bishop each, on opposite colours, and pawns.",
            ScaleCase::OppositeBishopsPieces => {
                "One bishop each on opposite colours, the same other pieces on both sides."
            }
            ScaleCase::OnePawn => "The side ahead has one pawn, the other has pieces, material within a minor.",
            ScaleCase::TwoPawns => "The side ahead has two pawns, the other has pieces, material within a minor.",
        }
    }

    /// The name of the factor's constant in `weights.rs` (or `params.rs` for fixed ones).
    pub const fn const_name(self) -> &'static str {
        match self {
            ScaleCase::Normal => "SCALE_NORMAL",
            ScaleCase::CannotWin => "SCALE_CANNOT_WIN",
            ScaleCase::OnlyKnights => "SCALE_ONLY_KNIGHTS",
            ScaleCase::MinorUpNoPawns => "SCALE_MINOR_UP_NO_PAWNS",
            ScaleCase::OppositeBishops => "SCALE_OPPOSITE_BISHOPS",
            ScaleCase::OppositeBishopsPieces => "SCALE_OPPOSITE_BISHOPS_PIECES",
            ScaleCase::OnePawn => "SCALE_ONE_PAWN",
            ScaleCase::TwoPawns => "SCALE_TWO_PAWNS",
        }
    }
}

/// Non-pawn material of one side, in nominal centipawns (`Piece::nominal_value`).
#[inline(always)]
fn non_pawn_material(board: &Board, c: Color) -> i32 {
    [Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen]
        .into_iter()
        .map(|p| board.colored(c, p).count() as i32 * p.nominal_value())
        .sum()
}

/// The scaling case for an advantage of `strong`. The first matching rule wins:
///
/// 1. `strong` has no pawns: with at most one minor it cannot mate; knights alone
///    (practically) cannot; being at most a minor piece ahead is usually a draw.
/// 2. One bishop each on opposite colours: alone with pawns the weaker side blockades the
///    squares of its bishop's colour; with identical other pieces still drawish.
/// 3. `strong` has one or two pawns, the other side has pieces, and the non-pawn material is
///    at most a minor apart: the pawns can often be given up for a piece or held.
#[inline(always)]
pub fn scale_case(board: &Board, strong: Color) -> ScaleCase {
    let weak = strong.flip();
    let strong_pawns = board.colored(strong, Piece::Pawn).count();
    let margin = || non_pawn_material(board, strong) - non_pawn_material(board, weak);
    if strong_pawns == 0 {
        let heavy = board.colored(strong, Piece::Rook) | board.colored(strong, Piece::Queen);
        let knights = board.colored(strong, Piece::Knight);
        let bishops = board.colored(strong, Piece::Bishop);
        if heavy.is_empty() {
            if (knights | bishops).count() <= 1 {
                return ScaleCase::CannotWin;
            }
            if bishops.is_empty() && knights.count() <= 2 {
                return ScaleCase::OnlyKnights;
            }
        }
        if margin() <= SCALE_MINOR_MARGIN {
            return ScaleCase::MinorUpNoPawns;
        }
    }
    let (sb, wb) = (board.colored(strong, Piece::Bishop), board.colored(weak, Piece::Bishop));
    if sb.count() == 1 && wb.count() == 1 {
        let (s_dark, w_dark) = ((sb & Bitboard::DARK).any(), (wb & Bitboard::DARK).any());
        if s_dark != w_dark {
            let others = board.pieces(Piece::Knight) | board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
            if others.is_empty() {
                return ScaleCase::OppositeBishops;
            }
            let same = [Piece::Knight, Piece::Rook, Piece::Queen]
                .iter()
                .all(|&p| board.colored(strong, p).count() == board.colored(weak, p).count());
            if same {
                return ScaleCase::OppositeBishopsPieces;
            }
        }
    }
    if (1..=2).contains(&strong_pawns) && non_pawn_material(board, weak) > 0 && margin() <= SCALE_MINOR_MARGIN {
        return if strong_pawns == 1 { ScaleCase::OnePawn } else { ScaleCase::TwoPawns };
    }
    ScaleCase::Normal
}
