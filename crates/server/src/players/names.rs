//! Display names: cleaned, bounded, visible, and passing for nobody else
//! (a guest's default name, or another account's user name, compared by
//! their look-alike key: the store's [`name_key`], Unicode's confusables
//! skeleton).

use super::MAX_NAME;
use crate::error::AppError;
use crate::kind::Kind;
use crate::store::{name_key, GameStore};
use unicode_properties::{GeneralCategoryGroup, UnicodeGeneralCategory};

/// Characters a name may not hold: they reorder or hide text (bidi
/// controls, zero-width characters, every other format character), so
/// that a name could pass for another or scramble the text around it.
fn deceptive(c: char) -> bool {
    matches!(c,
        '\u{200B}'..='\u{200F}' // zero-width space, joiners, LRM, RLM
        | '\u{202A}'..='\u{202E}' // bidi embeddings and overrides
        | '\u{2060}'..='\u{2064}' // word joiner, invisible operators
        | '\u{2066}'..='\u{2069}' // bidi isolates
        | '\u{061C}' // Arabic letter mark
        | '\u{00AD}' // soft hyphen
        | '\u{034F}' // combining grapheme joiner
        | '\u{180E}' // Mongolian vowel separator
        | '\u{FEFF}' // zero-width no-break space
    ) || c.general_category_group() == GeneralCategoryGroup::Other && !c.is_control()
}

/// Letters and symbols to Unicode that show nothing: a name of them looks
/// empty, and one beside a name makes another that looks the same.
fn blank(c: char) -> bool {
    matches!(c,
        '\u{115F}' | '\u{1160}' // Hangul choseong and jungseong fillers
        | '\u{3164}' | '\u{FFA0}' // Hangul filler, half-width too
        | '\u{2800}' // braille pattern blank
        | '\u{17B4}' | '\u{17B5}' // Khmer inherent vowels
        | '\u{180B}'..='\u{180F}' // Mongolian variation selectors
        | '\u{1D159}' // musical symbol null notehead
        | '\u{1D173}'..='\u{1D17A}' // musical formatting
        | '\u{3000}' // ideographic space (white space, kept for clarity)
    )
}

/// Whether `c` shows something: a letter, digit, punctuation or symbol
/// that is not [`blank`].
fn visible(c: char) -> bool {
    use GeneralCategoryGroup::{Letter, Number, Punctuation, Symbol};
    matches!(
        c.general_category_group(),
        Letter | Number | Punctuation | Symbol
    ) && !blank(c)
}

/// Whether `name` looks like the name a guest has before choosing one
/// (`Guest 1a2b`), also in look-alike letters (a Cyrillic `е`, a
/// full-width `Ｇ`): reserved, so that nobody passes for a guest.
fn looks_like_guest(name: &str) -> bool {
    let key = name_key(name);
    let Some(rest) = key.strip_prefix(name_key("guest").as_str()) else {
        return false;
    };
    let rest = rest.trim_start_matches(|c: char| !c.is_alphanumeric());
    // The hex digits as their keys read (a `1` reads as an `l`).
    let hex = name_key("0123456789abcdef");
    !rest.is_empty() && rest.chars().count() <= 8 && rest.chars().all(|c| hex.contains(c))
}

/// A display name as stored: trimmed, inner runs of spaces and control
/// characters made one space; at most [`MAX_NAME`] characters; something
/// visible in it, nothing that hides or reorders text, and not a guest's
/// name.
pub fn clean_name(name: &str) -> Result<String, AppError> {
    if name.chars().any(|c| deceptive(c) || blank(c)) {
        return Err(AppError::bad(
            "A name cannot hold invisible or direction-changing characters",
        ));
    }
    let cleaned = name
        .split(|c: char| c.is_whitespace() || c.is_control())
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    if cleaned.is_empty() {
        return Err(AppError::bad("A name cannot be empty"));
    }
    if !cleaned.chars().any(visible) {
        return Err(AppError::bad(
            "A name needs a letter, digit or sign that shows",
        ));
    }
    if cleaned.chars().count() > MAX_NAME {
        return Err(AppError::bad(format!(
            "A name has at most {MAX_NAME} characters"
        )));
    }
    if looks_like_guest(&cleaned) {
        return Err(AppError::bad(
            "Names like 'Guest 1a2b' are kept for guests: choose another",
        ));
    }
    Ok(cleaned)
}

/// Refuses `name` for player `me` when it passes for another account's
/// user name (the same look-alike key); one's own user name is one's own.
pub async fn check_not_another(
    store: &dyn GameStore,
    me: &str,
    name: &str,
) -> Result<(), AppError> {
    let others = store.accounts_with_key(&name_key(name)).await?;
    if others.iter().any(|a| a.player_id != me) {
        return Err(AppError::refused(
            Kind::NameTaken,
            "That name passes for another player's user name: choose another",
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_that_show_nothing_or_pass_for_a_guest_are_refused() {
        for bad in [
            "Gu\u{435}st 1a2b",
            "\u{ff27}uest 1a2b",
            "Guest-1A2B",
            "guest_0011",
            "\u{3164}",
            "\u{2800}",
            "\u{115f}\u{1160}",
            "ab\u{ffa0}",
            "\u{301}\u{301}",
            "x\u{e0041}",
            "a\u{200b}b",
        ] {
            assert!(clean_name(bad).is_err(), "{bad:?}");
        }
        for good in [
            "Guest",
            "Guestroom",
            "Олена",
            "\u{265e} rider",
            "José",
            "李小龍",
        ] {
            assert!(clean_name(good).is_ok(), "{good:?}");
        }
    }
}
