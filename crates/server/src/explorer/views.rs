//! The explorer's answer, in lichess's shape (`GET /api/explorer`).

use crate::store::{ExplorerEval, MoveCounts, TopGame};
use serde::Serialize;

/// The engine's evaluation of the position after a move, White's view.
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct ExplorerEvalView {
    /// Centipawns, positive when White is better (absent for mates).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub cp: Option<i32>,
    /// Moves to mate, positive when White mates.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub mate: Option<i32>,
    /// The depth searched, in plies.
    pub depth: u32,
}

impl From<ExplorerEval> for ExplorerEvalView {
    fn from(e: ExplorerEval) -> Self {
        ExplorerEvalView {
            cp: e.cp,
            mate: e.mate,
            depth: e.depth,
        }
    }
}

/// A move played from the position, and how its games ended.
#[derive(Serialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct ExplorerMoveView {
    /// The move string (RULES 4.2).
    pub uci: String,
    /// The move in standard algebraic notation.
    pub san: String,
    /// Games White won.
    pub white: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games Black won.
    pub black: u64,
    /// The players' average rating over the games with ratings (`null`
    /// when none had).
    pub average_rating: Option<i32>,
    /// The position after the move, as the engine sees it, once it is
    /// known (computed in the background after a first ask).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub eval: Option<ExplorerEvalView>,
}

impl ExplorerMoveView {
    /// A move's view from its counts.
    pub fn new(counts: MoveCounts, san: String) -> ExplorerMoveView {
        ExplorerMoveView {
            average_rating: counts.average_rating(),
            uci: counts.uci,
            san,
            white: counts.white,
            draws: counts.draws,
            black: counts.black,
            eval: None,
        }
    }
}

/// A player of a top game.
#[derive(Serialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct TopGamePlayer {
    /// Their name, as shown over the board.
    pub name: String,
    /// Their rating when the game began.
    pub rating: Option<i32>,
}

/// One of the highest rated games through the position.
#[derive(Serialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct TopGameView {
    /// The game's id.
    pub id: String,
    /// `white`, `black`, or `null` for a draw.
    pub winner: Option<tensorchess_rules::Color>,
    /// White.
    pub white: TopGamePlayer,
    /// Black.
    pub black: TopGamePlayer,
    /// The year it was played.
    pub year: i32,
    /// The month it was played, `YYYY-MM` (lichess's).
    pub month: String,
}

impl From<TopGame> for TopGameView {
    fn from(g: TopGame) -> Self {
        let date = time::OffsetDateTime::from_unix_timestamp(g.played_at.div_euclid(1000))
            .unwrap_or(time::OffsetDateTime::UNIX_EPOCH);
        TopGameView {
            id: g.id,
            winner: g.winner,
            white: TopGamePlayer {
                name: g.white,
                rating: g.ratings[0],
            },
            black: TopGamePlayer {
                name: g.black,
                rating: g.ratings[1],
            },
            year: date.year(),
            month: format!("{:04}-{:02}", date.year(), u8::from(date.month())),
        }
    }
}

/// What the explorer knows of a position.
#[derive(Serialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct ExplorerView {
    /// Games White won through the position (the moves' sum).
    pub white: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games Black won.
    pub black: u64,
    /// Each move played from it, the most played first.
    pub moves: Vec<ExplorerMoveView>,
    /// The highest rated games through it, best first.
    pub top_games: Vec<TopGameView>,
}

impl ExplorerView {
    /// The answer from its moves and top games.
    pub fn new(moves: Vec<ExplorerMoveView>, top: Vec<TopGame>) -> ExplorerView {
        ExplorerView {
            white: moves.iter().map(|m| m.white).sum(),
            draws: moves.iter().map(|m| m.draws).sum(),
            black: moves.iter().map(|m| m.black).sum(),
            moves,
            top_games: top.into_iter().map(TopGameView::from).collect(),
        }
    }
}
