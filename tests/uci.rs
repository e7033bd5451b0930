//! End-to-end tests of the UCI protocol on the real binary. Every read has a timeout
//! (a reader thread feeds a channel), so a hung engine fails the test instead of hanging it.

use horizon::board::Board;
use horizon::eval::nnue::HIDDEN;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::cell::Cell;
use std::io::Write;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const T: Duration = Duration::from_secs(10);

thread_local! {
    /// `Threads` for engines this test thread starts: every end-to-end test runs twice,
    /// with one search thread and with two (see `end_to_end!` at the end).
    static THREADS: Cell<usize> = const { Cell::new(1) };
}

struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<String>,
    /// Everything read so far, for failure messages.
    log: Vec<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_horizon"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("cannot start the engine");
        let stdout = child.stdout.take().unwrap();
        let stdin = child.stdin.take();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            use std::io::BufRead;
            let mut r = std::io::BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match r.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).trim_end_matches(['\n', '\r']).to_string();
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let mut e = Engine { child, stdin, rx, log: Vec::new() };
        let threads = THREADS.with(|t| t.get());
        if threads > 1 {
            e.send(&format!("setoption name Threads value {threads}"));
        }
        e
    }

    fn send(&mut self, line: &str) {
        self.send_bytes(line.as_bytes());
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin closed");
        stdin
            .write_all(bytes)
            .and_then(|_| stdin.write_all(b"\n"))
            .and_then(|_| stdin.flush())
            .unwrap_or_else(|e| panic!("engine stopped reading ({e}); output so far:\n{}", self.tail()));
    }

    fn tail(&self) -> String {
        let n = self.log.len();
        self.log[n.saturating_sub(30)..].join("\n")
    }

    /// The next line, or None after `timeout`.
    fn recv(&mut self, timeout: Duration) -> Option<String> {
        match self.rx.recv_timeout(timeout) {
            Ok(l) => {
                self.log.push(l.clone());
                Some(l)
            }
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Lines up to and including the first one for which `done` holds; panics after `timeout`.
    fn until(&mut self, timeout: Duration, what: &str, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.recv(left) {
                Some(l) => {
                    let stop = done(&l);
                    lines.push(l);
                    if stop {
                        return lines;
                    }
                }
                None => panic!("no {what} within {timeout:?}; last output:\n{}", self.tail()),
            }
        }
    }

    /// Like `sync`, but safe when earlier input may itself contain `isready`: an unknown
    /// command with a unique name goes first, and the `readyok` after its error counts.
    fn sync_marked(&mut self, n: usize) -> Vec<String> {
        let marker = format!("sync-marker-{n}");
        self.send(&marker);
        self.send("isready");
        let mut lines = self.until(Duration::from_secs(30), "marker echo", |l| l.contains(&marker));
        lines.extend(self.until(T, "readyok", |l| l == "readyok"));
        lines
    }

    /// `isready` → lines up to `readyok`.
    fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        self.until(T, "readyok", |l| l == "readyok")
    }

    fn bestmove(&mut self, timeout: Duration) -> (Vec<String>, String) {
        let lines = self.until(timeout, "bestmove", |l| l.starts_with("bestmove"));
        let last = lines.last().unwrap().clone();
        (lines, last)
    }

    /// The FEN the engine holds, from the `d` command.
    fn fen(&mut self) -> String {
        self.send("d");
        let lines = self.until(T, "Fen: line", |l| l.starts_with("Fen: "));
        lines.last().unwrap()["Fen: ".len()..].to_string()
    }

    /// No line arrives for `d`.
    fn silent_for(&mut self, d: Duration) -> Vec<String> {
        let deadline = Instant::now() + d;
        let mut got = Vec::new();
        while let Some(l) = self.recv(deadline.saturating_duration_since(Instant::now())) {
            got.push(l);
            if Instant::now() >= deadline {
                break;
            }
        }
        got
    }

    fn wait_exit(&mut self, timeout: Duration) -> ExitStatus {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(s) = self.child.try_wait().unwrap() {
                return s;
            }
            if Instant::now() >= deadline {
                panic!("engine did not exit within {timeout:?}; last output:\n{}", self.tail());
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    fn close_stdin(&mut self) {
        self.stdin = None;
    }

    fn alive(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if self.child.try_wait().ok().flatten().is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The move of a `bestmove` line (and its ponder move), checked legal in `fen` (+ moves).
fn legal_bestmove(line: &str, fen: &str, moves: &[&str]) -> String {
    let t: Vec<&str> = line.split_whitespace().collect();
    assert!(t.len() == 2 || (t.len() == 4 && t[2] == "ponder"), "malformed: {line}");
    assert_eq!(t[0], "bestmove");
    let mut b = Board::from_fen(fen).unwrap();
    for m in moves {
        let mv = b.parse_uci_move(m).unwrap();
        b.make(mv);
    }
    let m = b.parse_uci_move(t[1]).unwrap_or_else(|e| panic!("illegal bestmove in {}: {line}: {e}", b.to_fen()));
    if t.len() == 4 {
        b.make(m);
        assert!(b.parse_uci_move(t[3]).is_ok(), "illegal ponder move: {line}");
    }
    t[1].to_string()
}

fn count_bestmoves(lines: &[String]) -> usize {
    lines.iter().filter(|l| l.starts_with("bestmove")).count()
}

fn handshake() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until(T, "uciok", |l| l == "uciok");
    assert!(lines[0].starts_with("id name Horizon "), "first line: {}", lines[0]);
    // `id name Horizon <version> <commit>`: the commit is 7 hex digits or `unknown`, the
    // hash followed by `-dirty` when the build's sources differ from it.
    let field = lines[0].split_whitespace().nth(4).unwrap_or("");
    let commit = field.strip_suffix("-dirty").unwrap_or(field);
    assert!(
        commit == "unknown" || (commit.len() == 7 && commit.chars().all(|c| c.is_ascii_hexdigit())),
        "{}",
        lines[0]
    );
    assert!(lines.iter().any(|l| l.starts_with("id author ")));
    for name in ["Hash", "Threads", "MultiPV", "Move Overhead", "Clear Hash", "Ponder", "UCI_Chess960"] {
        let prefix = format!("option name {name} type ");
        assert!(lines.iter().any(|l| l.starts_with(&prefix)), "option {name} missing:\n{}", lines.join("\n"));
    }
    assert!(lines.iter().any(|l| l.starts_with("option name Hash type spin default") && l.contains(" min 1 max ")));
    assert!(lines.iter().any(|l| l == "option name Clear Hash type button"));
    assert!(lines.iter().any(|l| l.starts_with("option name Ponder type check default false")));
    assert_eq!(lines.last().unwrap(), "uciok");
    let r = e.sync();
    assert_eq!(r, vec!["readyok".to_string()]);
    e.send("quit");
    assert!(e.wait_exit(T).success());
}

fn go_depth_reports_and_one_bestmove() {
    let mut e = Engine::start();
    e.send("uci");
    e.until(T, "uciok", |l| l == "uciok");
    e.send("ucinewgame");
    e.send("position startpos moves e2e4 e7e5");
    e.send("go depth 5");
    let (lines, best) = e.bestmove(Duration::from_secs(30));
    let infos: Vec<&String> = lines.iter().filter(|l| l.starts_with("info depth")).collect();
    assert!(infos.len() >= 5, "expected an info line per depth:\n{}", lines.join("\n"));
    for (i, d) in (1..=5).enumerate() {
        assert!(infos.iter().any(|l| l.starts_with(&format!("info depth {d} "))), "no info for depth {d}");
        let _ = i;
    }
    for l in &infos {
        let t: Vec<&str> = l.split_whitespace().collect();
        for key in ["depth", "score", "nodes", "nps", "pv"] {
            assert!(t.contains(&key), "'{key}' missing in: {l}");
        }
        let s = t.iter().position(|&x| x == "score").unwrap();
        assert!(t[s + 1] == "cp" || t[s + 1] == "mate", "bad score in: {l}");
        assert!(t[s + 2].parse::<i32>().is_ok(), "bad score value in: {l}");
        let n = t.iter().position(|&x| x == "nodes").unwrap();
        assert!(t[n + 1].parse::<u64>().is_ok());
        // Every PV move is legal in sequence.
        let pv = t.iter().position(|&x| x == "pv").unwrap();
        let mut b = Board::startpos();
        for m in ["e2e4", "e7e5"].iter().chain(t[pv + 1..].iter()) {
            let mv = b.parse_uci_move(m).unwrap_or_else(|e| panic!("illegal pv move {m} in: {l}: {e}"));
            b.make(mv);
        }
    }
    legal_bestmove(&best, START_FEN, &["e2e4", "e7e5"]);
    // Exactly one bestmove: nothing more arrives before readyok.
    let after = e.sync();
    assert_eq!(count_bestmoves(&after), 0, "second bestmove: {after:?}");
    assert_eq!(count_bestmoves(&lines), 1);
}

fn infinite_answers_isready_and_stops_once() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    // Event order, not latency: each readyok arrives while the infinite search is still
    // running (no bestmove before it), so the input thread is not blocked by the search.
    for _ in 0..5 {
        let lines = e.sync();
        assert_eq!(count_bestmoves(&lines), 0, "bestmove during go infinite: {lines:?}");
        std::thread::sleep(Duration::from_millis(50));
    }
    // An infinite search ends only through stop: a bestmove at all (within a generous limit)
    // shows that stop reached it.
    e.send("stop");
    let (_, best) = e.bestmove(Duration::from_secs(5));
    legal_bestmove(&best, START_FEN, &[]);
    let after = e.sync();
    assert_eq!(count_bestmoves(&after), 0, "second bestmove after stop: {after:?}");
    // A second stop with nothing running prints nothing.
    e.send("stop");
    assert_eq!(count_bestmoves(&e.sync()), 0);
}

fn infinite_waits_for_stop_even_when_search_ends() {
    let mut e = Engine::start();
    // One legal move, mated next move: the search finishes at once but must wait.
    for (fen, expect) in
        [("k7/8/1K6/8/8/8/8/7R b - - 0 1", "bestmove a8b8"), ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "bestmove (none)")]
    {
        e.send(&format!("position fen {fen}"));
        e.send("go infinite");
        let early = e.silent_for(Duration::from_millis(600));
        assert_eq!(count_bestmoves(&early), 0, "{fen}: bestmove before stop: {early:?}");
        e.send("stop");
        let (_, best) = e.bestmove(Duration::from_secs(2));
        assert!(best.starts_with(expect), "{fen}: {best}");
        assert_eq!(count_bestmoves(&e.sync()), 0);
    }
}

fn ponder_and_ponderhit() {
    let mut e = Engine::start();
    e.send("setoption name Ponder value true");
    e.send("position startpos moves e2e4");
    e.send("go ponder wtime 2000 btime 2000 winc 0 binc 0");
    let early = e.silent_for(Duration::from_millis(500));
    assert_eq!(count_bestmoves(&early), 0, "bestmove while pondering: {early:?}");
    let t0 = Instant::now();
    e.send("ponderhit");
    let (_, best) = e.bestmove(Duration::from_secs(3));
    assert!(t0.elapsed() < Duration::from_millis(1500), "ponderhit then {:?}", t0.elapsed());
    legal_bestmove(&best, START_FEN, &["e2e4"]);
    assert_eq!(count_bestmoves(&e.sync()), 0);
    // A ponder search that ends before the ponderhit: the score is sent again with it,
    // after the ponderhit, so a client reading that move's analysis gets one.
    e.send("go ponder depth 3");
    e.silent_for(Duration::from_millis(500));
    e.send("ponderhit");
    let (lines, best) = e.bestmove(Duration::from_secs(2));
    legal_bestmove(&best, START_FEN, &["e2e4"]);
    assert!(lines.iter().any(|l| l.starts_with("info depth 3 ") && l.contains(" score ")), "{lines:?}");
    assert_eq!(count_bestmoves(&e.sync()), 0);
    // Ponder miss: stop ends the ponder search with one bestmove.
    e.send("go ponder wtime 2000 btime 2000");
    assert_eq!(count_bestmoves(&e.silent_for(Duration::from_millis(300))), 0);
    e.send("stop");
    let (_, best) = e.bestmove(Duration::from_secs(2));
    legal_bestmove(&best, START_FEN, &["e2e4"]);
    assert_eq!(count_bestmoves(&e.sync()), 0);
}

fn time_controls_return_in_time() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.sync();
    // Generous limits (a loaded two-core machine varies by 2x): they catch a limit that is
    // ignored, not a few milliseconds over. The clock tests below use the real rule instead
    // (never more than the time left).
    let t0 = Instant::now();
    e.send("go movetime 200");
    let (_, best) = e.bestmove(Duration::from_secs(3));
    let took = t0.elapsed();
    assert!(took <= Duration::from_millis(1500), "movetime 200 took {took:?}");
    legal_bestmove(&best, START_FEN, &[]);

    e.send("position startpos moves d2d4");
    e.sync();
    let t0 = Instant::now();
    e.send("go wtime 1000 btime 1000 winc 10 binc 10");
    let (_, best) = e.bestmove(Duration::from_secs(3));
    let took = t0.elapsed();
    assert!(took < Duration::from_millis(1000), "1 s clock: move took {took:?}, the whole clock");
    legal_bestmove(&best, START_FEN, &["d2d4"]);

    // Almost no time left: still a legal move, at once.
    let t0 = Instant::now();
    e.send("go wtime 5 btime 5");
    let (_, best) = e.bestmove(Duration::from_secs(3));
    assert!(t0.elapsed() <= Duration::from_millis(1500), "5 ms clock took {:?}", t0.elapsed());
    legal_bestmove(&best, START_FEN, &["d2d4"]);

    // go nodes: stops and answers.
    e.send("go nodes 5000");
    let (lines, best) = e.bestmove(Duration::from_secs(5));
    legal_bestmove(&best, START_FEN, &["d2d4"]);
    let last_nodes: u64 = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .map(|l| {
            let t: Vec<&str> = l.split_whitespace().collect();
            t[t.iter().position(|&x| x == "nodes").unwrap() + 1].parse().unwrap()
        })
        .next_back()
        .unwrap();
    assert!(last_nodes <= 5100, "go nodes 5000 reported {last_nodes}");
}

/// `Move Overhead` for the clock tests. The machine running them may be busy (other tests,
/// engine matches): lag outside the engine's control is what the option is for.
const CLOCK_TEST_OVERHEAD_MS: u64 = 50;

/// Plays `plies` moves of a game of the engine against itself from the start position,
/// each side on its own clock: `start` ms, `inc` ms added after each move and, with
/// `per_control`, `movestogo` counting down to 1 and `start` ms more at each control.
/// Every `bestmove` must arrive before its side's clock runs out.
fn self_play_on_the_clock(start: u64, inc: u64, per_control: Option<u64>, plies: usize) {
    let mut e = Engine::start();
    e.send(&format!("setoption name Move Overhead value {CLOCK_TEST_OVERHEAD_MS}"));
    let mut b = Board::startpos();
    let mut moves: Vec<String> = Vec::new();
    let mut clock = [start as i64; 2];
    let mut to_go = [per_control.unwrap_or(0); 2];
    for ply in 0..plies {
        let side = ply % 2;
        if moves.is_empty() {
            e.send("position startpos");
        } else {
            e.send(&format!("position startpos moves {}", moves.join(" ")));
        }
        e.sync();
        let mut go = format!("go wtime {} btime {} winc {inc} binc {inc}", clock[0], clock[1]);
        if per_control.is_some() {
            go.push_str(&format!(" movestogo {}", to_go[side]));
        }
        let t0 = Instant::now();
        e.send(&go);
        let (_, best) = e.bestmove(Duration::from_secs(10));
        let took = t0.elapsed().as_millis() as i64;
        assert!(took < clock[side], "ply {ply}: `{go}` took {took} ms, more than the {} ms left", clock[side]);
        clock[side] += inc as i64 - took;
        if let Some(n) = per_control {
            to_go[side] -= 1;
            if to_go[side] == 0 {
                to_go[side] = n;
                clock[side] += start as i64;
            }
        }
        let refs: Vec<&str> = moves.iter().map(|m| m.as_str()).collect();
        let m = legal_bestmove(&best, START_FEN, &refs);
        b.make(b.parse_uci_move(&m).unwrap());
        moves.push(m);
        if b.legal_moves().is_empty() {
            break;
        }
    }
    assert_eq!(count_bestmoves(&e.sync()), 0);
}

/// Short clocks never run out: 1+0.01 bullet, a 5 ms increment on a small clock, a
/// `movestogo` control, and `movestogo 1` alone. With one search thread only (not in
/// `end_to_end!`): with two threads on a fully loaded two-core machine the main thread was
/// seen descheduled for hundreds of milliseconds mid-search, which measures the scheduler,
/// not the time management.
#[test]
fn short_clocks_never_flag() {
    self_play_on_the_clock(1000, 10, None, 60);
    self_play_on_the_clock(300, 5, None, 60);
    self_play_on_the_clock(500, 0, Some(5), 40);
    // Single moves: the last move before a control, and a clock below the reserve.
    let mut e = Engine::start();
    e.send(&format!("setoption name Move Overhead value {CLOCK_TEST_OVERHEAD_MS}"));
    for (fen, moves) in [(START_FEN, vec![]), (START_FEN, vec!["e2e4", "c7c5", "g1f3"])] {
        let pos = if moves.is_empty() {
            format!("position fen {fen}")
        } else {
            format!("position fen {fen} moves {}", moves.join(" "))
        };
        e.send(&pos);
        e.sync();
        for go in [
            "go wtime 300 btime 300 movestogo 1",
            "go wtime 150 btime 150 winc 5 binc 5 movestogo 1",
            "go wtime 120 btime 120 winc 5 binc 5",
        ] {
            let t0 = Instant::now();
            e.send(go);
            let (_, best) = e.bestmove(Duration::from_secs(5));
            let took = t0.elapsed();
            let clock: u64 = go.split_whitespace().nth(2).unwrap().parse().unwrap();
            assert!(took < Duration::from_millis(clock), "`{go}` took {took:?}");
            legal_bestmove(&best, fen, &moves);
        }
    }
}

fn go_mate_finds_mate_in_two() {
    let mut e = Engine::start();
    e.send("position fen 6k1/8/8/8/8/8/R7/1R4K1 w - - 0 1");
    e.send("go mate 2");
    let (lines, best) = e.bestmove(Duration::from_secs(10));
    let m = legal_bestmove(&best, "6k1/8/8/8/8/8/R7/1R4K1 w - - 0 1", &[]);
    assert!(m == "b1b7" || m == "a2a7", "not a mate-in-2 move: {best}");
    let last_info = lines.iter().rfind(|l| l.starts_with("info depth")).unwrap();
    assert!(last_info.contains(" score mate 2 "), "{last_info}");
}

fn long_and_empty_move_lists() {
    let mut e = Engine::start();
    let cycle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    let moves: Vec<&str> = cycle.iter().copied().cycle().take(220).collect();
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    let lines = e.sync();
    assert!(lines.iter().all(|l| !l.contains("error")), "{lines:?}");
    assert_eq!(e.fen(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 220 111");
    e.send("go depth 4");
    let (_, best) = e.bestmove(Duration::from_secs(20));
    legal_bestmove(&best, START_FEN, &[]);
    // Ending on black to move after 221 plies.
    let mut odd = moves.clone();
    odd.push("e2e4");
    e.send(&format!("position startpos moves {}", odd.join(" ")));
    let fen = e.fen();
    let f: Vec<&str> = fen.split_whitespace().collect();
    assert_eq!(f[..3], ["rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR", "b", "KQkq"], "{fen}");
    assert!(f[3] == "e3" || f[3] == "-", "{fen}");
    assert_eq!(f[4..], ["0", "111"], "{fen}");
    e.send("go depth 3");
    let (_, best) = e.bestmove(Duration::from_secs(20));
    legal_bestmove(&best, START_FEN, &odd);
    // Empty move lists.
    e.send("position startpos moves");
    assert_eq!(e.fen(), START_FEN);
    e.send("position fen 8/8/4k3/8/8/3RK3/8/8 w - - 3 40 moves");
    assert_eq!(e.fen(), "8/8/4k3/8/8/3RK3/8/8 w - - 3 40");
    e.send("position startpos");
    assert_eq!(e.fen(), START_FEN);
}

fn setoption_forms() {
    let mut e = Engine::start();
    for line in [
        "setoption name Move Overhead value 50",
        "setoption name Clear Hash",
        "setoption name Hash value 32",
        "setoption name Hash value 1",
        "setoption name MultiPV value 2",
        "setoption name Threads value 1",
        "setoption name Ponder value false",
        "setoption name UCI_Chess960 value false",
        "setoption name move overhead value 0",
    ] {
        e.send(line);
        let lines = e.sync();
        assert!(lines.iter().all(|l| !l.contains("error")), "{line}: {lines:?}");
    }
    // MultiPV 2 shows two lines per depth.
    e.send("position startpos");
    e.send("go depth 3");
    let (lines, _) = e.bestmove(Duration::from_secs(10));
    assert!(lines.iter().any(|l| l.starts_with("info depth 3 ") && l.contains(" multipv 2 ")), "{lines:?}");
    // Clear Hash during a search stops it cleanly (one bestmove) and the engine goes on.
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.send("setoption name Clear Hash");
    let lines = e.sync();
    assert!(count_bestmoves(&lines) <= 1);
    e.send("setoption name MultiPV value 1");
    e.send("go depth 3");
    let (_, best) = e.bestmove(Duration::from_secs(10));
    legal_bestmove(&best, START_FEN, &[]);
}

/// Each bad line gets an `info string error: …` answer, and the engine keeps working and
/// keeps its last good position.
fn bad_input_is_answered_and_state_kept() {
    let good = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let mut e = Engine::start();
    e.send(&format!("position fen {good}"));
    assert_eq!(e.fen(), good);
    let bad: Vec<Vec<u8>> = vec![
        b"\xff\xfe\x00garbage \x01\x02".to_vec(),
        b"\xc3\x28 \xa0\xa1".to_vec(),
        b"hello world".to_vec(),
        b"ucinewgamex".to_vec(),
        b"position".to_vec(),
        b"position fen".to_vec(),
        b"position fen 8/8/8 w - - 0 1".to_vec(),
        b"position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1".to_vec(),
        b"position fen rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".to_vec(),
        b"position fen 8/8/8/8/8/8/8/8 w - - 0 1".to_vec(),
        b"position startpos moves e2e4 e7e5 e1e3".to_vec(),
        b"position startpos moves e2e5".to_vec(),
        b"position startpos moves e2e4 zz".to_vec(),
        b"position somewhere".to_vec(),
        b"setoption".to_vec(),
        b"setoption name".to_vec(),
        b"setoption value 3".to_vec(),
        b"setoption name Hash value 0".to_vec(),
        b"setoption name Hash value 99999999".to_vec(),
        b"setoption name Hash value lots".to_vec(),
        b"setoption name Hash".to_vec(),
        b"setoption name MultiPV value 0".to_vec(),
        b"setoption name MultiPV value 100000".to_vec(),
        b"setoption name Move Overhead value -5".to_vec(),
        b"setoption name Threads value 0".to_vec(),
        b"setoption name Threads value 1025".to_vec(),
        b"setoption name Ponder value maybe".to_vec(),
        b"setoption name UCI_Chess960 value 1".to_vec(),
        b"setoption name NoSuchOption value 3".to_vec(),
        b"setoption name Contempt value 10".to_vec(),
        b"bench x".to_vec(),
    ];
    for line in &bad {
        e.send_bytes(line);
        let lines = e.sync();
        let shown = String::from_utf8_lossy(line);
        assert!(lines.iter().any(|l| l.starts_with("info string error: ")), "no error answer to {shown:?}: {lines:?}");
        assert_eq!(count_bestmoves(&lines), 0, "{shown:?} started a search");
        assert!(e.alive());
    }
    // The board is still the last good position, but the last `position` was rejected, so
    // `go` searches nothing: an error and `bestmove 0000` until a good `position` arrives.
    assert_eq!(e.fen(), good);
    e.send("go depth 3");
    let (lines, best) = e.bestmove(Duration::from_secs(10));
    assert_eq!(best, "bestmove 0000");
    assert!(lines.iter().any(|l| l.starts_with("info string error: no search")), "{lines:?}");
    e.send(&format!("position fen {good}"));
    e.send("go depth 3");
    let (_, best) = e.bestmove(Duration::from_secs(10));
    legal_bestmove(&best, good, &[]);
    // Hash/MultiPV kept their last good values: one line per depth.
    e.send("go depth 2");
    let (lines, _) = e.bestmove(Duration::from_secs(10));
    assert!(lines.iter().all(|l| !l.contains(" multipv 2 ")));
}

fn fuzz_random_token_lines() {
    const TOKENS: [&str; 62] = [
        "uci",
        "isready",
        "ucinewgame",
        "position",
        "startpos",
        "fen",
        "moves",
        "go",
        "stop",
        "ponderhit",
        "setoption",
        "name",
        "value",
        "Hash",
        "MultiPV",
        "Move",
        "Overhead",
        "Clear",
        "Threads",
        "Ponder",
        "UCI_Chess960",
        "true",
        "false",
        "depth",
        "nodes",
        "movetime",
        "wtime",
        "btime",
        "winc",
        "binc",
        "movestogo",
        "mate",
        "infinite",
        "ponder",
        "searchmoves",
        "perft",
        "debug",
        "on",
        "d",
        "eval",
        "0",
        "1",
        "2",
        "3",
        "-1",
        "abc",
        "99999999999999999999",
        "e2e4",
        "e7e5",
        "g1f3",
        "e1g1",
        "a7a8q",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
        "w",
        "b",
        "KQkq",
        "-",
        "8/8/8/8",
        "\u{e9}\u{0}",
        "\t",
        "x",
        "r3k2r/8/8/8/8/8/8/R3K2R",
    ];
    const HEADS: [&str; 11] =
        ["uci", "isready", "ucinewgame", "position", "go", "stop", "ponderhit", "setoption", "debug", "d", "eval"];
    const GO_TOKENS: [&str; 19] = [
        "depth",
        "nodes",
        "movetime",
        "wtime",
        "btime",
        "winc",
        "binc",
        "movestogo",
        "mate",
        "infinite",
        "ponder",
        "searchmoves",
        "perft",
        "0",
        "1",
        "2",
        "3",
        "e2e4",
        "abc",
    ];
    const POSITION_TOKENS: [&str; 18] = [
        "startpos",
        "fen",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
        "r3k2r/8/8/8/8/8/8/R3K2R",
        "w",
        "b",
        "KQkq",
        "-",
        "0",
        "1",
        "moves",
        "e2e4",
        "e7e5",
        "g1f3",
        "g8f6",
        "e1g1",
        "a7a8q",
        "zz",
    ];
    const OPTION_TOKENS: [&str; 18] = [
        "name",
        "value",
        "Hash",
        "MultiPV",
        "Move",
        "Overhead",
        "Clear",
        "Threads",
        "Ponder",
        "UCI_Chess960",
        "true",
        "false",
        "0",
        "1",
        "2",
        "3",
        "-1",
        "abc",
    ];
    let mut rng = SmallRng::seed_from_u64(0xF022);
    let mut e = Engine::start();
    let mut markers = Vec::new();
    for i in 0..3000 {
        let n = rng.gen_range(0..9);
        let mut toks: Vec<&str> = if rng.gen_bool(0.5) {
            // Free mix of keywords and junk.
            (0..n).map(|_| TOKENS[rng.gen_range(0..TOKENS.len())]).collect()
        } else {
            // A real command head with arguments drawn mostly from its own vocabulary.
            let head = HEADS[rng.gen_range(0..HEADS.len())];
            let pool: &[&str] = match head {
                "go" => &GO_TOKENS,
                "position" => &POSITION_TOKENS,
                "setoption" => &OPTION_TOKENS,
                _ => &TOKENS,
            };
            let mut t = vec![head];
            if head == "go" && rng.gen_bool(0.7) {
                // Mostly well-formed: keyword-value pairs and flags, with a little junk.
                const KEYS: [&str; 10] =
                    ["depth", "nodes", "movetime", "wtime", "btime", "winc", "binc", "movestogo", "mate", "perft"];
                const VALUES: [&str; 6] = ["0", "1", "2", "3", "50", "abc"];
                for _ in 0..rng.gen_range(0..4) {
                    match rng.gen_range(0..10) {
                        0 => t.push("infinite"),
                        1 => t.push("ponder"),
                        _ => {
                            let key = KEYS[rng.gen_range(0..KEYS.len())];
                            t.push(key);
                            // perft runs to the end on the input thread: keep it small.
                            let values = if key == "perft" { &VALUES[..4] } else { &VALUES[..] };
                            t.push(values[rng.gen_range(0..values.len())]);
                        }
                    }
                }
                t
            } else {
                t.extend((0..n).map(|_| {
                    if rng.gen_bool(0.9) {
                        pool[rng.gen_range(0..pool.len())]
                    } else {
                        TOKENS[rng.gen_range(0..TOKENS.len())]
                    }
                }));
                t
            }
        };
        // Keep searches short and never ask for huge work: perft and mate/depth searches
        // are stopped by the next line or capped here.
        if toks.first() == Some(&"go") && rng.gen_bool(0.5) {
            toks.push("depth");
            toks.push("2");
        }
        let mut line = toks.join(" ");
        if line.contains("perft") {
            line = line.replace("99999999999999999999", "1");
        }
        if rng.gen_bool(0.02) {
            // Raw junk bytes as well.
            let junk: Vec<u8> = (0..rng.gen_range(1..40)).map(|_| rng.gen::<u8>()).filter(|&b| b != b'\n').collect();
            e.send_bytes(&junk);
        } else {
            e.send(&line);
        }
        if i % 250 == 249 {
            e.send("stop");
            e.sync_marked(i);
            markers.push(i);
            assert!(e.alive(), "engine died near fuzz line {i}");
        }
    }
    e.send("stop");
    let lines = e.sync_marked(usize::MAX);
    markers.push(usize::MAX);
    assert!(e.alive());
    assert_eq!(lines.last().unwrap(), "readyok");
    assert!(e.log.iter().all(|l| !l.contains("panicked")));
    // The fuzz really drove the engine: errors, searches and perft all happened.
    let count = |p: &str| e.log.iter().filter(|l| l.starts_with(p)).count();
    assert!(count("info string error: ") > 1000, "errors: {}", count("info string error: "));
    eprintln!(
        "fuzz: {} errors, {} bestmoves, {} info depth, {} perfts",
        count("info string error: "),
        count("bestmove"),
        count("info depth"),
        count("Nodes searched")
    );
    assert!(count("bestmove") > 50, "bestmoves: {}", count("bestmove"));
    // Most fuzzed searches are tiny (nodes 0-3, 0 ms clocks, stopped by the next line), so
    // how many reach a completed depth depends on timing (17-65 in quiet runs, 2 once under
    // a loaded CI); it is not asserted. After the fuzz the engine must still search normally
    // (checked at the end).
    assert!(count("Nodes searched") > 10, "perfts: {}", count("Nodes searched"));
    assert!(count("readyok") > 50);
    assert!(count("uciok") > 5);
    // Every marker line was answered exactly once, in the order sent: the engine read every
    // fuzz line before each marker and lost or repeated none of its answers.
    let echoed: Vec<usize> = e
        .log
        .iter()
        .filter_map(|l| l.split("sync-marker-").nth(1))
        .map(|n| n.trim_end_matches(|c: char| !c.is_ascii_digit()).parse().expect("marker number"))
        .collect();
    assert_eq!(echoed, markers);
    e.send("ucinewgame");
    e.send("position startpos moves e2e4");
    e.send("go depth 4");
    let (search, best) = e.bestmove(Duration::from_secs(20));
    assert!(search.iter().any(|l| l.starts_with("info depth 4 ")), "no depth-4 line after the fuzz: {search:?}");
    assert!(best.starts_with("bestmove "), "{best}");
    e.send("quit");
    assert!(e.wait_exit(T).success());
}

fn quit_and_end_of_input_exit_cleanly() {
    let mut e = Engine::start();
    e.send("quit");
    assert_eq!(e.wait_exit(T).code(), Some(0));

    let mut e = Engine::start();
    e.sync();
    e.close_stdin();
    assert_eq!(e.wait_exit(T).code(), Some(0));

    // Quit and end of input during a search.
    let mut e = Engine::start();
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.send("quit");
    assert_eq!(e.wait_exit(T).code(), Some(0));

    let mut e = Engine::start();
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.close_stdin();
    assert_eq!(e.wait_exit(T).code(), Some(0));
}

fn no_move_gives_bestmove_none() {
    let mut e = Engine::start();
    for fen in ["R5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 1 1", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"] {
        e.send(&format!("position fen {fen}"));
        for go in ["go depth 3", "go movetime 50", "go wtime 1000 btime 1000"] {
            e.send(go);
            let (_, best) = e.bestmove(Duration::from_secs(5));
            assert_eq!(best, "bestmove (none)", "{fen} {go}");
            assert_eq!(count_bestmoves(&e.sync()), 0);
        }
    }
}

/// A mated root is scored `mate 0` and a stalemated one `cp 0`, at depth 0, before
/// `bestmove (none)`: a script reading the score of any position gets one.
fn terminal_roots_are_scored() {
    let mut e = Engine::start();
    for (fen, score) in [
        ("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "score mate 0"),
        ("R5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 1 1", "score mate 0"),
        ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "score cp 0"),
    ] {
        e.send(&format!("position fen {fen}"));
        e.send("go depth 5");
        let (lines, best) = e.bestmove(T);
        assert_eq!(best, "bestmove (none)");
        let info: Vec<&String> = lines.iter().filter(|l| l.starts_with("info depth")).collect();
        assert_eq!(info.len(), 1, "{fen}: {lines:?}");
        assert!(info[0].starts_with("info depth 0 ") && info[0].contains(score), "{fen}: {}", info[0]);
        assert!(!info[0].contains(" pv"), "{fen}: an empty pv is left out: {}", info[0]);
    }
}

/// After a rejected `position` (bad FEN or illegal move), `go` and `go perft` search
/// nothing until a good `position` or `ucinewgame` arrives.
fn go_after_rejected_position_searches_nothing() {
    let mut e = Engine::start();
    for bad in ["position fen 8/8/8/8/8/8/8/8 w - - 0 1", "position startpos moves e2e4 e7e5 e1e3"] {
        e.send("position startpos moves d2d4");
        e.send(bad);
        for go in ["go depth 3", "go wtime 1000 btime 1000", "go perft 2"] {
            e.send(go);
            let (lines, best) = e.bestmove(T);
            assert_eq!(best, "bestmove 0000", "{bad} / {go}: {lines:?}");
            assert!(!lines.iter().any(|l| l.starts_with("info depth")), "{bad} / {go}: {lines:?}");
        }
        e.send("position startpos moves e2e4");
        e.send("go depth 2");
        let (_, best) = e.bestmove(T);
        legal_bestmove(&best, START_FEN, &["e2e4"]);
        e.send(bad);
        e.send("ucinewgame");
        e.send("go depth 2");
        let (_, best) = e.bestmove(T);
        legal_bestmove(&best, START_FEN, &[]);
    }
}

/// After the first second of a search the main thread names each root move it starts.
fn currmove_after_a_second() {
    let mut e = Engine::start();
    e.send("position startpos");
    // `go infinite` until the first `currmove` (a timed search may end before one second on
    // a loaded machine), then a little more, then `stop`.
    e.send("go infinite");
    let mut lines = e.until(Duration::from_secs(30), "currmove", |l| l.contains(" currmove "));
    std::thread::sleep(Duration::from_millis(300));
    e.send("stop");
    lines.extend(e.bestmove(T).0);
    let current: Vec<&String> = lines.iter().filter(|l| l.contains(" currmove ")).collect();
    assert!(!current.is_empty(), "no currmove line: {lines:?}");
    let b = Board::startpos();
    for l in &current {
        let t: Vec<&str> = l.split_whitespace().collect();
        assert_eq!((t[0], t[1], t[3], t[5]), ("info", "depth", "currmove", "currmovenumber"), "{l}");
        assert!(b.parse_uci_move(t[4]).is_ok(), "{l}");
        let n: usize = t[6].parse().unwrap();
        assert!((1..=20).contains(&n), "{l}");
    }
    // None in the first second: a short search prints none.
    e.send("go movetime 300");
    let (lines, _) = e.bestmove(T);
    assert!(!lines.iter().any(|l| l.contains(" currmove ")), "{lines:?}");
}

/// `UCI_ShowWDL`: off by default (no `wdl`); on, every scored `info` line carries
/// `wdl W D L` right after the score, summing to 1000, certain for mates either way.
fn show_wdl() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until(T, "uciok", |l| l == "uciok");
    assert!(lines.iter().any(|l| l == "option name UCI_ShowWDL type check default false"), "{lines:?}");
    e.send("go depth 4");
    let (lines, _) = e.bestmove(T);
    assert!(lines.iter().all(|l| !l.contains(" wdl ")), "{lines:?}");
    e.send("setoption name UCI_ShowWDL value true");
    // (fen, expected wdl of the last scored line, if certain)
    for (fen, certain) in [
        (START_FEN, None),
        ("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", Some([0, 0, 1000])),
        ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", Some([0, 1000, 0])),
        ("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", Some([1000, 0, 0])),
    ] {
        e.send(&format!("position fen {fen}"));
        e.send("go depth 6");
        let (lines, _) = e.bestmove(T);
        let scored: Vec<&String> = lines.iter().filter(|l| l.contains(" score ")).collect();
        assert!(!scored.is_empty(), "{fen}: {lines:?}");
        let mut last = [0u32; 3];
        for l in &scored {
            let t: Vec<&str> = l.split_whitespace().collect();
            let i = t.iter().position(|&x| x == "wdl").unwrap_or_else(|| panic!("no wdl: {l}"));
            // Right after `score cp|mate N` and its optional bound.
            let score_at = t.iter().position(|&x| x == "score").unwrap();
            assert!(i == score_at + 3 || (i == score_at + 4 && t[score_at + 3].ends_with("bound")), "{l}");
            let w: Vec<u32> = t[i + 1..i + 4].iter().map(|x| x.parse().unwrap()).collect();
            assert_eq!(w.iter().sum::<u32>(), 1000, "{l}");
            last = [w[0], w[1], w[2]];
        }
        if let Some(c) = certain {
            assert_eq!(last, c, "{fen}: {:?}", scored.last());
        }
    }
    e.send("position startpos");
    e.send("eval");
    let lines = e.until(T, "eval", |l| l.starts_with("info string eval"));
    assert!(lines.last().unwrap().contains(" wdl "), "{lines:?}");
    e.send("setoption name UCI_ShowWDL value maybe");
    assert!(e.sync().iter().any(|l| l.starts_with("info string error: ")));
}

/// The total nodes of the search that ended with `lines` (from its `info string nodes` line).
fn searched_nodes(lines: &[String]) -> u64 {
    let l = lines.iter().rev().find(|l| l.starts_with("info string nodes ")).expect("a node count line");
    l.split_whitespace().nth(3).unwrap().parse().unwrap()
}

/// `UCI_LimitStrength` + `UCI_Elo` and `Skill Level`: declared with their ranges, bad
/// values refused, a weaker setting searches fewer nodes, only the lines asked for are
/// shown, every move is legal and quick.
fn limit_strength() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until(T, "uciok", |l| l == "uciok");
    for decl in [
        "option name UCI_LimitStrength type check default false",
        "option name UCI_Elo type spin default 1320 min 1320 max 2800",
        "option name Skill Level type spin default 20 min 0 max 20",
    ] {
        assert!(lines.iter().any(|l| l == decl), "{decl} missing: {lines:?}");
    }
    for bad in ["UCI_Elo value 1000", "UCI_Elo value 3000", "UCI_Elo value strong", "Skill Level value 21"] {
        e.send(&format!("setoption name {bad}"));
        assert!(e.sync().iter().any(|l| l.starts_with("info string error: ")), "{bad}");
    }
    let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    e.send(&format!("position fen {fen}"));
    let mut nodes = Vec::new();
    e.send("setoption name UCI_LimitStrength value true");
    for elo in [1320, 2000, 2800] {
        e.send(&format!("setoption name UCI_Elo value {elo}"));
        e.send("go movetime 3000");
        let started = Instant::now();
        let (lines, best) = e.bestmove(T);
        legal_bestmove(&best, fen, &[]);
        assert!(lines.iter().filter(|l| l.contains(" multipv ")).all(|l| l.contains(" multipv 1 ")), "{lines:?}");
        nodes.push(searched_nodes(&lines));
        assert!(elo == 2800 || started.elapsed() < Duration::from_millis(2500), "{elo}: {:?}", started.elapsed());
    }
    assert!(nodes[0] < nodes[1] && nodes[1] < nodes[2], "nodes by Elo: {nodes:?}");
    // Skill Level on the same scale; LimitStrength off and level 20 is full strength.
    e.send("setoption name UCI_LimitStrength value false");
    e.send("setoption name Skill Level value 0");
    e.send("go movetime 3000");
    let (lines, best) = e.bestmove(T);
    legal_bestmove(&best, fen, &[]);
    assert!(searched_nodes(&lines) < nodes[1], "skill 0: {}", searched_nodes(&lines));
    e.send("setoption name Skill Level value 20");
    e.send("go depth 9");
    let (lines, _) = e.bestmove(T);
    assert!(searched_nodes(&lines) > nodes[0], "full strength: {}", searched_nodes(&lines));
}

/// A game on a short clock between the lowest `UCI_Elo` and a middle `Skill Level`: no
/// illegal move, no flag, every move in time.
fn limited_strength_on_the_clock() {
    let mut weak = Engine::start();
    weak.send("setoption name UCI_LimitStrength value true");
    // The other side plays at Skill Level 10 (about 2060): limited too, so both are quick.
    let mut strong = Engine::start();
    strong.send("setoption name Skill Level value 10");
    let mut moves: Vec<String> = Vec::new();
    let mut b = Board::startpos();
    let (mut clock, inc) = ([5000i64, 5000i64], 50i64);
    for ply in 0..60 {
        if b.legal_moves().is_empty() || b.insufficient_material() || b.fifty_move_draw() {
            break;
        }
        let side = ply % 2;
        let e = if side == 0 { &mut weak } else { &mut strong };
        let pos = if moves.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        e.send(&pos);
        e.send(&format!("go wtime {} btime {} winc {inc} binc {inc}", clock[0], clock[1]));
        let started = Instant::now();
        let (_, best) = e.bestmove(T);
        let spent = started.elapsed().as_millis() as i64;
        clock[side] += inc - spent;
        assert!(clock[side] > 0, "ply {ply}: side {side} flagged");
        let m = best.split_whitespace().nth(1).unwrap().to_string();
        let mv = b.parse_uci_move(&m).unwrap_or_else(|err| panic!("illegal {m} at ply {ply}: {err}"));
        b.make(mv);
        moves.push(m);
    }
}

fn go_perft() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go perft 3");
    let lines = e.until(T, "Nodes searched", |l| l.starts_with("Nodes searched"));
    assert_eq!(lines.last().unwrap(), "Nodes searched: 8902");
    let split: Vec<(String, u64)> = lines
        .iter()
        .filter_map(|l| {
            let (m, n) = l.split_once(": ")?;
            if m == "Nodes searched" {
                return None;
            }
            Some((m.to_string(), n.parse().unwrap()))
        })
        .collect();
    assert_eq!(split.len(), 20, "{lines:?}");
    assert!(split.iter().all(|(m, _)| Board::startpos().parse_uci_move(m).is_ok()));
    assert_eq!(split.iter().map(|(_, n)| n).sum::<u64>(), 8902);
    assert!(split.contains(&("e2e4".to_string(), 600)));
    assert!(split.contains(&("g1f3".to_string(), 440)));
    e.send("go perft 1");
    let lines = e.until(T, "Nodes searched", |l| l.starts_with("Nodes searched"));
    assert!(lines.contains(&"e2e4: 1".to_string()));
    assert_eq!(lines.last().unwrap(), "Nodes searched: 20");
    assert_eq!(count_bestmoves(&e.sync()), 0);
}

fn chess960_castling_is_king_takes_rook() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let mut e = Engine::start();
    e.send("setoption name UCI_Chess960 value true");
    e.send(&format!("position fen {fen}"));
    e.send("go perft 1");
    let lines = e.until(T, "Nodes searched", |l| l.starts_with("Nodes searched"));
    assert!(lines.contains(&"e1h1: 1".to_string()), "{lines:?}");
    assert!(lines.contains(&"e1a1: 1".to_string()), "{lines:?}");
    assert!(!lines.iter().any(|l| l.starts_with("e1g1") || l.starts_with("e1c1")), "{lines:?}");
    assert_eq!(lines.last().unwrap(), "Nodes searched: 26");
    e.send("go depth 2 searchmoves e1h1");
    let (lines, best) = e.bestmove(Duration::from_secs(5));
    assert_eq!(best.split_whitespace().nth(1), Some("e1h1"), "{lines:?}");
    assert!(lines.iter().filter(|l| l.starts_with("info depth")).all(|l| l.contains(" pv e1h1")));
    // Castling given in king-takes-rook form in `position … moves`.
    e.send(&format!("position fen {fen} moves e1h1 e8a8"));
    assert_eq!(e.fen(), "2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2");
    // Back to standard chess: the king's two-step.
    e.send("setoption name UCI_Chess960 value false");
    e.send(&format!("position fen {fen}"));
    e.send("go perft 1");
    let lines = e.until(T, "Nodes searched", |l| l.starts_with("Nodes searched"));
    assert!(lines.contains(&"e1g1: 1".to_string()) && lines.contains(&"e1c1: 1".to_string()), "{lines:?}");
    e.send("go depth 2 searchmoves e1g1");
    let (_, best) = e.bestmove(Duration::from_secs(5));
    assert_eq!(best.split_whitespace().nth(1), Some("e1g1"));
}

/// `go perft` runs off the input thread: `isready` is answered at once while it counts,
/// and `stop` ends it without a total.
fn isready_during_go_perft_and_stop_ends_it() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.sync();
    e.send("go perft 7");
    std::thread::sleep(Duration::from_millis(200));
    // Event order: each readyok comes while perft 7 (seconds of work) is still counting, i.e.
    // before its total; and stop ends it without a total.
    for _ in 0..3 {
        e.send("isready");
        let lines = e.until(Duration::from_secs(5), "readyok", |l| l == "readyok");
        assert!(!lines.iter().any(|l| l.starts_with("Nodes searched")), "perft ended before readyok: {lines:?}");
    }
    e.send("stop");
    let lines = e.until(Duration::from_secs(5), "perft stopped", |l| l == "info string perft stopped");
    assert!(!lines.iter().any(|l| l.starts_with("Nodes searched")), "{lines:?}");
    // The engine goes on normally afterwards.
    e.send("go perft 2");
    let lines = e.until(T, "Nodes searched", |l| l.starts_with("Nodes searched"));
    assert_eq!(lines.last().unwrap(), "Nodes searched: 400");
}

/// The UCI `bench` also runs off the input thread and obeys `stop`.
fn uci_bench_answers_isready_and_stops() {
    let mut e = Engine::start();
    e.send("bench 30");
    std::thread::sleep(Duration::from_millis(100));
    // Event order: readyok arrives before bench 30 (minutes of work) prints its total.
    e.send("isready");
    let lines = e.until(Duration::from_secs(5), "readyok", |l| l == "readyok");
    assert!(!lines.iter().any(|l| l.ends_with(" nps")), "bench ended before readyok: {lines:?}");
    e.send("stop");
    let lines = e.until(Duration::from_secs(5), "bench stopped", |l| l == "info string bench stopped");
    assert!(!lines.iter().any(|l| l.ends_with(" nps")), "{lines:?}");
    e.send("bench 2");
    let lines = e.until(Duration::from_secs(30), "bench total", |l| l.ends_with(" nps"));
    let total: u64 = lines.last().unwrap().split_whitespace().next().unwrap().parse().unwrap();
    assert!(total > 0);
}

/// A malformed `go` searches with what it could read, says what it left out in one
/// `info string` line, and ends with exactly one `bestmove`.
fn malformed_go_ends_in_exactly_one_bestmove() {
    let cases = [
        ("go depth abc", "depth abc"),
        ("go wtime -5 btime x", "wtime -5"),
        ("go movetime", "movetime (no value)"),
        ("go depth", "depth (no value)"),
        ("go movetime -x", "movetime -x"),
        ("go nodes 1e9", "nodes 1e9"),
        ("go fast", "fast (unknown)"),
        ("go depth -3 nodes 5000", "depth -3"),
        ("go depth 0 movetime 50", "depth 0"),
        ("go wtime 99999999999999999999 btime 1e5 depth 3", "btime 1e5"),
        ("go wtime 1000 btime 1000 movestogo 0", "movestogo 0"),
        ("go movetime 50 searchmoves zz e2e4", "searchmoves zz"),
        ("go depth 3 perft abc", "perft abc"),
        ("go perft 99 depth 2", "perft 99"),
    ];
    let mut e = Engine::start();
    e.send("position startpos");
    for (go, note) in cases {
        e.send(go);
        let (lines, best) = e.bestmove(Duration::from_secs(10));
        legal_bestmove(&best, START_FEN, &[]);
        let notes: Vec<&String> =
            lines.iter().filter(|l| l.starts_with("info string error: ignored in go: ")).collect();
        assert_eq!(notes.len(), 1, "{go}: {lines:?}");
        assert!(notes[0].contains(note), "{go}: {}", notes[0]);
        // Nothing more arrives: exactly one bestmove.
        let after = e.silent_for(Duration::from_millis(200));
        assert_eq!(count_bestmoves(&after), 0, "{go}: {after:?}");
        assert_eq!(count_bestmoves(&e.sync()), 0, "{go}");
    }
    // `searchmoves` limits the search to the readable moves.
    e.send("go depth 2 searchmoves zz g1f3");
    let (_, best) = e.bestmove(Duration::from_secs(10));
    assert_eq!(best.split_whitespace().nth(1), Some("g1f3"));
}

/// With 8 threads, `stop` still gets `bestmove` within 100 ms, and a `Threads` or `Hash`
/// change during the search is refused with an error line and applied after it.
fn stop_with_eight_threads() {
    let mut e = Engine::start();
    e.send("setoption name Threads value 8");
    e.send("position startpos moves e2e4 c7c5");
    e.sync();
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(500));
    e.send("setoption name Threads value 3");
    e.send("setoption name Hash value 8");
    let lines = e.sync();
    let refused: Vec<&String> = lines.iter().filter(|l| l.contains("cannot change during a search")).collect();
    assert_eq!(refused.len(), 2, "{lines:?}");
    // The infinite search ends only through stop: a bestmove within the (generous) limit
    // shows stop reached all eight threads (the main thread waits for every helper).
    e.send("stop");
    let (lines, best) = e.bestmove(Duration::from_secs(5));
    legal_bestmove(&best, START_FEN, &["e2e4", "c7c5"]);
    // Summed nodes: the last report is no more than the total of the final line.
    let total: u64 = lines
        .iter()
        .find_map(|l| l.strip_prefix("info string nodes ")?.split_whitespace().next()?.parse().ok())
        .expect("final nodes line");
    assert!(total > 0);
    // The waiting changes took effect: the next searches work, with no more errors.
    for go in ["go depth 6", "go movetime 100"] {
        e.send(go);
        let (lines, best) = e.bestmove(Duration::from_secs(10));
        assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
        legal_bestmove(&best, START_FEN, &["e2e4", "c7c5"]);
    }
    assert_eq!(count_bestmoves(&e.sync()), 0);
}

#[test]
fn stop_with_eight_threads_is_quick() {
    stop_with_eight_threads();
}

/// Every end-to-end test, once with `Threads` 1 and once with `Threads` 2.
macro_rules! end_to_end {
    ($($name:ident),* $(,)?) => {
        mod one_thread {
            $(#[test]
            fn $name() {
                super::$name();
            })*
        }
        mod two_threads {
            $(#[test]
            fn $name() {
                super::THREADS.with(|t| t.set(2));
                super::$name();
            })*
        }
    };
}

end_to_end!(
    handshake,
    go_depth_reports_and_one_bestmove,
    infinite_answers_isready_and_stops_once,
    infinite_waits_for_stop_even_when_search_ends,
    ponder_and_ponderhit,
    time_controls_return_in_time,
    go_mate_finds_mate_in_two,
    long_and_empty_move_lists,
    setoption_forms,
    bad_input_is_answered_and_state_kept,
    fuzz_random_token_lines,
    quit_and_end_of_input_exit_cleanly,
    no_move_gives_bestmove_none,
    go_perft,
    chess960_castling_is_king_takes_rook,
    isready_during_go_perft_and_stop_ends_it,
    uci_bench_answers_isready_and_stops,
    malformed_go_ends_in_exactly_one_bestmove,
    nnue_options,
    terminal_roots_are_scored,
    go_after_rejected_position_searches_nothing,
    currmove_after_a_second,
    show_wdl,
    limit_strength,
    limited_strength_on_the_clock
);

/// `UseNNUE` and `EvalFile`: declared; a missing, truncated or corrupt file is answered with
/// its reason and the engine keeps its network and keeps playing; a good file loads; with
/// the network on, `eval` says so and `go` plays legal moves.
fn nnue_options() {
    use horizon::eval::nnue::Network;
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until(T, "uciok", |l| l == "uciok");
    let default = horizon::eval::USE_NNUE_BY_DEFAULT;
    assert!(lines.iter().any(|l| *l == format!("option name UseNNUE type check default {default}")), "{lines:?}");
    assert!(lines.iter().any(|l| l == "option name EvalFile type string default <internal>"), "{lines:?}");
    // `eval` names the evaluation that answered: the default one, then the classical one.
    e.send("eval");
    let lines = e.sync();
    let by_default = if default { " cp (side to move, nnue) wdl " } else { " cp (side to move, classical) wdl " };
    assert!(lines.iter().any(|l| l.starts_with("info string eval ") && l.contains(by_default)), "{lines:?}");
    e.send("setoption name UseNNUE value false");
    e.send("eval");
    let lines = e.sync();
    assert!(
        lines.iter().any(|l| l.starts_with("info string eval ") && l.contains(" cp (side to move, classical) wdl ")),
        "{lines:?}"
    );

    let dir =
        std::env::temp_dir().join(format!("horizon-nnue-uci-{}-{}", std::process::id(), THREADS.with(|t| t.get())));
    std::fs::create_dir_all(&dir).unwrap();
    let good = Network::random(12).to_bytes();
    let write = |name: &str, bytes: &[u8]| {
        let p = dir.join(name);
        std::fs::write(&p, bytes).unwrap();
        p.to_string_lossy().into_owned()
    };
    let truncated = write("truncated.nnue", &good[..good.len() / 2]);
    let mut flipped_bytes = good.clone();
    flipped_bytes[5000] ^= 0x40;
    let flipped = write("flipped.nnue", &flipped_bytes);
    let not_a_net = write("not-a-net.nnue", b"HZNNUX\0\0 this is not a network at all, just forty-odd bytes");
    let good_path = write("good.nnue", &good);
    let missing = dir.join("missing.nnue").to_string_lossy().into_owned();
    for (path, reason) in [
        (&missing, "network file: cannot read "),
        (&truncated, "network file: truncated ("),
        (&flipped, "network file: bad checksum (expected "),
        (&not_a_net, "network file: bad magic"),
    ] {
        e.send(&format!("setoption name EvalFile value {path}"));
        let lines = e.sync();
        let err =
            lines.iter().find(|l| l.starts_with("info string error: ")).unwrap_or_else(|| panic!("{path}: {lines:?}"));
        assert!(err.contains(reason) && err.ends_with("keeping network <internal>"), "{path}: {err}");
        // The engine goes on with its network.
        e.send("setoption name UseNNUE value true");
        e.send("position startpos moves e2e4");
        e.send("go depth 3");
        let (_, best) = e.bestmove(Duration::from_secs(20));
        legal_bestmove(&best, START_FEN, &["e2e4"]);
        e.send("setoption name UseNNUE value false");
    }
    e.send(&format!("setoption name EvalFile value {good_path}"));
    let lines = e.sync();
    assert!(
        lines.iter().any(|l| l == &format!("info string loaded network {good_path}: hidden {HIDDEN}")),
        "{lines:?}"
    );
    e.send("setoption name UseNNUE value true");
    e.send("position startpos");
    e.send("eval");
    let lines = e.sync();
    assert!(
        lines.iter().any(|l| l.starts_with("info string eval ")
            && l.contains(" cp (side to move, nnue) wdl ")
            && l.contains("; classical ")),
        "{lines:?}"
    );
    e.send("go depth 4");
    let (_, best) = e.bestmove(Duration::from_secs(30));
    legal_bestmove(&best, START_FEN, &[]);
    // A mirrored network loads, says so, and plays (its king moves across the d/e line
    // refresh the accumulators).
    let mirrored = Network::random(12).with_feature_set(horizon::eval::nnue::FeatureSet::Mirrored).to_bytes();
    let mirrored_path = write("mirrored.nnue", &mirrored);
    e.send(&format!("setoption name EvalFile value {mirrored_path}"));
    let lines = e.sync();
    let want = format!("info string loaded network {mirrored_path}: hidden {HIDDEN}, mirrored features");
    assert!(lines.contains(&want), "{lines:?}");
    e.send("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    e.send("go nodes 5000");
    let (_, best) = e.bestmove(Duration::from_secs(30));
    legal_bestmove(&best, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", &[]);
    e.send("setoption name EvalFile value <internal>");
    let lines = e.sync();
    let internal = format!("info string loaded network <internal>: hidden {HIDDEN}, mirrored features");
    assert!(lines.contains(&internal), "{lines:?}");
    e.send("position startpos moves d2d4 d7d5 c2c4");
    e.send("go nodes 3000");
    let (_, best) = e.bestmove(Duration::from_secs(30));
    legal_bestmove(&best, START_FEN, &["d2d4", "d7d5", "c2c4"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The squares of the back rank between the outermost of king, rook and their castling
/// destinations, except the king's and the rook's own: what must be cleared to castle.
fn castle_span(king: horizon::Square, rook: horizon::Square, kingside: bool) -> Vec<horizon::Square> {
    use horizon::{File, Square};
    let rank = king.rank();
    let (kd, rd) = if kingside { (File::G.index(), File::F.index()) } else { (File::C.index(), File::D.index()) };
    let files = [king.file().index(), rook.file().index(), kd, rd];
    let (lo, hi) = (*files.iter().min().unwrap(), *files.iter().max().unwrap());
    (lo..=hi).map(|f| Square::new(File::from_index(f), rank)).filter(|&s| s != king && s != rook).collect()
}

/// One Chess960 game through `position fen … moves …`: each side clears its back rank
/// and castles on its `targets` side (kingside if true). Horizon chooses the moves of
/// `engine_color` (castling too, limited by `searchmoves`), and the test plays the other
/// side's castling itself, as a GUI would send it. Returns the castling moves played.
fn chess960_game(fen: &str, engine_white: bool, targets: [bool; 2]) -> Vec<String> {
    use horizon::{CastleSide, Color, Piece};
    let mut e = Engine::start();
    e.send("setoption name UCI_Chess960 value true");
    // The scripted games below keep both castling rooks alive with the classical evaluation's
    // choices at depth 2; with another evaluation a rook may be taken before castling. What is
    // tested is castling notation over UCI, which does not depend on the evaluation.
    e.send("setoption name UseNNUE value false");
    let mut b = Board::from_fen(fen).unwrap();
    b.set_chess960(true);
    let mut moves: Vec<String> = Vec::new();
    let mut castled = [false; 2];
    for _ in 0..120 {
        if castled == [true; 2] {
            break;
        }
        let legal: Vec<horizon::Move> = b.legal_moves().iter().copied().collect();
        assert!(!legal.is_empty(), "game over before castling: {}", b.to_fen());
        let us = b.side_to_move();
        let ci = us.index();
        let kingside = targets[ci];
        let side = if kingside { CastleSide::King } else { CastleSide::Queen };
        let engine_moves = (us == Color::White) == engine_white;
        let castle = legal.iter().copied().find(|m| m.is_castle() && m.castle_side() == side);
        let candidates: Vec<horizon::Move> = if castled[ci] {
            legal.clone()
        } else if let Some(c) = castle {
            vec![c]
        } else {
            let king = b.king_sq(us);
            let rook = b.castle_rook(us, side).unwrap_or_else(|| panic!("castling right lost: {}", b.to_fen()));
            let span = castle_span(king, rook, kingside);
            let keep = |m: &horizon::Move| m.from() != king && m.from() != rook && !m.is_castle();
            let blockers: Vec<horizon::Move> = legal
                .iter()
                .copied()
                .filter(|m| keep(m) && span.contains(&m.from()) && !span.contains(&m.to()))
                .collect();
            let pawns: Vec<horizon::Move> =
                legal.iter().copied().filter(|m| keep(m) && b.piece_on(m.from()) == Some(Piece::Pawn)).collect();
            let others: Vec<horizon::Move> = legal.iter().copied().filter(keep).collect();
            [blockers, pawns, others, legal.clone()].into_iter().find(|v| !v.is_empty()).unwrap()
        };
        let mv = if engine_moves || candidates.len() > 1 || !candidates[0].is_castle() {
            // Horizon picks (from the candidates), and its move must be legal.
            let list: Vec<String> = candidates.iter().map(|m| m.uci(true).to_string()).collect();
            e.send(&format!("position fen {fen} moves {}", moves.join(" ")));
            e.send(&format!("go depth 2 searchmoves {}", list.join(" ")));
            let (_, best) = e.bestmove(Duration::from_secs(10));
            let s = best.split_whitespace().nth(1).unwrap().to_string();
            let m = b.parse_uci_move(&s).unwrap_or_else(|err| panic!("illegal {s} in {}: {err}", b.to_fen()));
            assert!(list.contains(&s), "{s} not among searchmoves {list:?}");
            m
        } else {
            // The GUI side castles on its own.
            candidates[0]
        };
        let text = mv.uci(true).to_string();
        if mv.is_castle() {
            // King takes rook: the move's target is the castling rook's square.
            assert_eq!(b.piece_on(mv.to()), Some(Piece::Rook), "{text} is not king-takes-rook");
            castled[ci] = true;
        }
        b.make(mv);
        moves.push(text);
    }
    assert_eq!(castled, [true; 2], "not both castled in {fen}: {}", moves.join(" "));
    // Horizon read every move, castling included, exactly as the test played it.
    e.send(&format!("position fen {fen} moves {}", moves.join(" ")));
    assert_eq!(e.fen(), b.to_fen());
    // And it plays on from there.
    e.send("go depth 3");
    let (_, best) = e.bestmove(Duration::from_secs(10));
    assert!(b.parse_uci_move(best.split_whitespace().nth(1).unwrap()).is_ok(), "{best}");
    let mut played = Vec::new();
    let mut replay = Board::from_fen(fen).unwrap();
    replay.set_chess960(true);
    for m in &moves {
        let mv = replay.parse_uci_move(m).unwrap();
        if mv.is_castle() {
            played.push(format!(
                "{:?} {}",
                replay.side_to_move(),
                if mv.castle_side() == CastleSide::King { "O-O" } else { "O-O-O" }
            ));
        }
        replay.make(mv);
    }
    played
}

/// Chess960 games where both sides castle, each castling once written by Horizon and once
/// read from the GUI, on both wings.
#[test]
fn chess960_games_castle_both_ways() {
    let starts = [
        "qnrbkrbn/pppppppp/8/8/8/8/PPPPPPPP/QNRBKRBN w FCfc - 0 1",
        "rkrnbqnb/pppppppp/8/8/8/8/PPPPPPPP/RKRNBQNB w CAca - 0 1",
    ];
    for fen in starts {
        for engine_white in [true, false] {
            for white_kingside in [true, false] {
                let played = chess960_game(fen, engine_white, [white_kingside, !white_kingside]);
                assert_eq!(played.len(), 2, "{fen}: {played:?}");
            }
        }
    }
}
