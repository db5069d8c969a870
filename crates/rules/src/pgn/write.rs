//! PGN text from a [`PgnTree`]: the one writer, for plain games
//! ([`super::write_pgn`]) and annotated ones (a game review's comments,
//! glyphs and better lines).

use super::{PgnLine, PgnTree};
use crate::{Color, VariantKind};

/// The seven-tag roster, in the order PGN wants it, with the value written
/// for a tag a game does not have.
pub const ROSTER: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "-"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

/// Movetext lines are at most this long (PGN's export format says 79).
const LINE_WIDTH: usize = 79;

/// The tags of a game as written: the seven-tag roster first (from `tags`,
/// matched ignoring case, or its defaults; `Result` is `result`), then the
/// game's `Variant` (none for orthodox chess or an unknown game), `SetUp`
/// and `FEN` when the game starts from `setup` rather than its start
/// position, then `tags`' others in their order.
///
/// ```
/// use tensorchess_rules::pgn::game_tags;
/// use tensorchess_rules::VariantKind;
/// let tags = game_tags(&[("white".into(), "Ann".into()), ("Annotator".into(), "me".into())],
///                      "1-0", Some(VariantKind::Tensor), None);
/// let names: Vec<&str> = tags.iter().map(|(k, _)| k.as_str()).collect();
/// assert_eq!(names, ["Event", "Site", "Date", "Round", "White", "Black", "Result", "Variant", "Annotator"]);
/// assert_eq!(tags[4].1, "Ann");
/// assert_eq!(tags[6].1, "1-0");
/// ```
pub fn game_tags(
    tags: &[(String, String)],
    result: &str,
    kind: Option<VariantKind>,
    setup: Option<&str>,
) -> Vec<(String, String)> {
    let get = |name: &str| {
        tags.iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    };
    let mut out: Vec<(String, String)> = ROSTER
        .iter()
        .map(|&(name, default)| {
            let value = if name == "Result" {
                result
            } else {
                get(name).unwrap_or(default)
            };
            (name.to_string(), value.to_string())
        })
        .collect();
    if let Some(v) = kind.and_then(VariantKind::pgn_name) {
        out.push(("Variant".into(), v.into()));
    }
    if let Some(fen) = setup {
        out.push(("SetUp".into(), "1".into()));
        out.push(("FEN".into(), fen.into()));
    }
    let own = ["Variant", "SetUp", "FEN"];
    for (k, v) in tags {
        let reserved = ROSTER.iter().any(|(r, _)| r.eq_ignore_ascii_case(k))
            || own.iter().any(|r| r.eq_ignore_ascii_case(k));
        if !reserved {
            out.push((k.clone(), v.clone()));
        }
    }
    out
}

/// Movetext laid out in lines of at most [`LINE_WIDTH`] characters.
struct Movetext {
    out: String,
    line: String,
}

impl Movetext {
    fn push(&mut self, token: &str) {
        if !self.line.is_empty() && self.line.len() + 1 + token.len() > LINE_WIDTH {
            self.out.push_str(&self.line);
            self.out.push('\n');
            self.line.clear();
        }
        if !self.line.is_empty() {
            self.line.push(' ');
        }
        self.line.push_str(token);
    }
}

/// A comment as tokens, one a word, so that long comments wrap too; none
/// for a comment without words. A `}` would end the comment early: it is
/// left out.
fn comment_tokens(text: &str, tokens: &mut Vec<String>) -> bool {
    let cleaned = text.replace('}', " ");
    let words: Vec<&str> = cleaned.split_whitespace().collect();
    match words.len() {
        0 => return false,
        1 => tokens.push(format!("{{ {} }}", words[0])),
        n => {
            tokens.push(format!("{{ {}", words[0]));
            tokens.extend(words[1..n - 1].iter().map(|w| w.to_string()));
            tokens.push(format!("{} }}", words[n - 1]));
        }
    }
    true
}

/// The move number token before a move: `12.` for White, `12...` for Black.
fn number(move_number: u32, white: bool) -> String {
    if white {
        format!("{move_number}.")
    } else {
        format!("{move_number}...")
    }
}

/// The tokens of a line whose first move is move `move_number` of White
/// (`white`) or Black. Black's move is numbered at the start of a line and
/// after a comment or a variation; a variation is in parentheses glued to
/// its first and last tokens.
fn line_tokens(line: &PgnLine, mut move_number: u32, mut white: bool, tokens: &mut Vec<String>) {
    for c in &line.comments {
        comment_tokens(c, tokens);
    }
    let mut need_number = true;
    for node in &line.moves {
        if white || need_number {
            tokens.push(number(move_number, white));
        }
        tokens.push(node.san.clone());
        tokens.extend(node.nags.iter().map(|n| format!("${n}")));
        need_number = false;
        for c in &node.comments {
            need_number |= comment_tokens(c, tokens);
        }
        for v in &node.variations {
            let mut inner = Vec::new();
            line_tokens(v, move_number, white, &mut inner);
            if let Some(first) = inner.first_mut() {
                *first = format!("({first}");
            }
            if let Some(last) = inner.last_mut() {
                last.push(')');
                tokens.append(&mut inner);
                need_number = true;
            }
        }
        if !white {
            move_number += 1;
        }
        white = !white;
    }
}

/// Backslashes and quotes escaped, for a tag value.
fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

impl PgnTree {
    /// The game as PGN text: its tags as they are (see [`game_tags`] for
    /// a game's usual ones), a blank line, then the movetext in lines of at
    /// most 79 characters, ending with the result and a newline. The first
    /// move is move `first_move_number` of `first_mover`; glyphs are
    /// written `$N`, comments `{ ... }`, variations in parentheses after
    /// the move they replace. Moves are written as they are.
    ///
    /// ```
    /// use tensorchess_rules::pgn::{parse_pgn_tree, PgnTree};
    /// use tensorchess_rules::Color;
    /// let text = "[Event \"x\"]\n\n1. e4 $1 { best by test } e5 ( 1... c5 2. Nf3 ) 2. Nf3 *";
    /// let tree = &parse_pgn_tree(text).unwrap()[0];
    /// let written = tree.to_pgn(1, Color::White);
    /// assert_eq!(written, "[Event \"x\"]\n\n1. e4 $1 { best by test } 1... e5 (1... c5 2. Nf3) 2. Nf3 *\n");
    /// assert_eq!(&parse_pgn_tree(&written).unwrap()[0], tree);
    /// ```
    pub fn to_pgn(&self, first_move_number: u32, first_mover: Color) -> String {
        let mut out = String::new();
        for (k, v) in &self.tags {
            out.push_str(&format!("[{k} \"{}\"]\n", escape(v)));
        }
        if !self.tags.is_empty() {
            out.push('\n');
        }
        let mut tokens = Vec::new();
        line_tokens(
            &self.line,
            first_move_number.max(1),
            first_mover == Color::White,
            &mut tokens,
        );
        let mut text = Movetext {
            out,
            line: String::new(),
        };
        for t in &tokens {
            text.push(t);
        }
        text.push(&self.result);
        let Movetext { mut out, line } = text;
        out.push_str(&line);
        out.push('\n');
        out
    }
}
