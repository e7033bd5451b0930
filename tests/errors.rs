//! Typed errors: each reason is reported as its own variant, and every error prints as one
//! line that names the offending input.

use horizon::error::{CommandError, EpdError, HashAllocError, MoveError, OptionError, SuiteLineError};
use horizon::perft::parse_suite_line;
use horizon::uci::command::Command;
use horizon::uci::options::EngineOptions;
use horizon::Board;

fn one_line(e: &impl std::fmt::Display, needle: &str) {
    let s = e.to_string();
    assert!(!s.contains('\n') && !s.is_empty(), "{s:?}");
    assert!(s.contains(needle), "{s:?} should contain {needle:?}");
}

#[test]
fn uci_moves_rejected_with_the_reason() {
    let start = Board::startpos();
    let promo = Board::from_fen("4k3/P7/8/8/8/8/8/4K3 w - - 0 1").unwrap();
    type Case<'a> = (&'a Board, &'a str, fn(&MoveError) -> bool, &'a str);
    let cases: [Case; 7] = [
        (&start, "zz", |e| matches!(e, MoveError::Syntax(_)), "'zz' is not a move in UCI notation"),
        (&start, "e2e4k", |e| matches!(e, MoveError::Syntax(_)), "'e2e4k'"),
        (&start, "0000", |e| matches!(e, MoveError::Null), "null move"),
        (&start, "e3e4", |e| matches!(e, MoveError::NoPiece { .. }), "no piece on e3"),
        (&start, "e7e5", |e| matches!(e, MoveError::NotYourPiece { .. }), "side not to move"),
        (&promo, "a7a8", |e| matches!(e, MoveError::MissingPromotion { .. }), "promotion"),
        (&start, "e2e5", |e| matches!(e, MoveError::Illegal { .. }), "illegal move 'e2e5'"),
    ];
    for (board, text, is_reason, needle) in cases {
        let e = board.parse_uci_move(text).expect_err(text);
        assert!(is_reason(&e), "{text}: {e:?}");
        one_line(&e, needle);
    }
    // Castling without the right, and a pinned piece, are plain illegal moves.
    assert!(matches!(start.parse_uci_move("e1g1"), Err(MoveError::Illegal { .. })));
    let pinned = Board::from_fen("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1").unwrap();
    assert!(matches!(pinned.parse_uci_move("e2c3"), Err(MoveError::Illegal { .. })));
    assert_eq!(promo.parse_uci_move("a7a8q").map(|m| m.uci(false).to_string()), Ok("a7a8q".to_string()));
}

#[test]
fn uci_commands_rejected_with_the_reason() {
    let cases = [
        ("frobnicate", CommandError::UnknownCommand("frobnicate".into()), "unknown command 'frobnicate'"),
        ("bench deep", CommandError::BadBenchDepth("deep".into()), "bench depth 'deep'"),
        ("position", CommandError::PositionUsage, "usage: position"),
        ("position fen", CommandError::PositionUsage, "usage: position"),
        ("setoption Hash", CommandError::SetOptionUsage, "usage: setoption"),
        ("setoption name value 3", CommandError::EmptyOptionName, "empty option name"),
    ];
    for (line, want, needle) in cases {
        let e = line.parse::<Command>().expect_err(line);
        assert_eq!(e, want, "{line}");
        one_line(&e, needle);
    }
}

/// A malformed `go` is not rejected: it parses, with what it left out in `notes`.
#[test]
fn malformed_go_keeps_the_readable_parts() {
    let cases = [
        ("go sideways", "sideways (unknown)"),
        ("go depth", "depth (no value)"),
        ("go nodes many", "nodes many (not a number)"),
        ("go wtime -5 btime x", "wtime -5 (read as 0)"),
        ("go nodes -5", "nodes -5 (must not be negative)"),
        ("go movestogo -1", "movestogo -1 (must be at least 1)"),
        ("go movetime 5-", "movetime 5- (not a number)"),
        ("go depth -", "depth - (not a number)"),
    ];
    for (line, note) in cases {
        match line.parse::<Command>() {
            Ok(Command::Go(g)) => assert!(g.notes.iter().any(|n| n == note), "{line}: {:?}", g.notes),
            other => panic!("{line}: {other:?}"),
        }
    }
    // Digits beyond 64 bits are a very large number, not a mistake: "as long as it takes".
    match "go movetime 99999999999999999999 wtime -99999999999999999999 nodes 18446744073709551616".parse::<Command>() {
        Ok(Command::Go(g)) => {
            assert_eq!((g.movetime, g.wtime, g.nodes), (Some(i64::MAX as u64), Some(0), Some(i64::MAX as u64)));
            assert_eq!(g.notes, ["wtime -99999999999999999999 (read as 0)"]);
        }
        other => panic!("{other:?}"),
    }
    match "go depth abc movetime 300 wtime -5".parse::<Command>() {
        Ok(Command::Go(g)) => {
            assert_eq!((g.depth, g.movetime, g.wtime), (None, Some(300), Some(0)));
            assert_eq!(g.notes.len(), 2, "{:?}", g.notes);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn options_rejected_with_the_reason() {
    let mut o = EngineOptions::default();
    let cases = [
        ("Colour", Some("red"), OptionError::Unknown("Colour".into()), "unknown option 'Colour'"),
        ("Hash", None, OptionError::MissingValue("Hash".into()), "needs a value"),
        ("Hash", Some("lots"), OptionError::NotANumber("Hash".into(), "lots".into()), "'lots' is not a number"),
        (
            "Hash",
            Some("-1"),
            OptionError::OutOfRange { name: "Hash".into(), value: "-1".into(), min: 1, max: 65536 },
            "option 'Hash': -1 is out of range 1..65536",
        ),
        (
            "Threads",
            Some("99999999999999999999999"),
            OptionError::OutOfRange {
                name: "Threads".into(),
                value: "99999999999999999999999".into(),
                min: 1,
                max: 1024,
            },
            "99999999999999999999999 is out of range 1..1024",
        ),
        ("Hash", Some("1e3"), OptionError::NotANumber("Hash".into(), "1e3".into()), "'1e3' is not a number"),
        (
            "MultiPV",
            Some("1000"),
            OptionError::OutOfRange { name: "MultiPV".into(), value: "1000".into(), min: 1, max: 256 },
            "1000 is out of range 1..256",
        ),
        ("Ponder", Some("yes"), OptionError::NotABool("Ponder".into()), "true or false"),
    ];
    for (name, value, want, needle) in cases {
        let e = o.set(name, value).expect_err(name);
        assert_eq!(e, want, "{name} {value:?}");
        one_line(&e, needle);
    }
    // A refused value leaves the option as it was.
    assert_eq!(o.hash_mb, horizon::uci::options::HASH_DEFAULT);
    assert_eq!(o.multipv, 1);
}

#[test]
fn file_lines_rejected_with_the_reason() {
    let fen = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
    let cases = [
        (format!("{fen} ;X1 5"), SuiteLineError::BadDepth("X1 5".into()), "bad depth field"),
        (format!("{fen} ;D1 five"), SuiteLineError::BadCount("D1 five".into()), "bad count"),
        (fen.to_string(), SuiteLineError::NoCounts, "no ';D<depth> <count>' fields"),
    ];
    for (line, want, needle) in cases {
        let e = parse_suite_line(&line).expect_err(&line);
        assert_eq!(e, want);
        one_line(&e, needle);
    }
    assert!(parse_suite_line("# comment").unwrap().is_none());

    let epd = [
        ("4k3/8/8/8 w", "fewer than four FEN fields"),
        ("4k3/8/8/8/8/8/8/4K3 x - - bm Kd2;", "side to move 'x'"),
        ("4k3/8/8/8/8/8/8/4K3 w - - bm Ke3;", "bad move 'Ke3'"),
        ("4k3/8/8/8/8/8/8/4K3 w - - id \"x\";", "no bm or am operation"),
    ];
    for (line, needle) in epd {
        let e = horizon::epd::parse_epd(line).err().unwrap_or_else(|| panic!("{line} accepted"));
        one_line(&e, needle);
    }
    assert!(matches!(horizon::epd::parse_epd("4k3/8/8/8/8/8/8/4K3 w - - bm Ke3;"), Err(EpdError::BadMove(_))));
    one_line(&HashAllocError { mb: 70000 }, "cannot allocate a 70000 MB hash table");
}

/// The errors of the data tools, the trainer, the tablebase reader and the command line:
/// typed, each reason its own variant, every message one line naming what is wrong.
#[test]
fn tool_errors_are_typed_and_one_line() {
    use horizon::commands::args::{position, PositionError};
    use horizon::data::convert::{self, ConvertError};
    use horizon::data::genfens::{generate, GenfensError, Request, RequestError};
    use horizon::data::pgn::fastchess::{parse_comment, CommentError};
    use horizon::data::read::{record_count, FileError};
    use horizon::data::text::LineError;
    use horizon::data::Format;
    use horizon::eval::score::S;
    use horizon::eval::trace::TraceMismatch;
    use horizon::syzygy::error::TableError;
    use horizon::train::checkpoint::{Checkpoint, CheckpointError, LoadError};
    use horizon::train::export::WriteError;
    use horizon::train::TrainError;

    let dir = std::env::temp_dir().join(format!("horizon-errors-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let missing = dir.join("missing.bin").to_string_lossy().into_owned();
    let dir_name = dir.to_string_lossy().into_owned();

    // Data files.
    let e = record_count(&missing).unwrap_err();
    assert!(matches!(e, FileError::Read { .. }), "{e:?}");
    one_line(&e, "cannot read");
    let e = record_count(&dir_name).unwrap_err();
    assert!(matches!(e, FileError::NotAFile(_)), "{e:?}");
    one_line(&e, "is not a file");
    one_line(
        &FileError::PartialRecord { path: "x.bin".into(), bytes: 5, after: 7 },
        "partial record (5 bytes after record 7)",
    );
    one_line(&FileError::Memory(9), "not enough memory for 9 records");
    one_line(&LineError::NotUtf8, "not UTF-8 text");

    // Conversion.
    let cfg = |inputs: Vec<String>, out: &str| convert::Config {
        inputs,
        out: out.to_string(),
        to: Format::Bin,
        dedup: false,
        force: false,
    };
    let e = convert::run(&cfg(vec![], "x.bin")).unwrap_err();
    assert!(matches!(e, ConvertError::NoInputs) && !e.is_write(), "{e:?}");
    one_line(&e, "no input files");
    let e = convert::run(&cfg(vec![missing.clone()], &dir_name)).unwrap_err();
    assert!(matches!(e, ConvertError::Exists(_)), "{e:?}");
    one_line(&e, "add --force");
    let e = convert::run(&cfg(vec![missing.clone()], &dir.join("out.bin").to_string_lossy())).unwrap_err();
    assert!(matches!(e, ConvertError::Read(FileError::Read { .. })) && !e.is_write(), "{e:?}");
    let io = || std::io::Error::other("disk full");
    let e = ConvertError::Write { path: "o.tmp".into(), source: io() };
    assert!(e.is_write());
    one_line(&e, "cannot write 'o.tmp': disk full");

    // genfens requests and runs.
    for (line, want, needle) in [
        ("genfens", RequestError::MissingCount, "missing the number"),
        ("genfens 5 book None", RequestError::MissingSeed, "missing 'seed S'"),
        ("genfens 5 seed 1", RequestError::MissingBook, "missing 'book"),
        ("genfens 5 seed 1 book", RequestError::MissingValue("book".into()), "'book' needs a value"),
        ("genfens 5 seed 1 book None x 1", RequestError::UnknownOption("x".into()), "unknown option 'x'"),
        (
            "genfens 0 seed 1 book None",
            RequestError::OutOfRange { what: "N", lo: "1".into(), hi: "10000000".into(), value: "0".into() },
            "N must be from 1",
        ),
        (
            "genfens n seed 1 book None",
            RequestError::NotANumber { what: "N", value: "n".into() },
            "'n' is not a number",
        ),
        ("genfens 5 seed 1 book None plies 9-8", RequestError::EmptyPlies("9-8".into()), "is empty"),
        ("genfens 5 seed 1 book None min-margin 300", RequestError::EmptyMargins(300, 200), "no score fits"),
        (
            "genfens 5 seed 1 book None nodes 0 min-margin 50",
            RequestError::MinMarginWithoutSearch,
            "needs the checking search",
        ),
    ] {
        let e = line.parse::<Request>().expect_err(line);
        assert_eq!(e, want, "{line}");
        one_line(&e, needle);
        assert!(e.to_string().starts_with("genfens: "), "{e}");
    }
    let request: Request = format!("genfens 1 seed 1 book {missing}").parse().unwrap();
    let e = generate(&request).unwrap_err();
    assert!(matches!(e, GenfensError::Book(_)), "{e:?}");
    one_line(&e, "cannot read book");
    one_line(
        &GenfensError::NoPosition { source: "the start position".into(), min_margin: 0, margin: 5 },
        "scored beyond 5 cp",
    );
    one_line(
        &GenfensError::NoPosition { source: "the start position".into(), min_margin: 80, margin: 150 },
        "outside 80 to 150 cp",
    );
    one_line(&GenfensError::ThreadFailed, "generator thread failed");

    // fastchess move comments.
    for (text, want) in [
        ("", CommentError::Empty),
        ("hello", CommentError::NoScoreDepth),
        ("+0.35/d 0.1s", CommentError::Depth("d".into())),
        ("+0.35/12 fast", CommentError::TimeUnit("fast".into())),
        ("+0.35/12 xs", CommentError::Time("xs".into())),
        ("+M/3 1s", CommentError::Mate("+M".into())),
        ("+inf/3 1s", CommentError::Score("+inf".into())),
        ("+1001.0/3 1s", CommentError::ScoreRange("+1001.0".into())),
    ] {
        let e = parse_comment(text).expect_err(text);
        assert_eq!(e, want, "{text:?}");
        one_line(&e, "");
    }

    // The trainer.
    let e = Checkpoint::from_bytes(&[1, 2, 3]).unwrap_err();
    assert_eq!(e, CheckpointError::TooShort(3));
    one_line(&e, "checkpoint: file too short (3 bytes)");
    let e = Checkpoint::from_bytes(&b"HZNNUE\0\0".repeat(10)).unwrap_err();
    assert_eq!(e, CheckpointError::BadMagic);
    let e = Checkpoint::load(&missing).unwrap_err();
    assert!(matches!(e, LoadError::Read { .. }), "{e:?}");
    one_line(&e, "cannot read checkpoint");
    let e = LoadError::Invalid { path: "c.ckpt".into(), error: CheckpointError::Version(9) };
    one_line(&e, "format version 9");
    one_line(&e, "('c.ckpt')");
    let cases: Vec<(TrainError, &str)> = vec![
        (TrainError::HiddenMismatch { given: 64, start: 128, from: "checkpoint" }, "--hidden 64 differs"),
        (TrainError::BucketsMismatch { given: 2, start: 8, from: "starting network" }, "the starting network's bucket"),
        (TrainError::InitAndResume, "--init and --resume exclude each other"),
        (TrainError::HiddenSize(17), "hidden size 17 must be a multiple of 16"),
        (TrainError::BucketCount(0), "output bucket count 0"),
        (TrainError::NoPositions, "no training positions"),
        (TrainError::NoPositionsToFit, "to fit the scale"),
        (TrainError::Data(FileError::NotAFile("d".into())), "'d' is not a file"),
        (
            TrainError::Checkpoint(LoadError::Invalid { path: "c".into(), error: CheckpointError::BadMagic }),
            "bad magic",
        ),
        (TrainError::Write(WriteError::Rename { from: "a.tmp".into(), to: "a".into(), source: io() }), "cannot rename"),
    ];
    for (e, needle) in &cases {
        assert_eq!(e.is_write(), matches!(e, TrainError::Write(_)), "{e:?}");
        one_line(e, needle);
    }

    // Tablebase files, the tracer and the command line's positions.
    one_line(&TableError::OtherKind { found: "rtbz", extension: "rtbw" }, "a rtbz table in a .rtbw file");
    one_line(&TableError::Truncated { described: 900, len: 800 }, "describes 900 bytes, the file has 800");
    one_line(&TableError::SymbolRef { symbol: 3, refers: 9, count: 5 }, "symbol 3 refers to symbol 9 of 5");
    one_line(&TraceMismatch::Untraced { total: S(1, 2), traced: S::ZERO }, "untraced contribution");
    assert!(matches!(position(Some("8/8 w"), None), Err(PositionError::Fen(_))));
    let e = position(None, Some("e2e4 e2e4")).err().expect("e2e4 twice is refused");
    assert!(matches!(e, PositionError::Move { .. }), "{e:?}");
    one_line(&e, "(position rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq");
    let _ = std::fs::remove_dir_all(&dir);
}
