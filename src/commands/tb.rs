//! `horizon tb <fen> --path DIR`: probes the Syzygy tables for a position and prints its
//! WDL, its DTZ and the legal moves ranked by DTZ.

use super::args::Args;
use super::output::emit;
use super::subcommand::{Exit, Failure, Outcome, Subcommand};
use crate::board::Board;
use crate::san::to_san;
use crate::syzygy::Tablebases;

pub const COMMAND: Subcommand = Subcommand {
    name: "tb",
    help: "  tb <fen> --path DIR              Syzygy tablebase probe: WDL, DTZ and the moves ranked by DTZ\n                                   [--rule50-off]",
    run,
    claims: None,
};

const USAGE: &str = "usage: horizon tb <fen> --path DIR [--rule50-off]";

fn run(argv: &[String]) -> Outcome {
    let args = Args::parse(argv, &["--path"], &["--rule50-off"])?;
    // A FEN may come as one argument or as its six fields.
    let fen = args.positional(1, 6, USAGE)?.join(" ");
    let Some(path) = args.value("--path") else {
        return Err(Failure::Input("tb needs --path DIR (the directories holding the .rtbw/.rtbz files)".into()));
    };
    let rule50 = !args.has("--rule50-off");
    let mut board = Board::from_fen(&fen).map_err(Failure::input)?;

    // 1. Tables: problems with single files are reported and the rest is used; a path
    //    without any usable table is an error.
    let (tb, errors) = Tablebases::open(path);
    if tb.count() == 0 {
        let why = errors.first().map_or(String::new(), |e| format!(" ({e})"));
        return Err(Failure::Input(format!("no Syzygy tables found in '{path}'{why}")));
    }
    for e in &errors {
        eprintln!("error: {e}");
    }
    if board.castle_rights() != 0 {
        return Err(Failure::Input("the tables hold no positions with castling rights".into()));
    }
    let pieces = board.occupied().count() as usize;
    if pieces > tb.max_pieces() {
        return Err(Failure::Input(format!(
            "the position has {pieces} pieces; the tables found go up to {}",
            tb.max_pieces()
        )));
    }

    // 2. Probe: WDL, DTZ, the ranking.
    let wdl = tb.probe_wdl(&mut board);
    let dtz = tb.probe_dtz(&mut board);
    let ranking = tb.rank_root(&mut board, rule50);
    let late_errors = tb.take_errors();
    let Some(wdl) = wdl else {
        let why = if late_errors.is_empty() {
            "a table this position needs is missing".to_string()
        } else {
            late_errors.join("; ")
        };
        return Err(Failure::Input(format!("no result: {why}")));
    };
    for e in &late_errors {
        eprintln!("error: {e}");
    }

    let mut out = String::new();
    out.push_str(&format!("fen    {}\n", board.to_fen()));
    out.push_str(&format!("tables {}\n", tb.summary().trim_start_matches("syzygy: ")));
    out.push_str(&format!("wdl    {wdl} ({})\n", wdl.value()));
    match dtz {
        Some(d) => out.push_str(&format!("dtz    {d}\n")),
        None => out.push_str("dtz    unknown (DTZ table missing)\n"),
    }
    match ranking {
        Some(r) => {
            // The moves the engine plays among (a mate its search proves aside).
            let best = r.fastest_moves();
            out.push_str(&format!(
                "moves  ranked by {} (result for the mover; dtz from this position, in plies)\n",
                if r.by_dtz { "DTZ" } else { "WDL only" }
            ));
            for m in &r.moves {
                let san = to_san(&mut board, m.mv);
                let dtz = m.dtz.map_or("-".to_string(), |d| d.to_string());
                let mark = if best.contains(&m.mv) { "  best" } else { "" };
                out.push_str(&format!(
                    "  {:<8} {:<6} {:<13} dtz {:>5}{mark}\n",
                    san,
                    m.mv.uci(board.is_chess960()).to_string(),
                    m.wdl.to_string(),
                    dtz
                ));
            }
        }
        None if board.legal_moves().is_empty() => {
            out.push_str(if board.in_check() { "moves  none: checkmate\n" } else { "moves  none: stalemate\n" })
        }
        None => out.push_str("moves  not ranked (a table is missing or damaged)\n"),
    }
    emit(&out);
    Ok(Exit::Ok)
}
