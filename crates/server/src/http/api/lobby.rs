//! The lobby's seeks: post one, list them, cancel one's own, accept another's.

use super::ApiResult;
use crate::error::AppError;
use crate::http::extract::{ApiJson, ApiPath};
use crate::identity::Me;
use crate::requests::{AcceptRequest, SeekRequest};
use crate::views::{GameView, SeekView};
use crate::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;

/// `POST /api/seeks`: 201 with the seek.
pub async fn create(
    State(state): State<AppState>,
    me: Me,
    ApiJson(req): ApiJson<SeekRequest>,
) -> Result<(StatusCode, Json<SeekView>), AppError> {
    Ok((
        StatusCode::CREATED,
        Json(state.lobby.create(&me, req).await?),
    ))
}

/// `GET /api/seeks`: the open seeks, oldest first.
pub async fn list(State(state): State<AppState>) -> ApiResult<Vec<SeekView>> {
    Ok(Json(state.lobby.list().await?))
}

/// `DELETE /api/seeks/{id}`: by its creator.
pub async fn cancel(
    State(state): State<AppState>,
    me: Me,
    ApiPath(id): ApiPath<String>,
) -> Result<StatusCode, AppError> {
    state.lobby.cancel(&me, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/seeks/{id}/accept`: 201 with the new online game; 409 for
/// one's own seek.
pub async fn accept(
    State(state): State<AppState>,
    me: Me,
    ApiPath(id): ApiPath<String>,
    ApiJson(AcceptRequest {}): ApiJson<AcceptRequest>,
) -> Result<(StatusCode, Json<GameView>), AppError> {
    Ok((
        StatusCode::CREATED,
        Json(state.lobby.accept(&me, &id).await?),
    ))
}
