//! FEN parsing and writing: round trips in standard, Shredder-FEN and X-FEN notation, every
//! class of malformed or impossible FEN rejected with a readable error, and a fuzz test of
//! randomly mutated FENs that must never panic.

mod common;

use horizon::board::{FenError, START_FEN};
use horizon::{Board, CastleSide, Color, Square};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::panic::{catch_unwind, AssertUnwindSafe};

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

fn ok(fen: &str) -> Board {
    Board::from_fen(fen).unwrap_or_else(|e| panic!("rejected valid FEN {fen}: {e}"))
}

// ---- round trips --------------------------------------------------------------------------

#[test]
fn standard_round_trips() {
    for fen in [
        START_FEN,
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
        "4k2r/8/8/8/8/8/8/R3K3 b Qk - 99 200",
        "B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1",
    ] {
        let b = ok(fen);
        assert_eq!(b.to_fen(), fen);
        assert!(!b.is_chess960(), "{fen}");
        assert!(b.is_consistent());
        assert_eq!(ok(&b.to_fen()).key(), b.key());
    }
}

#[test]
fn field_values_are_read() {
    let b = ok("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 7 33");
    assert_eq!(b.side_to_move(), Color::White);
    assert_eq!(b.ep_square(), Some(sq("f6")));
    assert_eq!(b.halfmove_clock(), 7);
    assert_eq!(b.fullmove_number(), 33);
    assert_eq!(b.castle_rook(Color::White, CastleSide::King), Some(sq("h1")));
    assert_eq!(b.castle_rook(Color::White, CastleSide::Queen), Some(sq("a1")));
    assert_eq!(b.castle_rook(Color::Black, CastleSide::King), Some(sq("h8")));
    assert_eq!(b.castle_rook(Color::Black, CastleSide::Queen), Some(sq("a8")));
    assert_eq!(b.piece_on(sq("d1")), Some(horizon::Piece::Queen));
    assert_eq!(b.color_on(sq("d8")), Some(Color::Black));
    // Four fields: counters default to 0 1.
    let b = ok("4k3/8/8/8/8/8/8/4K3 b - -");
    assert_eq!((b.halfmove_clock(), b.fullmove_number()), (0, 1));
    assert_eq!(b.to_fen(), "4k3/8/8/8/8/8/8/4K3 b - - 0 1");
    // Five fields.
    assert_eq!(ok("4k3/8/8/8/8/8/8/4K3 w - - 12").halfmove_clock(), 12);
}

/// The en passant square is kept (in the FEN and the key) only when a pawn can capture.
#[test]
fn en_passant_kept_only_when_capturable() {
    let kept = ok("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
    let plain = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
    let dropped = ok(plain);
    assert_eq!(dropped.ep_square(), None);
    assert_eq!(dropped.to_fen(), plain.replace(" e3 ", " - "));
    assert_eq!(dropped.key(), ok(&plain.replace(" e3 ", " - ")).key());
    let without = ok("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3");
    assert_ne!(kept.key(), without.key(), "ep square must be part of the key");
}

/// Every Shredder-FEN position of the Fischer suite writes back identically (up to an en
/// passant square no pawn can use), and is flagged Chess960.
#[test]
fn shredder_fen_round_trips() {
    for e in common::load_suite("perft_fischer.epd") {
        let b = ok(&e.fen);
        // Shredder castling letters switch Chess960 on; without rights there is nothing to tell.
        let has_rights = e.fen.split(' ').nth(2) != Some("-");
        assert_eq!(b.is_chess960(), has_rights, "{}", e.fen);
        let out = b.to_fen();
        if out != e.fen {
            let (a, o): (Vec<&str>, Vec<&str>) = (e.fen.split(' ').collect(), out.split(' ').collect());
            for i in [0, 1, 2, 4, 5] {
                assert_eq!(a[i], o[i], "field {i} of {}", e.fen);
            }
            assert_eq!(o[3], "-", "{}", e.fen);
            assert!(b.ep_square().is_none());
        }
        let again = ok(&out);
        assert_eq!(again.to_fen(), out);
        assert_eq!(again.key(), b.key());
    }
}

/// X-FEN (`KQkq` in Chess960 means the outermost rook on each side) reads the same
/// position as the Shredder-FEN with the rook files.
#[test]
fn xfen_parses_like_shredder() {
    // King d1 with rooks a1 and f1: K = f-rook, Q = a-rook.
    let x = ok("rqnkbrnb/1pppp1pp/8/5p2/p1P5/3P1N2/PP2PPPP/RQNKBR1B w KQkq - 0 4");
    let s = ok("rqnkbrnb/1pppp1pp/8/5p2/p1P5/3P1N2/PP2PPPP/RQNKBR1B w FAfa - 0 4");
    assert!(x.is_chess960() && s.is_chess960());
    assert_eq!(x.key(), s.key());
    assert_eq!(x.to_fen(), s.to_fen());
    assert_eq!(x.castle_rook(Color::White, CastleSide::King), Some(sq("f1")));
    assert_eq!(x.castle_rook(Color::Black, CastleSide::Queen), Some(sq("a8")));

    // Two rooks on one side of the king: X-FEN `Q` is the outer one, the inner one needs
    // its file letter.
    let outer = ok("4k3/8/8/8/8/8/8/RR2K2R w Q - 0 1");
    assert_eq!(outer.castle_rook(Color::White, CastleSide::Queen), Some(sq("a1")));
    let inner = ok("4k3/8/8/8/8/8/8/RR2K2R w B - 0 1");
    assert_eq!(inner.castle_rook(Color::White, CastleSide::Queen), Some(sq("b1")));
    assert!(inner.is_chess960());
    assert_eq!(inner.to_fen(), "4k3/8/8/8/8/8/8/RR2K2R w B - 0 1");

    // All 40 X-FEN suite positions: same rights as the rook files shakmaty finds.
    for e in common::load_suite("perft_fischer_xfen40.epd") {
        let b = ok(&e.fen);
        let setup = shakmaty::fen::Fen::from_ascii(e.fen.as_bytes()).unwrap().into_setup();
        let mut ours = 0u64;
        for c in [Color::White, Color::Black] {
            for side in CastleSide::ALL {
                if let Some(r) = b.castle_rook(c, side) {
                    ours |= 1 << r.index();
                }
            }
        }
        assert_eq!(ours, setup.castling_rights.0, "{}", e.fen);
        // Writing it back (Shredder-FEN when Chess960) and reading again is stable.
        let again = ok(&b.to_fen());
        assert_eq!(again.key(), b.key(), "{}", e.fen);
        assert_eq!(again.to_fen(), b.to_fen());
    }
}

#[test]
fn standard_suites_round_trip() {
    for name in ["perft_standard.epd", "perft_cpw6.epd"] {
        for e in common::load_suite(name) {
            let b = ok(&e.fen);
            let again = ok(&b.to_fen());
            assert_eq!(again.to_fen(), b.to_fen(), "{}", e.fen);
            assert_eq!(again.key(), b.key(), "{}", e.fen);
        }
    }
}

#[test]
fn mirrored_is_an_involution() {
    for e in common::load_suite("perft_standard.epd").iter().chain(&common::load_suite("perft_fischer.epd")[..50]) {
        let b = ok(&e.fen);
        let m = b.mirrored();
        assert!(m.is_consistent(), "{}", e.fen);
        assert_eq!(m.legal_moves().len(), b.legal_moves().len(), "{}", e.fen);
        assert_eq!(m.mirrored().to_fen(), b.to_fen());
        assert_eq!(m.mirrored().key(), b.key());
    }
}

// ---- rejections ---------------------------------------------------------------------------

/// Parses `fen`, which must fail; the error must print as one line starting "invalid FEN"
/// and containing `needle`.
fn rejects(fen: &str, needle: &str) -> FenError {
    let r = catch_unwind(|| Board::from_fen(fen));
    let e = match r {
        Err(_) => panic!("from_fen panicked on {fen:?}"),
        Ok(Ok(b)) => panic!("accepted invalid FEN {fen:?} as {}", b.to_fen()),
        Ok(Err(e)) => e,
    };
    let msg = e.to_string();
    assert!(msg.starts_with("invalid FEN: "), "{fen:?}: {msg}");
    assert!(!msg.contains('\n'), "{fen:?}: {msg}");
    assert!(msg.contains(needle), "{fen:?}: message {msg:?} lacks {needle:?}");
    e
}

#[test]
fn wrong_rank_lengths() {
    rejects("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1", "rank 1 describes 7 squares");
    rejects("rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 7");
    rejects("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "'9'");
    rejects("rnbqkbnr/pppppppp/45/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 6 describes 9");
    rejects("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR7 w KQkq - 0 1", "rank 1");
    rejects("4k3/8/8/8/8/8/8/4K3p w - - 0 1", "rank 1 describes 9");
    rejects("4k3/8/8/8/8/8//4K3 w - - 0 1", "rank 2 describes 0");
    rejects("4k3/8/8/8/8/8/8/4K30 w - - 0 1", "'0'");
}

#[test]
fn wrong_number_of_ranks() {
    rejects("rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "expected 8 ranks, found 7");
    rejects("rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "found 9");
    rejects("8 w - - 0 1", "found 1");
    rejects("4k3/8/8/8/8/8/8/4K3/ w - - 0 1", "found 9");
}

#[test]
fn unknown_characters() {
    rejects("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", "'X'");
    rejects("rnbqkbnr/pppppppp/8/8/8/8/PPPxPPPP/RNBQKBNR w KQkq - 0 1", "'x'");
    rejects("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ\u{e9}BNR w KQkq - 0 1", "unknown piece");
    rejects("4k3/8/8/8/8/8/8/4K2* w - - 0 1", "'*'");
}

#[test]
fn missing_or_extra_kings() {
    rejects("rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", "black has 0 kings");
    rejects("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1", "white has 0 kings");
    rejects("4k3/8/8/8/8/8/8/3KK3 w - - 0 1", "white has 2 kings");
    rejects("k1k5/8/8/8/8/8/8/4K3 w - - 0 1", "black has 2 kings");
    rejects("8/8/8/8/8/8/8/8 w - - 0 1", "kings");
}

#[test]
fn side_not_to_move_in_check() {
    // Black king attacked by the rook with white to move.
    rejects("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", "side not to move is in check");
    rejects("4k3/3P4/8/8/8/8/8/4K3 w - - 0 1", "in check");
    rejects("4k3/8/5N2/8/8/8/8/4K3 w - - 0 1", "in check");
    rejects("8/8/8/8/8/8/3k4/4K3 w - - 0 1", "in check"); // kings adjacent
                                                          // The same positions with the attacked side to move are fine.
    ok("4k3/8/8/8/8/8/8/4R1K1 b - - 0 1");
    ok("4k3/3P4/8/8/8/8/8/4K3 b - - 0 1");
}

#[test]
fn too_many_checkers() {
    rejects("4k3/8/8/8/8/3n4/3p4/R3K2r w - - 0 1", "more than two");
}

#[test]
fn double_check_by_two_bishops_is_accepted() {
    let b = ok("B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1");
    assert_eq!(b.checkers().count(), 2);
    assert_eq!(b.to_fen(), "B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1");
}

#[test]
fn pawns_on_first_or_last_rank() {
    rejects("4k2P/8/8/8/8/8/8/4K3 b - - 0 1", "pawn on h8");
    rejects("4k3/8/8/8/8/8/8/p3K3 w - - 0 1", "pawn on a1");
    rejects("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNP w kq - 0 1", "pawn on h1");
}

#[test]
fn too_many_pieces() {
    rejects("4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1", "black has too many pieces");
    rejects("QQQQk3/QQQQQQQQ/8/8/8/8/QQQQ4/4K3 b - - 0 1", "white has too many pieces");
}

#[test]
fn castling_rights_without_king_or_rook() {
    rejects("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1", "'K' without the king and a rook");
    rejects("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/1NBQKBNR w KQkq - 0 1", "'Q'");
    rejects("1nbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "'q'");
    rejects("4k3/8/8/8/8/8/4K3/R6R w KQ - 0 1", "'K'"); // king off the back rank
    rejects("4k3/8/8/8/8/8/8/R3K2R w KQC - 0 1", "'C'"); // no rook on c1
    rejects("4k3/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "'k'");
    rejects("4k3/8/8/8/8/8/8/R3K2r w K - 0 1", ""); // h1 rook is black
}

#[test]
fn malformed_castling_field() {
    rejects("r3k2r/8/8/8/8/8/8/R3K2R w KK - 0 1", "castling field 'KK'");
    rejects("r3k2r/8/8/8/8/8/8/R3K2R w KHkq - 0 1", "castling field"); // K and H are one right
    rejects("r3k2r/8/8/8/8/8/8/R3K2R w KQ-kq - 0 1", "castling");
    rejects("r3k2r/8/8/8/8/8/8/R3K2R w KQkx - 0 1", "castling");
    rejects("r3k2r/8/8/8/8/8/8/R3K2R w -- - 0 1", "castling");
}

#[test]
fn impossible_en_passant_squares() {
    let start_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq";
    rejects(&format!("{start_e4} e6 0 1"), "en passant square 'e6'"); // wrong rank for black to move
    rejects(&format!("{start_e4} d3 0 1"), "'d3'"); // no pawn on d4
    rejects(&format!("{start_e4} e9 0 1"), "'e9'");
    rejects(&format!("{start_e4} e 0 1"), "'e'");
    rejects(&format!("{start_e4} i3 0 1"), "'i3'");
    rejects(&format!("{start_e4} e3e4 0 1"), "'e3e4'");
    // Squares on the first and last rank, for both sides to move.
    for s in ["a1", "e1", "h1", "a8", "e8", "h8", "a4", "c5"] {
        rejects(&format!("4k3/8/8/8/8/8/8/4K3 w - {s} 0 1"), "en passant");
        rejects(&format!("4k3/8/8/8/8/8/8/4K3 b - {s} 0 1"), "en passant");
    }
    // The pushed pawn's origin square is occupied, or the target square is.
    rejects("4k3/8/8/8/4P3/8/4B3/4K3 b - e3 0 1", "en passant");
    rejects("4k3/3b4/8/3pP3/8/8/8/4K3 w - d6 0 1", "en passant");
    rejects("4k3/8/3b4/3pP3/8/8/8/4K3 w - d6 0 1", "en passant");
    // A white pawn on d5 cannot have just double-stepped for white to capture.
    rejects("4k3/8/8/3PP3/8/8/8/4K3 w - d6 0 1", "en passant");
    ok("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
}

#[test]
fn bad_side_to_move() {
    rejects("4k3/8/8/8/8/8/8/4K3 x - - 0 1", "side to move 'x'");
    rejects("4k3/8/8/8/8/8/8/4K3 W - - 0 1", "'W'");
    rejects("4k3/8/8/8/8/8/8/4K3 white - - 0 1", "'white'");
}

#[test]
fn bad_counters() {
    rejects("4k3/8/8/8/8/8/8/4K3 w - - x 1", "move counter 'x'");
    rejects("4k3/8/8/8/8/8/8/4K3 w - - 0 y", "'y'");
    rejects("4k3/8/8/8/8/8/8/4K3 w - - -1 1", "'-1'");
    rejects("4k3/8/8/8/8/8/8/4K3 w - - 0 1.5", "'1.5'");
    rejects("4k3/8/8/8/8/8/8/4K3 w - - 99999999999999999999 1", "move counter");
}

#[test]
fn wrong_field_counts() {
    rejects("4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra", "expected 4 to 6 fields, found 7");
    rejects("4k3/8/8/8/8/8/8/4K3 w -", "found 3");
    rejects("4k3/8/8/8/8/8/8/4K3", "found 1");
    rejects("", "found 0");
    rejects("   ", "found 0");
}

// ---- fuzzing ------------------------------------------------------------------------------

/// Checks an accepted position is usable: consistent, its FEN reads back to the same
/// position, and every legal move can be made and unmade.
fn exercise(b: &Board, src: &str) {
    assert!(b.is_consistent(), "inconsistent board from {src:?}");
    let fen = b.to_fen();
    let again = Board::from_fen(&fen).unwrap_or_else(|e| panic!("own FEN {fen} of {src:?} rejected: {e}"));
    assert_eq!(again.key(), b.key(), "{src:?}");
    let mut c = b.clone();
    for &m in &b.legal_moves() {
        c.make(m);
        assert_eq!(c.key(), c.compute_key(), "{src:?} after {m:?}");
        let _ = c.legal_moves();
        c.unmake();
    }
    assert_eq!(c.to_fen(), fen);
    assert_eq!(horizon::perft::perft(&mut c, 2, true), horizon::perft::perft(&mut c, 2, false));
}

const FUZZ_ALPHABET: &[u8] = b"pnbrqkPNBRQK12345678/ wb-KQkqABCDEFGHabcdefgh0123456789 ";

/// One random edit of the bytes of a FEN.
fn mutate(rng: &mut SmallRng, bytes: &mut Vec<u8>) {
    let pick = |rng: &mut SmallRng| {
        if rng.gen_bool(0.9) {
            FUZZ_ALPHABET[rng.gen_range(0..FUZZ_ALPHABET.len())]
        } else {
            rng.gen()
        }
    };
    let len = bytes.len();
    match rng.gen_range(0..9) {
        7 | 8 => {
            // Replace one whole space-separated field by a random token: a square (any rank,
            // for the en passant field), castling letters, a side or a number.
            let text = String::from_utf8_lossy(bytes).into_owned();
            let mut fields: Vec<String> = text.split(' ').map(str::to_string).collect();
            let token = match rng.gen_range(0..4) {
                0 => format!("{}{}", (b'a' + rng.gen_range(0..9)) as char, rng.gen_range(0..10)),
                1 => (0..rng.gen_range(1..5)).map(|_| b"KQkqABCDEFGHabcdefgh-"[rng.gen_range(0..21)] as char).collect(),
                2 => ["w", "b", "-", ""][rng.gen_range(0..4)].to_string(),
                _ => rng.gen_range(0..70_000u32).to_string(),
            };
            let i = rng.gen_range(0..fields.len());
            fields[i] = token;
            *bytes = fields.join(" ").into_bytes();
        }
        0 if len > 0 => {
            let i = rng.gen_range(0..len);
            bytes[i] = pick(rng);
        }
        1 => {
            let i = rng.gen_range(0..=len);
            let c = pick(rng);
            bytes.insert(i, c);
        }
        2 if len > 0 => {
            bytes.remove(rng.gen_range(0..len));
        }
        3 if len > 1 => {
            let (i, j) = (rng.gen_range(0..len), rng.gen_range(0..len));
            bytes.swap(i, j);
        }
        4 if len > 0 => {
            bytes.truncate(rng.gen_range(0..len));
        }
        5 if len > 0 => {
            // Duplicate a slice somewhere else.
            let i = rng.gen_range(0..len);
            let j = rng.gen_range(i..len.min(i + 12));
            let slice = bytes[i..=j].to_vec();
            let at = rng.gen_range(0..=len);
            bytes.splice(at..at, slice);
        }
        _ if len > 0 => {
            // Replace one digit of the placement by another (changes rank lengths).
            let i = rng.gen_range(0..len);
            if bytes[i].is_ascii_digit() {
                bytes[i] = b'1' + rng.gen_range(0..8);
            }
        }
        _ => {}
    }
}

#[test]
fn fuzzed_fens_never_panic() {
    let mut seeds: Vec<String> = Vec::new();
    for name in ["perft_standard.epd", "perft_fischer_xfen40.epd", "perft_cpw6.epd"] {
        seeds.extend(common::load_suite(name).into_iter().map(|e| e.fen));
    }
    seeds.extend(common::load_suite("perft_fischer.epd").into_iter().step_by(10).map(|e| e.fen));
    seeds.push("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1".into());
    seeds.push("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1".into());

    let mut rng = SmallRng::seed_from_u64(0xF3E2);
    let (mut accepted, mut rejected) = (0, 0);
    for i in 0..40_000 {
        let mut bytes = seeds[i % seeds.len()].clone().into_bytes();
        for _ in 0..rng.gen_range(1..4) {
            mutate(&mut rng, &mut bytes);
        }
        let s = String::from_utf8_lossy(&bytes).into_owned();
        let r = catch_unwind(AssertUnwindSafe(|| match Board::from_fen(&s) {
            Ok(b) => {
                exercise(&b, &s);
                true
            }
            Err(e) => {
                let msg = e.to_string();
                assert!(msg.starts_with("invalid FEN: ") && !msg.contains('\n'), "{msg}");
                false
            }
        }));
        match r {
            Ok(true) => accepted += 1,
            Ok(false) => rejected += 1,
            Err(_) => panic!("panic on mutated FEN {s:?} (bytes {bytes:?})"),
        }
    }
    // Both outcomes must be common, or the mutations are not probing the parser.
    assert!(accepted > 2_000 && rejected > 10_000, "accepted {accepted}, rejected {rejected}");
}
