//! Command-line dispatch. No arguments: the UCI loop.

use horizon::{cli, commands};

const HELP: &str = "usage: horizon [command]
  (no command)                     speak UCI on stdin/stdout
  perft <depth> [<fen>] [<moves>]  per-move counts and total [--no-bulk] [--threads N] [--hash MB] [--json]
  perft-suite <file.epd>           check an EPD perft suite [--max-depth D] [--max-nodes N] [--json]
  perft-diff <depth> [<fen>] [<moves>] (--uci \"<cmd>\" | --script \"<cmd>\")
                                   find where another program's perft differs [--all] [--timeout S]
  bench [depth] [threads] [hash]   fixed search benchmark: '<nodes> nodes <nps> nps' (threads/hash: scaling run)
                                   [--nnue | --evalfile FILE]: evaluate with the embedded or a given network
  see \"<fen>\" <move>               static exchange evaluation of a move
  epd <file>                       solve a bm/am test suite [--movetime ms] [--depth D]
  datagen --out FILE --games N     self-play positions for tuning [--threads T] [--nodes N] [--seed S]
                                   [--book FILE] [--random-plies K] [--hash MB] [--append | --force]

  tb <fen> --path DIR              Syzygy tablebase probe: WDL, DTZ and the moves ranked by DTZ
  tune <data>                      fit the evaluation weights to self-play data, write them as
                                   Rust source [--epochs N] [--lambda L] [--lr X] [--out FILE.rs]
                                   [--limit N] [--batch N] [--threads N] [--seed S] [--holdout F]
  \"genfens N seed S book <None|FILE> [extra]\" quit
                                   N opening FENs for OpenBench DATAGEN ('info string genfens <FEN>')
  pgn-convert <games.pgn>... --out FILE
                                   training positions from fastchess PGNs [--min-ply K] [--append | --force]";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code = match args.first().map(String::as_str) {
        None => {
            horizon::uci::run();
            0
        }
        Some(_) if commands::genfens::is_genfens(&args) => commands::genfens::command(&args),
        Some("perft") => cli::perft_command(&args[1..]),
        Some("perft-suite") => cli::perft_suite_command(&args[1..]),
        Some("perft-diff") => horizon::perft::diff::command(&args[1..]),
        Some("bench") => cli::bench_command(&args[1..]),
        Some("see") => cli::see_command(&args[1..]),
        Some("epd") => cli::epd_command(&args[1..]),
        Some("datagen") => horizon::datagen::command(&args[1..]),
        Some("tune") => cli::tune_command(&args[1..]),
        Some("pgn-convert") => commands::pgn_convert::command(&args[1..]),
        Some("tb") => commands::tb::command(&args[1..]),
        Some("help" | "--help" | "-h") => {
            cli::emit(&format!("{HELP}\n"));
            0
        }
        Some(other) => {
            eprintln!("error: unknown command '{other}' (try 'horizon help')");
            cli::EXIT_USAGE
        }
    };
    std::process::exit(code);
}
