//! lichess's own routes that its programs call besides the Bot and Board
//! APIs (lichess-bot, berserk), in lichess's shapes: the token test, the
//! account, the games in progress, users' status and public data, a
//! game's export, takebacks answered, and a game's chat read.

use super::bot::Api;
use crate::bot::lichess::{self, PerfKey};
use crate::bot::{ExportedGame, PlayerResult};
use crate::error::AppError;
use crate::explorer::{position_hash, position_of, ExplorerQuery};
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
use tensorchess_rules::VariantKind;

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
        // lichess's `ai` counts games against its own engine, which plays
        // no online game here; the `H` counts (against humans) are then
        // the counts themselves. No bookmarks or imports here either.
        "count": {
            "all": counts.all,
            "rated": counts.rated,
            "ai": 0,
            "win": counts.win,
            "winH": counts.win,
            "loss": counts.loss,
            "lossH": counts.loss,
            "draw": counts.draw,
            "drawH": counts.draw,
            "playing": counts.playing,
            "bookmark": 0,
            "import": 0,
        },
    });
    if profile.bot {
        user["title"] = json!(crate::bot::BOT_TITLE);
    }
    user
}

/// A user's public data, by user name (any case).
pub(super) async fn public_user(state: &AppState, username: &str) -> Result<Value, AppError> {
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
    #[serde(
        rename = "pgnInJson",
        default,
        deserialize_with = "crate::requests::optional_flag"
    )]
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

/// Games one export gives at most (a program pages with `until`).
const MAX_EXPORTED: usize = 300;
/// Games read from the store at a time while exporting.
const EXPORT_PAGE: usize = 100;

/// The query of `GET /api/games/user/{username}` (lichess's names).
#[derive(Deserialize, Debug, Default)]
pub struct UserGamesQuery {
    /// At most this many games (and at most [`MAX_EXPORTED`]).
    max: Option<usize>,
    /// Games begun at or after this time (ms).
    since: Option<i64>,
    /// Games begun at or before this time (ms).
    until: Option<i64>,
    /// Only the games against this user.
    vs: Option<String>,
    /// Only rated (`true`) or casual (`false`) games.
    #[serde(default, deserialize_with = "crate::requests::optional_flag")]
    rated: Option<bool>,
    /// Only these perfs, comma separated (`blitz,tensor`).
    #[serde(rename = "perfType")]
    perf_type: Option<String>,
    /// Games in progress too (lichess: finished only by default).
    #[serde(default, deserialize_with = "crate::requests::optional_flag")]
    ongoing: Option<bool>,
    /// The PGN inside each JSON line too.
    #[serde(
        rename = "pgnInJson",
        default,
        deserialize_with = "crate::requests::optional_flag"
    )]
    pgn_in_json: Option<bool>,
    /// `dateAsc` for the oldest first (default `dateDesc`).
    sort: Option<String>,
    /// Only the games of this game (not lichess's, whose `perfType`
    /// names its variants): `tensor`, `chess` (or `standard`),
    /// `chessence`; with `fen` or `play`, the position's game (`tensor`
    /// when not given).
    variant: Option<String>,
    /// Only these speeds, comma separated, as lichess's explorer names
    /// them (`blitz,rapid`; a game without a clock is `correspondence`).
    speeds: Option<String>,
    /// Only the games the player won (`win`), lost (`loss`) or drew
    /// (`draw`); not lichess's.
    result: Option<String>,
    /// The position's FEN (or the start, with `play`).
    fen: Option<String>,
    /// Moves from there, comma separated.
    play: Option<String>,
}

/// The answer of a game export: NDJSON lines of lichess's game JSON with
/// `Accept: application/x-ndjson` (or JSON), else the games' PGN, one
/// after another.
async fn export_games(
    state: &AppState,
    me: &Me,
    json: bool,
    pgn_in_json: bool,
    games: Vec<ExportedGame>,
) -> Result<Response, AppError> {
    if json {
        let mut lines = Vec::with_capacity(games.len());
        for g in &games {
            lines.push(g.json(&state.bots, pgn_in_json).await?);
        }
        let _ = me;
        return Ok(crate::http::ndjson::listed(&lines));
    }
    let text: String = games
        .iter()
        .map(|g| format!("{}\n\n", g.pgn().trim_end()))
        .collect();
    Ok((
        [(
            header::CONTENT_TYPE,
            "application/x-chess-pgn; charset=utf-8",
        )],
        text,
    )
        .into_response())
}

/// Whether the client asked for JSON lines (`application/x-ndjson` or
/// JSON), not PGN.
fn wants_lines(headers: &HeaderMap) -> bool {
    headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("application/x-ndjson") || v.contains("application/json"))
}

/// `GET /api/games/user/{username}`: the user's games, newest first.
pub async fn user_games(
    State(state): State<AppState>,
    me: Me,
    headers: HeaderMap,
    ApiPath(username): ApiPath<String>,
    ApiQuery(q): ApiQuery<UserGamesQuery>,
) -> Result<Response, AppError> {
    let not_found = |name: &str| AppError::NotFound(format!("There is no player {name}"));
    let account = state
        .players
        .account(&username)
        .await?
        .ok_or_else(|| not_found(&username))?;
    let opponent = match &q.vs {
        Some(name) => Some(
            state
                .players
                .account(name)
                .await?
                .ok_or_else(|| not_found(name))?
                .player_id,
        ),
        None => None,
    };
    let filter = ExportFilter::parse(&q, &account.player_id)?;
    let max = q.max.unwrap_or(MAX_EXPORTED).min(MAX_EXPORTED);
    // Games through a position: those the explorer counted there.
    let position = if q.fen.is_some() || q.play.is_some() {
        let query = ExplorerQuery::parse(
            q.variant.as_deref(),
            q.fen.as_deref(),
            q.play.as_deref(),
            None,
            None,
            None,
        )?;
        let game = position_of(&query)?;
        Some((query.variant, position_hash(&game)))
    } else {
        None
    };
    let mut search = crate::store::GameSearch {
        player: account.player_id.clone(),
        opponent,
        rated: q.rated,
        since: q.since,
        until: q.until,
        finished: !q.ongoing.unwrap_or(false),
        oldest_first: q.sort.as_deref() == Some("dateAsc"),
        limit: EXPORT_PAGE,
        after: None,
        position,
        // Also read by the store, so that a page is not filled with games
        // dropped below (the speed is still judged once read).
        variant: filter.variant,
        end: filter.result.map(|r| match r {
            PlayerResult::Win => crate::store::PlayerEnd::Won,
            PlayerResult::Draw => crate::store::PlayerEnd::Drew,
            PlayerResult::Loss => crate::store::PlayerEnd::Lost,
        }),
    };
    let mut games = Vec::new();
    'pages: while games.len() < max {
        let page = state.games.search(&search).await?;
        let Some(last) = page.last().cloned() else {
            break;
        };
        for (id, _) in &page {
            let (_, lg) = state
                .games
                .lock_for(&GameId::stored(id.clone()), &me)
                .await?;
            let game = ExportedGame::of(&lg);
            drop(lg);
            if filter.keeps(&game) {
                games.push(game);
                if games.len() >= max {
                    break 'pages;
                }
            }
        }
        if page.len() < EXPORT_PAGE {
            break;
        }
        search.after = Some((last.1, last.0));
    }
    export_games(
        &state,
        &me,
        wants_lines(&headers),
        q.pgn_in_json.unwrap_or(false),
        games,
    )
    .await
}

/// What a player's games are filtered by once read (the store's search
/// knows the players, rating, dates, position, game and result; the
/// speed and perf are judged here, and the rest again).
struct ExportFilter<'a> {
    /// The player whose games they are.
    player: &'a str,
    /// Only these perfs (`perfType`).
    perfs: Option<Vec<PerfKey>>,
    /// Only this game.
    variant: Option<VariantKind>,
    /// Only these speeds (bits of [`Speed::index`](crate::store::Speed::index)).
    speeds: u32,
    /// Only games that ended so for the player.
    result: Option<PlayerResult>,
}

impl<'a> ExportFilter<'a> {
    /// The filters of `q`, for the games of `player`; a bad request for an
    /// unknown variant, speed or result.
    fn parse(q: &UserGamesQuery, player: &'a str) -> Result<ExportFilter<'a>, AppError> {
        // The explorer's parsing says what is wrong with a variant or speed.
        let parsed = ExplorerQuery::parse(
            q.variant.as_deref(),
            None,
            None,
            None,
            q.speeds.as_deref(),
            None,
        )?;
        let given = |v: &Option<String>| v.as_deref().is_some_and(|v| !v.trim().is_empty());
        let result = match q.result.as_deref().map(str::trim).filter(|r| !r.is_empty()) {
            None => None,
            Some(r) => Some(PlayerResult::parse(r).ok_or_else(|| {
                AppError::bad(format!(
                    "Unknown result '{}': win, loss or draw",
                    r.chars().take(32).collect::<String>()
                ))
            })?),
        };
        Ok(ExportFilter {
            player,
            perfs: q.perf_type.as_deref().map(|p| {
                p.split(',')
                    .filter_map(|s| PerfKey::parse(s.trim()))
                    .collect()
            }),
            variant: given(&q.variant).then_some(parsed.variant),
            speeds: parsed.filter.speeds,
            result,
        })
    }

    /// Whether `game` is one of those asked for.
    fn keeps(&self, game: &ExportedGame) -> bool {
        self.perfs.as_ref().is_none_or(|p| p.contains(&game.perf()))
            && self.variant.is_none_or(|v| v == game.variant())
            && self.speeds & (1 << game.speed().index()) != 0
            && self
                .result
                .is_none_or(|r| game.result_for(self.player) == Some(r))
    }
}

/// `POST /api/games/export/_ids`: the games named in the body (ids,
/// comma separated, at most [`MAX_EXPORTED`]), in that order; unknown ids
/// are left out.
pub async fn games_by_ids(
    State(state): State<AppState>,
    me: Me,
    headers: HeaderMap,
    ApiQuery(q): ApiQuery<ExportQuery>,
    body: String,
) -> Result<Response, AppError> {
    let mut games = Vec::new();
    for id in body
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .take(MAX_EXPORTED)
    {
        let Some(id) = GameId::parse(id) else {
            continue;
        };
        match state.games.lock_for(&id, &me).await {
            Ok((_, lg)) => games.push(ExportedGame::of(&lg)),
            Err(AppError::NotFound(_)) => continue,
            Err(e) => return Err(e),
        }
    }
    export_games(
        &state,
        &me,
        wants_lines(&headers),
        q.pgn_in_json.unwrap_or(false),
        games,
    )
    .await
}

/// `GET /api/user/{username}/rating-history`: for each rating pool, its
/// rating after each rated game, `[year, month (0 for January), day,
/// rating]` as lichess writes it, oldest first.
pub async fn rating_history(
    State(state): State<AppState>,
    ApiPath(username): ApiPath<String>,
) -> Result<Json<Value>, AppError> {
    let account = state
        .players
        .account(&username)
        .await?
        .ok_or_else(|| AppError::NotFound(format!("There is no player {username}")))?;
    let history = state.games.rating_history(&account.player_id).await?;
    let out: Vec<Value> = history
        .into_iter()
        .map(|(name, points)| {
            let points: Vec<Value> = points
                .into_iter()
                .filter_map(|(at, rating)| {
                    let t = time::OffsetDateTime::from_unix_timestamp(at.div_euclid(1000)).ok()?;
                    Some(json!([t.year(), u8::from(t.month()) - 1, t.day(), rating]))
                })
                .collect();
            json!({ "name": name, "points": points })
        })
        .collect();
    Ok(Json(Value::Array(out)))
}
