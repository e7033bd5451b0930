//! The SPSA tunables (`src/search/tunable.rs`) on the real binary. Every build: `horizon
//! tunables` prints OpenBench's SPSA input, and the margins are not UCI options. A
//! `--features spsa` build (CI builds one): each margin is a UCI option that changes the
//! search, range-checked, and its default reproduces the normal search.

use std::io::Write;
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_horizon");

/// Feeds `input` to the UCI loop, then `isready`, and returns everything it printed up to
/// `readyok` (a `go` is answered first: `isready` waits for nothing, so the search ends on
/// its own, without a `quit` cutting it short).
fn uci(input: &str) -> String {
    use std::io::BufRead;
    let mut child =
        Command::new(BIN).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().expect("cannot start horizon");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    stdin.flush().unwrap();
    let searching = input.lines().any(|l| l.starts_with("go"));
    let ask = |stdin: &mut std::process::ChildStdin| {
        stdin.write_all(b"isready\n").and_then(|_| stdin.flush()).unwrap();
    };
    if !searching {
        ask(&mut stdin);
    }
    let mut out = String::new();
    for line in std::io::BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        out.push_str(&line);
        out.push('\n');
        if line == "readyok" {
            break;
        }
        if line.starts_with("bestmove") {
            ask(&mut stdin);
        }
    }
    let _ = stdin.write_all(b"quit\n");
    drop(stdin);
    child.wait().unwrap();
    out
}

/// The `horizon tunables` lines: (name, default, min, max).
fn tunables() -> Vec<(String, i32, i32, i32)> {
    let o = Command::new(BIN).arg("tunables").output().unwrap();
    assert!(o.status.success());
    let text = String::from_utf8(o.stdout).unwrap();
    text.lines()
        .map(|l| {
            let f: Vec<&str> = l.split(", ").collect();
            assert_eq!(f.len(), 7, "{l}");
            assert_eq!(f[1], "int", "{l}");
            let n = |i: usize| f[i].parse::<i32>().unwrap_or_else(|_| panic!("{l}: field {i}"));
            let (c_end, r_end): (f64, f64) = (f[5].parse().unwrap(), f[6].parse().unwrap());
            assert!(c_end > 0.0 && r_end > 0.0 && n(2) >= n(3) && n(2) <= n(4), "{l}");
            (f[0].to_string(), n(2), n(3), n(4))
        })
        .collect()
}

/// The `info string nodes N` count of a fixed-depth search after `setup`.
#[cfg(feature = "spsa")]
fn nodes_at_depth(setup: &str) -> u64 {
    let out = uci(&format!("{setup}position startpos moves e2e4 c7c5\ngo depth 9\n"));
    let line = out.lines().find(|l| l.starts_with("info string nodes ")).unwrap_or_else(|| panic!("{out}"));
    line.split_whitespace().nth(3).unwrap().parse().unwrap()
}

#[test]
fn tunables_print_openbench_input() {
    let t = tunables();
    assert!(t.len() >= 10, "only {} tunables", t.len());
    assert!(t.iter().any(|(n, d, ..)| n == "RFP_MARGIN" && *d > 0));
    let o = Command::new(BIN).args(["tunables", "--uci"]).output().unwrap();
    let lines = String::from_utf8(o.stdout).unwrap();
    assert_eq!(lines.lines().count(), t.len());
    assert!(lines.lines().all(|l| l.starts_with("option name ") && l.contains(" type spin default ")));
    let bad = Command::new(BIN).args(["tunables", "extra"]).output().unwrap();
    assert_eq!(bad.status.code(), Some(2));
}

#[cfg(not(feature = "spsa"))]
#[test]
fn a_normal_build_offers_no_tuning_options() {
    let out = uci("uci\nsetoption name RFP_MARGIN value 70\n");
    assert!(!out.contains("option name RFP_MARGIN"), "{out}");
    assert!(out.contains("info string error: unknown option 'RFP_MARGIN'"), "{out}");
}

#[cfg(feature = "spsa")]
#[test]
fn every_tunable_is_an_option_that_changes_the_search() {
    let out = uci("uci\n");
    let t = tunables();
    for (name, default, min, max) in &t {
        let decl = format!("option name {name} type spin default {default} min {min} max {max}");
        assert!(out.lines().any(|l| l == decl), "missing: {decl}");
    }
    // Out of range: refused with one error line, the value kept.
    let out = uci("setoption name RFP_MARGIN value 100000\n");
    assert!(out.contains("info string error: option 'RFP_MARGIN'"), "{out}");

    let base = nodes_at_depth("");
    // Setting every option to its default changes nothing.
    let defaults: String = t.iter().map(|(n, d, ..)| format!("setoption name {n} value {d}\n")).collect();
    assert_eq!(nodes_at_depth(&defaults), base);
    // Each of these changes the tree.
    for (name, value) in
        [("RFP_MARGIN", 150), ("LMR_BASE_CENTI", 150), ("FUTILITY_MARGIN", 30), ("NMP_BASE_REDUCTION", 1)]
    {
        let n = nodes_at_depth(&format!("setoption name {name} value {value}\n"));
        assert_ne!(n, base, "{name} {value} left the search unchanged");
    }
}

/// `scripts/spsa.py` on the tuning build with a stand-in fastchess (a script that reports a
/// result with one time loss, and fails on its second call): a run stopped by a failed
/// iteration goes on from its state file with the binary at another path, as a state kept in
/// the repository must on another machine; a binary whose tunables differ from the state's
/// is refused.
#[cfg(feature = "spsa")]
#[test]
fn spsa_script_resumes_with_the_binary_elsewhere() {
    use std::path::Path;
    let dir = std::env::temp_dir().join(format!("horizon-spsa-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for sub in ["a", "b"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
        std::fs::copy(BIN, dir.join(sub).join("horizon")).unwrap();
    }
    let fake = dir.join("fastchess");
    let d = dir.display();
    std::fs::write(
        &fake,
        format!(
            "#!/bin/sh\nn=$(cat {d}/count 2>/dev/null || echo 0)\nn=$((n + 1))\necho $n > {d}/count\n\
             echo \"$@\" >> {d}/args\n[ $n -eq 2 ] && exit 1\n\
             echo 'Finished game 1 (plus vs minus): 0-1 {{White loses on time (5ms overrun)}}'\n\
             echo 'Games: 4, Wins: 3, Losses: 1, Draws: 0'\n"
        ),
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let state = dir.join("run.json");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let spsa = |bin: &str| {
        Command::new("python3")
            .arg(root.join("scripts/spsa.py"))
            .arg(dir.join(bin).join("horizon"))
            .arg("--state")
            .arg(&state)
            .args(["--iterations", "3", "--pairs", "2", "--rate", "3", "--params", "RFP_MARGIN,LMP_BASE"])
            .arg("--fastchess")
            .arg(&fake)
            .output()
            .expect("python3 is needed")
    };
    let first = spsa("a");
    assert_eq!(first.status.code(), Some(2), "{first:?}");
    let saved = std::fs::read_to_string(&state).unwrap();
    assert!(saved.contains("\"iteration\": 1,"), "{saved}");
    assert!(saved.contains("\"rate\": 3.0,"), "{saved}");
    assert!(!saved.contains(&*d.to_string()), "the state names a path: {saved}");

    std::fs::remove_dir_all(dir.join("a")).unwrap();
    let second = spsa("b");
    let text = String::from_utf8_lossy(&second.stdout);
    assert!(second.status.success(), "{second:?}");
    assert!(text.contains("resuming") && text.contains("iteration 3/3"), "{text}");
    let args = std::fs::read_to_string(dir.join("args")).unwrap();
    assert_eq!(args.lines().count(), 4, "{args}");
    assert!(args.lines().skip(2).all(|l| l.contains(&format!("cmd={d}/b/horizon"))), "{args}");
    let done = std::fs::read_to_string(&state).unwrap();
    assert!(done.contains("\"iteration\": 3,"), "{done}");
    assert_eq!(done.matches("\"faults\": 1").count(), 3, "{done}");
    assert!(text.contains("(time losses, crashes or illegal moves: 1)"), "{text}");

    // The same state against a search whose RFP_MARGIN default is not the one tuned.
    let rfp = tunables().into_iter().find(|(n, ..)| n == "RFP_MARGIN").unwrap().1;
    let (was, edited) = (format!("\"default\": {rfp}"), format!("\"default\": {}", rfp + 1));
    assert!(done.contains(&was), "{done}");
    std::fs::write(&state, done.replacen(&was, &edited, 1)).unwrap();
    let refused = spsa("b");
    assert_eq!(refused.status.code(), Some(2), "{refused:?}");
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(err.contains(&format!("RFP_MARGIN default {rfp}, the state {}", rfp + 1)), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `spsa.py --show FILE | head -1`: a reader that stops early is not an error, so the script
/// ends quietly with status 0 instead of printing a BrokenPipeError traceback. The pipe's
/// read end is closed before the script starts, so its first write fails every time. Like
/// the script's other test it needs python3, so it runs with the tuning build's tests.
#[cfg(feature = "spsa")]
#[test]
fn spsa_show_into_a_closed_pipe_is_quiet() {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let o = Command::new("python3")
        .arg(root.join("scripts/spsa.py"))
        .arg("--show")
        .arg(root.join("docs/spsa/margins-1.json"))
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .expect("python3 is needed");
    assert!(o.status.success(), "{o:?}");
    assert!(o.stderr.is_empty(), "{}", String::from_utf8_lossy(&o.stderr));
}
