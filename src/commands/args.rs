//! Command-line arguments: positional words, `--flag value` options and boolean `--flags`,
//! and numbers read within a range. Every subcommand reads its arguments through this one
//! module, so a bad argument gets the same one-line message shape everywhere, and a number
//! outside its range is refused, never silently clamped:
//!
//! ```text
//! error: --threads must be a whole number from 1 to 256, got '999'
//! error: --lambda must be a number from 0 to 1, got '1.5'
//! error: unknown option '--frobnicate'
//! ```

use crate::board::{Board, START_FEN};
use crate::error::{FenError, MoveError};
use std::fmt::{self, Display};
use std::ops::RangeInclusive;
use std::str::FromStr;

/// Threads of the tools that split work (`--threads` of perft, perft-suite, perft-diff,
/// datagen, tune).
pub const THREADS: RangeInclusive<usize> = 1..=256;
/// Hash table sizes in MiB (`--hash`); perft and perft-diff also take 0 (no table).
pub const HASH_MB: RangeInclusive<usize> = 1..=65536;
/// Perft depths (`perft`; depth 0 counts the position itself).
pub const PERFT_DEPTH: RangeInclusive<u32> = 0..=64;
/// Weights of the game result in the trainer's target (`--lambda` of train and net-loss).
pub const LAMBDA: RangeInclusive<f64> = 0.0..=1.0;
/// Centipawn scales of the trainer's score-to-result map (`--wdl-scale` of train and net-loss).
pub const WDL_SCALE: RangeInclusive<f64> = 1.0..=10_000.0;

/// A bad command-line argument. Each prints as one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ArgError {
    /// A `--flag` the command does not know.
    UnknownOption(String),
    /// A `--flag` that takes a value, given none.
    MissingValue(String),
    /// A number that does not parse or lies outside its range: what it is, the range in
    /// words ("a whole number from 1 to 256"), and the text given.
    Number { what: String, range: String, value: String },
    /// A required option that is absent (the option and its value's name, e.g. `--out FILE`).
    Required(String),
    /// A positional argument the command does not take.
    Unexpected(String),
    /// Two options that exclude each other.
    Conflict(String, String),
    /// The wrong number of positional arguments: the command's usage line.
    Usage(&'static str),
}

impl Display for ArgError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            ArgError::UnknownOption(a) => write!(f, "unknown option '{a}'"),
            ArgError::MissingValue(a) => write!(f, "{a} needs a value"),
            ArgError::Number { what, range, value } => write!(f, "{what} must be {range}, got '{value}'"),
            ArgError::Required(a) => write!(f, "{a} is required"),
            ArgError::Unexpected(a) => write!(f, "unexpected argument '{a}'"),
            ArgError::Conflict(a, b) => write!(f, "{a} and {b} exclude each other"),
            ArgError::Usage(usage) => write!(f, "{usage}"),
        }
    }
}

impl std::error::Error for ArgError {}

/// `text` as a whole number within `range`, or an [`ArgError::Number`] naming `what`.
pub fn number<T>(what: &str, text: &str, range: RangeInclusive<T>) -> Result<T, ArgError>
where
    T: FromStr + PartialOrd + Display,
{
    match text.parse::<T>() {
        Ok(x) if range.contains(&x) => Ok(x),
        _ => Err(ArgError::Number {
            what: what.to_string(),
            range: format!("a whole number from {} to {}", range.start(), range.end()),
            value: text.to_string(),
        }),
    }
}

/// `text` as a finite real number within `range`.
pub fn real(what: &str, text: &str, range: RangeInclusive<f64>) -> Result<f64, ArgError> {
    match text.parse::<f64>() {
        Ok(x) if x.is_finite() && range.contains(&x) => Ok(x),
        _ => Err(ArgError::Number {
            what: what.to_string(),
            range: format!("a number from {} to {}", range.start(), range.end()),
            value: text.to_string(),
        }),
    }
}

/// A command line split into positional arguments and options.
#[derive(Debug, Default)]
pub struct Args<'a> {
    positional: Vec<&'a str>,
    /// `(flag, value)` in command-line order; the value is "" for boolean flags.
    options: Vec<(&'a str, &'a str)>,
}

impl<'a> Args<'a> {
    /// Splits `args`: each flag of `valued` takes the next word as its value, each flag of
    /// `boolean` stands alone, any other word starting with `--` is an unknown option, and
    /// the rest are positional. Options may come before, between or after positionals.
    pub fn parse(args: &'a [String], valued: &[&str], boolean: &[&str]) -> Result<Args<'a>, ArgError> {
        let mut out = Args::default();
        let mut words = args.iter().map(String::as_str);
        while let Some(a) = words.next() {
            if valued.contains(&a) {
                let v = words.next().ok_or_else(|| ArgError::MissingValue(a.to_string()))?;
                out.options.push((a, v));
            } else if boolean.contains(&a) {
                out.options.push((a, ""));
            } else if a.starts_with("--") {
                return Err(ArgError::UnknownOption(a.to_string()));
            } else {
                out.positional.push(a);
            }
        }
        Ok(out)
    }

    /// The positional arguments, refused unless there are `min..=max` of them (`usage` is
    /// the command's usage line).
    pub fn positional(&self, min: usize, max: usize, usage: &'static str) -> Result<&[&'a str], ArgError> {
        if self.positional.len() < min || self.positional.len() > max {
            return Err(ArgError::Usage(usage));
        }
        Ok(&self.positional)
    }

    /// Whether a boolean (or valued) flag was given.
    pub fn has(&self, flag: &str) -> bool {
        self.options.iter().any(|&(f, _)| f == flag)
    }

    /// The value of `flag` (the last one if it was given more than once).
    pub fn value(&self, flag: &str) -> Option<&'a str> {
        self.options.iter().rev().find(|&&(f, _)| f == flag).map(|&(_, v)| v)
    }

    /// Every value of a repeatable `flag`, in command-line order.
    pub fn values(&self, flag: &str) -> Vec<&'a str> {
        self.options.iter().filter(|&&(f, _)| f == flag).map(|&(_, v)| v).collect()
    }

    /// The value of `flag` as a whole number within `range`, if it was given.
    pub fn number<T>(&self, flag: &str, range: RangeInclusive<T>) -> Result<Option<T>, ArgError>
    where
        T: FromStr + PartialOrd + Display,
    {
        self.value(flag).map(|v| number(flag, v, range)).transpose()
    }

    /// The value of `flag` as a real number within `range`, if it was given.
    pub fn real(&self, flag: &str, range: RangeInclusive<f64>) -> Result<Option<f64>, ArgError> {
        self.value(flag).map(|v| real(flag, v, range)).transpose()
    }
}

/// The position given as `[<fen>] [<moves>]`: `fen` (the start position if absent or blank)
/// with `moves` (space-separated UCI moves) played. An illegal move's error names the position
/// it was tried in.
pub fn position(fen: Option<&str>, moves: Option<&str>) -> Result<Board, PositionError> {
    let fen = fen.filter(|f| !f.trim().is_empty()).unwrap_or(START_FEN);
    let mut board = Board::from_fen(fen).map_err(PositionError::Fen)?;
    for tok in moves.unwrap_or("").split_whitespace() {
        match board.parse_uci_move(tok) {
            Ok(m) => board.make(m),
            Err(error) => return Err(PositionError::Move { error, fen: board.to_fen() }),
        }
    }
    Ok(board)
}

/// Why [`position`] could not set up the position. Each prints as one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PositionError {
    Fen(FenError),
    /// A move that cannot be played, and the FEN of the position it was tried in.
    Move {
        error: MoveError,
        fen: String,
    },
}

impl Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            PositionError::Fen(e) => write!(f, "{e}"),
            PositionError::Move { error, fen } => write!(f, "{error} (position {fen})"),
        }
    }
}

impl std::error::Error for PositionError {}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn options_anywhere_and_last_value_wins() {
        let w = words("--threads 2 5 --json fen --threads 3");
        let a = Args::parse(&w, &["--threads"], &["--json"]).unwrap();
        assert_eq!(a.positional(1, 2, "u").unwrap(), ["5", "fen"]);
        assert!(a.has("--json") && !a.has("--hash"));
        assert_eq!(a.number("--threads", THREADS).unwrap(), Some(3));
        assert_eq!(a.values("--threads"), ["2", "3"]);
        assert!(a.values("--hash").is_empty());
        assert_eq!(a.number::<usize>("--hash", HASH_MB).unwrap(), None);
        assert_eq!(a.positional(3, 3, "usage: x").unwrap_err(), ArgError::Usage("usage: x"));
    }

    #[test]
    fn every_bad_argument_is_one_line() {
        let w = words("--threads 999");
        let a = Args::parse(&w, &["--threads"], &[]).unwrap();
        assert_eq!(
            a.number("--threads", THREADS).unwrap_err().to_string(),
            "--threads must be a whole number from 1 to 256, got '999'"
        );
        assert_eq!(
            number::<u32>("depth", "-1", PERFT_DEPTH).unwrap_err().to_string(),
            "depth must be a whole number from 0 to 64, got '-1'"
        );
        assert_eq!(
            real("--lambda", "1.5", 0.0..=1.0).unwrap_err().to_string(),
            "--lambda must be a number from 0 to 1, got '1.5'"
        );
        assert_eq!(
            real("--lr", "NaN", 0.0..=1.0).unwrap_err().to_string(),
            "--lr must be a number from 0 to 1, got 'NaN'"
        );
        let w = words("--bogus");
        assert_eq!(Args::parse(&w, &[], &[]).unwrap_err().to_string(), "unknown option '--bogus'");
        let w = words("--hash");
        assert_eq!(Args::parse(&w, &["--hash"], &[]).unwrap_err().to_string(), "--hash needs a value");
    }
}
