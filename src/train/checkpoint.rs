//! Trainer checkpoints: everything needed to continue a run after its last whole epoch.
//!
//! Layout (little-endian), written atomically (temporary file + rename) after every epoch:
//!
//! | offset | field |
//! |---|---|
//! | 0 | magic `b"HZCKPT\0\0"` |
//! | 8 | version u32 = 2 |
//! | 12 | hidden size N u32 |
//! | 16 | epochs completed u32 |
//! | 20 | validation share f32 |
//! | 24 | seed u64 (decides the validation split) |
//! | 32 | random generator state u64 (SplitMix64, after the last epoch's shuffle) |
//! | 40 | optimiser step count u64 |
//! | 48 | output buckets B u32 |
//! | 52 | input feature set u32: 0 plain, 1 mirrored (reserved and 0 before mirroring) |
//! | 56 | parameters f32 `[P]`, then Adam's first moments `[P]`, then second moments `[P]` |
//! | end−8 | FNV-1a 64 of every byte before it |
//!
//! `P = 769·N + B·(2N + 1)` (see `network::Layout`). Version 1, from before output buckets,
//! is the same without the two fields at 48 (B = 1, plain, parameters from 48); it is still
//! read.

use super::adamw::AdamW;
use super::network::{Layout, HIDDEN_MULTIPLE, MAX_HIDDEN, MAX_OUTPUT_BUCKETS};
use crate::eval::nnue::FeatureSet;
use crate::hash::fnv1a64;
use std::fmt;

/// Checkpoint magic.
pub const MAGIC: &[u8; 8] = b"HZCKPT\0\0";
/// Checkpoint format version written.
pub const VERSION: u32 = 2;
/// The version from before output buckets, still read.
pub const VERSION_ONE_BUCKET: u32 = 1;
/// Bytes before the parameters, in version 2 and in version 1.
const HEADER_SIZE: usize = 56;
const HEADER_SIZE_V1: usize = 48;

/// Why bytes are not a checkpoint this build can read. Each prints as one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CheckpointError {
    /// Shorter than a header (the length).
    TooShort(usize),
    BadMagic,
    Version(u32),
    Hidden(usize),
    Buckets(usize),
    /// An input feature set code this build does not know.
    FeatureSet(u32),
    /// Not the size the header's hidden size and bucket count call for.
    Size {
        len: usize,
        want: usize,
        hidden: usize,
        buckets: usize,
    },
    Checksum {
        stored: u64,
        found: u64,
    },
}

impl fmt::Display for CheckpointError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            CheckpointError::TooShort(n) => write!(f, "checkpoint: file too short ({n} bytes)"),
            CheckpointError::BadMagic => write!(f, "checkpoint: not a Horizon trainer checkpoint (bad magic)"),
            CheckpointError::Version(v) => {
                write!(f, "checkpoint: format version {v} (this build reads {VERSION_ONE_BUCKET} and {VERSION})")
            }
            CheckpointError::Hidden(n) => write!(f, "checkpoint: hidden size {n} out of range"),
            CheckpointError::Buckets(b) => {
                write!(f, "checkpoint: output bucket count {b} out of range (1..={MAX_OUTPUT_BUCKETS})")
            }
            CheckpointError::FeatureSet(code) => {
                write!(f, "checkpoint: unknown input feature set {code} (expected {})", FeatureSet::codes())
            }
            CheckpointError::Size { len, want, hidden, buckets } => write!(
                f,
                "checkpoint: size {len} bytes, expected {want} for hidden size {hidden} and {buckets} output bucket(s)"
            ),
            CheckpointError::Checksum { stored, found } => {
                write!(f, "checkpoint: bad checksum (expected {stored:#018x}, found {found:#018x})")
            }
        }
    }
}

impl std::error::Error for CheckpointError {}

/// Why a checkpoint file could not be loaded: unreadable, or not a checkpoint.
#[derive(Debug)]
pub enum LoadError {
    Read { path: String, source: std::io::Error },
    Invalid { path: String, error: CheckpointError },
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            LoadError::Read { path, source } => write!(f, "cannot read checkpoint '{path}': {source}"),
            LoadError::Invalid { path, error } => write!(f, "{error} ('{path}')"),
        }
    }
}

impl std::error::Error for LoadError {}

/// A training run's state between epochs.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    pub hidden: usize,
    pub buckets: usize,
    pub features: FeatureSet,
    pub epochs_done: u32,
    pub val_share: f32,
    pub seed: u64,
    pub rng_state: u64,
    pub params: Vec<f32>,
    pub adam: AdamW,
}

fn size_for(header: usize, l: Layout) -> usize {
    header + 3 * 4 * l.param_count() + 8
}

impl Checkpoint {
    /// The parameters' layout.
    pub fn layout(&self) -> Layout {
        Layout::new(self.hidden, self.buckets, self.features)
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(size_for(HEADER_SIZE, self.layout()));
        b.extend_from_slice(MAGIC);
        b.extend_from_slice(&VERSION.to_le_bytes());
        b.extend_from_slice(&(self.hidden as u32).to_le_bytes());
        b.extend_from_slice(&self.epochs_done.to_le_bytes());
        b.extend_from_slice(&self.val_share.to_le_bytes());
        b.extend_from_slice(&self.seed.to_le_bytes());
        b.extend_from_slice(&self.rng_state.to_le_bytes());
        b.extend_from_slice(&self.adam.step.to_le_bytes());
        b.extend_from_slice(&(self.buckets as u32).to_le_bytes());
        b.extend_from_slice(&self.features.code().to_le_bytes());
        for v in [&self.params, &self.adam.m, &self.adam.v] {
            for x in v.iter() {
                b.extend_from_slice(&x.to_le_bytes());
            }
        }
        let sum = fnv1a64(&b);
        b.extend_from_slice(&sum.to_le_bytes());
        b
    }

    /// Reads a checkpoint, checking magic, version, size and checksum, each with its own
    /// message.
    pub fn from_bytes(b: &[u8]) -> Result<Checkpoint, CheckpointError> {
        if b.len() < HEADER_SIZE_V1 + 8 {
            return Err(CheckpointError::TooShort(b.len()));
        }
        if &b[0..8] != MAGIC {
            return Err(CheckpointError::BadMagic);
        }
        let u32_at = |o: usize| u32::from_le_bytes(b[o..o + 4].try_into().expect("4 bytes"));
        let u64_at = |o: usize| u64::from_le_bytes(b[o..o + 8].try_into().expect("8 bytes"));
        let version = u32_at(8);
        if version != VERSION && version != VERSION_ONE_BUCKET {
            return Err(CheckpointError::Version(version));
        }
        let hidden = u32_at(12) as usize;
        if hidden == 0 || hidden > MAX_HIDDEN || !hidden.is_multiple_of(HIDDEN_MULTIPLE) {
            return Err(CheckpointError::Hidden(hidden));
        }
        let (header, buckets, set_code) = if version == VERSION_ONE_BUCKET {
            (HEADER_SIZE_V1, 1, FeatureSet::Plain.code())
        } else if b.len() < HEADER_SIZE + 8 {
            return Err(CheckpointError::TooShort(b.len()));
        } else {
            (HEADER_SIZE, u32_at(48) as usize, u32_at(52))
        };
        if buckets == 0 || buckets > MAX_OUTPUT_BUCKETS {
            return Err(CheckpointError::Buckets(buckets));
        }
        let features = FeatureSet::from_code(set_code).ok_or(CheckpointError::FeatureSet(set_code))?;
        let layout = Layout::new(hidden, buckets, features);
        let want = size_for(header, layout);
        if b.len() != want {
            return Err(CheckpointError::Size { len: b.len(), want, hidden, buckets });
        }
        let stored = u64_at(want - 8);
        let found = fnv1a64(&b[..want - 8]);
        if stored != found {
            return Err(CheckpointError::Checksum { stored, found });
        }
        let p = layout.param_count();
        let floats = |k: usize| -> Vec<f32> {
            let start = header + k * 4 * p;
            b[start..start + 4 * p]
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")))
                .collect()
        };
        let val_share = f32::from_le_bytes(b[20..24].try_into().expect("4 bytes"));
        Ok(Checkpoint {
            hidden,
            buckets,
            features,
            epochs_done: u32_at(16),
            val_share,
            seed: u64_at(24),
            rng_state: u64_at(32),
            params: floats(0),
            adam: AdamW { m: floats(1), v: floats(2), step: u64_at(40) },
        })
    }

    pub fn load(path: &str) -> Result<Checkpoint, LoadError> {
        let b = std::fs::read(path).map_err(|source| LoadError::Read { path: path.to_string(), source })?;
        Checkpoint::from_bytes(&b).map_err(|error| LoadError::Invalid { path: path.to_string(), error })
    }
}
