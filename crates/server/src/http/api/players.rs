//! Players: who is asking, their name, accounts (register, log in, log
//! out) and public profiles.

use super::ApiResult;
use crate::error::AppError;
use crate::http::cookies::{id_cookie, via_https};
use crate::http::extract::{ApiJson, ApiPath, ApiQuery};
use crate::http::views::players::{BotsView, FoundPlayerView, MeView, ProfileView};
use crate::identity::Me;
use crate::requests::SearchQuery;
use crate::requests::{AccountRequest, PasswordRequest, RenameRequest};
use crate::AppState;
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::Json;

/// Headers handing a new identity token to the browser.
fn identity_headers(token: &str, request: &HeaderMap) -> HeaderMap {
    let mut h = HeaderMap::new();
    h.insert(header::SET_COOKIE, id_cookie(token, via_https(request)));
    h.insert(
        header::CACHE_CONTROL,
        header::HeaderValue::from_static("no-store"),
    );
    h
}

/// `GET /api/me`: the player asking.
pub async fn me(State(state): State<AppState>, me: Me) -> ApiResult<MeView> {
    Ok(Json(state.players.info(&me).await?.into()))
}

/// `PATCH /api/me`: a new display name.
pub async fn rename(
    State(state): State<AppState>,
    me: Me,
    ApiJson(req): ApiJson<RenameRequest>,
) -> ApiResult<MeView> {
    Ok(Json(state.players.rename(&me, &req.name).await?.into()))
}

/// `POST /api/account/register`: an account for the player asking, who
/// keeps their games and is logged in (a new session).
pub async fn register(
    State(state): State<AppState>,
    me: Me,
    request: HeaderMap,
    ApiJson(req): ApiJson<AccountRequest>,
) -> Result<(StatusCode, HeaderMap, Json<MeView>), AppError> {
    let (info, token) = state
        .players
        .register(&me, &req.username, &req.password)
        .await?;
    Ok((
        StatusCode::CREATED,
        identity_headers(&token, &request),
        Json(info.into()),
    ))
}

/// `POST /api/account/login`: 401 for a wrong name or password.
pub async fn login(
    State(state): State<AppState>,
    me: Me,
    request: HeaderMap,
    ApiJson(req): ApiJson<AccountRequest>,
) -> Result<(HeaderMap, Json<MeView>), AppError> {
    let (info, token, moved) = state
        .players
        .login(&me, &req.username, &req.password)
        .await?;
    // The guest's games now belong to the account: load them afresh.
    for id in moved {
        state.games.live.remove(&id);
    }
    Ok((identity_headers(&token, &request), Json(info.into())))
}

/// `POST /api/account/logout`: the browser becomes a new guest.
pub async fn logout(
    State(state): State<AppState>,
    me: Me,
    request: HeaderMap,
) -> Result<(HeaderMap, Json<MeView>), AppError> {
    let token = state.players.logout(&me).await?;
    let guest = state.players.identify(Some(&token)).await;
    Ok((
        identity_headers(&token, &request),
        Json(state.players.info(&guest).await?.into()),
    ))
}

/// `POST /api/account/password` `{"old","new"}`: 204; every other session
/// of the account ends (on every server).
pub async fn change_password(
    State(state): State<AppState>,
    me: Me,
    ApiJson(req): ApiJson<PasswordRequest>,
) -> Result<StatusCode, AppError> {
    state
        .players
        .change_password(&me, &req.old, &req.new)
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Players listed by the header's search at most.
const SEARCH_LIMIT: usize = 10;

/// `GET /api/player/autocomplete?term=an`: the accounts whose user name
/// starts with the term (ignoring case), bots marked, who is online said.
pub async fn search(
    State(state): State<AppState>,
    ApiQuery(q): ApiQuery<SearchQuery>,
) -> ApiResult<Vec<FoundPlayerView>> {
    let found = state.players.search(&q.term, SEARCH_LIMIT).await?;
    let presence = state.games.live.presence();
    let mut out = Vec::with_capacity(found.len());
    for f in found {
        out.push(FoundPlayerView {
            title: state.bots.title(&f.player).await?,
            online: presence.is_here(&f.player),
            username: f.username,
            name: f.name,
        });
    }
    Ok(Json(out))
}

/// `GET /api/players/{username}`: a player's public profile.
pub async fn profile(
    State(state): State<AppState>,
    ApiPath(username): ApiPath<String>,
) -> ApiResult<ProfileView> {
    Ok(Json(state.players.profile(&username).await?.into()))
}

/// `GET /api/bots`: the bot accounts with their ratings, those online
/// first (the Bots page).
pub async fn bots(State(state): State<AppState>) -> ApiResult<BotsView> {
    Ok(Json(state.bots.list().await?.into()))
}
