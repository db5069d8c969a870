//! A game as lichess's export shows it to programs (`GET /game/export/{id}`
//! with `Accept: application/json`, and each line of a player's games):
//! its players as users, status, winner, moves in SAN, clock.

use super::game::status_of;
use super::{lichess, Bots};
use crate::error::AppError;
use crate::round::live::LiveGame;
use serde_json::{json, Value};
use tensorchess_rules::Color;

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
    status: &'static str,
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
    pub fn perf(&self) -> &'static str {
        lichess::perf_key(self.variant, self.clock)
    }

    /// The game (Tensor Chess, chess, Chessence).
    pub fn variant(&self) -> tensorchess_rules::VariantKind {
        self.variant
    }

    /// The game's speed, as lichess names it (`blitz`; `correspondence`
    /// without a clock).
    pub fn speed(&self) -> &'static str {
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
            ("started" | "aborted", _) => None,
            (_, Some(w)) if w == color => Some(PlayerResult::Win),
            (_, Some(_)) => Some(PlayerResult::Loss),
            (_, None) => Some(PlayerResult::Draw),
        }
    }

    /// The game as lichess's JSON export shows it (`pgnInJson` adds the PGN).
    pub async fn json(&self, bots: &Bots, with_pgn: bool) -> Result<Value, AppError> {
        let mut players = serde_json::Map::new();
        for c in [Color::White, Color::Black] {
            let i = c.index();
            let side = match &self.players[i] {
                Some(p) => {
                    let view = bots.player_view(p, self.ratings[i]).await?;
                    let mut user = json!({ "name": view.name, "id": view.id });
                    if let Some(title) = view.title {
                        user["title"] = json!(title);
                    }
                    let mut side = json!({ "user": user, "rating": view.rating });
                    if let Some(diff) = self.rating_diffs[i] {
                        side["ratingDiff"] = json!(diff);
                    }
                    side
                }
                // A side no player holds (the engine, a local game).
                None => json!({ "name": self.names[i] }),
            };
            players.insert(c.name().to_string(), side);
        }
        let mut game = json!({
            "id": self.id,
            "rated": self.rated,
            "variant": lichess::variant(self.variant).key,
            "speed": lichess::speed(self.clock),
            "perf": lichess::perf_key(self.variant, self.clock),
            "createdAt": self.created_at,
            "lastMoveAt": self.last_move_at,
            "status": self.status,
            "source": "friend",
            "players": players,
            "moves": self.moves,
        });
        if let Some(c) = self.clock {
            game["clock"] = json!({
                "initial": c.base_ms / 1000,
                "increment": c.increment_ms / 1000,
                "totalTime": (c.base_ms + 40 * c.increment_ms) / 1000,
            });
        }
        if let Some(w) = self.winner {
            game["winner"] = json!(w.name());
        }
        if with_pgn {
            game["pgn"] = json!(self.pgn);
        }
        Ok(game)
    }
}
