//! PGN movetext as a tree: the main line with its variations (`( … )`,
//! nested), comments (`{ … }`, `; …`) and numeric annotation glyphs
//! (`$2`, and the suffixes `!`, `?`, `!!`, `??`, `!?`, `?!`, read as
//! `$1`…`$6`). The moves stay text until [`PgnLine::play`] plays them
//! under a game's rules.

use super::lex::{At, Chars, read_tag, read_token, strip_move_number};
use super::{MAX_PGN_LEN, PgnError, PgnGame, play_token, start_position};
use crate::{Move, Position, Variant};

/// Variations nested deeper than this are refused (they would only be
/// there to exhaust the reader).
pub const MAX_VARIATION_DEPTH: usize = 64;

/// A move of a line, with what is written after it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnNode {
    /// The move as written (SAN or a move string), without its suffix
    /// annotation and move number.
    pub san: String,
    /// Numeric annotation glyphs, in order (`!` is 1, `?` 2, `!!` 3, `??` 4,
    /// `!?` 5, `?!` 6).
    pub nags: Vec<u8>,
    /// Comments after the move.
    pub comments: Vec<String>,
    /// Lines played instead of this move.
    pub variations: Vec<PgnLine>,
}

/// A line of moves: the main line, or a variation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnLine {
    /// Comments before the line's first move.
    pub comments: Vec<String>,
    /// The moves, in order.
    pub moves: Vec<PgnNode>,
}

impl PgnLine {
    /// Moves in this line and all its variations.
    pub fn count(&self) -> usize {
        self.moves
            .iter()
            .map(|n| 1 + n.variations.iter().map(PgnLine::count).sum::<usize>())
            .sum()
    }

    /// Plays the line and its variations from `start` under game `V`'s
    /// rules (each variation from the position before the move it
    /// replaces); the first move that cannot be played is an error with
    /// its move number ([`PgnError::Move`]).
    ///
    /// ```
    /// use tensorchess_rules::pgn::parse_pgn_tree;
    /// use tensorchess_rules::{Chess, Position};
    /// let tree = &parse_pgn_tree("1. e4 e5 (1... c5 2. Nf3) 2. Nf3 *").unwrap()[0];
    /// let played = tree.line.play(&Position::<Chess>::new()).unwrap();
    /// let c5 = &played.moves[1].variations[0].moves[0];
    /// assert_eq!(c5.before.move_string(c5.mv), "c7c5");
    /// assert!(parse_pgn_tree("1. e4 e4 *").unwrap()[0].line.play(&Position::<Chess>::new()).is_err());
    /// ```
    pub fn play<V: Variant>(&self, start: &Position<V>) -> Result<PlayedLine<V>, PgnError> {
        let mut pos = *start;
        let mut moves = Vec::with_capacity(self.moves.len());
        for node in &self.moves {
            let variations = node
                .variations
                .iter()
                .map(|v| v.play(&pos))
                .collect::<Result<Vec<_>, _>>()?;
            let mv = play_token(&pos, &node.san)?;
            moves.push(PlayedNode {
                before: pos,
                mv,
                nags: node.nags.clone(),
                comments: node.comments.clone(),
                variations,
            });
            pos = pos.play(mv);
        }
        Ok(PlayedLine {
            comments: self.comments.clone(),
            moves,
        })
    }
}

/// A move of a line, played under a game's rules ([`PgnLine::play`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedNode<V: Variant> {
    /// The position the move is played in.
    pub before: Position<V>,
    /// The move, legal in `before`.
    pub mv: Move,
    /// Numeric annotation glyphs, as read.
    pub nags: Vec<u8>,
    /// Comments after the move, as read.
    pub comments: Vec<String>,
    /// Lines played instead of this move, from `before`.
    pub variations: Vec<PlayedLine<V>>,
}

/// A line of moves, played under a game's rules ([`PgnLine::play`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedLine<V: Variant> {
    /// Comments before the line's first move.
    pub comments: Vec<String>,
    /// The moves, in order.
    pub moves: Vec<PlayedNode<V>>,
}

/// A game of a PGN text with its variations.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnTree {
    /// Tag pairs (name, value), in order.
    pub tags: Vec<(String, String)>,
    /// The main line.
    pub line: PgnLine,
    /// The result token (`1-0`, `0-1`, `1/2-1/2` or `*`).
    pub result: String,
}

impl PgnTree {
    /// The value of the tag `name` (any case), if the game has it.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The game without its variations, comments and glyphs.
    pub fn into_main_line(self) -> PgnGame {
        PgnGame {
            tags: self.tags,
            moves: self.line.moves.into_iter().map(|n| n.san).collect(),
            result: self.result,
        }
    }

    /// The position the game starts from under game `V`'s rules: its `FEN`
    /// tag, or the game's start position.
    pub fn start<V: Variant>(&self) -> Result<Position<V>, PgnError> {
        start_position(self.tag("FEN"))
    }
}

/// A suffix annotation's glyph number.
fn suffix_nag(s: &str) -> Option<u8> {
    Some(match s {
        "!" => 1,
        "?" => 2,
        "!!" => 3,
        "??" => 4,
        "!?" => 5,
        "?!" => 6,
        _ => return None,
    })
}

/// What is being read: the game's lines, innermost last.
struct Reader {
    games: Vec<PgnTree>,
    tags: Vec<(String, String)>,
    /// The main line first, then each open variation.
    lines: Vec<PgnLine>,
    /// Where each open variation's `(` is.
    opened: Vec<At>,
    in_moves: bool,
}

impl Reader {
    fn line(&mut self) -> &mut PgnLine {
        if self.lines.is_empty() {
            self.lines.push(PgnLine::default());
        }
        let last = self.lines.len() - 1;
        &mut self.lines[last]
    }

    fn comment(&mut self, text: String) {
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        if text.is_empty() {
            return;
        }
        let line = self.line();
        match line.moves.last_mut() {
            Some(node) => node.comments.push(text),
            None => line.comments.push(text),
        }
    }

    fn open(&mut self, at: At) -> Result<(), PgnError> {
        if self.line().moves.is_empty() {
            return Err(at.error("a variation before any move"));
        }
        if self.lines.len() > MAX_VARIATION_DEPTH {
            return Err(at.error(format!(
                "variations nested deeper than {MAX_VARIATION_DEPTH}"
            )));
        }
        self.lines.push(PgnLine::default());
        self.opened.push(at);
        Ok(())
    }

    fn close(&mut self, at: At) -> Result<(), PgnError> {
        if self.lines.len() < 2 {
            return Err(at.error("')' without '('"));
        }
        self.opened.pop();
        let variation = self.lines.pop().unwrap_or_default();
        if let Some(node) = self.line().moves.last_mut() {
            node.variations.push(variation);
        }
        Ok(())
    }

    fn finish(&mut self, result: &str) -> Result<(), PgnError> {
        if let Some(&at) = self.opened.first() {
            return Err(at.error("a variation is not closed with ')'"));
        }
        let line = self.lines.pop().unwrap_or_default();
        if !self.tags.is_empty() || !line.moves.is_empty() || !line.comments.is_empty() {
            self.games.push(PgnTree {
                tags: std::mem::take(&mut self.tags),
                line,
                result: if result.is_empty() {
                    "*".into()
                } else {
                    result.into()
                },
            });
        }
        self.in_moves = false;
        Ok(())
    }

    fn token(&mut self, tok: &str, at: At) -> Result<(), PgnError> {
        self.in_moves = true;
        if self.lines.len() <= 1 && RESULTS.contains(&tok) {
            return self.finish(tok);
        }
        if let Some(n) = tok.strip_prefix('$') {
            let shown: String = tok.chars().take(12).collect();
            let nag = n
                .parse::<u8>()
                .map_err(|_| at.error(format!("bad annotation glyph {shown}")))?;
            if let Some(node) = self.line().moves.last_mut() {
                node.nags.push(nag);
            }
            return Ok(());
        }
        if let Some(nag) = suffix_nag(tok) {
            if let Some(node) = self.line().moves.last_mut() {
                node.nags.push(nag);
            }
            return Ok(());
        }
        // A move number ("12." or "12...") glued to the move, or alone.
        let t = strip_move_number(tok);
        if t.is_empty() {
            return Ok(());
        }
        let body = t.trim_end_matches(['!', '?']);
        let nag = suffix_nag(&t[body.len()..]);
        if body.is_empty() {
            return Ok(());
        }
        self.line().moves.push(PgnNode {
            san: body.to_string(),
            nags: nag.into_iter().collect(),
            ..PgnNode::default()
        });
        Ok(())
    }
}

/// The result tokens that end a game's movetext.
const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// Splits PGN text into games with their variations, comments and glyphs.
/// Text that is not PGN is an error that says where
/// ([`PgnError::Syntax`]); the moves are not checked (see
/// [`PgnLine::play`] and [`super::replay`]).
///
/// ```
/// use tensorchess_rules::pgn::{parse_pgn_tree, PgnError};
/// let games = parse_pgn_tree("[Variant \"Tensor\"]\n\n1. e4 {good} e5 (1... d5 $1 2. Nh3) 2. Nh3?! 1-0").unwrap();
/// let line = &games[0].line;
/// assert_eq!(line.moves.len(), 3);
/// assert_eq!(line.moves[0].comments, ["good"]);
/// assert_eq!(line.moves[1].variations[0].moves[0].san, "d5");
/// assert_eq!(line.moves[1].variations[0].moves[0].nags, [1]);
/// assert_eq!(line.moves[2].nags, [6]);
/// assert_eq!(games[0].result, "1-0");
/// assert!(matches!(
///     parse_pgn_tree("1. e4\n2. d4 ) *"),
///     Err(PgnError::Syntax { line: 2, column: 7, .. })
/// ));
/// ```
pub fn parse_pgn_tree(text: &str) -> Result<Vec<PgnTree>, PgnError> {
    if text.len() > MAX_PGN_LEN {
        return Err(At { line: 1, column: 1 }.error("the PGN is larger than 4 MiB"));
    }
    let mut r = Reader {
        games: Vec::new(),
        tags: Vec::new(),
        lines: Vec::new(),
        opened: Vec::new(),
        in_moves: false,
    };
    let mut chars = Chars::new(text);
    loop {
        let at = chars.at();
        let Some(c) = chars.next() else { break };
        match c {
            '[' if r.lines.len() <= 1 => {
                if r.in_moves {
                    r.finish("*")?;
                }
                let tag = read_tag(&mut chars, at)?;
                r.tags.push(tag);
            }
            '{' => {
                let mut comment = String::new();
                let mut closed = false;
                for c in chars.by_ref() {
                    if c == '}' {
                        closed = true;
                        break;
                    }
                    comment.push(c);
                }
                if !closed {
                    return Err(at.error("a comment is not closed with '}'"));
                }
                r.in_moves = true;
                r.comment(comment);
            }
            ';' => {
                let mut comment = String::new();
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                    comment.push(c);
                }
                r.comment(comment);
            }
            '(' => {
                r.in_moves = true;
                r.open(at)?;
            }
            ')' => r.close(at)?,
            c if c.is_whitespace() => {}
            _ => {
                let tok = read_token(c, &mut chars);
                r.token(&tok, at)?;
            }
        }
    }
    if r.in_moves || !r.tags.is_empty() || !r.lines.is_empty() {
        r.finish("*")?;
    }
    Ok(r.games)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sans(line: &PgnLine) -> Vec<&str> {
        line.moves.iter().map(|n| n.san.as_str()).collect()
    }

    #[test]
    fn nested_variations_attach_to_the_move_they_replace() {
        let g = &parse_pgn_tree("1. e4 e5 (1... c5 2. Nf3 (2. Nc3 Nc6) d6) (1... e6) 2. Nf3 Nc6 *")
            .unwrap()[0];
        assert_eq!(sans(&g.line), ["e4", "e5", "Nf3", "Nc6"]);
        let alts = &g.line.moves[1].variations;
        assert_eq!(alts.len(), 2);
        assert_eq!(sans(&alts[0]), ["c5", "Nf3", "d6"]);
        assert_eq!(sans(&alts[0].moves[1].variations[0]), ["Nc3", "Nc6"]);
        assert_eq!(sans(&alts[1]), ["e6"]);
        assert_eq!(g.line.count(), 10);
        assert_eq!(g.result, "*");
    }

    #[test]
    fn comments_glyphs_and_suffixes_are_kept() {
        let g = &parse_pgn_tree(
            "{Start} 1. e4! {best by test} $14 e5?? ; a blunder\n 2. Qh5 ( { instead } 2. Nf3!? ) Nc6 1-0",
        )
        .unwrap()[0];
        assert_eq!(g.line.comments, ["Start"]);
        let m = &g.line.moves;
        assert_eq!(
            (m[0].san.as_str(), m[0].nags.as_slice()),
            ("e4", &[1, 14][..])
        );
        assert_eq!(m[0].comments, ["best by test"]);
        assert_eq!(m[1].nags, [4]);
        assert_eq!(m[1].comments, ["a blunder"]);
        let v = &m[2].variations[0];
        assert_eq!(v.comments, ["instead"]);
        assert_eq!(
            (v.moves[0].san.as_str(), v.moves[0].nags.as_slice()),
            ("Nf3", &[5][..])
        );
        assert_eq!(g.result, "1-0");
    }

    #[test]
    fn several_games_tags_and_tensor_moves() {
        let text = "[Variant \"Tensor\"]\n[White \"A\"]\n\n1. Tb3 (1. c1e3>g5) 1... Tb6 *\n\n\
                    [Variant \"Tensor\"]\n\n1. e4 *";
        let games = parse_pgn_tree(text).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].tag("white"), Some("A"));
        assert_eq!(sans(&games[0].line), ["Tb3", "Tb6"]);
        assert_eq!(sans(&games[0].line.moves[0].variations[0]), ["c1e3>g5"]);
        assert_eq!(sans(&games[1].line), ["e4"]);
    }

    #[test]
    fn broken_movetext_is_refused() {
        for bad in [
            "( 1. e4 ) *",
            "1. e4 ) *",
            "1. e4 (1. d4 *",
            "1. e4 {open",
            "1. e4 $x *",
        ] {
            assert!(parse_pgn_tree(bad).is_err(), "{bad}");
        }
        let deep = format!("1. e4 {} *", "(1. d4 ".repeat(MAX_VARIATION_DEPTH + 2));
        assert!(parse_pgn_tree(&deep).is_err());
        assert!(parse_pgn_tree("").unwrap().is_empty());
    }
}
