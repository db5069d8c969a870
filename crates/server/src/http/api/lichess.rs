//! lichess's own routes that its programs call besides the Bot and Board
//! APIs (lichess-bot, berserk), in lichess's shapes: the token test, the
//! account, the games in progress, users' status and public data, a
//! game's export, takebacks answered, and a game's chat read.

use super::bot::Api;
use crate::bot::{lichess, ExportedGame};
use crate::error::AppError;
use crate::http::extract::{ApiPath, ApiQuery, IdPath};
use crate::ids::GameId;
use crate::kind::Kind;
use crate::players::{Me, Profile};
use crate::store::{ChatRoom, GameCounts};
use crate::tokens::TokenAuth;
use crate::AppState;
use axum::extract::State;
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Map, Value};

/// Tokens one token test looks up at most.
const MAX_TOKENS_TESTED: usize = 100;
/// Users one status request names at most (lichess's limit).
const MAX_STATUS_IDS: usize = 100;

/// `POST /api/token/test`: each token of the body (comma separated) →
/// `{scopes, userId, expires}`, or `null` for one unknown or revoked.
pub async fn token_test(
    State(state): State<AppState>,
    body: String,
) -> Result<Json<Value>, AppError> {
    let mut out = Map::new();
    for token in body
        .split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .take(MAX_TOKENS_TESTED)
    {
        let info = match state.tokens.authenticate(token).await {
            Ok(auth) => {
                let record = state.players.record(&auth.player).await?;
                json!({
                    "scopes": auth.scopes.join(","),
                    "userId": lichess::user_id(&record.id, record.account.as_deref()),
                    "expires": Value::Null,
                })
            }
            Err(AppError::Unauthorized(_)) => Value::Null,
            Err(e) => return Err(e),
        };
        out.insert(token.to_string(), info);
    }
    Ok(Json(Value::Object(out)))
}

/// A user as lichess's `GET /api/user/{username}` and `/api/account`
/// show them.
fn user_json(profile: &Profile, counts: GameCounts, online: bool) -> Value {
    let mut user = json!({
        "id": profile.username.to_lowercase(),
        "username": profile.username,
        "perfs": lichess::perfs(&profile.ratings),
        "createdAt": profile.created_at,
        "url": format!("/#/player/{}", profile.username),
        "online": online,
        "count": {
            "all": counts.all,
            "rated": counts.rated,
            "win": counts.win,
            "loss": counts.loss,
            "draw": counts.draw,
            "playing": counts.playing,
        },
    });
    if profile.bot {
        user["title"] = json!(crate::bot::BOT_TITLE);
    }
    user
}

/// A user's public data, by user name (any case).
async fn public_user(state: &AppState, username: &str) -> Result<Value, AppError> {
    let not_found = || AppError::NotFound(format!("There is no player {username}"));
    let account = state
        .players
        .account(username)
        .await?
        .ok_or_else(not_found)?;
    if account.closed_at.is_some() {
        return Ok(json!({
            "id": account.username.to_lowercase(),
            "username": account.username,
            "disabled": true,
        }));
    }
    let profile = state.players.profile(&account.username).await?;
    let counts = state.players.game_counts(&account.player_id).await?;
    let online = state.games.live.presence().is_here(&account.player_id);
    Ok(user_json(&profile, counts, online))
}

/// `GET /api/account`: the token's account, as lichess's clients read it.
pub async fn account(
    State(state): State<AppState>,
    me: Me,
    auth: TokenAuth,
) -> Result<Json<Value>, AppError> {
    let _ = auth;
    let record = state.players.record(&me.id).await?;
    let username = record
        .account
        .ok_or_else(|| AppError::refused(Kind::AccountNeeded, "The account is gone"))?;
    Ok(Json(public_user(&state, &username).await?))
}

/// `GET /api/user/{username}`.
pub async fn user(
    State(state): State<AppState>,
    ApiPath(username): ApiPath<String>,
) -> Result<Json<Value>, AppError> {
    Ok(Json(public_user(&state, &username).await?))
}

/// `GET /api/account/playing`: the games in progress, as `gameStart`
/// shows them.
pub async fn playing(
    State(state): State<AppState>,
    me: Me,
    auth: TokenAuth,
) -> Result<Json<Value>, AppError> {
    let _ = auth;
    let games = crate::bot::now_playing(&state.games, &state.bots, &me).await?;
    Ok(Json(json!({ "nowPlaying": games })))
}

/// `?ids=` of `GET /api/users/status`.
#[derive(Deserialize, Debug)]
pub struct StatusQuery {
    /// User names, comma separated.
    ids: String,
}

/// `GET /api/users/status?ids=a,b`: who is online, of known users.
pub async fn users_status(
    State(state): State<AppState>,
    ApiQuery(q): ApiQuery<StatusQuery>,
) -> Result<Json<Value>, AppError> {
    let mut out = Vec::new();
    for name in q
        .ids
        .split(',')
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .take(MAX_STATUS_IDS)
    {
        let Some(account) = state.players.account(name).await? else {
            continue;
        };
        if account.closed_at.is_some() {
            continue;
        }
        let mut user = json!({
            "id": account.username.to_lowercase(),
            "name": account.username,
            "online": state.games.live.presence().is_here(&account.player_id),
        });
        if let Some(title) = state.bots.title(&account.player_id).await? {
            user["title"] = json!(title);
        }
        out.push(user);
    }
    Ok(Json(Value::Array(out)))
}

/// `?pgnInJson=true` of a game's export.
#[derive(Deserialize, Debug, Default)]
pub struct ExportQuery {
    /// The PGN inside the JSON too.
    #[serde(rename = "pgnInJson", default)]
    pgn_in_json: Option<bool>,
}

/// Whether the client asked for JSON (`Accept: application/json`).
fn wants_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("application/json"))
}

/// `GET /game/export/{id}`: the game's PGN, or lichess's JSON of it with
/// `Accept: application/json`.
pub async fn export(
    State(state): State<AppState>,
    me: Me,
    headers: HeaderMap,
    IdPath(id): IdPath<GameId>,
    ApiQuery(q): ApiQuery<ExportQuery>,
) -> Result<Response, AppError> {
    let game = ExportedGame::of(&state.games.lock_for(&id, &me).await?.1);
    if wants_json(&headers) {
        let v = game
            .json(&state.bots, q.pgn_in_json.unwrap_or(false))
            .await?;
        return Ok(Json(v).into_response());
    }
    Ok((
        [(
            header::CONTENT_TYPE,
            "application/x-chess-pgn; charset=utf-8",
        )],
        game.pgn().to_string(),
    )
        .into_response())
}

/// `POST /api/{bot|board}/game/{id}/takeback/{yes|no}`: online games here
/// have no takebacks, so there is never one to accept; declining is
/// always done.
pub async fn takeback(
    State(state): State<AppState>,
    me: Me,
    auth: TokenAuth,
    api: Api,
    IdPath((id, answer)): IdPath<(GameId, String)>,
) -> Result<Json<Value>, AppError> {
    api.check(&state, &me, &auth).await?;
    let (_, lg) = state.games.lock_for(&id, &me).await?;
    if crate::round::online::OnlineGames::seat(&lg, &me).is_none() {
        return Err(AppError::refused(
            Kind::NotAPlayer,
            "Only the game's players answer a takeback",
        ));
    }
    match answer.as_str() {
        "no" | "false" => Ok(Json(json!({ "ok": true }))),
        "yes" | "true" => Err(AppError::refused(
            Kind::NoOffer,
            "There is no takeback to accept: online games here have none",
        )),
        _ => Err(AppError::bad("Say yes or no to a takeback")),
    }
}

/// `GET /api/{bot|board}/game/{id}/chat`: the players' room, as lichess's
/// `[{"text","user"}]`, oldest first.
pub async fn chat(
    State(state): State<AppState>,
    me: Me,
    auth: TokenAuth,
    api: Api,
    IdPath(id): IdPath<GameId>,
) -> Result<Json<Value>, AppError> {
    api.check(&state, &me, &auth).await?;
    let has_account = state.players.has_account(&me.id).await?;
    let (_, lg) = state.games.lock_for(&id, &me).await?;
    let view = state
        .chat
        .history(&lg, &me, has_account, ChatRoom::Players)
        .await?;
    drop(lg);
    let lines: Vec<Value> = view
        .lines
        .iter()
        .map(|l| json!({ "text": l.text, "user": l.name }))
        .collect();
    Ok(Json(Value::Array(lines)))
}
