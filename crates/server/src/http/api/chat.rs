//! Chat over HTTP: a game's room's lines, posting, muting the other side;
//! a tournament's room's lines and posting; reporting a line. The lines
//! also arrive on the WebSocket topic `chat:{id}:{room}`.

use super::ApiResult;
use crate::chat::{ChatLineView, ChatView};
use crate::error::AppError;
use crate::http::extract::{ApiJson, ApiPath, ApiQuery, IdPath};
use crate::identity::Me;
use crate::ids::{GameId, TournamentId};
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

/// `POST /api/tournaments/{id}/chat`: a line for the tournament's room.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct TournamentPostRequest {
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
    let (key, room) = state.chat.room_of(id).await?;
    if room == ChatRoom::Tournament {
        state.chat.report_in_tournament(id, &me).await?;
        return Ok(StatusCode::NO_CONTENT);
    }
    let game = GameId::stored(key);
    let (_, lg) = state.games.lock_for(&game, &me).await?;
    state.chat.report(id, &me, &lg).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `GET /api/tournaments/{id}/chat`: the tournament's room, newest lines.
pub async fn tournament_history(
    State(state): State<AppState>,
    me: Me,
    IdPath(id): IdPath<TournamentId>,
) -> ApiResult<ChatView> {
    let has_account = state.players.has_account(&me.id).await?;
    Ok(Json(
        state.chat.tournament_history(&id, &me, has_account).await?,
    ))
}

/// `POST /api/tournaments/{id}/chat`: posts a line in the tournament's
/// room (201 with it).
pub async fn tournament_post(
    State(state): State<AppState>,
    me: Me,
    IdPath(id): IdPath<TournamentId>,
    ApiJson(req): ApiJson<TournamentPostRequest>,
) -> Result<(StatusCode, Json<ChatLineView>), AppError> {
    let author = (
        state.players.name_of(&me.id).await?,
        state.players.has_account(&me.id).await?,
    );
    let line = state
        .chat
        .post_in_tournament(&id, &me, author, &req.text)
        .await?;
    Ok((StatusCode::CREATED, Json(line)))
}
