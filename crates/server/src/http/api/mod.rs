//! The JSON API under `/api`. Each handler reads a request type, asks a
//! service, and answers a view or an [`AppError`].
//! Every answer, errors included, is JSON.

mod bot;
mod challenges;
mod chat;
mod explorer;
mod games;
mod health;
mod learning;
mod lichess;
mod lobby;
mod online;
mod players;
mod position;
mod rel;
mod site;
mod tournaments;

use super::ws;
use crate::error::AppError;
use crate::AppState;
use axum::routing::{get, post};
use axum::{Json, Router};

type ApiResult<T> = Result<Json<T>, AppError>;

/// The routes under `/api`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/info", get(position::info))
        .route("/health", get(health::health))
        .route("/site", get(site::site))
        .route("/position", post(position::position))
        .route("/explain", post(position::explain))
        .route("/explorer", get(explorer::explore))
        .route("/games", get(games::list).post(games::create))
        .route("/correspondence", get(games::correspondence))
        .route("/games/{id}", get(games::get).delete(games::delete))
        .route("/games/{id}/moves", post(games::play))
        .route("/games/{id}/takeback", post(games::takeback))
        .route("/games/{id}/resign", post(games::resign))
        .route("/games/{id}/draw", post(games::offer_draw))
        .route("/games/{id}/hint", post(games::hint))
        .route("/games/{id}/eval", get(games::evaluate))
        .route("/games/{id}/pgn", get(games::pgn))
        .route("/games/{id}/join", post(online::join))
        .route("/games/{id}/players", get(online::players))
        .route("/games/{id}/act", post(online::act))
        .route("/online", post(online::create))
        .route("/games/{id}/chat", get(chat::history).post(chat::post))
        .route("/games/{id}/chat/mute", post(chat::mute))
        .route("/chat/{id}/report", post(chat::report))
        .route(
            "/challenges",
            get(challenges::list).post(challenges::create),
        )
        .route(
            "/challenges/{id}",
            axum::routing::delete(challenges::cancel),
        )
        .route(
            "/tournaments",
            get(tournaments::list).post(tournaments::create),
        )
        .route("/tournaments/{id}", get(tournaments::get))
        .route("/tournaments/{id}/join", post(tournaments::join))
        .route("/tournaments/{id}/withdraw", post(tournaments::withdraw))
        .route("/tournaments/{id}/pause", post(tournaments::pause))
        .route("/tournaments/{id}/games", get(tournaments::games))
        .route("/tournaments/{id}/trf", get(tournaments::trf))
        .route("/tournaments/{id}/round/{round}", get(tournaments::round))
        .route(
            "/tournaments/{id}/players/{player}",
            get(tournaments::player_games),
        )
        .route(
            "/tournaments/{id}/chat",
            get(chat::tournament_history).post(chat::tournament_post),
        )
        .route("/games/{id}/berserk", post(tournaments::berserk))
        .route("/games/{id}/tournament", get(tournaments::of_game))
        .route("/challenges/{id}/accept", post(challenges::accept))
        .route("/challenges/{id}/decline", post(challenges::decline))
        .route("/me", get(players::me).patch(players::rename))
        .route("/account/register", post(players::register))
        .route("/account/login", post(players::login))
        .route("/account/logout", post(players::logout))
        .route("/account/password", post(players::change_password))
        .route("/players/{username}", get(players::profile))
        .route("/player/autocomplete", get(players::search))
        .route("/bots", get(players::bots))
        // Follows and preferences (issue 38), lichess's routes.
        .route("/rel/follow/{username}", post(rel::follow))
        .route("/rel/unfollow/{username}", post(rel::unfollow))
        .route("/rel/following", get(rel::following))
        .route(
            "/account/preferences",
            get(rel::preferences).post(rel::set_preferences),
        )
        .route("/seeks", get(lobby::list).post(lobby::create))
        .route("/seeks/{id}", axum::routing::delete(lobby::cancel))
        .route("/seeks/{id}/accept", post(lobby::accept))
        .route("/ws", get(ws::handler))
        // Programs (issue 24): tokens, the Bot and Board APIs, lichess's shapes.
        .route(
            "/account/tokens",
            get(bot::list_tokens).post(bot::create_token),
        )
        .route(
            "/account/tokens/{id}",
            axum::routing::delete(bot::revoke_token),
        )
        .route("/account", get(lichess::account))
        .route("/account/playing", get(lichess::playing))
        .route("/token/test", post(lichess::token_test))
        .route("/users/status", get(lichess::users_status))
        .route("/user/{username}", get(lichess::user))
        .route(
            "/user/{username}/rating-history",
            get(lichess::rating_history),
        )
        .route("/games/user/{username}", get(lichess::user_games))
        .route("/games/export/_ids", post(lichess::games_by_ids))
        .route("/bot/account/upgrade", post(bot::upgrade))
        .route("/stream/event", get(bot::event_stream))
        .route("/bot/online", get(bot::online_bots))
        .route("/bot/game/stream/{id}", get(bot::game_stream))
        .route("/bot/game/{id}/move/{mv}", post(bot::game_move))
        .route("/bot/game/{id}/resign", post(bot::resign))
        .route("/bot/game/{id}/abort", post(bot::abort))
        .route("/bot/game/{id}/claim-victory", post(bot::claim_victory))
        .route("/bot/game/{id}/draw/{accept}", post(bot::draw))
        .route("/bot/game/{id}/chat", get(lichess::chat).post(bot::chat))
        .route("/bot/game/{id}/takeback/{answer}", post(lichess::takeback))
        .route("/board/game/stream/{id}", get(bot::game_stream))
        .route("/board/game/{id}/move/{mv}", post(bot::game_move))
        .route("/board/game/{id}/resign", post(bot::resign))
        .route("/board/game/{id}/abort", post(bot::abort))
        .route("/board/game/{id}/claim-victory", post(bot::claim_victory))
        .route("/board/game/{id}/draw/{accept}", post(bot::draw))
        .route("/board/game/{id}/chat", get(lichess::chat).post(bot::chat))
        .route(
            "/board/game/{id}/takeback/{answer}",
            post(lichess::takeback),
        )
        .route("/challenge/{username}", post(bot::challenge))
        .route("/challenge/{id}/accept", post(bot::accept))
        .route("/challenge/{id}/decline", post(bot::decline))
        .route("/challenge/{id}/cancel", post(bot::cancel))
        // Learning (issue 16): analysis import, reviews, puzzles, lessons.
        .route("/analysis/pgn", post(learning::import_pgn))
        .route(
            "/games/{id}/review",
            get(learning::review_status).post(learning::start_review),
        )
        .route("/puzzles/themes", get(learning::puzzle_themes))
        .route("/puzzles/next", get(learning::next_puzzle))
        .route("/puzzles/{id}", get(learning::puzzle))
        .route("/puzzles/{id}/result", post(learning::puzzle_result))
        .route("/lessons", get(learning::lessons))
        .route("/lessons/{level}/check", post(learning::check_lesson))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
}

/// lichess's routes outside `/api` that its programs call: a game's
/// export (`GET /game/export/{id}`).
pub fn site_routes() -> Router<AppState> {
    Router::new().route("/game/export/{id}", get(lichess::export))
}

async fn not_found() -> AppError {
    AppError::NotFound("No such API endpoint".into())
}

async fn method_not_allowed() -> AppError {
    AppError::MethodNotAllowed("This endpoint does not take that method".into())
}
