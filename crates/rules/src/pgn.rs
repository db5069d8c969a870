//! PGN (RULES 4.4): reading and writing games, with the `Variant` tag and
//! `SetUp`/`FEN` for games that start elsewhere. [`parse_pgn`] reads the
//! main line; [`parse_pgn_tree`] keeps the variations, comments and
//! annotation glyphs too.

mod lex;
mod tree;

pub use tree::{parse_pgn_tree, PgnLine, PgnNode, PgnTree, MAX_VARIATION_DEPTH};

use crate::san::{parse_any, san_with};
use crate::{Game, Outcome, ParseFenError, Position, Variant, VariantKind};

/// A PGN game as text: tags and move tokens, not yet checked against the rules.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnGame {
    /// Tag pairs (name, value), in order.
    pub tags: Vec<(String, String)>,
    /// Move tokens (SAN or move strings) of the main line.
    pub moves: Vec<String>,
    /// The result token (`1-0`, `0-1`, `1/2-1/2` or `*`).
    pub result: String,
}

impl PgnGame {
    /// The value of the tag `name` (any case), if the game has it.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The game named by the `Variant` tag (orthodox chess without one).
    pub fn variant(&self) -> Result<VariantKind, PgnError> {
        match self.tag("Variant") {
            None => Ok(VariantKind::Chess),
            Some(v) => {
                VariantKind::from_pgn_name(v).ok_or_else(|| PgnError::Variant(v.to_string()))
            }
        }
    }
}

/// Why a PGN could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PgnError {
    /// The text is not PGN: what went wrong where.
    #[error("PGN syntax error: {0}")]
    Syntax(String),
    /// The `Variant` tag names no game of ours.
    #[error("unknown variant '{0}' in the PGN")]
    Variant(String),
    /// The `FEN` tag cannot be read.
    #[error("the PGN's FEN tag: {0}")]
    Fen(#[from] ParseFenError),
    /// A move cannot be played.
    #[error("move {number} ({token}): {reason}")]
    Move {
        /// Its move number (`12.` or `12...`).
        number: String,
        /// The move as written.
        token: String,
        /// Why it cannot be played.
        reason: String,
    },
    /// The text holds no game.
    #[error("the PGN holds no game")]
    Empty,
}

/// Largest PGN text read.
pub const MAX_PGN_LEN: usize = 4 << 20;

/// Splits PGN text into games.
///
/// ```
/// use tensorchess_rules::pgn::parse_pgn;
/// let games = parse_pgn("[Variant \"Tensor\"]\n\n1. e4 {good} e5 (1... d5) 2. Nh3 1-0").unwrap();
/// assert_eq!(games[0].moves, vec!["e4", "e5", "Nh3"]);
/// assert_eq!(games[0].result, "1-0");
/// ```
pub fn parse_pgn(text: &str) -> Result<Vec<PgnGame>, PgnError> {
    if text.len() > MAX_PGN_LEN {
        return Err(PgnError::Syntax("the PGN is larger than 4 MiB".into()));
    }
    let mut games = Vec::new();
    let mut cur = PgnGame::default();
    let mut in_moves = false;
    let mut chars = text.chars().peekable();
    let mut depth = 0usize; // variation nesting
    let finish = |cur: &mut PgnGame, games: &mut Vec<PgnGame>| {
        if !cur.tags.is_empty() || !cur.moves.is_empty() {
            if cur.result.is_empty() {
                cur.result = "*".into();
            }
            games.push(std::mem::take(cur));
        }
    };
    while let Some(c) = chars.next() {
        match c {
            '[' if depth == 0 => {
                if in_moves {
                    finish(&mut cur, &mut games);
                    in_moves = false;
                }
                cur.tags.push(lex::read_tag(&mut chars)?);
            }
            '{' => {
                for c in chars.by_ref() {
                    if c == '}' {
                        break;
                    }
                }
            }
            ';' => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            c if c.is_whitespace() => {}
            _ => {
                let tok = lex::read_token(c, &mut chars);
                if depth > 0 {
                    continue;
                }
                in_moves = true;
                if matches!(tok.as_str(), "1-0" | "0-1" | "1/2-1/2" | "*") {
                    cur.result = tok;
                    finish(&mut cur, &mut games);
                    in_moves = false;
                    continue;
                }
                if tok.starts_with('$') {
                    continue;
                }
                // Strip a move number ("12." or "12...") glued to the move.
                let t = lex::strip_move_number(&tok);
                if t.is_empty() {
                    continue;
                }
                cur.moves.push(t.to_string());
            }
        }
    }
    finish(&mut cur, &mut games);
    Ok(games)
}

/// Replays a PGN game under game `V`'s rules.
pub fn replay<V: Variant>(pgn: &PgnGame) -> Result<Game<V>, PgnError> {
    let start = match pgn.tag("FEN") {
        Some(fen) => Position::<V>::from_fen(fen)?,
        None => Position::<V>::new(),
    };
    let mut game = Game::from_position(start);
    for (i, tok) in pgn.moves.iter().enumerate() {
        let pos = *game.position();
        let m = parse_any(&pos, tok).map_err(|e| {
            let full = pos.fullmoves();
            let number = match pos.turn() {
                crate::Color::White => format!("{full}."),
                crate::Color::Black => format!("{full}..."),
            };
            let _ = i;
            PgnError::Move {
                number,
                token: tok.chars().take(24).collect(),
                reason: e.to_string(),
            }
        })?;
        game.push(m);
    }
    Ok(game)
}

/// Writes a game as PGN with the given tags (the seven-tag roster is filled in).
///
/// ```
/// use tensorchess_rules::{Game, Tensor, pgn::{write_pgn, parse_pgn, replay}};
/// let mut game = Game::<Tensor>::new();
/// game.push_str("e2e4").unwrap();
/// let text = write_pgn(&game, &[("White".into(), "Ann".into())], None);
/// assert!(text.contains("[Variant \"Tensor\"]"));
/// assert!(text.contains("1. e4 *"));
/// let back = replay::<Tensor>(&parse_pgn(&text).unwrap()[0]).unwrap();
/// assert_eq!(back.moves(), game.moves());
/// ```
pub fn write_pgn<V: Variant>(
    game: &Game<V>,
    tags: &[(String, String)],
    outcome: Option<Outcome>,
) -> String {
    let result = outcome
        .or_else(|| game.outcome())
        .map(|o| o.result_str())
        .unwrap_or("*");
    let mut out = String::new();
    let get = |name: &str, default: &str| -> String {
        tags.iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_else(|| default.to_string())
    };
    for (name, default) in [
        ("Event", "?"),
        ("Site", "?"),
        ("Date", "????.??.??"),
        ("Round", "-"),
        ("White", "?"),
        ("Black", "?"),
    ] {
        out.push_str(&format!("[{name} \"{}\"]\n", escape(&get(name, default))));
    }
    out.push_str(&format!("[Result \"{result}\"]\n"));
    if let Some(v) = V::KIND.pgn_name() {
        out.push_str(&format!("[Variant \"{v}\"]\n"));
    }
    let start = game.start();
    if start.fen() != Position::<V>::new().fen() {
        out.push_str("[SetUp \"1\"]\n");
        out.push_str(&format!("[FEN \"{}\"]\n", start.fen()));
    }
    let reserved = [
        "Event", "Site", "Date", "Round", "White", "Black", "Result", "Variant", "SetUp", "FEN",
    ];
    for (k, v) in tags {
        if !reserved.contains(&k.as_str()) {
            out.push_str(&format!("[{k} \"{}\"]\n", escape(v)));
        }
    }
    out.push('\n');
    let mut line = String::new();
    let push_token = |tok: &str, out: &mut String, line: &mut String| {
        if !line.is_empty() && line.len() + 1 + tok.len() > 79 {
            out.push_str(line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(tok);
    };
    for (i, m) in game.moves().iter().enumerate() {
        let pos = &game.positions()[i];
        let legal = pos.legal_moves();
        let s = san_with(pos, *m, &legal);
        match pos.turn() {
            crate::Color::White => {
                push_token(&format!("{}.", pos.fullmoves()), &mut out, &mut line)
            }
            crate::Color::Black if i == 0 => {
                push_token(&format!("{}...", pos.fullmoves()), &mut out, &mut line)
            }
            _ => {}
        }
        push_token(&s, &mut out, &mut line);
    }
    push_token(result, &mut out, &mut line);
    out.push_str(&line);
    out.push('\n');
    out
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}
