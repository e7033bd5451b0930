//! Turns fastchess games (for example from OpenBench DATAGEN workloads) into training
//! positions in the datagen text format (`<FEN> | <score> | <result>`, see
//! [`crate::data::text`]).
//!
//! Each move of a game gives at most one position: the position **before** the move,
//! with the score of the move's comment (see [`super::fastchess`]) turned to White's
//! point of view, and the game's result. A position is left out, and counted, when
//!
//! - it comes before `min_ply` (plies counted from the game's first position, so the
//!   first move is ply 0);
//! - its move is a book move, or its comment has no score (or there is no comment);
//! - the score is a mate score;
//! - the side to move is in check;
//! - the move played is a capture or a promotion
//!   ([`crate::search::movepick::is_tactical`]).
//!
//! These are the datagen filters except its quiescence test, which would tie the data to
//! the evaluation of the build that converts it.
//!
//! A game is skipped as a whole, and nothing of it written, when a tag, the starting
//! FEN, a move, a comment or the result cannot be read, when it has variations, or when
//! it was not finished (`*`).

use super::fastchess::{parse_comment, EngineScore, MoveComment};
use super::{tokens, RawGame, Token};
use crate::board::Board;
use crate::data::text::{format_line, Outcome};
use crate::san::parse_san;
use crate::search::movepick::is_tactical;
use crate::types::Color;

/// Why a game was skipped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SkipKind {
    /// A malformed tag, an unreadable `FEN` tag or an unsupported `Variant`.
    Header,
    Move,
    Comment,
    Result,
    /// Result `*`.
    Unfinished,
    /// Variations (`( … )`), which engine games do not have.
    Variation,
}

impl SkipKind {
    pub const ALL: [SkipKind; 6] = [
        SkipKind::Header,
        SkipKind::Move,
        SkipKind::Comment,
        SkipKind::Result,
        SkipKind::Unfinished,
        SkipKind::Variation,
    ];

    /// The name used in the summary.
    pub fn name(self) -> &'static str {
        match self {
            SkipKind::Header => "unreadable header",
            SkipKind::Move => "unreadable move",
            SkipKind::Comment => "unreadable comment",
            SkipKind::Result => "unreadable result",
            SkipKind::Unfinished => "unfinished",
            SkipKind::Variation => "variation",
        }
    }
}

/// A skipped game: the kind (for counting) and a one-line reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skip {
    pub kind: SkipKind,
    pub reason: String,
}

fn skip(kind: SkipKind, reason: impl Into<String>) -> Skip {
    Skip { kind, reason: reason.into() }
}

/// What became of the positions of the games converted so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PositionCounts {
    /// Moves read (each is one candidate position).
    pub moves: u64,
    pub written: u64,
    pub early: u64,
    pub book: u64,
    pub no_score: u64,
    pub mate: u64,
    pub in_check: u64,
    pub tactical: u64,
}

impl PositionCounts {
    pub fn add(&mut self, o: &PositionCounts) {
        self.moves += o.moves;
        self.written += o.written;
        self.early += o.early;
        self.book += o.book;
        self.no_score += o.no_score;
        self.mate += o.mate;
        self.in_check += o.in_check;
        self.tactical += o.tactical;
    }
}

/// A converted game: its data lines (each ending in `\n`) and its counts.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Converted {
    pub lines: String,
    pub counts: PositionCounts,
}

/// A move of the game with what the filters need to know about the position before it.
struct Played {
    fen: String,
    mover: Color,
    in_check: bool,
    tactical: bool,
    comment: Option<MoveComment>,
}

/// The game's result from a `Result` tag or termination marker.
fn outcome(text: &str) -> Result<Outcome, Skip> {
    match text {
        "1-0" => Ok(Outcome::WhiteWins),
        "0-1" => Ok(Outcome::BlackWins),
        "1/2-1/2" => Ok(Outcome::Draw),
        "*" => Err(skip(SkipKind::Unfinished, "the game was not finished (result '*')")),
        other => Err(skip(SkipKind::Result, format!("result '{other}' is not 1-0, 0-1 or 1/2-1/2"))),
    }
}

/// The position the game starts from: the `FEN` tag, or the standard start position.
fn start_position(game: &RawGame) -> Result<Board, Skip> {
    let chess960 = match game.tag("Variant") {
        None => false,
        Some(v) if v.eq_ignore_ascii_case("standard") || v.eq_ignore_ascii_case("chess") => false,
        Some(v) if v.eq_ignore_ascii_case("chess960") || v.eq_ignore_ascii_case("fischerandom") => true,
        Some(v) => return Err(skip(SkipKind::Header, format!("variant '{v}' is not supported"))),
    };
    let mut board = match game.tag("FEN") {
        Some(fen) => Board::from_fen(fen).map_err(|e| skip(SkipKind::Header, format!("FEN tag: {e}")))?,
        None => Board::startpos(),
    };
    if chess960 {
        board.set_chess960(true);
    }
    Ok(board)
}

/// Converts one game, keeping the positions that pass the filters.
pub fn convert_game(game: &RawGame, min_ply: usize) -> Result<Converted, Skip> {
    if let Some(t) = &game.tag_error {
        return Err(skip(SkipKind::Header, format!("unreadable tag '{t}'")));
    }
    let mut board = start_position(game)?;

    // 1. Play the moves, noting for each the position before it and its comment.
    let mut played: Vec<Played> = Vec::new();
    let mut marker = None;
    for tok in tokens(&game.movetext) {
        if marker.is_some() && tok != Token::Nag && !matches!(tok, Token::Comment(_)) {
            return Err(skip(SkipKind::Result, "moves after the result"));
        }
        match tok {
            Token::Move(san) => {
                let Some(m) = parse_san(&board, san) else {
                    let n = board.fullmove_number();
                    let dots = if board.side_to_move() == Color::White { "." } else { "..." };
                    return Err(skip(SkipKind::Move, format!("move {n}{dots} '{san}' is not legal or not SAN")));
                };
                played.push(Played {
                    fen: board.to_fen(),
                    mover: board.side_to_move(),
                    in_check: board.in_check(),
                    tactical: is_tactical(&board, m),
                    comment: None,
                });
                board.make(m);
                // Only the last position is needed for repetitions: keep the history short.
                if board.halfmove_clock() == 0 {
                    board.clear_history();
                }
            }
            Token::Comment(text) => {
                // A comment before the first move describes the game; a second comment
                // after a move adds nothing the converter uses.
                let ply = played.len();
                if let Some(p) = played.last_mut().filter(|p| p.comment.is_none()) {
                    let c = parse_comment(text)
                        .map_err(|e| skip(SkipKind::Comment, format!("comment {{{text}}} after ply {ply}: {e}")))?;
                    p.comment = Some(c);
                }
            }
            Token::Result(r) => marker = Some(r),
            Token::Nag => {}
            Token::VariationStart | Token::VariationEnd => {
                return Err(skip(SkipKind::Variation, "variations are not supported"));
            }
            Token::Error(e) => return Err(skip(SkipKind::Comment, e)),
        }
    }

    // 2. The result: the tag, which must agree with the termination marker if both exist.
    let result = match (game.tag("Result"), marker) {
        (Some(t), Some(m)) if t != m => {
            return Err(skip(SkipKind::Result, format!("Result tag '{t}' but the moves end in '{m}'")))
        }
        (Some(t), _) => outcome(t)?,
        (None, Some(m)) => outcome(m)?,
        (None, None) => return Err(skip(SkipKind::Result, "no result")),
    };

    // 3. Filter and format.
    let mut out = Converted::default();
    for (ply, p) in played.iter().enumerate() {
        let c = &mut out.counts;
        c.moves += 1;
        if ply < min_ply {
            c.early += 1;
            continue;
        }
        let score = match p.comment {
            None | Some(MoveComment::Engine { score: None, .. }) => {
                c.no_score += 1;
                continue;
            }
            Some(MoveComment::Book) => {
                c.book += 1;
                continue;
            }
            Some(MoveComment::Engine { score: Some(EngineScore::Mate(_)), .. }) => {
                c.mate += 1;
                continue;
            }
            Some(MoveComment::Engine { score: Some(EngineScore::Cp(cp)), .. }) => cp,
        };
        if p.in_check {
            c.in_check += 1;
            continue;
        }
        if p.tactical {
            c.tactical += 1;
            continue;
        }
        let white_score = if p.mover == Color::White { score } else { -score };
        out.lines.push_str(&format_line(&p.fen, white_score, result));
        c.written += 1;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::pgn::GameReader;

    fn game(text: &str) -> RawGame {
        GameReader::new(text.as_bytes()).next().unwrap().unwrap()
    }

    #[test]
    fn scores_turn_to_whites_view_and_filters_apply() {
        let g = game(
            "[Result \"0-1\"]\n\n1. e4 {book} e5 {+0.20/10 0.1s} 2. Nf3 {+0.40/11 0.1s} Nc6 {-0.30/9 0.1s}\n\
             3. Bb5 {+0.35/12 0.1s} a6 {-0.31/12 0.1s} 4. Bxc6 {+0.10/10 0.1s} dxc6 {/0 0.0s} 5. O-O {+M9/30 0.1s} 0-1\n",
        );
        let c = convert_game(&g, 0).unwrap();
        let fens: Vec<&str> = c.lines.lines().collect();
        assert_eq!(
            fens,
            [
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 | -20 | 0.0",
                "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 | 40 | 0.0",
                "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2 | 30 | 0.0",
                "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3 | 35 | 0.0",
                "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3 | 31 | 0.0",
            ]
        );
        let want =
            PositionCounts { moves: 9, written: 5, book: 1, tactical: 1, no_score: 1, mate: 1, ..Default::default() };
        assert_eq!(c.counts, want);
        let late = convert_game(&g, 3).unwrap();
        assert_eq!(late.counts.early, 3);
        assert_eq!(late.counts.written, 3);
    }

    #[test]
    fn bad_games_are_skipped_with_their_kind() {
        let kind = |t: &str| convert_game(&game(t), 0).unwrap_err().kind;
        assert_eq!(kind("[Result \"1-0\"]\n1. e4 e5 2. Ke3 1-0\n"), SkipKind::Move);
        assert_eq!(kind("[Result \"1-0\"]\n1. e4 {+0.1/x} 1-0\n"), SkipKind::Comment);
        assert_eq!(kind("[Result \"1-0\"]\n1. e4 {+0.1/2 1s 1-0\n"), SkipKind::Comment);
        assert_eq!(kind("[Result \"2-0\"]\n1. e4 2-0\n"), SkipKind::Move);
        assert_eq!(kind("[Result \"2-0\"]\n1. e4\n"), SkipKind::Result);
        assert_eq!(kind("[Result \"1-0\"]\n1. e4 0-1\n"), SkipKind::Result);
        assert_eq!(kind("1. e4\n"), SkipKind::Result);
        assert_eq!(kind("[Result \"*\"]\n1. e4 *\n"), SkipKind::Unfinished);
        assert_eq!(kind("[Result \"1-0\"]\n1. e4 (1. d4) 1-0\n"), SkipKind::Variation);
        assert_eq!(kind("[FEN \"8/8/8 w - - 0 1\"]\n[Result \"1-0\"]\n1. e4 1-0\n"), SkipKind::Header);
        assert_eq!(kind("[Variant \"atomic\"]\n[Result \"1-0\"]\n1. e4 1-0\n"), SkipKind::Header);
        assert_eq!(kind("[Result 1-0]\n1. e4 1-0\n"), SkipKind::Header);
        assert_eq!(kind("[Result \"1-0\"]\n1. e4 1-0 2. d4\n"), SkipKind::Result);
        // A FEN start, black to move, with the result only as the marker.
        let ok =
            convert_game(&game("[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 40\"]\n40... Kd7 {-1.50/20 0.2s} 1/2-1/2\n"), 0);
        assert_eq!(ok.unwrap().lines, "4k3/8/8/8/8/8/4P3/4K3 b - - 0 40 | 150 | 0.5\n");
    }
}
