//! Game chat over HTTP: a room's lines, posting, muting the other side,
//! and reporting a line. The lines also arrive on the WebSocket topic
//! `chat:{id}:{room}`.

use super::ApiResult;
use crate::chat::{ChatLineView, ChatView};
use crate::error::AppError;
use crate::http::extract::{ApiJson, ApiPath, ApiQuery, IdPath};
use crate::identity::Me;
use crate::ids::GameId;
use crate::store::ChatRoom;
use crate::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde::Deserialize;

/// `GET /api/games/{id}/chat?room=players|spectators`.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct RoomQuery {
    /// The room (the players' when not given).
    room: Option<ChatRoom>,
}

/// `POST /api/games/{id}/chat`: a line for a room.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct PostRequest {
    /// The room (the players' when not given).
    room: Option<ChatRoom>,
    /// Plain text, at most 140 characters.
    text: String,
}

/// `POST /api/games/{id}/chat/mute`: mute the other side, or not.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct MuteRequest {
    /// Whether their lines are hidden.
    muted: bool,
}

/// `POST /api/chat/{id}/report` takes an empty object.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct ReportRequest {}

/// `GET /api/games/{id}/chat`: a room's newest lines.
pub async fn history(
    State(state): State<AppState>,
    me: Me,
    IdPath(id): IdPath<GameId>,
    ApiQuery(q): ApiQuery<RoomQuery>,
) -> ApiResult<ChatView> {
    let has_account = state.players.has_account(&me.id).await?;
    let (_, lg) = state.games.lock_for(&id, &me).await?;
    let room = q.room.unwrap_or(ChatRoom::Players);
    Ok(Json(state.chat.history(&lg, &me, has_account, room).await?))
}

/// `POST /api/games/{id}/chat`: posts a line (201 with it).
pub async fn post(
    State(state): State<AppState>,
    me: Me,
    IdPath(id): IdPath<GameId>,
    ApiJson(req): ApiJson<PostRequest>,
) -> Result<(StatusCode, Json<ChatLineView>), AppError> {
    let author = (
        state.players.name_of(&me.id).await?,
        state.players.has_account(&me.id).await?,
    );
    let (_, lg) = state.games.lock_for(&id, &me).await?;
    let room = req.room.unwrap_or(ChatRoom::Players);
    let line = state.chat.post(&lg, &me, author, room, &req.text).await?;
    Ok((StatusCode::CREATED, Json(line)))
}

/// `POST /api/games/{id}/chat/mute`: a player hides (or shows again) the
/// other side's lines in this game; remembered.
pub async fn mute(
    State(state): State<AppState>,
    me: Me,
    IdPath(id): IdPath<GameId>,
    ApiJson(req): ApiJson<MuteRequest>,
) -> Result<StatusCode, AppError> {
    let (_, lg) = state.games.lock_for(&id, &me).await?;
    state.chat.mute_opponent(&lg, &me, req.muted).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/chat/{id}/report`: reports a line to the operator (204).
pub async fn report(
    State(state): State<AppState>,
    me: Me,
    ApiPath(id): ApiPath<i64>,
    ApiJson(ReportRequest {}): ApiJson<ReportRequest>,
) -> Result<StatusCode, AppError> {
    let game = GameId::stored(state.chat.game_of(id).await?);
    let (_, lg) = state.games.lock_for(&game, &me).await?;
    state.chat.report(id, &me, &lg).await?;
    Ok(StatusCode::NO_CONTENT)
}
