//! What every evaluation term works with: one side's pieces in its own frame ([`Side`]), what
//! it attacks ([`Attacks`]), and the running sums the terms add to ([`Acc`]).

use super::score::S;
use super::trace::Tracer;
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::types::{Color, Piece, Square};

/// One side's pieces in its own frame: for black every bitboard is flipped vertically so that
/// its pawns move up the board, as white's do.
#[derive(Copy, Clone)]
pub struct Side {
    pub pawns: Bitboard,
    pub knights: Bitboard,
    pub bishops: Bitboard,
    pub rooks: Bitboard,
    pub queens: Bitboard,
    pub king: Square,
    pub all: Bitboard,
}

impl Side {
    /// The pieces of `c`, in white's (unflipped) frame.
    #[inline(always)]
    pub(super) fn new(board: &Board, c: Color) -> Side {
        Side {
            pawns: board.colored(c, Piece::Pawn),
            knights: board.colored(c, Piece::Knight),
            bishops: board.colored(c, Piece::Bishop),
            rooks: board.colored(c, Piece::Rook),
            queens: board.colored(c, Piece::Queen),
            king: board.king_sq(c),
            all: board.color(c),
        }
    }

    /// The same pieces mirrored vertically (black's frame, or white seen from it).
    #[inline(always)]
    pub(super) fn flipped(&self) -> Side {
        Side {
            pawns: self.pawns.flip_vertical(),
            knights: self.knights.flip_vertical(),
            bishops: self.bishops.flip_vertical(),
            rooks: self.rooks.flip_vertical(),
            queens: self.queens.flip_vertical(),
            king: self.king.flip_rank(),
            all: self.all.flip_vertical(),
        }
    }

    /// The set of this side's pieces of type `p`.
    #[inline(always)]
    pub fn of(&self, p: Piece) -> Bitboard {
        match p {
            Piece::Pawn => self.pawns,
            Piece::Knight => self.knights,
            Piece::Bishop => self.bishops,
            Piece::Rook => self.rooks,
            Piece::Queen => self.queens,
            Piece::King => self.king.bb(),
        }
    }
}

/// What one side attacks, in its own frame, gathered while scoring its pieces and used by the
/// terms that look at both sides (threats, king danger, passed pawns).
#[derive(Copy, Clone, Default)]
pub struct Attacks {
    /// Squares attacked by our pieces of each type, by `Piece::index()`.
    pub by: [Bitboard; 6],
    /// Squares attacked by anything of ours.
    pub all: Bitboard,
    /// Squares attacked at least twice (two pawns, or two pieces, or a pawn and a piece).
    pub twice: Bitboard,
    /// Our knights, bishops, rooks and queens attacking the enemy king zone, by piece index.
    pub zone_attackers: [i32; 6],
    /// The attacks of those pieces on zone squares, summed over the pieces.
    pub zone_attacks: i32,
}

impl Attacks {
    /// The same attacks seen from the other side's frame.
    #[inline(always)]
    pub(super) fn flipped(&self) -> Attacks {
        let mut a = *self;
        for b in a.by.iter_mut() {
            *b = b.flip_vertical();
        }
        a.all = a.all.flip_vertical();
        a.twice = a.twice.flip_vertical();
        a
    }
}

/// The running sums of the side being scored: its score and its king-danger units (as the
/// attacker). Terms add to it through `term!` and `danger!`; `take` hands the sums over when
/// the side is done.
pub struct Acc<'t, T: Tracer> {
    score: S,
    danger: S,
    color: Color,
    pub(super) tracer: &'t mut T,
}

impl<'t, T: Tracer> Acc<'t, T> {
    #[inline(always)]
    pub(super) fn new(tracer: &'t mut T) -> Self {
        Acc { score: S::ZERO, danger: S::ZERO, color: Color::White, tracer }
    }

    /// Scores `c` from now on (call `take` first when switching from another side).
    #[inline(always)]
    pub(super) fn side(&mut self, c: Color) -> &mut Self {
        self.color = c;
        self
    }

    /// The score gathered since the last `take`; starts the next side from zero.
    #[inline(always)]
    pub(super) fn take(&mut self) -> S {
        let s = self.score;
        self.score = S::ZERO;
        self.danger = S::ZERO;
        s
    }

    /// `n` counts of weight `w` (flat index `index`) for the side being scored.
    #[inline(always)]
    pub fn add(&mut self, index: usize, w: S, n: i32) {
        let added = w * n;
        self.score += added;
        if T::ON {
            self.tracer.linear(self.color, index, n, added);
        }
    }

    /// `n` counts of king-danger unit weight `w` for the side being scored (the attacker).
    #[inline(always)]
    pub fn add_danger(&mut self, index: usize, w: S, n: i32) {
        self.danger += w * n;
        if T::ON {
            self.tracer.danger(self.color, index, n);
        }
    }

    /// The danger units the side being scored has gathered so far.
    #[inline(always)]
    pub fn danger_units(&self) -> S {
        self.danger
    }

    /// Adds the (non-linear) king-danger bonus of the side being scored.
    #[inline(always)]
    pub fn add_danger_bonus(&mut self, bonus: S) {
        self.score += bonus;
        if T::ON {
            self.tracer.danger_bonus(self.color, self.danger, bonus);
        }
    }
}
