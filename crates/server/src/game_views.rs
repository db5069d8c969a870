//! The views of a game's positions and moves that pages receive, for a
//! game of any of the three variants chosen at run time (the rules'
//! [`VariantGame`]), and the limits on what a page may import.

use super::error::{reason_args, AppError};
use super::store::columns::reason_text;
use super::views::ExplainView;
use super::views::{
    EndView, GeometryView, HandsView, HistoryEntry, MoveView, PathView, PositionView, RulesView,
};
pub(crate) use crate::views::path::{path_view_of, square_name};
use tensorchess_engine::eval::Evaluate;
use tensorchess_engine::{Engine, Limits, SearchHandler, SearchResult};
use tensorchess_rules::pgn::{self, PgnError};
use tensorchess_rules::uci::ParseMoveError;
use tensorchess_rules::IllegalReason;
pub use tensorchess_rules::VariantGame;
use tensorchess_rules::{
    san, with_game, with_variant, Color, EndReason, Game, Move, MoveKind, Outcome, Position,
    Square, Variant, VariantKind,
};

/// The largest PGN a page may import.
pub const MAX_PGN_BYTES: usize = 64 * 1024;
/// The most moves (plies) an imported game may have.
pub const MAX_PGN_PLIES: usize = 2000;
/// The longest PGN tag value kept.
pub const MAX_PGN_TAG: usize = 256;

/// A game imported from PGN: the moves, its tags, and its result token.
pub struct ImportedGame {
    /// The game, every move played.
    pub game: VariantGame,
    /// The PGN's tags, in order (values cut at [`MAX_PGN_TAG`] bytes).
    pub tags: Vec<(String, String)>,
    /// The movetext's result: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
}

/// A game from its name (`tensor`, `chess`, `chessence`); a bad request
/// for another word.
pub fn parse_variant(name: &str) -> Result<VariantKind, AppError> {
    name.parse::<VariantKind>()
        .map_err(|e| AppError::BadRequest(capital(&e.to_string())))
}

fn game_from<V: Variant>(fen: Option<&str>) -> Result<Game<V>, AppError> {
    let start = match fen.map(str::trim).filter(|f| !f.is_empty()) {
        Some(fen) => Position::<V>::from_fen(fen)
            .map_err(|e| AppError::BadRequest(capital(&e.to_string())))?,
        None => Position::new(),
    };
    Ok(Game::from_position(start))
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// Parses a move string, or SAN, in `pos`.
pub fn parse_move_in<V: Variant>(pos: &Position<V>, text: &str) -> Result<Move, AppError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(AppError::bad("No move given"));
    }
    if text.len() > 32 || !text.is_ascii() {
        return Err(AppError::bad(format!(
            "'{}' is not a move",
            text.chars().take(32).collect::<String>()
        )));
    }
    match pos.parse_move(text) {
        Ok(m) => Ok(m),
        Err(ParseMoveError::Illegal { text, reason }) => {
            Err(AppError::IllegalMove { text, reason })
        }
        Err(ParseMoveError::Syntax { .. }) => match san::parse_san(pos, text) {
            Ok(m) => Ok(m),
            Err(san::SanError::Illegal(text, reason)) => {
                Err(AppError::IllegalMove { text, reason })
            }
            Err(san::SanError::Ambiguous(text, options)) => Err(AppError::IllegalMove {
                text,
                reason: IllegalReason::Ambiguous { options },
            }),
            Err(san::SanError::Syntax(_)) => Err(AppError::bad(format!(
                "'{text}' is not a move: write it like e2e4, c1e3>g5, b1d3xc2 or Nf3"
            ))),
        },
    }
}

/// The board's shape of a game, as pages see it.
pub fn geometry_view(kind: VariantKind) -> GeometryView {
    let g = kind.geometry();
    let holes = (0..g.size() as u8)
        .map(Square::new)
        .filter(|s| !g.exists(*s))
        .map(|s| g.square_name(s).to_string())
        .collect();
    GeometryView {
        files: g.files,
        ranks: g.ranks,
        holes,
    }
}

/// The men in reserve in `game` (games with drops only).
pub fn hands_view(game: &VariantGame) -> Option<HandsView> {
    tensorchess_rules::with_game!(game, g: V => V::DROPS.then(|| {
        let pos = g.position();
        HandsView {
            white: pos.hand(Color::White),
            black: pos.hand(Color::Black),
        }
    }))
}

/// What the rules of `V` have.
pub fn rules_view<V: Variant>() -> RulesView {
    RulesView {
        hands: V::DROPS,
        beasts: V::BEASTS,
        castling: V::CASTLING.is_some(),
        king_moves: V::KING_MOVES,
    }
}

/// The path of legal move `m` of `pos`, as pages see it.
pub(crate) fn path_view<V: Variant>(pos: &Position<V>, m: Move) -> PathView {
    path_view_of::<V>(&pos.move_path(m))
}

/// Everything a page needs about one legal move of `pos`.
pub fn move_view<V: Variant>(pos: &Position<V>, m: Move, legal: &[Move]) -> MoveView {
    let path = path_view(pos, m);
    let rook = match m.kind() {
        MoveKind::Castle => path
            .routes
            .iter()
            .find(|r| r.piece.eq_ignore_ascii_case("r"))
            .and_then(|r| r.squares.first().cloned()),
        _ => None,
    };
    let aux = match m.kind() {
        MoveKind::Propel | MoveKind::BeastCapture => Some(square_name::<V>(m.aux())),
        _ => None,
    };
    MoveView {
        uci: pos.move_string(m),
        san: san::san_with(pos, m, legal),
        kind: m.kind(),
        from: square_name::<V>(m.from()),
        to: square_name::<V>(m.to()),
        aux,
        promotion: m.promotion_role().map(|r| r.char().to_string()),
        rook,
        path,
    }
}

pub(crate) fn color_title(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// The banner for a game ended by `outcome`.
pub fn end_view(kind: VariantKind, outcome: Outcome) -> EndView {
    let reason = outcome.reason();
    let winner = outcome.winner();
    let wins = |w: Color| format!("{} wins", color_title(w));
    let (title, text) = match (reason, winner) {
        (EndReason::Checkmate, Some(w)) => ("Checkmate".to_string(), wins(w)),
        (EndReason::NoLegalMoves, Some(w)) => (
            "No legal moves".to_string(),
            format!("{}: {} cannot move", wins(w), color_title(!w)),
        ),
        (EndReason::Resignation, Some(w)) => (format!("{} resigns", color_title(!w)), wins(w)),
        (EndReason::Timeout, Some(w)) => (format!("{} lost on time", color_title(!w)), wins(w)),
        (EndReason::Abandoned, Some(w)) => ("Game abandoned".to_string(), wins(w)),
        (_, Some(w)) => ("Game over".to_string(), wins(w)),
        (EndReason::Stalemate, None) => ("Stalemate".to_string(), "Draw".to_string()),
        (EndReason::Repetition, None) => {
            ("Draw".to_string(), "by threefold repetition".to_string())
        }
        (EndReason::HundredPlies, None) => (
            "Draw".to_string(),
            if kind == VariantKind::Chessence {
                "100 plies without a capture or a drop".to_string()
            } else {
                "100 plies without a capture or a pawn move".to_string()
            },
        ),
        (EndReason::DeadMaterial, None) => {
            ("Draw".to_string(), "neither side can checkmate".to_string())
        }
        (EndReason::Agreement, None) => ("Draw".to_string(), "by agreement".to_string()),
        (_, None) => ("Draw".to_string(), reason.describe().to_string()),
    };
    EndView {
        result: outcome.result_str().to_string(),
        reason: reason_text(reason).to_string(),
        winner,
        no_show: None,
        title,
        text,
    }
}

/// The banner for a result read from a PGN that the rules do not explain
/// (`None`: a draw).
pub fn imported_end_view(winner: Option<Color>) -> EndView {
    let (result, text) = match winner {
        Some(Color::White) => ("1-0", "White won"),
        Some(Color::Black) => ("0-1", "Black won"),
        None => ("1/2-1/2", "Drawn"),
    };
    EndView {
        result: result.to_string(),
        reason: "imported".to_string(),
        winner,
        no_show: None,
        title: "Game over".to_string(),
        text: text.to_string(),
    }
}

fn position_view<V: Variant>(
    pos: &Position<V>,
    outcome: Option<Outcome>,
    with_legal: bool,
) -> PositionView {
    let legal_moves = pos.legal_moves();
    let legal = if with_legal {
        legal_moves
            .iter()
            .map(|m| move_view(pos, *m, &legal_moves))
            .collect()
    } else {
        Vec::new()
    };
    PositionView {
        variant: V::KIND,
        fen: pos.fen(),
        turn: pos.turn(),
        check: if pos.is_check() {
            pos.king_of(pos.turn()).map(square_name::<V>)
        } else {
            None
        },
        hands: HandsView {
            white: pos.hand(Color::White),
            black: pos.hand(Color::Black),
        },
        geometry: geometry_view(V::KIND),
        rules: rules_view::<V>(),
        legal,
        outcome: outcome.map(|o| end_view(V::KIND, o)),
    }
}

/// Whether `text` is a legal move in `fen` (default: the start), and if
/// not, why: for a page to explain a try without sending it to a game.
pub fn explain<V: Variant>(fen: Option<&str>, text: &str) -> Result<ExplainView, AppError> {
    let game = game_from::<V>(fen)?;
    let pos = game.position();
    Ok(match parse_move_in(pos, text) {
        Ok(m) => ExplainView {
            legal: true,
            uci: Some(pos.move_string(m)),
            reason: None,
            code: None,
            args: None,
        },
        Err(AppError::IllegalMove { reason, .. }) => ExplainView {
            legal: false,
            uci: None,
            reason: Some(capital(&reason.to_string())),
            code: Some(reason.code()),
            args: Some(reason_args(&reason)),
        },
        Err(AppError::BadRequest(message)) => ExplainView {
            legal: false,
            uci: None,
            reason: Some(message),
            code: Some("not_a_move"),
            args: None,
        },
        Err(e) => return Err(e),
    })
}

/// A standalone position (rules page, FEN preview), optionally after a move.
/// The most moves `POST /api/position` plays before its position.
pub const MAX_POSITION_MOVES: usize = 512;

/// A standalone position (rules page, FEN preview): `fen`, then the moves
/// of `history` (so that repetitions count), optionally then `mv`.
pub fn standalone<V: Variant>(
    fen: Option<&str>,
    history: &[String],
    mv: Option<&str>,
) -> Result<(Option<MoveView>, PositionView), AppError> {
    if history.len() > MAX_POSITION_MOVES {
        return Err(AppError::bad(format!(
            "At most {MAX_POSITION_MOVES} moves before the position"
        )));
    }
    let mut game = game_from::<V>(fen)?;
    for text in history {
        let m = parse_move_in(game.position(), text)?;
        game.push(m);
    }
    let mut played = None;
    if let Some(text) = mv {
        let pos = *game.position();
        let m = parse_move_in(&pos, text)?;
        let legal = pos.legal_moves();
        played = Some(move_view(&pos, m, &legal));
        game.push(m);
    }
    Ok((played, position_view(game.position(), game.outcome(), true)))
}

pub(crate) fn history_entry<V: Variant>(before: &Position<V>, m: Move, ply: usize) -> HistoryEntry {
    let legal = before.legal_moves();
    let after = before.play(m);
    HistoryEntry {
        ply,
        uci: before.move_string(m),
        san: san::san_with(before, m, &legal),
        color: before.turn(),
        fen: after.fen(),
        check: if after.is_check() {
            after.king_of(after.turn()).map(square_name::<V>)
        } else {
            None
        },
        path: path_view(before, m),
    }
}

fn search_game<V: Evaluate, H: SearchHandler>(
    game: &Game<V>,
    ply: usize,
    engine: &mut Engine,
    limits: &Limits,
    handler: &mut H,
) -> (SearchResult, Option<MoveView>) {
    let positions = &game.positions()[..=ply.min(game.moves().len())];
    let result = engine.search(positions, limits, handler);
    let pos = positions[positions.len() - 1];
    let view = (!result.best.is_null()).then(|| {
        let legal = pos.legal_moves();
        move_view(&pos, result.best, &legal)
    });
    (result, view)
}

/// A new game from the start or from `fen`.
pub fn new_game(kind: VariantKind, fen: Option<&str>) -> Result<VariantGame, AppError> {
    Ok(with_variant!(kind, V => VariantGame::from(game_from::<V>(fen)?)))
}

/// Reads the first game of a PGN (at most [`MAX_PGN_BYTES`], tags of at
/// most [`MAX_PGN_TAG`] characters, [`MAX_PGN_PLIES`] moves); `fallback`
/// is the game when it has no `Variant` tag.
pub fn import_pgn(text: &str, fallback: Option<VariantKind>) -> Result<ImportedGame, AppError> {
    if text.len() > MAX_PGN_BYTES {
        return Err(AppError::TooLarge(format!(
            "A PGN may hold at most {} KiB",
            MAX_PGN_BYTES / 1024
        )));
    }
    let pgn =
        pgn::parse_first_pgn(text).map_err(|e| AppError::BadRequest(capital(&e.to_string())))?;
    if let Some((name, _)) = pgn
        .tags
        .iter()
        .find(|(k, v)| k.chars().count() > MAX_PGN_TAG || v.chars().count() > MAX_PGN_TAG)
    {
        return Err(AppError::bad(format!(
            "PGN: the tag '{}' is longer than {MAX_PGN_TAG} characters",
            name.chars().take(32).collect::<String>()
        )));
    }
    if pgn.moves.len() > MAX_PGN_PLIES {
        return Err(AppError::bad(format!(
            "PGN: a game may have at most {MAX_PGN_PLIES} moves (plies)"
        )));
    }
    if let Some(bad) = pgn.moves.iter().find(|t| !t.is_ascii() || t.len() > 32) {
        return Err(AppError::BadRequest(format!(
            "PGN: '{}' is not a move",
            bad.chars().take(32).collect::<String>()
        )));
    }
    // The rules library is trusted not to panic, but a PGN is arbitrary
    // input: a panic here must answer 400, not take a worker down.
    let game = std::panic::catch_unwind(|| pgn::replay_game(&pgn, fallback))
        .map_err(|_| AppError::bad("PGN: the moves could not be read"))?
        .map_err(|e| match e {
            PgnError::Move { .. } => AppError::BadRequest(format!("PGN: {e}")),
            other => AppError::BadRequest(capital(&other.to_string())),
        })?;
    Ok(ImportedGame {
        game,
        tags: pgn.tags,
        result: pgn.result,
    })
}

/// Replays stored move strings.
pub fn replay_game(
    kind: VariantKind,
    start_fen: &str,
    moves: &[String],
) -> Result<VariantGame, AppError> {
    let mut game = new_game(kind, Some(start_fen))?;
    for (i, text) in moves.iter().enumerate() {
        let m = game.parse_player_move(text).map_err(|e| {
            AppError::Internal(format!(
                "stored move {} ({text}) does not replay: {e}",
                i + 1
            ))
        })?;
        game.push(m);
    }
    Ok(game)
}

/// What the server asks of a game, besides what the rules' [`VariantGame`]
/// answers: moves read with the server's errors, and the views pages get.
pub trait GameViews {
    /// Finds the legal move `text` names (a move string or SAN).
    fn parse_player_move(&self, text: &str) -> Result<Move, AppError>;
    /// Plays a legal move and returns its history entry.
    fn push_entry(&mut self, m: Move) -> HistoryEntry;
    /// Every move's history entry.
    fn history(&self) -> Vec<HistoryEntry>;
    /// The current position; `ended`: the game is over (no moves offered).
    fn position_view(&self, ended: bool) -> PositionView;
    /// Searches the position after `ply` moves.
    fn search_at<H: SearchHandler>(
        &self,
        ply: usize,
        engine: &mut Engine,
        limits: &Limits,
        handler: &mut H,
    ) -> (SearchResult, Option<MoveView>);
    /// The side to move after `ply` moves.
    fn turn_at(&self, ply: usize) -> Color;
    /// Whether `c` still has pieces that could mate (a flag against a side
    /// without them is a draw).
    fn has_mating_material(&self, c: Color) -> bool;
}

impl GameViews for VariantGame {
    fn parse_player_move(&self, text: &str) -> Result<Move, AppError> {
        with_game!(self, g => parse_move_in(g.position(), text))
    }

    fn push_entry(&mut self, m: Move) -> HistoryEntry {
        with_game!(self, g => {
            let entry = history_entry(g.position(), m, g.moves().len());
            g.push(m);
            entry
        })
    }

    fn history(&self) -> Vec<HistoryEntry> {
        with_game!(self, g => g
            .moves()
            .iter()
            .enumerate()
            .map(|(i, m)| history_entry(&g.positions()[i], *m, i))
            .collect())
    }

    fn position_view(&self, ended: bool) -> PositionView {
        with_game!(self, g => position_view(g.position(), g.outcome(), !ended))
    }

    fn search_at<H: SearchHandler>(
        &self,
        ply: usize,
        engine: &mut Engine,
        limits: &Limits,
        handler: &mut H,
    ) -> (SearchResult, Option<MoveView>) {
        with_game!(self, g => search_game(g, ply, engine, limits, handler))
    }

    fn turn_at(&self, ply: usize) -> Color {
        with_game!(self, g => g.positions()[ply.min(g.moves().len())].turn())
    }

    fn has_mating_material(&self, c: Color) -> bool {
        with_game!(self, g => g.position().has_mating_material(c))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tensorchess_rules::Tensor;

    #[test]
    fn moves_carry_their_kind_path_and_castling_rook() {
        let (_, view) = standalone::<Tensor>(
            Some("r4k3r/10/10/10/10/10/10/R4K3R w KQkq - 0 1"),
            &[],
            None,
        )
        .unwrap();
        let castle = view.legal.iter().find(|m| m.uci == "f1h1").unwrap();
        assert_eq!(castle.kind, tensorchess_rules::MoveKind::Castle);
        assert_eq!(castle.rook.as_deref(), Some("j1"));
        assert_eq!(castle.san, "Kh1");
        assert_eq!(castle.path.routes.len(), 2);
    }

    #[test]
    fn illegal_and_malformed_moves_are_told_apart() {
        let game = new_game(VariantKind::Tensor, None).unwrap();
        assert!(matches!(
            game.parse_player_move("e2e5"),
            Err(AppError::IllegalMove { .. })
        ));
        assert!(matches!(
            game.parse_player_move("zz"),
            Err(AppError::BadRequest(_))
        ));
        assert!(matches!(
            game.parse_player_move("Þ6"),
            Err(AppError::BadRequest(_))
        ));
        assert!(game.parse_player_move("Nd3").is_ok());
    }

    #[test]
    fn mating_material_ignores_kings_and_beasts() {
        let game = new_game(
            VariantKind::Tensor,
            Some("k9/10/10/10/10/10/10/TK6Tq w - - 0 1"),
        )
        .unwrap();
        assert!(!game.has_mating_material(Color::White));
        assert!(game.has_mating_material(Color::Black));
        let game = new_game(
            VariantKind::Chessence,
            Some("km4/5*/4*1/2*3/1*2*1/3*2/1*4/*5/5K[M] w - - 0 1"),
        )
        .unwrap();
        assert!(game.has_mating_material(Color::White));
    }

    #[test]
    fn pgn_import_reads_the_variant_and_rejects_junk() {
        let imported = import_pgn("[Variant \"Tensor\"]\n\n1. e4 e5 *", None).unwrap();
        assert_eq!(imported.game.kind(), VariantKind::Tensor);
        assert_eq!(imported.game.ply(), 2);
        assert!(import_pgn("1. e4 Þ6 *", None).is_err());
        assert!(import_pgn("1. e4 e9 *", None).is_err());
    }
}
