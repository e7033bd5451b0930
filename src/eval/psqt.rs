//! Piece-square tables, built at compile time from the small formula ingredients in
//! `params.rs` (per-file / per-rank arrays and a few bonuses). Each entry also includes the
//! piece's material value, so one lookup per piece gives material + placement.
//!
//! Tables are from white's point of view (square a1 = 0); the evaluation looks black pieces
//! up in a vertically flipped frame, so one table serves both colours.

use super::params::*;
use super::score::S;

/// Distance of a file or rank from the nearest edge: 0 on the rim, 3 in the centre.
const fn edge(x: usize) -> usize {
    if x < 4 {
        x
    } else {
        7 - x
    }
}

/// Placement bonus (without material) of piece index `p` on square `sq` (white's view).
const fn placement(p: usize, sq: usize) -> S {
    let f = sq % 8;
    let r = sq / 8;
    let ef = edge(f);
    let er = edge(r);
    match p {
        // Pawn: advancement, and central files in the middlegame on ranks 3-5.
        0 => {
            let mut s = PAWN_RANK[r];
            if r >= 2 && r <= 4 {
                s = s.plus(S(PAWN_CENTER_FILE_MG[ef], 0));
            }
            if r == 1 && (f == 3 || f == 4) {
                s = s.plus(S(PAWN_CENTER_UNMOVED_MG, 0));
            }
            s
        }
        // Knight: additive file centralisation and rank preference (forward, not the 8th).
        1 => KNIGHT_FILE[ef].plus(KNIGHT_RANK[r]),
        // Bishop: centralisation, long diagonals, develop off the back rank.
        2 => {
            let mut s = BISHOP_EDGE[ef].plus(BISHOP_EDGE[er]);
            if f == r || f + r == 7 {
                s = s.plus(BISHOP_LONG_DIAGONAL);
            }
            if r == 0 {
                s = s.plus(S(BISHOP_BACK_RANK_MG, 0));
            }
            s
        }
        // Rook: the 7th rank, central files a little in the middlegame.
        3 => {
            let mut s = S(ROOK_FILE_MG[ef], 0);
            if r == 6 {
                s = s.plus(ROOK_SEVENTH);
            }
            s
        }
        // Queen: mild centralisation.
        4 => QUEEN_EDGE[ef].plus(QUEEN_EDGE[er]),
        // King: home and castled in the middlegame; central in the endgame.
        _ => S(
            KING_RANK_MG[r] + KING_FILE_MG[f],
            KING_CENTER_EG * (ef as i32 + er as i32 - 3),
        ),
    }
}

const fn build() -> [[S; 64]; 6] {
    let mut t = [[S::ZERO; 64]; 6];
    let mut p = 0;
    while p < 6 {
        let mut sq = 0;
        while sq < 64 {
            t[p][sq] = MATERIAL[p].plus(placement(p, sq));
            sq += 1;
        }
        p += 1;
    }
    t
}

/// Material + placement, `[piece index][square]`, white's point of view.
pub static PSQT: [[S; 64]; 6] = build();

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes() {
        // Knights prefer the centre to the corner; kings go home in the middlegame and to
        // the centre in the endgame; rooks like the 7th.
        assert!(PSQT[1][27].mg() > PSQT[1][0].mg());
        assert!(PSQT[5][6].mg() > PSQT[5][28].mg());
        assert!(PSQT[5][28].eg() > PSQT[5][6].eg());
        assert!(PSQT[3][48].mg() > PSQT[3][40].mg());
        assert!(PSQT[0][48].eg() > PSQT[0][16].eg());
    }
}
