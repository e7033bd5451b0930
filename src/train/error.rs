//! The one error type of the trainer: bad input or a failed write, so the command line can
//! tell them apart (exit code 2 or 1).

use std::fmt;

/// Why a training run stopped. Each prints as one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TrainError {
    /// Bad input: a data file, a checkpoint or a setting that cannot be used.
    Input(String),
    /// An output (network, checkpoint) could not be written.
    Write(String),
}

impl fmt::Display for TrainError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            TrainError::Input(s) | TrainError::Write(s) => write!(f, "{s}"),
        }
    }
}

impl std::error::Error for TrainError {}

/// The readers' messages are bad input.
impl From<String> for TrainError {
    fn from(s: String) -> TrainError {
        TrainError::Input(s)
    }
}
