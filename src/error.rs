//! The errors of the value types: data, with a one-line `Display` each.

use std::fmt;

/// A square name that is not a file letter `a`-`h` followed by a rank digit `1`-`8`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SquareParseError(pub String);

impl fmt::Display for SquareParseError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "'{}' is not a square (expected a file a-h and a rank 1-8, as in e4)", self.0)
    }
}

impl std::error::Error for SquareParseError {}

/// Text that is not a move in UCI notation (`e2e4`, `e7e8q`, or `0000` for the null move).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveParseError(pub String);

impl fmt::Display for MoveParseError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "'{}' is not a move in UCI notation (expected e.g. e2e4 or e7e8q)", self.0)
    }
}

impl std::error::Error for MoveParseError {}
