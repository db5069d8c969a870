//! The routes for programs, in lichess's shapes: personal API tokens
//! (`/api/account/tokens`, for a logged-in account), the Bot API
//! (`/api/bot/...`, a bot account's token with `bot:play`), the Board API
//! (`/api/board/...`, a person's account's token with `board:play`), the
//! event stream, and challenges by user name. Every refusal is JSON with
//! a reason (`{"error", "kind"}`).

use crate::bot;
use crate::bot::shapes::LichessChallenge;
use crate::challenges::{ChallengeRequest, DeclineRequest};
use crate::error::AppError;
use crate::http::extract::{ApiPath, IdPath};
use crate::http::held::ClientSlot;
use crate::http::ndjson;
use crate::http::views::tokens::{NewTokenView, TokensView};
use crate::identity::Me;
use crate::ids::GameId;
use crate::kind::Kind;
use crate::requests::{ClockRequest, ColorChoice, OnlineAction};
use crate::store::{ChatRoom, SeekColor};
use crate::tokens::{NewTokenRequest, TokenAuth, BOARD_PLAY, BOT_PLAY, CHALLENGE_WRITE};
use crate::AppState;
use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{header, StatusCode};
use axum::response::Response;
use axum::{Extension, Json};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value};

/// `{"ok": true}`, lichess's answer to a command done.
fn ok() -> Json<Value> {
    Json(json!({ "ok": true }))
}

/// A body as JSON (`Content-Type: application/json`) or as a form
/// (anything else, lichess's clients' way); an empty body is an empty form.
pub struct FormOrJson<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for FormOrJson<T> {
    type Rejection = AppError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let json = req
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.trim_start().starts_with("application/json"));
        let bytes = Bytes::from_request(req, state)
            .await
            .map_err(|e| AppError::bad(format!("Could not read the request body: {e}")))?;
        if json {
            serde_json::from_slice(&bytes)
                .map(FormOrJson)
                .map_err(|e| AppError::bad(format!("Invalid request: {e}")))
        } else {
            serde_urlencoded::from_bytes(&bytes)
                .map(FormOrJson)
                .map_err(|e| AppError::bad(format!("Invalid form: {e}")))
        }
    }
}

/// Whether the request came with a token (the account routes of tokens
/// are for people, logged in with their password).
pub struct ViaToken(pub bool);

impl<S: Send + Sync> FromRequestParts<S> for ViaToken {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(ViaToken(parts.extensions.get::<TokenAuth>().is_some()))
    }
}

fn no_token(via: ViaToken) -> Result<(), AppError> {
    if via.0 {
        Err(AppError::refused(
            Kind::MissingScope,
            "Tokens are made and revoked by a person logged in, not with a token",
        ))
    } else {
        Ok(())
    }
}

/// `POST /api/account/tokens` (201): the token is shown this once.
pub async fn create_token(
    State(state): State<AppState>,
    me: Me,
    via: ViaToken,
    FormOrJson(req): FormOrJson<NewTokenRequest>,
) -> Result<(StatusCode, Json<NewTokenView>), AppError> {
    no_token(via)?;
    Ok((
        StatusCode::CREATED,
        Json(state.tokens.create(&me, req).await?.into()),
    ))
}

/// `GET /api/account/tokens`: the account's tokens (never the tokens
/// themselves).
pub async fn list_tokens(
    State(state): State<AppState>,
    me: Me,
    via: ViaToken,
) -> Result<Json<TokensView>, AppError> {
    no_token(via)?;
    Ok(Json(state.tokens.list(&me).await?.into()))
}

/// `DELETE /api/account/tokens/{id}` (204): refused from now on, on every
/// server.
pub async fn revoke_token(
    State(state): State<AppState>,
    me: Me,
    via: ViaToken,
    ApiPath(id): ApiPath<String>,
) -> Result<StatusCode, AppError> {
    no_token(via)?;
    state.tokens.revoke(&me, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/bot/account/upgrade`: the account becomes a bot account.
pub async fn upgrade(
    State(state): State<AppState>,
    me: Me,
    auth: TokenAuth,
) -> Result<Json<Value>, AppError> {
    auth.require_any(&[BOT_PLAY])?;
    state.bots.upgrade(&me).await?;
    Ok(ok())
}

/// `GET /api/stream/event`: the account's challenges and games, as NDJSON.
pub async fn event_stream(
    State(state): State<AppState>,
    me: Me,
    auth: TokenAuth,
    client: Option<Extension<ClientSlot>>,
) -> Result<Response, AppError> {
    auth.require_any(&[BOT_PLAY, BOARD_PLAY, CHALLENGE_WRITE])?;
    let slot = state.held.event_stream(&me.id)?;
    // Subscribed first, then what is current read: nothing falls between.
    let subscription = bot::subscribe_events(&state.games, me.clone());
    let incoming = state.challenges.list(&me).await?.incoming;
    let lines = bot::event_stream(
        state.games.clone(),
        state.bots.clone(),
        subscription,
        incoming,
    )
    .await?;
    Ok(ndjson::streamed(lines, (slot, client)))
}

/// `GET /api/bot/online`: the bots with a stream open, as NDJSON, each
/// as lichess shows a user (`GET /api/user/{username}`).
pub async fn online_bots(State(state): State<AppState>) -> Result<Response, AppError> {
    let mut bots = Vec::new();
    for bot in state.bots.online().await? {
        match super::lichess::public_user(&state, &bot.username).await {
            Ok(user) => bots.push(user),
            // Closed since its stream opened: not online any more.
            Err(AppError::NotFound(_)) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(ndjson::listed(&bots))
}

/// Which API a game route is under, read from its path: `/api/bot/…`
/// (a bot account's token with `bot:play`) or `/api/board/…` (a person's
/// account's token with `board:play`). One handler serves both.
#[derive(Clone, Copy)]
pub enum Api {
    /// The Bot API.
    Bot,
    /// The Board API.
    Board,
}

impl<S: Send + Sync> FromRequestParts<S> for Api {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Api, AppError> {
        // Nested under `/api`, the router sees the path without it.
        let path = parts.uri.path();
        let path = path.strip_prefix("/api").unwrap_or(path);
        if path.starts_with("/bot/") {
            Ok(Api::Bot)
        } else if path.starts_with("/board/") {
            Ok(Api::Board)
        } else {
            Err(AppError::NotFound("Not a Bot or Board API route".into()))
        }
    }
}

impl Api {
    /// Refuses a token or an account that does not fit the API.
    pub(super) async fn check(
        self,
        state: &AppState,
        me: &Me,
        auth: &TokenAuth,
    ) -> Result<(), AppError> {
        match self {
            Api::Bot => {
                auth.require_any(&[BOT_PLAY])?;
                state.bots.require_bot(me).await
            }
            Api::Board => {
                auth.require_any(&[BOARD_PLAY])?;
                state.bots.require_person(me).await
            }
        }
    }
}

/// `GET /api/{bot|board}/game/stream/{id}`.
pub async fn game_stream(
    State(state): State<AppState>,
    me: Me,
    auth: TokenAuth,
    api: Api,
    IdPath(id): IdPath<GameId>,
    client: Option<Extension<ClientSlot>>,
) -> Result<Response, AppError> {
    api.check(&state, &me, &auth).await?;
    let slot = state.held.game_stream(&me.id, &id)?;
    let lines = bot::game_stream(state.games.clone(), state.bots.clone(), me, id).await?;
    Ok(ndjson::streamed(lines, (slot, client)))
}

/// `?offeringDraw=true` with a move.
#[derive(Deserialize, Debug, Default)]
pub struct MoveQuery {
    /// Offers a draw with the move (or accepts the opponent's).
    #[serde(rename = "offeringDraw", default)]
    offering_draw: Option<bool>,
}

async fn act(state: &AppState, me: &Me, id: &GameId, action: OnlineAction) -> Result<(), AppError> {
    state.games.act_online(id, me, action).await.map(|_| ())
}

/// `POST /api/{bot|board}/game/{id}/move/{move}[?offeringDraw=true]`.
pub async fn game_move(
    State(state): State<AppState>,
    me: Me,
    auth: TokenAuth,
    api: Api,
    IdPath((id, mv)): IdPath<(GameId, String)>,
    crate::http::extract::ApiQuery(q): crate::http::extract::ApiQuery<MoveQuery>,
) -> Result<Json<Value>, AppError> {
    api.check(&state, &me, &auth).await?;
    // The move is for the position now: the program saw it on its stream.
    let ply = state.games.lock_for(&id, &me).await?.1.ply();
    act(&state, &me, &id, OnlineAction::Move { mv, ply }).await?;
    if q.offering_draw == Some(true) {
        act(&state, &me, &id, OnlineAction::OfferDraw).await?;
    }
    Ok(ok())
}

macro_rules! game_action {
    ($(#[$doc:meta])* $name:ident, $action:expr) => {
        $(#[$doc])*
        pub async fn $name(
            State(state): State<AppState>,
            me: Me,
            auth: TokenAuth,
            api: Api,
            IdPath(id): IdPath<GameId>,
        ) -> Result<Json<Value>, AppError> {
            api.check(&state, &me, &auth).await?;
            act(&state, &me, &id, $action).await?;
            Ok(ok())
        }
    };
}

game_action!(
    /// `POST /api/{bot|board}/game/{id}/resign`.
    resign, OnlineAction::Resign
);
game_action!(
    /// `POST /api/{bot|board}/game/{id}/abort`.
    abort, OnlineAction::Abort
);
game_action!(
    /// `POST /api/{bot|board}/game/{id}/claim-victory`: wins a game the
    /// opponent left.
    claim_victory, OnlineAction::ClaimVictory
);

/// `POST /api/{bot|board}/game/{id}/draw/{yes|no}`: offers or accepts a
/// draw, or declines the opponent's offer.
pub async fn draw(
    State(state): State<AppState>,
    me: Me,
    auth: TokenAuth,
    api: Api,
    IdPath((id, accept)): IdPath<(GameId, String)>,
) -> Result<Json<Value>, AppError> {
    api.check(&state, &me, &auth).await?;
    let action = match accept.as_str() {
        "yes" | "true" => OnlineAction::OfferDraw,
        "no" | "false" => OnlineAction::DeclineDraw,
        _ => return Err(AppError::bad("Say yes or no to a draw")),
    };
    act(&state, &me, &id, action).await?;
    Ok(ok())
}

/// A chat line from a program: `room` (`player` or `spectator`) and `text`.
#[derive(Deserialize, Debug)]
pub struct ChatBody {
    /// `player` or `spectator` (lichess's words; ours are accepted too).
    room: String,
    /// The text.
    text: String,
}

/// `POST /api/{bot|board}/game/{id}/chat`.
pub async fn chat(
    State(state): State<AppState>,
    me: Me,
    auth: TokenAuth,
    api: Api,
    IdPath(id): IdPath<GameId>,
    FormOrJson(body): FormOrJson<ChatBody>,
) -> Result<Json<Value>, AppError> {
    api.check(&state, &me, &auth).await?;
    let room = match body.room.as_str() {
        "player" | "players" => ChatRoom::Players,
        "spectator" | "spectators" => ChatRoom::Spectators,
        _ => return Err(AppError::bad("A room is player or spectator")),
    };
    let author = (
        state.players.name_of(&me.id).await?,
        state.players.has_account(&me.id).await?,
    );
    let (_, lg) = state.games.lock_for(&id, &me).await?;
    state
        .chat
        .post_from_program(&lg, &me, author, room, &body.text)
        .await?;
    Ok(ok())
}

/// `POST /api/challenge/{username}`: our challenge's fields, or lichess's
/// form fields (`clock.limit`, `clock.increment`, `rated`, `color`,
/// `variant`, `days`); others are ignored.
#[derive(Deserialize, Debug, Default)]
pub struct ChallengeBody {
    #[serde(default)]
    variant: Option<String>,
    #[serde(default)]
    clock: Option<ClockRequest>,
    #[serde(default)]
    days: Option<u32>,
    #[serde(default)]
    rated: Option<bool>,
    #[serde(default)]
    color: Option<String>,
    #[serde(rename = "clock.limit", default)]
    clock_limit: Option<u32>,
    #[serde(rename = "clock.increment", default)]
    clock_increment: Option<u32>,
}

impl ChallengeBody {
    fn request(self, to: String) -> Result<ChallengeRequest, AppError> {
        let variant = match self.variant {
            Some(v) => Some(
                v.parse::<tensorchess_rules::VariantKind>()
                    .map_err(|e| AppError::bad(e.to_string()))?,
            ),
            None => None,
        };
        let color = match self.color.as_deref() {
            None | Some("random") => None,
            Some("white") => Some(ColorChoice(SeekColor::White)),
            Some("black") => Some(ColorChoice(SeekColor::Black)),
            Some(_) => return Err(AppError::bad("A colour is white, black or random")),
        };
        let clock = self.clock.or(match self.clock_limit {
            Some(limit) => Some(ClockRequest {
                base_seconds: limit,
                increment_seconds: self.clock_increment.unwrap_or(0),
            }),
            None => None,
        });
        Ok(ChallengeRequest {
            to,
            variant,
            clock,
            days: self.days,
            rated: self.rated.unwrap_or(false),
            color,
        })
    }
}

fn may_challenge(auth: &TokenAuth) -> Result<(), AppError> {
    auth.require_any(&[CHALLENGE_WRITE, BOT_PLAY, BOARD_PLAY])
}

/// `POST /api/challenge/{username}`: the challenge, in lichess's shape (201).
pub async fn challenge(
    State(state): State<AppState>,
    me: Me,
    auth: TokenAuth,
    ApiPath(username): ApiPath<String>,
    FormOrJson(body): FormOrJson<ChallengeBody>,
) -> Result<(StatusCode, Json<LichessChallenge>), AppError> {
    may_challenge(&auth)?;
    let view = state
        .challenges
        .create(&me, body.request(username)?)
        .await?;
    Ok((StatusCode::CREATED, Json(LichessChallenge::from(&view))))
}

/// `POST /api/challenge/{id}/accept`.
pub async fn accept(
    State(state): State<AppState>,
    me: Me,
    auth: TokenAuth,
    ApiPath(id): ApiPath<String>,
) -> Result<Json<Value>, AppError> {
    may_challenge(&auth)?;
    state.challenges.accept(&me, &id).await?;
    Ok(ok())
}

/// `POST /api/challenge/{id}/decline`, with an optional `reason`.
#[derive(Deserialize, Debug, Default)]
pub struct DeclineBody {
    #[serde(default)]
    reason: Option<String>,
}

/// `POST /api/challenge/{id}/decline`.
pub async fn decline(
    State(state): State<AppState>,
    me: Me,
    auth: TokenAuth,
    ApiPath(id): ApiPath<String>,
    FormOrJson(body): FormOrJson<DeclineBody>,
) -> Result<Json<Value>, AppError> {
    may_challenge(&auth)?;
    // lichess's keys become their sentences; other text stays as sent.
    let reason = body
        .reason
        .map(|r| crate::challenges::standard_reason(&r).map_or(r, str::to_string));
    state
        .challenges
        .decline(&me, &id, DeclineRequest { reason })
        .await?;
    Ok(ok())
}

/// `POST /api/challenge/{id}/cancel`: the challenger withdraws it.
pub async fn cancel(
    State(state): State<AppState>,
    me: Me,
    auth: TokenAuth,
    ApiPath(id): ApiPath<String>,
) -> Result<Json<Value>, AppError> {
    may_challenge(&auth)?;
    state.challenges.cancel(&me, &id).await?;
    Ok(ok())
}
