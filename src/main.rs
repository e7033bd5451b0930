//! Command-line dispatch. No arguments: the UCI loop.

use horizon::cli;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code = match args.first().map(String::as_str) {
        Some("perft") => cli::perft_command(&args[1..]),
        Some("perft-suite") => cli::perft_suite_command(&args[1..]),
        Some(other) => {
            eprintln!("error: unknown command '{other}' (try: perft, perft-suite)");
            cli::EXIT_USAGE
        }
        None => 0,
    };
    std::process::exit(code);
}
