//! The network's shape: input and hidden sizes, quantisation constants, the feature sets, and
//! the input feature of a piece (see `docs/nnue.md`). Everything else in `nnue` builds on these.

use crate::bitboard::Bitboard;
use crate::types::{Color, Piece, Square};
use std::fmt;

/// Input features per perspective and king bucket: 2 sides × 6 pieces × 64 squares.
pub const INPUTS: usize = 768;
/// The most king buckets a feature set has ([`FeatureSet::king_buckets`]).
pub const MAX_KING_BUCKETS: usize = 4;
/// The most input features per perspective of any feature set: [`INPUTS`] per king bucket.
pub const MAX_INPUTS: usize = INPUTS * MAX_KING_BUCKETS;
/// Hidden neurons per perspective. Fixed at compile time (see `network` for why): a file
/// with another hidden size is refused with a message naming both sizes.
pub const HIDDEN: usize = 384;
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

/// How a perspective's pieces become input features. `Plain` and `Mirrored` have the same 768
/// inputs and differ in which square a piece is seen on; `MirroredKingBuckets` has one block
/// of 768 per king bucket, and a perspective uses the block of its own king's bucket.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum FeatureSet {
    /// `(piece, square)` with the square flipped vertically for Black: the first networks'.
    #[default]
    Plain = 0,
    /// As `Plain`, and for a perspective whose own king stands on files a–d, every square is
    /// also flipped left–right (the file mirrored), so that the perspective always sees its
    /// king on files e–h. A king move across the d/e line changes that perspective's whole
    /// input (see [`View`]).
    Mirrored = 1,
    /// As `Mirrored`, with [`MAX_KING_BUCKETS`] blocks of 768 inputs: a perspective's
    /// features are those of the block of its own king's bucket ([`king_bucket`]), so a
    /// king move into another bucket changes that perspective's whole input, as a crossing
    /// of the d/e line does.
    MirroredKingBuckets = 2,
}

impl FeatureSet {
    /// Every set, by code.
    pub const ALL: [FeatureSet; 3] = [FeatureSet::Plain, FeatureSet::Mirrored, FeatureSet::MirroredKingBuckets];

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
            2 => Some(FeatureSet::MirroredKingBuckets),
            _ => None,
        }
    }

    /// The set's name, as the trainer's `--features` flag takes it.
    pub const fn name(self) -> &'static str {
        match self {
            FeatureSet::Plain => "plain",
            FeatureSet::Mirrored => "mirrored",
            FeatureSet::MirroredKingBuckets => "mirrored-kb4",
        }
    }

    /// The names of every set, as a list for messages: `'plain', 'mirrored' or …`.
    pub fn names() -> String {
        let quoted: Vec<String> = FeatureSet::ALL.iter().map(|s| format!("'{}'", s.name())).collect();
        let (last, rest) = quoted.split_last().expect("at least one set");
        format!("{} or {last}", rest.join(", "))
    }

    /// Every set's header code and name, as a list for messages: `0 = plain, 1 = mirrored, …`.
    pub fn codes() -> String {
        let known: Vec<String> = FeatureSet::ALL.iter().map(|s| format!("{} = {s}", s.code())).collect();
        known.join(", ")
    }

    /// The number of king buckets: 1, or [`MAX_KING_BUCKETS`] for `MirroredKingBuckets`.
    #[inline(always)]
    pub const fn king_buckets(self) -> usize {
        match self {
            FeatureSet::Plain | FeatureSet::Mirrored => 1,
            FeatureSet::MirroredKingBuckets => MAX_KING_BUCKETS,
        }
    }

    /// Input features per perspective: [`INPUTS`] per king bucket.
    #[inline(always)]
    pub const fn inputs(self) -> usize {
        INPUTS * self.king_buckets()
    }

    /// Whether a perspective whose king stands on files a–d sees the board mirrored.
    #[inline(always)]
    pub const fn mirrors(self) -> bool {
        !matches!(self, FeatureSet::Plain)
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

/// The king bucket of a perspective's own king on `sq`, the square as the perspective sees it
/// (flipped vertically for Black, so rank 0 is its back rank) and mirrored onto files e–h:
/// on the back rank 0 on files g–h and 1 on files e–f, 2 on the second rank, 3 beyond.
/// Castled and uncastled kings, and middlegame and endgame kings, get their own weights.
#[inline(always)]
pub const fn king_bucket(sq: usize) -> usize {
    match (sq / 8, sq % 8) {
        (0, file) if file >= 6 => 0,
        (0, _) => 1,
        (1, _) => 2,
        _ => 3,
    }
}

/// How one perspective indexes its features, fixed by where its own king stands: a plain
/// feature index ([`feature_index`]) becomes `(index ^ mask) + base`. `mask` is
/// [`FILE_MIRROR`] when the set mirrors and the king is on files a–d, else 0 (a feature index
/// is `block * 64 + square`, so XORing the whole index mirrors the square alone; the vertical
/// flip for Black changes no file, so the mask is the same before or after it). `base` is
/// the king bucket's block, `768 * bucket`, 0 in the sets without buckets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct View {
    pub mask: u16,
    pub base: u16,
}

impl View {
    /// The view of `perspective` in feature set `set` with its own king on `king_sq` (a
    /// square index, a1 = 0).
    #[inline(always)]
    pub const fn of(set: FeatureSet, perspective: Color, king_sq: usize) -> View {
        let mask = if set.mirrors() && king_sq % 8 < MIRROR_BELOW_FILE { FILE_MIRROR } else { 0 };
        let base = match set {
            FeatureSet::MirroredKingBuckets => {
                let seen = king_sq ^ (56 * perspective.index()) ^ mask;
                INPUTS * king_bucket(seen)
            }
            _ => 0,
        };
        View { mask: mask as u16, base: base as u16 }
    }

    /// [`View::of`] for a perspective whose king set is `king`: the identity view when it is
    /// empty (no legal position, but a refresh must not fail on one).
    #[inline(always)]
    pub fn of_king(set: FeatureSet, perspective: Color, king: Bitboard) -> View {
        if king.is_empty() {
            View::default()
        } else {
            View::of(set, perspective, king.lsb().index())
        }
    }

    /// The feature index of plain index `plain` in this view.
    #[inline(always)]
    pub const fn apply(self, plain: usize) -> usize {
        (plain ^ self.mask as usize) + self.base as usize
    }

    /// A number below [`VIEWS`], different for every view a feature set can give: the king
    /// bucket and the mirroring.
    #[inline(always)]
    pub const fn slot(self) -> usize {
        (self.base as usize / INPUTS) * 2 + (self.mask != 0) as usize
    }
}

/// The number of different [`View`]s of one perspective: mirrored or not, per king bucket.
pub const VIEWS: usize = 2 * MAX_KING_BUCKETS;

/// Calls `visit` with the input feature index of every piece of a position seen from
/// `perspective`, the position given as its piece sets (`colored(color, piece)`). This is
/// the one definition of a position's active features in the engine: the accumulator's
/// refresh is built on it, and tests compare the trainer's features with it. (A position
/// without the perspective's king, which no legal position is, takes the identity view.)
#[inline(always)]
pub fn for_each_feature(
    set: FeatureSet,
    perspective: Color,
    colored: impl Fn(Color, Piece) -> Bitboard,
    mut visit: impl FnMut(usize),
) {
    let view = View::of_king(set, perspective, colored(perspective, Piece::King));
    for color in Color::ALL {
        for piece in Piece::ALL {
            for sq in colored(color, piece) {
                visit(view.apply(feature_index(perspective, color, piece, sq)));
            }
        }
    }
}

/// The input feature of `color`'s `piece` on `sq` seen from `perspective`:
/// `(side * 6 + piece) * 64 + square'`, where `side` is 0 for the perspective's own pieces
/// and `square'` is the square flipped vertically for Black. This is the plain set's index;
/// the other sets transform it by the perspective's [`View`].
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Views of kings where players put them: castled either way, in the centre, on the
    /// second rank, in the field, for both perspectives.
    #[test]
    fn views_by_king_square() {
        let kb = FeatureSet::MirroredKingBuckets;
        let view = |c: Color, sq: &str| View::of(kb, c, sq.parse::<Square>().unwrap().index());
        let expect = |mask: usize, bucket: usize| View { mask: mask as u16, base: (INPUTS * bucket) as u16 };
        assert_eq!(view(Color::White, "g1"), expect(0, 0));
        assert_eq!(view(Color::White, "b1"), expect(FILE_MIRROR, 0));
        assert_eq!(view(Color::White, "c1"), expect(FILE_MIRROR, 1));
        assert_eq!(view(Color::White, "e1"), expect(0, 1));
        assert_eq!(view(Color::White, "h2"), expect(0, 2));
        assert_eq!(view(Color::White, "d5"), expect(FILE_MIRROR, 3));
        assert_eq!(view(Color::White, "g8"), expect(0, 3));
        assert_eq!(view(Color::Black, "g8"), expect(0, 0));
        assert_eq!(view(Color::Black, "c8"), expect(FILE_MIRROR, 1));
        assert_eq!(view(Color::Black, "a7"), expect(FILE_MIRROR, 2));
        assert_eq!(view(Color::Black, "g1"), expect(0, 3));
        // The other sets: mirroring only, or nothing.
        let c1 = "c1".parse::<Square>().unwrap().index();
        assert_eq!(View::of(FeatureSet::Mirrored, Color::White, c1), expect(FILE_MIRROR, 0));
        assert_eq!(View::of(FeatureSet::Plain, Color::White, c1), View::default());
        // Every view of every square has its own slot below VIEWS, and the index stays inside
        // the set's inputs.
        let mut slots = std::collections::HashSet::new();
        for sq in 0..64 {
            for c in Color::ALL {
                let v = View::of(kb, c, sq);
                assert!(v.slot() < VIEWS);
                assert!(v.apply(INPUTS - 1) < kb.inputs());
                slots.insert((v.slot(), v));
            }
        }
        assert_eq!(slots.len(), VIEWS, "every slot used, one view each");
    }
}
