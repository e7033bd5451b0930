//! `scripts/train-generation.sh` on the real binary with tiny data: the set is exactly the
//! deduplicated whole records of each file less the held-back part, the fresh file is exactly
//! the last positions of the files named, the old network is measured before training and
//! the new one after, and bad arguments are refused before anything is written or trained.
//! Needs bash and coreutils (as CI's machine has).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_horizon");
const RECORD: usize = 32;
/// Options for a network that trains in a moment.
const TINY: [&str; 6] = ["--hidden", "16", "--epochs", "1", "--threads", "1"];

fn temp_dir(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("horizon-traingen-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&p);
    std::fs::create_dir_all(&p).unwrap();
    p
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn datagen(out: &Path, games: &str, seed: &str) {
    let o = Command::new(BIN)
        .args(["datagen", "--out", s(out), "--format", "bin", "--games", games, "--nodes", "1500"])
        .args(["--seed", seed, "--threads", "1"])
        .output()
        .unwrap();
    assert!(o.status.success(), "datagen failed: {}", String::from_utf8_lossy(&o.stderr));
}

/// Runs the script in `dir` with the environment `env`, the positional `args` and, after
/// `--`, the tiny training options.
fn run(dir: &Path, env: &[(&str, &str)], args: &[&str]) -> Output {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/train-generation.sh");
    let mut cmd = Command::new("bash");
    cmd.current_dir(dir).arg(script).arg(BIN).args(args).arg("--").args(TINY);
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("cannot run bash")
}

/// `horizon convert PARTS --out OUT --dedup`, returning OUT's bytes.
fn converted(dir: &Path, parts: &[&[u8]]) -> Vec<u8> {
    let mut names = Vec::new();
    for (i, part) in parts.iter().enumerate() {
        let p = dir.join(format!("expected-part-{i}.bin"));
        std::fs::write(&p, part).unwrap();
        names.push(p);
    }
    let out = dir.join("expected-set.bin");
    let o =
        Command::new(BIN).arg("convert").args(&names).args(["--out", s(&out), "--dedup", "--force"]).output().unwrap();
    assert!(o.status.success(), "convert failed: {}", String::from_utf8_lossy(&o.stderr));
    std::fs::read(out).unwrap()
}

#[test]
fn a_generation_is_trained_on_the_set_and_measured_on_the_held_back_games() {
    let dir = temp_dir("run");
    let (newer, older, holdout) = (dir.join("newer.bin"), dir.join("older.bin"), dir.join("holdout.bin"));
    datagen(&newer, "6", "7");
    datagen(&older, "4", "8");
    datagen(&holdout, "2", "9");
    datagen(&dir.join("holdout2.bin"), "2", "10");
    // The newer file is still being written: it ends in part of a record.
    let mut bytes = std::fs::read(&newer).unwrap();
    let whole = bytes.len() / RECORD * RECORD;
    bytes.extend_from_slice(&[1, 2, 3, 4, 5]);
    std::fs::write(&newer, &bytes).unwrap();
    let older_bytes = std::fs::read(&older).unwrap();
    let n = whole / RECORD;
    let (fresh, gap) = (60, 20);
    assert!(n > fresh + gap + 100, "only {n} positions from 6 games");

    let env = [("FRESH", "60"), ("GAP", "20"), ("FRESH_FROM", "newer.bin")];
    let o = run(&dir, &env, &["out", "first", "newer.bin", "older.bin"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = dir.join("out");
    let keep = n - fresh - gap;
    assert_eq!(
        std::fs::read(out.join("first-fresh.bin")).unwrap(),
        &bytes[(n - fresh) * RECORD..whole],
        "the fresh file is not the newer file's last {fresh} whole positions"
    );
    let expected = converted(&dir, &[&bytes[..keep * RECORD], &older_bytes]);
    assert_eq!(std::fs::read(out.join("first-set.bin")).unwrap(), expected, "the set differs from convert --dedup");
    let inputs = std::fs::read_to_string(out.join("first-inputs.txt")).unwrap();
    let older_n = older_bytes.len() / RECORD;
    let listed = format!("newer.bin\t{keep}\t{}\nolder.bin\t{older_n}\t0\nfresh\t{fresh}\n", fresh + gap);
    assert_eq!(inputs, listed);
    assert!(out.join("first.nnue").is_file(), "no network written");
    assert!(!out.join(".first-snapshot").exists(), "the snapshots were left behind");

    // The next generation against the first, on two fixed holdout files and its fresh games
    // (the same small gap: the default 300 would need more positions than six games make).
    let first = s(&out.join("first.nnue")).to_string();
    let env = [("FRESH", "60"), ("GAP", "20"), ("HOLDOUT", "holdout.bin holdout2.bin"), ("COMPARE", first.as_str())];
    let o = run(&dir, &env, &["out", "second", "newer.bin", "older.bin"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let losses = std::fs::read_to_string(out.join("second-losses.txt")).unwrap();
    let rows: Vec<Vec<&str>> = losses.lines().map(|l| l.split('\t').collect()).collect();
    // Paths as the script names them: under OUTDIR as it was given.
    let (second, fresh_file) = ("out/second.nnue", "out/second-fresh.bin");
    let order: Vec<(&str, &str)> = rows.iter().map(|r| (r[0], r[1])).collect();
    let mut expected = Vec::new();
    for net in [first.as_str(), second] {
        expected.extend([("holdout.bin", net), ("holdout2.bin", net), (fresh_file, net)]);
    }
    assert_eq!(order, expected, "{losses}");
    // The training itself reports its loss on both holdout files together.
    let log = std::fs::read_to_string(out.join("second-train.log")).unwrap();
    assert!(log.contains("positions from 2 file(s)"), "{log}");
    for r in &rows {
        let loss: f64 = r[2].parse().unwrap_or_else(|_| panic!("not a loss: {losses}"));
        assert!(loss > 0.0 && loss < 1.0, "{losses}");
    }
}

/// A datagen still writing the file: what the script counted at its start is what it takes.
/// The fresh part is larger than a pipe's buffer (64 KiB), which is where reading it through
/// `tail | head` failed: tail, with more to send than head read, died of SIGPIPE (with that
/// version this test failed in two runs of three; whether tail still has a write left when
/// head exits depends on timing).
#[test]
fn a_file_that_grows_during_the_run_is_read_as_it_was_at_the_start() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    let dir = temp_dir("grow");
    let (newer, extra) = (dir.join("newer.bin"), dir.join("extra.bin"));
    datagen(&newer, "45", "31");
    datagen(&extra, "10", "32");
    let start = std::fs::read(&newer).unwrap();
    let (fresh, gap) = (2200, 100);
    assert!(start.len() / RECORD > fresh + 2 * gap, "only {} positions", start.len() / RECORD);
    // Another process appends a hundred records a millisecond until the script is done (the
    // more it has written since the count, the surer `tail | head` was to fail).
    let done = Arc::new(AtomicBool::new(false));
    let writer = {
        let (done, newer) = (done.clone(), newer.clone());
        let records = std::fs::read(&extra).unwrap();
        std::thread::spawn(move || {
            use std::io::Write;
            let mut f = std::fs::OpenOptions::new().append(true).open(newer).unwrap();
            for burst in records.chunks(100 * RECORD).cycle() {
                if done.load(Ordering::Relaxed) {
                    break;
                }
                f.write_all(burst).unwrap();
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
        })
    };
    let (fresh_text, gap_text) = (fresh.to_string(), gap.to_string());
    let o = run(&dir, &[("FRESH", &fresh_text), ("GAP", &gap_text)], &["out", "g", "newer.bin"]);
    done.store(true, Ordering::Relaxed);
    writer.join().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let end = std::fs::read(&newer).unwrap();
    let inputs = std::fs::read_to_string(dir.join("out/g-inputs.txt")).unwrap();
    let kept: usize = inputs.lines().next().unwrap().split('\t').nth(1).unwrap().parse().unwrap();
    let counted = kept + fresh + gap;
    assert!(end.len() > counted * RECORD, "nothing was written after the count: the test tests nothing");
    assert_eq!(
        std::fs::read(dir.join("out/g-fresh.bin")).unwrap(),
        &end[(counted - fresh) * RECORD..counted * RECORD],
        "the fresh file is not the last {fresh} positions counted"
    );
    assert_eq!(std::fs::read(dir.join("out/g-set.bin")).unwrap(), converted(&dir, &[&end[..kept * RECORD]]));
}

#[test]
fn bad_arguments_are_refused_before_anything_is_written() {
    let dir = temp_dir("refuse");
    datagen(&dir.join("a.bin"), "2", "11");
    std::fs::write(dir.join("text.nnue"), "not a network\n").unwrap();
    /// The environment, the arguments and what the error line says.
    type Case<'a> = (Vec<(&'a str, &'a str)>, Vec<&'a str>, &'a str);
    let cases: Vec<Case> = vec![
        (vec![("FRESH", "100000")], vec!["out", "g", "a.bin"], "too few to hold back FRESH=100000"),
        (vec![("FRESH", "ten")], vec!["out", "g", "a.bin"], "FRESH must be a whole number"),
        (vec![("GAP", "99999999999999")], vec!["out", "g", "a.bin"], "GAP must be a whole number"),
        (vec![("FRESH", "5"), ("FRESH_FROM", "b.bin")], vec!["out", "g", "a.bin"], "FRESH_FROM names 'b.bin'"),
        (vec![("HOLDOUT", "a.bin")], vec!["out", "g", "a.bin"], "HOLDOUT 'a.bin' is one of the FILEs"),
        (vec![("HOLDOUT", "missing.bin")], vec!["out", "g", "a.bin"], "cannot read HOLDOUT 'missing.bin'"),
        (vec![("COMPARE", "text.nnue")], vec!["out", "g", "a.bin"], "COMPARE needs HOLDOUT or FRESH"),
        (vec![], vec!["out", "g", "missing.bin"], "cannot read 'missing.bin'"),
        (vec![], vec!["out", "a name", "a.bin"], "NAME may hold only"),
        (vec![], vec!["out", "g"], "usage: scripts/train-generation.sh"),
    ];
    for (env, args, message) in cases {
        let o = run(&dir, &env, &args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{env:?} {args:?}: {err}");
        assert!(err.lines().last().unwrap_or("").contains(message), "{env:?} {args:?}: {err}");
        assert!(!dir.join("out").exists(), "{env:?} {args:?} wrote its output folder");
    }
    // A network to beat that is no network stops the run before training.
    let o = run(&dir, &[("FRESH", "5"), ("GAP", "5"), ("COMPARE", "text.nnue")], &["out", "g", "a.bin"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("net-loss failed for text.nnue"), "{err}");
    assert!(!dir.join("out/g.nnue").exists() && !dir.join("out/g-set.bin").exists(), "trained anyway");
}
