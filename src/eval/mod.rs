//! Static evaluation: tapered (middlegame/endgame), linear in named, tuned weights, and
//! written once for both the engine and the tuner; and, in [`nnue`], the neural network
//! evaluation. Which of the two a search uses is its caller's choice, by default the
//! network ([`USE_NNUE_BY_DEFAULT`]). The rest of this page is about the classical one.
//!
//! # Shape
//! The score is a sum of `weight × feature count` over named weights ([`weights`], listed and
//! documented in [`layout`]), each weight an `S(mg, eg)` pair. Every term adds its weight
//! through the `term!` macro, which names the weight at the place the feature is computed:
//! `term!(acc, PASSED_RANK[r], 1)` adds `weights::PASSED_RANK[r]` and, when tracing, records
//! one count of flat weight `layout::PASSED_RANK + r`. Two steps are not linear, and both are
//! handled exactly by the tuner (see their modules): king danger ([`king`]: a linear sum of
//! "units" put through `max(u,0)²` in the middlegame) and endgame scaling ([`scale`]).
//!
//! Each side is scored in its own frame ([`Side`]): black's bitboards are mirrored vertically
//! so that every side "moves up" and one set of tables and code serves both colours. White's
//! sum minus black's is blended by the game phase, scaled in drawish material situations, and
//! returned from the point of view the caller asks for. Because both colours go through
//! identical code, the evaluation is exactly colour-symmetric:
//! `evaluate(b) == evaluate(&b.mirrored())`.
//!
//! # One code, two instantiations
//! The evaluation is generic over a [`Tracer`]. The engine uses [`NoTrace`], whose methods are
//! empty and whose `ON` is `false`, so every tracing branch compiles away. The tuner uses
//! [`trace::Trace`], which records, per weight, white's count minus black's, plus the phase,
//! the king-danger features of each side and the scale case of each possible strong side. A
//! test checks that `weights · trace` reproduces the engine's value on every position of a
//! sample, naming the term on a mismatch.
//!
//! # Terms
//! - **Material and placement**: piece values and full 64-square middlegame/endgame tables.
//! - **Pawn structure** ([`pawns`], cached in a [`PawnTable`]): isolated, doubled, backward and
//!   connected pawns, passed pawns by rank.
//! - **Mobility** ([`pieces`]): per piece type, by the number of squares it attacks that hold no
//!   own piece and are not attacked by enemy pawns.
//! - **Passed pawns** ([`passed`]): king distances to the stop square, a free path, a safe stop
//!   square, a blockader, each by rank.
//! - **King safety** ([`king`]): pawn shelter; king danger from attackers by type, attacks on
//!   the king zone, weak zone squares, safe and unsafe checks.
//! - **Threats** ([`threats`]): pieces attacked by pawns, by minors, by rooks, by the king, and
//!   hanging pieces.
//! - **Pieces**: bishop pair, rooks and queens on open and semi-open files.
//! - **Tempo**: the side to move.
//! - **Endgame scaling** ([`scale`]): pawnless endings, opposite bishops, one or two pawns.
//!
//! The middlegame and endgame halves are blended by the game phase (non-pawn material:
//! N = B = 1, R = 2, Q = 4, 24 = all pieces on the board). Nothing is allocated.

/// Adds `weights::NAME` (or `weights::NAME[i]`) `n` times to the side being scored and, when
/// tracing, records `n` counts of its flat index. The weight is named where its feature is
/// computed, so the code of a term and its weight read together.
macro_rules! term {
    ($acc:expr, $name:ident, $n:expr) => {
        $acc.add($crate::eval::layout::$name, $crate::eval::weights::$name, $n)
    };
    ($acc:expr, $name:ident[$i:expr], $n:expr) => {{
        let i: usize = $i;
        $acc.add($crate::eval::layout::$name + i, $crate::eval::weights::$name[i], $n)
    }};
}

/// `term!` for a king-danger unit: adds to the side's danger units instead of its score.
macro_rules! danger {
    ($acc:expr, $name:ident, $n:expr) => {
        $acc.add_danger($crate::eval::layout::$name, $crate::eval::weights::$name, $n)
    };
    ($acc:expr, $name:ident[$i:expr], $n:expr) => {{
        let i: usize = $i;
        $acc.add_danger($crate::eval::layout::$name + i, $crate::eval::weights::$name[i], $n)
    }};
}

/// Whether the engine and its tools evaluate with the network ([`nnue`]) unless told
/// otherwise, rather than with this module's classical evaluation: the default of the UCI
/// option `UseNNUE` and of the commands' `--eval`. (The search itself evaluates with
/// whichever it is given: `Searcher::set_network`.)
pub const USE_NNUE_BY_DEFAULT: bool = true;

pub mod acc;
pub mod danger;
pub mod king;
pub mod layout;
pub mod nnue;
pub mod params;
pub mod passed;
pub mod pawn_table;
pub mod pawns;
pub mod pieces;
pub mod scale;
pub mod score;
pub mod taper;
pub mod threats;
pub mod trace;
pub mod wdl;
#[rustfmt::skip] // written by `horizon tune` in aligned tables
pub mod weights;

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::types::Color;
pub use acc::{Acc, Attacks, Side};
use params::*;
pub use pawn_table::PawnTable;
pub use score::S;
pub use taper::{finish, phase};
pub use trace::{NoTrace, Tracer};

/// The evaluation, from white's point of view, including the side to move's tempo.
///
/// 1. Both sides in their own frames, and each as the other sees it.
/// 2. Pawn structure, from the pawn hash table when one is given (and nothing is traced).
/// 3. First pass per side: material, placement, mobility, bishop pair, rook and queen files;
///    it also gathers what the side attacks.
/// 4. Second pass per side, with both sides' attacks known: passed pawns, king shelter and
///    danger, threats.
/// 5. Tempo, then phase blend and endgame scaling.
#[inline(always)]
fn evaluate_impl<T: Tracer>(board: &Board, table: Option<&mut PawnTable>, tracer: &mut T) -> i32 {
    // 1.
    let white = Side::new(board, Color::White);
    let black_seen_by_white = Side::new(board, Color::Black);
    let black = black_seen_by_white.flipped();
    let white_seen_by_black = white.flipped();
    let mut acc = Acc::new(tracer);

    // 2.
    let (mut s, passed) = match table {
        Some(table) if !T::ON => {
            let entry = table.probe(board.pawn_key(), || pawns::entry(&white, &black));
            (entry.score, entry.passed)
        }
        _ => pawns::evaluate(&white, &black, &mut acc),
    };

    // 3.
    let white_attacks = pieces::evaluate(&white, &black_seen_by_white, acc.side(Color::White));
    s += acc.take();
    let black_attacks = pieces::evaluate(&black, &white_seen_by_black, acc.side(Color::Black));
    s -= acc.take();

    // 4.
    let black_attacks_seen_by_white = black_attacks.flipped();
    second_pass(
        &white,
        &black_seen_by_white,
        passed[0],
        &white_attacks,
        &black_attacks_seen_by_white,
        acc.side(Color::White),
    );
    s += acc.take();
    let white_attacks_seen_by_black = white_attacks.flipped();
    second_pass(
        &black,
        &white_seen_by_black,
        passed[1],
        &black_attacks,
        &white_attacks_seen_by_black,
        acc.side(Color::Black),
    );
    s -= acc.take();

    // 5.
    let stm = board.side_to_move();
    term!(acc.side(stm), TEMPO, 1);
    s += acc.take() * stm.sign();
    let phase = phase(board);
    if T::ON {
        acc.tracer.total(s);
        acc.tracer.phase(phase);
        for c in Color::ALL {
            acc.tracer.scale(c, scale::scale_case(board, c));
        }
    }
    finish(s, phase, |strong| scale::scale_case(board, strong).factor())
}

/// The terms that need both sides' attacks, for `us` against `them` (our frame).
#[inline(always)]
fn second_pass<T: Tracer>(
    us: &Side,
    them: &Side,
    passed: Bitboard,
    ours: &Attacks,
    theirs: &Attacks,
    acc: &mut Acc<T>,
) {
    passed::evaluate(us, them, passed, theirs, acc);
    king::shelter(us, acc);
    king::danger(us, them, ours, theirs, acc);
    threats::evaluate(them, ours, theirs, acc);
}

/// `evaluate_impl`, compiled twice on x86-64 portable builds: plain, and with the `popcnt`
/// instruction enabled, picked at run time when the CPU has it (every x86-64 CPU of the last
/// fifteen years; std caches the detection). The evaluation counts bits a lot.
#[inline]
fn dispatch<T: Tracer>(board: &Board, table: Option<&mut PawnTable>, tracer: &mut T) -> i32 {
    #[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
    {
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU supports popcnt, checked just above.
            return unsafe { evaluate_popcnt(board, table, tracer) };
        }
    }
    evaluate_impl(board, table, tracer)
}

#[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
#[target_feature(enable = "popcnt")]
unsafe fn evaluate_popcnt<T: Tracer>(board: &Board, table: Option<&mut PawnTable>, tracer: &mut T) -> i32 {
    evaluate_impl(board, table, tracer)
}

/// The evaluation from the side to move's point of view (positive = good for it), in
/// centipawns, computed from scratch (no pawn hash table).
#[inline]
pub fn evaluate(board: &Board) -> i32 {
    to_side_to_move(board, evaluate_white(board))
}

/// The evaluation from white's point of view (tempo included), without a pawn hash table.
#[inline]
pub fn evaluate_white(board: &Board) -> i32 {
    dispatch(board, None, &mut NoTrace)
}

/// The evaluation from white's point of view, recording its features into `tracer`.
pub fn evaluate_traced<T: Tracer>(board: &Board, tracer: &mut T) -> i32 {
    dispatch(board, None, tracer)
}

#[inline(always)]
fn to_side_to_move(board: &Board, white_view: i32) -> i32 {
    if board.side_to_move() == Color::White {
        white_view
    } else {
        -white_view
    }
}

/// The engine's evaluator: the evaluation with a pawn hash table. Each search thread owns one.
pub struct Evaluator {
    pawns: PawnTable,
}

impl Default for Evaluator {
    fn default() -> Self {
        Evaluator::new()
    }
}

impl Evaluator {
    pub fn new() -> Evaluator {
        Evaluator::with_pawn_table_bits(PAWN_TABLE_BITS)
    }

    /// An evaluator whose pawn table has `2^bits` entries.
    pub fn with_pawn_table_bits(bits: u32) -> Evaluator {
        Evaluator { pawns: PawnTable::new(bits) }
    }

    /// The evaluation from the side to move's point of view; equal to [`evaluate`].
    #[inline]
    pub fn evaluate(&mut self, board: &Board) -> i32 {
        to_side_to_move(board, self.evaluate_white(board))
    }

    /// The evaluation from white's point of view; equal to [`evaluate_white`].
    #[inline]
    pub fn evaluate_white(&mut self, board: &Board) -> i32 {
        dispatch(board, Some(&mut self.pawns), &mut NoTrace)
    }

    /// The pawn hash table (for its hit statistics).
    pub fn pawn_table(&self) -> &PawnTable {
        &self.pawns
    }

    /// Empties the pawn hash table and zeroes its statistics.
    pub fn clear(&mut self) {
        self.pawns.clear();
    }
}
