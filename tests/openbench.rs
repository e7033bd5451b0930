//! What OpenBench DATAGEN workloads need from Horizon: `genfens` (library and the real
//! binary, as OpenBench calls it, and in the UCI loop) and `pgn-convert` on fastchess PGNs.

use horizon::data::genfens::{generate, Request, DEFAULT_BOOK_PLIES, DEFAULT_PLIES};
use horizon::Board;
use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn horizon(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_horizon")).args(args).output().expect("cannot run horizon")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A fresh path in the temp directory, unique to this test process and `name`.
fn temp_path(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("horizon-openbench-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name)
}

fn request(line: &str) -> Request {
    line.parse().unwrap_or_else(|e| panic!("{line}: {e}"))
}

/// The first four FEN fields (the position without move counters).
fn position(fen: &str) -> String {
    fen.split_whitespace().take(4).collect::<Vec<_>>().join(" ")
}

/// Every position reachable from `fen` in `min..=max` plies (first four FEN fields).
fn reachable(fen: &str, min: usize, max: usize) -> HashSet<String> {
    let mut out = HashSet::new();
    let mut layer = vec![Board::from_fen(fen).unwrap()];
    for ply in 0..=max {
        if ply >= min {
            out.extend(layer.iter().map(|b| position(&b.to_fen())));
        }
        let mut next = Vec::new();
        for b in &layer {
            for &m in b.legal_moves().iter() {
                let mut c = b.clone();
                c.make(m);
                next.push(c);
            }
        }
        layer = next;
    }
    out
}

/// Checks what every genfens position must be: a full legal FEN, not finished.
fn check_fen(fen: &str) {
    assert_eq!(fen.split_whitespace().count(), 6, "'{fen}' is not a six-field FEN");
    let b = Board::from_fen(fen).unwrap_or_else(|e| panic!("'{fen}': {e}"));
    assert_eq!(b.to_fen(), fen);
    assert!(!b.legal_moves().is_empty(), "'{fen}': no legal move");
    assert!(!b.insufficient_material() && !b.fifty_move_draw(), "'{fen}': drawn already");
}

#[test]
fn genfens_is_reproducible_legal_and_exact_in_count() {
    let a = generate(&request("genfens 12 seed 5 book None")).unwrap();
    let b = generate(&request("genfens 12 seed 5 book None")).unwrap();
    let c = generate(&request("genfens 12 seed 6 book None")).unwrap();
    assert_eq!(a.len(), 12);
    assert_eq!(a, b, "seed 5 gave two different lists");
    assert_ne!(a, c, "seeds 5 and 6 gave the same list");
    // A shorter request is the start of a longer one.
    assert_eq!(generate(&request("genfens 4 seed 5 book None")).unwrap(), a[..4]);
    // 8 plies from the start: White to move at move 5; 9 plies: Black to move at move 5.
    assert_eq!((DEFAULT_PLIES.min, DEFAULT_PLIES.max), (8, 9));
    let mut sides = HashSet::new();
    for fen in &a {
        check_fen(fen);
        let fields: Vec<&str> = fen.split_whitespace().collect();
        assert_eq!(fields[5], "5", "'{fen}' is not 8 or 9 plies from the start");
        sides.insert(fields[1].to_string());
    }
    assert_eq!(sides.len(), 2, "both sides should get to move first in 12 positions");
    // An explicit ply count is obeyed.
    for fen in generate(&request("genfens 5 seed 1 book None plies 2")).unwrap() {
        assert!(reachable(horizon::board::START_FEN, 2, 2).contains(&position(&fen)), "{fen}");
        assert!(fen.ends_with(" 2"), "two plies from the start is move 2: {fen}");
    }
}

/// The score of a fresh `nodes`-node search of `fen`, as genfens's checking search runs it
/// (empty hash table and histories).
fn fresh_score(fen: &str, nodes: u64) -> i32 {
    use horizon::search::time::Clock;
    use horizon::search::tt::TranspositionTable;
    use horizon::search::{Control, Limits, Searcher, Silent};
    use std::sync::Arc;
    let tt = Arc::new(TranspositionTable::try_new(1).unwrap());
    let mut searcher = Searcher::new(tt, Arc::new(Control::default()));
    let limits = Limits { nodes: Some(nodes), multipv: 1, clock: Clock::default(), ..Limits::default() };
    searcher.search(&Board::from_fen(fen).unwrap(), limits, &mut Silent).score
}

#[test]
fn genfens_min_margin_gives_unbalanced_positions() {
    let window = "min-margin 60 margin 160 nodes 3000";
    let fens = generate(&request(&format!("genfens 6 seed 9 book None {window}"))).unwrap();
    assert_eq!(fens.len(), 6);
    for fen in &fens {
        check_fen(fen);
        let s = fresh_score(fen, 3000).abs();
        assert!((60..=160).contains(&s), "'{fen}' scores {s}, outside 60 to 160");
    }
    // Without the floor the same seed keeps near-level positions the window rejects.
    let level = generate(&request("genfens 6 seed 9 book None margin 160 nodes 3000")).unwrap();
    assert!(level.iter().any(|f| fresh_score(f, 3000).abs() < 60), "no level position among {level:?}");
    // A window no candidate reaches ends with one line, not a hang.
    let e = generate(&request("genfens 1 seed 1 book None plies 0 min-margin 500 margin 600")).unwrap_err();
    let msg = e.to_string();
    assert!(msg.contains("outside 500 to 600 cp") && !msg.contains('\n'), "{msg}");
}

#[test]
fn genfens_uses_the_book() {
    let book = temp_path("book.epd");
    let lines = [
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - bm Bb5; id \"a\";",
        "# a comment, then a blank line",
        "",
        "rnbqkb1r/pp2pppp/3p1n2/8/3NP3/8/PPP2PPP/RNBQKB1R w KQkq - 1 5",
    ];
    std::fs::write(&book, lines.join("\n")).unwrap();
    let starts: Vec<String> = [lines[0], lines[3]].iter().map(|l| position(l)).collect();
    let p = book.to_str().unwrap();

    // No random plies: the book positions themselves, both of them in 10 draws.
    let fens = generate(&request(&format!("genfens 10 seed 2 book {p} plies 0"))).unwrap();
    let seen: HashSet<String> = fens.iter().map(|f| position(f)).collect();
    assert_eq!(seen, starts.iter().cloned().collect::<HashSet<_>>());

    // The default: two or three random plies after a book position.
    let near: HashSet<String> =
        starts.iter().flat_map(|s| reachable(s, DEFAULT_BOOK_PLIES.min, DEFAULT_BOOK_PLIES.max)).collect();
    let fens = generate(&request(&format!("genfens 8 seed 2 book {p}"))).unwrap();
    assert_eq!(fens.len(), 8);
    for f in &fens {
        check_fen(f);
        assert!(near.contains(&position(f)), "'{f}' is not 2-3 plies from a book position");
    }
    let _ = std::fs::remove_file(book);
}

#[test]
fn genfens_on_the_command_line_as_openbench_calls_it() {
    let o = horizon(&["genfens 5 seed 3 book None", "quit"]);
    assert_eq!(o.status.code(), Some(0), "stderr: {}", text(&o.stderr));
    let out = text(&o.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "stdout: {out}");
    for l in &lines {
        let fen = l.strip_prefix("info string genfens ").unwrap_or_else(|| panic!("bad line '{l}'"));
        check_fen(fen);
    }
    let fens: Vec<String> = lines.iter().map(|l| l["info string genfens ".len()..].to_string()).collect();
    assert_eq!(fens, generate(&request("genfens 5 seed 3 book None")).unwrap());
    // The trailing space OpenBench leaves when it has no extra options, the request split
    // over several arguments, and a setoption before it all give the same positions.
    assert_eq!(text(&horizon(&["genfens 5 seed 3 book None ", "quit"]).stdout), out);
    assert_eq!(text(&horizon(&["genfens", "5", "seed", "3", "book", "None", "quit"]).stdout), out);
    let with_option = horizon(&["setoption name EvalFile value x.nnue", "genfens 5 seed 3 book None", "quit"]);
    assert_eq!(text(&with_option.stdout), out);
    assert_eq!(with_option.status.code(), Some(0));
}

#[test]
fn genfens_bad_arguments_exit_2_with_one_line() {
    let lost = temp_path("lost.epd");
    std::fs::write(&lost, "k7/8/8/8/8/8/8/KQQQ4 w - - 0 1\n").unwrap();
    let lost_request = format!("genfens 2 seed 1 book {} plies 0 nodes 200", lost.to_str().unwrap());
    let cases = [
        "genfens x seed 1 book None",
        "genfens 0 seed 1 book None",
        "genfens 100000000000 seed 1 book None",
        "genfens 5 seed 1",
        "genfens 5 seed z book None",
        "genfens 5 seed 1 book /no/such/book.epd",
        "genfens 5 seed 1 book None plies 3-1",
        "genfens 5 seed 1 book None whatever 3",
        lost_request.as_str(),
    ];
    for case in cases {
        let o = horizon(&[case, "quit"]);
        assert_eq!(o.status.code(), Some(2), "'{case}' exited {:?}", o.status.code());
        let err = text(&o.stderr);
        assert_eq!(err.lines().count(), 1, "'{case}': {err}");
        assert!(err.starts_with("error: "), "'{case}': {err}");
        assert_eq!(text(&o.stdout), "", "'{case}' printed positions");
    }
    let o = horizon(&["genfens 2 seed 1 book None", "go"]);
    assert_eq!(o.status.code(), Some(2));
    let _ = std::fs::remove_file(lost);
}

#[test]
fn genfens_in_the_uci_loop() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_horizon"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("cannot run horizon");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"genfens 3 seed 3 book None\ngenfens 3 seed\nisready\ngenfens 1 seed 3 book None\nquit\n")
        .unwrap();
    let o = child.wait_with_output().unwrap();
    let out = text(&o.stdout);
    let lines: Vec<&str> = out.lines().collect();
    let fens = generate(&request("genfens 3 seed 3 book None")).unwrap();
    assert_eq!(lines.len(), 6, "{out}");
    for i in 0..3 {
        assert_eq!(lines[i], format!("info string genfens {}", fens[i]));
    }
    assert!(lines[3].starts_with("info string error: genfens: "), "{}", lines[3]);
    assert_eq!(lines[4], "readyok");
    assert_eq!(lines[5], format!("info string genfens {}", fens[0]));
}

fn convert(inputs: &[&Path], out: &Path) -> Output {
    let mut args = vec!["pgn-convert"];
    args.extend(inputs.iter().map(|p| p.to_str().unwrap()));
    args.extend(["--out", out.to_str().unwrap()]);
    horizon(&args)
}

#[test]
fn pgn_convert_gives_the_oracles_lines() {
    // tests/data/fastchess.pgn: four games of a real fastchess run from genfens openings;
    // the expected lines come from scripts/pgn_convert_oracle.py (python-chess).
    let out = temp_path("converted.txt");
    let o = convert(&[&data("fastchess.pgn")], &out);
    assert_eq!(o.status.code(), Some(0), "stderr: {}", text(&o.stderr));
    let want = std::fs::read_to_string(data("fastchess.expected.txt")).unwrap();
    assert_eq!(std::fs::read_to_string(&out).unwrap(), want);
    assert_eq!(
        text(&o.stdout),
        format!(
            "games: 4 read from 1 file, 4 used, 0 skipped\npositions: 295 written to {} of 380 moves; left out: \
             0 book, 0 without score, 5 mate score, 28 in check, 52 capture or promotion, 0 before ply 0\n",
            out.display()
        )
    );
    assert_eq!(text(&o.stderr), "");

    // The output exists now: refused without --append or --force, and left alone.
    let again = convert(&[&data("fastchess.pgn")], &out);
    assert_eq!(again.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), want);
    // Two inputs with --force, and --min-ply.
    let input = data("fastchess.pgn");
    let both = horizon(&[
        "pgn-convert",
        input.to_str().unwrap(),
        input.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--force",
    ]);
    assert_eq!(both.status.code(), Some(0));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), want.repeat(2));
    assert!(text(&both.stdout).starts_with("games: 8 read from 2 files, 8 used, 0 skipped\n"));
    let late = horizon(&[
        "pgn-convert",
        input.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--force",
        "--min-ply",
        "20",
    ]);
    assert_eq!(late.status.code(), Some(0));
    assert!(text(&late.stdout).contains(" 80 before ply 20\n"), "{}", text(&late.stdout));
    let _ = std::fs::remove_file(out);
}

#[test]
fn pgn_convert_skips_and_counts_bad_games() {
    let pgn = std::fs::read_to_string(data("fastchess.pgn")).unwrap();
    // The third game (round 16, 0-1), alone and in three damaged copies.
    let start = pgn.match_indices("[Event ").nth(2).unwrap().0;
    let end = pgn.match_indices("[Event ").nth(3).unwrap().0;
    let game = &pgn[start..end];
    let bad_move = game.replace("8. Ng5", "8. Ng9");
    let bad_comment = game.replace("{-2.68/8 0.002s}", "{-2.6x/8 0.002s}");
    let bad_result = game.replace("[Result \"0-1\"]", "[Result \"1-0\"]");
    for (a, b) in [(&bad_move, game), (&bad_comment, game), (&bad_result, game)] {
        assert_ne!(a, b, "the damage did not apply");
    }
    let (alone, damaged) = (temp_path("alone.pgn"), temp_path("damaged.pgn"));
    std::fs::write(&alone, game).unwrap();
    std::fs::write(&damaged, [bad_move.as_str(), game, bad_comment.as_str(), bad_result.as_str()].concat()).unwrap();
    let (want, got) = (temp_path("alone.txt"), temp_path("damaged.txt"));
    assert_eq!(convert(&[&alone], &want).status.code(), Some(0));
    let o = convert(&[&damaged], &got);
    assert_eq!(o.status.code(), Some(0), "stderr: {}", text(&o.stderr));
    let written = std::fs::read_to_string(&want).unwrap();
    assert!(written.lines().count() > 20);
    assert_eq!(std::fs::read_to_string(&got).unwrap(), written, "only the intact game is written");
    let summary = text(&o.stdout);
    assert!(
        summary.starts_with(
            "games: 4 read from 1 file, 1 used, 3 skipped (unreadable move 1, unreadable comment 1, unreadable result 1)\n"
        ),
        "{summary}"
    );
    let err = text(&o.stderr);
    let d = damaged.display();
    let reasons: Vec<&str> = err.lines().collect();
    assert_eq!(reasons.len(), 3, "{err}");
    assert!(reasons[0].starts_with(&format!("skipped game 1 in {d}: move 8. 'Ng9'")), "{err}");
    assert!(reasons[1].starts_with(&format!("skipped game 3 in {d}: comment {{-2.6x/8 0.002s}}")), "{err}");
    assert!(reasons[2].starts_with(&format!("skipped game 4 in {d}: Result tag '1-0'")), "{err}");
    for p in [alone, damaged, want, got] {
        let _ = std::fs::remove_file(p);
    }
}

#[test]
fn pgn_convert_bad_arguments_exit_2() {
    let out = temp_path("never.txt");
    let o = out.to_str().unwrap();
    let pgn = data("fastchess.pgn");
    let p = pgn.to_str().unwrap();
    for args in [
        vec!["pgn-convert", "/no/such/file.pgn", "--out", o],
        vec!["pgn-convert", p, "/no/such/file.pgn", "--out", o],
        vec!["pgn-convert", p],
        vec!["pgn-convert", "--out", o],
        vec!["pgn-convert", p, "--out", o, "--min-ply", "x"],
        vec!["pgn-convert", p, "--out", o, "--append", "--force"],
        vec!["pgn-convert", p, "--out", o, "--bogus"],
    ] {
        let r = horizon(&args);
        assert_eq!(r.status.code(), Some(2), "{args:?}");
        let err = text(&r.stderr);
        assert!(err.starts_with("error: ") && err.lines().count() == 1, "{args:?}: {err}");
        assert!(!out.exists(), "{args:?} created the output");
    }
}
