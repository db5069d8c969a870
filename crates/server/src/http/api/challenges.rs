//! Challenges over HTTP; their news also arrives on the WebSocket topic
//! `challenges`.

use super::ApiResult;
use crate::challenges::{ChallengeRequest, ChallengeView, ChallengesView, DeclineRequest};
use crate::error::AppError;
use crate::http::extract::{ApiJson, ApiPath};
use crate::identity::Me;
use crate::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde::Deserialize;

/// `POST /api/challenges/{id}/accept` takes an empty object.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct AcceptRequest {}

/// `POST /api/challenges`: challenges a named player (201).
pub async fn create(
    State(state): State<AppState>,
    me: Me,
    ApiJson(req): ApiJson<ChallengeRequest>,
) -> Result<(StatusCode, Json<ChallengeView>), AppError> {
    let view = state.challenges.create(&me, req).await?;
    Ok((StatusCode::CREATED, Json(view)))
}

/// `GET /api/challenges`: the asker's open challenges, in and out.
pub async fn list(State(state): State<AppState>, me: Me) -> ApiResult<ChallengesView> {
    Ok(Json(state.challenges.list(&me).await?))
}

/// `POST /api/challenges/{id}/accept`: the game is made; the answer is the
/// challenge with its `game` (201).
pub async fn accept(
    State(state): State<AppState>,
    me: Me,
    ApiPath(id): ApiPath<String>,
    ApiJson(AcceptRequest {}): ApiJson<AcceptRequest>,
) -> Result<(StatusCode, Json<ChallengeView>), AppError> {
    let view = state.challenges.accept(&me, &id).await?;
    Ok((StatusCode::CREATED, Json(view)))
}

/// `POST /api/challenges/{id}/decline`, with an optional `reason`.
pub async fn decline(
    State(state): State<AppState>,
    me: Me,
    ApiPath(id): ApiPath<String>,
    ApiJson(req): ApiJson<DeclineRequest>,
) -> ApiResult<ChallengeView> {
    Ok(Json(state.challenges.decline(&me, &id, req).await?))
}

/// `DELETE /api/challenges/{id}`: the challenger withdraws it (204).
pub async fn cancel(
    State(state): State<AppState>,
    me: Me,
    ApiPath(id): ApiPath<String>,
) -> Result<StatusCode, AppError> {
    state.challenges.cancel(&me, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}
