//! The search-related subcommands of the binary: `bench`, `see`, `epd`, and their
//! argument errors (exit status 2).

use std::process::{Command, Output};

fn horizon(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_horizon")).args(args).output().expect("cannot run horizon")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn last_line(o: &Output) -> String {
    stdout(o).lines().last().unwrap_or_default().to_string()
}

/// `<nodes> nodes <nps> nps` → nodes.
fn bench_nodes(line: &str) -> u64 {
    let t: Vec<&str> = line.split(' ').collect();
    assert_eq!(t.len(), 4, "bench line: {line:?}");
    assert_eq!((t[1], t[3]), ("nodes", "nps"), "bench line: {line:?}");
    assert!(t[0].chars().all(|c| c.is_ascii_digit()) && !t[0].is_empty(), "bench line: {line:?}");
    assert!(t[2].chars().all(|c| c.is_ascii_digit()) && !t[2].is_empty(), "bench line: {line:?}");
    t[0].parse().unwrap()
}

#[test]
fn bench_last_line_and_determinism() {
    let a = horizon(&["bench", "4"]);
    assert!(a.status.success(), "bench failed: {}", String::from_utf8_lossy(&a.stderr));
    let b = horizon(&["bench", "4"]);
    assert!(b.status.success());
    let (na, nb) = (bench_nodes(&last_line(&a)), bench_nodes(&last_line(&b)));
    assert!(na > 1000);
    assert_eq!(na, nb, "bench 4 is not deterministic");
    // The library bench gives the same count as the command, with either evaluation, and
    // `bench` alone uses the engine's default evaluation.
    let classical = bench_nodes(&last_line(&horizon(&["bench", "4", "--eval", "classical"])));
    let nnue = bench_nodes(&last_line(&horizon(&["bench", "4", "--eval", "nnue"])));
    assert_ne!(classical, nnue, "the two evaluations searched the same tree");
    assert_eq!(horizon::bench::run(4, |_, _, _| {}).stats.nodes, classical);
    let net = horizon::eval::nnue::default_network();
    assert_eq!(horizon::bench::run_nnue(4, net, |_, _, _| {}).stats.nodes, nnue);
    assert_eq!(na, if horizon::eval::USE_NNUE_BY_DEFAULT { nnue } else { classical });
    // A deeper bench searches more.
    let c = horizon(&["bench", "5"]);
    assert!(bench_nodes(&last_line(&c)) > na);
}

#[test]
fn see_command_prints_the_value_last() {
    let cases = [
        ("6k1/1pp4p/p1pb4/6q1/3P1pRr/2P4P/PP1Br1P1/5RKN w - -", "f1f4", "-100"),
        ("2r1r1k1/pp1bppbp/3p1np1/q3P3/2P2P2/1P2B3/P1N1B1PP/2RQ1RK1 b - -", "d6e5", "100"),
        ("7R/5P2/8/8/6r1/3K4/5p2/4k3 w - -", "f7f8q", "800"),
        ("6rr/6pk/p1Qp1b1p/2n5/1B3p2/5p2/P1P2P2/4RK1R w - -", "e1e8", "-500"),
        // SAN is accepted as well.
        ("6rr/6pk/p1Qp1b1p/2n5/1B3p2/5p2/P1P2P2/4RK1R w - -", "Re8", "-500"),
        ("r1bqk1nr/pppp1ppp/2n5/1B2p3/1b2P3/5N2/PPPP1PPP/RNBQK2R w KQkq -", "e1g1", "0"),
    ];
    for (fen, mv, want) in cases {
        let o = horizon(&["see", fen, mv]);
        assert!(o.status.success(), "see {fen} {mv}: {}", String::from_utf8_lossy(&o.stderr));
        assert_eq!(last_line(&o), want, "see {fen} {mv}");
    }
}

#[test]
fn epd_command_counts_solved() {
    let dir = std::env::temp_dir().join(format!("horizon-epd-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("small.epd");
    // Two easy tactics (a hanging knight, a back-rank mate) and one the engine cannot
    // "solve" because its bm is a deliberately bad move (Kh1 instead of the mate).
    std::fs::write(
        &path,
        "6k1/5ppp/8/8/2n5/8/8/2R3K1 w - - bm Rxc4; id \"hang\";\n\
         6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Ra8#; id \"backrank\";\n\
         \n\
         4k3/8/2p5/3p4/8/8/8/3RK3 w - - am Rxd5; id \"poison\";\n\
         6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Kh1; id \"wrong\";\n",
    )
    .unwrap();
    let p = path.to_str().unwrap();
    let o = horizon(&["epd", p, "--depth", "3"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(last_line(&o), "3 solved of 4", "{}", stdout(&o));
    assert!(stdout(&o).contains("miss wrong"), "{}", stdout(&o));
    // With --times each solved position gets a line (its answer, depth and time), misses get
    // none, and a summary comes just before the count.
    let o = horizon(&["epd", p, "--depth", "3", "--times"]);
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 6, "{out}");
    assert!(lines[0].starts_with("solved hang: Rxc4 at depth "), "{out}");
    assert!(lines[1].starts_with("solved backrank: Ra8# at depth "), "{out}");
    assert!(lines[2].starts_with("solved poison: "), "{out}");
    assert!(lines[3].starts_with("miss wrong: played Ra8#"), "{out}");
    assert!(lines[4].starts_with("solve time: ") && lines[4].ends_with(" s a solved position"), "{out}");
    assert_eq!(lines[5], "3 solved of 4");
    for l in &lines[..3] {
        let secs = l.rsplit(", ").next().unwrap().strip_suffix(" s").unwrap();
        assert!(secs.parse::<f64>().is_ok(), "{l}");
    }
    // The shared horizon suite at depth 3.
    let suite = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/horizon.epd");
    let o = horizon(&["epd", suite, "--depth", "3"]);
    assert_eq!(last_line(&o), "4 solved of 4", "{}", stdout(&o));
    // Format of the last line in general.
    let line = last_line(&o);
    let t: Vec<&str> = line.split(' ').collect();
    assert!(
        t.len() == 4 && t[1] == "solved" && t[2] == "of" && t[0].parse::<u32>().is_ok() && t[3].parse::<u32>().is_ok()
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_arguments_exit_with_status_2() {
    let missing = std::env::temp_dir().join("horizon-no-such-file.epd");
    let missing = missing.to_str().unwrap();
    let cases: Vec<Vec<&str>> = vec![
        vec!["bench", "abc"],
        vec!["bench", "0"],
        vec!["bench", "-3"],
        vec!["bench", "65"],
        vec!["bench", "4", "--eval", "quantum"],
        vec!["bench", "4", "--eval"],
        vec!["bench", "4", "--eval", "classical", "--evalfile", "net.nnue"],
        vec!["bench", "4", "--evalfile", missing],
        vec!["epd", "a.epd", "--eval", "quantum"],
        vec!["epd", "a.epd", "--evalfile", missing],
        vec!["see"],
        vec!["see", "8/8/8/8/8/8/8/8 w - - 0 1", "e2e4"],
        vec!["see", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "e2e5"],
        vec!["see", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"],
        vec!["see", "not a fen", "e2e4"],
        vec!["see", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "e2e4", "extra"],
        vec!["epd"],
        vec!["epd", missing],
        vec!["epd", missing, "--depth"],
        vec!["epd", "a.epd", "--depth", "x"],
        vec!["epd", "a.epd", "--movetime", "-1"],
        vec!["epd", "a.epd", "--frobnicate"],
        vec!["epd", "a.epd", "b.epd"],
        vec!["no-such-command"],
    ];
    for args in cases {
        let o = horizon(&args);
        assert_eq!(o.status.code(), Some(2), "horizon {args:?}: {}", String::from_utf8_lossy(&o.stderr));
        assert!(!o.stderr.is_empty(), "horizon {args:?}: no message on stderr");
    }
}
