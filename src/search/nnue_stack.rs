//! What a searcher holds when the network evaluates: the network and this thread's
//! accumulators (driven by `static_eval.rs`). Its own file so that the `Searcher` (in
//! `mod.rs`) can hold it without `mod.rs` and `static_eval.rs` importing each other.

use crate::eval::nnue::{AccumulatorStack, Network};
use std::sync::Arc;

/// The network and this thread's accumulators.
pub(super) struct Nnue {
    pub(super) net: Arc<Network>,
    pub(super) stack: AccumulatorStack,
}
