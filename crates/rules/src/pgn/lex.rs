//! The pieces of PGN text: characters with their line and column, tags,
//! tokens, move numbers.

use super::PgnError;

/// Where a character is in the text: line and column, both from 1
/// (columns count characters, not bytes).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) struct At {
    pub(super) line: usize,
    pub(super) column: usize,
}

impl At {
    /// A syntax error here.
    pub(super) fn error(self, message: impl Into<String>) -> PgnError {
        PgnError::Syntax {
            line: self.line,
            column: self.column,
            message: message.into(),
        }
    }
}

/// The characters of PGN text, each with where it is.
pub(super) struct Chars<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    next_at: At,
}

impl<'a> Chars<'a> {
    pub(super) fn new(text: &'a str) -> Chars<'a> {
        Chars {
            chars: text.chars().peekable(),
            next_at: At { line: 1, column: 1 },
        }
    }

    /// The next character, without taking it.
    pub(super) fn peek(&mut self) -> Option<char> {
        self.chars.peek().copied()
    }

    /// Where the next character is (or the end of the text).
    pub(super) fn at(&self) -> At {
        self.next_at
    }
}

impl Iterator for Chars<'_> {
    type Item = char;

    fn next(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if c == '\n' {
            self.next_at.line += 1;
            self.next_at.column = 1;
        } else {
            self.next_at.column += 1;
        }
        Some(c)
    }
}

/// Reads a tag `[Name "value"]` after its `[`, which is at `start`.
pub(super) fn read_tag(chars: &mut Chars<'_>, start: At) -> Result<(String, String), PgnError> {
    let mut tag = String::new();
    let mut in_str = false;
    let mut closed = false;
    while let Some(c) = chars.next() {
        match c {
            '\\' if in_str => {
                if let Some(n) = chars.next() {
                    tag.push(n);
                }
                continue;
            }
            '"' => in_str = !in_str,
            ']' if !in_str => {
                closed = true;
                break;
            }
            _ => {}
        }
        tag.push(c);
    }
    if !closed {
        return Err(start.error("a tag is not closed with ']'"));
    }
    let tag = tag.trim();
    let shown: String = tag.chars().take(40).collect();
    let (name, value) = tag
        .split_once(char::is_whitespace)
        .ok_or_else(|| start.error(format!("tag without value: [{shown}]")))?;
    let value = value
        .trim()
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .ok_or_else(|| start.error(format!("tag value not quoted: [{shown}]")))?;
    Ok((name.to_string(), value.to_string()))
}

/// A movetext token starting with `first`: up to white space or a
/// character that starts something else.
pub(super) fn read_token(first: char, chars: &mut Chars<'_>) -> String {
    let mut tok = String::from(first);
    while let Some(n) = chars.peek() {
        if n.is_whitespace() || "{}();[".contains(n) {
            break;
        }
        tok.push(n);
        chars.next();
    }
    tok
}

/// `tok` without a move number ("12." or "12...") glued to its front; empty
/// when the token is only a number.
pub(super) fn strip_move_number(tok: &str) -> &str {
    let t = tok.trim_start_matches(|c: char| c.is_ascii_digit());
    let t = if t.len() < tok.len() && t.starts_with('.') {
        t.trim_start_matches('.')
    } else {
        tok
    };
    if t.chars().all(|c| c == '.') { "" } else { t }
}
