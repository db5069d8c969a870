//! Online games: creating one to play a friend by link, taking its free
//! seat, and the players' actions.

use super::ApiResult;
use crate::error::{ApiJson, ApiPath, AppError};
use crate::online::Acted;
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
    let arc = state.games.get_for(&id, &me).await?;
    let name = state.players.name_of(&me.id).await?;
    Ok(Json(state.games.online.join(&arc, &me, name).await?))
}

/// `POST /api/games/{id}/act`: a player's action in an online game; the
/// answer is the game as that player sees it.
pub async fn act(
    State(state): State<AppState>,
    me: Me,
    ApiPath(id): ApiPath<String>,
    ApiJson(action): ApiJson<OnlineAction>,
) -> ApiResult<GameView> {
    let arc = state.games.get_for(&id, &me).await?;
    let mut lg = arc.lock().await;
    let Acted { .. } = state.games.online.act(&arc, &mut lg, &me, action).await?;
    Ok(Json(state.games.online.view_for(&lg, &me)))
}
