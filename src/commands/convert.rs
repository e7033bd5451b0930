//! `horizon convert IN... --out OUT [--to bin|text] [--dedup | --no-dedup] [--force]`.

use crate::cli::{split_args, EXIT_USAGE};
use crate::train::convert::{self, Format};

const USAGE: &str = "usage: horizon convert IN... --out OUT [--to bin|text] [--dedup | --no-dedup] [--force] \
(IN: FILE.bin binary, other files text, - text on stdin)";

/// Parses the arguments into a conversion.
pub fn parse_args(args: &[String]) -> Result<convert::Config, String> {
    let (pos, flags) = split_args(args, &["--out", "--to"], &["--dedup", "--no-dedup", "--force"])
        .map_err(|e| format!("{e} ({USAGE})"))?;
    if pos.is_empty() {
        return Err(format!("no input files ({USAGE})"));
    }
    let (mut out, mut to, mut dedup, mut force) = (None, None, None, false);
    for &(f, v) in &flags {
        match f {
            "--out" => out = Some(v.to_string()),
            "--to" => {
                to = Some(match v {
                    "bin" => Format::Bin,
                    "text" => Format::Text,
                    _ => return Err(format!("--to must be 'bin' or 'text', got '{v}'")),
                })
            }
            "--dedup" => dedup = Some(true),
            "--no-dedup" => dedup = Some(false),
            "--force" => force = true,
            _ => {}
        }
    }
    let out = out.filter(|o| !o.is_empty()).ok_or_else(|| format!("--out FILE is required ({USAGE})"))?;
    let to = to.unwrap_or_else(|| Format::of_path(&out));
    let inputs: Vec<String> = pos.iter().map(|s| s.to_string()).collect();
    // Deduplication is on by default when text becomes binary (training data).
    let all_text = inputs.iter().all(|p| Format::of_path(p) == Format::Text);
    let dedup = dedup.unwrap_or(to == Format::Bin && all_text);
    Ok(convert::Config { inputs, out, to, dedup, force })
}

/// Runs `horizon convert`; returns the exit code.
pub fn command(args: &[String]) -> i32 {
    let cfg = match parse_args(args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_USAGE;
        }
    };
    let start = std::time::Instant::now();
    match convert::run(&cfg) {
        Ok(s) => {
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
            0
        }
        Err(e) => {
            eprintln!("error: {e}");
            EXIT_USAGE
        }
    }
}
