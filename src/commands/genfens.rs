//! `horizon "genfens N seed S book <None|FILE> [extra]" quit`: opening positions for
//! OpenBench DATAGEN workloads (see [`crate::data::genfens`] for the request and the positions).
//!
//! OpenBench passes the whole request as one argument and `quit` as another, sometimes
//! after a `setoption name EvalFile value …` argument for a private network. Each argument
//! is read as one UCI-style line, in order:
//!
//! - `genfens …` prints the positions as `info string genfens <FEN>` lines on stdout;
//! - `quit` ends (later arguments are ignored);
//! - `setoption …` is accepted and ignored, with a note on stderr (the positions are
//!   checked with the built-in evaluation).
//!
//! `horizon genfens 5 seed 3 book None` (the request split over several arguments) works
//! too. Any unreadable argument, book or request ends the run with one `error: …` line on
//! stderr and exit code 2.

use super::output::emit;
use super::subcommand::{Exit, Failure, Outcome, Subcommand};
use crate::data::genfens::{run_request, Request};

/// The one subcommand whose line does not start with its name as a word of its own: it
/// claims its lines with [`is_genfens`] and gets the whole line.
pub const COMMAND: Subcommand = Subcommand {
    name: "genfens",
    help: "  \"genfens N seed S book <None|FILE> [extra]\" quit\n                                   N opening FENs for OpenBench DATAGEN ('info string genfens <FEN>')",
    run,
    claims: Some(is_genfens),
};

/// The first word of `arg`.
fn head(arg: &str) -> &str {
    arg.split_whitespace().next().unwrap_or("")
}

/// Is this command line a genfens request (as OpenBench sends it)?
pub fn is_genfens(args: &[String]) -> bool {
    match args.first().map(|a| head(a)) {
        Some("genfens") => true,
        Some("setoption") => args.iter().any(|a| head(a) == "genfens"),
        _ => false,
    }
}

/// The lines the arguments stand for: one per argument, or, when the first argument is
/// the bare word `genfens`, the arguments up to `quit` joined into one request.
fn lines(args: &[String]) -> Vec<String> {
    if args.first().map(String::as_str) == Some("genfens") {
        let end = args.iter().position(|a| a == "quit").unwrap_or(args.len());
        let mut v = vec![args[..end].join(" ")];
        v.extend(args[end..].iter().cloned());
        return v;
    }
    args.to_vec()
}

/// Runs the genfens command line (all of it, the first word included).
fn run(args: &[String]) -> Outcome {
    for line in lines(args) {
        match head(&line) {
            "quit" => break,
            "setoption" => eprintln!("note: '{}' ignored by genfens", line.trim()),
            "genfens" => {
                let request: Request = line.parse().map_err(Failure::input)?;
                run_request(request, |fen| emit(&format!("info string genfens {fen}\n"))).map_err(Failure::input)?;
            }
            _ => {
                return Err(Failure::Input(format!(
                    "genfens: unexpected argument '{}' (expected a genfens request or quit)",
                    line.trim()
                )))
            }
        }
    }
    Ok(Exit::Ok)
}
