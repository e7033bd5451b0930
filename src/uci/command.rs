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
}

impl GoParams {
    /// The clock of the side to move (`white` = white to move).
    pub fn clock(&self, white: bool) -> Clock {
        let (time, inc) = if white { (self.wtime, self.winc) } else { (self.btime, self.binc) };
        // A GUI that sends only the other side's clock still gets a timed search.
        let time = time.or(if white { self.btime } else { self.wtime });
        Clock { time_ms: time, inc_ms: inc, movestogo: self.movestogo, movetime_ms: self.movetime }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    Uci,
    IsReady,
    UciNewGame,
    /// `fen` is None for startpos.
    Position { fen: Option<String>, moves: Vec<String> },
    Go(GoParams),
    Stop,
    PonderHit,
    Quit,
    SetOption { name: String, value: Option<String> },
    Debug,
    /// Non-standard: print the board.
    Display,
    /// Non-standard: print the static evaluation.
    Eval,
    /// Non-standard: run the bench.
    Bench(Option<i32>),
    Empty,
}

fn num<T: std::str::FromStr>(tok: Option<&&str>, what: &str) -> Result<T, CommandError> {
    let t = tok.ok_or_else(|| CommandError::MissingValue(what.to_string()))?;
    t.parse().map_err(|_| CommandError::BadNumber(what.to_string(), t.to_string()))
}

/// Negative clock values (seen from some GUIs when flagging) count as zero.
fn time_ms(tok: Option<&&str>, what: &str) -> Result<u64, CommandError> {
    let v: i64 = num(tok, what)?;
    Ok(v.max(0) as u64)
}

fn parse_go(toks: &[&str]) -> Result<GoParams, CommandError> {
    let mut g = GoParams::default();
    let mut i = 0;
    while i < toks.len() {
        let t = toks[i];
        let next = toks.get(i + 1);
        match t {
            "wtime" => g.wtime = Some(time_ms(next, t)?),
            "btime" => g.btime = Some(time_ms(next, t)?),
            "winc" => g.winc = time_ms(next, t)?,
            "binc" => g.binc = time_ms(next, t)?,
            "movestogo" => g.movestogo = Some(num(next, t)?),
            "depth" => g.depth = Some(num(next, t)?),
            "nodes" => g.nodes = Some(num(next, t)?),
            "movetime" => g.movetime = Some(time_ms(next, t)?),
            "mate" => g.mate = Some(num(next, t)?),
            "perft" => g.perft = Some(num(next, t)?),
            "infinite" => {
                g.infinite = true;
                i += 1;
                continue;
            }
            "ponder" => {
                g.ponder = true;
                i += 1;
                continue;
            }
            "searchmoves" => {
                i += 1;
                while i < toks.len() && !is_go_keyword(toks[i]) {
                    g.searchmoves.push(toks[i].to_string());
                    i += 1;
                }
                continue;
            }
            other => return Err(CommandError::UnknownGoParameter(other.to_string())),
        }
        i += 2;
    }
    Ok(g)
}

fn is_go_keyword(t: &str) -> bool {
    matches!(
        t,
        "wtime" | "btime" | "winc" | "binc" | "movestogo" | "depth" | "nodes" | "movetime" | "mate"
            | "infinite" | "ponder" | "searchmoves" | "perft"
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
            "bench" => Command::Bench(match rest.first() {
                Some(d) => Some(d.parse().map_err(|_| CommandError::BadBenchDepth(d.to_string()))?),
                None => None,
            }),
            "go" => Command::Go(parse_go(rest)?),
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
