//! PGN (RULES 4.4): reading and writing games, with the `Variant` tag and
//! `SetUp`/`FEN` for games that start elsewhere.
//!
//! One reader, [`parse_pgn_tree`], reads games with their variations,
//! comments and annotation glyphs ([`PgnTree`]); [`parse_pgn`] keeps only
//! their main lines ([`PgnGame`]). The moves are read as text and played
//! under a game's rules by [`replay`] (the main line) or [`PgnLine::play`]
//! (every line). One writer, [`PgnTree::to_pgn`], writes a tree:
//! [`write_pgn`] a game, and the game review its annotated games.

mod lex;
mod tree;
mod write;

pub use tree::{
    MAX_VARIATION_DEPTH, PgnLine, PgnNode, PgnTree, PlayedLine, PlayedNode, parse_pgn_tree,
};
pub use write::{ROSTER, game_tags};

use crate::san::{parse_any, san_with};
use crate::{
    Color, Game, Move, Outcome, ParseFenError, Position, Variant, VariantGame, VariantKind,
    with_variant,
};

/// The result a game is written with (PGN's `Result` tag and the token
/// that ends its movetext): whatever says it, the rules' [`Outcome`], the
/// players or a record of a game played elsewhere.
///
/// ```
/// use tensorchess_rules::{Color, pgn::PgnResult};
/// assert_eq!(PgnResult::from_winner(Some(Color::Black)).as_str(), "0-1");
/// assert_eq!(PgnResult::from_winner(None), PgnResult::Draw);
/// assert_eq!(PgnResult::Unfinished.as_str(), "*");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PgnResult {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: going on, abandoned, or unknown.
    Unfinished,
}

impl PgnResult {
    /// The result of a finished game that `winner` won (`None`: a draw).
    pub fn from_winner(winner: Option<Color>) -> PgnResult {
        match winner {
            Some(Color::White) => PgnResult::WhiteWins,
            Some(Color::Black) => PgnResult::BlackWins,
            None => PgnResult::Draw,
        }
    }

    /// As PGN writes it: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub fn as_str(self) -> &'static str {
        match self {
            PgnResult::WhiteWins => "1-0",
            PgnResult::BlackWins => "0-1",
            PgnResult::Draw => "1/2-1/2",
            PgnResult::Unfinished => "*",
        }
    }
}

impl From<Outcome> for PgnResult {
    fn from(o: Outcome) -> PgnResult {
        PgnResult::from_winner(o.winner())
    }
}

impl std::fmt::Display for PgnResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

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
    /// The text is not PGN: what went wrong, and where.
    #[error("PGN syntax error at line {line}, column {column}: {message}")]
    Syntax {
        /// The line, 1 for the first.
        line: usize,
        /// The character in the line, 1 for the first.
        column: usize,
        /// What is wrong there.
        message: String,
    },
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

/// Splits PGN text into games, keeping their main lines ([`parse_pgn_tree`]
/// reads them; text that is not PGN is an error that says where).
///
/// ```
/// use tensorchess_rules::pgn::parse_pgn;
/// let games = parse_pgn("[Variant \"Tensor\"]\n\n1. e4 {good} e5 (1... d5) 2. Nh3 1-0").unwrap();
/// assert_eq!(games[0].moves, vec!["e4", "e5", "Nh3"]);
/// assert_eq!(games[0].result, "1-0");
/// ```
pub fn parse_pgn(text: &str) -> Result<Vec<PgnGame>, PgnError> {
    Ok(parse_pgn_tree(text)?
        .into_iter()
        .map(PgnTree::into_main_line)
        .collect())
}

/// The first game of a PGN text ([`parse_pgn`]); [`PgnError::Empty`] when
/// it holds none.
///
/// ```
/// use tensorchess_rules::pgn::{parse_first_pgn, PgnError};
/// assert_eq!(parse_first_pgn("1. e4 *\n\n1. d4 *").unwrap().moves, ["e4"]);
/// assert_eq!(parse_first_pgn("  "), Err(PgnError::Empty));
/// ```
pub fn parse_first_pgn(text: &str) -> Result<PgnGame, PgnError> {
    parse_pgn(text)?.into_iter().next().ok_or(PgnError::Empty)
}

/// The move token `tok` in `pos` (SAN or a move string), or why it is not
/// a legal move there, with its move number.
fn play_token<V: Variant>(pos: &Position<V>, tok: &str) -> Result<Move, PgnError> {
    parse_any(pos, tok).map_err(|e| {
        let full = pos.fullmoves();
        let number = match pos.turn() {
            Color::White => format!("{full}."),
            Color::Black => format!("{full}..."),
        };
        PgnError::Move {
            number,
            token: tok.chars().take(24).collect(),
            reason: e.to_string(),
        }
    })
}

/// The start position of a game with these tags: its `FEN` tag, or the
/// game's start.
fn start_position<V: Variant>(fen: Option<&str>) -> Result<Position<V>, PgnError> {
    Ok(match fen {
        Some(fen) => Position::<V>::from_fen(fen)?,
        None => Position::<V>::new(),
    })
}

/// Replays a PGN game under game `V`'s rules, every move written.
pub fn replay<V: Variant>(pgn: &PgnGame) -> Result<Game<V>, PgnError> {
    replay_moves(pgn, false)
}

/// Replays a PGN game's moves, all of them or (`to_end`) up to the game's end.
fn replay_moves<V: Variant>(pgn: &PgnGame, to_end: bool) -> Result<Game<V>, PgnError> {
    let mut game = Game::from_position(start_position::<V>(pgn.tag("FEN"))?);
    for tok in &pgn.moves {
        if to_end && game.outcome().is_some() {
            break;
        }
        let m = play_token(game.position(), tok)?;
        game.push(m);
    }
    Ok(game)
}

/// Replays a PGN game of any of the games: the one its `Variant` tag
/// names, else `fallback`, else chess (PGN's default). Play stops where
/// the game ends under these rules (a mate, or a draw the rules make at
/// once, such as a threefold repetition): moves written after that are
/// not played, as the game was over.
///
/// ```
/// use tensorchess_rules::pgn::{parse_pgn, replay_game};
/// use tensorchess_rules::VariantKind;
/// let pgn = &parse_pgn("1. e4 e5 2. Ni3 *").unwrap()[0];
/// let game = replay_game(pgn, Some(VariantKind::Tensor)).unwrap();
/// assert_eq!((game.kind(), game.ply()), (VariantKind::Tensor, 3));
/// ```
pub fn replay_game(pgn: &PgnGame, fallback: Option<VariantKind>) -> Result<VariantGame, PgnError> {
    let kind = match pgn.tag("Variant") {
        Some(_) => pgn.variant()?,
        None => fallback.unwrap_or(VariantKind::Chess),
    };
    Ok(with_variant!(kind, V => VariantGame::from(replay_moves::<V>(pgn, true)?)))
}

/// Writes a game as PGN with the given tags: the seven-tag roster first
/// (from `tags`, or its defaults), the result `outcome`'s or the game's
/// own (`*` while it goes on), the `Variant` and `SetUp`/`FEN` tags the
/// game needs, then `tags`' others ([`game_tags`]); the moves in SAN.
/// [`PgnTree::of_game`] gives the same game as a tree, to annotate.
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
    write_pgn_with_result(game, tags, result_of(game, outcome))
}

/// [`write_pgn`] with the result given: for a game whose result neither the
/// rules nor an [`Outcome`] say (a game imported with its result).
///
/// ```
/// use tensorchess_rules::{Chess, Game, pgn::{write_pgn_with_result, PgnResult}};
/// let mut game = Game::<Chess>::new();
/// game.push_str("e2e4").unwrap();
/// let text = write_pgn_with_result(&game, &[], PgnResult::BlackWins);
/// assert!(text.contains("[Result \"0-1\"]"));
/// assert!(text.ends_with("\n1. e4 0-1\n"));
/// ```
pub fn write_pgn_with_result<V: Variant>(
    game: &Game<V>,
    tags: &[(String, String)],
    result: PgnResult,
) -> String {
    let start = game.start();
    PgnTree::of_game_with_result(game, tags, result).to_pgn(start.fullmoves(), start.turn())
}

/// The result `outcome` says, else the rules' (`*` while the game goes on).
fn result_of<V: Variant>(game: &Game<V>, outcome: Option<Outcome>) -> PgnResult {
    outcome
        .or_else(|| game.outcome())
        .map_or(PgnResult::Unfinished, PgnResult::from)
}

impl PgnTree {
    /// A game as a tree, as [`write_pgn`] writes it: its tags
    /// ([`game_tags`], with the result `outcome`'s or the game's own, `*`
    /// while it goes on) and its moves in SAN, without comments. Write it
    /// with [`PgnTree::to_pgn`] from the game's start position's move
    /// number and side.
    ///
    /// ```
    /// use tensorchess_rules::{Chess, Game, pgn::PgnTree};
    /// let mut game = Game::<Chess>::new();
    /// game.push_str("e2e4").unwrap();
    /// let mut tree = PgnTree::of_game(&game, &[], None);
    /// tree.line.moves[0].comments.push("[%eval 0.3]".into());
    /// let start = game.start();
    /// assert!(tree.to_pgn(start.fullmoves(), start.turn()).ends_with("\n1. e4 { [%eval 0.3] } *\n"));
    /// ```
    pub fn of_game<V: Variant>(
        game: &Game<V>,
        tags: &[(String, String)],
        outcome: Option<Outcome>,
    ) -> PgnTree {
        PgnTree::of_game_with_result(game, tags, result_of(game, outcome))
    }

    /// [`PgnTree::of_game`] with the result given ([`write_pgn_with_result`]).
    pub fn of_game_with_result<V: Variant>(
        game: &Game<V>,
        tags: &[(String, String)],
        result: PgnResult,
    ) -> PgnTree {
        let result = result.as_str();
        let start_fen = game.start().fen();
        let setup = (start_fen != Position::<V>::new().fen()).then_some(start_fen.as_str());
        let moves = game
            .moves()
            .iter()
            .zip(game.positions())
            .map(|(m, pos)| PgnNode {
                san: san_with(pos, *m, &pos.legal_moves()),
                ..PgnNode::default()
            })
            .collect();
        PgnTree {
            tags: game_tags(tags, result, Some(V::KIND), setup),
            line: PgnLine {
                comments: Vec::new(),
                moves,
            },
            result: result.to_string(),
        }
    }
}
