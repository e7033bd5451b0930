//! Perft through the shared transposition table ([`super::table`]): the exact key salt and
//! the hashed recursion.

use super::count::perft_plain;
#[cfg(target_arch = "x86_64")]
use super::count::perft_popcnt;
use super::table::PerftTable;
use crate::board::Board;
use crate::movegen::{MoveList, ALL};
use crate::types::{CastleSide, Color};

/// A table plus the salt that makes its keys exact for this run.
///
/// The Zobrist key says which castling rights are held but not which rook each belongs to;
/// in Chess960 two positions can differ only in that (an inner or outer rook). The rook
/// squares never change during one run, so they are folded into every key as a salt,
/// computed once from the root (positions further down may have lost the rights).
pub(super) struct Hashing<'a> {
    tt: &'a PerftTable,
    salt: u64,
}

impl<'a> Hashing<'a> {
    pub(super) fn new(tt: &'a PerftTable, board: &Board) -> Hashing<'a> {
        let mut salt = 0u64;
        for c in Color::ALL {
            for side in CastleSide::ALL {
                let sq = board.castle_rook(c, side).map_or(0, |s| s.index() as u64 + 1);
                salt = (salt ^ sq).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29);
            }
        }
        Hashing { tt, salt }
    }
}

/// Hashed perft (depth >= 0). Like `perft`, it runs in a `popcnt` copy when the CPU has one.
pub(super) fn perft_hashed(board: &mut Board, depth: u32, bulk: bool, h: &Hashing) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if !cfg!(target_feature = "popcnt") && std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the CPU supports `popcnt`, checked just above.
        return unsafe { perft_hashed_popcnt(board, depth, bulk, h) };
    }
    perft_hashed_plain(board, depth, bulk, h)
}

fn perft_hashed_plain(board: &mut Board, depth: u32, bulk: bool, h: &Hashing) -> u64 {
    hashed_body(board, depth, bulk, h, perft_hashed_plain, perft_plain)
}

/// `perft_hashed` with `popcnt` enabled. Callers must make sure the CPU supports it.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
unsafe fn perft_hashed_popcnt(board: &mut Board, depth: u32, bulk: bool, h: &Hashing) -> u64 {
    hashed_body(
        board,
        depth,
        bulk,
        h,
        // SAFETY: only reached through `perft_hashed`, which checked for `popcnt`.
        |b, d, bulk, h| unsafe { perft_hashed_popcnt(b, d, bulk, h) },
        // SAFETY: as above.
        |b, d, bulk| unsafe { perft_popcnt(b, d, bulk) },
    )
}

/// One node of the hashed recursion.
///
/// 1. Depths 0 and 1 are cheaper to count than to look up (a table probe is a cache miss).
/// 2. A stored count for this position and depth is the answer.
/// 3. At depth 2 the children's moves are counted right here (`count_after_inline`).
/// 4. Deeper, the children are looked up in the table before they are played: their keys
///    come from `key_after` (no make/unmake), their buckets are prefetched first so the
///    cache misses overlap instead of queueing, and only a child that is not found is
///    played and counted (its own probe then finds the bucket in the cache).
#[inline(always)]
fn hashed_body(
    board: &mut Board,
    depth: u32,
    bulk: bool,
    h: &Hashing,
    recurse: impl Fn(&mut Board, u32, bool, &Hashing) -> u64,
    plain: impl Fn(&mut Board, u32, bool) -> u64,
) -> u64 {
    if depth < 2 {
        return plain(board, depth, bulk);
    }
    let key = board.key() ^ h.salt;
    if let Some(n) = h.tt.probe(key, depth) {
        return n;
    }
    let mut list = MoveList::new();
    board.generate::<ALL, _>(&mut list);
    let mut total = 0;
    if depth == 2 && bulk {
        for &m in &list {
            total += board.count_after_inline(m);
        }
    } else if depth == 2 {
        for &m in &list {
            board.make_inline(m);
            total += plain(board, 1, false);
            board.unmake_inline();
        }
    } else {
        for &m in &list {
            h.tt.prefetch(board.key_after(m) ^ h.salt);
        }
        for &m in &list {
            if let Some(n) = h.tt.probe(board.key_after(m) ^ h.salt, depth - 1) {
                total += n;
                continue;
            }
            board.make_inline(m);
            total += recurse(board, depth - 1, bulk, h);
            board.unmake_inline();
        }
    }
    h.tt.store(key, depth, total);
    total
}
