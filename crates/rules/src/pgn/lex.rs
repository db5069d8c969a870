//! The pieces of PGN text both readers share: tags, tokens, move numbers.

use super::PgnError;

/// Characters of PGN text.
pub(super) type Chars<'a> = std::iter::Peekable<std::str::Chars<'a>>;

/// Reads a tag `[Name "value"]` after its `[`.
pub(super) fn read_tag(chars: &mut Chars<'_>) -> Result<(String, String), PgnError> {
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
        return Err(PgnError::Syntax("a tag is not closed with ']'".into()));
    }
    let tag = tag.trim();
    let (name, value) = tag
        .split_once(char::is_whitespace)
        .ok_or_else(|| PgnError::Syntax(format!("tag without value: [{tag}]")))?;
    let value = value
        .trim()
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .ok_or_else(|| PgnError::Syntax(format!("tag value not quoted: [{tag}]")))?;
    Ok((name.to_string(), value.to_string()))
}

/// A movetext token starting with `first`: up to white space or a
/// character that starts something else.
pub(super) fn read_token(first: char, chars: &mut Chars<'_>) -> String {
    let mut tok = String::from(first);
    while let Some(&n) = chars.peek() {
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
    if t.chars().all(|c| c == '.') {
        ""
    } else {
        t
    }
}
