//! The one error type of the trainer, [`TrainError`]: bad input
//! (data, holdout files, a network to measure, checkpoint, settings) or a failed write, which
//! the command line tells apart by exit code (2 or 1).

use super::checkpoint::LoadError;
use super::export::WriteError;
use super::network::{HIDDEN_MULTIPLE, MAX_HIDDEN, MAX_OUTPUT_BUCKETS};
use crate::data::read::FileError;
use crate::eval::nnue::network::NetworkError;
use crate::eval::nnue::FeatureSet;
use std::fmt;

/// Why a training run stopped. Each prints as one line.
#[derive(Debug)]
pub enum TrainError {
    /// A data file could not be read.
    Data(FileError),
    /// The checkpoint to resume from could not be read or is not a checkpoint.
    Checkpoint(LoadError),
    /// `--hidden` contradicts the hidden size of the run's start (`from`: "checkpoint" or
    /// "starting network").
    HiddenMismatch { given: usize, start: usize, from: &'static str },
    /// `--output-buckets` contradicts the start's bucket count.
    BucketsMismatch { given: usize, start: usize, from: &'static str },
    /// `--features` contradicts the start's input feature set.
    FeaturesMismatch { given: FeatureSet, start: FeatureSet, from: &'static str },
    /// `--init` and `--resume` together: a run starts from one or the other.
    InitAndResume,
    /// `--resume` from a checkpoint that has already finished every epoch `--epochs` asks for.
    NothingToTrain { done: u32, epochs: u32 },
    /// `--bucket-decay` for a feature set without king buckets.
    BucketDecayWithoutBuckets(FeatureSet),
    /// A hidden size the network format does not allow.
    HiddenSize(usize),
    /// An output bucket count the network format does not allow.
    BucketCount(usize),
    /// The data files hold no valid record.
    NoPositions,
    /// No training position to fit the WDL scale to.
    NoPositionsToFit,
    /// The network or the checkpoint could not be written.
    Write(WriteError),
    /// A holdout file could not be read or is not training data.
    Holdout(FileError),
    /// A holdout file without a record.
    HoldoutEmpty(String),
    /// A holdout file with an invalid record: `FILE record N: reason`.
    HoldoutRecord(String),
    /// A network file to measure or start from could not be read or is not a valid network.
    Network { path: String, error: NetworkError },
}

impl TrainError {
    /// The error for the network file at `path` (to measure or to start from).
    pub fn network(path: &str) -> impl Fn(NetworkError) -> TrainError + '_ {
        move |error| TrainError::Network { path: path.to_string(), error }
    }

    /// Whether an output could not be written (rather than the input being bad).
    pub fn is_write(&self) -> bool {
        matches!(self, TrainError::Write(_))
    }
}

impl fmt::Display for TrainError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            TrainError::Data(e) => write!(f, "{e}"),
            TrainError::Checkpoint(e) => write!(f, "{e}"),
            TrainError::HiddenMismatch { given, start, from } => {
                write!(f, "--hidden {given} differs from the {from}'s hidden size {start}")
            }
            TrainError::BucketsMismatch { given, start, from } => {
                write!(f, "--output-buckets {given} differs from the {from}'s bucket count {start}")
            }
            TrainError::NothingToTrain { done, epochs } => write!(
                f,
                "the checkpoint has finished {done} epoch(s), and --epochs {epochs} asks for no more: nothing to train (raise --epochs to go on)"
            ),
            TrainError::FeaturesMismatch { given, start, from } => {
                write!(f, "--features {given} differs from the {from}'s feature set {start}")
            }
            TrainError::InitAndResume => {
                write!(f, "--init and --resume exclude each other: a run starts from a network or a checkpoint")
            }
            TrainError::BucketDecayWithoutBuckets(set) => {
                write!(f, "--bucket-decay needs a feature set with king buckets, and {set} has none")
            }
            TrainError::HiddenSize(n) => write!(
                f,
                "hidden size {n} must be a multiple of {HIDDEN_MULTIPLE} from {HIDDEN_MULTIPLE} to {MAX_HIDDEN}"
            ),
            TrainError::BucketCount(b) => write!(f, "output bucket count {b} must be from 1 to {MAX_OUTPUT_BUCKETS}"),
            TrainError::NoPositions => write!(f, "no training positions (the data files hold no valid records)"),
            TrainError::NoPositionsToFit => write!(f, "no training positions to fit the scale to"),
            TrainError::Write(e) => write!(f, "{e}"),
            TrainError::Holdout(e) => write!(f, "holdout: {e}"),
            TrainError::HoldoutEmpty(path) => write!(f, "holdout: '{path}' holds no records"),
            TrainError::HoldoutRecord(what) => {
                write!(f, "holdout: {what}; a holdout file must be valid throughout")
            }
            TrainError::Network { error: error @ NetworkError::Read { .. }, .. } => write!(f, "{error}"),
            TrainError::Network { path, error } => write!(f, "{error} ('{path}')"),
        }
    }
}

impl std::error::Error for TrainError {}

impl From<FileError> for TrainError {
    fn from(e: FileError) -> TrainError {
        TrainError::Data(e)
    }
}

impl From<LoadError> for TrainError {
    fn from(e: LoadError) -> TrainError {
        TrainError::Checkpoint(e)
    }
}

impl From<WriteError> for TrainError {
    fn from(e: WriteError) -> TrainError {
        TrainError::Write(e)
    }
}
