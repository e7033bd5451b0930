//! The move comments that fastchess (and cutechess) write into their PGNs.
//!
//! After each engine move fastchess writes `{<score>/<depth> <time>s}`, for example
//! `{+0.35/12 0.123s}`, `{-1.20/9 0.051s}`, `{0.00/15 0.201s}`, `{+M5/20 0.010s}` or
//! `{-M4/18 0.020s}`. Further fields may follow after `, ` (`tl=…`, `n=…`, `pv="…"` with
//! the tracking options) and the last move of a game carries the reason it ended, such as
//! `{+1.23/15 0.512s, White wins by adjudication}`. Moves from the opening book are
//! commented `{book}`.
//!
//! - The score is the engine's own `info score` for the position **before** the move,
//!   that is from the point of view of the side that played the move (fastchess copies
//!   `score cp 35` as `+0.35`). `cp` is shown in pawns with two decimals and a sign
//!   (none for zero).
//! - A mate score is `M` followed by the distance in plies: `mate 3` is `+M5`,
//!   `mate -2` is `-M4`.
//! - A move the engine sent no score for has an empty score (`{/0 0.000s}`); fastchess
//!   also writes `ERR` for a score it could not read.

/// A score from a move comment, from the moving side's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineScore {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many plies (negative: the moving side is mated).
    Mate(i32),
}

/// What a move comment says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveComment {
    /// The move came from the opening book.
    Book,
    /// An engine move, with its score if the engine gave one and its depth.
    Engine { score: Option<EngineScore>, depth: u32 },
}

/// The largest pawn value read from a comment (beyond it a "score" is not a score).
const MAX_PAWNS: f64 = 1000.0;

/// Why a comment is not a fastchess move comment. Each prints as one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommentError {
    Empty,
    /// The first word is not `<score>/<depth>`.
    NoScoreDepth,
    Depth(String),
    /// A time without its `s`.
    TimeUnit(String),
    Time(String),
    Mate(String),
    Score(String),
    ScoreRange(String),
}

impl std::fmt::Display for CommentError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            CommentError::Empty => write!(f, "empty comment"),
            CommentError::NoScoreDepth => write!(f, "no '<score>/<depth>'"),
            CommentError::Depth(d) => write!(f, "depth '{d}' is not a number"),
            CommentError::TimeUnit(t) => write!(f, "time '{t}' does not end in 's'"),
            CommentError::Time(t) => write!(f, "time '{t}' is not a number"),
            CommentError::Mate(s) => write!(f, "mate score '{s}' is not M<plies>"),
            CommentError::Score(s) => write!(f, "score '{s}' is not a number"),
            CommentError::ScoreRange(s) => write!(f, "score '{s}' is out of range"),
        }
    }
}

impl std::error::Error for CommentError {}

/// Reads one move comment; an `Err` says why it is not a fastchess comment.
pub fn parse_comment(text: &str) -> Result<MoveComment, CommentError> {
    let text = text.trim();
    if text == "book" {
        return Ok(MoveComment::Book);
    }
    // The first field, up to `, `, is `<score>/<depth> <time>`.
    let first = text.split(',').next().unwrap_or("").trim();
    let mut words = first.split_whitespace();
    let head = words.next().ok_or(CommentError::Empty)?;
    let (score, depth) = head.split_once('/').ok_or(CommentError::NoScoreDepth)?;
    let depth: u32 = depth.parse().map_err(|_| CommentError::Depth(depth.to_string()))?;
    if let Some(time) = words.next() {
        let secs = time.strip_suffix('s').ok_or_else(|| CommentError::TimeUnit(time.to_string()))?;
        secs.parse::<f64>().map_err(|_| CommentError::Time(time.to_string()))?;
    }
    let score = parse_score(score)?;
    Ok(MoveComment::Engine { score, depth })
}

/// `+0.35` → 35 cp, `-M4` → mate -4 plies, `` or `ERR` → no score.
fn parse_score(s: &str) -> Result<Option<EngineScore>, CommentError> {
    if s.is_empty() || s == "ERR" {
        return Ok(None);
    }
    let (negative, body) = match s.as_bytes()[0] {
        b'+' => (false, &s[1..]),
        b'-' => (true, &s[1..]),
        _ => (false, s),
    };
    let sign = if negative { -1 } else { 1 };
    if let Some(plies) = body.strip_prefix('M') {
        let n: i32 = plies.parse().map_err(|_| CommentError::Mate(s.to_string()))?;
        return Ok(Some(EngineScore::Mate(sign * n)));
    }
    // Only digits and one point: `f64` alone would also take `inf`, `1e3` and the like.
    if body.is_empty() || !body.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return Err(CommentError::Score(s.to_string()));
    }
    let pawns: f64 = body.parse().map_err(|_| CommentError::Score(s.to_string()))?;
    if pawns > MAX_PAWNS {
        return Err(CommentError::ScoreRange(s.to_string()));
    }
    Ok(Some(EngineScore::Cp(sign * (pawns * 100.0).round() as i32)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn engine(score: Option<EngineScore>, depth: u32) -> Result<MoveComment, CommentError> {
        Ok(MoveComment::Engine { score, depth })
    }

    #[test]
    fn comments_parse() {
        use EngineScore::*;
        assert_eq!(parse_comment("book"), Ok(MoveComment::Book));
        assert_eq!(parse_comment("+0.35/12 0.123s"), engine(Some(Cp(35)), 12));
        assert_eq!(parse_comment("-1.20/9 0.051s"), engine(Some(Cp(-120)), 9));
        assert_eq!(parse_comment("0.00/15 0.201s"), engine(Some(Cp(0)), 15));
        assert_eq!(parse_comment("-0.07/3 0.001s"), engine(Some(Cp(-7)), 3));
        assert_eq!(parse_comment("+12.57/30 1.5s"), engine(Some(Cp(1257)), 30));
        assert_eq!(parse_comment("+M5/20 0.010s"), engine(Some(Mate(5)), 20));
        assert_eq!(parse_comment("-M4/18 0.020s"), engine(Some(Mate(-4)), 18));
        assert_eq!(parse_comment("/0 0.000s"), engine(None, 0));
        assert_eq!(parse_comment("ERR/7 0.100s"), engine(None, 7));
        assert_eq!(parse_comment("+1.23/15 0.512s, White wins by adjudication"), engine(Some(Cp(123)), 15));
        assert_eq!(parse_comment("-0.50/8 0.040s, tl=9.5s, n=5012"), engine(Some(Cp(-50)), 8));
        assert_eq!(parse_comment("+0.35/12"), engine(Some(Cp(35)), 12));
        for bad in
            ["", "hello", "+0.35", "+x/12 0.1s", "+0.35/d 0.1s", "+0.35/12 fast", "+inf/3 1s", "+M/3 1s", "+1e9/2 1s"]
        {
            assert!(parse_comment(bad).is_err(), "{bad:?} was accepted");
        }
    }
}
