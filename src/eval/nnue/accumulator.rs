//! The first layer's output, per perspective, and how it follows the moves of a search.
//!
//! An [`Accumulator`] holds, for White's and for Black's perspective, `bias + Σ column(f)`
//! over the active features `f` (one per piece). A move changes at most four features
//! (castling: king and rook off, king and rook on; a capture-promotion: the pawn and the
//! victim off, the new piece on), so the child's accumulator is the parent's plus two or
//! three columns and minus as many: a [`Delta`]. With this input set (no king buckets) a
//! king move is a move like any other and never needs a refresh.
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
            let add = |i: usize| &net.feature_weights[delta.adds[i][p] as usize];
            let sub = |i: usize| &net.feature_weights[delta.subs[i][p] as usize];
            match (delta.n_adds, delta.n_subs) {
                (1, 1) => simd::update(o, inp, [add(0)], [sub(0)]),
                (1, 2) => simd::update(o, inp, [add(0)], [sub(0), sub(1)]),
                (2, 2) => simd::update(o, inp, [add(0), add(1)], [sub(0), sub(1)]),
                (0, 0) => *o = *inp,
                // No move of chess changes features otherwise; kept general for safety.
                (a, s) => {
                    *o = *inp;
                    for i in 0..a as usize {
                        let before = *o;
                        simd::update(o, &before, [add(i)], []);
                    }
                    for i in 0..s as usize {
                        let before = *o;
                        simd::update(o, &before, [], [sub(i)]);
                    }
                }
            }
        }
    }
}

/// The feature changes of one move: up to two features switched on and two off, each given
/// as its index for both perspectives (`[white, black]`).
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct Delta {
    adds: [[u16; 2]; 2],
    subs: [[u16; 2]; 2],
    n_adds: u8,
    n_subs: u8,
}

impl Delta {
    /// No change (a null move).
    pub const NONE: Delta = Delta { adds: [[0; 2]; 2], subs: [[0; 2]; 2], n_adds: 0, n_subs: 0 };

    #[inline(always)]
    fn indices(color: Color, piece: Piece, sq: Square) -> [u16; 2] {
        [feature_index(Color::White, color, piece, sq) as u16, feature_index(Color::Black, color, piece, sq) as u16]
    }

    #[inline(always)]
    fn add(&mut self, color: Color, piece: Piece, sq: Square) {
        self.adds[self.n_adds as usize] = Delta::indices(color, piece, sq);
        self.n_adds += 1;
    }

    #[inline(always)]
    fn sub(&mut self, color: Color, piece: Piece, sq: Square) {
        self.subs[self.n_subs as usize] = Delta::indices(color, piece, sq);
        self.n_subs += 1;
    }

    /// The feature changes of the legal move `m` on `board` (before it is made).
    #[inline]
    pub fn of_move(board: &Board, m: Move) -> Delta {
        let us = board.side_to_move();
        let them = us.flip();
        let (from, to) = (m.from(), m.to());
        let mut d = Delta::NONE;
        match m.kind() {
            MoveKind::Normal => {
                let piece = board.piece_on(from).expect("delta: no piece on from-square");
                d.sub(us, piece, from);
                d.add(us, piece, to);
                if let Some(victim) = board.piece_on(to) {
                    d.sub(them, victim, to);
                }
            }
            MoveKind::Promotion => {
                d.sub(us, Piece::Pawn, from);
                d.add(us, m.promotion(), to);
                if let Some(victim) = board.piece_on(to) {
                    d.sub(them, victim, to);
                }
            }
            MoveKind::EnPassant => {
                d.sub(us, Piece::Pawn, from);
                d.add(us, Piece::Pawn, to);
                d.sub(them, Piece::Pawn, to.ep_victim());
            }
            MoveKind::Castle => {
                // Encoded king-takes-own-rook. In Chess960 the king or the rook may land on
                // a square one of them left (or stay put): the columns then cancel exactly.
                let (king_to, rook_to) = castle_destinations(us, m.castle_side());
                d.sub(us, Piece::King, from);
                d.sub(us, Piece::Rook, to);
                d.add(us, Piece::King, king_to);
                d.add(us, Piece::Rook, rook_to);
            }
        }
        d
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

    /// How many plies the stack holds.
    pub fn plies(&self) -> usize {
        self.entries.len()
    }
}
