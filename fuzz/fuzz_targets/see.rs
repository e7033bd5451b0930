//! SEE on random legal positions (reached by the input's move choices): `see_ge` must
//! agree with `see` at every threshold tried, and a capture's SEE is bounded by the
//! material on the board.
#![no_main]

use horizon::see::{see, see_ge};
use horizon::Board;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut b = Board::startpos();
    for &byte in data.iter().take(200) {
        let list = b.legal_moves();
        if list.is_empty() {
            return;
        }
        // SEE every legal move of the position reached so far.
        for &m in &list {
            let v = see(&b, m);
            assert!(v.abs() <= 20_000, "SEE {v} of {m:?} in {}", b.to_fen());
            for t in [v - 1, v, v + 1, 0, -100, 100] {
                assert_eq!(see_ge(&b, m, t), v >= t, "see_ge({m:?}, {t}) vs see {v} in {}", b.to_fen());
            }
        }
        let m = list.iter().copied().nth(byte as usize % list.len()).expect("index in range");
        b.make(m);
    }
});
