//! The contract every subcommand follows: its table entry ([`Subcommand`]), what it returns
//! ([`Exit`] or a [`Failure`]) and the exit codes shared by all of them.
//!
//! | code | meaning |
//! |---|---|
//! | 0 | done; nothing wrong found |
//! | 1 | done, and it found a difference or a failure (a wrong perft count, a perft-diff difference), or it could not finish writing its output |
//! | 2 | bad input: the arguments, a file or position they name, or the program `perft-diff` talks to; nothing was done, or the run stopped at the bad input |
//!
//! A failure prints exactly one line on stderr, `error: <what went wrong>`, and nothing on
//! stdout that was not already printed.

use super::args::ArgError;
use crate::error::ReadError;
use std::fmt::{self, Display};

/// Exit code: done, nothing wrong found.
pub const EXIT_OK: i32 = 0;
/// Exit code: a difference or failure was found (and reported), or output could not be written.
pub const EXIT_FOUND: i32 = 1;
/// Exit code: bad input.
pub const EXIT_BAD_INPUT: i32 = 2;

/// How a subcommand that ran to its end went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// Exit code 0.
    Ok,
    /// Exit code 1: the run found a difference or a failure and has reported it on stdout.
    Found,
}

/// Why a subcommand stopped without finishing.
#[derive(Debug)]
pub enum Failure {
    /// A bad argument (exit code 2).
    Args(ArgError),
    /// Bad input named by the arguments: an unreadable file, an invalid FEN or move, a size
    /// that cannot be allocated, a program that does not answer properly (exit code 2).
    Input(String),
    /// The run itself failed after it started, e.g. its output could not be written (exit
    /// code 1).
    Failed(String),
}

impl Failure {
    /// Bad input, with `e`'s message.
    pub fn input(e: impl Display) -> Failure {
        Failure::Input(e.to_string())
    }

    /// A failure of the run, with `e`'s message.
    pub fn failed(e: impl Display) -> Failure {
        Failure::Failed(e.to_string())
    }

    pub fn code(&self) -> i32 {
        match self {
            Failure::Args(_) | Failure::Input(_) => EXIT_BAD_INPUT,
            Failure::Failed(_) => EXIT_FOUND,
        }
    }
}

impl From<ArgError> for Failure {
    fn from(e: ArgError) -> Failure {
        Failure::Args(e)
    }
}

impl Display for Failure {
    /// One line, whatever the underlying message holds.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let text = match self {
            Failure::Args(e) => e.to_string(),
            Failure::Input(s) | Failure::Failed(s) => s.clone(),
        };
        write!(f, "{}", text.lines().map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>().join(" | "))
    }
}

/// The text of the file at `path`; a file that cannot be read is bad input.
pub fn read_input(path: &str) -> Result<String, Failure> {
    std::fs::read_to_string(path).map_err(|source| Failure::input(ReadError { path: path.to_string(), source }))
}

/// What a subcommand's `run` returns.
pub type Outcome = Result<Exit, Failure>;

/// One subcommand: the word that selects it, its lines of `horizon help`, and its entry point
/// (given the arguments after the command word).
pub struct Subcommand {
    pub name: &'static str,
    /// Indented like the rest of the help: the usage first, then continuation lines.
    pub help: &'static str,
    pub run: fn(&[String]) -> Outcome,
    /// For a command line that does not start with the name as an argument of its own
    /// (OpenBench runs `horizon "genfens 10 seed 3 book None" quit`): says whether a command
    /// line is this subcommand's; `run` then gets the whole line. `None` for the others.
    pub claims: Option<fn(&[String]) -> bool>,
}

/// The exit code of `outcome`, printing a failure's one line on stderr.
pub fn exit_code(outcome: Outcome) -> i32 {
    match outcome {
        Ok(Exit::Ok) => EXIT_OK,
        Ok(Exit::Found) => EXIT_FOUND,
        Err(e) => {
            eprintln!("error: {e}");
            e.code()
        }
    }
}
