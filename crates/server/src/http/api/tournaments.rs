//! Tournaments over HTTP; their news also arrives on the WebSocket topic
//! `tournament:{id}`.

use super::ApiResult;
use crate::error::AppError;
use crate::http::extract::{ApiJson, IdPath};
use crate::http::views::tournaments::TournamentsView;
use crate::identity::Me;
use crate::ids::{GameId, TournamentId};
use crate::round::command::Command;
use crate::tournaments::views::{PlayerGamesView, RoundView};
use crate::tournaments::{CreateTournamentRequest, GameTournamentView, TournamentView};
use crate::views::GameView;
use crate::AppState;
use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;

/// `POST /api/tournaments`: makes a tournament (201).
pub async fn create(
    State(state): State<AppState>,
    me: Me,
    ApiJson(req): ApiJson<CreateTournamentRequest>,
) -> Result<(StatusCode, Json<TournamentView>), AppError> {
    let view = state.tournaments.create(&me, req).await?;
    Ok((StatusCode::CREATED, Json(view)))
}

/// `GET /api/tournaments`: upcoming, running and finished ones.
pub async fn list(State(state): State<AppState>) -> ApiResult<TournamentsView> {
    let lists = state.tournaments.list().await?;
    Ok(Json(TournamentsView::of(
        lists,
        state.tournaments.schedule(),
    )))
}

/// `GET /api/tournaments/{id}`: settings, standings, pairings.
pub async fn get(
    State(state): State<AppState>,
    me: Me,
    IdPath(id): IdPath<TournamentId>,
) -> ApiResult<TournamentView> {
    Ok(Json(state.tournaments.get(&id, &me).await?))
}

/// `POST /api/tournaments/{id}/join` (also: back from a pause).
pub async fn join(
    State(state): State<AppState>,
    me: Me,
    IdPath(id): IdPath<TournamentId>,
) -> ApiResult<TournamentView> {
    Ok(Json(state.tournaments.join(&id, &me).await?))
}

/// `POST /api/tournaments/{id}/withdraw`.
pub async fn withdraw(
    State(state): State<AppState>,
    me: Me,
    IdPath(id): IdPath<TournamentId>,
) -> ApiResult<TournamentView> {
    Ok(Json(state.tournaments.withdraw(&id, &me).await?))
}

/// `POST /api/tournaments/{id}/pause`.
pub async fn pause(
    State(state): State<AppState>,
    me: Me,
    IdPath(id): IdPath<TournamentId>,
) -> ApiResult<TournamentView> {
    Ok(Json(state.tournaments.pause(&id, &me).await?))
}

/// `POST /api/games/{id}/berserk`: half one's time, no increment, before
/// one's first move in an arena game.
pub async fn berserk(
    State(state): State<AppState>,
    me: Me,
    IdPath(id): IdPath<GameId>,
) -> ApiResult<GameView> {
    let view = state.games.act_view(&id, &me, Command::Berserk).await?;
    state.tournaments.berserked(&id).await?;
    Ok(Json(view))
}

/// `GET /api/games/{id}/tournament`: the tournament the game was paired
/// in (`null` for any other game).
pub async fn of_game(
    State(state): State<AppState>,
    IdPath(id): IdPath<GameId>,
) -> ApiResult<Option<GameTournamentView>> {
    Ok(Json(state.tournaments.of_game(&id).await?))
}

/// `GET /api/tournaments/{id}/games`: every game as PGN.
pub async fn games(
    State(state): State<AppState>,
    IdPath(id): IdPath<TournamentId>,
) -> Result<Response, AppError> {
    let text = state.tournaments.pgn(&id).await?;
    Ok(attachment(
        text,
        "application/x-chess-pgn; charset=utf-8",
        &format!("tensorchess-tournament-{id}.pgn"),
    ))
}

/// `GET /api/tournaments/{id}/round/{round}`: a round's games and byes
/// (a Swiss, a round robin).
pub async fn round(
    State(state): State<AppState>,
    IdPath((id, round)): IdPath<(TournamentId, u32)>,
) -> ApiResult<RoundView> {
    Ok(Json(state.tournaments.round(&id, round).await?))
}

/// `GET /api/tournaments/{id}/players/{player}`: a player's games in the
/// tournament (`player`: their id, as the standings give it).
pub async fn player_games(
    State(state): State<AppState>,
    IdPath((id, player)): IdPath<(TournamentId, String)>,
) -> ApiResult<PlayerGamesView> {
    Ok(Json(state.tournaments.player_games(&id, &player).await?))
}

/// `GET /api/tournaments/{id}/trf`: a Swiss's FIDE report file.
pub async fn trf(
    State(state): State<AppState>,
    IdPath(id): IdPath<TournamentId>,
) -> Result<Response, AppError> {
    let text = state.tournaments.trf(&id).await?;
    Ok(attachment(
        text,
        "text/plain; charset=utf-8",
        &format!("tensorchess-tournament-{id}.trf"),
    ))
}

fn attachment(text: String, mime: &str, name: &str) -> Response {
    (
        [
            (header::CONTENT_TYPE, mime.to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ),
        ],
        text,
    )
        .into_response()
}
