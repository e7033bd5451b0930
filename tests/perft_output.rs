//! Machine-readable and progress output of the real binary: `perft --json` and
//! `perft-suite --json` parse (with a small strict JSON reader below, so no JSON crate is
//! needed) and say the same as the plain output; `--progress` reports go to stderr only and
//! leave stdout byte for byte as it is without them.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_horizon");
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const C960: &str = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";

fn run(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("cannot start the horizon binary")
}

fn text(b: &[u8]) -> String {
    String::from_utf8(b.to_vec()).expect("UTF-8 output")
}

// ---- a strict little JSON reader ---------------------------------------------------------

#[derive(Debug, Clone, PartialEq)]
enum Json {
    Null,
    Bool(bool),
    /// The number's text, so that 64-bit counts compare exactly.
    Num(String),
    Str(String),
    Arr(Vec<Json>),
    Obj(BTreeMap<String, Json>),
}

impl Json {
    fn get(&self, k: &str) -> &Json {
        match self {
            Json::Obj(m) => m.get(k).unwrap_or_else(|| panic!("no key {k:?} in {self:?}")),
            _ => panic!("not an object: {self:?}"),
        }
    }
    fn u64(&self) -> u64 {
        match self {
            Json::Num(s) => s.parse().unwrap_or_else(|_| panic!("not an unsigned integer: {s}")),
            _ => panic!("not a number: {self:?}"),
        }
    }
    fn str(&self) -> &str {
        match self {
            Json::Str(s) => s,
            _ => panic!("not a string: {self:?}"),
        }
    }
    fn arr(&self) -> &[Json] {
        match self {
            Json::Arr(v) => v,
            _ => panic!("not an array: {self:?}"),
        }
    }
}

struct Reader<'a> {
    s: &'a [u8],
    i: usize,
}

impl Reader<'_> {
    fn ws(&mut self) {
        while self.i < self.s.len() && b" \t\r\n".contains(&self.s[self.i]) {
            self.i += 1;
        }
    }
    fn eat(&mut self, c: u8) -> Result<(), String> {
        self.ws();
        if self.s.get(self.i) == Some(&c) {
            self.i += 1;
            Ok(())
        } else {
            Err(format!("expected '{}' at {}", c as char, self.i))
        }
    }
    fn value(&mut self) -> Result<Json, String> {
        self.ws();
        match self.s.get(self.i).copied() {
            Some(b'{') => {
                self.i += 1;
                let mut m = BTreeMap::new();
                self.ws();
                if self.s.get(self.i) == Some(&b'}') {
                    self.i += 1;
                    return Ok(Json::Obj(m));
                }
                loop {
                    self.ws();
                    let Json::Str(k) = self.value()? else { return Err(format!("key expected at {}", self.i)) };
                    self.eat(b':')?;
                    let v = self.value()?;
                    if m.insert(k.clone(), v).is_some() {
                        return Err(format!("duplicate key {k}"));
                    }
                    self.ws();
                    match self.s.get(self.i) {
                        Some(b',') => self.i += 1,
                        Some(b'}') => {
                            self.i += 1;
                            return Ok(Json::Obj(m));
                        }
                        _ => return Err(format!("',' or '}}' expected at {}", self.i)),
                    }
                }
            }
            Some(b'[') => {
                self.i += 1;
                let mut v = Vec::new();
                self.ws();
                if self.s.get(self.i) == Some(&b']') {
                    self.i += 1;
                    return Ok(Json::Arr(v));
                }
                loop {
                    v.push(self.value()?);
                    self.ws();
                    match self.s.get(self.i) {
                        Some(b',') => self.i += 1,
                        Some(b']') => {
                            self.i += 1;
                            return Ok(Json::Arr(v));
                        }
                        _ => return Err(format!("',' or ']' expected at {}", self.i)),
                    }
                }
            }
            Some(b'"') => {
                self.i += 1;
                let mut out = String::new();
                loop {
                    let c = *self.s.get(self.i).ok_or("unterminated string")?;
                    self.i += 1;
                    match c {
                        b'"' => return Ok(Json::Str(out)),
                        b'\\' => {
                            let e = *self.s.get(self.i).ok_or("bad escape")?;
                            self.i += 1;
                            match e {
                                b'"' | b'\\' | b'/' => out.push(e as char),
                                b'n' => out.push('\n'),
                                b't' => out.push('\t'),
                                b'r' => out.push('\r'),
                                b'u' => {
                                    let hex =
                                        std::str::from_utf8(&self.s[self.i..self.i + 4]).map_err(|e| e.to_string())?;
                                    out.push(
                                        char::from_u32(u32::from_str_radix(hex, 16).map_err(|e| e.to_string())?)
                                            .ok_or("bad \\u")?,
                                    );
                                    self.i += 4;
                                }
                                _ => return Err(format!("bad escape \\{}", e as char)),
                            }
                        }
                        c if c < 0x20 => return Err("raw control character in a string".into()),
                        _ => {
                            // Copy one UTF-8 character.
                            let start = self.i - 1;
                            while self.i < self.s.len() && (self.s[self.i] & 0xC0) == 0x80 {
                                self.i += 1;
                            }
                            out.push_str(std::str::from_utf8(&self.s[start..self.i]).map_err(|e| e.to_string())?);
                        }
                    }
                }
            }
            Some(b't') if self.s[self.i..].starts_with(b"true") => {
                self.i += 4;
                Ok(Json::Bool(true))
            }
            Some(b'f') if self.s[self.i..].starts_with(b"false") => {
                self.i += 5;
                Ok(Json::Bool(false))
            }
            Some(b'n') if self.s[self.i..].starts_with(b"null") => {
                self.i += 4;
                Ok(Json::Null)
            }
            Some(c) if c == b'-' || c.is_ascii_digit() => {
                let start = self.i;
                while self.i < self.s.len() && (self.s[self.i].is_ascii_digit() || b"+-.eE".contains(&self.s[self.i])) {
                    self.i += 1;
                }
                let t = std::str::from_utf8(&self.s[start..self.i]).unwrap().to_string();
                t.parse::<f64>().map_err(|_| format!("bad number {t}"))?;
                Ok(Json::Num(t))
            }
            _ => Err(format!("unexpected input at {}", self.i)),
        }
    }
}

/// Parses a whole document (nothing but whitespace may follow).
fn parse(s: &str) -> Json {
    let mut r = Reader { s: s.as_bytes(), i: 0 };
    let v = r.value().unwrap_or_else(|e| panic!("invalid JSON ({e}): {s}"));
    r.ws();
    assert_eq!(r.i, s.len(), "trailing text after the JSON value: {s}");
    v
}

#[test]
fn the_json_reader_rejects_what_it_should() {
    assert_eq!(parse(r#" {"a": [1, "x\"y", true, null]} "#).get("a").arr().len(), 4);
    for bad in [r#"{"a": 1,}"#, r#"{"a" 1}"#, "[1 2]", r#""x"#, r#"{"a":1}{"#, "01x", r#"{"a":1,"a":2}"#] {
        let mut r = Reader { s: bad.as_bytes(), i: 0 };
        let ok = r.value().is_ok() && {
            r.ws();
            r.i == bad.len()
        };
        assert!(!ok, "accepted {bad:?}");
    }
}

// ---- perft --json ------------------------------------------------------------------------

/// The plain output as (move, count) lines and total.
fn plain(out: &str) -> (Vec<(String, u64)>, u64) {
    let lines: Vec<&str> = out.lines().collect();
    let total = lines.last().unwrap().parse().unwrap();
    let moves = lines[..lines.len() - 2]
        .iter()
        .map(|l| {
            let (m, n) = l.split_once(' ').unwrap();
            (m.to_string(), n.parse().unwrap())
        })
        .collect();
    (moves, total)
}

#[test]
fn perft_json_matches_the_plain_output() {
    for (fen, moves, depth, extra) in [
        (KIWIPETE, "", "3", vec![]),
        (KIWIPETE, "e1g1", "2", vec!["--threads", "2", "--hash", "8"]),
        (C960, "", "3", vec![]),
        ("", "", "0", vec![]),
    ] {
        let mut args = vec!["perft", depth, fen, moves];
        args.extend(extra.iter().copied());
        let p = run(&args);
        assert_eq!(p.status.code(), Some(0));
        let (pm, pt) = plain(&text(&p.stdout));
        args.push("--json");
        let j = run(&args);
        assert_eq!(j.status.code(), Some(0));
        let out = text(&j.stdout);
        assert_eq!(out.lines().count(), 1, "one line of JSON: {out}");
        let v = parse(&out);
        assert_eq!(v.get("nodes").u64(), pt);
        assert_eq!(v.get("depth").u64(), depth.parse::<u64>().unwrap());
        let jm: Vec<(String, u64)> =
            v.get("divide").arr().iter().map(|e| (e.get("move").str().to_string(), e.get("nodes").u64())).collect();
        assert_eq!(jm, pm, "{fen} {moves}");
        let mut b = horizon::Board::from_fen(if fen.is_empty() { horizon::board::START_FEN } else { fen }).unwrap();
        for m in moves.split_whitespace() {
            b.make(b.parse_uci_move(m).unwrap());
        }
        assert_eq!(v.get("fen").str(), b.to_fen());
        assert!(matches!(v.get("seconds"), Json::Num(_)) && matches!(v.get("nps"), Json::Num(_)));
        // Timing stays on stderr as before.
        assert!(text(&j.stderr).contains("nodes/s"));
    }
}

// ---- perft-suite --json ------------------------------------------------------------------

#[test]
fn perft_suite_json_matches_the_plain_output() {
    let path = std::env::temp_dir().join(format!("horizon-suite-{}.epd", std::process::id()));
    let suite = format!(
        "# comment\n{KIWIPETE} ;D1 48 ;D2 2039\n\n8/8/8/8/8/8/8/8 w - - 0 1 ;D1 1\n{C960} ;D1 21 ;D2 528 ;D3 12190\nthis is ;not a suite line\n\
         rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D3 8902 ;D4 197281\n"
    );
    std::fs::write(&path, suite).unwrap();
    let file = path.to_str().unwrap();
    let p = run(&["perft-suite", file]);
    let j = run(&["perft-suite", file, "--json"]);
    std::fs::remove_file(&path).ok();
    assert_eq!(p.status.code(), Some(1));
    assert_eq!(j.status.code(), Some(1));
    let plain_out = text(&p.stdout);
    let last = plain_out.lines().last().unwrap();
    let v = parse(&text(&j.stdout));
    assert_eq!(last, format!("{} passed, {} failed", v.get("passed").u64(), v.get("failed").u64()));
    assert_eq!(last, "6 passed, 3 failed");
    assert_eq!(v.get("file").str(), file);
    let checks = v.get("checks").arr();
    assert_eq!(checks.len(), 7);
    // Each failed check is a FAIL line of the plain output, and the other way round.
    let fails: Vec<String> = checks
        .iter()
        .filter(|c| c.get("ok") == &Json::Bool(false))
        .map(|c| {
            format!(
                "FAIL {} depth {}: expected {}, got {}",
                c.get("fen").str(),
                c.get("depth").u64(),
                c.get("expected").u64(),
                c.get("nodes").u64()
            )
        })
        .collect();
    let plain_fails: Vec<&str> = plain_out.lines().filter(|l| l.starts_with("FAIL")).collect();
    assert_eq!(fails, plain_fails);
    assert_eq!(plain_fails, [format!("FAIL {C960} depth 3: expected 12190, got 12189")]);
    for c in checks {
        assert_eq!(c.get("ok") == &Json::Bool(true), c.get("expected").u64() == c.get("nodes").u64());
    }
    // Unreadable lines and bad FENs: the same line numbers and messages.
    let errors: Vec<String> = v
        .get("errors")
        .arr()
        .iter()
        .map(|e| format!("line {}: {}", e.get("line").u64(), e.get("error").str()))
        .collect();
    let plain_errors: Vec<&str> = plain_out.lines().filter(|l| l.starts_with("line ")).collect();
    assert_eq!(errors, plain_errors);
    assert_eq!(errors.len(), 2);
    assert_eq!(v.get("nodes").u64(), checks.iter().map(|c| c.get("nodes").u64()).sum::<u64>());
}

// ---- progress ----------------------------------------------------------------------------

#[test]
fn progress_goes_to_stderr_only() {
    // perft: the same stdout with and without reports, and with --json.
    let plain = run(&["perft", "5", KIWIPETE, "", "--threads", "2"]);
    let shown = run(&["perft", "5", KIWIPETE, "", "--threads", "2", "--progress"]);
    assert_eq!(shown.stdout, plain.stdout);
    let err = text(&shown.stderr);
    assert!(err.contains("perft 5: 48/48 root moves, 193.69 M nodes"), "{err}");
    assert!(err.contains("nodes/s, ETA"), "{err}");
    // Not a terminal and not asked for: stderr is exactly the timing line, as before.
    let err = text(&plain.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("time "), "{err}");
    let j = run(&["perft", "3", "", "", "--json", "--progress"]);
    parse(&text(&j.stdout));

    // perft-suite.
    let suite = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("perft-data").join("perft_cpw6.epd");
    let suite = suite.to_str().unwrap();
    let plain = run(&["perft-suite", suite, "--max-nodes", "100000"]);
    let shown = run(&["perft-suite", suite, "--max-nodes", "100000", "--progress"]);
    assert_eq!(shown.stdout, plain.stdout);
    assert!(text(&shown.stderr).contains("perft-suite: 7/7 positions, 0 failed"), "{}", text(&shown.stderr));
    assert!(!text(&plain.stderr).contains("positions"));

    // epd (a fixed depth, so both runs search the same).
    let epd = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests").join("data").join("horizon.epd");
    let epd = epd.to_str().unwrap();
    let plain = run(&["epd", epd, "--depth", "3"]);
    let shown = run(&["epd", epd, "--depth", "3", "--progress"]);
    assert_eq!(shown.stdout, plain.stdout);
    let last = text(&plain.stdout).lines().last().unwrap().to_string();
    let (solved, of) = last.split_once(" solved of ").unwrap();
    let err = text(&shown.stderr);
    assert!(err.contains(&format!("epd: {solved} solved / {of} tried of {of}")), "{err} vs {last}");
    assert!(!text(&plain.stderr).contains("tried"));
}
