//! `horizon perft-diff <depth> [<fen>] [<moves>] (--uci "<cmd>" | --script "<cmd>") [--all]
//! [--timeout S] [--threads N] [--hash MB]`: finds where another program's perft differs from
//! Horizon's (the hunt itself is `crate::perft::diff`).
//!
//! Exit code 0 (no difference), 1 (a difference, reported on stdout) or 2 (one line on
//! stderr: bad arguments, or the other program could not be started, exited, hung or printed
//! something unreadable).

use super::args::{self, ArgError, Args};
use super::perft;
use super::subcommand::{Exit, Failure, Outcome, Subcommand};
use crate::board::{Board, START_FEN};
use crate::perft::diff::{run as diff, Config, Peer, ScriptPeer, UciPeer};
use std::time::Duration;

pub const COMMAND: Subcommand = Subcommand {
    name: "perft-diff",
    help: "  perft-diff <depth> [<fen>] [<moves>] (--uci \"<cmd>\" | --script \"<cmd>\")\n                                   find where another program's perft differs [--all] [--timeout S]\n                                   [--threads N] [--hash MB]",
    run,
    claims: None,
};

const USAGE: &str =
    "usage: horizon perft-diff <depth> [<fen>] [<moves>] (--uci \"<command>\" | --script \"<command>\") \
                     [--all] [--timeout S] [--threads N] [--hash MB]";
/// Seconds the other program gets per answer unless `--timeout` says otherwise.
pub const DEFAULT_TIMEOUT_SECS: f64 = 300.0;
/// The longest `--timeout`, in seconds.
const MAX_TIMEOUT_SECS: f64 = 1e6;
/// The shortest `--timeout`, in seconds.
const MIN_TIMEOUT_SECS: f64 = 0.001;

fn run(argv: &[String]) -> Outcome {
    let mut valued = vec!["--uci", "--script", "--timeout"];
    valued.extend(perft::VALUE_FLAGS);
    let a = Args::parse(argv, &valued, &["--all"])?;
    let pos = a.positional(1, 3, USAGE)?;
    let (uci, script) = (a.value("--uci"), a.value("--script"));
    if uci.is_some() == script.is_some() {
        return Err(ArgError::Usage(USAGE).into());
    }
    let timeout = a.real("--timeout", MIN_TIMEOUT_SECS..=MAX_TIMEOUT_SECS)?.unwrap_or(DEFAULT_TIMEOUT_SECS);
    let perft = perft::options(&a)?;
    let depth = args::number("depth", pos[0], 1..=64)?;
    let fen = pos.get(1).copied().filter(|f| !f.trim().is_empty()).unwrap_or(START_FEN).to_string();
    let mut board = Board::from_fen(&fen).map_err(Failure::input)?;
    // The moves are parsed here rather than by `args::position`: how the user wrote castling
    // is the first guess at the other program's notation.
    let (mut moves, mut castling_king_takes_rook) = (Vec::new(), None);
    for tok in pos.get(2).copied().unwrap_or("").split_whitespace() {
        let m = board.parse_uci_move(tok).map_err(|e| Failure::Input(format!("{e} (position {})", board.to_fen())))?;
        if m.is_castle() && m.uci(true).to_string() != m.uci(false).to_string() {
            castling_king_takes_rook = Some(m.uci(true).to_string() == tok);
        }
        board.make(m);
        moves.push(m);
    }
    let timeout = Duration::from_secs_f64(timeout);
    let mut peer: Box<dyn Peer> = match (uci, script) {
        (Some(cmd), _) => Box::new(UciPeer::start(cmd, timeout).map_err(Failure::input)?),
        (_, Some(cmd)) => Box::new(ScriptPeer::new(cmd, timeout).map_err(Failure::input)?),
        _ => unreachable!("exactly one of --uci and --script, checked above"),
    };
    let cfg = Config { depth, fen, moves, all: a.has("--all"), castling_king_takes_rook, perft };
    let stdout = std::io::stdout();
    match diff(&cfg, peer.as_mut(), &mut stdout.lock()) {
        Ok(findings) if findings.is_empty() => Ok(Exit::Ok),
        Ok(_) => Ok(Exit::Found),
        Err(e) => Err(Failure::input(e)),
    }
}
