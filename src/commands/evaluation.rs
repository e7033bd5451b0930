//! `--eval classical|nnue` and `--evalfile FILE`: which evaluation a command's searches use
//! (bench, epd, datagen). Without either, the engine's default ([`USE_NNUE_BY_DEFAULT`], the
//! default of the UCI option `UseNNUE`); `--evalfile` alone means the network in that file.

use super::args::{ArgError, Args};
use super::subcommand::Failure;
use crate::eval::nnue::{default_network, Network};
use crate::eval::USE_NNUE_BY_DEFAULT;
use std::sync::Arc;

/// The options this module reads; add them to the command's `Args::parse` list.
pub const FLAGS: [&str; 2] = ["--eval", "--evalfile"];

/// The network the command's searches evaluate with, or `None` for the classical evaluation.
/// A bad `--eval` value, `--eval classical` with `--evalfile`, and a network file that
/// cannot be read are bad input.
pub fn choose(a: &Args) -> Result<Option<Arc<Network>>, Failure> {
    let file = a.value("--evalfile");
    let nnue = match a.value("--eval") {
        None => USE_NNUE_BY_DEFAULT || file.is_some(),
        Some("nnue") => true,
        Some("classical") if file.is_some() => {
            return Err(ArgError::Conflict("--eval classical".into(), "--evalfile".into()).into())
        }
        Some("classical") => false,
        Some(v) => return Err(Failure::Input(format!("--eval must be 'classical' or 'nnue', got '{v}'"))),
    };
    Ok(match (nnue, file) {
        (false, _) => None,
        (true, None) => Some(default_network()),
        (true, Some(path)) => Some(Arc::from(Network::from_file(path).map_err(Failure::input)?)),
    })
}

/// The evaluation's name in summaries: `nnue` or `classical`.
pub fn name(network: &Option<Arc<Network>>) -> &'static str {
    if network.is_some() {
        "nnue"
    } else {
        "classical"
    }
}
