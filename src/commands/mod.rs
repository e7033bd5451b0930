//! The command line: every subcommand other than the UCI loop (`horizon perft ...`,
//! `horizon bench`, ...). `src/main.rs` hands the arguments to [`run`].
//!
//! # Layout
//! - One file per subcommand ([`perft`], [`perft_suite`], [`perft_diff`], [`bench`](mod@bench),
//!   [`see`], [`epd`], [`datagen`], [`tune`], [`tb`], [`genfens`], [`pgn_convert`], [`convert`],
//!   [`train`], [`net_loss`], [`wdl_fit`], [`tunables`]). Each reads its arguments, calls the
//!   library with typed values (e.g. `crate::data::datagen::Config`), and turns the library's
//!   typed error into a [`Failure`]. Nothing outside this folder imports it: libraries never
//!   depend on the command line.
//! - [`args`]: the one argument reader. Options, range-checked numbers, one message shape.
//! - [`subcommand`]: the contract: the table entry, [`Exit`] / [`Failure`] and the exit codes
//!   (0 ok, 1 a difference or failure found, 2 bad input); a failure is one line on stderr.
//! - [`output`], [`progress`], [`json`]: stdout that survives a closed pipe, progress lines
//!   on stderr, JSON strings for `--json`.
//!
//! # Adding a subcommand
//! 1. Write `src/commands/<name>.rs` with a `pub const COMMAND: Subcommand` (its name, its
//!    lines of `horizon help`, and `run`) and `fn run(args: &[String]) -> Outcome`, reading
//!    its arguments with [`args::Args`] and its numbers with `Args::number` / `Args::real`
//!    against a range (shared ranges such as [`args::THREADS`] live in `args`).
//! 2. Add `pub mod <name>;` below and one line `<name>::COMMAND,` to [`COMMANDS`]; the
//!    dispatch, `horizon help` and `<name> --help` follow from the table. (`claims` is
//!    `None` unless the command line does not start with the name as an argument of its own,
//!    as genfens'.)
//! 3. Put the work itself in a library module (`src/<name>/`) that takes a typed `Config`
//!    and returns a typed error; map that error to `Failure::Input` (bad input, exit 2) or
//!    `Failure::Failed` (exit 1) in the command file.

pub mod args;
pub mod bench;
pub mod convert;
pub mod datagen;
pub mod epd;
pub mod evaluation;
pub mod genfens;
pub mod json;
pub mod net_loss;
pub mod output;
pub mod perft;
pub mod perft_diff;
pub mod perft_suite;
pub mod pgn_convert;
pub mod progress;
pub mod see;
pub mod subcommand;
pub mod tb;
pub mod train;
pub mod tunables;
pub mod tune;
pub mod wdl_fit;

pub use subcommand::{Exit, Failure, Outcome, Subcommand, EXIT_BAD_INPUT, EXIT_FOUND, EXIT_OK};

/// Every subcommand, in the order `horizon help` lists them.
pub const COMMANDS: &[Subcommand] = &[
    perft::COMMAND,
    perft_suite::COMMAND,
    perft_diff::COMMAND,
    bench::COMMAND,
    see::COMMAND,
    epd::COMMAND,
    datagen::COMMAND,
    tune::COMMAND,
    tb::COMMAND,
    genfens::COMMAND,
    pgn_convert::COMMAND,
    convert::COMMAND,
    train::COMMAND,
    net_loss::COMMAND,
    wdl_fit::COMMAND,
    tunables::COMMAND,
];

/// The text of `horizon help`.
pub fn help() -> String {
    let mut s =
        String::from("usage: horizon [command]\n  (no command)                     speak UCI on stdin/stdout\n  --version                        name, version, commit and SIMD path\n");
    for c in COMMANDS {
        s.push_str(c.help);
        s.push('\n');
    }
    s
}

/// The text of `horizon <command> --help` and `horizon help <command>`: the usage line with
/// the command's own lines of `horizon help`.
pub fn command_help(c: &Subcommand) -> String {
    format!("usage:\n{}\n", c.help)
}

/// `--help` or `-h`. It asks for help only in place of the command word or right after it,
/// so that a FEN, a move or a program's command line further on is never taken for it.
fn is_help_word(arg: &str) -> bool {
    matches!(arg, "--help" | "-h")
}

/// The one-line refusal of a command word that is not in [`COMMANDS`].
fn unknown_command(name: &str) -> i32 {
    eprintln!("error: unknown command '{name}' (try 'horizon help')");
    EXIT_BAD_INPUT
}

/// The text of `horizon --version`: name, version, commit, and the SIMD path the network
/// evaluation uses on this CPU.
pub fn version() -> String {
    format!("{} (network SIMD: {})\n", crate::ENGINE_NAME, crate::eval::nnue::simd::backend().name())
}

/// `horizon help [<command>]`: the whole list, or one command's lines; an unknown topic is
/// refused like an unknown command.
fn show_help(topic: Option<&str>) -> i32 {
    let text = match topic {
        None => help(),
        Some(t) => match find(t) {
            Some(c) => command_help(c),
            None => return unknown_command(t),
        },
    };
    output::emit(&text);
    EXIT_OK
}

/// The subcommand whose word is `name`.
fn find(name: &str) -> Option<&'static Subcommand> {
    COMMANDS.iter().find(|c| c.name == name)
}

/// Runs the subcommand `args[0]` with the rest of `args`; returns the exit code.
pub fn run(args: &[String]) -> i32 {
    let Some(name) = args.first() else {
        return show_help(None);
    };
    if is_help_word(name) || name == "help" {
        return show_help(args.get(1).map(String::as_str));
    }
    if matches!(name.as_str(), "--version" | "-V" | "version") {
        output::emit(&version());
        return EXIT_OK;
    }
    let named = find(name);
    if named.is_some() && args.get(1).is_some_and(|a| is_help_word(a)) {
        return show_help(Some(name));
    }
    if let Some(c) = COMMANDS.iter().find(|c| c.claims.is_some_and(|claims| claims(args))) {
        return subcommand::exit_code((c.run)(args));
    }
    match named {
        Some(c) => subcommand::exit_code((c.run)(&args[1..])),
        None => unknown_command(name),
    }
}
