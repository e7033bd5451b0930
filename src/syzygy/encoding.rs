//! The fixed tables of the Syzygy position index, built once on first use.
//!
//! A table's index counts placements of piece groups. Without pawns the first group (the
//! two kings, or three unique pieces) is placed in the a1-d1-d4 triangle with mirror
//! symmetry folded away; the other groups are combinations of the remaining squares. With
//! pawns the leading pawns are placed first, split into four sub-tables by the file of the
//! leading pawn (a-d after mirroring), and the pieces follow. The tables here are those
//! orderings: squares of the triangle, squares below the long diagonal, the 462 legal
//! king pairs, pawn squares ordered from the edge inwards and binomial coefficients.

use crate::tables;
use crate::types::Square;
use once_cell::sync::Lazy;

/// Most pieces of one group the index needs (a group of five leading pawns at most).
pub const MAX_GROUP: usize = 7;
/// Placements of three unique pieces (the first one in the a1-d1-d4 triangle).
pub const UNIQUE_TRIPLE_COUNT: u64 = 31332;
/// Placements of the two kings (the first one in the a1-d1-d4 triangle).
pub const KING_PAIR_COUNT: u64 = 462;

/// All the index tables.
pub struct Encoding {
    /// a1-d1-d4 triangle: squares strictly below the diagonal 0..=5, then a1 b2 c3 d4 6..=9.
    pub triangle: [u8; 64],
    /// Squares strictly below the a1-h8 diagonal, numbered 0..=27 in square order.
    pub below_diagonal: [u8; 64],
    /// King pairs: `[triangle code of the first king][square of the second]` -> 0..462.
    pub king_pairs: [[u16; 64]; 10],
    /// `binomial[k][n]`: ways to choose k of n.
    pub binomial: [[u64; 65]; MAX_GROUP + 1],
    /// Pawn squares a2-h7 numbered 47 down to 0, edge files first, low ranks first:
    /// the pawn with the highest number leads.
    pub pawn_order: [u8; 64],
    /// `lead_pawn_index[count][square]`: where the leading pawn's sub-index starts.
    pub lead_pawn_index: [[u64; 64]; 6],
    /// `lead_pawn_count[count][file]`: placements of `count` leading pawns with the leader
    /// on file a-d.
    pub lead_pawn_total: [[u64; 4]; 6],
}

/// Rank minus file: 0 on the a1-h8 diagonal, negative below it.
#[inline(always)]
pub fn diagonal_offset(sq: usize) -> i32 {
    (sq / 8) as i32 - (sq % 8) as i32
}

/// The tables, computed on first use.
pub static ENCODING: Lazy<Encoding> = Lazy::new(build);

fn build() -> Encoding {
    let mut e = Encoding {
        triangle: [0; 64],
        below_diagonal: [0; 64],
        king_pairs: [[0; 64]; 10],
        binomial: [[0; 65]; MAX_GROUP + 1],
        pawn_order: [0; 64],
        lead_pawn_index: [[0; 64]; 6],
        lead_pawn_total: [[0; 4]; 6],
    };

    // 1. Squares below the long diagonal, in square order.
    let mut code = 0u8;
    for sq in 0..64 {
        if diagonal_offset(sq) < 0 {
            e.below_diagonal[sq] = code;
            code += 1;
        }
    }

    // 2. The triangle: off-diagonal squares first, then the four diagonal ones.
    let mut code = 0u8;
    let mut on_diagonal = Vec::new();
    for sq in 0..28 {
        if sq % 8 > 3 {
            continue;
        }
        match diagonal_offset(sq) {
            d if d < 0 => {
                e.triangle[sq] = code;
                code += 1;
            }
            0 => on_diagonal.push(sq),
            _ => {}
        }
    }
    for sq in on_diagonal {
        e.triangle[sq] = code;
        code += 1;
    }

    // 3. King pairs: for each triangle square of the first king (in code order), every
    //    square of the second king that is not adjacent; a first king on the diagonal
    //    only pairs with a second king on or below it, and pairs with both on the
    //    diagonal are numbered last.
    let mut code = 0u16;
    let mut both_on_diagonal = Vec::new();
    for t in 0..10u8 {
        let Some(k1) = (0..28).find(|&s| s % 8 <= 3 && diagonal_offset(s) <= 0 && e.triangle[s] == t) else {
            continue;
        };
        let near = tables::king_attacks(Square::from_index(k1)).raw() | 1u64 << k1;
        for k2 in 0..64 {
            if near >> k2 & 1 != 0 {
                continue;
            }
            let first_on = diagonal_offset(k1) == 0;
            if first_on && diagonal_offset(k2) > 0 {
                continue;
            }
            if first_on && diagonal_offset(k2) == 0 {
                both_on_diagonal.push((t, k2));
            } else {
                e.king_pairs[t as usize][k2] = code;
                code += 1;
            }
        }
    }
    for (t, k2) in both_on_diagonal {
        e.king_pairs[t as usize][k2] = code;
        code += 1;
    }
    debug_assert_eq!(code as u64, KING_PAIR_COUNT);

    // 4. Binomial coefficients by Pascal's rule.
    for n in 0..65 {
        e.binomial[0][n] = 1;
        for k in 1..=MAX_GROUP {
            e.binomial[k][n] = if n == 0 { 0 } else { e.binomial[k - 1][n - 1] + e.binomial[k][n - 1] };
        }
    }

    // 5. Pawn order: files a and h first (a before h), rank 2 to 7, then b/g, c/f, d/e.
    let mut left = 47u8;
    for file in 0..4 {
        for rank in 1..7 {
            let sq = rank * 8 + file;
            e.pawn_order[sq] = left;
            e.pawn_order[sq ^ 7] = left - 1;
            left = left.saturating_sub(2);
        }
    }

    // 6. Leading pawns: per file a-d, the leader on rank 2 to 7 and the other leading
    //    pawns anywhere with a lower pawn order.
    for count in 1..6 {
        for file in 0..4 {
            let mut idx = 0u64;
            for rank in 1..7 {
                let sq = rank * 8 + file;
                e.lead_pawn_index[count][sq] = idx;
                idx += e.binomial[count - 1][e.pawn_order[sq] as usize];
            }
            e.lead_pawn_total[count][file] = idx;
        }
    }
    e
}
