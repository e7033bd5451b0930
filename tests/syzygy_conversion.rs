//! Converting won tablebase endings: with the 3-4 piece tables, the engine plays both sides
//! of won KBN v K and KQ v KR positions, and the winner must make steady progress: mate,
//! never a draw by repetition or the fifty-move rule, and every stretch between zeroing
//! moves (from the start or a capture to the next capture or the mate) no longer than
//! 1.5 times the DTZ at its start.
//!
//! The fast test plays a fixed number of nodes a move through the library (deterministic);
//! the ignored one plays more positions at 100 ms a move over the UCI binary and prints the
//! figures for docs/syzygy.md (`HORIZON=/path/to/horizon` plays another build instead):
//!
//!     cargo test --release --test syzygy_conversion -- --ignored --nocapture

use horizon::search::tt::TranspositionTable;
use horizon::search::{Control, Limits, Score, Searcher, Silent};
use horizon::syzygy::{Material, Tablebases};
use horizon::{Board, Move};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Arc;

mod common;
use common::{board, table_dir, tables};

/// |DTZ| of a position: plies to the next zeroing move (mate counts as one) with best play.
fn dtz(b: &Board) -> i32 {
    tables().probe_dtz(&mut b.clone()).unwrap_or_else(|| panic!("no DTZ for {}", b.to_fen())).abs()
}

/// The stretch of a game from its start or a zeroing move to the next zeroing move or mate.
#[derive(Debug)]
struct Stretch {
    /// |DTZ| where the stretch starts.
    dtz: i32,
    /// Plies played in it, the zeroing move (or mate) included.
    plies: i32,
}

/// How a game played out.
#[derive(Debug)]
struct Game {
    fen: String,
    /// `None` for a mate; else why the game was drawn or stopped.
    draw: Option<&'static str>,
    plies: i32,
    stretches: Vec<Stretch>,
    /// A position occurred a second time (a step back, even if no threefold followed).
    repeated: bool,
}

impl Game {
    /// The longest stretch relative to its DTZ.
    fn worst_ratio(&self) -> f64 {
        self.stretches.iter().map(|s| s.plies as f64 / s.dtz.max(1) as f64).fold(0.0, f64::max)
    }
}

/// Longest game played: more than enough for a 4-piece win (two fifty-move stretches).
const MAX_PLIES: i32 = 250;

/// Plays `fen` to its end, `choose` picking each move; measures the stretches between
/// zeroing moves against DTZ.
fn play(fen: &str, mut choose: impl FnMut(&Board, &[Move]) -> Move) -> Game {
    let mut b = board(fen);
    let mut history: Vec<Move> = Vec::new();
    let mut keys = vec![b.key()];
    let mut stretches = vec![Stretch { dtz: dtz(&b), plies: 0 }];
    let mut game = Game { fen: fen.to_string(), draw: None, plies: 0, stretches: Vec::new(), repeated: false };
    let draw = loop {
        if b.legal_moves().is_empty() {
            break (!b.in_check()).then_some("stalemate");
        }
        if b.is_repetition(0) {
            break Some("threefold repetition");
        }
        if b.fifty_move_draw() {
            break Some("fifty-move rule");
        }
        if b.insufficient_material() {
            break Some("insufficient material");
        }
        if game.plies >= MAX_PLIES {
            break Some("too long");
        }
        let m = choose(&b, &history);
        assert!(b.legal_moves().contains(m), "{fen}: illegal move {m:?} after {history:?}");
        b.make(m);
        history.push(m);
        game.plies += 1;
        game.repeated |= keys.contains(&b.key());
        keys.push(b.key());
        stretches.last_mut().unwrap().plies += 1;
        let mated = b.in_check() && b.legal_moves().is_empty();
        if b.halfmove_clock() == 0 && !mated {
            keys.clear();
            keys.push(b.key());
            if b.occupied().count() > 2 {
                stretches.push(Stretch { dtz: dtz(&b), plies: 0 });
            }
        }
    };
    game.draw = draw;
    game.stretches = stretches;
    game
}

/// The engine, one searcher a side (each with its own hash table and tables, as two
/// engines would be), at a fixed number of nodes a move.
fn play_library(fen: &str, nodes: u64) -> Game {
    let engine = || {
        let mut s = Searcher::new(Arc::new(TranspositionTable::new(16)), Arc::new(Control::default()));
        let (tb, _) = Tablebases::open(table_dir().to_str().unwrap());
        s.set_tablebases(Some(Arc::new(tb)));
        s
    };
    let mut sides = [engine(), engine()];
    let start = board(fen);
    play(fen, |_, history| {
        // Searched from the start with the moves played, so that the root sees the history.
        let mut b = start.clone();
        for &m in history {
            b.make(m);
        }
        let side = history.len() % 2;
        sides[side].search(&b, Limits { nodes: Some(nodes), ..Default::default() }, &mut Silent).best
    })
}

/// Stretches may be no longer than this many times their DTZ (in tenths).
const MAX_STRETCH_TENTHS_OF_DTZ: i32 = 15;

/// What is wrong with a game that should have been won steadily from a DTZ of `want_dtz`.
fn faults(game: &Game, want_dtz: i32) -> Vec<String> {
    let mut out = Vec::new();
    if game.stretches[0].dtz != want_dtz {
        out.push(format!("DTZ {} at the start, want {want_dtz}", game.stretches[0].dtz));
    }
    if let Some(d) = game.draw {
        out.push(format!("not mated: {d} after {} plies", game.plies));
    }
    if game.repeated {
        out.push("a position repeated".to_string());
    }
    for s in game.stretches.iter().filter(|s| s.plies * 10 > s.dtz * MAX_STRETCH_TENTHS_OF_DTZ) {
        out.push(format!("{} plies to the next zeroing move from a DTZ of {}", s.plies, s.dtz));
    }
    out
}

/// Won positions (from tests/data/syzygy/oracle.csv) and their DTZ: KBN v K with either side
/// winning, and KQ v KR (the stretch to the rook's capture, then KQ v K to the mate).
const WON: [(&str, i32); 6] = [
    ("8/2k5/8/8/8/8/N1B5/K7 w - - 0 1", 58),
    ("5B2/7k/8/2K5/8/8/N7/8 w - - 0 1", 46),
    ("1b5K/8/8/8/n7/8/8/4k3 b - - 0 1", 36),
    ("8/1r6/4K3/5Q2/8/8/8/k7 w - - 0 1", 27),
    ("8/k7/8/8/8/3Q4/8/K6r w - - 0 1", 33),
    ("5q2/7k/8/8/8/8/1K1R4/8 b - - 0 1", 47),
];

/// Nodes a move in the fast test: a few milliseconds a move, the games take a few seconds.
const NODES: u64 = 4000;

/// The engine with tables on both sides mates every won position steadily: no repetition,
/// and each stretch between zeroing moves within 1.5 times its DTZ.
#[test]
fn won_endings_are_mated_steadily() {
    let mut wrong = Vec::new();
    for (fen, want) in WON {
        let game = play_library(fen, NODES);
        let stretches: Vec<String> = game.stretches.iter().map(|s| format!("{}/{}", s.plies, s.dtz)).collect();
        println!("{fen}: {} plies, stretches (plies/dtz) {}", game.plies, stretches.join(" "));
        let f = faults(&game, want);
        if !f.is_empty() {
            wrong.push(format!("{fen}: {} ({game:?})", f.join("; ")));
        }
    }
    assert!(wrong.is_empty(), "{} of {} games:\n{}", wrong.len(), WON.len(), wrong.join("\n"));
}

fn searcher() -> Searcher {
    let mut s = Searcher::new(Arc::new(TranspositionTable::new(16)), Arc::new(Control::default()));
    let (tb, _) = Tablebases::open(table_dir().to_str().unwrap());
    s.set_tablebases(Some(Arc::new(tb)));
    s
}

/// Without a proven mate, a sure win plays a move of the least DTZ (Kb2 or Be3 at 58 plies,
/// not one of the other sure wins at 60 and more) and shows the tablebase win score.
#[test]
fn a_sure_win_plays_the_least_dtz() {
    let b = board("8/8/4k3/8/8/8/8/K1BN4 w - - 0 1");
    let ranking = tables().rank_root(&mut b.clone(), true).unwrap();
    let fastest = ranking.fastest_moves();
    assert_eq!(fastest.len(), 2, "{ranking:?}");
    assert!(ranking.best_moves().len() > fastest.len(), "{ranking:?}");
    let mut reports = common::Collect::default();
    let r = searcher().search(&b, Limits { depth: Some(8), ..Default::default() }, &mut reports);
    assert!(fastest.contains(&r.best), "{:?}", r.best);
    assert_eq!(reports.0.last().unwrap().score, Score::Cp(29999));
}

/// A proven mate beats the DTZ order: Qxa1 takes the rook at once (DTZ 1, the only move of
/// the least DTZ), but Qh6+ mates in two (Kg8 Qg7#), and the search proves it. A move
/// outside the least DTZ counts only as a mate, so the search plays Qh6+ and shows `mate 2`.
#[test]
fn a_proven_mate_beats_the_dtz_order() {
    let b = board("7k/8/5K2/8/8/8/8/r1Q5 w - - 0 1");
    let ranking = tables().rank_root(&mut b.clone(), true).unwrap();
    let uci = |m: Move| m.uci(false).to_string();
    assert_eq!(ranking.fastest_moves().iter().map(|&m| uci(m)).collect::<Vec<_>>(), ["c1a1"]);
    let mut reports = common::Collect::default();
    let r = searcher().search(&b, Limits { depth: Some(8), ..Default::default() }, &mut reports);
    assert_eq!(uci(r.best), "c1h6");
    assert_eq!(reports.0.last().unwrap().score, Score::Mate(2));
}

// ---- the measurement over UCI ----------------------------------------------------------------

/// A `horizon` process speaking UCI.
struct Engine {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Engine {
    /// Starts `$HORIZON` (another build to compare), else this build's `horizon`.
    fn start(syzygy: &str) -> Engine {
        let exe = std::env::var("HORIZON").unwrap_or_else(|_| env!("CARGO_BIN_EXE_horizon").to_string());
        let mut child = Command::new(&exe)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {exe}: {e}"));
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut e = Engine { child, stdin, stdout };
        e.send(&format!("uci\nsetoption name SyzygyPath value {syzygy}\nisready"));
        e.wait_for("readyok");
        e
    }

    fn send(&mut self, text: &str) {
        writeln!(self.stdin, "{text}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Reads lines up to the first that starts with `prefix`, and returns it.
    fn wait_for(&mut self, prefix: &str) -> String {
        let mut line = String::new();
        loop {
            line.clear();
            assert!(self.stdout.read_line(&mut line).unwrap() > 0, "horizon ended its output");
            if line.starts_with(prefix) {
                return line.trim().to_string();
            }
        }
    }

    fn new_game(&mut self) {
        self.send("ucinewgame\nisready");
        self.wait_for("readyok");
    }

    /// The engine's move after `fen` and `moves`, at `movetime` ms.
    fn go(&mut self, fen: &str, moves: &[Move], b: &Board, movetime: u64) -> Move {
        let list: Vec<String> = moves.iter().map(|m| m.uci(false).to_string()).collect();
        let moves = if list.is_empty() { String::new() } else { format!(" moves {}", list.join(" ")) };
        self.send(&format!("position fen {fen}{moves}\ngo movetime {movetime}"));
        let line = self.wait_for("bestmove");
        let uci = line.split_whitespace().nth(1).unwrap_or("").to_string();
        b.legal_moves().iter().copied().find(|m| m.uci(false).to_string() == uci).unwrap_or_else(|| {
            panic!("{fen} {moves}: illegal bestmove {uci}");
        })
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.wait();
    }
}

/// The first `n` won positions of the oracle file with this material and `side` to move
/// (the winner), DTZ at least `min_dtz`.
fn oracle_wins(name: &str, side: &str, min_dtz: i32, n: usize) -> Vec<String> {
    let m = Material::parse(name).unwrap();
    let text = std::fs::read_to_string(table_dir().join("oracle.csv")).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split(',').collect::<Vec<_>>())
        .filter(|f| f[1] == "2" && f[2].parse::<i32>().unwrap() >= min_dtz)
        .filter(|f| f[0].split_whitespace().nth(1) == Some(side))
        .filter(|f| {
            let got = Material::of(&board(f[0]));
            got == m || got == m.flipped()
        })
        .take(n)
        .map(|f| f[0].to_string())
        .collect()
}

/// Plays 12 KBN v K and 8 KQ v KR wins (half with White winning, half with Black) at 100 ms
/// a move, a `horizon` process a side (each with `SyzygyPath` set), and prints plies against
/// DTZ for docs/syzygy.md.
#[test]
#[ignore]
fn measure_conversion_over_uci() {
    const MOVETIME_MS: u64 = 100;
    let dir = table_dir();
    let mut fens = Vec::new();
    for (name, n) in [("KBNvK", 6), ("KQvKR", 4)] {
        for side in ["w", "b"] {
            fens.extend(oracle_wins(name, side, 20, n));
        }
    }
    let mut engines = [Engine::start(dir.to_str().unwrap()), Engine::start(dir.to_str().unwrap())];
    let (mut mated, mut repeated, mut plies, mut dtz_sum, mut worst) = (0, 0, 0, 0, 0.0f64);
    println!("{:<40} {:>4} {:>6} {:>6}  stretches (plies/dtz)", "fen", "dtz", "plies", "ratio");
    for fen in &fens {
        for e in engines.iter_mut() {
            e.new_game();
        }
        let game = play(fen, |b, history| engines[history.len() % 2].go(fen, history, b, MOVETIME_MS));
        let stretches: Vec<String> = game.stretches.iter().map(|s| format!("{}/{}", s.plies, s.dtz)).collect();
        println!(
            "{:<40} {:>4} {:>6} {:>6.2}  {}{}{}",
            game.fen,
            game.stretches[0].dtz,
            game.plies,
            game.worst_ratio(),
            stretches.join(" "),
            game.draw.map_or(String::new(), |d| format!("  DRAWN: {d}")),
            if game.repeated { "  (a position repeated)" } else { "" }
        );
        mated += game.draw.is_none() as usize;
        repeated += game.repeated as usize;
        plies += game.plies;
        dtz_sum += game.stretches.iter().map(|s| s.dtz).sum::<i32>();
        worst = worst.max(game.worst_ratio());
    }
    println!(
        "{mated} of {} mated; {repeated} with a repeated position; {plies} plies against {dtz_sum} plies of DTZ \
         (sum over stretches, ratio {:.2}); longest stretch {:.2} x its DTZ",
        fens.len(),
        plies as f64 / dtz_sum as f64,
        worst
    );
}
