//! The page's message catalogues, as the tests read them: every word the
//! server sends for the page to translate (a refusal's kind, a draw
//! offer's answer) must be in both.

/// The English catalogue.
pub const EN: &str = include_str!("../assets/js/i18n/en.js");
/// The Ukrainian catalogue.
pub const UK: &str = include_str!("../assets/js/i18n/uk.js");
