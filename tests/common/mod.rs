//! Helpers shared by the integration tests: reading the perft suites in `perft-data/`, a
//! reporter that keeps a search's reports, and the Syzygy tables of `tests/data/syzygy`.

#![allow(dead_code)]

pub mod accumulators;

use horizon::perft::{parse_suite_line, SuiteEntry};
use horizon::search::{Report, Reporter};
use horizon::syzygy::Tablebases;
use horizon::Board;
use std::path::PathBuf;
use std::sync::OnceLock;

/// The directory of the 3-4 piece Syzygy tables the tests use.
pub fn table_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/syzygy")
}

/// Those tables, opened once for all tests of a test binary.
pub fn tables() -> &'static Tablebases {
    static TB: OnceLock<Tablebases> = OnceLock::new();
    TB.get_or_init(|| {
        let (tb, errors) = Tablebases::open(table_dir().to_str().unwrap());
        assert!(errors.is_empty(), "{errors:?}");
        tb
    })
}

/// A position from a FEN the test knows to be valid.
pub fn board(fen: &str) -> Board {
    Board::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

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
