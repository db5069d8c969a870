//! Games: the asker's list, new local games, and what every game route
//! does (reading, moves, takebacks, resignation, draw offers, hints,
//! evaluations, PGN, deletion). A local game exists only for the player who
//! made it: anyone else gets 404, as if it did not exist.

use super::ApiResult;
use crate::error::{ApiJson, ApiPath, ApiQuery, AppError};
use crate::kind::Kind;
use crate::players::Me;
use crate::requests::{EvalQuery, GamesQuery, MoveRequest, NewGameRequest, OnlineAction};
use crate::store::GameMode;
use crate::views::{AnalysisView, DrawAnswerView, GameListView, GameView};
use crate::AppState;
use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;

/// Most games in one page of the list.
pub const MAX_PAGE: usize = 100;

/// `GET /api/games`: the asker's games, newest first, a page at a time.
pub async fn list(
    State(state): State<AppState>,
    me: Me,
    ApiQuery(q): ApiQuery<GamesQuery>,
) -> ApiResult<GameListView> {
    let limit = q.limit.unwrap_or(50).clamp(1, MAX_PAGE);
    Ok(Json(
        state.games.list(&me, limit, q.cursor.as_deref()).await?,
    ))
}

/// `POST /api/games`: a game against the engine or on one device.
pub async fn create(
    State(state): State<AppState>,
    me: Me,
    ApiJson(req): ApiJson<NewGameRequest>,
) -> Result<(StatusCode, Json<GameView>), AppError> {
    let view = state.games.local.create(req, &me.requester()).await?;
    Ok((StatusCode::CREATED, Json(view)))
}

/// `GET /api/games/{id}`: the game as the asker sees it.
pub async fn get(
    State(state): State<AppState>,
    me: Me,
    ApiPath(id): ApiPath<String>,
) -> ApiResult<GameView> {
    let arc = state.games.get_for(&id, &me).await?;
    let lg = arc.lock().await;
    Ok(Json(state.games.online.view_for(&lg, &me)))
}

/// `DELETE /api/games/{id}`: deletes a local game (online games are kept).
pub async fn delete(
    State(state): State<AppState>,
    me: Me,
    ApiPath(id): ApiPath<String>,
) -> Result<StatusCode, AppError> {
    let arc = state.games.get_for(&id, &me).await?;
    state.games.local.delete(Some(arc), &id).await?;
    state.learning.reviews.cancel(&id);
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/games/{id}/moves`: a person's move (in an online game, the
/// move of the asker's seat).
pub async fn play(
    State(state): State<AppState>,
    me: Me,
    ApiPath(id): ApiPath<String>,
    ApiJson(req): ApiJson<MoveRequest>,
) -> ApiResult<GameView> {
    let arc = state.games.get_for(&id, &me).await?;
    let mut lg = arc.lock().await;
    if lg.mode() == GameMode::Online {
        let Some(ply) = req.ply else {
            return Err(AppError::bad(
                "A move in an online game must say at which ply it is played (\"ply\")",
            ));
        };
        let action = OnlineAction::Move { mv: req.mv, ply };
        let online = &state.games.online;
        online.act(&arc, &mut lg, &me, action).await?;
        return Ok(Json(online.view_for(&lg, &me)));
    }
    lg.set_engine_client(me.requester().client);
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
        return Err(AppError::refused(Kind::NotAllowed, message));
    }
    Ok(())
}

pub async fn takeback(
    State(state): State<AppState>,
    me: Me,
    ApiPath(id): ApiPath<String>,
) -> ApiResult<GameView> {
    let arc = state.games.get_for(&id, &me).await?;
    let mut lg = arc.lock().await;
    local_only(lg.mode(), "There are no takebacks in online games")?;
    lg.set_engine_client(me.requester().client);
    Ok(Json(state.games.local.takeback(&arc, &mut lg).await?))
}

/// The person resigns (two players on one device: the side to move
/// resigns; online: the asker's seat).
pub async fn resign(
    State(state): State<AppState>,
    me: Me,
    ApiPath(id): ApiPath<String>,
) -> ApiResult<GameView> {
    let arc = state.games.get_for(&id, &me).await?;
    let mut lg = arc.lock().await;
    if lg.mode() == GameMode::Online {
        let online = &state.games.online;
        online.act(&arc, &mut lg, &me, OnlineAction::Resign).await?;
        return Ok(Json(online.view_for(&lg, &me)));
    }
    Ok(Json(state.games.local.resign(&mut lg).await?))
}

pub async fn offer_draw(
    State(state): State<AppState>,
    me: Me,
    ApiPath(id): ApiPath<String>,
) -> ApiResult<DrawAnswerView> {
    let arc = state.games.get_for(&id, &me).await?;
    local_only(
        arc.lock().await.mode(),
        "In an online game, offer a draw with the offer_draw action",
    )?;
    Ok(Json(state.games.local.offer_draw(&arc, &me).await?))
}

pub async fn hint(
    State(state): State<AppState>,
    me: Me,
    ApiPath(id): ApiPath<String>,
) -> ApiResult<AnalysisView> {
    let arc = state.games.get_for(&id, &me).await?;
    Ok(Json(state.games.local.hint(&arc, &me).await?))
}

pub async fn evaluate(
    State(state): State<AppState>,
    me: Me,
    ApiPath(id): ApiPath<String>,
    ApiQuery(q): ApiQuery<EvalQuery>,
) -> ApiResult<AnalysisView> {
    let arc = state.games.get_for(&id, &me).await?;
    Ok(Json(state.games.local.evaluate(&arc, q.ply, &me).await?))
}

pub async fn pgn(
    State(state): State<AppState>,
    me: Me,
    ApiPath(id): ApiPath<String>,
) -> Result<Response, AppError> {
    let arc = state.games.get_for(&id, &me).await?;
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
