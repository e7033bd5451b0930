//! `horizon see "<fen>" <move>`: prints the static exchange value of a move (UCI or SAN) in
//! centipawns.

use super::args::ArgError;
use super::output::say;
use super::subcommand::{Exit, Failure, Outcome, Subcommand};
use crate::board::Board;

pub const COMMAND: Subcommand = Subcommand {
    name: "see",
    help: "  see \"<fen>\" <move>               static exchange evaluation of a move",
    run,
    claims: None,
};

const USAGE: &str = "usage: horizon see \"<fen>\" <uci-move>";

fn run(argv: &[String]) -> Outcome {
    let [fen, mv] = argv else {
        return Err(ArgError::Usage(USAGE).into());
    };
    let board = Board::from_fen(fen).map_err(Failure::input)?;
    let Some(m) = board.parse_uci_move(mv).ok().or_else(|| crate::san::parse_san(&board, mv)) else {
        return Err(Failure::Input(format!("'{mv}' is not a legal move in this position")));
    };
    say!("{}", crate::see::see(&board, m));
    Ok(Exit::Ok)
}
