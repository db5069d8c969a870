//! The JSON API's handlers. Each one reads a request type, asks the games
//! service, and answers a view or an [`AppError`].

use super::anygame::{explain as explain_move, parse_variant, rules_view, standalone};
use super::error::{ApiJson, ApiPath, ApiQuery, AppError};
use super::online::seats::{seat_cookie, via_https};
use super::online::{Acted, Cookies};
use super::requests::{
    EvalQuery, ExplainRequest, JoinRequest, ListQuery, MoveRequest, NewGameRequest,
    NewOnlineRequest, OnlineAction, PositionRequest,
};
use super::store::GameMode;
use super::views::{
    AnalysisView, DrawAnswerView, ExplainView, GameSummaryView, GameView, InfoView, LevelInfo,
    PlayedView, VariantInfo,
};
use super::AppState;
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use tensorchess_engine::Level;
use tensorchess_rules::{Chess, Chessence, Tensor, VariantKind};

type ApiResult<T> = Result<Json<T>, AppError>;

pub async fn info() -> Json<InfoView> {
    let variants = [
        VariantKind::Tensor,
        VariantKind::Chess,
        VariantKind::Chessence,
    ]
    .into_iter()
    .map(|k| VariantInfo {
        name: k.name(),
        title: k.title(),
        start_fen: k.start_fen(),
        rules: match k {
            VariantKind::Tensor => rules_view::<Tensor>(),
            VariantKind::Chess => rules_view::<Chess>(),
            VariantKind::Chessence => rules_view::<Chessence>(),
        },
    })
    .collect();
    let levels = (Level::MIN..=Level::MAX)
        .filter_map(Level::new)
        .map(|l| LevelInfo {
            level: l.number(),
            name: l.name(),
        })
        .collect();
    Json(InfoView {
        version: env!("CARGO_PKG_VERSION"),
        variants,
        levels,
    })
}

pub async fn list_games(
    State(state): State<AppState>,
    cookies: Cookies,
    ApiQuery(q): ApiQuery<ListQuery>,
) -> ApiResult<Vec<GameSummaryView>> {
    let limit = q.limit.unwrap_or(200).clamp(1, 1000);
    Ok(Json(state.games.list(limit, &cookies).await?))
}

/// Headers that hand over a seat token (and keep shared caches away).
fn seat_headers(id: &str, token: Option<String>, request: &HeaderMap) -> HeaderMap {
    let mut h = HeaderMap::new();
    if let Some(token) = token {
        h.insert(
            header::SET_COOKIE,
            seat_cookie(id, &token, via_https(request)),
        );
        h.insert(
            header::CACHE_CONTROL,
            header::HeaderValue::from_static("no-store"),
        );
    }
    h
}

/// `POST /api/online`: a game against a friend; the answer's cookie holds
/// the creator's seat.
pub async fn create_online(
    State(state): State<AppState>,
    request: HeaderMap,
    ApiJson(req): ApiJson<NewOnlineRequest>,
) -> Result<(StatusCode, HeaderMap, Json<GameView>), AppError> {
    let (view, token) = state.games.online.create(req).await?;
    let headers = seat_headers(&view.id, Some(token), &request);
    Ok((StatusCode::CREATED, headers, Json(view)))
}

/// `POST /api/games/{id}/join`: takes the free seat of an online game.
pub async fn join(
    State(state): State<AppState>,
    cookies: Cookies,
    request: HeaderMap,
    ApiPath(id): ApiPath<String>,
    ApiJson(JoinRequest {}): ApiJson<JoinRequest>,
) -> Result<(HeaderMap, Json<GameView>), AppError> {
    let arc = state.games.get(&id).await?;
    let (view, token) = state.games.online.join(&arc, &cookies).await?;
    Ok((seat_headers(&id, token, &request), Json(view)))
}

/// `POST /api/games/{id}/act`: a player's action in an online game; the
/// answer is the game as that player sees it.
pub async fn act(
    State(state): State<AppState>,
    cookies: Cookies,
    ApiPath(id): ApiPath<String>,
    ApiJson(action): ApiJson<OnlineAction>,
) -> ApiResult<GameView> {
    let arc = state.games.get(&id).await?;
    let mut lg = arc.lock().await;
    let Acted { .. } = state
        .games
        .online
        .act(&arc, &mut lg, &cookies, action)
        .await?;
    Ok(Json(state.games.online.view_for(&lg, &cookies)))
}

pub async fn create_game(
    State(state): State<AppState>,
    ApiJson(req): ApiJson<NewGameRequest>,
) -> Result<(StatusCode, Json<GameView>), AppError> {
    let view = state.games.local.create(req).await?;
    Ok((StatusCode::CREATED, Json(view)))
}

pub async fn get_game(
    State(state): State<AppState>,
    cookies: Cookies,
    request: HeaderMap,
    ApiPath(id): ApiPath<String>,
) -> Result<(HeaderMap, Json<GameView>), AppError> {
    let arc = state.games.get(&id).await?;
    let lg = arc.lock().await;
    let (view, token) = state.games.online.view_and_inherited_seat(&lg, &cookies);
    Ok((seat_headers(&id, token, &request), Json(view)))
}

pub async fn delete_game(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
) -> Result<StatusCode, AppError> {
    let arc = state.games.get(&id).await?;
    state.games.local.delete(Some(arc), &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// A person's move (in an online game: the move of the seat `cookies` hold).
pub async fn play_move(
    State(state): State<AppState>,
    cookies: Cookies,
    ApiPath(id): ApiPath<String>,
    ApiJson(req): ApiJson<MoveRequest>,
) -> ApiResult<GameView> {
    let arc = state.games.get(&id).await?;
    let mut lg = arc.lock().await;
    if lg.mode() == GameMode::Online {
        let Some(ply) = req.ply else {
            return Err(AppError::bad(
                "A move in an online game must say at which ply it is played (\"ply\")",
            ));
        };
        let action = OnlineAction::Move { mv: req.mv, ply };
        let online = &state.games.online;
        online.act(&arc, &mut lg, &cookies, action).await?;
        return Ok(Json(online.view_for(&lg, &cookies)));
    }
    Ok(Json(
        state
            .games
            .local
            .play(&arc, &mut lg, &req.mv, req.ply)
            .await?,
    ))
}

/// Refuses what only local games allow.
fn local_only(mode: GameMode, message: &'static str) -> Result<(), AppError> {
    if mode == GameMode::Online {
        return Err(AppError::refused("not_allowed", message));
    }
    Ok(())
}

pub async fn takeback(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
) -> ApiResult<GameView> {
    let arc = state.games.get(&id).await?;
    let mut lg = arc.lock().await;
    local_only(lg.mode(), "There are no takebacks in online games")?;
    Ok(Json(state.games.local.takeback(&arc, &mut lg).await?))
}

/// The person resigns (two players on one device: the side to move
/// resigns; online: the seat `cookies` hold).
pub async fn resign(
    State(state): State<AppState>,
    cookies: Cookies,
    ApiPath(id): ApiPath<String>,
) -> ApiResult<GameView> {
    let arc = state.games.get(&id).await?;
    let mut lg = arc.lock().await;
    if lg.mode() == GameMode::Online {
        let online = &state.games.online;
        online
            .act(&arc, &mut lg, &cookies, OnlineAction::Resign)
            .await?;
        return Ok(Json(online.view_for(&lg, &cookies)));
    }
    Ok(Json(state.games.local.resign(&mut lg).await?))
}

pub async fn offer_draw(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
) -> ApiResult<DrawAnswerView> {
    let arc = state.games.get(&id).await?;
    local_only(
        arc.lock().await.mode(),
        "In an online game, offer a draw with the offer_draw action",
    )?;
    Ok(Json(state.games.local.offer_draw(&arc).await?))
}

pub async fn hint(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
) -> ApiResult<AnalysisView> {
    let arc = state.games.get(&id).await?;
    Ok(Json(state.games.local.hint(&arc).await?))
}

pub async fn evaluate(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
    ApiQuery(q): ApiQuery<EvalQuery>,
) -> ApiResult<AnalysisView> {
    let arc = state.games.get(&id).await?;
    Ok(Json(state.games.local.evaluate(&arc, q.ply).await?))
}

pub async fn pgn(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
) -> Result<Response, AppError> {
    let arc = state.games.get(&id).await?;
    let text = arc.lock().await.pgn();
    let disposition = format!("attachment; filename=\"tensorchess-{id}.pgn\"");
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "application/x-chess-pgn; charset=utf-8".to_string(),
            ),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        text,
    )
        .into_response())
}

/// Legal moves of any position, optionally after a move: the rules page's
/// mini-boards and the FEN preview.
pub async fn position(ApiJson(req): ApiJson<PositionRequest>) -> ApiResult<PlayedView> {
    let kind = parse_variant(&req.variant)?;
    let fen = req.fen.as_deref();
    let mv = req.mv.as_deref();
    let (played, position) = match kind {
        VariantKind::Tensor => standalone::<Tensor>(fen, mv)?,
        VariantKind::Chess => standalone::<Chess>(fen, mv)?,
        VariantKind::Chessence => standalone::<Chessence>(fen, mv)?,
    };
    Ok(Json(PlayedView { played, position }))
}

/// `POST /api/explain`: whether a move is legal in a position, and if not,
/// why (answered 200 either way: a page asks before it plays).
pub async fn explain(ApiJson(req): ApiJson<ExplainRequest>) -> ApiResult<ExplainView> {
    let kind = parse_variant(&req.variant)?;
    let fen = req.fen.as_deref();
    Ok(Json(match kind {
        VariantKind::Tensor => explain_move::<Tensor>(fen, &req.mv)?,
        VariantKind::Chess => explain_move::<Chess>(fen, &req.mv)?,
        VariantKind::Chessence => explain_move::<Chessence>(fen, &req.mv)?,
    }))
}

pub async fn not_found() -> AppError {
    AppError::NotFound("No such API endpoint".into())
}
