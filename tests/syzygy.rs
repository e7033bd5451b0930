//! The Syzygy prober against an independent oracle (python-chess on the same tables), known
//! endgame facts, damaged files, and root ranking.

use horizon::syzygy::{Material, Tablebases, Wdl};
use horizon::Board;
use std::path::PathBuf;
use std::sync::OnceLock;

fn table_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/syzygy")
}

/// The 3-4 piece tables of `tests/data/syzygy`, opened once for all tests.
fn tables() -> &'static Tablebases {
    static TB: OnceLock<Tablebases> = OnceLock::new();
    TB.get_or_init(|| {
        let (tb, errors) = Tablebases::open(table_dir().to_str().unwrap());
        assert!(errors.is_empty(), "{errors:?}");
        tb
    })
}

fn board(fen: &str) -> Board {
    Board::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn wdl(fen: &str) -> Wdl {
    tables().probe_wdl(&mut board(fen)).unwrap_or_else(|| panic!("no WDL for {fen}"))
}

fn dtz(fen: &str) -> i32 {
    tables().probe_dtz(&mut board(fen)).unwrap_or_else(|| panic!("no DTZ for {fen}"))
}

/// Every position of the oracle file: WDL exactly, and DTZ exactly. Both programs compute
/// the DTZ the format defines (plies to the next zeroing move with the tables' rounding:
/// where a table stores moves, the value may be one ply longer than the true distance);
/// the rounding is the tables', so two correct readers agree to the ply.
#[test]
fn matches_python_chess_on_random_positions() {
    let path = table_dir().join("oracle.csv");
    let text = std::fs::read_to_string(&path).expect("oracle.csv");
    let mut checked = 0;
    let mut ep = 0;
    let mut wrong = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.is_empty()) {
        let f: Vec<&str> = line.split(',').collect();
        let (fen, want_wdl, want_dtz): (&str, i32, i32) = (f[0], f[1].parse().unwrap(), f[2].parse().unwrap());
        let mut b = board(fen);
        ep += b.ep_square().is_some() as usize;
        let got_wdl = tables().probe_wdl(&mut b).map(|w| w.value());
        let got_dtz = tables().probe_dtz(&mut b);
        assert_eq!(b.to_fen(), board(fen).to_fen(), "the probe must leave the board as it was");
        if got_wdl != Some(want_wdl) || got_dtz != Some(want_dtz) {
            wrong.push(format!("{fen}: wdl {got_wdl:?} (want {want_wdl}), dtz {got_dtz:?} (want {want_dtz})"));
        }
        checked += 1;
    }
    assert!(checked >= 4000, "only {checked} positions");
    assert!(ep >= 50, "only {ep} en passant positions");
    assert!(wrong.is_empty(), "{} of {checked} differ:\n{}", wrong.len(), wrong[..wrong.len().min(20)].join("\n"));
}
