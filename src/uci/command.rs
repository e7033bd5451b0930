//! Parsing of UCI input lines into commands. Parsing never fails hard: a malformed line
//! becomes a [`CommandError`] for `info string error: …`.

use crate::error::CommandError;
use crate::search::time::Clock;

/// `go` parameters as given (moves still in text form).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GoParams {
    pub wtime: Option<u64>,
    pub btime: Option<u64>,
    pub winc: u64,
    pub binc: u64,
    pub movestogo: Option<u64>,
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    pub movetime: Option<u64>,
    pub mate: Option<i32>,
    pub infinite: bool,
    pub ponder: bool,
    pub searchmoves: Vec<String>,
    pub perft: Option<u32>,
    /// What could not be read and was left out (or adjusted), for one `info string` line.
    pub notes: Vec<String>,
}

impl GoParams {
    /// The clock of the side to move (`white` = white to move).
    pub fn clock(&self, white: bool) -> Clock {
        let (time, inc) = if white { (self.wtime, self.winc) } else { (self.btime, self.binc) };
        // A GUI that sends only the other side's clock still gets a timed search.
        let time = time.or(if white { self.btime } else { self.wtime });
        Clock { time_ms: time, inc_ms: inc, movestogo: self.movestogo, movetime_ms: self.movetime }
    }

    /// Does this `go` set any limit (or ask for perft)? A bare `go` sets none on purpose;
    /// a `go` whose limits were all unreadable gets a fallback instead of running forever.
    pub fn has_limit(&self) -> bool {
        self.wtime.is_some()
            || self.btime.is_some()
            || self.depth.is_some()
            || self.nodes.is_some()
            || self.movetime.is_some()
            || self.mate.is_some()
            || self.infinite
            || self.ponder
            || self.perft.is_some()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    Uci,
    IsReady,
    UciNewGame,
    /// `fen` is None for startpos.
    Position {
        fen: Option<String>,
        moves: Vec<String>,
    },
    Go(GoParams),
    Stop,
    PonderHit,
    Quit,
    SetOption {
        name: String,
        value: Option<String>,
    },
    Debug,
    /// Non-standard: print the board.
    Display,
    /// Non-standard: print the static evaluation.
    Eval,
    /// Non-standard: run the bench (`bench [depth] [threads] [hash]`).
    Bench {
        depth: Option<i32>,
        threads: Option<usize>,
        hash: Option<usize>,
    },
    /// Non-standard: opening positions for OpenBench (`genfens N seed S book B [extra]`).
    Genfens(crate::data::genfens::Request),
    Empty,
}

/// The number after a `go` keyword with its text as given (for a note), or a note saying why
/// there is none usable. A keyword that follows directly counts as a missing value and is not
/// consumed.
fn go_value<'a>(toks: &[&'a str], i: usize) -> (Result<(i64, &'a str), String>, usize) {
    let key = toks[i];
    match toks.get(i + 1) {
        None => (Err(format!("{key} (no value)")), 1),
        Some(t) if is_go_keyword(t) => (Err(format!("{key} (no value)")), 1),
        Some(t) => match super::options::saturating_integer(t) {
            Some(v) => (Ok((v, t)), 2),
            None => (Err(format!("{key} {t} (not a number)")), 2),
        },
    }
}

/// Parses `go`. Nothing here is fatal: an unreadable part is left out and described in
/// `notes`, so the search still runs with what could be read (a GUI that sent it waits
/// for a `bestmove`). Negative clock values, which some GUIs send after a flag fall,
/// count as zero and are noted too.
fn parse_go(toks: &[&str]) -> GoParams {
    let mut g = GoParams::default();
    let mut i = 0;
    while i < toks.len() {
        let t = toks[i];
        match t {
            "infinite" => {
                g.infinite = true;
                i += 1;
            }
            "ponder" => {
                g.ponder = true;
                i += 1;
            }
            "searchmoves" => {
                i += 1;
                while i < toks.len() && !is_go_keyword(toks[i]) {
                    g.searchmoves.push(toks[i].to_string());
                    i += 1;
                }
            }
            "wtime" | "btime" | "winc" | "binc" | "movetime" => {
                let (v, used) = go_value(toks, i);
                i += used;
                let ms = match v {
                    Ok((v, text)) if v < 0 => {
                        g.notes.push(format!("{t} {text} (read as 0)"));
                        0
                    }
                    Ok((v, _)) => v as u64,
                    Err(note) => {
                        g.notes.push(note);
                        continue;
                    }
                };
                match t {
                    "wtime" => g.wtime = Some(ms),
                    "btime" => g.btime = Some(ms),
                    "winc" => g.winc = ms,
                    "binc" => g.binc = ms,
                    _ => g.movetime = Some(ms),
                }
            }
            "depth" | "mate" | "perft" => {
                let (v, used) = go_value(toks, i);
                i += used;
                match v {
                    Ok((v, text)) if t == "perft" && !(0..=MAX_GO_PERFT).contains(&v) => {
                        g.notes.push(format!("perft {text} (out of range 0 to {MAX_GO_PERFT})"));
                    }
                    Ok((v, _)) if t == "perft" => g.perft = Some(v as u32),
                    Ok((v, text)) if v < 1 => g.notes.push(format!("{t} {text} (must be at least 1)")),
                    Ok((v, _)) if t == "depth" => g.depth = Some(v.min(i32::MAX as i64) as i32),
                    Ok((v, _)) => g.mate = Some(v.min(i32::MAX as i64) as i32),
                    Err(note) => g.notes.push(note),
                }
            }
            "nodes" | "movestogo" => {
                let (v, used) = go_value(toks, i);
                i += used;
                match v {
                    Ok((v, text)) if v < 0 && t == "nodes" => {
                        g.notes.push(format!("nodes {text} (must not be negative)"))
                    }
                    Ok((v, _)) if t == "nodes" => g.nodes = Some(v as u64),
                    Ok((v, text)) if v < 1 => g.notes.push(format!("movestogo {text} (must be at least 1)")),
                    Ok((v, _)) => g.movestogo = Some(v as u64),
                    Err(note) => g.notes.push(note),
                }
            }
            other => {
                g.notes.push(format!("{other} (unknown)"));
                i += 1;
            }
        }
    }
    g
}

/// Deepest `go perft` accepted (it can always be stopped, but beyond this it would not end).
pub const MAX_GO_PERFT: i64 = 20;

fn is_go_keyword(t: &str) -> bool {
    matches!(
        t,
        "wtime"
            | "btime"
            | "winc"
            | "binc"
            | "movestogo"
            | "depth"
            | "nodes"
            | "movetime"
            | "mate"
            | "infinite"
            | "ponder"
            | "searchmoves"
            | "perft"
    )
}

impl std::str::FromStr for Command {
    type Err = CommandError;

    fn from_str(line: &str) -> Result<Command, CommandError> {
        let toks: Vec<&str> = line.split_whitespace().collect();
        let Some(&head) = toks.first() else { return Ok(Command::Empty) };
        let rest = &toks[1..];
        Ok(match head {
            "uci" => Command::Uci,
            "isready" => Command::IsReady,
            "ucinewgame" => Command::UciNewGame,
            "stop" => Command::Stop,
            "ponderhit" => Command::PonderHit,
            "quit" => Command::Quit,
            "debug" => Command::Debug,
            "d" => Command::Display,
            "eval" => Command::Eval,
            "bench" => {
                let depth = match rest.first() {
                    Some(d) => Some(d.parse().map_err(|_| CommandError::BadBenchDepth(d.to_string()))?),
                    None => None,
                };
                let number = |i: usize, what: &str, max: usize| -> Result<Option<usize>, CommandError> {
                    match rest.get(i) {
                        None => Ok(None),
                        Some(v) => match v.parse::<usize>() {
                            Ok(n) if (1..=max).contains(&n) => Ok(Some(n)),
                            _ => Err(CommandError::BadNumber(what.to_string(), v.to_string())),
                        },
                    }
                };
                let threads = number(1, "bench threads", crate::search::threads::MAX_THREADS)?;
                let hash = number(2, "bench hash", super::options::HASH_MAX)?;
                Command::Bench { depth, threads, hash }
            }
            "go" => Command::Go(parse_go(rest)),
            "genfens" => Command::Genfens(line.parse().map_err(|e| CommandError::Genfens(format!("{e}")))?),
            "position" => {
                let mi = rest.iter().position(|&t| t == "moves");
                let (spec, moves) = match mi {
                    Some(i) => (&rest[..i], &rest[i + 1..]),
                    None => (rest, &rest[rest.len()..]),
                };
                let fen = match spec.first() {
                    Some(&"startpos") if spec.len() == 1 => None,
                    Some(&"fen") if spec.len() > 1 => Some(spec[1..].join(" ")),
                    _ => return Err(CommandError::PositionUsage),
                };
                Command::Position { fen, moves: moves.iter().map(|s| s.to_string()).collect() }
            }
            "setoption" => {
                // setoption name <words...> [value <words...>]
                if rest.first() != Some(&"name") || rest.len() < 2 {
                    return Err(CommandError::SetOptionUsage);
                }
                let vi = rest.iter().position(|&t| t == "value");
                let (name, value) = match vi {
                    Some(i) => (rest[1..i].join(" "), Some(rest[i + 1..].join(" "))),
                    None => (rest[1..].join(" "), None),
                };
                if name.is_empty() {
                    return Err(CommandError::EmptyOptionName);
                }
                Command::SetOption { name, value }
            }
            other => return Err(CommandError::UnknownCommand(other.to_string())),
        })
    }
}
