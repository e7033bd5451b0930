//! The tuner: on a generated data file it lowers the loss and writes a weights file in the
//! layout the engine compiles; malformed data lines are reported with their line numbers and
//! skipped; the `horizon tune` command's output, errors and exit codes.
//!
//! (That the traced evaluation equals the engine's is tested in `tests/eval.rs`.)

use horizon::eval::evaluate_white;
use horizon::eval::layout::{self, COUNT};
use horizon::eval::scale::ScaleCase;
use horizon::tune::dataset;
use horizon::tune::{self, Config, Output};
use horizon::{Board, Color, Piece};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::path::PathBuf;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_horizon");

/// A fresh directory for one test's files.
fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("horizon-tune-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("cannot create a temp dir");
    d
}

/// A data file whose labels come from a hidden "true" evaluation the engine does not know:
/// 1.3 x Horizon's evaluation plus 80 cp per knight of difference. Positions are from seeded
/// random games; the score is the truth plus noise, the result drawn from the truth's win
/// probability (a fifth of the games drawn).
fn generated_data(lines: usize, seed: u64) -> String {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut out = String::new();
    let mut n = 0;
    while n < lines {
        let mut b = Board::startpos();
        for ply in 0..120 {
            let moves = b.legal_moves();
            if moves.is_empty() || n == lines {
                break;
            }
            b.make(moves[rng.gen_range(0..moves.len())]);
            if ply < 6 || b.in_check() {
                continue;
            }
            let knights = b.colored(Color::White, Piece::Knight).count() as f64
                - b.colored(Color::Black, Piece::Knight).count() as f64;
            let truth = 1.3 * evaluate_white(&b) as f64 + 80.0 * knights;
            let score = (truth + rng.gen_range(-30.0..30.0)).round() as i32;
            let p = 1.0 / (1.0 + (-truth / 170.0).exp());
            let result = if rng.gen_bool(0.2) {
                "0.5"
            } else if rng.gen_bool(p) {
                "1.0"
            } else {
                "0.0"
            };
            out.push_str(&format!("{} | {score} | {result}\n", b.to_fen()));
            n += 1;
        }
    }
    out
}

/// The `S(mg, eg)` pairs and the named `i32` scale constants of a written weights file.
type WeightsFile = (Vec<(i32, i32)>, Vec<(String, i32)>);

/// Every `S(mg, eg)` pair and every `i32` scale constant in a written weights file.
fn read_weights(text: &str) -> WeightsFile {
    let mut pairs = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("S(") {
        rest = &rest[i + 2..];
        let Some(end) = rest.find(')') else { break };
        if let Some((a, b)) = rest[..end].split_once(", ") {
            if let (Ok(a), Ok(b)) = (a.parse(), b.parse()) {
                pairs.push((a, b));
            }
        }
        rest = &rest[end..];
    }
    let scales = text
        .lines()
        .filter_map(|l| l.strip_prefix("pub const SCALE_"))
        .filter_map(|l| {
            let (name, v) = l.split_once(": i32 = ")?;
            Some((format!("SCALE_{name}"), v.trim_end_matches(';').parse().ok()?))
        })
        .collect();
    (pairs, scales)
}

#[test]
fn tuning_generated_data_lowers_the_loss() {
    let dir = temp_dir("lowers");
    let data = dir.join("data.txt");
    std::fs::write(&data, generated_data(6000, 11)).unwrap();
    let out = dir.join("weights.rs");
    let mut cfg = Config::new(&data);
    cfg.epochs = 6;
    cfg.batch = 512;
    cfg.lr = 2.0;
    cfg.threads = 2;
    cfg.out = out.clone();
    // The header keeps the command's file names, not the directories of this machine.
    cfg.command = "horizon tune /some/dir/data.txt --epochs 6".into();
    let mut lines = Vec::new();
    let mut line = |s: &str| lines.push(s.to_string());
    let mut progress = |_: &str| {};
    let summary = tune::run(&cfg, &mut Output { line: &mut line, progress: &mut progress }).expect("tuning failed");
    let (first, last) = (summary.train_loss[0], *summary.train_loss.last().unwrap());
    assert_eq!(summary.train_loss.len(), 7, "{lines:?}");
    assert!(last < first * 0.97, "training loss {first} -> {last}\n{}", lines.join("\n"));
    let (hf, hl) = (summary.holdout_loss[0], *summary.holdout_loss.last().unwrap());
    // 300 held-out positions: from already-tuned weights the held-out loss of so small a
    // file may drift up a little (over-fitting), but a diverging step would blow it up.
    assert!(hl < hf * 1.05, "held-out loss {hf} -> {hl}");
    assert!(summary.k > 0.001 && summary.k < 0.02, "K = {}", summary.k);
    assert!(lines.iter().any(|l| l.starts_with("K = ")), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("epoch   6/6  loss")), "{lines:?}");

    // The written file has every weight in layout order and every tuned scale factor; the
    // weights moved, and the knight got dearer relative to the other pieces.
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("Produced by: horizon tune data.txt --epochs 6\n"), "{}", &text[..300]);
    let (pairs, scales) = read_weights(&text);
    assert_eq!(pairs.len(), COUNT);
    assert_eq!(scales.len(), ScaleCase::TUNED.len());
    assert!(scales.iter().all(|(_, v)| (0..=64).contains(v)), "{scales:?}");
    let before = layout::current();
    let changed = pairs.iter().zip(&before).filter(|(p, s)| p.0 != s.mg() || p.1 != s.eg()).count();
    assert!(changed > COUNT / 4, "only {changed} weights changed");
    let knight = |p: &[(i32, i32)]| p[layout::MATERIAL + 1].1 - p[layout::MATERIAL + 2].1;
    let old: Vec<(i32, i32)> = before.iter().map(|s| (s.mg(), s.eg())).collect();
    assert!(knight(&pairs) > knight(&old), "knight - bishop {} -> {}", knight(&old), knight(&pairs));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn malformed_lines_are_reported_by_number_and_skipped() {
    let good = "8/8/4k3/8/8/3NK3/8/8 w - - 0 1 | 12 | 0.5";
    let text = [
        good,                                            // 1
        "8/8/4k3/8/8/3NK3/8/8 w - - 0 1 | 12",           // 2: two fields
        "",                                              // 3: blank, ignored
        "8/8/4k3/8/8/3NK3/8/9 w - - 0 1 | 12 | 0.5",     // 4: bad FEN
        "8/8/4k3/8/8/3NK3/8/8 w - - 0 1 | twelve | 0.5", // 5: bad score
        "8/8/4k3/8/8/3NK3/8/8 w - - 0 1 | 12 | 1-0",     // 6: bad result
        good,                                            // 7
        "8/8/4k3/8/8/3NK3/8/8 w - - 0 1 | 12 | 1.",      // 8: cut short (file being appended)
    ]
    .join("\n");
    let loaded = dataset::load(text.as_bytes(), usize::MAX, 2, &mut |_| {}).unwrap();
    assert_eq!(loaded.data.positions.len(), 2);
    assert_eq!(loaded.error_count, 5);
    let numbers: Vec<usize> = loaded.errors.iter().map(|e| e.line).collect();
    assert_eq!(numbers, [2, 4, 5, 6, 8]);
    let messages: Vec<String> = loaded.errors.iter().map(|e| e.to_string()).collect();
    assert!(messages[0].starts_with("line 2: expected '<FEN> | <score> | <result>'"), "{messages:?}");
    assert!(messages[1].starts_with("line 4: bad FEN"), "{messages:?}");
    assert_eq!(messages[2], "line 5: bad score 'twelve' (expected an integer in centipawns)");
    assert_eq!(messages[3], "line 6: bad result '1-0' (expected 1.0, 0.5 or 0.0)");
    assert_eq!(messages[4], "line 8: bad result '1.' (expected 1.0, 0.5 or 0.0)");

    // Line numbers stay right across the loader's chunks and threads.
    let mut big = String::new();
    for i in 1..=70_000 {
        big.push_str(if i % 9_999 == 0 { "garbage\n" } else { "8/8/4k3/8/8/3NK3/8/8 w - - 0 1 | 3 | 0.5\n" });
    }
    let loaded = dataset::load(big.as_bytes(), usize::MAX, 3, &mut |_| {}).unwrap();
    let numbers: Vec<usize> = loaded.errors.iter().map(|e| e.line).collect();
    assert_eq!(numbers, [9_999, 19_998, 29_997, 39_996, 49_995, 59_994, 69_993]);
    assert_eq!(loaded.data.positions.len(), 70_000 - 7);
    // --limit stops at exactly that many positions.
    let limited = dataset::load(big.as_bytes(), 25_000, 2, &mut |_| {}).unwrap();
    assert_eq!(limited.data.positions.len(), 25_000);
}

#[test]
fn tune_command_reports_and_writes() {
    let dir = temp_dir("cli");
    let data = dir.join("data.txt");
    let mut text = generated_data(400, 5);
    text.push_str("not a position\n");
    std::fs::write(&data, &text).unwrap();
    let out = dir.join("w.rs");
    let o = Command::new(BIN)
        .args(["tune", data.to_str().unwrap(), "--epochs", "2", "--batch", "64", "--out", out.to_str().unwrap()])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&o.stderr));
    assert!(stdout.contains("skipped line 401: expected '<FEN> | <score> | <result>'"), "{stdout}");
    assert!(stdout.contains("loaded 400 positions from 401 lines (1 rejected)"), "{stdout}");
    assert!(stdout.contains("K = ") && stdout.contains("epoch   2/2  loss"), "{stdout}");
    assert!(stdout.lines().last().unwrap().starts_with(&format!("wrote {}", out.display())), "{stdout}");
    let (pairs, _) = read_weights(&std::fs::read_to_string(&out).unwrap());
    assert_eq!(pairs.len(), COUNT);

    // Errors: one line on stderr, exit code 2, nothing written.
    let cases: [(&[&str], &str); 5] = [
        (&["tune"], "usage: horizon tune <data>"),
        (&["tune", "/nonexistent/data.txt"], "error: cannot read '/nonexistent/data.txt'"),
        (&["tune", data.to_str().unwrap(), "--lambda", "1.5"], "error: --lambda must be a number from 0 to 1"),
        (&["tune", data.to_str().unwrap(), "--epochs", "-3"], "error: --epochs must be a whole number"),
        (&["tune", data.to_str().unwrap(), "--bogus", "1"], "error: unknown option '--bogus'"),
    ];
    for (args, expect) in cases {
        let o = Command::new(BIN).args(args).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(expect), "{args:?}: {err}");
    }
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "x\ny | 1 | 0.5\n").unwrap();
    let o = Command::new(BIN)
        .args(["tune", bad.to_str().unwrap(), "--out", dir.join("none.rs").to_str().unwrap()])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("error: no usable positions (2 lines read, 2 rejected)"), "{err}");
    assert!(!dir.join("none.rs").exists());
    let _ = std::fs::remove_dir_all(&dir);
}
