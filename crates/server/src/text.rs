//! Text players write (chat lines, decline reasons, descriptions): plain,
//! short, one line, with nothing that hides or reorders it.

use crate::error::AppError;

/// Longest message, in characters.
pub const MAX_CHARS: usize = 140;

/// Makes a message plain, short text: line ends and tabs become spaces,
/// other control characters and those that reorder or hide text (bidi
/// overrides, zero-width) are dropped, spaces at the ends trimmed.
pub fn clean_text(text: &str) -> Result<String, AppError> {
    let hidden = |c: char| matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{2069}' | '\u{feff}');
    let cleaned: String = text
        .chars()
        .filter_map(|c| match c {
            '\n' | '\r' | '\t' => Some(' '),
            c if c.is_control() || hidden(c) => None,
            c => Some(c),
        })
        .collect();
    let cleaned = cleaned.trim();
    if cleaned.is_empty() {
        return Err(AppError::bad("A chat message needs some text"));
    }
    if cleaned.chars().count() > MAX_CHARS {
        return Err(AppError::bad(format!(
            "A chat message has at most {MAX_CHARS} characters"
        )));
    }
    Ok(cleaned.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_become_plain_short_text() {
        assert_eq!(clean_text("  hi\nthere\t! ").unwrap(), "hi there !");
        assert_eq!(clean_text("a\u{202e}b\u{200b}c\u{7}").unwrap(), "abc");
        assert_eq!(
            clean_text("<b>bold</b>").unwrap(),
            "<b>bold</b>",
            "shown as text"
        );
        assert!(clean_text(" \u{200b} ").is_err());
        assert!(clean_text(&"x".repeat(MAX_CHARS)).is_ok());
        assert!(
            clean_text(&"й".repeat(MAX_CHARS + 1)).is_err(),
            "characters, not bytes"
        );
    }
}
