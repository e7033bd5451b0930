//! A perft with a move-generator bug injected on purpose, for testing `horizon perft-diff`
//! (and for trying it out): it counts with Horizon's library but changes the move list at
//! every node the way a real buggy generator would, so the counts are wrong only in subtrees
//! where the bug shows and `perft-diff` has to descend to find it.
//!
//! ```text
//! buggy_perft <bug> [--two-step] <depth> "<fen>" "<moves>"   perftree-style script
//! buggy_perft <bug> [--two-step] --uci                        UCI engine (`go perft N`)
//! ```
//!
//! Bugs: `none`, `no-en-passant` (never generates en passant captures),
//! `castling-after-rook-capture` (a rook captured on its original square does not remove the
//! castling right; castling is then generated whenever the squares between are empty and the
//! king's path is not attacked), `no-knight-promotion` (promotions to a knight are missing).
//! `--two-step` writes castling as the king's two-square move even in Chess960 positions.

use horizon::board::castle_destinations;
use horizon::{Board, CastleSide, Color, File, Move, MoveKind, Piece, Square};
use std::io::{BufRead, Write};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Bug {
    None,
    NoEnPassant,
    CastlingAfterRookCapture,
    NoKnightPromotion,
}

/// A castling right of `color` on `side`.
fn bit(color: Color, side: CastleSide) -> u8 {
    1 << (color.index() * 2 + side.index())
}

/// The position as the buggy program sees it: Horizon's board plus the castling rights the
/// buggy program still believes in.
struct Sim {
    bug: Bug,
    board: Board,
    /// Rights as the buggy program keeps them (cleared only when a king or rook moves away).
    rights: u8,
    /// Rook squares of the rights at the start, `[color][side]`.
    rooks: [[Option<Square>; 2]; 2],
    kings: [Square; 2],
    two_step: bool,
    undo: Vec<u8>,
}

impl Sim {
    fn new(bug: Bug, board: Board, two_step: bool) -> Sim {
        let mut rooks = [[None; 2]; 2];
        for c in Color::ALL {
            for side in CastleSide::ALL {
                rooks[c.index()][side.index()] = board.castle_rook(c, side);
            }
        }
        let kings = [board.king_sq(Color::White), board.king_sq(Color::Black)];
        let rights = board.castle_rights();
        Sim { bug, board, rights, rooks, kings, two_step, undo: Vec::new() }
    }

    /// The buggy move list.
    fn moves(&self) -> Vec<Move> {
        let mut out: Vec<Move> = self
            .board
            .legal_moves()
            .iter()
            .copied()
            .filter(|m| match self.bug {
                Bug::NoEnPassant => !m.is_en_passant(),
                Bug::NoKnightPromotion => !(m.is_promotion() && m.promotion() == Piece::Knight),
                _ => true,
            })
            .collect();
        if self.bug == Bug::CastlingAfterRookCapture {
            out.extend(self.ghost_castles());
        }
        out
    }

    /// Castling moves from rights the real rules have removed (the rook was captured).
    fn ghost_castles(&self) -> Vec<Move> {
        let us = self.board.side_to_move();
        let them = us.flip();
        let king = self.board.king_sq(us);
        let occ = self.board.occupied();
        let mut out = Vec::new();
        for side in CastleSide::ALL {
            let b = bit(us, side);
            let Some(rook) = self.rooks[us.index()][side.index()] else { continue };
            if self.rights & b == 0 || self.board.castle_rights() & b != 0 || king != self.kings[us.index()] {
                continue;
            }
            let (kto, rto) = castle_destinations(us, side);
            let span = |a: Square, b: Square| {
                let (lo, hi) = (a.file().index().min(b.file().index()), a.file().index().max(b.file().index()));
                (lo..=hi).map(move |f| Square::new(File::from_index(f), a.rank()))
            };
            let blocked = span(king, kto).chain(span(rook, rto)).any(|s| s != king && s != rook && occ.has(s));
            let attacked = span(king, kto).any(|s| self.board.attacked_by(them, s, occ));
            if !blocked && !attacked {
                out.push(Move::new(king, kto, MoveKind::Normal));
            }
        }
        out
    }

    fn text(&self, m: Move) -> String {
        let us = self.board.side_to_move();
        let is_ghost = self.board.piece_on(m.from()) == Some(Piece::King)
            && m.from() == self.kings[us.index()]
            && m.from().file().index().abs_diff(m.to().file().index()) >= 2
            && !m.is_castle();
        if is_ghost && self.board.is_chess960() && !self.two_step {
            // King-takes-rook notation names the (missing) rook's square.
            let side = if m.to().file() > m.from().file() { CastleSide::King } else { CastleSide::Queen };
            let rook = self.rooks[us.index()][side.index()].expect("ghost castling has a rook square");
            return format!("{}{}", m.from(), rook);
        }
        m.uci(self.board.is_chess960() && !self.two_step).to_string()
    }

    fn make(&mut self, m: Move) {
        self.undo.push(self.rights);
        let from = m.from();
        for c in Color::ALL {
            for side in CastleSide::ALL {
                // The bug: only the square a piece leaves clears a right, not a capture.
                let keep = if self.bug == Bug::CastlingAfterRookCapture {
                    from != self.kings[c.index()] && Some(from) != self.rooks[c.index()][side.index()]
                } else {
                    self.board.castle_rook(c, side).is_some()
                };
                if !keep {
                    self.rights &= !bit(c, side);
                }
            }
        }
        self.board.make(m);
        if self.bug != Bug::CastlingAfterRookCapture {
            self.rights = self.board.castle_rights();
        }
    }

    fn unmake(&mut self) {
        self.board.unmake();
        self.rights = self.undo.pop().expect("make before unmake");
    }

    fn perft(&mut self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        let mut n = 0;
        for m in moves {
            self.make(m);
            n += self.perft(depth - 1);
            self.unmake();
        }
        n
    }

    /// Plays a move given in either castling notation.
    fn play(&mut self, tok: &str) -> Result<(), String> {
        let found = self
            .moves()
            .into_iter()
            .find(|&m| self.text(m) == tok || m.uci(true).to_string() == tok || m.uci(false).to_string() == tok);
        match found {
            Some(m) => {
                self.make(m);
                Ok(())
            }
            None => Err(format!("illegal move {tok}")),
        }
    }

    /// Divide lines (`sep` between move and count), an empty line, and the total.
    fn divide(&mut self, depth: u32, sep: &str) -> (Vec<String>, u64) {
        let mut lines = Vec::new();
        let mut total = 0;
        for m in self.moves() {
            let text = self.text(m);
            self.make(m);
            let n = self.perft(depth.saturating_sub(1));
            self.unmake();
            total += n;
            lines.push(format!("{text}{sep}{n}"));
        }
        (lines, if depth == 0 { 1 } else { total })
    }
}

fn setup(bug: Bug, fen: &str, moves: &str, two_step: bool, chess960: bool) -> Result<Sim, String> {
    let mut board = Board::from_fen(fen).map_err(|e| e.to_string())?;
    if chess960 {
        board.set_chess960(true);
    }
    let mut sim = Sim::new(bug, board, two_step);
    for tok in moves.split_whitespace() {
        sim.play(tok)?;
    }
    Ok(sim)
}

fn uci(bug: Bug, two_step: bool) {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut chess960 = false;
    let mut position = (horizon::board::START_FEN.to_string(), String::new());
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["uci"] => {
                let _ = writeln!(out, "id name buggy_perft\noption name UCI_Chess960 type check default false\nuciok");
            }
            ["isready"] => {
                let _ = writeln!(out, "readyok");
            }
            ["setoption", "name", "UCI_Chess960", "value", v] => chess960 = *v == "true",
            ["position", rest @ ..] => {
                let moves_at = rest.iter().position(|w| *w == "moves").unwrap_or(rest.len());
                let fen = match rest.first() {
                    Some(&"startpos") => horizon::board::START_FEN.to_string(),
                    _ => rest[1.min(moves_at)..moves_at].join(" "),
                };
                position = (fen, rest.get(moves_at + 1..).unwrap_or(&[]).join(" "));
            }
            ["go", "perft", d] => {
                let depth: u32 = d.parse().unwrap_or(1);
                match setup(bug, &position.0, &position.1, two_step, chess960) {
                    Ok(mut sim) => {
                        let (lines, total) = sim.divide(depth, ": ");
                        let _ = writeln!(out, "{}\n\nNodes searched: {total}\n", lines.join("\n"));
                    }
                    Err(e) => {
                        let _ = writeln!(out, "info string error: {e}");
                    }
                }
            }
            ["quit"] => break,
            _ => {}
        }
        let _ = out.flush();
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let bug = match args.first().map(String::as_str) {
        Some("none") => Bug::None,
        Some("no-en-passant") => Bug::NoEnPassant,
        Some("castling-after-rook-capture") => Bug::CastlingAfterRookCapture,
        Some("no-knight-promotion") => Bug::NoKnightPromotion,
        _ => {
            eprintln!("usage: buggy_perft none|no-en-passant|castling-after-rook-capture|no-knight-promotion [--two-step] (--uci | <depth> <fen> <moves>)");
            std::process::exit(2);
        }
    };
    let two_step = args.iter().any(|a| a == "--two-step");
    let rest: Vec<&str> = args[1..].iter().map(String::as_str).filter(|a| *a != "--two-step").collect();
    if rest == ["--uci"] {
        uci(bug, two_step);
        return;
    }
    let (Some(depth), fen, moves) = (rest.first().and_then(|d| d.parse::<u32>().ok()), rest.get(1), rest.get(2)) else {
        eprintln!("buggy_perft: expected <depth> <fen> <moves>");
        std::process::exit(2);
    };
    let fen = fen.copied().filter(|f| !f.is_empty()).unwrap_or(horizon::board::START_FEN);
    match setup(bug, fen, moves.copied().unwrap_or(""), two_step, false) {
        Ok(mut sim) => {
            let (lines, total) = sim.divide(depth, " ");
            for l in lines {
                println!("{l}");
            }
            println!("\n{total}");
        }
        Err(e) => {
            eprintln!("buggy_perft: {e}");
            std::process::exit(1);
        }
    }
}
