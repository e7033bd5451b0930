//! Reading PGN files: games split off a stream one at a time, their tag pairs, and the
//! tokens of their movetext. What the moves and comments mean is left to the users of
//! this module ([`convert`] turns fastchess games into training data).
//!
//! The reader is forgiving about layout (blank lines, CRLF, `%` escape lines, several
//! games with no blank line between them) and never fails on content: a malformed tag is
//! kept as an error inside the game, an unterminated comment becomes an error token, so
//! the caller can skip that game and go on with the next.

pub mod convert;
pub mod fastchess;

use std::io::BufRead;

/// One game as read: its tag pairs in order and its movetext, unparsed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RawGame {
    pub tags: Vec<(String, String)>,
    pub movetext: String,
    /// The first unreadable tag line, if any (the game should be skipped).
    pub tag_error: Option<String>,
}

impl RawGame {
    /// The value of tag `name` (the first one, if repeated).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    fn is_empty(&self) -> bool {
        self.tags.is_empty() && self.movetext.trim().is_empty() && self.tag_error.is_none()
    }
}

/// Parses `[Name "Value"]` (with `\"` and `\\` escapes in the value).
fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.trim_end().strip_suffix(']')?.trim();
    let (name, rest) = inner.split_once(char::is_whitespace)?;
    let rest = rest.trim();
    let quoted = rest.strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::with_capacity(quoted.len());
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => value.push(chars.next()?),
            '"' => return None,
            c => value.push(c),
        }
    }
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    Some((name.to_string(), value))
}

/// Splits a PGN stream into games. Yields `Err` only for I/O errors; bytes that are not
/// UTF-8 are replaced (the game they are in will then usually fail to parse).
pub struct GameReader<R> {
    input: R,
    /// A tag line that ended the previous game and begins the next one.
    carry: Option<String>,
    buf: Vec<u8>,
    done: bool,
}

impl<R: BufRead> GameReader<R> {
    pub fn new(input: R) -> GameReader<R> {
        GameReader { input, carry: None, buf: Vec::new(), done: false }
    }

    fn read_line(&mut self) -> std::io::Result<Option<String>> {
        if let Some(l) = self.carry.take() {
            return Ok(Some(l));
        }
        self.buf.clear();
        if self.input.read_until(b'\n', &mut self.buf)? == 0 {
            return Ok(None);
        }
        Ok(Some(String::from_utf8_lossy(&self.buf).into_owned()))
    }
}

impl<R: BufRead> Iterator for GameReader<R> {
    type Item = std::io::Result<RawGame>;

    /// The next game: tag lines, then movetext up to the next tag line outside a comment
    /// (or the end of the input).
    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let mut game = RawGame::default();
        let mut in_comment = false;
        loop {
            let line = match self.read_line() {
                Ok(Some(l)) => l,
                Ok(None) => {
                    self.done = true;
                    return if game.is_empty() { None } else { Some(Ok(game)) };
                }
                Err(e) => {
                    self.done = true;
                    return Some(Err(e));
                }
            };
            let trimmed = line.trim();
            if !in_comment && trimmed.starts_with('%') {
                continue; // escape line: ignored by the PGN standard
            }
            if !in_comment && trimmed.starts_with('[') {
                if !game.movetext.trim().is_empty() {
                    self.carry = Some(line);
                    return Some(Ok(game));
                }
                match parse_tag(trimmed) {
                    Some(t) => game.tags.push(t),
                    None => {
                        game.tag_error.get_or_insert_with(|| trimmed.to_string());
                    }
                }
                continue;
            }
            // Movetext: follow `{…}` comments across lines so that a `[` inside one is not
            // taken for the next game's tags. `;` comments end with the line.
            for c in trimmed.chars() {
                match c {
                    '{' if !in_comment => in_comment = true,
                    '}' if in_comment => in_comment = false,
                    ';' if !in_comment => break,
                    _ => {}
                }
            }
            if !trimmed.is_empty() {
                game.movetext.push_str(trimmed);
                game.movetext.push('\n');
            }
        }
    }
}

/// One element of movetext.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Token<'a> {
    /// A move in SAN as written (annotation marks such as `!?` removed).
    Move(&'a str),
    /// The text of a `{…}` or `;` comment, without its delimiters.
    Comment(&'a str),
    /// A game termination marker: `1-0`, `0-1`, `1/2-1/2` or `*`.
    Result(&'a str),
    /// `(`: the start of a variation (`)` is [`Token::VariationEnd`]).
    VariationStart,
    VariationEnd,
    /// A numeric annotation glyph such as `$1`.
    Nag,
    /// Something that is none of the above (an unterminated comment, a stray `}`).
    Error(String),
}

/// The tokens of `movetext`. Move numbers (`12.`, `12...`) are dropped, also when the
/// move follows without a space (`12.Nf3`).
pub fn tokens(movetext: &str) -> Vec<Token<'_>> {
    let mut out = Vec::new();
    let s = movetext;
    let bytes = s.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            b if b.is_ascii_whitespace() => i += 1,
            b'{' => match s[i + 1..].find('}') {
                Some(end) => {
                    out.push(Token::Comment(s[i + 1..i + 1 + end].trim()));
                    i += end + 2;
                }
                None => {
                    out.push(Token::Error("a comment '{' is never closed".to_string()));
                    return out;
                }
            },
            b';' => {
                let end = s[i..].find('\n').map_or(s.len(), |e| i + e);
                out.push(Token::Comment(s[i + 1..end].trim()));
                i = end;
            }
            b'(' => {
                out.push(Token::VariationStart);
                i += 1;
            }
            b')' => {
                out.push(Token::VariationEnd);
                i += 1;
            }
            b'}' => {
                out.push(Token::Error("a '}' without its '{'".to_string()));
                i += 1;
            }
            _ => {
                // A word is at least one character long, so the loop always advances.
                let ch = s[i..].chars().next().unwrap_or(' ');
                let first = ch.len_utf8();
                if ch.is_whitespace() {
                    i += first; // non-ASCII white space
                    continue;
                }
                let end = s[i + first..]
                    .find(|ch: char| ch.is_whitespace() || "{}();".contains(ch))
                    .map_or(s.len(), |e| i + first + e);
                let word = &s[i..end];
                i = end;
                word_tokens(word, &mut out);
            }
        }
    }
    out
}

/// Classifies one whitespace-delimited word of movetext.
fn word_tokens<'a>(word: &'a str, out: &mut Vec<Token<'a>>) {
    if matches!(word, "1-0" | "0-1" | "1/2-1/2" | "*") {
        out.push(Token::Result(word));
        return;
    }
    if let Some(glyph) = word.strip_prefix('$') {
        out.push(if !glyph.is_empty() && glyph.bytes().all(|b| b.is_ascii_digit()) {
            Token::Nag
        } else {
            Token::Error(format!("bad annotation '{word}'"))
        });
        return;
    }
    // A move number, possibly glued to the move after it.
    let digits = word.bytes().take_while(u8::is_ascii_digit).count();
    let mut rest = word;
    if digits > 0 && word[digits..].starts_with('.') {
        rest = word[digits..].trim_start_matches('.');
        if rest.is_empty() {
            return;
        }
    }
    let mv = rest.trim_end_matches(['!', '?']);
    out.push(if mv.is_empty() { Token::Nag } else { Token::Move(mv) });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_parse() {
        assert_eq!(parse_tag(r#"[White "Horizon"]"#), Some(("White".into(), "Horizon".into())));
        assert_eq!(parse_tag(r#"[Event "a \"b\" \\ c"]"#), Some(("Event".into(), r#"a "b" \ c"#.into())));
        assert_eq!(parse_tag(r#"[FEN ""]"#), Some(("FEN".into(), "".into())));
        for bad in [r#"[White Horizon]"#, r#"[White "Horizon"#, r#"["Horizon"]"#, r#"[White "a"b"]"#] {
            assert_eq!(parse_tag(bad), None, "{bad}");
        }
    }

    #[test]
    fn movetext_tokens() {
        let t = tokens("1. e4 {+0.35/12 0.123s} 1... c5 $1 2.Nf3!? (2. c3) ; rest\n 0-0 1/2-1/2");
        assert_eq!(
            t,
            vec![
                Token::Move("e4"),
                Token::Comment("+0.35/12 0.123s"),
                Token::Move("c5"),
                Token::Nag,
                Token::Move("Nf3"),
                Token::VariationStart,
                Token::Move("c3"),
                Token::VariationEnd,
                Token::Comment("rest"),
                Token::Move("0-0"),
                Token::Result("1/2-1/2"),
            ]
        );
        assert!(matches!(tokens("1. e4 {open").last(), Some(Token::Error(_))));
        assert!(matches!(tokens("1. e4 } e5").get(1), Some(Token::Error(_))));
        assert_eq!(tokens("e4\u{a0}e5 é"), vec![Token::Move("e4"), Token::Move("e5"), Token::Move("é")]);
    }

    #[test]
    fn games_split() {
        let text = "[Event \"a\"]\n[Result \"1-0\"]\n\n1. e4 {x\n[not a tag]} 1-0\n[Event \"b\"]\r\n\r\n% escape\n1. d4 *\n\n\n";
        let games: Vec<RawGame> = GameReader::new(text.as_bytes()).map(Result::unwrap).collect();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].tag("Result"), Some("1-0"));
        assert_eq!(games[0].movetext, "1. e4 {x\n[not a tag]} 1-0\n");
        assert_eq!(games[1].tag("Event"), Some("b"));
        assert_eq!(games[1].movetext.trim(), "1. d4 *");
        let bad: Vec<RawGame> = GameReader::new("[Event a]\n1. e4 *\n".as_bytes()).map(Result::unwrap).collect();
        assert_eq!(bad[0].tag_error.as_deref(), Some("[Event a]"));
        assert_eq!(GameReader::new("\n\n".as_bytes()).count(), 0);
    }
}
