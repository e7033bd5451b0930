//! NNUE: an efficiently updatable neural network evaluation.
//!
//! The network is a perspective network `(768 → HIDDEN) × 2 → 1` with a squared clipped ReLU
//! (SCReLU) and 1 to 8 output buckets chosen by the number of pieces, the architecture and
//! `.nnue` file fixed in `docs/nnue.md`:
//!
//! - [`network`]: the quantised weights ([`Network`]), read from and written to the `.nnue`
//!   file with every check of the format, and the embedded default network;
//! - [`accumulator`]: the first layer's output per perspective ([`Accumulator`]), refreshed
//!   from a board or updated by a move's feature changes, and the lazy per-ply
//!   [`AccumulatorStack`] the search keeps;
//! - [`refresh`]: a perspective recomputed for a placement of the pieces, from the last
//!   accumulator half with the same mirroring (a mirrored network's king crossing the d/e line);
//! - [`features`]: the sizes, the quantisation constants, the feature sets (plain, or
//!   mirrored left–right by the king's half) and the input feature of a piece;
//! - [`output`]: the output layer, from an accumulator (or a board) to centipawns;
//! - [`simd`]: the hot loops (add/subtract weight columns, the output layer), each written
//!   once over a small vector trait and run with AVX-512 or AVX2 chosen at run time, or a
//!   scalar path that gives exactly the same integers.
//!
//! This module depends only on the board and the value types; the search drives it.

pub mod accumulator;
pub mod features;
pub mod network;
pub mod output;
pub mod refresh;
pub mod simd;

pub use accumulator::{Accumulator, AccumulatorStack, Delta};
pub use features::{
    feature_index, for_each_feature, king_bucket, output_bucket, raw_feature_index, FeatureSet, View, HIDDEN, INPUTS,
    MAX_INPUTS, MAX_KING_BUCKETS, MAX_OUTPUT_BUCKETS, QA, QB, SCALE,
};
pub use network::{default_network, Network, NetworkError};
pub use output::{evaluate, evaluate_board, scale_output};
