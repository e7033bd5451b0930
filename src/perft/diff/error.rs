//! What can go wrong when talking to the other program, as one-line messages that name the
//! program and show what it printed.

use std::fmt;

/// A failure of `perft-diff` other than a bad command line (those are usage errors).
#[derive(Debug, Clone, PartialEq)]
pub enum DiffError {
    /// The position to compare is not valid (bad FEN or an illegal move).
    Position(String),
    /// Horizon's own hash table could not be allocated.
    Hash(String),
    /// `--uci` or `--script` was given an empty command.
    NoCommand,
    /// The command line of the other program has an unmatched quote.
    Unquoted(String),
    /// The program could not be started at all.
    Start { program: String, reason: String },
    /// It exited, or closed its output, without a complete answer to `request` (for a
    /// script: also any exit with a failure status).
    Exited { program: String, request: String, status: String, printed: String },
    /// No complete answer to `request` within the time limit.
    Timeout { program: String, request: String, secs: f64, printed: String },
    /// A line of its answer to `request` is not perft output.
    Garbled { program: String, request: String, line: String },
    /// Its answer ended without the total (or had nothing in it).
    Incomplete { program: String, request: String, printed: String },
    /// Sending it a command failed (it closed its input).
    Write { program: String, request: String, reason: String },
}

/// `what` cut to a readable length.
fn excerpt(what: &str) -> String {
    const MAX: usize = 160;
    let one_line = what.trim().replace(['\n', '\r'], " | ");
    if one_line.is_empty() {
        return "nothing".to_string();
    }
    if one_line.chars().count() <= MAX {
        format!("'{one_line}'")
    } else {
        let cut: String = one_line.chars().take(MAX).collect();
        format!("'{cut}…'")
    }
}

impl fmt::Display for DiffError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            DiffError::Position(e) => write!(f, "bad position: {e}"),
            DiffError::Hash(e) => write!(f, "{e}"),
            DiffError::NoCommand => write!(f, "--uci/--script needs a command to run"),
            DiffError::Unquoted(cmd) => write!(f, "unmatched quote in the command '{cmd}'"),
            DiffError::Start { program, reason } => write!(f, "cannot start '{program}': {reason}"),
            DiffError::Exited { program, request, status, printed } => write!(
                f,
                "{program} exited ({status}) without a complete answer to '{request}'; it printed {}",
                excerpt(printed)
            ),
            DiffError::Timeout { program, request, secs, printed } => write!(
                f,
                "{program} did not answer '{request}' within {secs} s (stopped it); it printed {}",
                excerpt(printed)
            ),
            DiffError::Garbled { program, request, line } => write!(
                f,
                "{program} printed something that is not perft output in answer to '{request}': {}",
                excerpt(line)
            ),
            DiffError::Incomplete { program, request, printed } => {
                write!(f, "{program}'s answer to '{request}' has no total line; it printed {}", excerpt(printed))
            }
            DiffError::Write { program, request, reason } => {
                write!(f, "cannot send '{request}' to {program}: {reason}")
            }
        }
    }
}

impl std::error::Error for DiffError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_one_line_and_name_the_output() {
        let e = DiffError::Garbled { program: "eng".into(), request: "go perft 3".into(), line: "hello\nworld".into() };
        assert_eq!(
            e.to_string(),
            "eng printed something that is not perft output in answer to 'go perft 3': 'hello | world'"
        );
        let e = DiffError::Exited {
            program: "x".into(),
            request: "uci".into(),
            status: "exit status 1".into(),
            printed: String::new(),
        };
        assert_eq!(e.to_string(), "x exited (exit status 1) without a complete answer to 'uci'; it printed nothing");
        let long = "y".repeat(500);
        let e = DiffError::Incomplete { program: "p".into(), request: "r".into(), printed: long };
        assert!(!e.to_string().contains('\n') && e.to_string().len() < 260);
    }
}
