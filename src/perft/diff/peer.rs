//! The other side of a `perft-diff`: a program asked for per-move perft counts, either a UCI
//! engine (`position fen … moves …` + `go perft N`, answered in Stockfish's divide format)
//! or a perftree-style script (run as `<command> <depth> "<fen>" "<moves>"`, printing
//! `<move> <count>` lines, an empty line and the total).
//!
//! Every read has a deadline: a reader thread turns the program's stdout into a channel of
//! lines, so a program that hangs is stopped after `timeout` instead of hanging us, and one
//! that exits early or prints garbage is reported with what it printed.

use super::error::DiffError;
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Per-move counts as the other program printed them (moves lower-cased, not yet checked).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Divide {
    pub moves: Vec<(String, u64)>,
    /// The total it printed (`Nodes searched: N` or the script's last line).
    pub total: u64,
}

/// A program that answers perft questions.
pub trait Peer {
    /// A short name for reports (the program's file name).
    fn name(&self) -> &str;
    /// Per-move counts at `depth` after `moves` (UCI notation) from `fen`. `chess960` says
    /// whether the position is a Chess960 one (a UCI engine is switched to `UCI_Chess960`).
    fn divide(&mut self, fen: &str, moves: &[String], depth: u32, chess960: bool) -> Result<Divide, DiffError>;
}

/// How much of the program's recent output is kept for error messages.
const TAIL_LINES: usize = 6;
const STDERR_KEEP: usize = 2048;
/// How long a UCI engine gets to exit after `quit` before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(500);
/// Polling step while waiting for a process to exit.
const POLL: Duration = Duration::from_millis(5);
/// How long, after the program exits, we wait for the rest of its stderr.
const STDERR_SETTLE: Duration = Duration::from_millis(500);

/// Splits a command line into words like a shell would for simple cases: whitespace
/// separates words, single quotes keep everything literally, double quotes keep spaces and
/// allow `\"` and `\\`, and a backslash outside quotes escapes the next character. No
/// variables, globs or pipes.
pub fn split_command(cmd: &str) -> Result<Vec<String>, DiffError> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = cmd.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err(DiffError::Unquoted(cmd.to_string())),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err(DiffError::Unquoted(cmd.to_string())),
                        },
                        Some(c) => word.push(c),
                        None => return Err(DiffError::Unquoted(cmd.to_string())),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(c) = chars.next() {
                    word.push(c);
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    if words.is_empty() {
        return Err(DiffError::NoCommand);
    }
    Ok(words)
}

/// The file name of a command's program, for messages.
fn program_name(words: &[String]) -> String {
    let first = &words[0];
    std::path::Path::new(first).file_name().map_or(first.clone(), |n| n.to_string_lossy().into_owned())
}

/// Whether `tok` looks like a move in UCI notation (`e2e4`, `e7e8q`).
fn is_uci_move(tok: &str) -> bool {
    let b = tok.as_bytes();
    let square = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    (b.len() == 4 || (b.len() == 5 && b"nbrq".contains(&b[4]))) && square(b[0], b[1]) && square(b[2], b[3])
}

/// One divide line, `e2e4 20` or Stockfish's `e2e4: 20`, as (lower-cased move, count).
pub fn parse_divide_line(line: &str) -> Option<(String, u64)> {
    let mut it = line.split_whitespace();
    let (mv, count) = (it.next()?, it.next()?);
    if it.next().is_some() {
        return None;
    }
    let mv = mv.strip_suffix(':').unwrap_or(mv).to_ascii_lowercase();
    let count = count.parse().ok()?;
    is_uci_move(&mv).then_some((mv, count))
}

/// A running program with its output read on other threads.
struct Running {
    program: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// The last lines read from stdout.
    tail: VecDeque<String>,
    /// The end of what it wrote to stderr.
    stderr: Arc<Mutex<String>>,
    /// Disconnects when the stderr reader has seen the end of the pipe.
    stderr_done: Receiver<()>,
}

impl Running {
    /// Starts `words` + `args` with stdout and stderr captured (and stdin if `input`).
    fn start(words: &[String], args: &[String], input: bool) -> Result<Running, DiffError> {
        let program = program_name(words);
        let mut child = Command::new(&words[0])
            .args(&words[1..])
            .args(args)
            .stdin(if input { Stdio::piped() } else { Stdio::null() })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| DiffError::Start { program: words[0].clone(), reason: e.to_string() })?;
        let (tx, lines) = mpsc::channel();
        let stdout = child.stdout.take().expect("stdout is piped");
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(l) = line else { break };
                if tx.send(l).is_err() {
                    break;
                }
            }
            // Dropping `tx` tells the reader: end of output.
        });
        let stderr = Arc::new(Mutex::new(String::new()));
        let mut pipe = child.stderr.take().expect("stderr is piped");
        let keep = stderr.clone();
        let (done_tx, stderr_done) = mpsc::channel::<()>();
        std::thread::spawn(move || {
            // Dropped when the loop ends, which tells `settle_stderr` the pipe is drained.
            let _done = done_tx;
            let mut buf = [0u8; 1024];
            while let Ok(n @ 1..) = pipe.read(&mut buf) {
                let mut s = keep.lock().unwrap_or_else(|e| e.into_inner());
                s.push_str(&String::from_utf8_lossy(&buf[..n]));
                if s.len() > STDERR_KEEP {
                    let mut cut = s.len() - STDERR_KEEP;
                    while !s.is_char_boundary(cut) {
                        cut += 1;
                    }
                    s.drain(..cut);
                }
            }
        });
        let stdin = child.stdin.take();
        Ok(Running { program, child, stdin, lines, tail: VecDeque::new(), stderr, stderr_done })
    }

    /// What it printed lately, stdout then stderr.
    fn printed(&self) -> String {
        let mut s: Vec<String> = self.tail.iter().cloned().collect();
        let err = self.stderr.lock().unwrap_or_else(|e| e.into_inner());
        s.extend(err.lines().rev().take(TAIL_LINES).collect::<Vec<_>>().into_iter().rev().map(String::from));
        s.join("\n")
    }

    /// Sends one line to its stdin.
    fn send(&mut self, line: &str, request: &str) -> Result<(), DiffError> {
        let stdin = self.stdin.as_mut().expect("stdin is piped");
        if let Err(e) = writeln!(stdin, "{line}").and_then(|_| stdin.flush()) {
            // Most likely it has exited: say so if it has.
            if let Some(status) = self.wait_for_exit(Instant::now() + Duration::from_millis(100)) {
                return Err(self.exited(request, status));
            }
            return Err(DiffError::Write {
                program: self.program.clone(),
                request: request.to_string(),
                reason: e.to_string(),
            });
        }
        Ok(())
    }

    /// The next line of output; `None` at the end of its output. Past `deadline` the program
    /// is stopped and a timeout reported.
    fn read_line(&mut self, deadline: Instant, request: &str, timeout: Duration) -> Result<Option<String>, DiffError> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(l) => {
                if self.tail.len() == TAIL_LINES {
                    self.tail.pop_front();
                }
                self.tail.push_back(l.clone());
                Ok(Some(l))
            }
            Err(RecvTimeoutError::Disconnected) => Ok(None),
            Err(RecvTimeoutError::Timeout) => {
                self.kill();
                Err(DiffError::Timeout {
                    program: self.program.clone(),
                    request: request.to_string(),
                    secs: timeout.as_secs_f64(),
                    printed: self.printed(),
                })
            }
        }
    }

    /// Its exit status, waiting for it until `deadline`.
    fn wait_for_exit(&mut self, deadline: Instant) -> Option<ExitStatus> {
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(status),
                Ok(None) if Instant::now() < deadline => std::thread::sleep(POLL),
                _ => return None,
            }
        }
    }

    /// After an exit, gives the stderr reader a moment to drain the pipe, so the report
    /// includes the program's last words. Bounded: a grandchild may keep the pipe open.
    fn settle_stderr(&self) {
        let _ = self.stderr_done.recv_timeout(STDERR_SETTLE);
    }

    /// The error for a program whose output ended before it answered `request`.
    fn exited(&mut self, request: &str, status: ExitStatus) -> DiffError {
        self.settle_stderr();
        DiffError::Exited {
            program: self.program.clone(),
            request: request.to_string(),
            status: status.to_string(),
            printed: self.printed(),
        }
    }

    /// The error after the end of output: it exited (with this status) or closed stdout.
    fn ended(&mut self, request: &str) -> DiffError {
        match self.wait_for_exit(Instant::now() + Duration::from_secs(1)) {
            Some(status) => self.exited(request, status),
            None => {
                self.kill();
                DiffError::Exited {
                    program: self.program.clone(),
                    request: request.to_string(),
                    status: "closed its output".to_string(),
                    printed: self.printed(),
                }
            }
        }
    }

    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            self.kill();
        }
    }
}

/// A UCI engine kept running for the whole comparison.
pub struct UciPeer {
    run: Running,
    timeout: Duration,
    /// The `UCI_Chess960` value last sent (none sent yet: the engine's default, off).
    chess960: bool,
}

impl UciPeer {
    /// Starts the engine and waits for `uciok` and `readyok`.
    pub fn start(command: &str, timeout: Duration) -> Result<UciPeer, DiffError> {
        let words = split_command(command)?;
        let mut peer = UciPeer { run: Running::start(&words, &[], true)?, timeout, chess960: false };
        peer.request("uci", "uciok")?;
        peer.request("isready", "readyok")?;
        Ok(peer)
    }

    /// Sends `cmd` and reads until a line equal to `answer` (other lines are ignored).
    fn request(&mut self, cmd: &str, answer: &str) -> Result<(), DiffError> {
        self.run.send(cmd, cmd)?;
        let deadline = Instant::now() + self.timeout;
        loop {
            match self.run.read_line(deadline, cmd, self.timeout)? {
                Some(l) if l.trim() == answer => return Ok(()),
                Some(_) => {}
                None => return Err(self.run.ended(cmd)),
            }
        }
    }
}

impl Peer for UciPeer {
    fn name(&self) -> &str {
        &self.run.program
    }

    fn divide(&mut self, fen: &str, moves: &[String], depth: u32, chess960: bool) -> Result<Divide, DiffError> {
        if chess960 != self.chess960 {
            let cmd = format!("setoption name UCI_Chess960 value {chess960}");
            self.run.send(&cmd, &cmd)?;
            self.request("isready", "readyok")?;
            self.chess960 = chess960;
        }
        let position = if moves.is_empty() {
            format!("position fen {fen}")
        } else {
            format!("position fen {fen} moves {}", moves.join(" "))
        };
        self.run.send(&position, &position)?;
        let go = format!("go perft {depth}");
        self.run.send(&go, &go)?;
        let deadline = Instant::now() + self.timeout;
        let mut out = Vec::new();
        loop {
            let Some(line) = self.run.read_line(deadline, &go, self.timeout)? else {
                return Err(self.run.ended(&go));
            };
            let line = line.trim();
            if line.is_empty() || line.starts_with("info") {
                continue;
            }
            if let Some(n) = line.strip_prefix("Nodes searched:") {
                let total = n.trim().parse().map_err(|_| DiffError::Garbled {
                    program: self.run.program.clone(),
                    request: go.clone(),
                    line: line.to_string(),
                })?;
                return Ok(Divide { moves: out, total });
            }
            match parse_divide_line(line) {
                Some(m) => out.push(m),
                None => {
                    return Err(DiffError::Garbled {
                        program: self.run.program.clone(),
                        request: go.clone(),
                        line: line.to_string(),
                    })
                }
            }
        }
    }
}

impl Drop for UciPeer {
    fn drop(&mut self) {
        // Ask politely, then `Running` kills it if it is still there.
        if self.run.send("quit", "quit").is_ok() {
            self.run.wait_for_exit(Instant::now() + QUIT_GRACE);
        }
    }
}

/// A perftree-style script, started once per question.
pub struct ScriptPeer {
    words: Vec<String>,
    name: String,
    timeout: Duration,
}

impl ScriptPeer {
    pub fn new(command: &str, timeout: Duration) -> Result<ScriptPeer, DiffError> {
        let words = split_command(command)?;
        let name = program_name(&words);
        Ok(ScriptPeer { words, name, timeout })
    }
}

impl Peer for ScriptPeer {
    fn name(&self) -> &str {
        &self.name
    }

    fn divide(&mut self, fen: &str, moves: &[String], depth: u32, _chess960: bool) -> Result<Divide, DiffError> {
        let moves = moves.join(" ");
        let request = format!("{} {depth} \"{fen}\" \"{moves}\"", self.words.join(" "));
        let mut run = Running::start(&self.words, &[depth.to_string(), fen.to_string(), moves], false)?;
        let deadline = Instant::now() + self.timeout;
        let mut lines = Vec::new();
        while let Some(l) = run.read_line(deadline, &request, self.timeout)? {
            lines.push(l);
        }
        match run.wait_for_exit(deadline) {
            Some(status) if status.success() => {}
            Some(status) => return Err(run.exited(&request, status)),
            None => {
                run.kill();
                return Err(DiffError::Timeout {
                    program: self.name.clone(),
                    request,
                    secs: self.timeout.as_secs_f64(),
                    printed: run.printed(),
                });
            }
        }
        parse_script_output(&self.name, &request, &lines)
    }
}

/// Reads a script's answer: `<move> <count>` lines, then the total as the last line (empty
/// lines anywhere are ignored).
pub fn parse_script_output(program: &str, request: &str, lines: &[String]) -> Result<Divide, DiffError> {
    let content: Vec<&str> = lines.iter().map(|l| l.trim()).filter(|l| !l.is_empty()).collect();
    let garbled = |line: &str| DiffError::Garbled {
        program: program.to_string(),
        request: request.to_string(),
        line: line.to_string(),
    };
    let Some((last, rest)) = content.split_last() else {
        return Err(DiffError::Incomplete {
            program: program.to_string(),
            request: request.to_string(),
            printed: String::new(),
        });
    };
    let total = match last.parse::<u64>() {
        Ok(n) => n,
        Err(_) if parse_divide_line(last).is_some() => {
            return Err(DiffError::Incomplete {
                program: program.to_string(),
                request: request.to_string(),
                printed: content[content.len().saturating_sub(3)..].join("\n"),
            })
        }
        Err(_) => return Err(garbled(last)),
    };
    let moves = rest.iter().map(|l| parse_divide_line(l).ok_or_else(|| garbled(l))).collect::<Result<_, _>>()?;
    Ok(Divide { moves, total })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        split_command(s).unwrap()
    }

    #[test]
    fn command_words() {
        assert_eq!(words("stockfish"), ["stockfish"]);
        assert_eq!(words("  ./perft.sh   --fast "), ["./perft.sh", "--fast"]);
        assert_eq!(words("sh -c 'echo a b' x"), ["sh", "-c", "echo a b", "x"]);
        assert_eq!(words(r#"run "a \"b\" c" d\ e"#), ["run", "a \"b\" c", "d e"]);
        assert_eq!(words("''"), [""]);
        assert_eq!(split_command("   "), Err(DiffError::NoCommand));
        assert!(matches!(split_command("sh -c 'oops"), Err(DiffError::Unquoted(_))));
    }

    #[test]
    fn divide_lines() {
        assert_eq!(parse_divide_line("e2e4 20"), Some(("e2e4".into(), 20)));
        assert_eq!(parse_divide_line("e7e8Q: 3"), Some(("e7e8q".into(), 3)));
        assert_eq!(parse_divide_line("e2e4 twenty"), None);
        assert_eq!(parse_divide_line("bestmove e2e4"), None);
        assert_eq!(parse_divide_line("e2e9 1"), None);
        assert_eq!(parse_divide_line("e2e4 1 2"), None);
    }

    #[test]
    fn script_output() {
        let lines = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let d = parse_script_output("p", "r", &lines(&["a2a3 1", "b2b3 1", "", "2"])).unwrap();
        assert_eq!(d, Divide { moves: vec![("a2a3".into(), 1), ("b2b3".into(), 1)], total: 2 });
        // A position without moves: just the total.
        assert_eq!(parse_script_output("p", "r", &lines(&["", "0"])).unwrap().moves, vec![]);
        assert!(matches!(parse_script_output("p", "r", &lines(&[])), Err(DiffError::Incomplete { .. })));
        assert!(matches!(parse_script_output("p", "r", &lines(&["a2a3 1"])), Err(DiffError::Incomplete { .. })));
        assert!(matches!(
            parse_script_output("p", "r", &lines(&["hello world", "", "3"])),
            Err(DiffError::Garbled { line, .. }) if line == "hello world"
        ));
    }
}
