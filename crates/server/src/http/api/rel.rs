//! Follows (lichess's `/api/rel/…`) and an account's preferences.

use super::ApiResult;
use crate::error::AppError;
use crate::follows::PreferencesView;
use crate::http::extract::{ApiJson, ApiPath};
use crate::http::ndjson;
use crate::identity::Me;
use crate::AppState;
use axum::extract::State;
use axum::response::Response;
use axum::Json;
use serde_json::{json, Value};

/// `POST /api/rel/follow/{username}`: `{"ok": true}`.
pub async fn follow(
    State(state): State<AppState>,
    me: Me,
    ApiPath(username): ApiPath<String>,
) -> ApiResult<Value> {
    state.follows.follow(&me, &username).await?;
    Ok(Json(json!({ "ok": true })))
}

/// `POST /api/rel/unfollow/{username}`: `{"ok": true}`.
pub async fn unfollow(
    State(state): State<AppState>,
    me: Me,
    ApiPath(username): ApiPath<String>,
) -> ApiResult<Value> {
    state.follows.unfollow(&me, &username).await?;
    Ok(Json(json!({ "ok": true })))
}

/// `GET /api/rel/following`: the accounts followed, one NDJSON line each
/// (as lichess), the latest followed first.
pub async fn following(State(state): State<AppState>, me: Me) -> Result<Response, AppError> {
    Ok(ndjson::listed(&state.follows.following(&me).await?))
}

/// `GET /api/account/preferences`.
pub async fn preferences(State(state): State<AppState>, me: Me) -> ApiResult<PreferencesView> {
    Ok(Json(state.follows.preferences(&me).await?))
}

/// `POST /api/account/preferences`: changes the fields given; answers
/// them all.
pub async fn set_preferences(
    State(state): State<AppState>,
    me: Me,
    ApiJson(change): ApiJson<PreferencesView>,
) -> ApiResult<PreferencesView> {
    Ok(Json(state.follows.set_preferences(&me, change).await?))
}
