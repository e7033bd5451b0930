//! Self-play data generation for tuning the evaluation (`horizon datagen`).
//!
//! Horizon plays games against itself at a fixed node budget per move and writes the quiet
//! positions of each game together with the search score and the game's result.
//!
//! Each position is written as a data line (`<FEN> | <score> | <result>`,
//! [`super::text`]) or, with `--format bin` ([`super::Format::Bin`]), as a 32-byte record
//! ([`super::record`]; castling rights are not stored) for the network trainer.
//!
//! - [`player`]: one self-play game: opening, moves, adjudication, the quiet-position filter.
//! - [`runner`]: a whole run: worker threads, the output file, progress reports.
//!
//! `--book` files are read by [`super::book`]. The command line (`horizon datagen ...`) is
//! `crate::commands::datagen`; this library takes a [`Config`] and returns a typed error
//! ([`DatagenError`]).
//!
//! # How a game is played
//!
//! 1. **Opening.** The game starts from the start position, or from a line of the `--book`
//!    EPD file chosen at random, followed by `--random-plies` random legal moves. An opening
//!    after which the side to move already scores beyond [`OPENING_MAX_SCORE`] in the
//!    first search is thrown away and another one drawn, so games start roughly balanced.
//! 2. **Moves.** Each move is a search limited to `--nodes` nodes (a hard limit: the
//!    search stops mid-iteration), one search thread, with a transposition table and
//!    histories cleared at the start of every game, evaluating with the network or the
//!    classical evaluation as [`Config::network`] says (`--eval`, `--evalfile`). With
//!    `--soft-nodes S` the search also starts no new iteration once `S` nodes are reached,
//!    and `--nodes` (default `S` × [`HARD_NODE_FACTOR`]) is the hard cap.
//! 3. **End.** Checkmate, stalemate, threefold repetition, the fifty-move rule and
//!    insufficient material end a game as the rules say. Adjudication ends it earlier: a
//!    win when the score stays at or beyond `--win-score` (default [`WIN_SCORE`]) for one
//!    side for `--win-plies` (default [`WIN_PLIES`]) plies in a row; a draw when, after
//!    [`DRAW_MIN_PLY`] plies, the score stays within [`DRAW_SCORE`] for [`DRAW_PLIES`]
//!    plies in a row. A game still going after [`MAX_GAME_PLIES`] plies is scored a draw.
//! 4. **Filter.** A position is written only when it was reached after the opening, its
//!    side to move is not in check, the best move found is not a capture or promotion, the
//!    score is not a mate score, and (by default, `--filter qsearch`) the quiescence search
//!    scores it exactly as the static evaluation does (nothing is hanging). These are the
//!    positions whose search score the static evaluation can hope to match. `--filter
//!    bestmove` drops that last test ([`Filter`]).
//!
//! # Reproducibility
//!
//! Game `i` draws its opening from a random generator seeded with `--seed` and `i` alone,
//! and every game starts with empty tables. So a run with the same seed plays the same
//! games whatever the thread count; with one thread they are also written in the same
//! order, and the file is byte-identical. (Across builds or evaluation changes the games of
//! course differ.)
//!
//! # Interruption
//!
//! Each worker thread plays whole games and writes each game's lines (or records) in one write, under a
//! lock. Stopping the program (Ctrl-C, `kill`) loses only the games being played.

pub mod player;
pub mod runner;

pub use player::{
    Filter, Game, Player, Rules, DRAW_MIN_PLY, DRAW_PLIES, DRAW_SCORE, MAX_GAME_PLIES, OPENING_MAX_SCORE, WIN_PLIES,
    WIN_SCORE,
};
pub use runner::{
    run, Config, DatagenError, Existing, Status, DEFAULT_BOOK_RANDOM_PLIES, DEFAULT_HASH_MB, DEFAULT_NODES,
    DEFAULT_RANDOM_PLIES, HARD_NODE_FACTOR,
};
