//! A game as lichess's export shows it to programs (`GET /game/export/{id}`
//! with `Accept: application/json`, and each line of a player's games):
//! its players as users, status, winner, moves in SAN, clock.

use super::game::status_of;
use super::lichess::{self, GameStatus, PerfKey};
use super::shapes::GameSource;
use super::Bots;
use crate::error::AppError;
use crate::round::live::LiveGame;
use crate::store::Speed;
use serde::Serialize;
use tensorchess_rules::Color;

/// A player's user in lichess's export.
#[derive(Serialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct ExportedUserView {
    /// Their account's user name, else their display name.
    pub name: String,
    /// Their id as lichess's API shows users (the user name in lower
    /// case, or `guest-…`).
    pub id: String,
    /// `BOT` for a bot account (left out for others, as lichess does).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub title: Option<crate::views::Title>,
}

/// A side of a game in lichess's export: a player's seat (`user`,
/// `rating`, and `ratingDiff` once a rated game is over), or only a name
/// (the engine, a side of a game on one device).
#[derive(Serialize, Clone, Debug, PartialEq, Eq, Default, ts_rs::TS)]
pub struct ExportedSideView {
    /// The seat's player.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub user: Option<ExportedUserView>,
    /// A player's rating in the game's variant, `null` when the game
    /// had none; absent for a side no player holds.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub rating: Option<Option<i32>>,
    /// The player's rating change by the game.
    #[serde(rename = "ratingDiff", skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub rating_diff: Option<i32>,
    /// The side's name when no player holds it.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub name: Option<String>,
}

/// Both sides of an exported game.
#[derive(Serialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct ExportedPlayersView {
    /// White.
    pub white: ExportedSideView,
    /// Black.
    pub black: ExportedSideView,
}

/// An exported game's clock, in seconds as lichess gives it.
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct ExportedClockView {
    /// The time each side starts with.
    pub initial: i64,
    /// What each move adds.
    pub increment: i64,
    /// lichess's estimate of a game's length: `initial + 40 × increment`.
    #[serde(rename = "totalTime")]
    pub total_time: i64,
}

/// A game as lichess's JSON export shows it.
#[derive(Serialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct ExportedGameView {
    /// The game's id.
    pub id: String,
    /// Whether ratings change.
    pub rated: bool,
    /// lichess's key of the game (`standard`; the site's own for the others).
    pub variant: lichess::VariantKey,
    /// `bullet` … `classical`, or `correspondence`.
    pub speed: Speed,
    /// The rating pool's key.
    pub perf: PerfKey,
    /// When the game was made (ms since the epoch).
    #[serde(rename = "createdAt")]
    pub created_at: i64,
    /// When its last change was (ms since the epoch).
    #[serde(rename = "lastMoveAt")]
    pub last_move_at: i64,
    /// lichess's status name (`started`, `mate`, `resign`, `draw`…).
    pub status: GameStatus,
    /// How the game was made, for lichess's clients (always `friend`).
    pub source: GameSource,
    /// Its sides.
    pub players: ExportedPlayersView,
    /// The moves in SAN, separated by spaces.
    pub moves: String,
    /// The clock, for a game with one.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub clock: Option<ExportedClockView>,
    /// The winner's colour, for a game won.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub winner: Option<Color>,
    /// The PGN (`pgnInJson=true`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub pgn: Option<String>,
}

/// How a game ended for one of its players (`result=win|loss|draw` of a
/// player's games).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayerResult {
    /// The player won.
    Win,
    /// The player lost.
    Loss,
    /// A draw.
    Draw,
}

impl PlayerResult {
    /// `win`, `loss` or `draw`.
    pub fn parse(s: &str) -> Option<PlayerResult> {
        match s {
            "win" => Some(PlayerResult::Win),
            "loss" => Some(PlayerResult::Loss),
            "draw" => Some(PlayerResult::Draw),
            _ => None,
        }
    }
}

/// What an export needs of a game, read under its lock.
pub struct ExportedGame {
    id: String,
    variant: tensorchess_rules::VariantKind,
    clock: Option<crate::store::ClockSettings>,
    rated: bool,
    created_at: i64,
    last_move_at: i64,
    players: [Option<String>; 2],
    names: [String; 2],
    ratings: [Option<i32>; 2],
    rating_diffs: [Option<i32>; 2],
    status: GameStatus,
    winner: Option<Color>,
    moves: String,
    pgn: String,
}

impl ExportedGame {
    /// The game `lg` as it is now.
    pub fn of(lg: &LiveGame) -> ExportedGame {
        let record = lg.record();
        let online = lg.online().map(|o| o.record().clone());
        let seat = |c: Color| online.as_ref().and_then(|o| o.players[c].clone());
        let rating = |c: Color| online.as_ref().and_then(|o| o.ratings[c]);
        let diff = |c: Color| online.as_ref().and_then(|o| o.rating_diffs[c]);
        let (status, winner) = status_of(lg.ending());
        ExportedGame {
            id: lg.id().to_string(),
            variant: record.variant,
            clock: online.as_ref().and_then(|o| o.clock),
            rated: record.rated,
            created_at: record.created_at,
            last_move_at: record.updated_at,
            players: [seat(Color::White), seat(Color::Black)],
            names: [record.white.clone(), record.black.clone()],
            ratings: [rating(Color::White), rating(Color::Black)],
            rating_diffs: [diff(Color::White), diff(Color::Black)],
            status,
            winner,
            moves: lg
                .history()
                .iter()
                .map(|m| m.san.as_str())
                .collect::<Vec<_>>()
                .join(" "),
            pgn: lg.pgn(),
        }
    }

    /// The game's PGN.
    pub fn pgn(&self) -> &str {
        &self.pgn
    }

    /// The game's perf, as lichess names it (`blitz`, `tensor`).
    pub fn perf(&self) -> PerfKey {
        PerfKey::of(self.variant, self.clock)
    }

    /// The game (Tensor Chess, chess, Chessence).
    pub fn variant(&self) -> tensorchess_rules::VariantKind {
        self.variant
    }

    /// The game's speed, as lichess names it (`blitz`; `correspondence`
    /// without a clock).
    pub fn speed(&self) -> Speed {
        lichess::speed(self.clock)
    }

    /// How the game ended for `player` (a player id): won, lost or drawn;
    /// `None` while it goes on, when it was aborted, or for a player not
    /// in it.
    pub fn result_for(&self, player: &str) -> Option<PlayerResult> {
        let color = [Color::White, Color::Black]
            .into_iter()
            .find(|c| self.players[c.index()].as_deref() == Some(player))?;
        match (self.status, self.winner) {
            (GameStatus::Started | GameStatus::Aborted, _) => None,
            (_, Some(w)) if w == color => Some(PlayerResult::Win),
            (_, Some(_)) => Some(PlayerResult::Loss),
            (_, None) => Some(PlayerResult::Draw),
        }
    }

    /// The game as lichess's JSON export shows it (`pgnInJson` adds the PGN).
    pub async fn json(&self, bots: &Bots, with_pgn: bool) -> Result<ExportedGameView, AppError> {
        let mut sides = [ExportedSideView::default(), ExportedSideView::default()];
        for c in [Color::White, Color::Black] {
            let i = c.index();
            sides[i] = match &self.players[i] {
                Some(p) => {
                    let view = bots.player_view(p, self.ratings[i]).await?;
                    ExportedSideView {
                        user: Some(ExportedUserView {
                            name: view.name,
                            id: view.id,
                            title: view.title,
                        }),
                        rating: Some(view.rating),
                        rating_diff: self.rating_diffs[i],
                        name: None,
                    }
                }
                // A side no player holds (the engine, a local game).
                None => ExportedSideView {
                    name: Some(self.names[i].clone()),
                    ..ExportedSideView::default()
                },
            };
        }
        let [white, black] = sides;
        Ok(ExportedGameView {
            id: self.id.clone(),
            rated: self.rated,
            variant: self.variant.into(),
            speed: self.speed(),
            perf: self.perf(),
            created_at: self.created_at,
            last_move_at: self.last_move_at,
            status: self.status,
            source: GameSource::Friend,
            players: ExportedPlayersView { white, black },
            moves: self.moves.clone(),
            clock: self.clock.map(|c| ExportedClockView {
                initial: c.base_ms / 1000,
                increment: c.increment_ms / 1000,
                total_time: (c.base_ms + 40 * c.increment_ms) / 1000,
            }),
            winner: self.winner,
            pgn: with_pgn.then(|| self.pgn.clone()),
        })
    }
}
