//! `scripts/export-selfplay.sh` on the real binary: binary self-play packed as xz text files of a
//! bounded size comes back byte for byte, a trailing partial record (a datagen still writing) is
//! left out, and bad arguments are refused. Needs bash, xz and coreutils (as CI's machine has).

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_horizon");
const RECORD: usize = 32;

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/export-selfplay.sh")
}

fn temp_dir(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("horizon-export-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&p);
    std::fs::create_dir_all(&p).unwrap();
    p
}

fn export(out: &Path, files: &[&Path], lines: &str) -> Output {
    let mut cmd = Command::new("bash");
    cmd.arg(script()).arg(BIN).arg(out).args(files).env("LINES", lines).env("XZ_LEVEL", "1");
    cmd.output().expect("cannot run bash")
}

/// `xz -dc FILES | horizon convert - --out OUT --no-dedup`, returning OUT's bytes.
fn import(parts: &[PathBuf], out: &Path) -> Vec<u8> {
    let mut xz = Command::new("xz").arg("-dc").args(parts).stdout(Stdio::piped()).spawn().expect("cannot run xz");
    let o = Command::new(BIN)
        .args(["convert", "-", "--out", out.to_str().unwrap(), "--no-dedup"])
        .stdin(xz.stdout.take().unwrap())
        .output()
        .unwrap();
    assert!(xz.wait().unwrap().success(), "xz -dc failed");
    assert!(o.status.success(), "convert failed: {}", String::from_utf8_lossy(&o.stderr));
    std::fs::read(out).unwrap()
}

/// Exports `data` in files of `lines` positions and checks the listing and that importing the
/// files in the listed order gives back `whole` (the file's whole records).
fn round_trip(dir: &Path, data: &Path, whole: &[u8], lines: usize) {
    let records = whole.len() / RECORD;
    let out = dir.join(format!("out-{lines}"));
    let o = export(&out, &[data], &lines.to_string());
    assert!(o.status.success(), "export failed: {}", String::from_utf8_lossy(&o.stderr));
    let counts = std::fs::read_to_string(out.join("COUNTS.txt")).unwrap();
    let listed: Vec<(String, usize)> = counts
        .lines()
        .map(|l| {
            let (name, n) = l.split_once('\t').expect("COUNTS.txt line without a tab");
            (name.to_string(), n.parse().expect("count is not a number"))
        })
        .collect();
    let files = records.div_ceil(lines);
    assert_eq!(listed.len(), files, "files: {counts}");
    assert!(listed.iter().all(|(_, n)| *n <= lines), "a file over {lines} positions: {counts}");
    assert_eq!(listed.iter().map(|(_, n)| n).sum::<usize>(), records, "{counts}");
    let width = (files - 1).to_string().len();
    let names: Vec<String> = (0..files).map(|i| format!("games-{i:0width$}.txt.xz")).collect();
    assert_eq!(listed.iter().map(|(name, _)| name.clone()).collect::<Vec<_>>(), names, "{counts}");
    let parts: Vec<PathBuf> = listed.iter().map(|(name, _)| out.join(name)).collect();
    assert_eq!(import(&parts, &dir.join(format!("back-{lines}.bin"))), whole, "the round trip changed the data");
}

#[test]
fn packed_self_play_comes_back_byte_for_byte() {
    let dir = temp_dir("roundtrip");
    let data = dir.join("games.bin");
    let o = Command::new(BIN)
        .args(["datagen", "--out", data.to_str().unwrap(), "--format", "bin"])
        .args(["--games", "4", "--nodes", "1500", "--seed", "7", "--threads", "1"])
        .output()
        .unwrap();
    assert!(o.status.success(), "datagen failed: {}", String::from_utf8_lossy(&o.stderr));
    let mut bytes = std::fs::read(&data).unwrap();
    let records = bytes.len() / RECORD;
    assert!(records >= 40, "only {records} positions from 4 games");
    // A datagen still writing leaves part of a record at the end.
    let whole = bytes.clone();
    bytes.extend_from_slice(&[1, 2, 3, 4, 5, 6, 7]);
    std::fs::write(&data, &bytes).unwrap();

    // Three files (one-digit names), then more than ten (names padded to equal width).
    for lines in [records.div_ceil(3), 3] {
        round_trip(&dir, &data, &whole, lines);
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn bad_arguments_are_refused() {
    let dir = temp_dir("bad");
    let missing = dir.join("missing.bin");
    for (files, lines, says) in [
        (vec![missing.as_path()], "10", "cannot read"),
        (vec![missing.as_path()], "ten", "LINES must be a positive whole number"),
        (vec![], "10", "usage"),
    ] {
        let o = export(&dir.join("out"), &files, lines);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{files:?} {lines}: {err}");
        assert!(err.to_lowercase().contains(&says.to_lowercase()), "{files:?} {lines}: expected '{says}' in: {err}");
    }
    let _ = std::fs::remove_dir_all(dir);
}
