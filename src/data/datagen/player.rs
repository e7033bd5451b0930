//! One self-play game (see the parent module's "How a game is played"): the opening draw,
//! the moves, adjudication and the quiet-position filter.

use crate::board::{Board, START_FEN};
use crate::data::record::{Record, RECORD_SIZE};
use crate::data::text::{format_line, Outcome};
use crate::error::HashAllocError;
use crate::eval::nnue::Network;
use crate::hash::mix64;
use crate::rng::SplitMix64;
use crate::search::movepick::is_tactical;
use crate::search::params::MATE_BOUND;
use crate::search::time::Clock;
use crate::search::tt::TranspositionTable;
use crate::search::{Control, Limits, Options, SearchResult, Searcher, Silent};
use crate::types::Color;
use std::sync::Arc;

/// An opening whose first search scores beyond this (centipawns, either side) is redrawn.
pub const OPENING_MAX_SCORE: i32 = 400;
/// Give up drawing openings for a game after this many tries (a book of lost positions).
const MAX_OPENING_TRIES: usize = 1000;
/// Win adjudication by default (`--win-score`): a score at least this large (centipawns)
/// for the same side ...
pub const WIN_SCORE: i32 = 1000;
/// ... for this many plies in a row (`--win-plies`).
pub const WIN_PLIES: usize = 6;
/// Draw adjudication: a score at most this large (centipawns, either side) ...
pub const DRAW_SCORE: i32 = 10;
/// ... for this many plies in a row ...
pub const DRAW_PLIES: usize = 12;
/// ... once this many plies have been played in the game, counting the random opening
/// plies (but not the moves that led to a book position).
pub const DRAW_MIN_PLY: usize = 80;
/// A game still running after this many plies is scored a draw.
pub const MAX_GAME_PLIES: usize = 600;

/// Which of a game's positions are written (`--filter`). Both drop positions reached in
/// the opening, positions in check, positions whose best move is a capture or promotion,
/// and mate scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Filter {
    /// Also drop a position unless the quiescence search scores it exactly as the static
    /// evaluation does (nothing hanging): the default, `--filter qsearch`.
    Quiescence,
    /// Keep the rest as they are (`--filter bestmove`): the search score of a position
    /// with a threat in it is still the score a static evaluation should learn.
    BestMove,
}

impl Filter {
    /// The name `--filter` takes.
    pub fn name(self) -> &'static str {
        match self {
            Filter::Quiescence => "qsearch",
            Filter::BestMove => "bestmove",
        }
    }

    /// The filter `--filter` names, if any.
    pub fn from_name(name: &str) -> Option<Filter> {
        [Filter::Quiescence, Filter::BestMove].into_iter().find(|f| f.name() == name)
    }
}

/// How a game may end early and which of its positions are kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Win adjudication: a score at least this large for one side ...
    pub win_score: i32,
    /// ... for this many plies in a row.
    pub win_plies: usize,
    pub filter: Filter,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules { win_score: WIN_SCORE, win_plies: WIN_PLIES, filter: Filter::Quiescence }
    }
}

/// A finished game: the positions kept (FEN, White-relative score) and the result.
#[derive(Clone, Debug)]
pub struct Game {
    pub positions: Vec<(String, i32)>,
    pub outcome: Outcome,
    /// Plies played after the opening.
    pub plies: usize,
}

impl Game {
    /// The game's data lines, ready to write.
    pub fn lines(&self) -> String {
        let mut s = String::new();
        for (fen, score) in &self.positions {
            s.push_str(&format_line(fen, *score, self.outcome));
        }
        s
    }

    /// The game's binary training records, ready to write.
    pub fn records(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.positions.len() * RECORD_SIZE);
        for (fen, score) in &self.positions {
            let board = Board::from_fen(fen).expect("datagen writes only positions it played");
            out.extend_from_slice(&Record::from_board(&board, *score, self.outcome.result_byte()).to_bytes());
        }
        out
    }
}

/// The seed of game `index`'s random generator: a SplitMix64-style mix of the run seed,
/// so neighbouring seeds and indices give unrelated streams.
fn game_seed(seed: u64, index: u64) -> u64 {
    mix64(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ index.wrapping_add(0xD1B5_4A32_D192_ED03))
}

/// Plays self-play games with one search thread and its own hash table.
pub struct Player {
    searcher: Searcher,
    tt: Arc<TranspositionTable>,
    nodes: u64,
    soft_nodes: Option<u64>,
    rules: Rules,
}

impl Player {
    /// A player with a hash table of `hash_mb` MiB searching `nodes` nodes a move.
    pub fn new(hash_mb: usize, nodes: u64) -> Result<Player, HashAllocError> {
        let tt = Arc::new(TranspositionTable::try_new(hash_mb)?);
        let mut searcher = Searcher::new(tt.clone(), Arc::new(Control::default()));
        // The stored scores train the next network: keep them on the network's own scale.
        searcher.set_options(Options { material_scale: false, ..searcher.options() });
        Ok(Player { searcher, tt, nodes: nodes.max(1), soft_nodes: None, rules: Rules::default() })
    }

    /// Evaluates with `network` (`None`: the classical evaluation).
    pub fn with_network(mut self, network: Option<Arc<Network>>) -> Player {
        self.searcher.set_network(network);
        self
    }

    /// Also stops each search after the iteration that reaches `soft` nodes.
    pub fn with_soft_nodes(mut self, soft: Option<u64>) -> Player {
        self.soft_nodes = soft;
        self
    }

    /// Adjudicates and filters as `rules` says.
    pub fn with_rules(mut self, rules: Rules) -> Player {
        self.rules = rules;
        self
    }

    /// Is the position worth writing, with `r` its search? See [`Filter`].
    fn keep(&mut self, board: &Board, r: &SearchResult) -> bool {
        let quiet_move = r.score.abs() < MATE_BOUND && !board.in_check() && !is_tactical(board, r.best);
        quiet_move
            && match self.rules.filter {
                Filter::BestMove => true,
                Filter::Quiescence => self.searcher.quiescence(board) == self.searcher.static_evaluation(board),
            }
    }

    fn search(&mut self, board: &Board) -> SearchResult {
        let limits = Limits {
            nodes: Some(self.nodes),
            soft_nodes: self.soft_nodes,
            multipv: 1,
            clock: Clock::default(),
            ..Limits::default()
        };
        self.searcher.search(board, limits, &mut Silent)
    }

    /// Draws an opening for the game seeded by `rng`: a book line (or the start position)
    /// plus `random_plies` random legal moves, redrawn while the position is over or its
    /// first search scores beyond [`OPENING_MAX_SCORE`]. Returns the position and that
    /// first search, which is also the game's first move.
    fn opening(&mut self, rng: &mut SplitMix64, book: &[String], random_plies: usize) -> (Board, SearchResult) {
        let mut last = None;
        for _ in 0..MAX_OPENING_TRIES {
            let fen = if book.is_empty() { START_FEN } else { book[rng.below(book.len())].as_str() };
            let Ok(mut board) = Board::from_fen(fen) else { continue };
            let mut alive = true;
            for _ in 0..random_plies {
                let moves = board.legal_moves();
                if moves.is_empty() {
                    alive = false;
                    break;
                }
                board.make(moves[rng.below(moves.len())]);
            }
            if !alive || game_over(&board).is_some() {
                continue;
            }
            self.new_game();
            let first = self.search(&board);
            if first.score.abs() <= OPENING_MAX_SCORE {
                return (board, first);
            }
            last = Some((board, first));
        }
        // Every try was unbalanced (a book of lost positions): play the last one anyway.
        match last {
            Some(x) => x,
            None => {
                let board = Board::startpos();
                self.new_game();
                let first = self.search(&board);
                (board, first)
            }
        }
    }

    /// Empties the hash table and the histories, so each game depends on its seed alone.
    fn new_game(&mut self) {
        self.tt.clear();
        self.searcher.clear();
    }

    /// Plays game number `index` of the run with seed `seed`.
    pub fn play(&mut self, seed: u64, index: u64, book: &[String], random_plies: usize) -> Game {
        let mut rng = SplitMix64::new(game_seed(seed, index));
        let (mut board, first) = self.opening(&mut rng, book, random_plies);
        let mut next = Some(first);
        let mut positions = Vec::new();
        // Signed run length of winning scores (positive: White) and of drawish scores.
        let mut win_run: i64 = 0;
        let mut draw_run = 0usize;
        let mut plies = 0usize;

        let outcome = loop {
            if let Some(o) = game_over(&board) {
                break o;
            }
            if plies >= MAX_GAME_PLIES {
                break Outcome::Draw;
            }
            let r = match next.take() {
                Some(r) => r,
                None => self.search(&board),
            };
            let us = board.side_to_move();
            let white_score = if us == Color::White { r.score } else { -r.score };

            if self.keep(&board, &r) {
                positions.push((board.to_fen(), white_score));
            }

            // Adjudication.
            let win = self.rules.win_score;
            win_run = if white_score >= win {
                win_run.max(0) + 1
            } else if white_score <= -win {
                win_run.min(0) - 1
            } else {
                0
            };
            if win_run.unsigned_abs() as usize >= self.rules.win_plies {
                break Outcome::win_for(if win_run > 0 { Color::White } else { Color::Black });
            }
            let game_ply = random_plies + plies;
            draw_run = if game_ply >= DRAW_MIN_PLY && white_score.abs() <= DRAW_SCORE { draw_run + 1 } else { 0 };
            if draw_run >= DRAW_PLIES {
                break Outcome::Draw;
            }

            board.make(r.best);
            plies += 1;
        };
        Game { positions, outcome, plies }
    }
}

/// The result if the game is over by the rules: mate, stalemate, threefold repetition,
/// fifty-move rule (mate on the last move takes precedence), insufficient material.
fn game_over(board: &Board) -> Option<Outcome> {
    if board.legal_moves().is_empty() {
        return Some(if board.in_check() { Outcome::win_for(board.side_to_move().flip()) } else { Outcome::Draw });
    }
    if board.is_repetition(0) || board.fifty_move_draw() || board.insufficient_material() {
        return Some(Outcome::Draw);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_seeds_differ() {
        let mut seen = std::collections::HashSet::new();
        for s in 0..20 {
            for i in 0..200 {
                assert!(seen.insert(game_seed(s, i)), "seed {s} game {i} collides");
            }
        }
    }
}
