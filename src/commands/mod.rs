//! Command-line front ends of subcommands: each reads its arguments, calls its library
//! module and returns the process exit code (0 ok, 2 bad input, with a one-line
//! `error: …` on stderr).

pub mod convert;
pub mod genfens;
pub mod pgn_convert;
pub mod tb;
pub mod train;
