//! The search's incremental network evaluation equals a full refresh, checked in release
//! builds too. The search checks every evaluation against a refresh only in debug builds
//! (a `debug_assert` in `search/static_eval.rs`); this test drives the same machinery the
//! search does (an `AccumulatorStack`: `push_move` / `push_null` before making a move, the
//! lazy `get` when a node is evaluated, nothing on unmake) through random legal games with
//! the embedded network, and compares the accumulator and the evaluation with a refresh at
//! every ply, after every side line is taken back, and all the way back to the start.

mod common;

use common::accumulators::{check, Seen};
use horizon::eval::nnue::{default_network, output_bucket, AccumulatorStack, Network};
use horizon::{Board, Move, MoveKind, Piece};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Start positions: the start position, ones rich in castling, en passant, promotions and
/// captures, and Chess960 positions where castling swaps king and rook or leaves the king
/// where it is (`true`: play them as Chess960).
const STARTS: [(&str, bool); 9] = [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false),
    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false),
    ("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", false),
    ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", false),
    ("r1b1k2r/1P1p1ppp/2n2n2/1qp1p3/1bPPP1Q1/2N2N2/p4PPP/R1B1KB1R w KQkq - 0 1", false),
    ("4k3/1P4P1/8/3Pp3/8/8/1p4p1/R3K2R w KQ e6 0 1", false),
    ("1r3kr1/ppp2ppp/8/3pp3/3PP3/8/PPP2PPP/1R3KR1 w GBgb - 0 1", true),
    ("2rk3r/pp3ppp/8/2ppp3/2PPP3/8/PP3PPP/2RK3R w CHch - 0 1", true),
    ("r5kr/ppp2ppp/8/3pp3/3PP3/8/PPP2PPP/R5KR w HAha - 0 1", true),
];
/// Games played from each start position.
const GAMES_PER_START: usize = 40;
/// The longest game (plies).
const MAX_PLIES: usize = 160;
/// Side lines tried (made, checked, taken back) at every ply of a game.
const SIDE_LINES: usize = 2;
/// The chance of a null move side line at a ply (when not in check).
const NULL_CHANCE: f64 = 0.25;

/// The eight output buckets of the embedded network are what a capture can change.
fn bucket(net: &Network, b: &Board) -> usize {
    output_bucket(b.occupied().count(), net.buckets())
}

/// Makes `m` at `ply` as the search does: the feature changes first, then the board.
fn make(stack: &mut AccumulatorStack, b: &mut Board, ply: usize, m: Move, net: &Network, seen: &mut Seen) {
    seen.record(b, m);
    let before = bucket(net, b);
    stack.push_move(ply, net, b, m);
    b.make(m);
    seen.bucket_changes += usize::from(bucket(net, b) != before);
}

/// A random legal move, a capture or special move half of the time when there is one.
fn pick(b: &Board, rng: &mut SmallRng) -> Option<Move> {
    let moves: Vec<Move> = b.legal_moves().iter().copied().collect();
    let special: Vec<Move> =
        moves.iter().copied().filter(|&m| m.kind() != MoveKind::Normal || b.captured_piece(m).is_some()).collect();
    if !special.is_empty() && rng.gen_bool(0.5) {
        return Some(special[rng.gen_range(0..special.len())]);
    }
    (!moves.is_empty()).then(|| moves[rng.gen_range(0..moves.len())])
}

/// Plays one game from `start`, checking at every ply: first side lines (a move, or a null
/// move and a move after it, each taken back), then the game's move; at the end the game is
/// taken back move by move, checking again.
fn play(start: &Board, net: &Network, stack: &mut AccumulatorStack, rng: &mut SmallRng, seen: &mut Seen) {
    let mut b = start.clone();
    stack.refresh(0, net, &b);
    let mut plies = 0;
    while plies < MAX_PLIES {
        check(stack, net, &b, plies, seen);
        for _ in 0..SIDE_LINES {
            let Some(m) = pick(&b, rng) else { break };
            make(stack, &mut b, plies, m, net, seen);
            check(stack, net, &b, plies + 1, seen);
            b.unmake();
        }
        if !b.in_check() && rng.gen_bool(NULL_CHANCE) {
            seen.nulls += 1;
            stack.push_null(plies);
            b.make_null();
            if let Some(m) = pick(&b, rng) {
                make(stack, &mut b, plies + 1, m, net, seen);
                check(stack, net, &b, plies + 2, seen);
                b.unmake();
            }
            check(stack, net, &b, plies + 1, seen);
            b.unmake_null();
        }
        // Taking the side lines back left this ply's accumulator as it was.
        check(stack, net, &b, plies, seen);
        let Some(m) = pick(&b, rng) else { break };
        make(stack, &mut b, plies, m, net, seen);
        plies += 1;
    }
    check(stack, net, &b, plies, seen);
    for ply in (0..plies).rev() {
        b.unmake();
        check(stack, net, &b, ply, seen);
    }
    assert_eq!(b.to_fen(), start.to_fen());
}

#[test]
fn incremental_evaluation_equals_a_refresh_at_every_ply() {
    let started = std::time::Instant::now();
    let net = default_network();
    let mut stack = AccumulatorStack::new(MAX_PLIES + 4);
    let mut rng = SmallRng::seed_from_u64(41);
    let mut seen = Seen::default();
    for (fen, chess960) in STARTS {
        let mut start = Board::from_fen(fen).unwrap();
        start.set_chess960(chess960);
        for _ in 0..GAMES_PER_START {
            play(&start, &net, &mut stack, &mut rng, &mut seen);
        }
    }
    eprintln!("{seen:?} in {:.2} s", started.elapsed().as_secs_f64());
    assert!(seen.checked > 200_000, "{seen:?}");
    assert!(seen.castles > 300 && seen.castles_king_on_rook_square > 100, "{seen:?}");
    assert!(seen.en_passant > 60 && seen.capture_promotions > 100 && seen.nulls > 5000, "{seen:?}");
    assert!(seen.king_moves > 20_000 && seen.bucket_changes > 2000, "{seen:?}");
    for p in [Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen] {
        assert!(seen.promotions[p.index()] > 100, "promotions to {p:?}: {seen:?}");
    }
    for p in [Piece::Pawn, Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen] {
        assert!(seen.captured[p.index()] > 500, "captures of {p:?}: {seen:?}");
    }
}
