//! The network's shape: input and hidden sizes, quantisation constants, the feature sets, and
//! the input feature of a piece (see `docs/nnue.md`). Everything else in `nnue` builds on these.

use crate::bitboard::Bitboard;
use crate::types::{Color, Piece, Square};
use std::fmt;

/// Input features per perspective: 2 sides × 6 pieces × 64 squares.
pub const INPUTS: usize = 768;
/// Hidden neurons per perspective. Fixed at compile time (see `network` for why): a file
/// with another hidden size is refused with a message naming both sizes.
pub const HIDDEN: usize = 256;
/// Quantisation of the first layer (weights and biases are `round(x * QA)`; the activation
/// clips the accumulator to `0..=QA`).
pub const QA: i32 = 255;
/// Quantisation of the output weights (`round(x * QB)`).
pub const QB: i32 = 64;
/// The network's output times `SCALE` is centipawns.
pub const SCALE: i32 = 400;
/// The most output buckets a network may have: sets of output weights and bias, one chosen
/// per position by the number of pieces on the board ([`output_bucket`]).
pub const MAX_OUTPUT_BUCKETS: usize = 8;

/// The output bucket of a position with `pieces` pieces (kings included) in a network with
/// `buckets` buckets: `(pieces − 2) · buckets / 32`, so the 31 piece counts from 2 to 32 are
/// split into `buckets` nearly equal ranges (with 8: 2–5, 6–9, …, 30–32). Any count and any
/// `buckets` from 0 give a bucket below `buckets.max(1)`.
#[inline(always)]
pub const fn output_bucket(pieces: u32, buckets: usize) -> usize {
    // Counts outside 2..=32 (only from odd FENs) take the nearest end.
    let above_kings = if pieces < 2 {
        0
    } else if pieces > 32 {
        30
    } else {
        pieces - 2
    };
    above_kings as usize * buckets / 32
}

/// How a perspective's pieces become input features. Both sets have the same 768 inputs and
/// the same parameters; they differ in which square a piece is seen on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum FeatureSet {
    /// `(piece, square)` with the square flipped vertically for Black: the first networks'.
    #[default]
    Plain = 0,
    /// As `Plain`, and for a perspective whose own king stands on files a–d, every square is
    /// also flipped left–right (the file mirrored), so that the perspective always sees its
    /// king on files e–h. A king move across the d/e line changes that perspective's whole
    /// input (see [`mirror_mask`]).
    Mirrored = 1,
}

impl FeatureSet {
    /// Both sets, by code.
    pub const ALL: [FeatureSet; 2] = [FeatureSet::Plain, FeatureSet::Mirrored];

    /// The set's code in the network file's header.
    #[inline(always)]
    pub const fn code(self) -> u32 {
        self as u32
    }

    /// The set with header code `code`, if there is one.
    pub const fn from_code(code: u32) -> Option<FeatureSet> {
        match code {
            0 => Some(FeatureSet::Plain),
            1 => Some(FeatureSet::Mirrored),
            _ => None,
        }
    }

    /// The set's name, as the trainer's `--features` flag takes it.
    pub const fn name(self) -> &'static str {
        match self {
            FeatureSet::Plain => "plain",
            FeatureSet::Mirrored => "mirrored",
        }
    }

    /// The set called `name` ([`FeatureSet::name`]), if there is one.
    pub fn from_name(name: &str) -> Option<FeatureSet> {
        FeatureSet::ALL.into_iter().find(|s| s.name() == name)
    }
}

impl fmt::Display for FeatureSet {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// XORed into a square index (a1 = 0) to mirror its file (a <-> h). A feature index is
/// `block * 64 + square'`, so XORing the whole index with it mirrors the square alone.
pub const FILE_MIRROR: usize = 7;
/// Kings on files below this one (a–d) mirror their perspective in [`FeatureSet::Mirrored`].
pub const MIRROR_BELOW_FILE: usize = 4;

/// What to XOR into every feature index of a perspective whose own king stands on `king_sq`
/// (a square index, a1 = 0): [`FILE_MIRROR`] in the mirrored set when the king is on files
/// a–d, else 0. The vertical flip for Black changes no file, so the mask is the same whether
/// taken before or after it.
#[inline(always)]
pub const fn mirror_mask(set: FeatureSet, king_sq: usize) -> usize {
    match set {
        FeatureSet::Plain => 0,
        FeatureSet::Mirrored => {
            if king_sq % 8 < MIRROR_BELOW_FILE {
                FILE_MIRROR
            } else {
                0
            }
        }
    }
}

/// [`mirror_mask`] for a perspective whose king set is `king`: 0 when it is empty (no legal
/// position, but a refresh must not fail on one).
#[inline(always)]
pub fn king_mirror_mask(set: FeatureSet, king: Bitboard) -> usize {
    if king.is_empty() {
        0
    } else {
        mirror_mask(set, king.lsb().index())
    }
}

/// Calls `visit` with the input feature index of every piece of a position seen from
/// `perspective`, the position given as its piece sets (`colored(color, piece)`). This is
/// the one definition of a position's active features in the engine: the accumulator's
/// refresh is built on it, and tests compare the trainer's features with it. (A position
/// without the perspective's king, which no legal position is, counts as unmirrored.)
#[inline(always)]
pub fn for_each_feature(
    set: FeatureSet,
    perspective: Color,
    colored: impl Fn(Color, Piece) -> Bitboard,
    mut visit: impl FnMut(usize),
) {
    let mask = king_mirror_mask(set, colored(perspective, Piece::King));
    for color in Color::ALL {
        for piece in Piece::ALL {
            for sq in colored(color, piece) {
                visit(feature_index(perspective, color, piece, sq) ^ mask);
            }
        }
    }
}

/// The input feature of `color`'s `piece` on `sq` seen from `perspective`:
/// `(side * 6 + piece) * 64 + square'`, where `side` is 0 for the perspective's own pieces
/// and `square'` is the square flipped vertically for Black. This is the plain set's index;
/// the mirrored set XORs it with the perspective's [`mirror_mask`].
#[inline(always)]
pub fn feature_index(perspective: Color, color: Color, piece: Piece, sq: Square) -> usize {
    raw_feature_index(perspective.index(), color.index(), piece.index(), sq.index())
}

/// [`feature_index`] on raw indices (colours 0 white / 1 black, pieces 0..6, squares 0..64),
/// for code that reads packed positions without building a board (the trainer).
#[inline(always)]
pub const fn raw_feature_index(perspective: usize, color: usize, piece: usize, sq: usize) -> usize {
    let side = (color != perspective) as usize;
    (side * 6 + piece) * 64 + (sq ^ (56 * perspective))
}
