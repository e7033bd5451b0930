//! Win/draw/loss probabilities of a score, for `UCI_ShowWDL` and `eval`.
//!
//! The model is a pair of logistic curves whose centre and width depend on the material
//! left on the board: with `x = material / MATERIAL_NORM` (pawn 1, knight and bishop 3,
//! rook 5, queen 9, both sides, clamped to `MATERIAL_MIN..=MATERIAL_MAX`),
//!
//! ```text
//! a(x) = A0 + A1 x + A2 x²      (the score at which a win is as likely as not)
//! b(x) = B0 + B1 x + B2 x²      (how quickly the win chance grows with the score)
//! P(win)  = 1 / (1 + exp((a - score) / b))
//! P(loss) = 1 / (1 + exp((a + score) / b))
//! P(draw) = 1 - P(win) - P(loss)
//! ```
//!
//! The coefficients were fitted by maximum likelihood to the results of Horizon's own
//! self-play games by `horizon wdl-fit` (see `crate::tune::wdl` and docs/uci.md, which gives
//! the command and how well the model predicts held-out games).

use crate::board::Board;
use crate::types::{Color, Piece};

/// Material counted as pawn 1, knight 3, bishop 3, rook 5, queen 9 (both sides).
pub const MATERIAL_VALUES: [i32; 6] = [1, 3, 3, 5, 9, 0];
/// The material range the model distinguishes (the starting position has 78).
pub const MATERIAL_MIN: i32 = 17;
pub const MATERIAL_MAX: i32 = 78;
/// `x = material / MATERIAL_NORM`: about 1 in the middlegame.
pub const MATERIAL_NORM: f64 = 58.0;

/// The fitted coefficients of `a(x)` and `b(x)`, in centipawns: `horizon wdl-fit` on
/// 2.77 M positions of generation 6's self-play (seeds 91 and 101, `--nodes 5000`).
pub const WDL_A: [f64; 3] = [557.470, -695.889, 257.084];
pub const WDL_B: [f64; 3] = [130.754, 60.911, -54.082];

/// The smallest width `b` the model uses (a fit can never make it zero or negative).
pub const MIN_WIDTH: f64 = 1.0;

/// Probabilities in per mille, summing to 1000, from the side to move's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Wdl {
    pub win: u32,
    pub draw: u32,
    pub loss: u32,
}

impl Wdl {
    pub const WON: Wdl = Wdl { win: 1000, draw: 0, loss: 0 };
    pub const LOST: Wdl = Wdl { win: 0, draw: 0, loss: 1000 };
    pub const DRAWN: Wdl = Wdl { win: 0, draw: 1000, loss: 0 };

    /// Rounds probabilities to per mille, keeping the sum at exactly 1000.
    pub fn from_probabilities(win: f64, loss: f64) -> Wdl {
        let w = (win.clamp(0.0, 1.0) * 1000.0).round() as u32;
        let l = ((loss.clamp(0.0, 1.0) * 1000.0).round() as u32).min(1000 - w);
        Wdl { win: w, draw: 1000 - w - l, loss: l }
    }
}

/// The material of `board` on the model's scale, clamped to its range.
pub fn material(board: &Board) -> i32 {
    let mut sum = 0;
    for p in Piece::ALL {
        let n = board.colored(Color::White, p).count() + board.colored(Color::Black, p).count();
        sum += MATERIAL_VALUES[p.index()] * n as i32;
    }
    sum.clamp(MATERIAL_MIN, MATERIAL_MAX)
}

/// `a(x)` and `b(x)` of coefficients `a` and `b` at material `material`.
pub fn centre_and_width(a: &[f64; 3], b: &[f64; 3], material: i32) -> (f64, f64) {
    let x = material.clamp(MATERIAL_MIN, MATERIAL_MAX) as f64 / MATERIAL_NORM;
    let poly = |c: &[f64; 3]| c[0] + x * (c[1] + x * c[2]);
    (poly(a), poly(b).max(MIN_WIDTH))
}

/// P(win) and P(loss) of a score of `cp` centipawns under coefficients `a`, `b`.
pub fn probabilities(a: &[f64; 3], b: &[f64; 3], cp: f64, material: i32) -> (f64, f64) {
    let (centre, width) = centre_and_width(a, b, material);
    let sigmoid = |t: f64| 1.0 / (1.0 + (-t).exp());
    (sigmoid((cp - centre) / width), sigmoid((-cp - centre) / width))
}

/// The win/draw/loss chances of a score of `cp` centipawns for the side to move, with
/// `material` on the board (see [`material`]).
pub fn wdl(cp: i32, material: i32) -> Wdl {
    let (win, loss) = probabilities(&WDL_A, &WDL_B, cp as f64, material);
    Wdl::from_probabilities(win, loss)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_to_1000_and_is_symmetric_and_monotone() {
        for m in [MATERIAL_MIN, 30, 50, MATERIAL_MAX] {
            let mut last = wdl(-3000, m);
            for cp in (-3000..=3000).step_by(25) {
                let w = wdl(cp, m);
                assert_eq!(w.win + w.draw + w.loss, 1000, "{cp} {m}");
                let mirrored = wdl(-cp, m);
                assert_eq!((w.win, w.loss), (mirrored.loss, mirrored.win), "{cp} {m}");
                assert!(w.win >= last.win && w.loss <= last.loss, "{cp} {m}");
                last = w;
            }
            assert_eq!(wdl(0, m).win, wdl(0, m).loss);
            assert!(wdl(3000, m).win >= 990, "{m}");
        }
    }

    #[test]
    fn material_of_the_start_position_and_bare_kings() {
        assert_eq!(material(&Board::startpos()), 78);
        let kk = Board::from_fen("8/8/4k3/8/8/3K4/8/8 w - - 0 1").unwrap();
        assert_eq!(material(&kk), MATERIAL_MIN);
    }

    #[test]
    fn rounding_keeps_the_sum() {
        assert_eq!(Wdl::from_probabilities(0.9996, 0.0004), Wdl { win: 1000, draw: 0, loss: 0 });
        assert_eq!(Wdl::from_probabilities(0.4996, 0.5004), Wdl { win: 500, draw: 0, loss: 500 });
        let w = Wdl::from_probabilities(0.3333, 0.3333);
        assert_eq!(w.win + w.draw + w.loss, 1000);
    }
}
