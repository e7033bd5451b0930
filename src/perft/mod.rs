//! Perft: counting the leaves of the legal move tree, for verifying move generation.
//!
//! Bulk counting at the last ply by default; optionally every leaf played (`bulk: false`),
//! the tree split below the root over threads, and a shared lock-free transposition table.
//!
//! - [`count`]: the plain recursion on one thread, and a stoppable divide (UCI `go perft`).
//! - [`runner`]: [`Perft`], the reusable runner: threads, an optional table, live counters.
//! - [`hashed`]: the recursion through the table; [`table`]: the table itself.
//! - [`suite`]: reading EPD perft suites (`FEN ;D1 20 ;D2 400 ...`).
//! - [`diff`]: finding where another program's perft differs from Horizon's.

pub mod count;
pub mod diff;
pub mod hashed;
pub mod runner;
pub mod suite;
pub mod table;

pub use count::{divide_until, perft};
pub use runner::{divide, perft_with, Perft, PerftCounters, PerftOptions};
pub use suite::{parse_suite_line, SuiteEntry};
pub use table::{PerftTable, TableError};
