//! The first layer's output, per perspective, and how it follows the moves of a search.
//!
//! An [`Accumulator`] holds, for White's and for Black's perspective, `bias + Σ column(f)`
//! over the active features `f` (one per piece). A move changes at most four features
//! (castling: king and rook off, king and rook on; a capture-promotion: the pawn and the
//! victim off, the new piece on), so the child's accumulator is the parent's plus one or
//! two columns and minus one or two: a [`Delta`], whose shapes (none, move, capture,
//! castling) are the only ones a move makes. With this input set (no king buckets) a king
//! move is a move like any other and never needs a refresh.
//!
//! # Lazy updates on the search stack
//! The [`AccumulatorStack`] keeps one accumulator per ply. Making a move only records its
//! delta at the child's ply (a few bytes); the accumulator is computed when the node is
//! evaluated, from the nearest ancestor already computed, applying the recorded deltas in
//! order. A node cut off before evaluating (a hash cutoff, a draw, mate distance) then costs
//! no vector work at all. A null move records an empty delta (a plain copy when needed).

use super::features::{feature_index, HIDDEN};
use super::network::{Column, Network};
use super::simd;
use crate::board::{castle_destinations, Board};
use crate::moves::{Move, MoveKind};
use crate::types::{Color, Piece, Square};

/// The first layer's output for both perspectives, `values[Color::index()]`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(C, align(64))]
pub struct Accumulator {
    pub values: [Column; 2],
}

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator { values: [Column([0; HIDDEN]); 2] }
    }
}

impl Accumulator {
    /// The accumulator of `board` computed from scratch: the bias plus every piece's column.
    pub fn refreshed(net: &Network, board: &Board) -> Accumulator {
        let mut acc = Accumulator::default();
        acc.refresh(net, board);
        acc
    }

    /// Recomputes this accumulator from scratch for `board`.
    pub fn refresh(&mut self, net: &Network, board: &Board) {
        for perspective in Color::ALL {
            let out = &mut self.values[perspective.index()];
            *out = net.feature_bias;
            for color in Color::ALL {
                for piece in Piece::ALL {
                    for sq in board.colored(color, piece) {
                        let column = &net.feature_weights[feature_index(perspective, color, piece, sq)];
                        // In place, lane by lane (the compiler vectorises it): the same
                        // wrapping i16 sums as the update kernels.
                        for (o, w) in out.0.iter_mut().zip(column.0) {
                            *o = o.wrapping_add(w);
                        }
                    }
                }
            }
        }
    }

    /// This accumulator with `delta` applied, written into `out`.
    #[inline]
    pub fn apply(&self, net: &Network, delta: &Delta, out: &mut Accumulator) {
        for p in 0..2 {
            let inp = &self.values[p];
            let o = &mut out.values[p];
            let column = |f: &Feature| &net.feature_weights[f[p] as usize];
            match delta {
                Delta::None => *o = *inp,
                Delta::Move { add, sub } => simd::update(o, inp, [column(add)], [column(sub)]),
                Delta::Capture { add, subs: [s0, s1] } => simd::update(o, inp, [column(add)], [column(s0), column(s1)]),
                Delta::Castle { adds: [a0, a1], subs: [s0, s1] } => {
                    simd::update(o, inp, [column(a0), column(a1)], [column(s0), column(s1)])
                }
            }
        }
    }
}

/// One input feature as its index for both perspectives: `[white, black]`.
type Feature = [u16; 2];

/// The feature changes of one move, by shape: the only ones a move of chess makes, so
/// applying a delta has nothing else to handle.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub enum Delta {
    /// No change: a null move.
    #[default]
    None,
    /// One feature off, one on: a quiet move, or a promotion that captures nothing.
    Move { add: Feature, sub: Feature },
    /// One on, two off: a capture (en passant and capturing promotions included).
    Capture { add: Feature, subs: [Feature; 2] },
    /// Two on, two off: castling (king and rook).
    Castle { adds: [Feature; 2], subs: [Feature; 2] },
}

impl Delta {
    /// No change (a null move).
    pub const NONE: Delta = Delta::None;

    /// The feature of `color`'s `piece` on `sq`.
    #[inline(always)]
    fn feature(color: Color, piece: Piece, sq: Square) -> Feature {
        [feature_index(Color::White, color, piece, sq) as u16, feature_index(Color::Black, color, piece, sq) as u16]
    }

    /// `piece` of the side to move going from `from` to `to` (changing into `arrives` on
    /// the way: a promotion), taking whatever stands on `to`.
    #[inline(always)]
    fn displacement(board: &Board, piece: Piece, arrives: Piece, from: Square, to: Square) -> Delta {
        let us = board.side_to_move();
        let add = Delta::feature(us, arrives, to);
        let sub = Delta::feature(us, piece, from);
        match board.piece_on(to) {
            Some(victim) => Delta::Capture { add, subs: [sub, Delta::feature(us.flip(), victim, to)] },
            None => Delta::Move { add, sub },
        }
    }

    /// The feature changes of the legal move `m` on `board` (before it is made).
    #[inline]
    pub fn of_move(board: &Board, m: Move) -> Delta {
        let us = board.side_to_move();
        let (from, to) = (m.from(), m.to());
        match m.kind() {
            MoveKind::Normal => {
                let piece = board.piece_on(from).expect("delta: no piece on from-square");
                Delta::displacement(board, piece, piece, from, to)
            }
            MoveKind::Promotion => Delta::displacement(board, Piece::Pawn, m.promotion(), from, to),
            MoveKind::EnPassant => Delta::Capture {
                add: Delta::feature(us, Piece::Pawn, to),
                subs: [Delta::feature(us, Piece::Pawn, from), Delta::feature(us.flip(), Piece::Pawn, to.ep_victim())],
            },
            MoveKind::Castle => {
                // Encoded king-takes-own-rook. In Chess960 the king or the rook may land on
                // a square one of them left (or stay put): the columns then cancel exactly.
                let (king_to, rook_to) = castle_destinations(us, m.castle_side());
                Delta::Castle {
                    adds: [Delta::feature(us, Piece::King, king_to), Delta::feature(us, Piece::Rook, rook_to)],
                    subs: [Delta::feature(us, Piece::King, from), Delta::feature(us, Piece::Rook, to)],
                }
            }
        }
    }
}

/// One ply of the stack: the accumulator (valid when `computed`) and the delta that leads
/// to this ply from the one below.
#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
struct Entry {
    acc: Accumulator,
    delta: Delta,
    computed: bool,
}

/// Accumulators per ply of a search, computed lazily (see the module documentation).
pub struct AccumulatorStack {
    entries: Vec<Entry>,
}

impl AccumulatorStack {
    /// A stack for plies `0..plies`.
    pub fn new(plies: usize) -> AccumulatorStack {
        AccumulatorStack { entries: vec![Entry::default(); plies.max(1)] }
    }

    /// Computes ply `ply` from scratch for `board` (the root of a search).
    pub fn refresh(&mut self, ply: usize, net: &Network, board: &Board) {
        let e = &mut self.entries[ply];
        e.acc.refresh(net, board);
        e.computed = true;
    }

    /// Records that ply `ply + 1` is ply `ply` after the legal move `m` on `board` (before
    /// `board.make(m)`).
    #[inline]
    pub fn push_move(&mut self, ply: usize, board: &Board, m: Move) {
        let e = &mut self.entries[ply + 1];
        e.delta = Delta::of_move(board, m);
        e.computed = false;
    }

    /// Records that ply `ply + 1` is ply `ply` after a null move.
    #[inline]
    pub fn push_null(&mut self, ply: usize) {
        let e = &mut self.entries[ply + 1];
        e.delta = Delta::NONE;
        e.computed = false;
    }

    /// The accumulator of ply `ply`, computed now if it was not: from the nearest computed
    /// ply below it, applying the recorded deltas upward. Ply 0 must have been refreshed.
    #[inline]
    pub fn get(&mut self, ply: usize, net: &Network) -> &Accumulator {
        if !self.entries[ply].computed {
            let mut base = ply;
            while !self.entries[base].computed {
                debug_assert!(base > 0, "accumulator stack: ply 0 was never refreshed");
                base -= 1;
            }
            for p in base + 1..=ply {
                let (below, above) = self.entries.split_at_mut(p);
                let parent = &below[p - 1].acc;
                let child = &mut above[0];
                parent.apply(net, &child.delta, &mut child.acc);
                child.computed = true;
            }
        }
        &self.entries[ply].acc
    }
}
