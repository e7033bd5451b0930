//! The `Bitboard` newtype: a set of squares as a `u64` (bit i = square i).

use crate::types::{File, Rank, Square};
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares. The bits are private: build one from squares, files, ranks or
/// [`Bitboard::from_raw`].
#[derive(Copy, Clone, PartialEq, Eq, Default, Hash)]
pub struct Bitboard(u64);

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    pub const FULL: Bitboard = Bitboard(!0);
    pub const FILE_A: Bitboard = Bitboard(0x0101_0101_0101_0101);
    pub const FILE_H: Bitboard = Bitboard(0x8080_8080_8080_8080);
    pub const RANK_1: Bitboard = Bitboard(0xFF);
    /// The dark squares (a1, c1, ..., h8).
    pub const DARK: Bitboard = Bitboard(0xAA55_AA55_AA55_AA55);

    /// The set whose bit i is square i.
    #[inline(always)]
    pub const fn from_raw(bits: u64) -> Bitboard {
        Bitboard(bits)
    }
    /// The bits of the set (bit i = square i).
    #[inline(always)]
    pub const fn raw(self) -> u64 {
        self.0
    }
    /// The eight squares of file `f`.
    #[inline(always)]
    pub const fn file(f: File) -> Bitboard {
        Bitboard(Self::FILE_A.0 << f as u8)
    }
    /// The eight squares of rank `r`.
    #[inline(always)]
    pub const fn rank(r: Rank) -> Bitboard {
        Bitboard(Self::RANK_1.0 << (8 * r as u8))
    }
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    #[inline(always)]
    pub const fn any(self) -> bool {
        self.0 != 0
    }
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }
    #[inline(always)]
    pub const fn has(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }
    /// More than one square set.
    #[inline(always)]
    pub const fn several(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }
    /// The lowest square; the set must not be empty.
    #[inline(always)]
    pub const fn lsb(self) -> Square {
        Square::from_index(self.0.trailing_zeros() as usize)
    }
    /// Shift `delta` squares (positive: towards h8), as pawn moves do.
    #[inline(always)]
    pub const fn shift(self, delta: i8) -> Bitboard {
        if delta >= 0 {
            Bitboard(self.0 << delta)
        } else {
            Bitboard(self.0 >> (-delta))
        }
    }
    /// Every square of the set and all squares above them (towards rank 8).
    #[inline(always)]
    pub const fn north_fill(self) -> Bitboard {
        let b = self.0 | self.0 << 8;
        let b = b | b << 16;
        Bitboard(b | b << 32)
    }
    /// Every square of the set and all squares below them (towards rank 1).
    #[inline(always)]
    pub const fn south_fill(self) -> Bitboard {
        let b = self.0 | self.0 >> 8;
        let b = b | b >> 16;
        Bitboard(b | b >> 32)
    }
    /// The whole files holding a square of the set.
    #[inline(always)]
    pub const fn file_fill(self) -> Bitboard {
        self.south_fill().north_fill()
    }
    /// The set moved one file towards a (squares on file a drop out).
    #[inline(always)]
    pub const fn west(self) -> Bitboard {
        Bitboard((self.0 & !Self::FILE_A.0) >> 1)
    }
    /// The set moved one file towards h (squares on file h drop out).
    #[inline(always)]
    pub const fn east(self) -> Bitboard {
        Bitboard((self.0 & !Self::FILE_H.0) << 1)
    }
    /// The squares attacked by pawns on the set moving up the board (white's direction).
    #[inline(always)]
    pub const fn pawn_attacks_up(self) -> Bitboard {
        Bitboard((self.0 & !Self::FILE_A.0) << 7 | (self.0 & !Self::FILE_H.0) << 9)
    }
    /// The squares attacked by two pawns of the set moving up the board.
    #[inline(always)]
    pub const fn pawn_double_attacks_up(self) -> Bitboard {
        Bitboard((self.0 & !Self::FILE_A.0) << 7 & (self.0 & !Self::FILE_H.0) << 9)
    }
    /// The squares attacked by pawns on the set moving down the board (black's direction).
    #[inline(always)]
    pub const fn pawn_attacks_down(self) -> Bitboard {
        Bitboard((self.0 & !Self::FILE_A.0) >> 9 | (self.0 & !Self::FILE_H.0) >> 7)
    }
    /// Mirror vertically (rank 1 <-> rank 8).
    #[inline(always)]
    pub const fn flip_vertical(self) -> Bitboard {
        Bitboard(self.0.swap_bytes())
    }
}

impl Square {
    /// The set holding only this square. (Defined here, not in `types`, so that the small
    /// types do not depend on the bitboard.)
    #[inline(always)]
    pub const fn bb(self) -> Bitboard {
        Bitboard(1u64 << self.index())
    }
}

impl Iterator for Bitboard {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let sq = self.lsb();
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

macro_rules! bit_ops {
    ($($tr:ident $f:ident $tra:ident $fa:ident $op:tt),*) => {$(
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, rhs: Bitboard) -> Bitboard { Bitboard(self.0 $op rhs.0) }
        }
        impl $tra for Bitboard {
            #[inline(always)]
            fn $fa(&mut self, rhs: Bitboard) { self.0 = self.0 $op rhs.0; }
        }
    )*};
}
bit_ops!(BitAnd bitand BitAndAssign bitand_assign &, BitOr bitor BitOrAssign bitor_assign |,
         BitXor bitxor BitXorAssign bitxor_assign ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl fmt::Debug for Bitboard {
    /// An 8x8 picture, rank 8 on top.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        writeln!(f)?;
        for r in Rank::ALL.into_iter().rev() {
            for fl in File::ALL {
                let c = if self.has(Square::new(fl, r)) { 'X' } else { '.' };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The set-wise fills and shifts against their square-by-square definitions.
    #[test]
    fn fills_and_shifts_match_their_definitions() {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..200 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let b = Bitboard(x & x.rotate_left(23));
            let by = |keep: &dyn Fn(Square) -> bool| {
                Bitboard::from_raw((0..64).filter(|&i| keep(Square::from_index(i))).fold(0, |a, i| a | 1 << i))
            };
            let on = |f: i32, r: i32| {
                (0..8).contains(&f) && (0..8).contains(&r) && b.has(Square::from_index((r * 8 + f) as usize))
            };
            let fr = |s: Square| (s.file() as i32, s.rank() as i32);
            assert_eq!(
                b.north_fill(),
                by(&|s| {
                    let (f, r) = fr(s);
                    (0..=r).any(|k| on(f, k))
                })
            );
            assert_eq!(
                b.south_fill(),
                by(&|s| {
                    let (f, r) = fr(s);
                    (r..8).any(|k| on(f, k))
                })
            );
            assert_eq!(b.file_fill(), by(&|s| (0..8).any(|k| on(fr(s).0, k))));
            assert_eq!(
                b.west(),
                by(&|s| {
                    let (f, r) = fr(s);
                    on(f + 1, r)
                })
            );
            assert_eq!(
                b.east(),
                by(&|s| {
                    let (f, r) = fr(s);
                    on(f - 1, r)
                })
            );
            assert_eq!(
                b.pawn_attacks_up(),
                by(&|s| {
                    let (f, r) = fr(s);
                    on(f - 1, r - 1) || on(f + 1, r - 1)
                })
            );
            assert_eq!(
                b.pawn_double_attacks_up(),
                by(&|s| {
                    let (f, r) = fr(s);
                    on(f - 1, r - 1) && on(f + 1, r - 1)
                })
            );
            assert_eq!(
                b.pawn_attacks_down(),
                by(&|s| {
                    let (f, r) = fr(s);
                    on(f - 1, r + 1) || on(f + 1, r + 1)
                })
            );
        }
        assert_eq!(Bitboard::DARK, by_colour());
    }

    /// The dark squares: file + rank even (a1 is dark).
    fn by_colour() -> Bitboard {
        Bitboard::from_raw((0..64u64).filter(|i| (i % 8 + i / 8) % 2 == 0).fold(0, |a, i| a | 1 << i))
    }
}
