//! make/unmake against the from-scratch key: the input bytes choose a start position and
//! then one legal move per byte; after every move the incremental key must equal
//! `compute_key()` and the board must be consistent; unmaking everything must restore the
//! start exactly.
#![no_main]

use horizon::Board;
use libfuzzer_sys::fuzz_target;

const STARTS: [&str; 4] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
];

fuzz_target!(|data: &[u8]| {
    let Some((&first, moves)) = data.split_first() else { return };
    let mut b = Board::from_fen(STARTS[first as usize % STARTS.len()]).expect("valid start");
    b.set_chess960(first & 4 != 0);
    let start_fen = b.to_fen();
    let start_key = b.key();
    let mut played = 0;
    for &byte in moves.iter().take(400) {
        let list = b.legal_moves();
        if list.is_empty() {
            break;
        }
        let m = list.iter().copied().nth(byte as usize % list.len()).expect("index in range");
        b.make(m);
        played += 1;
        assert_eq!(b.key(), b.compute_key(), "key after {m:?}: {}", b.to_fen());
        assert!(b.is_consistent(), "inconsistent after {m:?}: {}", b.to_fen());
    }
    for _ in 0..played {
        b.unmake();
    }
    assert_eq!(b.key(), start_key);
    assert_eq!(b.to_fen(), start_fen);
});
