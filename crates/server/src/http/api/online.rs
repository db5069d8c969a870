//! Online games: creating one to play a friend by link, taking its free
//! seat, and the players' actions.

use super::ApiResult;
use crate::error::AppError;
use crate::http::extract::{ApiJson, IdPath};
use crate::identity::Me;
use crate::ids::GameId;
use crate::kind::Kind;
use crate::requests::{JoinRequest, NewOnlineRequest, OnlineAction};
use crate::round::command::Command;
use crate::views::GameView;
use crate::views::{GamePlayersView, PlayerView};
use crate::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use tensorchess_rules::Color;

/// `POST /api/online`: a game against a friend, who joins by its link.
pub async fn create(
    State(state): State<AppState>,
    me: Me,
    ApiJson(req): ApiJson<NewOnlineRequest>,
) -> Result<(StatusCode, Json<GameView>), AppError> {
    let name = state.players.name_of(&me.id).await?;
    let view = state.games.online.create(req, &me, name).await?;
    Ok((StatusCode::CREATED, Json(view)))
}

/// `GET /api/games/{id}/players`: an online game's players and their
/// accounts (the page's profile links and challenges).
pub async fn players(
    State(state): State<AppState>,
    me: Me,
    IdPath(id): IdPath<GameId>,
) -> ApiResult<GamePlayersView> {
    let seats = {
        let (_, lg) = state.games.lock_for(&id, &me).await?;
        let Some(o) = lg.online() else {
            return Err(AppError::refused(
                Kind::NotOnline,
                "Only online games have players to name",
            ));
        };
        [Color::White, Color::Black].map(|c| o.player(c).map(str::to_string))
    };
    let mut out = [None, None];
    for (slot, player) in out.iter_mut().zip(seats) {
        if let Some(p) = player {
            let record = state.players.record(&p).await?;
            *slot = Some(PlayerView {
                title: state.bots.title(&p).await?,
                id: record.id,
                name: record.name,
                account: record.account,
            });
        }
    }
    let [white, black] = out;
    Ok(Json(GamePlayersView { white, black }))
}

/// `POST /api/games/{id}/join`: takes the free seat of an online game.
pub async fn join(
    State(state): State<AppState>,
    me: Me,
    IdPath(id): IdPath<GameId>,
    ApiJson(JoinRequest {}): ApiJson<JoinRequest>,
) -> ApiResult<GameView> {
    let name = state.players.name_of(&me.id).await?;
    let command = Command::Join { name };
    Ok(Json(state.games.act_view(&id, &me, command).await?))
}

/// `POST /api/games/{id}/act`: a player's action in an online game; the
/// answer is the game as that player sees it.
pub async fn act(
    State(state): State<AppState>,
    me: Me,
    IdPath(id): IdPath<GameId>,
    ApiJson(action): ApiJson<OnlineAction>,
) -> ApiResult<GameView> {
    let (acted, lg) = state.games.act_online(&id, &me, action).await?;
    let view = state.games.online.view_for(&lg, &me);
    drop(lg);
    if acted.event == Some(crate::round::live::GameEvent::Berserk) {
        // The arena's pages mark the berserker.
        state.tournaments.berserked(&id).await?;
    }
    Ok(Json(view))
}
