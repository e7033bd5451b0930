//! Helpers shared by the integration tests: reading the perft suites in `perft-data/`, and a
//! reporter that keeps a search's reports.

#![allow(dead_code)]

use horizon::perft::{parse_suite_line, SuiteEntry};
use horizon::search::{Report, Reporter};
use std::path::PathBuf;

/// Path of a file in `perft-data/`.
pub fn data_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("perft-data").join(name)
}

/// All entries of one suite file (panics with the line number on an unreadable line, so a
/// broken data file cannot silently shrink the test).
pub fn load_suite(name: &str) -> Vec<SuiteEntry> {
    let path = data_path(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        match parse_suite_line(line) {
            Ok(Some(e)) => out.push(e),
            Ok(None) => {}
            Err(e) => panic!("{name} line {}: {e}", i + 1),
        }
    }
    out
}

/// The four suites with their expected number of records.
pub const SUITES: [(&str, usize); 4] =
    [("perft_standard.epd", 128), ("perft_fischer.epd", 960), ("perft_fischer_xfen40.epd", 40), ("perft_cpw6.epd", 7)];

/// Keeps every report a search makes, in order.
#[derive(Default)]
pub struct Collect(pub Vec<Report>);

impl Reporter for Collect {
    fn report(&mut self, r: &Report) {
        self.0.push(r.clone());
    }
}
