//! Games: the asker's list, new local games, and what every game route
//! does (reading, moves, takebacks, resignation, draw offers, hints,
//! evaluations, PGN, deletion). A local game exists only for the player who
//! made it: anyone else gets 404, as if it did not exist.

use super::ApiResult;
use crate::error::AppError;
use crate::http::extract::{ApiJson, ApiQuery, IdPath};
use crate::http::views::games::{CorrespondenceView, GameListView};
use crate::identity::Me;
use crate::ids::GameId;
use crate::requests::{EvalQuery, GamesQuery, MoveRequest, NewGameRequest};
use crate::round::command::Command;
use crate::views::{AnalysisView, DrawAnswerView, GameView};
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
    let page = state.games.list(&me, limit, q.cursor.as_deref()).await?;
    Ok(Json(GameListView::of_player(page, me.id.as_str())))
}

/// `GET /api/correspondence`: the asker's correspondence games in
/// progress, with how many wait for their move.
pub async fn correspondence(
    State(state): State<AppState>,
    me: Me,
) -> ApiResult<CorrespondenceView> {
    Ok(Json(state.games.correspondence(&me).await?.into()))
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
    IdPath(id): IdPath<GameId>,
) -> ApiResult<GameView> {
    let (_, lg) = state.games.lock_for(&id, &me).await?;
    Ok(Json(state.games.online.view_for(&lg, &me)))
}

/// `DELETE /api/games/{id}`: deletes a local game (online games are kept).
pub async fn delete(
    State(state): State<AppState>,
    me: Me,
    IdPath(id): IdPath<GameId>,
) -> Result<StatusCode, AppError> {
    state.games.act(&id, &me, Command::Delete).await?;
    state.learning.reviews.cancel(&id);
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/games/{id}/moves`: a person's move (in an online game, the
/// move of the asker's seat).
pub async fn play(
    State(state): State<AppState>,
    me: Me,
    IdPath(id): IdPath<GameId>,
    ApiJson(req): ApiJson<MoveRequest>,
) -> ApiResult<GameView> {
    let command = Command::Move {
        mv: req.mv,
        ply: req.ply,
    };
    Ok(Json(state.games.act_view(&id, &me, command).await?))
}

/// `POST /api/games/{id}/takeback`: takes back the last move of a local
/// game (against the engine, the engine's answer too).
pub async fn takeback(
    State(state): State<AppState>,
    me: Me,
    IdPath(id): IdPath<GameId>,
) -> ApiResult<GameView> {
    Ok(Json(
        state.games.act_view(&id, &me, Command::Takeback).await?,
    ))
}

/// `POST /api/games/{id}/resign`: the person resigns (two players on one
/// device: the side to move resigns; online: the asker's seat).
pub async fn resign(
    State(state): State<AppState>,
    me: Me,
    IdPath(id): IdPath<GameId>,
) -> ApiResult<GameView> {
    Ok(Json(state.games.act_view(&id, &me, Command::Resign).await?))
}

/// `POST /api/games/{id}/draw`: a draw offer in a local game (the engine
/// answers by its evaluation; on one device it is agreed).
pub async fn offer_draw(
    State(state): State<AppState>,
    me: Me,
    IdPath(id): IdPath<GameId>,
) -> ApiResult<DrawAnswerView> {
    Ok(Json(state.games.offer_local_draw(&id, &me).await?))
}

/// `POST /api/games/{id}/hint`: the engine's suggestion for the person's move.
pub async fn hint(
    State(state): State<AppState>,
    me: Me,
    IdPath(id): IdPath<GameId>,
) -> ApiResult<AnalysisView> {
    let arc = state.games.get_for(&id, &me).await?;
    Ok(Json(state.games.local.hint(&arc, &me).await?))
}

/// `GET /api/games/{id}/eval`: the engine's evaluation of a position of the game.
pub async fn evaluate(
    State(state): State<AppState>,
    me: Me,
    IdPath(id): IdPath<GameId>,
    ApiQuery(q): ApiQuery<EvalQuery>,
) -> ApiResult<AnalysisView> {
    let arc = state.games.get_for(&id, &me).await?;
    Ok(Json(state.games.local.evaluate(&arc, q.ply, &me).await?))
}

/// `GET /api/games/{id}/pgn`: the game as a PGN file.
pub async fn pgn(
    State(state): State<AppState>,
    me: Me,
    IdPath(id): IdPath<GameId>,
) -> Result<Response, AppError> {
    let text = state.games.lock_for(&id, &me).await?.1.pgn();
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
