//! The real `horizon` binary: `perft` output format (perftree style), FEN and move
//! arguments, Chess960 castling notation, option variants, argument errors (exit code 2 and
//! one line on stderr), and `perft-suite` pass/fail reporting.

use std::path::PathBuf;
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_horizon");
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn run(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("cannot start the horizon binary")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("stdout is UTF-8")
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("stderr is UTF-8")
}

/// Parses perft output strictly: `<move> <count>` lines, one empty line, the bare total as
/// the last line, and the total equal to the sum. Returns the (move, count) pairs and total.
fn parse_perft(out: &str) -> (Vec<(String, u64)>, u64) {
    assert!(out.ends_with('\n'), "output must end with a newline: {out:?}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines.len() >= 2, "too short: {out:?}");
    let total_line = lines[lines.len() - 1];
    assert_eq!(lines[lines.len() - 2], "", "no empty line before the total: {out:?}");
    let total: u64 = total_line.parse().unwrap_or_else(|_| panic!("last line {total_line:?} is not a bare number"));
    let mut moves = Vec::new();
    for l in &lines[..lines.len() - 2] {
        let (m, n) = l.split_once(' ').unwrap_or_else(|| panic!("bad divide line {l:?}"));
        assert!((4..=5).contains(&m.len()) && m.is_ascii(), "bad move {m:?} in {l:?}");
        moves.push((m.to_string(), n.parse().unwrap_or_else(|_| panic!("bad count in {l:?}"))));
    }
    assert_eq!(moves.iter().map(|x| x.1).sum::<u64>(), total, "divide lines do not add up");
    (moves, total)
}

fn perft_ok(args: &[&str]) -> (Vec<(String, u64)>, u64) {
    let o = run(args);
    assert_eq!(o.status.code(), Some(0), "perft {args:?} failed: {}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("time") && err.contains("nodes/s"), "timing missing on stderr: {err:?}");
    assert!(!stdout(&o).contains("time"), "timing must not be on stdout");
    parse_perft(&stdout(&o))
}

#[test]
fn startpos_depth_3() {
    let (moves, total) = perft_ok(&["perft", "3"]);
    assert_eq!(total, 8902);
    assert_eq!(moves.len(), 20);
    let get = |m: &str| moves.iter().find(|x| x.0 == m).map(|x| x.1);
    assert_eq!(get("e2e4"), Some(600));
    assert_eq!(get("g1f3"), Some(440));
    assert_eq!(get("a2a3"), Some(380));
    // The explicit start FEN gives the same output.
    assert_eq!(perft_ok(&["perft", "3", START]), (moves, total));
}

#[test]
fn depth_1_and_0() {
    let (moves, total) = perft_ok(&["perft", "1", KIWIPETE]);
    assert_eq!(total, 48);
    assert!(moves.iter().all(|m| m.1 == 1));
    // Standard castling written as the king's two-step.
    assert!(moves.iter().any(|m| m.0 == "e1g1") && moves.iter().any(|m| m.0 == "e1c1"));
    assert!(!moves.iter().any(|m| m.0 == "e1h1" || m.0 == "e1a1"));
    let o = run(&["perft", "0"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), "\n1\n");
}

#[test]
fn fen_and_moves_argument() {
    // After 1. e4 e5 2. Nf3: black to move.
    let (moves, total) = perft_ok(&["perft", "2", START, "e2e4 e7e5 g1f3"]);
    let (_, direct) = perft_ok(&["perft", "2", "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"]);
    assert_eq!(total, direct);
    assert!(moves.iter().any(|m| m.0 == "b8c6"), "black moves expected");
    // Kiwipete after castling (given as e1g1), then a promotion-free reply.
    let (_, t) = perft_ok(&["perft", "3", KIWIPETE, "e1g1"]);
    let (_, t2) = perft_ok(&["perft", "3", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R4RK1 b kq - 1 1"]);
    assert_eq!(t, t2);
    // An empty move list is allowed.
    assert_eq!(perft_ok(&["perft", "2", START, ""]).1, 400);
}

#[test]
fn chess960_castling_is_king_takes_rook() {
    // King b1, rooks a1 and h1 with Shredder rights: O-O is b1h1, O-O-O is b1a1 (b1c1 is an
    // ordinary king step).
    let fen = "4k3/8/8/8/8/8/8/RK5R w HA - 0 1";
    let (moves, total) = perft_ok(&["perft", "1", fen]);
    let names: Vec<&str> = moves.iter().map(|m| m.0.as_str()).collect();
    assert!(names.contains(&"b1h1"), "{names:?}");
    assert!(names.contains(&"b1a1"), "{names:?}");
    assert!(names.contains(&"b1c1"), "{names:?}");
    assert!(!names.contains(&"b1g1"), "{names:?}");
    // shakmaty agrees on the count.
    let pos: shakmaty::Chess = shakmaty::fen::Fen::from_ascii(fen.as_bytes())
        .unwrap()
        .into_position(shakmaty::CastlingMode::Chess960)
        .unwrap();
    assert_eq!(total, shakmaty::perft(&pos, 1));
    let (_, t3) = perft_ok(&["perft", "3", fen]);
    assert_eq!(t3, shakmaty::perft(&pos, 3));
    // Castling given in king-takes-rook form as a move argument.
    let (after, _) = perft_ok(&["perft", "1", fen, "b1h1"]);
    assert!(after.iter().all(|m| m.0.starts_with('e')), "black king moves only: {after:?}");
    // A Fischer suite position: castling moves use the rook's square.
    let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    let (_, total) = perft_ok(&["perft", "3", fen]);
    assert_eq!(total, 12189);
}

#[test]
fn option_variants_print_the_same() {
    let base = run(&["perft", "4", KIWIPETE]);
    assert_eq!(base.status.code(), Some(0));
    let (_, total) = parse_perft(&stdout(&base));
    assert_eq!(total, 4_085_603);
    for extra in
        [&["--no-bulk"][..], &["--threads", "2"], &["--hash", "8"], &["--threads", "2", "--hash", "8", "--no-bulk"]]
    {
        let mut args = vec!["perft", "4", KIWIPETE];
        args.extend_from_slice(extra);
        let o = run(&args);
        assert_eq!(o.status.code(), Some(0), "{extra:?}: {}", stderr(&o));
        assert_eq!(stdout(&o), stdout(&base), "output differs with {extra:?}");
    }
    // Options may come before the positional arguments too.
    let o = run(&["perft", "--threads", "2", "4", KIWIPETE]);
    assert_eq!(stdout(&o), stdout(&base));
}

/// Runs a command that must fail with exit code 2, nothing on stdout and exactly one line
/// on stderr starting with "error:" and containing `needle`.
fn usage_error(args: &[&str], needle: &str) {
    let o = run(args);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: expected exit 2, stderr {err:?}");
    assert_eq!(stdout(&o), "", "{args:?}: nothing may go to stdout");
    assert_eq!(err.lines().count(), 1, "{args:?}: expected one line, got {err:?}");
    assert!(err.starts_with("error: "), "{args:?}: {err:?}");
    assert!(err.contains(needle), "{args:?}: {err:?} lacks {needle:?}");
}

#[test]
fn argument_errors() {
    usage_error(&["perft", "abc"], "depth");
    usage_error(&["perft", "-1"], "depth");
    usage_error(&["perft", "3.5"], "depth");
    usage_error(&["perft"], "usage");
    usage_error(&["perft", "1", "not a fen"], "invalid FEN");
    usage_error(&["perft", "1", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1"], "rank 1");
    usage_error(&["perft", "1", "4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra"], "fields");
    usage_error(&["perft", "1", START, "e2e5"], "illegal move 'e2e5'");
    usage_error(&["perft", "1", START, "e2e4 e2e4"], "illegal move 'e2e4'");
    usage_error(&["perft", "1", START, "e7e5"], "illegal move");
    usage_error(&["perft", "1", START, "e2e4 zz"], "'zz'");
    usage_error(&["perft", "1", "--frobnicate"], "unknown option '--frobnicate'");
    usage_error(&["perft", "1", "--threads"], "--threads");
    usage_error(&["perft", "1", "--threads", "many"], "--threads");
    usage_error(&["perft", "1", "--hash", "x"], "--hash");
    usage_error(&["perft", "1", START, "e2e4", "extra"], "usage");
    usage_error(&["perft-suite", "/nonexistent/horizon-no-such-file.epd"], "cannot read");
    usage_error(&["perft-suite"], "usage");
    usage_error(&["perft-suite", "x.epd", "--max-depth", "deep"], "--max-depth");
    usage_error(&["perft-suite", "x.epd", "--bogus"], "unknown option '--bogus'");
    usage_error(&["frobnicate"], "unknown command 'frobnicate'");
}

/// `horizon <command> --help`, `-h` and `horizon help <command>` print that command's usage on
/// stdout and exit 0, for every command `horizon help` lists; an unknown topic is refused.
#[test]
fn every_command_has_its_own_help() {
    let all = stdout(&run(&["help"]));
    // A command's first line starts two spaces in; its continuation lines further.
    let names: Vec<&str> = all
        .lines()
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.trim_start().trim_start_matches('"').split(' ').next())
        .filter(|w| !matches!(*w, "(no" | "--version"))
        .collect();
    assert!(names.len() >= 16 && names.contains(&"perft") && names.contains(&"genfens"), "{names:?}");
    for name in names {
        let mine = run(&[name, "--help"]);
        assert_eq!(mine.status.code(), Some(0), "{name} --help: {}", stderr(&mine));
        let text = stdout(&mine);
        assert!(text.starts_with("usage:\n"), "{name} --help: {text:?}");
        let first = text.lines().nth(1).unwrap_or_default();
        let word = first.trim_start().trim_start_matches('"');
        assert!(word.starts_with(&format!("{name} ")), "{name} --help shows another command: {first:?}");
        assert!(all.contains(first), "{name} --help is not a part of 'horizon help': {first:?}");
        assert!(!text.contains("speak UCI"), "{name} --help printed the whole list");
        assert_eq!(stdout(&run(&[name, "-h"])), text, "{name} -h");
        assert_eq!(stdout(&run(&["help", name])), text, "help {name}");
    }
    usage_error(&["help", "frobnicate"], "unknown command 'frobnicate'");
    // Only the word right after the command asks for help: further on, it is an argument.
    usage_error(&["perft", "3", "--help"], "unknown option '--help'");
}

/// Every subcommand reads numbers the same way: out of range is refused (never clamped) with
/// the same one-line message, exit code 2, before any work is done.
#[test]
fn numbers_are_range_checked_alike_everywhere() {
    let suite = TempFile::new("range.epd", &format!("{START} ;D1 20\n"));
    let data = TempFile::new("range.txt", "8/8/4k3/8/8/3NK3/8/8 w - - 0 1 | 12 | 0.5\n");
    let out = std::env::temp_dir().join(format!("horizon-cli-{}-never-written", std::process::id()));
    let out = out.to_str().unwrap();
    let wanted = "error: --threads must be a whole number from 1 to 256, got '999'\n";
    let cases: [&[&str]; 5] = [
        &["perft", "3", "--threads", "999"],
        &["perft-suite", suite.path(), "--threads", "999"],
        &["perft-diff", "2", "--script", "true", "--threads", "999"],
        &["datagen", "--out", out, "--games", "1", "--threads", "999"],
        &["tune", data.path(), "--out", out, "--threads", "999"],
    ];
    for args in cases {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert_eq!(stderr(&o), wanted, "{args:?}");
        assert_eq!(stdout(&o), "", "{args:?}");
    }
    assert!(!std::path::Path::new(out).exists());
    // The same shape for the other numbers (hash sizes, depths).
    usage_error(&["perft", "1", "--hash", "70000"], "--hash must be a whole number from 0 to 65536, got '70000'");
    usage_error(&["perft", "65"], "depth must be a whole number from 0 to 64, got '65'");
    usage_error(&["epd", suite.path(), "--hash", "0"], "--hash must be a whole number from 1 to 65536, got '0'");
    usage_error(&["bench", "4", "1", "70000"], "bench hash (MB) must be a whole number from 1 to 65536, got '70000'");
}

/// A temporary file removed on drop.
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str, text: &str) -> TempFile {
        let p = std::env::temp_dir().join(format!("horizon-cli-{}-{name}", std::process::id()));
        std::fs::write(&p, text).unwrap();
        TempFile(p)
    }
    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

#[test]
fn perft_suite_reports_a_wrong_count() {
    let f = TempFile::new(
        "bad.epd",
        &format!(
            "# a comment line\n{START} ;D1 20 ;D2 400 ;D3 8903\n\n{KIWIPETE} ;D1 48 ;D2 2039\n\
             4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66\n"
        ),
    );
    let o = run(&["perft-suite", f.path()]);
    assert_eq!(o.status.code(), Some(1), "stderr: {}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains(&format!("{START} depth 3: expected 8903, got 8902")), "mismatch not reported: {out}");
    assert_eq!(out.lines().filter(|l| l.contains("expected")).count(), 1, "{out}");
    assert_eq!(out.lines().last(), Some("6 passed, 1 failed"), "{out}");

    // --max-depth 2 skips the wrong D3 count.
    let o = run(&["perft-suite", f.path(), "--max-depth", "2"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert_eq!(stdout(&o).lines().last(), Some("6 passed, 0 failed"));
    // --max-nodes 1000 skips it as well (8903 > 1000) and D2 of Kiwipete.
    let o = run(&["perft-suite", f.path(), "--max-nodes", "1000"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o).lines().last(), Some("5 passed, 0 failed"));
}

#[test]
fn perft_suite_passes_and_flags_bad_lines() {
    let good = TempFile::new(
        "good.epd",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9 ;D1 21 ;D2 528 ;D3 12189\n\
         rqnkbrnb/1pppp1pp/8/5p2/p1P5/3P1N2/PP2PPPP/RQNKBR1B w KQkq - 0 4 ;D1 26 ;D2 727\n\
         B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1 ;D1 6 ;D2 106 ;D3 1829\n",
    );
    let o = run(&["perft-suite", good.path(), "--threads", "2", "--hash", "4"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert_eq!(stdout(&o), "8 passed, 0 failed\n");

    let bad =
        TempFile::new("badfen.epd", &format!("{START} ;D1 20\n4k3/8/8/8/8/8/8/4K3 w KQ - 0 1 ;D1 5\n{START} ;Dx 20\n"));
    let o = run(&["perft-suite", bad.path()]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(out.contains("line 2: invalid FEN"), "{out}");
    assert!(out.contains("line 3: unreadable"), "{out}");
    assert_eq!(out.lines().last(), Some("1 passed, 2 failed"), "{out}");
}

/// The shipped suites run through the CLI with a small node cap (a smoke test of the real
/// files through the real binary; the full checks are in perft_suites.rs). The expected
/// numbers of checks are the counts of `Dd n` fields with n <= 20000 in each file.
#[test]
fn perft_suite_on_shipped_files() {
    for (name, expected_checks) in [
        ("perft_standard.epd", 527),
        ("perft_cpw6.epd", 18),
        ("perft_fischer_xfen40.epd", 88),
        ("perft_fischer.epd", 2420),
    ] {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("perft-data").join(name);
        let o = run(&["perft-suite", path.to_str().unwrap(), "--max-nodes", "20000"]);
        let out = stdout(&o);
        assert_eq!(o.status.code(), Some(0), "{name}: {out}");
        let last = out.lines().last().unwrap();
        assert_eq!(last, format!("{expected_checks} passed, 0 failed"), "{name}");
    }
}

/// The total of a `bench` run: the `<nodes> nodes <nps> nps` line.
fn bench_total(args: &[&str]) -> (u64, u64) {
    let o = run(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    let out = stdout(&o);
    let t: Vec<&str> = out.split_whitespace().collect();
    assert_eq!((t.len(), t[1], t[3]), (4, "nodes", "nps"), "{out}");
    (t[0].parse().unwrap(), t[2].parse().unwrap())
}

#[test]
fn threaded_bench() {
    // One thread and the default hash is the signature, however it is asked for.
    let (sig, _) = bench_total(&["bench", "4"]);
    assert_eq!(bench_total(&["bench", "4", "1", "16"]).0, sig);
    assert_eq!(bench_total(&["bench", "4"]).0, sig);
    // More threads: the same positions searched, nodes summed over the threads.
    let (n2, nps2) = bench_total(&["bench", "4", "2", "8"]);
    assert!(n2 > sig / 2 && nps2 > 0, "{n2} nodes with 2 threads vs {sig}");
    let (n4, _) = bench_total(&["bench", "3", "4"]);
    assert!(n4 > 0);
    let bad_args: [&[&str]; 4] =
        [&["bench", "4", "0"], &["bench", "4", "2000"], &["bench", "4", "2", "x"], &["bench", "4", "2", "8", "9"]];
    for bad in bad_args {
        let o = run(bad);
        assert_eq!(o.status.code(), Some(2), "{bad:?}");
        assert_eq!(stderr(&o).lines().count(), 1, "{bad:?}: {}", stderr(&o));
    }
}

#[test]
fn bench_signature_does_not_depend_on_the_simd_path() {
    // Every path gives the same integers, so the same nodes; the summary names the path, and
    // a path the CPU lacks (or an unknown name) falls back to one it has.
    let mut signature = None;
    for path in ["scalar", "avx2", "avx512", "none-such"] {
        let o = Command::new(BIN).args(["bench", "4"]).env("HORIZON_NNUE_SIMD", path).output().unwrap();
        assert!(o.status.success(), "{path}: {}", stderr(&o));
        let err = stderr(&o);
        let summary = err.lines().find(|l| l.starts_with("depth 4,")).unwrap_or_else(|| panic!("{path}: {err}"));
        let named = ["scalar", "avx2", "avx512"].iter().find(|p| summary.contains(&format!("nnue evaluation ({p}):")));
        let named = *named.unwrap_or_else(|| panic!("{path}: no SIMD path in {summary:?}"));
        if path == "scalar" {
            assert_eq!(named, "scalar");
        }
        let nodes: u64 = stdout(&o).split_whitespace().next().unwrap().parse().unwrap();
        assert_eq!(*signature.get_or_insert(nodes), nodes, "{path} ({named})");
    }
}

#[test]
fn closed_stdout_does_not_panic() {
    // `horizon perft 5 | head -0`: the reader is gone before the counts are written.
    use std::process::Stdio;
    let mut child = Command::new(BIN)
        .args(["perft", "5"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start horizon");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("wait for horizon");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert!(out.status.success(), "{:?}: {err}", out.status);
}

/// `horizon --version` (and `-V`): one line naming the version, the commit it was built from
/// and the SIMD path the network uses, the same name `uci` answers with.
#[test]
fn version_names_commit_and_simd_path() {
    for flag in ["--version", "-V"] {
        let o = run(&[flag]);
        assert!(o.status.success(), "{flag}: {}", stderr(&o));
        let out = stdout(&o);
        assert_eq!(out.lines().count(), 1, "{out:?}");
        assert!(out.starts_with(&format!("{} (network SIMD: ", horizon::ENGINE_NAME)), "{out:?}");
        assert!(["scalar)", "avx2)", "avx512)"].iter().any(|p| out.trim_end().ends_with(p)), "{out:?}");
    }
}

/// `horizon wdl-fit`: a missing file, a file that is not training data and a bad
/// `--holdout` are one line on stderr with exit code 2.
#[test]
fn wdl_fit_bad_input() {
    let dir = std::env::temp_dir().join(format!("horizon-wdl-fit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let odd = dir.join("odd.bin");
    std::fs::write(&odd, [0u8; 33]).unwrap();
    let odd = odd.to_str().unwrap();
    for args in [
        vec!["wdl-fit"],
        vec!["wdl-fit", "/nonexistent/data.bin"],
        vec!["wdl-fit", odd],
        vec!["wdl-fit", odd, "--holdout", "0.9"],
        vec!["wdl-fit", odd, "--holdout", "x"],
    ] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert_eq!(stderr(&o).lines().count(), 1, "{args:?}: {}", stderr(&o));
    }
    std::fs::remove_dir_all(&dir).ok();
}
