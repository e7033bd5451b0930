//! Differential testing of move generation and make/unmake against the `shakmaty` crate.
//!
//! Thousands of positions are reached by seeded random play (biased towards pawn moves so
//! that double steps, en passant and promotions happen often) from the standard start, from
//! Chess960 starts (the suite positions and start arrays built from their numbers) and from
//! pawn-heavy endgames. In every position:
//! - the legal moves, as UCI strings in the position's mode, equal shakmaty's;
//! - `captures()` and `quiets()` partition `legal_moves()`, and `captures()` holds exactly
//!   the captures, en passant captures and promotions; `count_moves()` is the list length;
//! - checkers equal shakmaty's;
//! - after every make: the incremental key and pawn key equal `compute_key()` and
//!   `compute_pawn_key()`, the pawn key changed exactly when a pawn moved or was captured,
//!   `is_consistent()` holds, the FEN equals shakmaty's (castling compared as rook squares),
//!   and re-reading that FEN gives the same keys; after every unmake the FEN and keys are
//!   restored exactly;
//! - a null move (when not in check) keeps the key consistent, leaves the pawn key alone and
//!   is undone exactly.

mod common;

use horizon::{Board, Move};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};
use std::collections::{BTreeMap, BTreeSet};

/// Per-position statistics, so the test can insist the interesting cases were reached.
#[derive(Default, Debug)]
struct Stats {
    positions: usize,
    moves: usize,
    en_passant: usize,
    promotions: usize,
    castles: usize,
    checks: usize,
    double_checks: usize,
    chess960_positions: usize,
}

// shakmaty's own error type is what makes the closure's `Err` large.
#[allow(clippy::result_large_err)]
fn shak_from_fen(fen: &str) -> Chess {
    let f = Fen::from_ascii(fen.as_bytes()).unwrap_or_else(|e| panic!("shakmaty FEN {fen}: {e}"));
    f.into_position(CastlingMode::Chess960)
        .or_else(|e| e.ignore_impossible_check())
        .unwrap_or_else(|e| panic!("shakmaty position {fen}: {e}"))
}

fn mode(chess960: bool) -> CastlingMode {
    if chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    }
}

/// shakmaty's FEN with the en passant square written only when a pawn could capture, which is
/// how ours keeps it.
fn shak_fen(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::PseudoLegal).to_string()
}

/// Castling rights of a FEN as a set of rook squares (read by shakmaty, which understands
/// KQkq, X-FEN and Shredder-FEN alike).
fn castling_rooks(fen: &str) -> u64 {
    Fen::from_ascii(fen.as_bytes())
        .unwrap_or_else(|e| panic!("shakmaty cannot read our FEN {fen}: {e}"))
        .as_setup()
        .castling_rights
        .0
}

/// Our FEN must describe the same position as shakmaty's: every field equal except that in
/// Chess960 the castling field is compared as the set of castling rooks (we write
/// Shredder-FEN, shakmaty writes X-FEN). In standard chess the strings are identical.
fn assert_same_fen(ours: &str, pos: &Chess, chess960: bool, ctx: &str) {
    let theirs = shak_fen(pos);
    if !chess960 {
        assert_eq!(ours, theirs, "FEN differs {ctx}");
        return;
    }
    let a: Vec<&str> = ours.split(' ').collect();
    let b: Vec<&str> = theirs.split(' ').collect();
    assert_eq!(a.len(), 6, "{ours}");
    for i in [0, 1, 3, 4, 5] {
        assert_eq!(a[i], b[i], "FEN field {i} differs: ours {ours}, shakmaty {theirs} {ctx}");
    }
    assert_eq!(
        castling_rooks(ours),
        pos.castles().castling_rights().0,
        "castling differs: ours {ours}, shakmaty {theirs} {ctx}"
    );
}

fn uci(m: Move, chess960: bool) -> String {
    m.uci(chess960).to_string()
}

/// All checks on one position; returns shakmaty's moves keyed by UCI string.
fn check_position(b: &mut Board, pos: &Chess, stats: &mut Stats) -> BTreeMap<String, shakmaty::Move> {
    let c960 = b.is_chess960();
    let fen = b.to_fen();
    let key = b.key();
    let ctx = format!("in {fen}");
    stats.positions += 1;
    stats.chess960_positions += c960 as usize;

    assert!(b.is_consistent(), "inconsistent board {ctx}");
    assert_eq!(key, b.compute_key(), "incremental key {ctx}");
    let pawn_key = b.pawn_key();
    assert_eq!(pawn_key, b.compute_pawn_key(), "incremental pawn key {ctx}");
    assert_same_fen(&fen, pos, c960, &ctx);
    assert_eq!(b.checkers().raw(), pos.checkers().0, "checkers {ctx}");
    assert_eq!(b.in_check(), pos.is_check(), "in_check {ctx}");
    if b.checkers().count() == 2 {
        stats.double_checks += 1;
    }

    // 1. Legal moves as UCI strings.
    let theirs: BTreeMap<String, shakmaty::Move> =
        pos.legal_moves().into_iter().map(|m| (UciMove::from_move(m, mode(c960)).to_string(), m)).collect();
    let list = b.legal_moves();
    let ours: BTreeSet<String> = list.iter().map(|&m| uci(m, c960)).collect();
    assert_eq!(ours.len(), list.len(), "duplicate moves {ctx}: {:?}", list.as_slice());
    let theirs_set: BTreeSet<String> = theirs.keys().cloned().collect();
    if ours != theirs_set {
        let extra: Vec<_> = ours.difference(&theirs_set).collect();
        let missing: Vec<_> = theirs_set.difference(&ours).collect();
        panic!("legal moves differ {ctx}\n  extra (ours only): {extra:?}\n  missing: {missing:?}");
    }
    assert_eq!(b.count_moves(), list.len() as u64, "count_moves {ctx}");
    // gives_check() (computed without playing) agrees with playing the move, and so does
    // gives_check_with() from the position's CheckInfo.
    let info = b.check_info();
    for &m in list.iter() {
        let predicted = b.gives_check(m);
        let from_info = b.gives_check_with(&info, m);
        b.make(m);
        let actual = b.in_check();
        b.unmake();
        assert_eq!(predicted, actual, "gives_check {} {ctx}", uci(m, b.is_chess960()));
        assert_eq!(from_info, actual, "gives_check_with {} {ctx}", uci(m, b.is_chess960()));
    }

    // 2. captures() / quiets() partition.
    let (mut caps, mut quiets) = (horizon::MoveList::new(), horizon::MoveList::new());
    b.captures(&mut caps);
    b.quiets(&mut quiets);
    let caps_set: BTreeSet<u16> = caps.iter().map(|m| m.raw()).collect();
    let quiet_set: BTreeSet<u16> = quiets.iter().map(|m| m.raw()).collect();
    assert_eq!(caps_set.len(), caps.len(), "duplicate captures {ctx}");
    assert_eq!(quiet_set.len(), quiets.len(), "duplicate quiets {ctx}");
    assert!(caps_set.is_disjoint(&quiet_set), "captures and quiets overlap {ctx}");
    let all: BTreeSet<u16> = list.iter().map(|m| m.raw()).collect();
    let union: BTreeSet<u16> = caps_set.union(&quiet_set).copied().collect();
    assert_eq!(union, all, "captures + quiets != legal moves {ctx}");
    if b.in_check() {
        stats.checks += 1;
    }

    // 3. Every move: classification, parse round trip, make/unmake.
    for &m in &list {
        let s = uci(m, c960);
        let sm = theirs[&s];
        let mctx = format!("move {s} {ctx}");
        let tactical = sm.is_capture() || sm.is_promotion();
        assert_eq!(caps_set.contains(&m.raw()), tactical, "capture classification of {mctx}");
        assert_eq!(m.is_en_passant(), sm.is_en_passant(), "en passant flag of {mctx}");
        assert_eq!(m.is_castle(), sm.is_castle(), "castle flag of {mctx}");
        assert_eq!(m.is_promotion(), sm.is_promotion(), "promotion flag of {mctx}");
        assert_eq!(b.parse_uci_move(&s), Ok(m), "parse_uci_move of {mctx}");
        stats.moves += 1;
        stats.en_passant += m.is_en_passant() as usize;
        stats.promotions += m.is_promotion() as usize;
        stats.castles += m.is_castle() as usize;

        b.make(m);
        let child_fen = b.to_fen();
        assert_eq!(b.key(), b.compute_key(), "key after {mctx}");
        assert_eq!(b.pawn_key(), b.compute_pawn_key(), "pawn key after {mctx}");
        // Only pawn moves and pawn captures change the pawn key.
        let pawns_changed = sm.role() == shakmaty::Role::Pawn || sm.capture() == Some(shakmaty::Role::Pawn);
        assert_eq!(b.pawn_key() != pawn_key, pawns_changed, "pawn key change after {mctx}");
        assert!(b.is_consistent(), "inconsistent after {mctx}");
        assert_eq!(b.last_move(), Some(m));
        let mut child = pos.clone();
        child.play_unchecked(sm);
        assert_same_fen(&child_fen, &child, c960, &format!("after {mctx}"));
        // The same position read from its FEN has the same key.
        let reread = Board::from_fen(&child_fen).unwrap_or_else(|e| panic!("{e}: {child_fen} after {mctx}"));
        assert_eq!(reread.key(), b.key(), "key of re-read FEN {child_fen} after {mctx}");
        assert_eq!(reread.pawn_key(), b.pawn_key(), "pawn key of re-read FEN {child_fen} after {mctx}");
        assert_eq!(reread.to_fen(), child_fen, "FEN round trip after {mctx}");
        b.unmake();
        assert_eq!(b.to_fen(), fen, "FEN not restored by unmake of {mctx}");
        assert_eq!(b.key(), key, "key not restored by unmake of {mctx}");
        assert_eq!(b.pawn_key(), pawn_key, "pawn key not restored by unmake of {mctx}");
        assert_eq!(b.checkers().raw(), pos.checkers().0, "checkers not restored by unmake of {mctx}");
    }

    // 4. Null move.
    if !b.in_check() {
        b.make_null();
        assert_eq!(b.key(), b.compute_key(), "key after null move {ctx}");
        assert_ne!(b.key(), key, "null move left the key unchanged {ctx}");
        assert_eq!(b.pawn_key(), pawn_key, "null move changed the pawn key {ctx}");
        assert_eq!(b.side_to_move() == horizon::Color::White, !pos.turn().is_white(), "side after null move {ctx}");
        b.unmake_null();
        assert_eq!(b.key(), key, "key not restored by null move {ctx}");
        assert_eq!(b.pawn_key(), pawn_key, "pawn key not restored by null move {ctx}");
        assert_eq!(b.to_fen(), fen, "FEN not restored by null move {ctx}");
    }
    theirs
}

/// Plays one seeded random game of up to `plies` plies from `fen`, checking every position.
/// Pawn moves are preferred with probability `pawn_bias` to reach promotions and en passant.
fn random_game(fen: &str, seed: u64, plies: usize, pawn_bias: f64, stats: &mut Stats) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut b = Board::from_fen(fen).unwrap_or_else(|e| panic!("{e}: {fen}"));
    let mut pos = shak_from_fen(fen);
    let mut played = Vec::new();
    for _ in 0..plies {
        let theirs = check_position(&mut b, &pos, stats);
        let list = b.legal_moves();
        if list.is_empty() {
            assert!(pos.is_checkmate() || pos.is_stalemate());
            break;
        }
        let pawn_moves: Vec<Move> =
            list.iter().copied().filter(|m| b.piece_on(m.from()) == Some(horizon::Piece::Pawn)).collect();
        let m = if !pawn_moves.is_empty() && rng.gen_bool(pawn_bias) {
            *pawn_moves.choose(&mut rng).unwrap()
        } else {
            list[rng.gen_range(0..list.len())]
        };
        let s = uci(m, b.is_chess960());
        b.make(m);
        pos.play_unchecked(theirs[&s]);
        played.push(s);
        if b.halfmove_clock() >= 100 {
            break;
        }
    }
    // Unwinding the whole game restores the start exactly.
    let start = Board::from_fen(fen).unwrap();
    for _ in 0..played.len() {
        b.unmake();
    }
    assert_eq!(b.to_fen(), start.to_fen(), "game from {fen} (seed {seed}) not unwound: {played:?}");
    assert_eq!(b.key(), start.key());
    assert_eq!(b.game_ply(), 0);
}

/// The Chess960 back rank with number `n` (0..960) in the usual numbering, e.g. 518 = RNBQKBNR.
fn chess960_back_rank(n: usize) -> [char; 8] {
    assert!(n < 960);
    let mut r = [' '; 8];
    let mut n = n;
    r[2 * (n % 4) + 1] = 'B';
    n /= 4;
    r[2 * (n % 4)] = 'B';
    n /= 4;
    let mut place = |k: usize, c: char| {
        let i = (0..8).filter(|&i| r[i] == ' ').nth(k).unwrap();
        r[i] = c;
    };
    place(n % 6, 'Q');
    n /= 6;
    const KNIGHTS: [(usize, usize); 10] =
        [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)];
    let (k1, k2) = KNIGHTS[n];
    place(k2, 'N'); // the later square first, so the earlier index stays valid
    place(k1, 'N');
    for c in ['R', 'K', 'R'] {
        place(0, c);
    }
    r
}

/// Start FEN of Chess960 position `n` with Shredder-FEN castling rights.
fn chess960_start_fen(n: usize) -> String {
    let r = chess960_back_rank(n);
    let white: String = r.iter().collect();
    let black = white.to_ascii_lowercase();
    let rooks: Vec<char> = (0..8).filter(|&i| r[i] == 'R').map(|i| (b'a' + i as u8) as char).collect();
    let castling =
        format!("{}{}{}{}", rooks[1].to_ascii_uppercase(), rooks[0].to_ascii_uppercase(), rooks[1], rooks[0]);
    format!("{black}/pppppppp/8/8/8/8/PPPPPPPP/{white} w {castling} - 0 1")
}

#[test]
fn chess960_numbering_is_right() {
    let s = |n| chess960_back_rank(n).iter().collect::<String>();
    assert_eq!(s(518), "RNBQKBNR");
    assert_eq!(s(0), "BBQNNRKR");
    assert_eq!(s(959), "RKRNNQBB");
    let all: BTreeSet<String> = (0..960).map(s).collect();
    assert_eq!(all.len(), 960);
}

#[test]
fn standard_start_random_games() {
    let mut stats = Stats::default();
    for seed in 0..40 {
        random_game(horizon::board::START_FEN, seed, 160, 0.35, &mut stats);
    }
    eprintln!("{stats:?}");
    assert!(stats.positions > 3000, "{stats:?}");
    assert_eq!(stats.chess960_positions, 0);
    assert!(stats.en_passant > 20 && stats.promotions > 50 && stats.castles > 50, "{stats:?}");
    assert!(stats.checks > 100, "{stats:?}");
}

#[test]
fn chess960_starts_random_games() {
    let mut stats = Stats::default();
    // Start arrays spread over the numbering, including the standard array (518) played
    // under Chess960 rules.
    for (i, n) in (0..960).step_by(7).chain([518]).enumerate() {
        let fen = chess960_start_fen(n);
        let b = Board::from_fen(&fen).unwrap_or_else(|e| panic!("{e}: {fen}"));
        assert!(b.is_chess960(), "{fen}");
        random_game(&fen, 1000 + i as u64, 50, 0.2, &mut stats);
    }
    eprintln!("{stats:?}");
    assert!(stats.positions > 5000, "{stats:?}");
    assert_eq!(stats.chess960_positions, stats.positions);
    assert!(stats.castles > 50, "{stats:?}");
}

#[test]
fn fischer_suite_positions_random_games() {
    let mut stats = Stats::default();
    let entries = common::load_suite("perft_fischer.epd");
    for (i, e) in entries.iter().enumerate().step_by(5) {
        random_game(&e.fen, 2000 + i as u64, 30, 0.2, &mut stats);
    }
    for (i, e) in common::load_suite("perft_fischer_xfen40.epd").iter().enumerate() {
        random_game(&e.fen, 3000 + i as u64, 40, 0.2, &mut stats);
    }
    eprintln!("{stats:?}");
    assert!(stats.positions > 5000, "{stats:?}");
    assert!(stats.castles > 200, "{stats:?}");
}

/// Positions where promotions, under-promotions, en passant (including the horizontal-pin
/// case) and checks by pawns are likely.
const PAWN_ENDGAMES: &[&str] = &[
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "8/PPP4k/8/8/8/8/4Kppp/8 w - - 0 1",
    "4k3/1p1p1p1p/8/P1P1P1P1/8/8/1p1p1p1p/4K3 w - - 0 1",
    "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1",
    "8/8/8/1k6/3Pp3/8/8/4KQ2 b - d3 0 1",
    "8/8/3k4/8/2pP4/8/B7/7K b - d3 0 1",
    "8/8/8/K2pP2r/8/8/8/7k w - d6 0 2",
    "3k4/8/8/K1Pp3r/8/8/8/8 w - d6 0 2",
    "r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R w KQkq - 0 1",
    "8/3K4/2p5/p2b4/P7/1Pk5/8/8 w - - 0 1",
    "8/p3p2k/1p2Pp2/1P3P2/2P5/8/6K1/8 w - - 0 1",
    "2r5/3P1k2/8/8/8/8/3p1K2/2R5 w - - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1",
];

#[test]
fn pawn_endgames_random_games() {
    let mut stats = Stats::default();
    for (i, fen) in PAWN_ENDGAMES.iter().enumerate() {
        for g in 0..25 {
            random_game(fen, 5000 + (i * 100 + g) as u64, 80, 0.6, &mut stats);
        }
    }
    eprintln!("{stats:?}");
    assert!(stats.positions > 5000, "{stats:?}");
    assert!(stats.en_passant > 100 && stats.promotions > 1000, "{stats:?}");
    assert!(stats.double_checks > 0, "{stats:?}");
}

/// Every position of the standard and CPW suites (the start of each game above covers only
/// some), plus a perft(3) comparison with shakmaty on a sample.
#[test]
fn suite_positions_and_shakmaty_perft() {
    let mut stats = Stats::default();
    let mut n = 0;
    for name in ["perft_standard.epd", "perft_cpw6.epd", "perft_fischer_xfen40.epd"] {
        for e in common::load_suite(name) {
            let mut b = Board::from_fen(&e.fen).unwrap();
            let pos = shak_from_fen(&e.fen);
            check_position(&mut b, &pos, &mut stats);
            if n % 4 == 0 {
                assert_eq!(
                    horizon::perft::perft(&mut b, 3, true),
                    shakmaty::perft(&pos, 3),
                    "perft(3) differs from shakmaty in {}",
                    e.fen
                );
            }
            n += 1;
        }
    }
    assert_eq!(stats.positions, 128 + 7 + 40);
}

/// Castling checks are rare in random play; these positions make each kind happen and
/// compare `gives_check` with playing the move.
#[test]
fn castling_checks_without_playing() {
    let cases = [
        // The rook lands on f1 facing the king on f8.
        ("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", true),
        // The rook lands on d1 facing the king on d8.
        ("3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1", true),
        // No file opens: no check.
        ("6k1/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", false),
        // Black castles onto the king's file.
        ("r3k3/8/8/8/8/8/8/3K4 b q - 0 1", "e8c8", true),
        // Chess960: the king does not move (g1), the rook from h1 to f1 checks f8.
        ("5k2/8/8/8/8/8/8/6KR w H - 0 1", "g1h1", true),
        // Along the rank, through the square the king left: the rook on f1 sees a1.
        ("8/8/8/8/8/8/8/k3K2R w K - 0 1", "e1g1", true),
        // The same with a blocker on b1: no check.
        ("8/8/8/8/8/8/8/kn2K2R w K - 0 1", "e1g1", false),
    ];
    for (fen, mv, expected) in cases {
        let mut b = Board::from_fen(fen).unwrap();
        let m = b.parse_uci_move(mv).unwrap_or_else(|e| panic!("{fen} {mv}: {e}"));
        assert!(m.is_castle(), "{fen} {mv}");
        assert_eq!(b.gives_check(m), expected, "{fen} {mv}");
        b.make(m);
        assert_eq!(b.in_check(), expected, "{fen} {mv} played");
    }
}
