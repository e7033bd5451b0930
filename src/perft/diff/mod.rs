//! `horizon perft-diff`: finds where another program's perft differs from Horizon's.
//!
//! Finding a move-generator bug by hand means comparing divide lists, picking a move whose
//! count differs, playing it, and comparing again, level by level (what `perftree` helps
//! with). This module does the whole hunt:
//!
//! 1. Ask both sides for per-move counts at the given position and depth.
//! 2. Match the other program's moves to Horizon's legal moves (castling accepted as
//!    king-takes-rook or as the king's two-step, whichever it prints).
//! 3. If one side has moves the other lacks, that position is the bug: report it.
//! 4. Otherwise descend into a move whose counts differ (the one with the fewest nodes, so
//!    each step is as cheap as possible) with one depth less, and go back to 1. At depth 1
//!    every count is 1, so the move lists must differ there at the latest.
//! 5. If a position's lists and counts all agree although its parent's count for it did
//!    not, the other program reaches a different position through those moves (its
//!    make/unmake or its move parsing is at fault): report that.
//!
//! With `all`, step 4 is done for every differing root move. The other program is behind
//! the `Peer` trait (a UCI engine or a perftree-style script, see `peer`).

mod error;
mod peer;

pub use error::DiffError;
pub use peer::{parse_divide_line, parse_script_output, split_command, Divide, Peer, ScriptPeer, UciPeer};

use crate::board::{Board, START_FEN};
use crate::perft::{Perft, PerftOptions};
use crate::types::{Color, Piece, Square};
use crate::Move;
use std::io::Write;

/// What to compare.
#[derive(Clone, Debug)]
pub struct Config {
    pub depth: u32,
    /// The position as the user gave it (passed to the other program unchanged).
    pub fen: String,
    /// Moves played from `fen` before comparing.
    pub moves: Vec<Move>,
    /// Follow every differing root move, not only the first.
    pub all: bool,
    /// How the user wrote castling in `moves`, if they castled (`true`: king takes rook):
    /// the first guess at the other program's notation, until its output shows one.
    pub castling_king_takes_rook: Option<bool>,
    /// How Horizon counts its side.
    pub perft: PerftOptions,
}

/// How the other program writes castling.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Notation {
    KingTakesRook,
    KingTwoSquares,
}

/// One difference, where it is, and what it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// Moves from the compared position to the faulty one (Horizon's notation).
    pub path: Vec<String>,
    /// The faulty position.
    pub fen: String,
    /// The depth compared there.
    pub depth: u32,
    pub kind: FindingKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FindingKind {
    /// The move lists differ: legal moves the other program lacks (with what kind of move
    /// each is) and moves it has that are not legal (with a note).
    Moves { missing: Vec<(String, String)>, extra: Vec<(String, String)> },
    /// At depth 1 it counts something other than 1 for these moves: (move, Horizon, other).
    Counts(Vec<(String, u64, u64)>),
    /// Its count for this position one level up (`said`) is not what it counts when asked
    /// for the position itself (`now`).
    Inconsistent { said: u64, now: u64 },
    /// Its total line is not the sum of its per-move lines.
    Total { total: u64, sum: u64 },
}

/// The comparison of one position.
struct Node {
    board: Board,
    ours: Vec<(Move, u64)>,
    their_total: u64,
    their_sum: u64,
    missing: Vec<Move>,
    extra: Vec<(String, String)>,
    /// Moves both have with different counts: (move, Horizon, other).
    counts: Vec<(Move, u64, u64)>,
}

/// Runs the comparison, writing the trace and the findings to `out`. Returns the
/// findings (empty: no difference).
pub fn run(cfg: &Config, peer: &mut dyn Peer, out: &mut dyn Write) -> Result<Vec<Finding>, DiffError> {
    let fen = if cfg.fen.trim().is_empty() { START_FEN.to_string() } else { cfg.fen.clone() };
    let mut root = Board::from_fen(&fen).map_err(|e| DiffError::Position(e.to_string()))?;
    for &m in &cfg.moves {
        if !root.legal_moves().contains(m) {
            return Err(DiffError::Position(format!("{m:?} is not legal in {}", root.to_fen())));
        }
        root.make(m);
    }
    let runner = Perft::new(cfg.perft).map_err(|e| DiffError::Hash(e.to_string()))?;
    let notation =
        cfg.castling_king_takes_rook.map(|ktr| if ktr { Notation::KingTakesRook } else { Notation::KingTwoSquares });
    let mut d = Differ { cfg, fen, root, peer, runner, notation, out, findings: Vec::new() };
    d.start()?;
    Ok(d.findings)
}

struct Differ<'a> {
    cfg: &'a Config,
    /// `cfg.fen`, or the start position for an empty one.
    fen: String,
    /// The compared position (after `cfg.moves`).
    root: Board,
    peer: &'a mut dyn Peer,
    runner: Perft,
    /// The other program's castling notation, once seen.
    notation: Option<Notation>,
    out: &'a mut dyn Write,
    findings: Vec<Finding>,
}

impl Differ<'_> {
    fn say(&mut self, line: &str) {
        let _ = writeln!(self.out, "{line}");
        let _ = self.out.flush();
    }

    fn start(&mut self) -> Result<(), DiffError> {
        let depth = self.cfg.depth;
        let header = format!("perft-diff depth {depth}: horizon vs {}", self.peer.name());
        self.say(&header);
        let node = self.compare(&[], depth)?;
        if !node.missing.is_empty() || !node.extra.is_empty() {
            self.record(&[], depth, &node, None);
            if !self.cfg.all {
                return self.finish();
            }
        }
        if node.counts.is_empty() {
            if node.missing.is_empty() && node.extra.is_empty() {
                self.check_total(&[], depth, &node, None);
            }
            return self.finish();
        }
        if depth == 1 {
            let c960 = node.board.is_chess960();
            let counts = node.counts.iter().map(|&(m, a, b)| (m.uci(c960).to_string(), a, b)).collect();
            self.record(&[], depth, &node, Some(FindingKind::Counts(counts)));
            return self.finish();
        }
        let mut targets: Vec<(Move, u64, u64)> = node.counts.clone();
        if !self.cfg.all {
            targets = vec![cheapest(&targets)];
        }
        for (m, _, theirs) in targets {
            self.descend(vec![m], depth - 1, theirs)?;
        }
        self.finish()
    }

    /// Follows differing counts down from `path` (whose count the other program gave as
    /// `said` one level up) until the difference is found.
    fn descend(&mut self, mut path: Vec<Move>, mut depth: u32, mut said: u64) -> Result<(), DiffError> {
        loop {
            let node = self.compare(&path, depth)?;
            if !node.missing.is_empty() || !node.extra.is_empty() || (depth == 1 && !node.counts.is_empty()) {
                self.record(&path, depth, &node, None);
                return Ok(());
            }
            if node.counts.is_empty() {
                self.check_total(&path, depth, &node, Some(said));
                return Ok(());
            }
            let (m, _, theirs) = cheapest(&node.counts);
            path.push(m);
            depth -= 1;
            said = theirs;
        }
    }

    /// With equal lists and counts: a total that is not the sum, or (below the root) a count
    /// that changed since the level above, is still a finding.
    fn check_total(&mut self, path: &[Move], depth: u32, node: &Node, said: Option<u64>) {
        if node.their_total != node.their_sum {
            let kind = FindingKind::Total { total: node.their_total, sum: node.their_sum };
            self.record(path, depth, node, Some(kind));
        } else if let Some(said) = said.filter(|&s| s != node.their_sum) {
            let kind = FindingKind::Inconsistent { said, now: node.their_sum };
            self.record(path, depth, node, Some(kind));
        }
    }

    /// The moves `path` (from the compared position) in the other program's notation,
    /// preceded by the moves given by the user.
    fn peer_moves(&self, path: &[Move]) -> Vec<String> {
        let mut b = Board::from_fen(&self.fen).expect("checked in `run`");
        let chess960 = b.is_chess960();
        let notation =
            self.notation.unwrap_or(if chess960 { Notation::KingTakesRook } else { Notation::KingTwoSquares });
        let mut out = Vec::new();
        for &m in self.cfg.moves.iter().chain(path) {
            out.push(m.uci(notation == Notation::KingTakesRook).to_string());
            b.make(m);
        }
        out
    }

    /// Steps 1-3 of the module documentation for the position after `path`.
    fn compare(&mut self, path: &[Move], depth: u32) -> Result<Node, DiffError> {
        let mut board = self.root.clone();
        for &m in path {
            board.make(m);
        }
        let ours = self.runner.divide(&board, depth);
        let moves = self.peer_moves(path);
        let theirs = self.peer.divide(&self.fen, &moves, depth, self.root.is_chess960())?;

        // Match their moves to ours; castling in either notation; a move listed twice is extra.
        let mut matched = vec![None::<u64>; ours.len()];
        let mut extra = Vec::new();
        for (tok, n) in &theirs.moves {
            let mut found = None;
            // Plain moves first: in Chess960 `b1c1` may be a king step and, in two-step
            // notation, also a castling move; the second listing is then the castling.
            for pass_castles in [false, true] {
                for (i, (m, _)) in ours.iter().enumerate() {
                    if found.is_some() || m.is_castle() != pass_castles || matched[i].is_some() {
                        continue;
                    }
                    let (ktr, two) = (m.uci(true).to_string(), m.uci(false).to_string());
                    if *tok == ktr || *tok == two {
                        found = Some(i);
                        if m.is_castle() && ktr != two {
                            self.notation =
                                Some(if *tok == ktr { Notation::KingTakesRook } else { Notation::KingTwoSquares });
                        }
                    }
                }
            }
            match found {
                Some(i) => matched[i] = Some(*n),
                None => {
                    let twice =
                        ours.iter().any(|(m, _)| m.uci(true).to_string() == *tok || m.uci(false).to_string() == *tok);
                    let note = if twice { "listed twice".to_string() } else { describe_extra(&board, tok) };
                    extra.push((tok.clone(), note));
                }
            }
        }
        let mut missing = Vec::new();
        let mut counts = Vec::new();
        for (i, &(m, n)) in ours.iter().enumerate() {
            match matched[i] {
                None => missing.push(m),
                Some(t) if t != n => counts.push((m, n, t)),
                Some(_) => {}
            }
        }
        let our_total: u64 = if depth == 0 { 1 } else { ours.iter().map(|x| x.1).sum() };
        let their_sum: u64 = theirs.moves.iter().map(|x| x.1).sum();
        let node = Node { board, ours, their_total: theirs.total, their_sum, missing, extra, counts };

        // One trace line per level.
        let name = self.peer.name().to_string();
        let where_ = if path.is_empty() { "(start)".to_string() } else { self.show_path(path) };
        let what = if !node.missing.is_empty() || !node.extra.is_empty() {
            "move lists differ".to_string()
        } else if !node.counts.is_empty() {
            format!("{} of {} moves differ", node.counts.len(), node.ours.len())
        } else {
            "same".to_string()
        };
        self.say(&format!("depth {depth}  {where_}: horizon {our_total}, {name} {}; {what}", node.their_total));
        Ok(node)
    }

    fn show_path(&self, path: &[Move]) -> String {
        let mut b = self.root.clone();
        let mut s = Vec::new();
        for &m in path {
            s.push(m.uci(b.is_chess960()).to_string());
            b.make(m);
        }
        s.join(" ")
    }

    /// Keeps a finding: `kind`, or the move-list / depth-1 count difference of `node`.
    fn record(&mut self, path: &[Move], depth: u32, node: &Node, kind: Option<FindingKind>) {
        let c960 = node.board.is_chess960();
        let kind = kind.unwrap_or_else(|| {
            if node.missing.is_empty() && node.extra.is_empty() {
                FindingKind::Counts(node.counts.iter().map(|&(m, a, b)| (m.uci(c960).to_string(), a, b)).collect())
            } else {
                let missing =
                    node.missing.iter().map(|&m| (m.uci(c960).to_string(), describe(&node.board, m))).collect();
                FindingKind::Moves { missing, extra: node.extra.clone() }
            }
        });
        let path =
            if path.is_empty() { Vec::new() } else { self.show_path(path).split(' ').map(String::from).collect() };
        self.findings.push(Finding { path, fen: node.board.to_fen(), depth, kind });
    }

    /// Prints the findings and the last line.
    fn finish(&mut self) -> Result<(), DiffError> {
        let name = self.peer.name().to_string();
        let findings = self.findings.clone();
        if findings.is_empty() {
            self.say("");
            let (depth, moves) = (self.cfg.depth, self.root.legal_moves().len());
            self.say(&format!("no difference: horizon and {name} agree on all {moves} moves at depth {depth}"));
            return Ok(());
        }
        for (i, f) in findings.iter().enumerate() {
            self.say("");
            if findings.len() > 1 {
                self.say(&format!("difference {} of {}", i + 1, findings.len()));
            }
            let path = if f.path.is_empty() { "(none: the position itself)".to_string() } else { f.path.join(" ") };
            self.say(&format!("path:     {path}"));
            self.say(&format!("fen:      {}", f.fen));
            let list = |v: &[(String, String)]| {
                if v.is_empty() {
                    "-".to_string()
                } else {
                    v.iter().map(|(m, note)| format!("{m} ({note})")).collect::<Vec<_>>().join(", ")
                }
            };
            let verdict = match &f.kind {
                FindingKind::Moves { missing, extra } => {
                    self.say(&format!("missing:  {}", list(missing)));
                    self.say(&format!("extra:    {}", list(extra)));
                    let mut parts = Vec::new();
                    if !missing.is_empty() {
                        let names: Vec<String> = missing.iter().map(|(m, note)| format!("{m}, {note}")).collect();
                        parts.push(format!("misses {} ({})", plural(missing.len(), "legal move"), names.join("; ")));
                    }
                    if !extra.is_empty() {
                        let names: Vec<&str> = extra.iter().map(|(m, _)| m.as_str()).collect();
                        parts.push(format!("generates {} ({})", plural(extra.len(), "illegal move"), names.join(", ")));
                    }
                    format!("{name} {} in this position", parts.join(" and "))
                }
                FindingKind::Counts(v) => {
                    let s: Vec<String> = v.iter().map(|(m, a, b)| format!("{m}: horizon {a}, {name} {b}")).collect();
                    self.say(&format!("counts:   {}", s.join("; ")));
                    format!("{name} counts a single move as something other than 1 node at depth 1")
                }
                FindingKind::Inconsistent { said, now } => {
                    self.say(&format!(
                        "counts:   {name} gave {said} for this position one level up, {now} when asked for it"
                    ));
                    format!(
                        "{name} reaches a different position through these moves than it is given directly \
                         (look at its make/unmake or at how it reads the moves)"
                    )
                }
                FindingKind::Total { total, sum } => {
                    self.say(&format!("counts:   {name} prints the total {total}, its moves add up to {sum}"));
                    format!("{name}'s total line is not the sum of its per-move counts")
                }
            };
            self.say(&format!("verdict:  {verdict}"));
        }
        self.say("");
        self.say(&format!("{} found", plural(findings.len(), "difference")));
        Ok(())
    }
}

/// The differing move with the fewest nodes (Horizon's count): the cheapest to descend into.
fn cheapest(counts: &[(Move, u64, u64)]) -> (Move, u64, u64) {
    *counts.iter().min_by_key(|c| c.1).expect("at least one differing move")
}

fn plural(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

fn piece_name(p: Piece) -> &'static str {
    match p {
        Piece::Pawn => "pawn",
        Piece::Knight => "knight",
        Piece::Bishop => "bishop",
        Piece::Rook => "rook",
        Piece::Queen => "queen",
        Piece::King => "king",
    }
}

/// What kind of move a legal move is, for the report.
fn describe(board: &Board, m: Move) -> String {
    let capture = board.piece_on(m.to()).is_some() && !m.is_castle();
    let mut s = if m.is_castle() {
        let side = if m.to().file() > m.from().file() { "king" } else { "queen" };
        format!("castling {side} side")
    } else if m.is_en_passant() {
        "en passant capture".to_string()
    } else if m.is_promotion() {
        format!("promotion to {}{}", piece_name(m.promotion()), if capture { " with capture" } else { "" })
    } else {
        let piece = board.piece_on(m.from()).map_or("piece", piece_name);
        format!("{piece} {}", if capture { "capture" } else { "move" })
    };
    if board.in_check() {
        s.push_str(", out of check");
    }
    s
}

/// Why a move the other program listed is not one of Horizon's legal moves, as far as can
/// be told from the squares.
fn describe_extra(board: &Board, tok: &str) -> String {
    let square = |s: Option<&str>| s.and_then(|s| s.parse::<Square>().ok());
    let (Some(from), Some(to)) = (square(tok.get(0..2)), square(tok.get(2..4))) else {
        return "not a move".to_string();
    };
    let us = board.side_to_move();
    let Some(piece) = board.piece_on(from).filter(|_| board.color_on(from) == Some(us)) else {
        let side = if us == Color::White { "white" } else { "black" };
        return format!("no {side} piece on {from}");
    };
    let own_rook = board.piece_on(to) == Some(Piece::Rook) && board.color_on(to) == Some(us);
    if piece == Piece::King && (own_rook || from.file().index().abs_diff(to.file().index()) >= 2) {
        return "castling, not legal here".to_string();
    }
    if piece == Piece::Pawn && Some(to) == board.ep_square() {
        return "en passant, not legal here".to_string();
    }
    format!("{} move, not legal here", piece_name(piece))
}

#[cfg(test)]
mod tests {
    use super::*;

    const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

    /// A peer answering from Horizon's own perft, with a hook to falsify its answers.
    struct Fake {
        notation_ktr: bool,
        tamper: fn(&[String], u32, &mut Divide),
        calls: Vec<(Vec<String>, u32)>,
    }

    impl Peer for Fake {
        fn name(&self) -> &str {
            "fake"
        }
        fn divide(&mut self, fen: &str, moves: &[String], depth: u32, _c960: bool) -> Result<Divide, DiffError> {
            self.calls.push((moves.to_vec(), depth));
            let mut b = Board::from_fen(fen).unwrap();
            for m in moves {
                let mv = b.parse_uci_move(m).unwrap_or_else(|e| panic!("fake peer: {e}"));
                b.make(mv);
            }
            let split = crate::perft::divide(&b, depth, PerftOptions::default());
            let moves: Vec<(String, u64)> =
                split.iter().map(|(m, n)| (m.uci(self.notation_ktr).to_string(), *n)).collect();
            let total = moves.iter().map(|x| x.1).sum();
            let mut d = Divide { moves, total };
            (self.tamper)(&self.calls.last().unwrap().0, depth, &mut d);
            Ok(d)
        }
    }

    fn diff(
        fen: &str,
        depth: u32,
        all: bool,
        ktr: bool,
        tamper: fn(&[String], u32, &mut Divide),
    ) -> (Vec<Finding>, String, Fake) {
        let cfg = Config {
            depth,
            fen: fen.to_string(),
            moves: vec![],
            all,
            castling_king_takes_rook: None,
            perft: PerftOptions::default(),
        };
        let mut peer = Fake { notation_ktr: ktr, tamper, calls: vec![] };
        let mut out = Vec::new();
        let findings = run(&cfg, &mut peer, &mut out).unwrap();
        (findings, String::from_utf8(out).unwrap(), peer)
    }

    #[test]
    fn agreement_in_both_castling_notations() {
        for ktr in [false, true] {
            let (f, out, _) = diff(KIWIPETE, 3, false, ktr, |_, _, _| {});
            assert!(f.is_empty(), "{out}");
            assert!(out.contains("no difference: horizon and fake agree on all 48 moves at depth 3"), "{out}");
        }
    }

    #[test]
    fn a_changed_count_at_the_root_alone_is_an_inconsistency() {
        // The fake adds one node to e2e4 at the root only: one level down its own counts
        // agree with Horizon's, so it must reach another position than it says.
        let (f, out, peer) = diff(START_FEN, 3, false, false, |moves, _, d| {
            if moves.is_empty() {
                d.moves.iter_mut().find(|m| m.0 == "e2e4").unwrap().1 += 1;
                d.total += 1;
            }
        });
        assert_eq!(f.len(), 1, "{out}");
        assert_eq!(f[0].path, ["e2e4"]);
        assert_eq!(f[0].kind, FindingKind::Inconsistent { said: 601, now: 600 });
        assert_eq!(peer.calls, [(vec![], 3), (vec!["e2e4".to_string()], 2)]);
    }

    #[test]
    fn a_total_that_is_not_the_sum() {
        let (f, _, _) = diff(START_FEN, 2, false, false, |_, _, d| d.total += 5);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].kind, FindingKind::Total { total: 405, sum: 400 });
    }

    #[test]
    fn depth_1_counts_other_than_one() {
        let (f, out, _) = diff(START_FEN, 1, false, false, |_, _, d| {
            let e2e4 = d.moves.iter_mut().find(|m| m.0 == "e2e4").unwrap();
            e2e4.1 = 2;
            d.total += 1;
        });
        assert_eq!(f.len(), 1, "{out}");
        assert_eq!(f[0].kind, FindingKind::Counts(vec![("e2e4".to_string(), 1, 2)]));
    }

    #[test]
    fn missing_and_extra_moves_and_duplicates() {
        // Drop g1f3, list e2e4 twice and add a blocked king move.
        let (f, out, _) = diff(START_FEN, 2, false, false, |_, _, d| {
            d.moves.retain(|m| m.0 != "g1f3");
            d.moves.push(("e2e4".to_string(), 20));
            d.moves.push(("e1e2".to_string(), 20));
        });
        assert_eq!(f.len(), 1, "{out}");
        assert!(f[0].path.is_empty());
        match &f[0].kind {
            FindingKind::Moves { missing, extra } => {
                assert_eq!(missing, &[("g1f3".to_string(), "knight move".to_string())]);
                assert_eq!(
                    extra,
                    &[
                        ("e2e4".to_string(), "listed twice".to_string()),
                        ("e1e2".to_string(), "king move, not legal here".to_string())
                    ]
                );
            }
            k => panic!("{k:?}"),
        }
        assert!(
            out.contains(
                "verdict:  fake misses 1 legal move (g1f3, knight move) and generates 2 illegal moves (e2e4, e1e2)"
            ),
            "{out}"
        );
    }

    #[test]
    fn all_follows_every_differing_root_move() {
        // Consistently one node short under b1a3 and g1h3: a7a6 is missing after them.
        let (f, out, _) = diff(START_FEN, 2, true, false, |moves, _, d| {
            if moves.is_empty() {
                for m in d.moves.iter_mut().filter(|m| m.0 == "b1a3" || m.0 == "g1h3") {
                    m.1 -= 1;
                }
                d.total -= 2;
            } else if moves == ["b1a3"] || moves == ["g1h3"] {
                d.moves.retain(|m| m.0 != "a7a6");
                d.total -= 1;
            }
        });
        assert_eq!(f.iter().map(|x| x.path.join(" ")).collect::<Vec<_>>(), ["b1a3", "g1h3"], "{out}");
        assert!(f.iter().all(|x| matches!(&x.kind, FindingKind::Moves { missing, .. } if missing[0].0 == "a7a6")));
        assert!(out.contains("difference 2 of 2"), "{out}");
        // Without --all only the first (cheapest) is followed.
        let (f, _, _) = diff(START_FEN, 2, false, false, |moves, _, d| {
            if moves.is_empty() {
                d.moves.iter_mut().find(|m| m.0 == "b1a3").unwrap().1 -= 1;
                d.total -= 1;
            } else if moves == ["b1a3"] {
                d.moves.retain(|m| m.0 != "a7a6");
                d.total -= 1;
            }
        });
        assert_eq!(f.len(), 1);
    }
}
