//! The quantised network and its `.nnue` file.
//!
//! # The file (all little-endian; `docs/nnue.md` has the table)
//! A 40-byte header (magic `HZNNUE\0\0`, format version, input count I, hidden size N,
//! activation 1 = SCReLU, QA, QB, SCALE, and the output bucket count B), then the feature
//! weights `i16 [I][N]` feature-major, the feature bias `i16 [N]`, the output weights `i16
//! [B][2N]` (per bucket, side to move first), the output biases `i32 [B]`, and an FNV-1a 64
//! checksum of every byte before it. Version 1 is the same with one bucket, its header's
//! last field reserved; a network with one bucket is written as version 1, so files from
//! before output buckets and files written now are the same bytes. Version 3 adds four
//! bytes to the header, at offset 40: the feature set (0 plain, 1 mirrored, 2 mirrored with
//! four king buckets: [`FeatureSet`]); versions 1 and 2 are the plain set. I is 768 per king
//! bucket of the set: 768, or 3072 with king buckets. Plain networks are still written as version 1 or 2
//! (so their files are unchanged), mirrored ones as version 3.
//!
//! [`Network::from_bytes`] checks, in this order: the size holds a header, the magic, the
//! version (and that a version-3 header is whole), the activation, the hidden size's range,
//! the bucket count's range, the feature set, the input count (the set's), the exact total size
//! (truncated or trailing bytes), the checksum, the quantisation constants, that no output bucket's weights can overflow the output layer's i32 sum
//! ([`MAX_OUTPUT_WEIGHT_SUM`]), and last that the hidden size is the one this build was
//! compiled for. Each failure is its own [`NetworkError`] with a one-line message. The
//! checks up to the overflow bound are [`Shape::of_file`], which the trainer's reader shares.
//!
//! # The output layer's sum cannot overflow
//! The output layer sums `screlu(x) · w` over the 2N weights of one bucket in i32, with
//! `screlu(x) = clamp(x, 0, QA)²` between 0 and `QA²` = 65025 whatever the accumulator holds.
//! The sum therefore lies between `−QA² · (sum of the bucket's negative weights' magnitudes)`
//! and `QA² · (sum of its positive weights)`, and both ends are reached (every activation 0
//! or `QA`). Each of those two weight sums at most [`MAX_OUTPUT_WEIGHT_SUM`] =
//! `⌊(2³¹ − 1) / QA²⌋` = 33025 is exactly what keeps every sum inside i32, for any hidden
//! size and bucket count; the reader refuses a file past it, and the trainer's exporter clips
//! to it (docs/nnue.md gives the embedded network's largest such sum). The step after the sum,
//! `(sum / QA + bias) · SCALE / (QA · QB)`, is computed in i64, so the bias needs no bound.
//!
//! # Why the hidden size is a compile-time constant
//! With `HIDDEN` fixed the network is one `#[repr(C)]` struct of plain arrays, each weight
//! column and each accumulator exactly `2 · HIDDEN` bytes at 64-byte alignment, and an
//! accumulator is an inline array on the search's stack: the SIMD loops run a fixed number of
//! iterations (at 384, one perspective is 24 AVX2 registers or 12 AVX-512 ones) and
//! there is no indirection through a heap slice per node. Supporting N at run time would
//! cost those for a flexibility one rebuild (change `HIDDEN`) gives. A valid file with
//! another N is refused with a message naming both sizes.

use super::features::{FeatureSet, HIDDEN, INPUTS, MAX_INPUTS, MAX_OUTPUT_BUCKETS, QA, QB, SCALE};
use crate::hash::fnv1a64;
use crate::rng::SplitMix64;
use once_cell::sync::Lazy;
use std::fmt;
use std::sync::Arc;

/// First 8 bytes of every `.nnue` file.
pub const MAGIC: [u8; 8] = *b"HZNNUE\0\0";
/// The newest format version: output buckets and a feature set in the header. This reader
/// also reads [`VERSION_BUCKETS`] and [`VERSION_ONE_BUCKET`] (both the plain feature set);
/// mirrored networks are written in this version, plain ones in the older two.
pub const VERSION: u32 = 3;
/// The format version with output buckets and no feature set (plain): networks of the plain
/// set with more than one bucket are still written so.
pub const VERSION_BUCKETS: u32 = 2;
/// The first format version: one output bucket, the header's last field reserved. Networks
/// with one bucket are still written so.
pub const VERSION_ONE_BUCKET: u32 = 1;
/// Activation code of SCReLU, the only one defined.
pub const ACTIVATION_SCRELU: u32 = 1;
/// Header size in bytes of versions 1 and 2 (and the least any file has).
pub const HEADER_BYTES: usize = 40;
/// Header size in bytes of version 3: the feature set follows the older header.
pub const HEADER_BYTES_V3: usize = 44;
/// Checksum size in bytes (at the end of the file).
pub const CHECKSUM_BYTES: usize = 8;
/// The largest hidden size the format allows.
pub const MAX_HIDDEN: usize = 4096;
/// Hidden sizes must be multiples of this (whole SIMD registers).
pub const HIDDEN_MULTIPLE: usize = 16;
/// The most that one output bucket's positive weights may sum to, and its negative weights'
/// magnitudes: `⌊i32::MAX / QA²⌋` = 33025, so that the output layer's sum `Σ screlu · w`,
/// each `screlu` between 0 and `QA²`, always fits i32 (see the module documentation).
pub const MAX_OUTPUT_WEIGHT_SUM: i64 = i32::MAX as i64 / (QA as i64 * QA as i64);
/// The output layer forms `screlu(x) · w` in 16-bit lanes as `(screlu(x) + SCRELU_SHIFT) · w`,
/// `screlu(x) + SCRELU_SHIFT` fitting i16 (`simd::layers`); the sum then lacks
/// `−SCRELU_SHIFT · Σ w`, which [`OutputWeights::screlu_offset`] computes once per network.
pub const SCRELU_SHIFT: i16 = i16::MIN;

/// The default network, embedded at build time: a network trained on Horizon's own self-play
/// games (see `nets/HISTORY.md`).
pub static DEFAULT_NET_BYTES: &[u8] = include_bytes!("nets/default.nnue");

/// Name under which `EvalFile` refers to the embedded network.
pub const INTERNAL_NAME: &str = "<internal>";

static DEFAULT_NETWORK: Lazy<Arc<Network>> = Lazy::new(|| {
    Arc::from(Network::from_bytes(DEFAULT_NET_BYTES).unwrap_or_else(|e| panic!("the embedded network is invalid: {e}")))
});

/// The embedded default network, parsed once and shared.
pub fn default_network() -> Arc<Network> {
    DEFAULT_NETWORK.clone()
}

/// One weight column (or the bias, or an accumulator half): `HIDDEN` i16 at 64-byte alignment.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(C, align(64))]
pub struct Column(pub [i16; HIDDEN]);

impl Column {
    /// Adds `w` in place, lane by lane (the compiler vectorises it): the same wrapping i16
    /// sums as the update kernels.
    #[inline(always)]
    pub fn add_assign(&mut self, w: &Column) {
        for (o, w) in self.0.iter_mut().zip(w.0.iter()) {
            *o = o.wrapping_add(*w);
        }
    }

    /// Subtracts `w` in place, lane by lane, wrapping as [`Column::add_assign`] does.
    #[inline(always)]
    pub fn sub_assign(&mut self, w: &Column) {
        for (o, w) in self.0.iter_mut().zip(w.0.iter()) {
            *o = o.wrapping_sub(*w);
        }
    }
}

/// The output weights: first `HIDDEN` for the side to move, then `HIDDEN` for the other side.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(C, align(64))]
pub struct OutputWeights(pub [i16; 2 * HIDDEN]);

impl OutputWeights {
    /// The part of the output layer's sum over these weights that does not depend on the
    /// position: `−SCRELU_SHIFT · Σ w` (modulo 2³², as the sum is), which the SIMD loop leaves
    /// out and its caller adds back ([`SCRELU_SHIFT`]). Zero for all-zero weights.
    pub fn screlu_offset(&self) -> i32 {
        let sum = self.0.iter().fold(0i32, |s, &w| s.wrapping_add(w as i32));
        sum.wrapping_mul(-(SCRELU_SHIFT as i32))
    }
}

/// The quantised network. All fields are plain integers, so all-zero bytes are a valid value
/// (a network with one output bucket: a count of 0 counts as 1; all-zero output weights have
/// offset 0).
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Network {
    /// `feature_weights[f]`: the column added to an accumulator when feature `f` is active.
    /// Only the first `feature_set.inputs()` are used; the rest are zero.
    pub feature_weights: [Column; MAX_INPUTS],
    pub feature_bias: Column,
    /// The output weights of each bucket; those past [`Network::buckets`] are zero. Private,
    /// so that `output_offset` always matches them: set through
    /// [`Network::set_output_weights`].
    output_weights: [OutputWeights; MAX_OUTPUT_BUCKETS],
    pub output_bias: [i32; MAX_OUTPUT_BUCKETS],
    /// Each bucket's [`OutputWeights::screlu_offset`], computed when its weights are set
    /// rather than in every evaluation.
    output_offset: [i32; MAX_OUTPUT_BUCKETS],
    /// How many output buckets are in use (see [`super::features::output_bucket`]).
    pub output_buckets: u32,
    /// How pieces become input features (`Plain` is all-zero bytes).
    pub feature_set: FeatureSet,
}

impl Network {
    /// The number of output buckets in use, 1 to [`MAX_OUTPUT_BUCKETS`].
    #[inline(always)]
    pub fn buckets(&self) -> usize {
        (self.output_buckets as usize).clamp(1, MAX_OUTPUT_BUCKETS)
    }

    /// The output weights of bucket `bucket` (below [`MAX_OUTPUT_BUCKETS`]).
    #[inline(always)]
    pub fn output_weights(&self, bucket: usize) -> &OutputWeights {
        &self.output_weights[bucket]
    }

    /// The position-independent part of bucket `bucket`'s output sum (see
    /// [`OutputWeights::screlu_offset`]), computed when the weights were set.
    #[inline(always)]
    pub fn output_offset(&self, bucket: usize) -> i32 {
        self.output_offset[bucket]
    }

    /// Sets the output weights of bucket `bucket` (below [`MAX_OUTPUT_BUCKETS`]) and their offset.
    pub fn set_output_weights(&mut self, bucket: usize, weights: OutputWeights) {
        self.output_weights[bucket] = weights;
        self.output_offset[bucket] = weights.screlu_offset();
    }
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let b = self.buckets();
        let set = self.feature_set;
        write!(
            f,
            "Network {{ hidden: {HIDDEN}, features: {set}, output_buckets: {b}, output_bias: {:?} }}",
            &self.output_bias[..b]
        )
    }
}

/// Why a network file was refused. Each prints as one line naming the problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NetworkError {
    /// The file could not be read at all.
    Read {
        path: String,
        reason: String,
    },
    /// Shorter than the header (of `header` bytes in this file's version).
    TooShort {
        found: usize,
        header: usize,
    },
    BadMagic,
    UnsupportedVersion(u32),
    /// The header's input count is not its feature set's.
    WrongInputCount {
        found: u32,
        expected: usize,
    },
    WrongActivation(u32),
    HiddenSizeOutOfRange(u32),
    /// A version-2 or 3 header's output bucket count is not 1 to [`MAX_OUTPUT_BUCKETS`].
    OutputBucketsOutOfRange(u32),
    /// A version-3 header's feature set is none this build knows.
    UnknownFeatureSet(u32),
    /// Shorter than the header's sizes say.
    Truncated {
        expected: usize,
        found: usize,
    },
    /// Longer than the header's sizes say.
    TrailingBytes {
        expected: usize,
        found: usize,
    },
    BadChecksum {
        expected: u64,
        found: u64,
    },
    QuantisationMismatch {
        qa: u32,
        qb: u32,
        scale: u32,
    },
    /// An output bucket whose positive weights, or negative weights' magnitudes, sum past
    /// [`MAX_OUTPUT_WEIGHT_SUM`]: its output sum could overflow i32.
    OutputOverflow {
        bucket: usize,
        positive: i64,
        negative: i64,
    },
    /// A valid file whose hidden size is not this build's.
    HiddenSizeMismatch {
        found: u32,
    },
}

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "network file: ")?;
        match self {
            NetworkError::Read { path, reason } => write!(f, "cannot read {path}: {reason}"),
            NetworkError::TooShort { found, header } => {
                write!(f, "truncated header ({found} bytes, a header is {header})")
            }
            NetworkError::BadMagic => write!(f, "bad magic (not a Horizon .nnue network)"),
            NetworkError::UnsupportedVersion(v) => {
                write!(f, "unsupported format version {v} (expected {VERSION_ONE_BUCKET}, {VERSION_BUCKETS} or {VERSION})")
            }
            NetworkError::WrongInputCount { found, expected } => {
                write!(f, "wrong input count {found} (expected {expected})")
            }
            NetworkError::WrongActivation(a) => {
                write!(f, "wrong activation {a} (expected {ACTIVATION_SCRELU} = SCReLU)")
            }
            NetworkError::HiddenSizeOutOfRange(n) => {
                write!(f, "hidden size {n} out of range (1..={MAX_HIDDEN}, a multiple of {HIDDEN_MULTIPLE})")
            }
            NetworkError::OutputBucketsOutOfRange(b) => {
                write!(f, "output bucket count {b} out of range (1..={MAX_OUTPUT_BUCKETS})")
            }
            NetworkError::UnknownFeatureSet(code) => {
                write!(f, "unknown feature set {code} (expected {})", FeatureSet::codes())
            }
            NetworkError::Truncated { expected, found } => {
                write!(f, "truncated ({found} bytes, expected {expected})")
            }
            NetworkError::TrailingBytes { expected, found } => {
                write!(f, "trailing bytes ({found} bytes, expected {expected})")
            }
            NetworkError::BadChecksum { expected, found } => {
                write!(f, "bad checksum (expected {expected:016x}, found {found:016x})")
            }
            NetworkError::QuantisationMismatch { qa, qb, scale } => write!(
                f,
                "quantisation constants mismatch (file QA {qa} QB {qb} SCALE {scale}, engine QA {QA} QB {QB} SCALE {SCALE})"
            ),
            NetworkError::OutputOverflow { bucket, positive, negative } => write!(
                f,
                "output bucket {bucket}'s weights could overflow the output sum (positive weights sum to {positive}, negative ones to -{negative}; each must be within {MAX_OUTPUT_WEIGHT_SUM})"
            ),
            NetworkError::HiddenSizeMismatch { found } => {
                write!(f, "hidden size mismatch (file has {found}, this build supports {HIDDEN})")
            }
        }
    }
}

impl std::error::Error for NetworkError {}

/// The exact size of a plain network's file with hidden size `n` and `buckets` output buckets.
pub const fn file_size(n: usize, buckets: usize) -> usize {
    file_size_with(n, buckets, FeatureSet::Plain)
}

/// The exact size of a file with hidden size `n`, `buckets` output buckets and feature set
/// `set` (whose header is 4 bytes longer when mirrored: version 3).
pub const fn file_size_with(n: usize, buckets: usize, set: FeatureSet) -> usize {
    Shape::written(n, buckets, set).file_size()
}

/// The version a network with `buckets` output buckets and feature set `set` is written in:
/// the oldest that can hold it, so plain files are the bytes they always were.
pub const fn written_version(buckets: usize, set: FeatureSet) -> u32 {
    match set {
        FeatureSet::Plain if buckets <= 1 => VERSION_ONE_BUCKET,
        FeatureSet::Plain => VERSION_BUCKETS,
        FeatureSet::Mirrored | FeatureSet::MirroredKingBuckets => VERSION,
    }
}

/// The header size of format version `version`.
pub const fn header_size(version: u32) -> usize {
    if version >= VERSION {
        HEADER_BYTES_V3
    } else {
        HEADER_BYTES
    }
}

/// The header of a file with hidden size `n`, `buckets` output buckets and feature set `set`,
/// in [`written_version`]: version 1 (its last field reserved, 0) for a plain network with
/// one bucket, version 2 (the bucket count there) for more, version 3 (the bucket count,
/// then the feature set) for a mirrored one. The engine's writer and the trainer's both
/// start with it.
pub fn header_bytes(n: usize, buckets: usize, set: FeatureSet) -> Vec<u8> {
    let version = written_version(buckets, set);
    let bucket_field = if version == VERSION_ONE_BUCKET { 0 } else { buckets as u32 };
    let fields =
        [version, set.inputs() as u32, n as u32, ACTIVATION_SCRELU, QA as u32, QB as u32, SCALE as u32, bucket_field];
    let mut header = MAGIC.to_vec();
    for v in fields {
        header.extend_from_slice(&v.to_le_bytes());
    }
    if version == VERSION {
        header.extend_from_slice(&set.code().to_le_bytes());
    }
    debug_assert_eq!(header.len(), header_size(version));
    header
}

/// The sizes a valid file announces (hidden size N, output buckets B, the feature set), and
/// where each of its blocks lies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    pub hidden: usize,
    pub buckets: usize,
    pub features: FeatureSet,
    /// The header's size: 44 bytes in version 3 (even for a plain network), 40 before.
    pub header: usize,
}

impl Shape {
    /// Checks `bytes` as a network file of any hidden size, in the order the format fixes
    /// (see the module documentation): everything but whether this build has its hidden
    /// size. The engine's reader and the trainer's share it.
    pub fn of_file(bytes: &[u8]) -> Result<Shape, NetworkError> {
        // 1. A header must be there to read.
        if bytes.len() < HEADER_BYTES {
            return Err(NetworkError::TooShort { found: bytes.len(), header: HEADER_BYTES });
        }
        // 2. The header, field by field, in the order the format fixes.
        if bytes[..8] != MAGIC {
            return Err(NetworkError::BadMagic);
        }
        let mut r = Reader { bytes, pos: 8 };
        let version = r.u32();
        if ![VERSION_ONE_BUCKET, VERSION_BUCKETS, VERSION].contains(&version) {
            return Err(NetworkError::UnsupportedVersion(version));
        }
        let header = header_size(version);
        if bytes.len() < header {
            return Err(NetworkError::TooShort { found: bytes.len(), header });
        }
        let inputs = r.u32();
        let hidden = r.u32();
        let activation = r.u32();
        if activation != ACTIVATION_SCRELU {
            return Err(NetworkError::WrongActivation(activation));
        }
        let n = hidden as usize;
        if n == 0 || n > MAX_HIDDEN || !n.is_multiple_of(HIDDEN_MULTIPLE) {
            return Err(NetworkError::HiddenSizeOutOfRange(hidden));
        }
        let (qa, qb, scale, bucket_field) = (r.u32(), r.u32(), r.u32(), r.u32());
        let buckets = if version == VERSION_ONE_BUCKET { 1 } else { bucket_field as usize };
        if buckets == 0 || buckets > MAX_OUTPUT_BUCKETS {
            return Err(NetworkError::OutputBucketsOutOfRange(bucket_field));
        }
        let features = if version == VERSION {
            let code = r.u32();
            FeatureSet::from_code(code).ok_or(NetworkError::UnknownFeatureSet(code))?
        } else {
            FeatureSet::Plain
        };
        if inputs as usize != features.inputs() {
            return Err(NetworkError::WrongInputCount { found: inputs, expected: features.inputs() });
        }
        let shape = Shape { hidden: n, buckets, features, header };
        // 3. The exact size the header announces.
        let expected = shape.file_size();
        if bytes.len() < expected {
            return Err(NetworkError::Truncated { expected, found: bytes.len() });
        }
        if bytes.len() > expected {
            return Err(NetworkError::TrailingBytes { expected, found: bytes.len() });
        }
        // 4. The checksum over everything before it.
        let body = expected - CHECKSUM_BYTES;
        let stored = u64::from_le_bytes(bytes[body..].try_into().expect("8 bytes"));
        let computed = fnv1a64(&bytes[..body]);
        if stored != computed {
            return Err(NetworkError::BadChecksum { expected: stored, found: computed });
        }
        // 5. The quantisation the engine's arithmetic assumes.
        if qa as i32 != QA || qb as i32 != QB || scale as i32 != SCALE {
            return Err(NetworkError::QuantisationMismatch { qa, qb, scale });
        }
        // 6. No output bucket whose sum could overflow i32.
        for bucket in 0..buckets {
            let at = shape.output_weights_at(bucket);
            let weights = bytes[at..at + 4 * n].chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]]) as i64);
            let (positive, negative) = weights.fold((0, 0), |(p, m), w| if w > 0 { (p + w, m) } else { (p, m - w) });
            if positive > MAX_OUTPUT_WEIGHT_SUM || negative > MAX_OUTPUT_WEIGHT_SUM {
                return Err(NetworkError::OutputOverflow { bucket, positive, negative });
            }
        }
        Ok(shape)
    }

    /// The shape of a network as it is written ([`written_version`]).
    pub const fn written(hidden: usize, buckets: usize, features: FeatureSet) -> Shape {
        Shape { hidden, buckets, features, header: header_size(written_version(buckets, features)) }
    }

    /// The file's exact size.
    pub const fn file_size(&self) -> usize {
        self.header
            + self.features.inputs() * self.hidden * 2
            + self.hidden * 2
            + self.buckets * (2 * self.hidden * 2 + 4)
            + CHECKSUM_BYTES
    }

    /// Where the feature weights `i16 [inputs][N]` start: after the header.
    pub const fn feature_weights_at(&self) -> usize {
        self.header
    }

    /// Where the feature bias `i16 [N]` starts.
    pub const fn feature_bias_at(&self) -> usize {
        self.feature_weights_at() + self.features.inputs() * self.hidden * 2
    }

    /// Where bucket `bucket`'s output weights `i16 [2N]` start.
    pub const fn output_weights_at(&self, bucket: usize) -> usize {
        self.feature_bias_at() + self.hidden * 2 + bucket * 4 * self.hidden
    }

    /// Where bucket `bucket`'s output bias (i32) is.
    pub const fn output_bias_at(&self, bucket: usize) -> usize {
        self.output_weights_at(self.buckets) + 4 * bucket
    }
}

/// A little-endian reader over a slice whose length was checked beforehand.
struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn u32(&mut self) -> u32 {
        let v = u32::from_le_bytes(self.bytes[self.pos..self.pos + 4].try_into().expect("4 bytes"));
        self.pos += 4;
        v
    }
    fn i32(&mut self) -> i32 {
        self.u32() as i32
    }
    fn i16s(&mut self, out: &mut [i16]) {
        let n = out.len();
        for (o, c) in out.iter_mut().zip(self.bytes[self.pos..self.pos + 2 * n].chunks_exact(2)) {
            *o = i16::from_le_bytes([c[0], c[1]]);
        }
        self.pos += 2 * n;
    }
}

impl Network {
    /// An all-zero network on the heap (the struct is about 1.6 MB: never on the stack).
    pub fn zeroed() -> Box<Network> {
        let layout = std::alloc::Layout::new::<Network>();
        // SAFETY: `Network` has a non-zero size, so the layout is valid for `alloc_zeroed`;
        // every field is an integer, an array of integers, or `FeatureSet` (a `repr(u32)`
        // enum whose variant 0, `Plain`, is all-zero bytes), for all of which all-zero bytes
        // are a valid value; the pointer is checked for null and then owned by exactly one Box,
        // which frees it with the same layout.
        unsafe {
            let ptr = std::alloc::alloc_zeroed(layout) as *mut Network;
            if ptr.is_null() {
                std::alloc::handle_alloc_error(layout);
            }
            Box::from_raw(ptr)
        }
    }

    /// Reads a network from the bytes of a `.nnue` file, with every check of the format.
    pub fn from_bytes(bytes: &[u8]) -> Result<Box<Network>, NetworkError> {
        // 1. A valid file ...
        let shape = Shape::of_file(bytes)?;
        // 2. ... but can this build run it?
        if shape.hidden != HIDDEN {
            return Err(NetworkError::HiddenSizeMismatch { found: shape.hidden as u32 });
        }
        let mut net = Network::zeroed();
        let mut r = Reader { bytes, pos: shape.feature_weights_at() };
        for column in net.feature_weights[..shape.features.inputs()].iter_mut() {
            r.i16s(&mut column.0);
        }
        r.i16s(&mut net.feature_bias.0);
        debug_assert_eq!(r.pos, shape.output_weights_at(0));
        for bucket in 0..shape.buckets {
            let mut weights = OutputWeights([0; 2 * HIDDEN]);
            r.i16s(&mut weights.0);
            net.set_output_weights(bucket, weights);
        }
        for b in &mut net.output_bias[..shape.buckets] {
            *b = r.i32();
        }
        net.output_buckets = shape.buckets as u32;
        net.feature_set = shape.features;
        debug_assert_eq!(r.pos, shape.file_size() - CHECKSUM_BYTES);
        Ok(net)
    }

    /// Reads a network file.
    pub fn from_file(path: &str) -> Result<Box<Network>, NetworkError> {
        let bytes =
            std::fs::read(path).map_err(|e| NetworkError::Read { path: path.to_string(), reason: e.to_string() })?;
        Network::from_bytes(&bytes)
    }

    /// The `.nnue` file of this network (`from_bytes(&net.to_bytes())` gives it back).
    pub fn to_bytes(&self) -> Vec<u8> {
        let buckets = self.buckets();
        let mut out = Vec::with_capacity(file_size_with(HIDDEN, buckets, self.feature_set));
        out.extend_from_slice(&header_bytes(HIDDEN, buckets, self.feature_set));
        let inputs = self.feature_set.inputs();
        let columns = self.feature_weights[..inputs].iter().chain(std::iter::once(&self.feature_bias));
        let outputs = self.output_weights[..buckets].iter().flat_map(|w| w.0.iter());
        for w in columns.flat_map(|c| c.0.iter()).chain(outputs) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for b in &self.output_bias[..buckets] {
            out.extend_from_slice(&b.to_le_bytes());
        }
        let checksum = fnv1a64(&out);
        out.extend_from_slice(&checksum.to_le_bytes());
        out
    }

    /// A network of small random weights from a fixed seed ([`SplitMix64`], so it needs
    /// nothing outside the engine), for tests: a network whose every weight is known without
    /// a file. (Before the first trained network, `nets/default.nnue` was a network of this
    /// kind with seed [`PLACEHOLDER_SEED`], drawn then with a xorshift generator.)
    pub fn random(seed: u64) -> Box<Network> {
        let mut rng = SplitMix64::new(seed);
        let mut next = move |range: i32| rng.below(2 * range as usize + 1) as i32 - range;
        let mut net = Network::zeroed();
        for column in net.feature_weights[..INPUTS].iter_mut() {
            for w in column.0.iter_mut() {
                *w = next(PLACEHOLDER_FEATURE_RANGE) as i16;
            }
        }
        for b in net.feature_bias.0.iter_mut() {
            *b = next(PLACEHOLDER_BIAS_RANGE) as i16;
        }
        let mut weights = OutputWeights([0; 2 * HIDDEN]);
        for w in weights.0.iter_mut() {
            *w = next(PLACEHOLDER_OUTPUT_RANGE) as i16;
        }
        net.set_output_weights(0, weights);
        net.output_bias[0] = next(PLACEHOLDER_BIAS_RANGE);
        net.output_buckets = 1;
        net
    }

    /// [`Network::random`] with `buckets` output buckets (1 to [`MAX_OUTPUT_BUCKETS`]), each
    /// with its own random output weights and bias: for tests of bucketed networks.
    pub fn random_bucketed(seed: u64, buckets: usize) -> Box<Network> {
        let mut net = Network::random(seed);
        let buckets = buckets.clamp(1, MAX_OUTPUT_BUCKETS);
        for b in 1..buckets {
            let other = Network::random(seed.wrapping_add(b as u64));
            net.set_output_weights(b, other.output_weights[0]);
            net.output_bias[b] = other.output_bias[0];
        }
        net.output_buckets = buckets as u32;
        net
    }

    /// This network with the input feature set `set`, for tests of the other sets:
    /// `Network::random(seed).with_feature_set(FeatureSet::Mirrored)`. The first 768 columns
    /// are kept. A set with king buckets fills each further block of 768 with the first
    /// block's columns in another order, negated in odd blocks, so that every bucket's
    /// weights differ; columns the set does not use become zero (as a file would give them).
    pub fn with_feature_set(mut self: Box<Network>, set: FeatureSet) -> Box<Network> {
        let inputs = set.inputs();
        for f in INPUTS..MAX_INPUTS {
            let (block, i) = (f / INPUTS, f % INPUTS);
            let mut column = self.feature_weights[(i + BLOCK_SHUFFLE * block) % INPUTS];
            if block % 2 == 1 {
                column.0.iter_mut().for_each(|w| *w = w.wrapping_neg());
            }
            self.feature_weights[f] = if f < inputs { column } else { Column([0; HIDDEN]) };
        }
        self.feature_set = set;
        self
    }
}

/// Seed of the random network that stood in for a trained one; tests use it as a known network.
pub const PLACEHOLDER_SEED: u64 = 0x4852_5a4e_4e55_4531;
/// Ranges (±) of the placeholder's random weights: small, so that accumulators stay far from
/// i16 limits and evaluations stay in a few hundred centipawns.
pub const PLACEHOLDER_FEATURE_RANGE: i32 = 40;
pub const PLACEHOLDER_BIAS_RANGE: i32 = 200;
pub const PLACEHOLDER_OUTPUT_RANGE: i32 = 6;
/// How far [`Network::with_feature_set`] rotates the first block's columns for each further
/// king-bucket block (prime to 768, so every block is a different order).
const BLOCK_SHUFFLE: usize = 97;
