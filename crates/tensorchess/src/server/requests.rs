//! Request types: what pages send to the API and the WebSocket.

use serde::Deserialize;

/// `POST /api/games`: a new game, from the start, a FEN or a PGN.
#[derive(Deserialize, Debug, Default, Clone)]
pub struct NewGameRequest {
    /// `tensor` (default), `chess` or `chessence`. A PGN's `Variant` tag wins.
    pub variant: Option<String>,
    /// `engine` (default) or `local` (two players on one device).
    pub mode: Option<String>,
    /// The person's colour against the engine: `white` (default), `black` or `random`.
    pub color: Option<String>,
    /// The engine's level, 1..=6 (default 3).
    pub level: Option<u8>,
    /// Start from this position.
    pub fen: Option<String>,
    /// Import this game (its moves are played; the game goes on from its end).
    pub pgn: Option<String>,
}

/// `POST /api/games/{id}/moves`.
#[derive(Deserialize, Debug, Clone)]
pub struct MoveRequest {
    /// A move string (RULES 4.2) or SAN.
    #[serde(rename = "move")]
    pub mv: String,
    /// The number of moves the page saw on the board; a different number means
    /// the page is stale and the move is refused.
    pub ply: Option<usize>,
}

/// `POST /api/position`: the legal moves of any position, optionally after a move.
#[derive(Deserialize, Debug, Clone)]
pub struct PositionRequest {
    pub variant: String,
    /// The game's start position when absent.
    pub fen: Option<String>,
    #[serde(rename = "move")]
    pub mv: Option<String>,
}

/// `GET /api/games/{id}/eval?ply=N`.
#[derive(Deserialize, Debug, Clone, Default)]
pub struct EvalQuery {
    /// Evaluate the position after this many moves (default: now).
    pub ply: Option<usize>,
}

/// `GET /api/games?limit=N`.
#[derive(Deserialize, Debug, Clone, Default)]
pub struct ListQuery {
    pub limit: Option<usize>,
}

/// Messages a WebSocket client sends.
#[derive(Deserialize, Debug, Clone, PartialEq, Eq)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMessage {
    /// Receive a topic's events, starting with a snapshot (`game:ID`).
    Subscribe {
        topic: String,
    },
    Unsubscribe {
        topic: String,
    },
    Ping,
}
