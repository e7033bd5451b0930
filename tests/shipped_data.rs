//! The data files shipped in tests/data (see its README) are complete and readable by the
//! commands that use them: the opening book by `datagen --book` (and the match script),
//! WAC and STS by `horizon epd`.

use horizon::epd::parse_epd;

fn path(name: &str) -> String {
    format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn opening_book_has_every_position() {
    let fens = horizon::data::book::read_book(&path("8moves_v3.epd")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(fens.len(), 34_700);
}

/// Every record parses with a best move (or a move to avoid); returns the count.
fn epd_records(name: &str) -> usize {
    let text = std::fs::read_to_string(path(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut n = 0;
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let rec = parse_epd(line).unwrap_or_else(|e| panic!("{name} line {}: {e}", i + 1));
        assert!(!rec.id.is_empty(), "{name} line {}: no id", i + 1);
        n += 1;
    }
    n
}

#[test]
fn wac_and_sts_parse_completely() {
    assert_eq!(epd_records("wac.epd"), 300);
    assert_eq!(epd_records("sts.epd"), 1500);
}
