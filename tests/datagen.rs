//! `horizon datagen` on the real binary: determinism, the data format and its filters,
//! what happens to an existing output file, and argument errors.

use horizon::data::text::{parse_line, Outcome};
use horizon::search::params::MATE_BOUND;
use horizon::search::tt::TranspositionTable;
use horizon::search::{Control, Options, Searcher};
use horizon::Board;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Arc;

fn horizon(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_horizon")).args(args).output().expect("cannot run horizon")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A fresh path in the temp directory, unique to this test process and `name`.
fn temp_path(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("horizon-datagen-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

/// Runs a small datagen into `out` (which must not exist) and returns the file's text.
fn generate(out: &Path, extra: &[&str]) -> String {
    let mut args = vec!["datagen", "--out", out.to_str().unwrap(), "--games", "4", "--nodes", "1500", "--seed", "7"];
    args.extend_from_slice(extra);
    let o = horizon(&args);
    assert!(o.status.success(), "datagen {args:?} failed: {}", stderr(&o));
    assert!(stderr(&o).contains("positions/s"), "no summary on stderr: {}", stderr(&o));
    std::fs::read_to_string(out).expect("datagen wrote no file")
}

#[test]
fn same_seed_and_one_thread_give_the_same_file() {
    let (a, b, c) = (temp_path("same-a"), temp_path("same-b"), temp_path("same-c"));
    let ta = generate(&a, &[]);
    let tb = generate(&b, &["--threads", "1"]);
    assert!(ta.lines().count() >= 40, "only {} positions from 4 games", ta.lines().count());
    assert_eq!(ta, tb, "two runs with seed 7 and one thread differ");
    // Another seed plays other games.
    let mut args = vec!["datagen", "--out", c.to_str().unwrap(), "--games", "4", "--nodes", "1500", "--seed", "8"];
    args.push("--threads");
    args.push("1");
    assert!(horizon(&args).status.success());
    assert_ne!(std::fs::read_to_string(&c).unwrap(), ta, "seeds 7 and 8 gave the same file");
    for p in [a, b, c] {
        let _ = std::fs::remove_file(p);
    }
}

/// `--eval` picks the evaluation the games are played with: the two evaluations play other
/// games, each reproducibly, and the default is the engine's.
#[test]
fn the_evaluation_is_a_choice() {
    let (c, n, d) = (temp_path("eval-c"), temp_path("eval-n"), temp_path("eval-d"));
    let classical = generate(&c, &["--eval", "classical"]);
    let nnue = generate(&n, &["--eval", "nnue"]);
    let default = generate(&d, &[]);
    assert!(nnue.lines().count() >= 40, "only {} positions from 4 games", nnue.lines().count());
    assert_ne!(classical, nnue, "both evaluations played the same games");
    assert_eq!(&default, if horizon::eval::USE_NNUE_BY_DEFAULT { &nnue } else { &classical });
    for p in [c, n, d] {
        let _ = std::fs::remove_file(p);
    }
}

#[test]
fn two_threads_write_the_same_games_in_another_order() {
    let (a, b) = (temp_path("threads-a"), temp_path("threads-b"));
    let one = generate(&a, &[]);
    let two = generate(&b, &["--threads", "2"]);
    let sorted = |t: &str| {
        let mut v: Vec<String> = t.lines().map(String::from).collect();
        v.sort();
        v
    };
    assert_eq!(sorted(&one), sorted(&two));
    let _ = std::fs::remove_file(a);
    let _ = std::fs::remove_file(b);
}

/// Every line parses, its FEN is a legal position, and the filters hold when rechecked
/// with the library: not in check, not a mate score, and quiet (the quiescence search
/// gives exactly the static evaluation).
#[test]
fn lines_parse_and_pass_the_filters() {
    let out = temp_path("filters");
    let text = generate(&out, &[]);
    let mut searcher = Searcher::new(Arc::new(TranspositionTable::new(4)), Arc::new(Control::default()));
    // The games were played with the default evaluation; the filter is rechecked with it.
    searcher.set_network(horizon::eval::USE_NNUE_BY_DEFAULT.then(horizon::eval::nnue::default_network));
    // Datagen evaluates without the material scaling of play (its scores train the network).
    searcher.set_options(Options { material_scale: false, ..searcher.options() });
    let mut results = [0usize; 3];
    let mut nonzero_scores = 0;
    for (i, line) in text.lines().enumerate() {
        let d = parse_line(line).unwrap_or_else(|e| panic!("line {}: {e}: {line}", i + 1));
        assert_eq!(line, format!("{} | {} | {}", d.fen, d.score, d.result.as_str()), "line {} not canonical", i + 1);
        assert_eq!(d.fen.split(' ').count(), 6, "line {}: not a six-field FEN", i + 1);
        let board = Board::from_fen(&d.fen).unwrap_or_else(|e| panic!("line {}: {e}", i + 1));
        assert_eq!(board.to_fen(), d.fen, "line {}: FEN does not round-trip", i + 1);
        assert!(!board.in_check(), "line {}: side to move in check: {}", i + 1, d.fen);
        assert!(!board.legal_moves().is_empty(), "line {}: game already over: {}", i + 1, d.fen);
        assert!(d.score.abs() < MATE_BOUND, "line {}: mate score {}", i + 1, d.score);
        let quiet = searcher.static_evaluation(&board);
        assert_eq!(searcher.quiescence(&board), quiet, "line {}: not quiet: {}", i + 1, d.fen);
        results[match d.result {
            Outcome::WhiteWins => 0,
            Outcome::Draw => 1,
            Outcome::BlackWins => 2,
        }] += 1;
        nonzero_scores += (d.score != 0) as usize;
    }
    assert!(nonzero_scores > 0, "every score is 0");
    // The opening plies are not written: no line holds the start position.
    assert!(!text.contains("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"));
    eprintln!("{} lines checked; results 1.0/0.5/0.0: {results:?}", text.lines().count());
    let _ = std::fs::remove_file(out);
}

/// The (FEN, score) pairs of a data file, in order.
fn positions(text: &str) -> Vec<(String, i32)> {
    text.lines().map(|l| parse_line(l).map(|d| (d.fen, d.score)).expect("a data line")).collect()
}

/// `--filter` changes which positions are written, never the games: the looser filter
/// writes every position the default one does, in the same order, and more.
#[test]
fn the_bestmove_filter_keeps_a_superset() {
    let (a, b) = (temp_path("filter-q"), temp_path("filter-b"));
    let strict = positions(&generate(&a, &["--threads", "1"]));
    let loose = positions(&generate(&b, &["--threads", "1", "--filter", "bestmove"]));
    let mut rest = loose.iter();
    for p in &strict {
        assert!(rest.any(|q| q == p), "{p:?} of the default filter is missing from --filter bestmove");
    }
    assert!(loose.len() > strict.len(), "--filter bestmove kept {} of {}", loose.len(), strict.len());
    for (fen, score) in &loose {
        let board = Board::from_fen(fen).unwrap();
        assert!(!board.in_check() && score.abs() < MATE_BOUND, "{fen} {score}");
    }
    let _ = std::fs::remove_file(a);
    let _ = std::fs::remove_file(b);
}

/// A higher `--win-score` plays on where the default adjudicates: each game's positions
/// under the default are a prefix of the same game's positions without adjudication.
#[test]
fn a_higher_win_score_plays_games_further() {
    let (a, b) = (temp_path("win-default"), temp_path("win-high"));
    let args = ["--threads", "1", "--seed", "3", "--games", "3"];
    let short = positions(&generate(&a, &args));
    let long = positions(&generate(&b, &[&args[..], &["--win-score", "3000", "--win-plies", "12"]].concat()));
    let mut rest = long.iter();
    for p in &short {
        assert!(rest.any(|q| q == p), "{p:?} of the default run is missing with --win-score 3000");
    }
    assert!(long.len() > short.len(), "no game went further: {} and {} positions", short.len(), long.len());
    let _ = std::fs::remove_file(a);
    let _ = std::fs::remove_file(b);
}

#[test]
fn book_openings_are_used() {
    let book = temp_path("book.epd");
    // Two positions from a Sicilian and a Queen's Gambit, with EPD operations after them.
    std::fs::write(
        &book,
        "# a comment\n\
         rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - id \"a\";\n\
         \n\
         rnbqkbnr/ppp1pppp/8/3p4/2PP4/8/PP2PPPP/RNBQKBNR b KQkq -\n",
    )
    .unwrap();
    let out = temp_path("book-out");
    let text = generate(&out, &["--book", book.to_str().unwrap(), "--random-plies", "0"]);
    assert!(!text.is_empty());
    // With no random plies each game starts from a book line, so (quiet as both are) a
    // book position is the first line of a game.
    let from_book = text.lines().filter(|l| {
        l.starts_with("rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 0 1 |")
            || l.starts_with("rnbqkbnr/ppp1pppp/8/3p4/2PP4/8/PP2PPPP/RNBQKBNR b KQkq - 0 1 |")
    });
    assert!(from_book.count() >= 1, "no game starts from the book:\n{text}");
    let _ = std::fs::remove_file(book);
    let _ = std::fs::remove_file(out);
}

#[test]
fn an_existing_file_is_refused_unless_append_or_force() {
    let out = temp_path("existing");
    let first = generate(&out, &[]);
    // Refused: exit 2, one line, and the file is untouched.
    let o = horizon(&["datagen", "--out", out.to_str().unwrap(), "--games", "1", "--nodes", "500"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
    assert!(stderr(&o).starts_with("error: ") && stderr(&o).contains("--append"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), first);
    // --append adds the same four games (same seed) after the old ones.
    let args = ["datagen", "--out", out.to_str().unwrap(), "--games", "4", "--nodes", "1500", "--seed", "7"];
    let o = horizon(&[&args[..], &["--append"]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), format!("{first}{first}"));
    // --force replaces it.
    let o = horizon(&[&args[..], &["--force"]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), first);
    let _ = std::fs::remove_file(out);
}

#[test]
fn bad_arguments_exit_2_with_one_line() {
    let out = temp_path("bad-args");
    let o = out.to_str().unwrap();
    let missing_book = temp_path("no-such-book.epd");
    let bad_book = temp_path("bad-book.epd");
    std::fs::write(&bad_book, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\nnot a fen at all\n").unwrap();
    let empty_book = temp_path("empty-book.epd");
    std::fs::write(&empty_book, "\n# nothing\n").unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["datagen"], "--out"),
        (vec!["datagen", "--out", o], "--games"),
        (vec!["datagen", "--games", "3"], "--out"),
        (vec!["datagen", "--out", o, "--games", "0"], "--games"),
        (vec!["datagen", "--out", o, "--games", "ten"], "--games"),
        (vec!["datagen", "--out", o, "--games", "-3"], "--games"),
        (vec!["datagen", "--out", o, "--games", "3", "--nodes", "0"], "--nodes"),
        (vec!["datagen", "--out", o, "--games", "3", "--threads", "999"], "--threads"),
        (vec!["datagen", "--out", o, "--games", "3", "--seed", "x"], "--seed"),
        (vec!["datagen", "--out", o, "--games", "3", "--random-plies", "1000"], "--random-plies"),
        (vec!["datagen", "--out", o, "--games", "3", "--hash"], "--hash"),
        (vec!["datagen", "--out", o, "--games", "3", "--bogus"], "--bogus"),
        (vec!["datagen", "--out", o, "--games", "3", "extra"], "extra"),
        (vec!["datagen", "--out", o, "--games", "3", "--append", "--force"], "--force"),
        (vec!["datagen", "--out", o, "--games", "3", "--eval", "quantum"], "--eval must be 'classical' or 'nnue'"),
        (vec!["datagen", "--out", o, "--games", "3", "--filter", "loose"], "--filter must be 'qsearch' or 'bestmove'"),
        (vec!["datagen", "--out", o, "--games", "3", "--win-score", "50"], "--win-score"),
        (vec!["datagen", "--out", o, "--games", "3", "--win-score", "31000"], "--win-score"),
        (vec!["datagen", "--out", o, "--games", "3", "--win-plies", "0"], "--win-plies"),
        (vec!["datagen", "--out", o, "--games", "3", "--eval", "classical", "--evalfile", "n.nnue"], "--evalfile"),
        (vec!["datagen", "--out", o, "--games", "3", "--evalfile", "/nonexistent-dir/n.nnue"], "network file"),
        (vec!["datagen", "--out", "/nonexistent-dir/x/data.txt", "--games", "1"], "cannot write"),
        (vec!["datagen", "--out", o, "--games", "1", "--book", missing_book.to_str().unwrap()], "cannot read book"),
        (vec!["datagen", "--out", o, "--games", "1", "--book", bad_book.to_str().unwrap()], "line 2"),
        (vec!["datagen", "--out", o, "--games", "1", "--book", empty_book.to_str().unwrap()], "no positions"),
    ];
    for (args, needle) in cases {
        let r = horizon(&args);
        let err = stderr(&r);
        assert_eq!(r.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: not one line: {err}");
        assert!(err.starts_with("error: ") && err.contains(needle), "{args:?}: {err}");
        assert!(r.stdout.is_empty(), "{args:?} printed to stdout");
        assert!(!out.exists(), "{args:?} created the output file");
    }
    for p in [bad_book, empty_book] {
        let _ = std::fs::remove_file(p);
    }
}
