//! Writing the quantised network file (`.nnue`).
//!
//! Layout (little-endian):
//!
//! | offset | field |
//! |---|---|
//! | 0 | magic `b"HZNNUE\0\0"` |
//! | 8 | format version u32: plain networks 1 with one output bucket, 2 with more; others 3 |
//! | 12 | input count u32 I: 768 per king bucket (768, or 3072 with king buckets) |
//! | 16 | hidden size N u32 (1..=4096, a multiple of 16) |
//! | 20 | activation u32: 1 = SCReLU |
//! | 24 | QA u32, 28 QB u32, 32 SCALE u32 |
//! | 36 | output buckets B u32 (1..=8) in versions 2 and 3; reserved, 0, in version 1 (B = 1) |
//! | 40 | version 3 only: feature set u32, 0 plain, 1 mirrored, 2 mirrored-kb4 (versions 1 and 2 are plain) |
//! | 40 (44) | feature weights i16 `[I][N]`, feature-major |
//! |    | feature bias i16 `[N]` |
//! |    | output weights i16 `[B][2N]` (per bucket, side to move first) |
//! |    | output biases i32 `[B]` |
//! | end−8 | checksum u64: FNV-1a 64 of every byte before it |
//!
//! Quantisation ([`super::quantise`]): feature weights (with a factoriser, its sums, clipped
//! to the trainer's first-layer clip) and biases `round(x · QA)`, output
//! weights `round(x · QB)` (each bucket clipped so that the engine's i32 output sum cannot
//! overflow), output bias `round(x · QA · QB)`. The engine computes
//! `eval = (Σ screlu(us)·ow_us + Σ screlu(them)·ow_them) / QA + ob) · SCALE / (QA · QB)` with
//! `screlu(x) = clamp(x, 0, QA)²`.

use super::network::Layout;
use super::quantise::Quantised;

// The format's constants are the engine's reader's, defined once in `eval::nnue`.
pub use crate::eval::nnue::network::file_size_with;
pub use crate::eval::nnue::{QA, QB, SCALE};

/// The quantised network file of float parameters `params` laid out as `l`.
pub fn network_bytes(params: &[f32], l: Layout) -> Vec<u8> {
    let out = Quantised::of_params(params, l).to_bytes();
    debug_assert_eq!(out.len(), file_size_with(l.n, l.buckets, l.features));
    out
}

/// Why an output file (network or checkpoint) could not be written. One line each.
#[derive(Debug)]
pub enum WriteError {
    /// The temporary file could not be written.
    Write { path: String, source: std::io::Error },
    /// The temporary file could not be renamed to the output.
    Rename { from: String, to: String, source: std::io::Error },
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            WriteError::Write { path, source } => write!(f, "cannot write '{path}': {source}"),
            WriteError::Rename { from, to, source } => write!(f, "cannot rename '{from}' to '{to}': {source}"),
        }
    }
}

impl std::error::Error for WriteError {}

/// Writes `bytes` to `path` through a temporary file and a rename, so `path` is always
/// either the old file or the whole new one.
pub fn write_atomic(path: &str, bytes: &[u8]) -> Result<(), WriteError> {
    use std::io::Write;
    let tmp = format!("{path}.tmp");
    let write = || -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()
    };
    write().map_err(|source| WriteError::Write { path: tmp.clone(), source })?;
    std::fs::rename(&tmp, path).map_err(|source| WriteError::Rename { from: tmp, to: path.to_string(), source })
}
