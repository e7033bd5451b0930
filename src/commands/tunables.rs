//! `horizon tunables [--uci]`: the search margins SPSA may tune (`crate::search::tunable`),
//! one line each in OpenBench's SPSA input format (`NAME, int, default, min, max, c_end,
//! r_end`), or with `--uci` as the `option` lines a `--features spsa` build declares.

use super::args::Args;
use super::output::say;
use super::subcommand::{Exit, Outcome, Subcommand};
use crate::search::params::TUNABLES;

pub const COMMAND: Subcommand = Subcommand {
    name: "tunables",
    help: "  tunables [--uci]                 the search margins SPSA may tune, in OpenBench's SPSA format",
    run,
    claims: None,
};

const USAGE: &str = "usage: horizon tunables [--uci]";

fn run(argv: &[String]) -> Outcome {
    let a = Args::parse(argv, &[], &["--uci"])?;
    a.positional(0, 0, USAGE)?;
    for t in TUNABLES {
        say!("{}", if a.has("--uci") { t.uci_option() } else { t.openbench_line() });
    }
    Ok(Exit::Ok)
}
