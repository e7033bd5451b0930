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
    ];
    for (line, note) in cases {
        match line.parse::<Command>() {
            Ok(Command::Go(g)) => assert!(g.notes.iter().any(|n| n == note), "{line}: {:?}", g.notes),
            other => panic!("{line}: {other:?}"),
        }
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
        ("Hash", Some("-1"), OptionError::NotANumber("Hash".into(), "-1".into()), "is not a number"),
        (
            "MultiPV",
            Some("1000"),
            OptionError::OutOfRange { name: "MultiPV".into(), value: 1000, min: 1, max: 256 },
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
