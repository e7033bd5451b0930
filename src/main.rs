//! The `horizon` binary. No arguments: the UCI loop; otherwise a subcommand
//! (`horizon help` lists them; see `horizon::commands`).

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code = if args.is_empty() {
        horizon::uci::run();
        0
    } else {
        horizon::commands::run(&args)
    };
    std::process::exit(code);
}
