//! Probing: WDL with captures resolved, DTZ, and the ranking of root moves.
//!
//! The tables leave some values unspecified: a position whose best move is a capture
//! (or, in DTZ, any zeroing move) may store any value that compresses well, and
//! positions with an en passant right are stored as if the right did not exist. So a
//! probe first searches the captures (for DTZ also the pawn moves), each leading to a
//! smaller table or to a recursive probe, and takes the table's value only where no
//! such move does at least as well.

use super::material::Material;
use super::table::{Kind, Lookup};
use super::Tablebases;
use crate::board::Board;
use crate::moves::Move;
use crate::types::Piece;
use std::fmt;

/// A WDL value from the side to move's point of view. Cursed wins and blessed losses are
/// wins and losses that the fifty-move rule turns into draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Wdl {
    Loss = -2,
    BlessedLoss = -1,
    Draw = 0,
    CursedWin = 1,
    Win = 2,
}

impl Wdl {
    pub fn from_i32(v: i32) -> Wdl {
        match v {
            i32::MIN..=-2 => Wdl::Loss,
            -1 => Wdl::BlessedLoss,
            0 => Wdl::Draw,
            1 => Wdl::CursedWin,
            _ => Wdl::Win,
        }
    }

    /// -2..=2.
    pub fn value(self) -> i32 {
        self as i32
    }

    /// The same result seen by the other side.
    pub fn negate(self) -> Wdl {
        Wdl::from_i32(-self.value())
    }
}

impl fmt::Display for Wdl {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(match self {
            Wdl::Loss => "loss",
            Wdl::BlessedLoss => "blessed loss",
            Wdl::Draw => "draw",
            Wdl::CursedWin => "cursed win",
            Wdl::Win => "win",
        })
    }
}

/// The DTZ (plies, signed like WDL) of a position whose best move is a zeroing move that
/// reaches `wdl`.
fn dtz_before_zeroing(wdl: i32) -> i32 {
    match wdl {
        2 => 1,
        1 => 101,
        -1 => -101,
        -2 => -1,
        _ => 0,
    }
}

/// Does `m` reset the fifty-move counter?
fn is_zeroing(board: &Board, m: Move) -> bool {
    board.captured_piece(m).is_some() || board.piece_on(m.from()) == Some(Piece::Pawn)
}

/// Plays `m`, runs `f` on the position after it, and takes the move back.
fn after<T>(board: &mut Board, m: Move, f: impl FnOnce(&mut Board) -> T) -> T {
    board.make(m);
    let r = f(board);
    board.unmake();
    r
}

/// One root move with its tablebase verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootMove {
    pub mv: Move,
    /// The result after the move, for the side that plays it.
    pub wdl: Wdl,
    /// Plies from the root to the next zeroing move (signed: positive wins), when DTZ
    /// tables were available.
    pub dtz: Option<i32>,
    /// Higher is better; the moves that share the best rank keep the root's value.
    pub rank: i32,
}

/// Ranks at or below this are sure losses (DTZ: within the fifty-move rule; WDL: losses).
const RANK_SURE_LOSS: i32 = -RANK_SURE_WIN + 100;

impl RootMove {
    /// The move's result with the clock and the fifty-move rule taken into account: 2 a
    /// sure win, 1 a win the rule may void (cursed, or too late for the clock), 0 a draw,
    /// -1 a loss the rule may save, -2 a sure loss.
    pub fn outcome(&self) -> i32 {
        match self.rank {
            r if r >= RANK_SURE_WIN => 2,
            r if r > 0 => 1,
            0 => 0,
            r if r > RANK_SURE_LOSS => -1,
            _ => -2,
        }
    }
}

/// The root moves ranked by the tables, best first.
#[derive(Clone, Debug)]
pub struct RootRanking {
    pub moves: Vec<RootMove>,
    /// Ranked by DTZ (true) or only by WDL (the DTZ tables were missing).
    pub by_dtz: bool,
}

impl RootRanking {
    /// The moves that keep the root's value: those with the best rank.
    pub fn best_moves(&self) -> Vec<Move> {
        let best = self.moves.first().map_or(0, |m| m.rank);
        self.moves.iter().filter(|m| m.rank == best).map(|m| m.mv).collect()
    }

    /// The moves to play among: of the best moves, when they are wins sure within the
    /// fifty-move rule (ranked by DTZ), only those with the least DTZ; otherwise the best
    /// moves themselves (their rank already orders them by distance, or they are draws).
    ///
    /// All sure wins share one rank, so a search free to choose among them may shuffle
    /// until the clock forces progress. Playing the least DTZ instead reaches the next
    /// capture, pawn move or mate in about DTZ plies against any defence, and never repeats
    /// a position: the distance of the winner's positions falls with every move. (Where a
    /// table stores moves, a DTZ may be one ply long, so two moves a ply apart may tie and
    /// the slower be played; the true distance still falls by at least a ply a move.)
    pub fn fastest_moves(&self) -> Vec<Move> {
        let Some(first) = self.moves.first() else { return Vec::new() };
        if !self.by_dtz || first.outcome() != 2 {
            return self.best_moves();
        }
        // Sorted by rank, then DTZ: the first move has the least DTZ of the best rank.
        self.moves.iter().filter(|m| m.rank == first.rank && m.dtz == first.dtz).map(|m| m.mv).collect()
    }

    /// The same ranking over only the moves `keep` allows (e.g. `go searchmoves`).
    pub fn only(&self, keep: impl Fn(Move) -> bool) -> RootRanking {
        RootRanking { moves: self.moves.iter().filter(|m| keep(m.mv)).copied().collect(), by_dtz: self.by_dtz }
    }

    /// The best move's result for the side to move.
    pub fn wdl(&self) -> Option<Wdl> {
        self.moves.first().map(|m| m.wdl)
    }
}

/// Rank of a win that is certain within the fifty-move rule (DTZ ranking); later wins
/// rank from half of it down by their distance, losses the other way round.
const RANK_SURE_WIN: i32 = 1000;
/// WDL-only ranks of a win, cursed win, draw, blessed loss and loss.
const WDL_RANKS: [i32; 5] = [-RANK_SURE_WIN, -RANK_SURE_WIN + 101, 0, RANK_SURE_WIN - 101, RANK_SURE_WIN];
/// Plies of the fifty-move rule.
const FIFTY_MOVE_PLIES: i32 = 100;

impl Tablebases {
    /// The raw value of the table for the board's material (KvK is a draw).
    fn table_value(&self, board: &Board, kind: Kind, wdl: i32) -> Lookup {
        if board.occupied().count() == 2 {
            return Lookup::Value(0);
        }
        let material = Material::of(board);
        match self.table(&material, kind) {
            Some((t, flipped)) => t.lookup(board, flipped, wdl),
            None => Lookup::Fail,
        }
    }

    /// WDL of `board` with captures (and, for `zeroing`, pawn moves) searched first.
    /// Returns the value and whether the best move is a zeroing move (whose DTZ the
    /// table does not store), or `None` when a table is missing or damaged.
    fn search(&self, board: &mut Board, zeroing: bool) -> Option<(i32, bool)> {
        let moves = board.legal_moves();
        let mut best = -2;
        let mut searched = 0;
        for &m in moves.iter() {
            let capture = board.captured_piece(m).is_some();
            let pawn_move = zeroing && board.piece_on(m.from()) == Some(Piece::Pawn);
            if !(capture || pawn_move) {
                continue;
            }
            searched += 1;
            let v = -after(board, m, |b| self.search(b, false))?.0;
            if v > best {
                best = v;
                if v >= 2 {
                    return Some((v, true));
                }
            }
        }
        // When every legal move was searched the table is not needed (and may be wrong:
        // it knows nothing of en passant).
        let all_searched = searched > 0 && searched == moves.len();
        let value = if all_searched {
            best
        } else {
            match self.table_value(board, Kind::Wdl, 0) {
                Lookup::Value(v) => v,
                _ => return None,
            }
        };
        if best >= value {
            return Some((best, best > 0 || all_searched));
        }
        Some((value, false))
    }

    /// The WDL value of `board` (no castling rights, at most [`Tablebases::max_pieces`]
    /// pieces), ignoring the halfmove clock; `None` if a table is missing or damaged.
    /// The board is returned as it was.
    pub fn probe_wdl(&self, board: &mut Board) -> Option<Wdl> {
        if !self.covers(board) {
            return None;
        }
        self.search(board, false).map(|(v, _)| Wdl::from_i32(v))
    }

    /// The DTZ of `board`: plies to the next zeroing move with best play (mate counts
    /// as one), positive when the side to move wins, negative when it loses, 0 for a
    /// draw; cursed wins and blessed losses count 100 more. Like the tables it may be
    /// one ply too long where the tables store moves instead of plies. `None` if a table
    /// is missing or damaged.
    pub fn probe_dtz(&self, board: &mut Board) -> Option<i32> {
        if !self.covers(board) {
            return None;
        }
        self.dtz(board)
    }

    fn dtz(&self, board: &mut Board) -> Option<i32> {
        // 1. WDL with zeroing moves searched: a draw has no DTZ, and a position whose
        //    best move zeroes is one ply from it.
        let (wdl, zeroing_best) = self.search(board, true)?;
        if wdl == 0 {
            return Some(0);
        }
        if zeroing_best {
            return Some(dtz_before_zeroing(wdl));
        }
        // 2. The table, if it stores this side to move.
        match self.table_value(board, Kind::Dtz, wdl) {
            Lookup::Value(d) => return Some((d + if wdl.abs() == 1 { 100 } else { 0 }) * wdl.signum()),
            Lookup::Fail => return None,
            Lookup::OtherSide => {}
        }
        // 3. Otherwise one ply of search: the best move by the children's DTZ.
        let mut best = i32::MAX;
        for &m in board.legal_moves().iter() {
            let zeroing = is_zeroing(board, m);
            let (mut d, mates) = after(board, m, |b| {
                let d =
                    if zeroing { Some(-dtz_before_zeroing(self.search(b, false)?.0)) } else { self.dtz(b).map(|d| -d) };
                Some((d?, b.in_check() && b.legal_moves().is_empty()))
            })?;
            if d == 1 && mates {
                best = 1;
            }
            if !zeroing {
                d += d.signum();
            }
            if d < best && d.signum() == wdl.signum() {
                best = d;
            }
        }
        Some(if best == i32::MAX { -1 } else { best })
    }

    /// Ranks the legal moves of `board` by the tables, best first: by DTZ when the DTZ
    /// tables are there (wins that are sure within the fifty-move rule share the top
    /// rank, so the search may pick any of them; later wins rank by distance; losses
    /// rank by how long they resist), else by WDL. DTZ ranks every win above every draw
    /// (a cursed win may still be won if the opponent errs); by WDL alone, `rule50` off
    /// ranks cursed wins with wins and blessed losses with losses. `None` if the
    /// position is not covered or a table is missing or damaged.
    pub fn rank_root(&self, board: &mut Board, rule50: bool) -> Option<RootRanking> {
        if !self.covers(board) {
            return None;
        }
        let moves: Vec<Move> = board.legal_moves().iter().copied().collect();
        if moves.is_empty() {
            return None;
        }
        match self.rank_by_dtz(board, &moves) {
            Some(r) => Some(r),
            None => self.rank_by_wdl(board, &moves, rule50),
        }
    }

    fn rank_by_dtz(&self, board: &mut Board, moves: &[Move]) -> Option<RootRanking> {
        let clock = board.halfmove_clock() as i32;
        // A position that already occurred since the last zeroing move: wins are ranked
        // by distance, so that the shortest way on is taken rather than a repetition.
        let repeated = board.is_repetition(usize::MAX);
        let mut ranked = Vec::with_capacity(moves.len());
        for &m in moves {
            let (wdl, dtz) = after(board, m, |b| -> Option<(i32, i32)> {
                let (wdl, mut dtz) = if b.halfmove_clock() == 0 {
                    let w = -self.search(b, false)?.0;
                    (w, dtz_before_zeroing(w))
                } else if b.is_repetition(0) || b.fifty_move_draw() {
                    (0, 0)
                } else {
                    let d = -self.dtz(b)?;
                    let w = -self.search(b, false)?.0;
                    (w, d + d.signum())
                };
                if dtz == 2 && b.in_check() && b.legal_moves().is_empty() {
                    dtz = 1;
                }
                Some((wdl, dtz))
            })?;
            let rank = if dtz > 0 {
                if dtz + clock < FIFTY_MOVE_PLIES && !repeated {
                    RANK_SURE_WIN
                } else {
                    RANK_SURE_WIN / 2 - (dtz + clock)
                }
            } else if dtz < 0 {
                if -dtz * 2 + clock < FIFTY_MOVE_PLIES {
                    -RANK_SURE_WIN - dtz
                } else {
                    -RANK_SURE_WIN / 2 + (-dtz + clock)
                }
            } else {
                0
            };
            ranked.push(RootMove { mv: m, wdl: Wdl::from_i32(wdl), dtz: Some(dtz), rank });
        }
        // Best rank first; within a rank the shorter win (or the longer loss) first.
        ranked.sort_by_key(|r| (std::cmp::Reverse(r.rank), r.dtz));
        Some(RootRanking { moves: ranked, by_dtz: true })
    }

    fn rank_by_wdl(&self, board: &mut Board, moves: &[Move], rule50: bool) -> Option<RootRanking> {
        let mut ranked = Vec::with_capacity(moves.len());
        for &m in moves {
            let wdl = after(board, m, |b| self.search(b, false).map(|(v, _)| -v))?;
            let mut rank = WDL_RANKS[(wdl + 2) as usize];
            if !rule50 && wdl.abs() == 1 {
                rank = WDL_RANKS[(wdl * 2 + 2) as usize];
            }
            ranked.push(RootMove { mv: m, wdl: Wdl::from_i32(wdl), dtz: None, rank });
        }
        ranked.sort_by_key(|r| std::cmp::Reverse(r.rank));
        Some(RootRanking { moves: ranked, by_dtz: false })
    }
}
