//! FEN parsing: any text either fails with an error or gives a consistent board whose
//! FEN parses back to the same position.
#![no_main]

use horizon::Board;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(b) = Board::from_fen(text) {
        assert!(b.is_consistent(), "inconsistent board from {text:?}");
        assert_eq!(b.key(), b.compute_key(), "key of {text:?}");
        let fen = b.to_fen();
        let again = Board::from_fen(&fen).unwrap_or_else(|e| panic!("own FEN {fen:?} rejected: {e}"));
        assert_eq!(again.to_fen(), fen);
        assert_eq!(again.key(), b.key());
        // Move generation must cope with whatever the parser accepted.
        let _ = b.legal_moves();
    }
});
