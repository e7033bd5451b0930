//! `horizon convert IN... --out OUT [--to bin|text] [--dedup | --no-dedup] [--force]`:
//! training data between text lines and 32-byte records (the library is
//! `crate::data::convert`). The skipped lines and the summary go to stderr.

use super::args::{ArgError, Args};
use super::subcommand::{Exit, Failure, Outcome, Subcommand};
use crate::data::convert::{self, ConvertError};
use crate::data::Format;

pub const COMMAND: Subcommand = Subcommand {
    name: "convert",
    help: "  convert IN... --out OUT          training data text <-> binary [--to bin|text] [--dedup | --no-dedup] [--force]",
    run,
    claims: None,
};

const USAGE: &str = "usage: horizon convert IN... --out OUT [--to bin|text] [--dedup | --no-dedup] [--force] \
(IN: FILE.bin binary, other files text, - text on stdin)";

/// Reads the arguments into a conversion.
fn config(argv: &[String]) -> Result<convert::Config, Failure> {
    let a = Args::parse(argv, &["--out", "--to"], &["--dedup", "--no-dedup", "--force"])?;
    let inputs: Vec<String> = a.positional(1, usize::MAX, USAGE)?.iter().map(|s| s.to_string()).collect();
    let out = a.value("--out").filter(|o| !o.is_empty()).ok_or_else(|| ArgError::Required("--out FILE".into()))?;
    let to = match a.value("--to") {
        None => Format::of_path(out),
        Some("bin") => Format::Bin,
        Some("text") => Format::Text,
        Some(v) => return Err(Failure::Input(format!("--to must be 'bin' or 'text', got '{v}'"))),
    };
    // Deduplication is on by default when text becomes binary (training data).
    let dedup = match (a.has("--dedup"), a.has("--no-dedup")) {
        (true, true) => return Err(ArgError::Conflict("--dedup".into(), "--no-dedup".into()).into()),
        (true, false) => true,
        (false, true) => false,
        (false, false) => to == Format::Bin && inputs.iter().all(|p| Format::of_path(p) == Format::Text),
    };
    Ok(convert::Config { inputs, out: out.to_string(), to, dedup, force: a.has("--force") })
}

/// A failed write is a failed run (exit 1); anything else is bad input (exit 2).
fn failure(e: ConvertError) -> Failure {
    if e.is_write() {
        Failure::failed(e)
    } else {
        Failure::input(e)
    }
}

fn run(argv: &[String]) -> Outcome {
    let cfg = config(argv)?;
    let start = std::time::Instant::now();
    let s = convert::run(&cfg).map_err(failure)?;
    for l in &s.first_skipped {
        eprintln!("{l}");
    }
    eprintln!(
        "wrote {} positions to '{}' in {:.1} s: read {}, duplicates dropped {}{}, skipped {}",
        s.written,
        cfg.out,
        start.elapsed().as_secs_f64(),
        s.read,
        s.duplicates,
        if cfg.dedup { "" } else { " (dedup off)" },
        s.skipped
    );
    Ok(Exit::Ok)
}
