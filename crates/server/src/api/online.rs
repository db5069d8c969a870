//! Online games: creating one to play a friend by link, taking its free
//! seat, and the players' actions.

use super::ApiResult;
use crate::command::Command;
use crate::error::{ApiJson, ApiPath, AppError};
use crate::players::Me;
use crate::requests::{JoinRequest, NewOnlineRequest, OnlineAction};
use crate::views::GameView;
use crate::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;

/// `POST /api/online`: a game against a friend, who joins by its link.
pub async fn create(
    State(state): State<AppState>,
    me: Me,
    ApiJson(req): ApiJson<NewOnlineRequest>,
) -> Result<(StatusCode, Json<GameView>), AppError> {
    let name = state.players.name_of(&me.id).await?;
    let view = state.games.online.create(req, &me, name).await?;
    Ok((StatusCode::CREATED, Json(view)))
}

/// `POST /api/games/{id}/join`: takes the free seat of an online game.
pub async fn join(
    State(state): State<AppState>,
    me: Me,
    ApiPath(id): ApiPath<String>,
    ApiJson(JoinRequest {}): ApiJson<JoinRequest>,
) -> ApiResult<GameView> {
    let name = state.players.name_of(&me.id).await?;
    let command = Command::Join { name };
    Ok(Json(state.games.act_view(&id, &me, command).await?))
}

/// `POST /api/games/{id}/act`: a player's action in an online game; the
/// answer is the game as that player sees it.
pub async fn act(
    State(state): State<AppState>,
    me: Me,
    ApiPath(id): ApiPath<String>,
    ApiJson(action): ApiJson<OnlineAction>,
) -> ApiResult<GameView> {
    let command = Command::Online(action);
    Ok(Json(state.games.act_view(&id, &me, command).await?))
}
