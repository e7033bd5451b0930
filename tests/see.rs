//! Static exchange evaluation against the reference suite (tests/data/see_uci.csv and
//! tests/data/see.epd, the same 74 records in UCI and SAN form), and the consistency of
//! the `see_ge` shortcut with the full `see` on the suite and on random positions, and of
//! `see` with a plain recursive reference that recomputes every attacker at each capture.

use horizon::board::Board;
use horizon::san::parse_san;
use horizon::see::{see, see_ge, see_value};
use horizon::types::{Color, Piece, Rank, Square};
use horizon::{Bitboard, Move, MoveKind};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

const CSV: &str = include_str!("data/see_uci.csv");
const EPD: &str = include_str!("data/see.epd");

struct Record {
    line: usize,
    fen: String,
    board: Board,
    mv: Move,
    expected: i32,
}

fn csv_records() -> Vec<Record> {
    let mut out = Vec::new();
    for (i, line) in CSV.lines().enumerate().skip(1) {
        if line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.splitn(5, ',').collect();
        assert_eq!(f.len(), 5, "csv line {}: expected 5 columns: {line}", i + 1);
        let board = Board::from_fen(f[0]).unwrap_or_else(|e| panic!("csv line {}: bad FEN {}: {e}", i + 1, f[0]));
        let mv = board.parse_uci_move(f[1]).unwrap_or_else(|e| panic!("csv line {}: {e} in {}", i + 1, f[0]));
        let san = parse_san(&board, f[2]).unwrap_or_else(|| panic!("csv line {}: SAN {} not parsed", i + 1, f[2]));
        assert_eq!(san, mv, "csv line {}: UCI {} and SAN {} differ", i + 1, f[1], f[2]);
        let expected: i32 = f[3].trim().parse().unwrap();
        out.push(Record { line: i + 1, fen: f[0].to_string(), board, mv, expected });
    }
    out
}

fn epd_records() -> Vec<Record> {
    let mut out = Vec::new();
    for (i, line) in EPD.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        // FEN; SAN; value; comment -- split on ';' and trim (one record has a tab).
        let f: Vec<&str> = line.split(';').map(str::trim).collect();
        assert!(f.len() >= 3, "epd line {}: too few fields: {line}", i + 1);
        let board = Board::from_fen(f[0]).unwrap_or_else(|e| panic!("epd line {}: bad FEN {}: {e}", i + 1, f[0]));
        let mv = parse_san(&board, f[1])
            .unwrap_or_else(|| panic!("epd line {}: SAN {} not parsed in {}", i + 1, f[1], f[0]));
        let expected: i32 = f[2].parse().unwrap_or_else(|_| panic!("epd line {}: bad value {:?}", i + 1, f[2]));
        out.push(Record { line: i + 1, fen: f[0].to_string(), board, mv, expected });
    }
    out
}

#[test]
fn suite_has_all_records() {
    assert_eq!(csv_records().len(), 74);
    assert_eq!(epd_records().len(), 74);
}

#[test]
fn csv_records_exact() {
    let mut failures = Vec::new();
    for r in csv_records() {
        let got = see(&r.board, r.mv);
        if got != r.expected {
            failures.push(format!("line {}: {} {:?}: expected {}, got {}", r.line, r.fen, r.mv, r.expected, got));
        }
    }
    assert!(failures.is_empty(), "{} SEE mismatches:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn epd_san_records_agree_with_csv() {
    let csv = csv_records();
    let epd = epd_records();
    assert_eq!(csv.len(), epd.len());
    for (c, e) in csv.iter().zip(&epd) {
        assert_eq!(c.fen, e.fen, "csv line {} / epd line {}: FEN differs", c.line, e.line);
        assert_eq!(c.mv, e.mv, "csv line {} / epd line {}: move differs", c.line, e.line);
        assert_eq!(c.expected, e.expected, "csv line {} / epd line {}: value differs", c.line, e.line);
        assert_eq!(see(&e.board, e.mv), e.expected, "epd line {}: {} {:?}", e.line, e.fen, e.mv);
    }
}

/// Thresholds around `v` and a fixed spread covering every piece value.
fn thresholds_around(v: i32) -> Vec<i32> {
    let mut t = vec![v - 1, v, v + 1, v - 100, v + 100, -v, -v + 1];
    t.extend([
        -20000, -1000, -900, -501, -500, -300, -200, -100, -1, 0, 1, 99, 100, 101, 200, 300, 500, 900, 1000, 20000,
    ]);
    t
}

#[test]
fn see_ge_matches_see_on_suite() {
    for r in csv_records() {
        let v = see(&r.board, r.mv);
        for t in thresholds_around(v) {
            assert_eq!(
                see_ge(&r.board, r.mv, t),
                v >= t,
                "line {}: {} {:?}: see = {v}, see_ge(.., {t}) disagrees",
                r.line,
                r.fen,
                r.mv
            );
        }
    }
}

/// Plays seeded random games from a few starting points and calls `f` on every position.
fn random_positions(seed: u64, games: usize, max_plies: usize, mut f: impl FnMut(&Board)) -> usize {
    const STARTS: [&str; 4] = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ];
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut count = 0;
    for g in 0..games {
        let mut board = Board::from_fen(STARTS[g % STARTS.len()]).unwrap();
        for _ in 0..max_plies {
            let moves = board.legal_moves();
            if moves.is_empty() {
                break;
            }
            f(&board);
            count += 1;
            // Prefer captures half of the time so that exchanges are common.
            let caps: Vec<Move> = moves.iter().copied().filter(|&m| is_capture(&board, m)).collect();
            let m = if !caps.is_empty() && rng.gen_bool(0.5) {
                caps[rng.gen_range(0..caps.len())]
            } else {
                moves.as_slice()[rng.gen_range(0..moves.len())]
            };
            board.make(m);
        }
    }
    count
}

fn is_capture(board: &Board, m: Move) -> bool {
    m.is_en_passant() || (!m.is_castle() && board.piece_on(m.to()).is_some())
}

#[test]
fn see_ge_matches_see_on_random_positions() {
    let mut checked_moves = 0u64;
    let mut captures = 0u64;
    let positions = random_positions(0x5EE_5EE, 60, 80, |board| {
        for &m in board.legal_moves().iter() {
            let v = see(board, m);
            if is_capture(board, m) {
                captures += 1;
            }
            for t in thresholds_around(v) {
                assert_eq!(
                    see_ge(board, m, t),
                    v >= t,
                    "{} {:?}: see = {v}, see_ge(.., {t}) disagrees",
                    board.to_fen(),
                    m
                );
            }
            checked_moves += 1;
        }
    });
    assert!(positions >= 3000, "only {positions} random positions");
    assert!(captures >= 5000, "only {captures} captures among {checked_moves} moves");
}

/// Bounds any SEE must respect: never more than the first capture gains, and exactly
/// that when the opponent cannot recapture at all; a quiet move never gains.
#[test]
fn see_bounds_on_random_positions() {
    let mut undefended = 0;
    random_positions(0xB0B, 40, 80, |board| {
        let them = board.side_to_move().flip();
        for &m in board.legal_moves().iter() {
            let v = see(board, m);
            if m.is_castle() {
                assert_eq!(v, 0, "{} {:?}: castling", board.to_fen(), m);
                continue;
            }
            let mut first = if m.is_en_passant() { 100 } else { board.piece_on(m.to()).map_or(0, see_value) };
            if m.is_promotion() {
                first += see_value(m.promotion()) - see_value(Piece::Pawn);
            }
            assert!(v <= first, "{} {:?}: see {v} exceeds first gain {first}", board.to_fen(), m);
            // After the move, does the opponent attack the destination at all?
            let mut after = board.clone();
            after.make(m);
            let attackers = after.attackers_to(m.to(), after.occupied()) & after.color(them);
            if attackers.is_empty() {
                undefended += 1;
                assert_eq!(v, first, "{} {:?}: nothing recaptures, see must be the gain", board.to_fen(), m);
            }
            // A recapture by a pawn (not onto a promotion square) costs at least the mover
            // minus what was taken.
            let pawn_attackers = attackers & after.pieces(Piece::Pawn);
            let back_rank = matches!(m.to().rank(), Rank::First | Rank::Eighth);
            if pawn_attackers.any() && !back_rank {
                let mover = if m.is_promotion() { m.promotion() } else { board.piece_on(m.from()).unwrap() };
                // The opponent may recapture with the pawn; we then win at most that pawn back.
                let bound = first - see_value(mover) + see_value(Piece::Pawn);
                assert!(v <= bound, "{} {:?}: see {v} ignores the pawn recapture", board.to_fen(), m);
            }
        }
    });
    assert!(undefended > 1000);
}

/// The SEE conventions (`src/see.rs`) evaluated the slow, obvious way: `side` may stop (0)
/// or take the piece worth `on_square` on `to` with its least valuable attacker, every
/// attacker found afresh through `occ`, so pieces behind a capturer join by themselves.
fn reference_exchange(board: &Board, to: Square, occ: Bitboard, side: Color, on_square: i32) -> i32 {
    let attackers = board.attackers_to(to, occ) & occ & !to.bb();
    let promo_rank = to.rank() == Rank::Eighth.relative(side);
    let order = if promo_rank {
        [Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Pawn, Piece::Queen, Piece::King]
    } else {
        [Piece::Pawn, Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen, Piece::King]
    };
    let Some((p, sq)) = order.iter().find_map(|&p| {
        let b = attackers & board.colored(side, p);
        b.any().then(|| (p, b.lsb()))
    }) else {
        return 0;
    };
    if p == Piece::King && (attackers & board.color(side.flip())).any() {
        return 0;
    }
    let (won, next_on_square) = if p == Piece::Pawn && promo_rank {
        (on_square + see_value(Piece::Queen) - see_value(Piece::Pawn), see_value(Piece::Queen))
    } else {
        (on_square, see_value(p))
    };
    (won - reference_exchange(board, to, occ ^ sq.bb(), side.flip(), next_on_square)).max(0)
}

fn reference_see(board: &Board, m: Move) -> i32 {
    if m.kind() == MoveKind::Castle {
        return 0;
    }
    let to = m.to();
    let mut first = board.captured_piece(m).map_or(0, see_value);
    let mut on_square = see_value(board.piece_on(m.from()).unwrap());
    if m.kind() == MoveKind::Promotion {
        first += see_value(m.promotion()) - see_value(Piece::Pawn);
        on_square = see_value(m.promotion());
    }
    let mut occ = board.occupied() ^ m.from().bb() | to.bb();
    if m.kind() == MoveKind::EnPassant {
        occ ^= to.ep_victim().bb();
    }
    first - reference_exchange(board, to, occ, board.side_to_move().flip(), on_square)
}

#[test]
fn see_matches_a_recursive_reference() {
    for r in csv_records() {
        assert_eq!(see(&r.board, r.mv), reference_see(&r.board, r.mv), "line {}: {}", r.line, r.fen);
    }
    let mut in_check = 0;
    random_positions(0x5EE_0EF, 80, 100, |board| {
        in_check += board.in_check() as usize;
        for &m in board.legal_moves().iter() {
            assert_eq!(see(board, m), reference_see(board, m), "{} {:?}", board.to_fen(), m);
        }
    });
    assert!(in_check > 50, "only {in_check} positions in check");
}
