//! Refreshing one perspective of an accumulator for a given placement of the pieces, from
//! the last accumulator computed for the same view rather than from scratch.
//!
//! A mirrored network ([`FeatureSet::Mirrored`](super::features::FeatureSet::Mirrored))
//! recomputes a perspective whenever its king crosses the d/e line, and one with king buckets
//! whenever its king enters another bucket:
//! whenever the perspective's [`View`] changes. From scratch that is the bias plus one column
//! per piece (up to 32). Between two such king moves of one search few pieces move, so the
//! [`RefreshCache`] keeps, per perspective and per view (king bucket and mirroring), the
//! accumulator half it last computed and the pieces it was computed for; the next refresh
//! with that view applies only the pieces that
//! differ (a column subtracted for each piece gone, added for each piece come), typically two
//! to six columns. The sums wrap in i16 exactly as a refresh's do, and wrapping addition
//! does not depend on order, so the result is bit for bit the refresh from scratch.
//!
//! The cache is only valid for the network it was filled with: [`RefreshCache::clear`]
//! empties it, and the accumulator stack does so at every root refresh (the start of each
//! search, and whenever the network may have changed).

use super::features::{feature_index, View, HIDDEN, VIEWS};
use super::network::{Column, Network};
use crate::bitboard::Bitboard;
use crate::board::{castle_destinations, Board};
use crate::moves::{Move, MoveKind};
use crate::types::{Color, Piece, Square};

/// The pieces of a position by colour and kind: what a refresh of one perspective needs
/// when the board it stands for is not at hand (a ply below the one evaluated).
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct Placement {
    colored: [[Bitboard; 6]; 2],
}

impl Placement {
    /// The pieces of `board` as they stand.
    pub fn of(board: &Board) -> Placement {
        let mut p = Placement::default();
        for c in Color::ALL {
            for piece in Piece::ALL {
                p.colored[c.index()][piece.index()] = board.colored(c, piece);
            }
        }
        p
    }

    /// The pieces of `board` after the legal king move or castling `m` (before it is made),
    /// the king landing on `king_to`.
    pub fn after_king_move(board: &Board, m: Move, king_to: Square) -> Placement {
        let mut p = Placement::of(board);
        let us = board.side_to_move();
        p.remove(us, Piece::King, m.from());
        if m.kind() == MoveKind::Castle {
            // Off before on, per piece kind: in Chess960 a destination may be a square
            // the king or the rook left.
            let (_, rook_to) = castle_destinations(us, m.castle_side());
            p.remove(us, Piece::Rook, m.to());
            p.add(us, Piece::Rook, rook_to);
        } else if let Some(victim) = board.piece_on(m.to()) {
            p.remove(us.flip(), victim, m.to());
        }
        p.add(us, Piece::King, king_to);
        p
    }

    /// `c`'s pieces of kind `piece`.
    #[inline(always)]
    pub fn colored(&self, c: Color, piece: Piece) -> Bitboard {
        self.colored[c.index()][piece.index()]
    }

    fn remove(&mut self, c: Color, piece: Piece, sq: Square) {
        self.colored[c.index()][piece.index()] &= !sq.bb();
    }

    fn add(&mut self, c: Color, piece: Piece, sq: Square) {
        self.colored[c.index()][piece.index()] |= sq.bb();
    }
}

/// One perspective's accumulator half for one view, and the pieces it was computed for.
#[derive(Clone, Copy)]
struct Cached {
    half: Column,
    placement: Placement,
    /// `half` holds a real accumulator (else the entry was cleared).
    filled: bool,
}

/// The last refreshed accumulator half per perspective and view (see the module
/// documentation), indexed by [`View::slot`].
#[derive(Clone)]
pub struct RefreshCache {
    entries: [[Cached; VIEWS]; 2],
}

impl Default for RefreshCache {
    fn default() -> Self {
        let empty = Cached { half: Column([0; HIDDEN]), placement: Placement::default(), filled: false };
        RefreshCache { entries: [[empty; VIEWS]; 2] }
    }
}

impl RefreshCache {
    /// Forgets every entry: needed before the cache serves another network.
    pub fn clear(&mut self) {
        for e in self.entries.iter_mut().flatten() {
            e.filled = false;
        }
    }

    /// Writes into `out` perspective `perspective`'s accumulator half for the pieces of
    /// `placement` under `net`, and keeps it for the next refresh with the same view.
    pub fn refresh(&mut self, net: &Network, perspective: Color, placement: &Placement, out: &mut Column) {
        let view = View::of_king(net.feature_set, perspective, placement.colored(perspective, Piece::King));
        let e = &mut self.entries[perspective.index()][view.slot()];
        if !e.filled {
            // From the bias and no pieces: every piece of `placement` is then "come".
            e.half = net.feature_bias;
            e.placement = Placement::default();
            e.filled = true;
        }
        for c in Color::ALL {
            for piece in Piece::ALL {
                let (was, now) = (e.placement.colored(c, piece), placement.colored(c, piece));
                let column = |sq| &net.feature_weights[view.apply(feature_index(perspective, c, piece, sq))];
                for sq in was & !now {
                    e.half.sub_assign(column(sq));
                }
                for sq in now & !was {
                    e.half.add_assign(column(sq));
                }
            }
        }
        e.placement = *placement;
        *out = e.half;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::{Accumulator, FeatureSet};

    /// Refreshes both perspectives of each position in turn through one cache and compares
    /// them with refreshes from scratch under `net`.
    fn check_sequence(cache: &mut RefreshCache, net: &Network, fens: &[&str]) {
        for fen in fens {
            let board = Board::from_fen(fen).unwrap();
            let scratch = Accumulator::refreshed(net, &board);
            for c in Color::ALL {
                let mut out = Column([0; HIDDEN]);
                cache.refresh(net, c, &Placement::of(&board), &mut out);
                assert!(out == scratch.values[c.index()], "{fen} {c:?}");
            }
        }
    }

    /// Kings on both halves and in every king bucket, pieces coming and going between uses
    /// of one view.
    const FENS: [&str; 8] = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "2kr3r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQ - 1 2",
        "2kr3r/p1ppqpb1/bn2pnp1/3P4/1p2P3/2N2Q1p/PPPBBPPP/2KR3R w - - 1 3",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "8/5pk1/8/3r4/8/2P5/1K6/8 w - - 0 1",
        "8/5p2/4k3/3r4/8/1KP5/8/6R1 b - - 0 1",
        "6k1/5p2/8/3r4/8/2P5/7K/1R6 w - - 0 1",
    ];

    #[test]
    fn cached_refreshes_equal_refreshes_from_scratch() {
        for set in FeatureSet::ALL {
            let net = Network::random(21).with_feature_set(set);
            let mut cache = RefreshCache::default();
            check_sequence(&mut cache, &net, &FENS);
            check_sequence(&mut cache, &net, &FENS);
        }
    }

    /// A cache filled under one network must be cleared before it serves another: with the
    /// clear the refreshes are exact, without it they are not (so the clear is needed).
    #[test]
    fn clearing_lets_the_cache_serve_another_network() {
        let (a, b) = (Network::random(1), Network::random(2));
        let mut cache = RefreshCache::default();
        check_sequence(&mut cache, &a, &FENS);
        cache.clear();
        check_sequence(&mut cache, &b, &FENS);

        cache.clear();
        check_sequence(&mut cache, &a, &FENS[..1]);
        let board = Board::from_fen(FENS[1]).unwrap();
        let mut out = Column([0; HIDDEN]);
        cache.refresh(&b, Color::White, &Placement::of(&board), &mut out);
        assert!(out != Accumulator::refreshed(&b, &board).values[0]);
    }
}
