//! `horizon perft-diff` on the real binary: bugs injected by `examples/buggy_perft.rs`
//! (a perft on Horizon's library with a broken move list at every node, as a script or as a
//! UCI engine) must be found with their exact path and move; Horizon against itself and
//! against Stockfish (when installed) must show no difference; a missing, failing, hanging
//! or garbling program must give exit status 2 and one line on stderr.

use horizon::Board;
use std::path::PathBuf;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_horizon");
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
/// Chess960: king b1, rooks a1 and h1 (b1c1 is a king step and, written two-step, O-O-O).
const C960_B1: &str = "4k3/8/8/8/8/8/8/RK5R w HA - 0 1";
/// Chess960, Fischer suite: king g1, rooks f1 and h1.
const C960_FISCHER: &str = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
/// Chess960 with castling that is unambiguous in both notations: king e1, rooks b1 and g1.
const C960_E1: &str = "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1";

/// The bug-injecting helper; `cargo test` builds examples before running tests.
fn buggy() -> String {
    let p = PathBuf::from(BIN).parent().expect("binary directory").join("examples").join("buggy_perft");
    assert!(
        p.exists(),
        "{} is missing: run the whole `cargo test --release` (it builds the examples) or \
         `cargo build --release --examples` first",
        p.display()
    );
    p.to_string_lossy().into_owned()
}

fn run(args: &[&str]) -> Output {
    Command::new(BIN).arg("perft-diff").args(args).output().expect("cannot start the horizon binary")
}

fn text(b: &[u8]) -> String {
    String::from_utf8(b.to_vec()).expect("UTF-8 output")
}

/// Runs and expects exit status `code`; returns stdout.
fn expect(code: i32, args: &[&str]) -> String {
    let o = run(args);
    let (out, err) = (text(&o.stdout), text(&o.stderr));
    assert_eq!(o.status.code(), Some(code), "perft-diff {args:?}\nstdout:\n{out}\nstderr:\n{err}");
    out
}

/// The value after `label` on its line of the report.
fn field<'a>(out: &'a str, label: &str) -> &'a str {
    out.lines().find_map(|l| l.strip_prefix(label)).unwrap_or_else(|| panic!("no '{label}' line in:\n{out}")).trim()
}

/// The board after `path` from `fen`, every move checked legal.
fn play(fen: &str, path: &str) -> Board {
    let mut b = Board::from_fen(fen).unwrap();
    for m in path.split_whitespace() {
        let mv = b.parse_uci_move(m).unwrap_or_else(|e| panic!("path move {m}: {e}"));
        b.make(mv);
    }
    b
}

/// Expects a run that fails with status 2, one line on stderr containing each of `words`,
/// within `limit`.
fn expect_error(args: &[&str], words: &[&str], limit: Duration) {
    let t = Instant::now();
    let o = run(args);
    let took = t.elapsed();
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{args:?}: stdout {} stderr {err}", text(&o.stdout));
    assert_eq!(err.lines().count(), 1, "one line expected on stderr: {err:?}");
    assert!(err.starts_with("error: "), "{err}");
    for w in words {
        assert!(err.contains(w), "{args:?}: '{w}' not in {err:?}");
    }
    assert!(took < limit, "{args:?} took {took:?}");
}

#[test]
fn finds_a_missing_en_passant_capture_four_plies_down() {
    let cmd = format!("{} no-en-passant", buggy());
    let out = expect(1, &["5", "", "", "--script", &cmd]);
    // It descended level by level to depth 1.
    for d in (1..=5).rev() {
        assert!(out.contains(&format!("depth {d}  ")), "{out}");
    }
    let path = field(&out, "path:");
    assert_eq!(path, "f2f4 f7f6 f4f5 e7e5");
    assert_eq!(field(&out, "fen:"), "rnbqkbnr/pppp2pp/5p2/4pP2/8/8/PPPPP1PP/RNBQKBNR w KQkq e6 0 3");
    assert_eq!(field(&out, "missing:"), "f5e6 (en passant capture)");
    assert_eq!(field(&out, "extra:"), "-");
    assert_eq!(field(&out, "verdict:"), "buggy_perft misses 1 legal move (f5e6, en passant capture) in this position");
    // Checked independently: the last move made en passant possible, and f5e6 is it.
    let b = play(START, path);
    assert_eq!(b.to_fen(), field(&out, "fen:"));
    let ep = b.parse_uci_move("f5e6").expect("f5e6 is legal");
    assert!(ep.is_en_passant());
    assert!(out.ends_with("1 difference found\n"), "{out}");
}

#[test]
fn finds_castling_kept_after_a_rook_capture_over_uci() {
    // White can take the a8 rook at once; black keeps its queen-side right in the buggy
    // program and castles through the square where its rook was.
    let fen = "r3k2r/8/8/8/8/8/6b1/R3K2R w KQkq - 0 1";
    let cmd = format!("{} castling-after-rook-capture --uci", buggy());
    let out = expect(1, &["4", fen, "", "--uci", &cmd]);
    let path = field(&out, "path:");
    assert_eq!(path, "a1a8 g2a8 h1h7");
    assert_eq!(field(&out, "fen:"), "b3k2r/7R/8/8/8/8/8/4K3 b k - 1 2");
    assert_eq!(field(&out, "missing:"), "-");
    assert_eq!(field(&out, "extra:"), "e8c8 (castling, not legal here)");
    assert_eq!(field(&out, "verdict:"), "buggy_perft generates 1 illegal move (e8c8) in this position");
    let b = play(fen, path);
    assert_eq!(b.castle_rights() & 0b1000, 0, "black's queen-side right is gone after a1a8");
    assert!(b.parse_uci_move("e8c8").is_err());
}

#[test]
fn all_reports_every_differing_root_move() {
    // Black's b2 pawn promotes after any white move; the buggy program never makes knights.
    let fen = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";
    let cmd = format!("{} no-knight-promotion", buggy());
    let first = expect(1, &["3", fen, "", "--script", &cmd]);
    assert_eq!(field(&first, "path:"), "b4c5", "the root move with the fewest nodes");
    assert_eq!(field(&first, "missing:"), "b2b1n (promotion to knight), b2a1n (promotion to knight with capture)");
    let all = expect(1, &["3", fen, "", "--script", &cmd, "--all"]);
    let paths: Vec<&str> = all.lines().filter_map(|l| l.strip_prefix("path:")).map(str::trim).collect();
    assert_eq!(paths, ["g1h1", "f3d4", "b4c5", "f1f2", "c4c5", "d2d4"]);
    assert_eq!(all.matches("missing:  b2b1n (promotion to knight), b2a1n").count(), 6);
    assert!(all.ends_with("6 differences found\n"), "{all}");
}

#[test]
fn no_difference_against_itself() {
    let script = format!("{BIN} perft");
    for (fen, depth) in [(START, "4"), (KIWIPETE, "3"), (C960_FISCHER, "3")] {
        for peer in [["--script", script.as_str()], ["--uci", BIN]] {
            let out = expect(0, &[depth, fen, "", peer[0], peer[1]]);
            assert!(out.contains("no difference: horizon and horizon agree"), "{out}");
        }
    }
    // Moves after the FEN, castling included.
    let out = expect(0, &["3", KIWIPETE, "e1g1 a6e2", "--script", &script]);
    assert!(out.contains("no difference"), "{out}");
}

#[test]
fn chess960_in_both_castling_notations() {
    let b = buggy();
    for fen in [C960_B1, C960_FISCHER, C960_E1] {
        for extra in ["", " --two-step"] {
            let script = format!("{b} none{extra}");
            let uci = format!("{b} none{extra} --uci");
            assert!(expect(0, &["3", fen, "", "--script", &script]).contains("no difference"));
            assert!(expect(0, &["3", fen, "", "--uci", &uci]).contains("no difference"));
        }
    }
    // Castling given by the user in either notation is passed on in that notation.
    for (castle, extra) in [("e1b1", ""), ("e1c1", " --two-step")] {
        let script = format!("{b} none{extra}");
        let out = expect(0, &["3", C960_E1, &format!("{castle} b8a8"), "--script", &script]);
        assert!(out.contains("no difference"), "{out}");
    }
    // A bug found in a Chess960 position with a two-step program.
    let cmd = format!("{b} no-en-passant --two-step");
    let out = expect(1, &["5", C960_E1, "", "--script", &cmd]);
    let b = play(C960_E1, field(&out, "path:"));
    let missing = field(&out, "missing:");
    let mv = b.parse_uci_move(&missing[..4]).expect("the missing move is legal");
    assert!(mv.is_en_passant(), "{out}");
}

#[test]
fn against_stockfish_when_installed() {
    let Some(sf) = ["stockfish", "/usr/games/stockfish"].into_iter().find(|p| {
        Command::new(p).stdin(std::process::Stdio::null()).stdout(std::process::Stdio::null()).status().is_ok()
    }) else {
        // Straight to stderr, which the test harness does not capture (it captures
        // `println!` and `eprintln!`), so the skip shows in every run's output.
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "skipped: perft-diff against Stockfish (not installed: apt-get install stockfish)"
        );
        return;
    };
    for (fen, depth) in [(START, "5"), (KIWIPETE, "4"), (C960_FISCHER, "4"), (C960_B1, "4")] {
        let out = expect(0, &[depth, fen, "", "--uci", sf]);
        assert!(out.contains("no difference: horizon and stockfish agree"), "{out}");
    }
}

#[test]
fn a_missing_program() {
    expect_error(
        &["2", "--script", "/nonexistent/perft-script"],
        &["cannot start '/nonexistent/perft-script'"],
        Duration::from_secs(10),
    );
    expect_error(
        &["2", "--uci", "/nonexistent/engine"],
        &["cannot start '/nonexistent/engine'"],
        Duration::from_secs(10),
    );
}

#[test]
fn a_program_that_exits_at_once() {
    expect_error(&["2", "--uci", "false"], &["false exited", "'uci'"], Duration::from_secs(10));
    expect_error(
        &["2", "--script", "sh -c 'echo broken >&2; exit 3'"],
        &["exit status: 3", "'broken'"],
        Duration::from_secs(10),
    );
    // An engine that quits in the middle of the perft answer.
    let quits = "sh -c 'while read l; do case \"$l\" in uci) echo uciok;; isready) echo readyok;; go*) echo \"e2e4: 20\"; exit 0;; esac; done'";
    expect_error(&["2", "--uci", quits], &["sh exited", "'go perft 2'", "e2e4: 20'"], Duration::from_secs(10));
}

#[test]
fn a_program_that_prints_garbage() {
    expect_error(
        &["2", "--script", "echo hello world"],
        &["not perft output", "'hello world 2 "],
        Duration::from_secs(10),
    );
    let garbage = "sh -c 'while read l; do case \"$l\" in uci) echo uciok;; isready) echo readyok;; go*) echo \"bestmove e2e4\";; esac; done'";
    expect_error(
        &["2", "--uci", garbage],
        &["not perft output", "'go perft 2'", "'bestmove e2e4'"],
        Duration::from_secs(10),
    );
    expect_error(&["2", "--script", "sh -c 'echo e2e4 20'"], &["no total line", "'e2e4 20'"], Duration::from_secs(10));
}

#[test]
fn a_program_that_hangs() {
    expect_error(
        &["2", "--script", "sh -c 'sleep 30'", "--timeout", "1"],
        &["did not answer", "within 1 s"],
        Duration::from_secs(10),
    );
    expect_error(
        &["2", "--uci", "sleep 30", "--timeout", "0.5"],
        &["sleep did not answer 'uci' within 0.5 s"],
        Duration::from_secs(10),
    );
    // Answers the handshake, then never the perft.
    let stalls = "sh -c 'while read l; do case \"$l\" in uci) echo uciok;; isready) echo readyok;; esac; done'";
    expect_error(
        &["2", "--uci", stalls, "--timeout", "1"],
        &["did not answer 'go perft 2' within 1 s"],
        Duration::from_secs(10),
    );
}

#[test]
fn usage_errors() {
    let b = format!("{BIN} perft");
    for args in [
        vec!["3"],
        vec!["3", "--uci", BIN, "--script", &b],
        vec!["0", "--script", &b],
        vec!["x", "--script", &b],
        vec!["3", "not a fen", "--script", &b],
        vec!["3", START, "e2e5", "--script", &b],
        vec!["3", "--script"],
        vec!["3", "--script", &b, "--timeout", "-1"],
        vec!["3", "--script", &b, "--frobnicate"],
        vec!["3", "--script", "sh -c 'unclosed"],
    ] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert_eq!(text(&o.stderr).lines().count(), 1, "{args:?}: {}", text(&o.stderr));
        assert!(o.stdout.is_empty(), "{args:?}");
    }
}
