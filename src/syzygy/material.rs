//! Material signatures: which table a position belongs to, read from a file name such as
//! `KQvKR` or counted on a board.

use crate::board::Board;
use crate::types::{Color, Piece};

/// Most pieces (kings included) a Syzygy table holds.
pub const MAX_PIECES: usize = 7;
/// Piece letters in the order table names list them.
const NAME_ORDER: [(char, Piece); 6] = [
    ('K', Piece::King),
    ('Q', Piece::Queen),
    ('R', Piece::Rook),
    ('B', Piece::Bishop),
    ('N', Piece::Knight),
    ('P', Piece::Pawn),
];

/// How many of each piece (pawn..king by [`Piece::index`]) each side has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Material {
    pub counts: [[u8; 6]; 2],
}

impl Material {
    /// The material on `board`.
    pub fn of(board: &Board) -> Material {
        let mut counts = [[0u8; 6]; 2];
        for c in Color::ALL {
            for p in Piece::ALL {
                counts[c.index()][p.index()] = board.colored(c, p).count() as u8;
            }
        }
        Material { counts }
    }

    /// Parses a table name `<white pieces>v<black pieces>`, each side a king followed by
    /// its other pieces in the order Q R B N P (for example `KRPvKR`).
    pub fn parse(name: &str) -> Option<Material> {
        let (w, b) = name.split_once('v')?;
        let mut counts = [[0u8; 6]; 2];
        for (side, text) in [w, b].into_iter().enumerate() {
            let mut last = 0usize;
            for (i, ch) in text.chars().enumerate() {
                let pos = NAME_ORDER.iter().position(|&(c, _)| c == ch)?;
                if (i == 0) != (pos == 0) || pos < last {
                    return None;
                }
                last = pos;
                counts[side][NAME_ORDER[pos].1.index()] += 1;
            }
            if counts[side][Piece::King.index()] != 1 {
                return None;
            }
        }
        let m = Material { counts };
        (m.total() <= MAX_PIECES).then_some(m)
    }

    /// The name of the table (white's pieces first).
    pub fn name(&self) -> String {
        let side = |c: usize| -> String {
            NAME_ORDER.iter().flat_map(|&(ch, p)| std::iter::repeat_n(ch, self.counts[c][p.index()] as usize)).collect()
        };
        format!("{}v{}", side(0), side(1))
    }

    /// The same material with the colours swapped.
    pub fn flipped(&self) -> Material {
        Material { counts: [self.counts[1], self.counts[0]] }
    }

    /// All pieces, kings included.
    pub fn total(&self) -> usize {
        self.counts.iter().flatten().map(|&n| n as usize).sum()
    }

    /// Pawns of one side.
    pub fn pawns(&self, c: usize) -> u8 {
        self.counts[c][Piece::Pawn.index()]
    }

    /// Are both sides' pieces the same (a table that stores one side to move)?
    pub fn symmetric(&self) -> bool {
        self.counts[0] == self.counts[1]
    }

    /// A compact key: four bits per (colour, piece) count.
    pub fn key(&self) -> u64 {
        let mut k = 0u64;
        for c in 0..2 {
            for p in 0..6 {
                k |= (self.counts[c][p] as u64 & 0xF) << (4 * (c * 6 + p));
            }
        }
        k
    }
}
