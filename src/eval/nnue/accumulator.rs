//! The first layer's output, per perspective, and how it follows the moves of a search.
//!
//! An [`Accumulator`] holds, for White's and for Black's perspective, `bias + Σ column(f)`
//! over the active features `f` (one per piece). A move changes at most four features
//! (castling: king and rook off, king and rook on; a capture-promotion: the pawn and the
//! victim off, the new piece on), so the child's accumulator is the parent's plus one or
//! two columns and minus one or two: a [`Delta`], whose shapes (none, move, capture,
//! castling) are the only ones a move makes. With the plain input set a king move is a move
//! like any other and never needs a refresh.
//!
//! # Mirrored and king-bucket networks: a refresh when the king changes the view
//! In the mirrored sets ([`FeatureSet::Mirrored`], [`FeatureSet::MirroredKingBuckets`]) a
//! perspective whose king stands on files a–d sees every square mirrored left–right, and
//! with king buckets it uses the block of features of its king's bucket: its [`View`]. A
//! delta is then built with each perspective's current view (the king did not move for the
//! side not moving, nor for the side moving unless the move is a king move or castling). A
//! king move that changes its side's view (across the d/e line, or into another bucket)
//! changes every feature of that perspective: that ply records a refresh of that
//! perspective instead, with the pieces as they stand after the move (a [`Placement`],
//! about 100 bytes), and the other perspective follows its delta as usual.
//! That refresh starts from the last one with the same view, kept in a
//! [`RefreshCache`], and applies only the pieces that differ (see [`super::refresh`]).
//! The refresh is computed lazily like any other ply, only when a node at or above it is
//! evaluated. Plain networks never record one: the feature set is checked once per move.
//!
//! # Lazy updates on the search stack
//! The [`AccumulatorStack`] keeps one accumulator per ply. Making a move only records its
//! delta at the child's ply (a few bytes); the accumulator is computed when the node is
//! evaluated, from the nearest ancestor already computed, applying the recorded deltas in
//! order. A node cut off before evaluating (a hash cutoff, a draw, mate distance) then costs
//! no vector work at all. A null move records an empty delta (a plain copy when needed).

use super::features::{feature_index, for_each_feature, FeatureSet, View, HIDDEN};
use super::network::{Column, Network};
use super::refresh::{Placement, RefreshCache};
use super::simd;
use crate::bitboard::Bitboard;
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
            self.refresh_perspective(net, perspective, |c, p| board.colored(c, p));
        }
    }

    /// Recomputes `perspective`'s half from scratch for the position whose piece sets are
    /// `colored(color, piece)`: the bias plus the column of every active feature.
    #[inline]
    fn refresh_perspective(&mut self, net: &Network, perspective: Color, colored: impl Fn(Color, Piece) -> Bitboard) {
        let out = &mut self.values[perspective.index()];
        *out = net.feature_bias;
        for_each_feature(net.feature_set, perspective, colored, |f| out.add_assign(&net.feature_weights[f]));
    }

    /// This accumulator with `delta` applied, written into `out`.
    #[inline]
    pub fn apply(&self, net: &Network, delta: &Delta, out: &mut Accumulator) {
        for p in Color::ALL {
            self.apply_perspective(net, delta, p, out);
        }
    }

    /// Perspective `p`'s half of [`Accumulator::apply`].
    #[inline(always)]
    fn apply_perspective(&self, net: &Network, delta: &Delta, p: Color, out: &mut Accumulator) {
        let p = p.index();
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

    /// The feature of `color`'s `piece` on `sq`, each perspective's index in its view (the
    /// identity in the plain set).
    #[inline(always)]
    fn feature(color: Color, piece: Piece, sq: Square, views: Views) -> Feature {
        [
            views[0].apply(feature_index(Color::White, color, piece, sq)) as u16,
            views[1].apply(feature_index(Color::Black, color, piece, sq)) as u16,
        ]
    }

    /// `piece` of the side to move going from `from` to `to` (changing into `arrives` on
    /// the way: a promotion), taking whatever stands on `to`.
    #[inline(always)]
    fn displacement(board: &Board, piece: Piece, arrives: Piece, from: Square, to: Square, views: Views) -> Delta {
        let us = board.side_to_move();
        let add = Delta::feature(us, arrives, to, views);
        let sub = Delta::feature(us, piece, from, views);
        match board.piece_on(to) {
            Some(victim) => Delta::Capture { add, subs: [sub, Delta::feature(us.flip(), victim, to, views)] },
            None => Delta::Move { add, sub },
        }
    }

    /// The feature changes of the legal move `m` on `board` (before it is made) for a plain
    /// network.
    #[inline]
    pub fn of_move(board: &Board, m: Move) -> Delta {
        Delta::of_move_in(board, m, [View::default(); 2])
    }

    /// The feature changes of the legal move `m` on `board` (before it is made) with each
    /// perspective's features in its view `views[perspective]`. For a perspective whose
    /// king move changes its view the result is meaningless: that perspective is refreshed
    /// instead ([`AccumulatorStack::push_move`]).
    #[inline(always)]
    fn of_move_in(board: &Board, m: Move, views: Views) -> Delta {
        let us = board.side_to_move();
        let (from, to) = (m.from(), m.to());
        match m.kind() {
            MoveKind::Normal => {
                let piece = board.piece_on(from).expect("delta: no piece on from-square");
                Delta::displacement(board, piece, piece, from, to, views)
            }
            MoveKind::Promotion => Delta::displacement(board, Piece::Pawn, m.promotion(), from, to, views),
            MoveKind::EnPassant => Delta::Capture {
                add: Delta::feature(us, Piece::Pawn, to, views),
                subs: [
                    Delta::feature(us, Piece::Pawn, from, views),
                    Delta::feature(us.flip(), Piece::Pawn, to.ep_victim(), views),
                ],
            },
            MoveKind::Castle => {
                // Encoded king-takes-own-rook. In Chess960 the king or the rook may land on
                // a square one of them left (or stay put): the columns then cancel exactly.
                let (king_to, rook_to) = castle_destinations(us, m.castle_side());
                Delta::Castle {
                    adds: [
                        Delta::feature(us, Piece::King, king_to, views),
                        Delta::feature(us, Piece::Rook, rook_to, views),
                    ],
                    subs: [Delta::feature(us, Piece::King, from, views), Delta::feature(us, Piece::Rook, to, views)],
                }
            }
        }
    }
}

/// Each perspective's view, `[white, black]`.
type Views = [View; 2];

/// One ply of the stack: the accumulator (valid when `computed`) and the delta that leads
/// to this ply from the one below; with `refresh` set, that perspective is instead computed
/// from `placement` (a king move that changed its side's view).
#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
struct Entry {
    acc: Accumulator,
    delta: Delta,
    computed: bool,
    refresh: Option<Color>,
    placement: Placement,
}

/// Accumulators per ply of a search, computed lazily (see the module documentation).
pub struct AccumulatorStack {
    entries: Vec<Entry>,
    /// The last refresh per perspective and view, cleared at every root refresh.
    cache: RefreshCache,
}

impl AccumulatorStack {
    /// A stack for plies `0..plies`.
    pub fn new(plies: usize) -> AccumulatorStack {
        AccumulatorStack { entries: vec![Entry::default(); plies.max(1)], cache: RefreshCache::default() }
    }

    /// Computes ply `ply` from scratch for `board` (the root of a search). The refresh
    /// cache is emptied too: the stack may serve another network from here on.
    pub fn refresh(&mut self, ply: usize, net: &Network, board: &Board) {
        self.cache.clear();
        let e = &mut self.entries[ply];
        e.acc.refresh(net, board);
        e.computed = true;
    }

    /// Records that ply `ply + 1` is ply `ply` after the legal move `m` on `board` (before
    /// `board.make(m)`), for network `net` (whose feature set decides the features).
    #[inline]
    pub fn push_move(&mut self, ply: usize, net: &Network, board: &Board, m: Move) {
        let e = &mut self.entries[ply + 1];
        e.computed = false;
        match net.feature_set {
            FeatureSet::Plain => {
                e.delta = Delta::of_move(board, m);
                e.refresh = None;
            }
            // One call per set, each inlined with its set a constant: the mirrored set's
            // views then fold to bare masks, as cheap as before king buckets existed.
            FeatureSet::Mirrored => AccumulatorStack::record_in_views(FeatureSet::Mirrored, e, board, m),
            FeatureSet::MirroredKingBuckets => {
                AccumulatorStack::record_in_views(FeatureSet::MirroredKingBuckets, e, board, m)
            }
        }
    }

    /// [`AccumulatorStack::push_move`] for a network whose views follow the kings: the
    /// delta with each perspective's view before the move and, when the move changes the
    /// mover's view, a refresh of the mover's perspective from the pieces after it.
    #[inline(always)]
    fn record_in_views(set: FeatureSet, e: &mut Entry, board: &Board, m: Move) {
        let view = |c: Color| View::of(set, c, board.king_sq(c).index());
        let views = [view(Color::White), view(Color::Black)];
        e.delta = Delta::of_move_in(board, m, views);
        e.refresh = None;
        let us = board.side_to_move();
        let king_to = match m.kind() {
            MoveKind::Castle => Some(castle_destinations(us, m.castle_side()).0),
            MoveKind::Normal if m.from() == board.king_sq(us) => Some(m.to()),
            _ => None,
        };
        if let Some(king_to) = king_to {
            if View::of(set, us, king_to.index()) != views[us.index()] {
                e.refresh = Some(us);
                e.placement = Placement::after_king_move(board, m, king_to);
            }
        }
    }

    /// Records that ply `ply + 1` is ply `ply` after a null move.
    #[inline]
    pub fn push_null(&mut self, ply: usize) {
        let e = &mut self.entries[ply + 1];
        e.delta = Delta::NONE;
        e.refresh = None;
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
                match child.refresh {
                    None => parent.apply(net, &child.delta, &mut child.acc),
                    Some(mover) => {
                        parent.apply_perspective(net, &child.delta, mover.flip(), &mut child.acc);
                        self.cache.refresh(net, mover, &child.placement, &mut child.acc.values[mover.index()]);
                    }
                }
                child.computed = true;
            }
        }
        &self.entries[ply].acc
    }
}
