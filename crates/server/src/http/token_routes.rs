//! What a personal API token may reach, in one table (lichess's model): the
//! routes for programs, each with the scopes it needs, and reads of public
//! data. Every other route is the site's own and takes the session cookie
//! of a logged-in page, never a token: a leaked token with `challenge:write`
//! makes challenges, it does not resign games, chat, rename or join
//! tournaments. The handlers check the same scopes again; this table is the
//! gate that nothing new slips past.

use crate::error::AppError;
use crate::kind::Kind;
use crate::tokens::{TokenAuth, BOARD_PLAY, BOT_PLAY, CHALLENGE_WRITE};
use axum::http::Method;

/// What a token needs for a route it may reach.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenRoute {
    /// Any token: public data, or the token's own account.
    AnyScope,
    /// A token with one of these scopes.
    OneOf(&'static [&'static str]),
}

/// The scopes that let a program play and follow its challenges.
const PLAYS: &[&str] = &[BOT_PLAY, BOARD_PLAY, CHALLENGE_WRITE];

/// The route `method path` as a token may reach it (`path` with its
/// `/api` prefix), or `None` when it is the site's own.
pub fn token_route(method: &Method, path: &str) -> Option<TokenRoute> {
    let segments: Vec<&str> = path.trim_end_matches('/').split('/').skip(1).collect();
    let read = matches!(*method, Method::GET | Method::HEAD);
    match segments.as_slice() {
        // The Bot and Board APIs: the handlers also check the account.
        ["api", "bot", "account", "upgrade"] if *method == Method::POST => {
            Some(TokenRoute::OneOf(&[BOT_PLAY]))
        }
        ["api", "bot", "online"] if read => Some(TokenRoute::AnyScope),
        ["api", "bot", "game", ..] => Some(TokenRoute::OneOf(&[BOT_PLAY])),
        ["api", "board", "game", ..] => Some(TokenRoute::OneOf(&[BOARD_PLAY])),
        ["api", "challenge", _] | ["api", "challenge", _, _] if *method == Method::POST => {
            Some(TokenRoute::OneOf(PLAYS))
        }
        ["api", "stream", "event"] if read => Some(TokenRoute::OneOf(PLAYS)),
        // The token's account, and what anyone may read.
        ["api", "account"] | ["api", "account", "playing"] if read => Some(TokenRoute::AnyScope),
        ["api", "token", "test"] if *method == Method::POST => Some(TokenRoute::AnyScope),
        ["api", "games", "user", _] if read => Some(TokenRoute::AnyScope),
        ["api", "games", "export", "_ids"] if *method == Method::POST => Some(TokenRoute::AnyScope),
        ["api", "users", "status"] if read => Some(TokenRoute::AnyScope),
        ["api", "user", _] | ["api", "user", _, "rating-history"] if read => {
            Some(TokenRoute::AnyScope)
        }
        ["api", "info" | "health"] if read => Some(TokenRoute::AnyScope),
        ["api", "explorer"] if read => Some(TokenRoute::AnyScope),
        ["api", "players", _] | ["api", "bots"] if read => Some(TokenRoute::AnyScope),
        ["api", "games", _] | ["api", "games", _, "pgn" | "players" | "tournament"] if read => {
            Some(TokenRoute::AnyScope)
        }
        ["api", "tournaments"] | ["api", "tournaments", _] if read => Some(TokenRoute::AnyScope),
        ["api", "tournaments", _, "games" | "trf"] if read => Some(TokenRoute::AnyScope),
        ["api", "tournaments", _, "round" | "players", _] if read => Some(TokenRoute::AnyScope),
        // The page's own files.
        [first, ..] if read && *first != "api" => Some(TokenRoute::AnyScope),
        _ => None,
    }
}

/// Refuses a token on a route it may not reach, or without the scope the
/// route needs (403, `missing_scope`).
pub fn check(auth: &TokenAuth, method: &Method, path: &str) -> Result<(), AppError> {
    match token_route(method, path) {
        Some(TokenRoute::AnyScope) => Ok(()),
        Some(TokenRoute::OneOf(scopes)) => auth.require_any(scopes),
        None => Err(AppError::refused(
            Kind::MissingScope,
            "A personal API token reaches only the routes for programs (the Bot, Board and challenge APIs, and public reads); this route takes the session of a logged-in page",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn route(method: Method, path: &str) -> Option<TokenRoute> {
        token_route(&method, path)
    }

    #[test]
    fn the_programs_routes_need_their_scopes() {
        assert_eq!(
            route(Method::POST, "/api/bot/game/abc/move/e2e4"),
            Some(TokenRoute::OneOf(&[BOT_PLAY]))
        );
        assert_eq!(
            route(Method::GET, "/api/board/game/stream/abc"),
            Some(TokenRoute::OneOf(&[BOARD_PLAY]))
        );
        assert_eq!(
            route(Method::POST, "/api/challenge/alice"),
            Some(TokenRoute::OneOf(PLAYS))
        );
        assert_eq!(
            route(Method::POST, "/api/challenge/abc/accept"),
            Some(TokenRoute::OneOf(PLAYS))
        );
        assert_eq!(
            route(Method::GET, "/api/stream/event"),
            Some(TokenRoute::OneOf(PLAYS))
        );
        assert_eq!(
            route(Method::GET, "/api/account"),
            Some(TokenRoute::AnyScope)
        );
        // A tournament's public reads.
        for path in [
            "/api/tournaments/abc/round/2",
            "/api/tournaments/abc/players/p1",
        ] {
            assert_eq!(route(Method::GET, path), Some(TokenRoute::AnyScope));
        }
    }

    #[test]
    fn the_sites_own_routes_are_closed_to_tokens() {
        for (method, path) in [
            (Method::POST, "/api/games/abc/act"),
            (Method::POST, "/api/games/abc/chat"),
            (Method::GET, "/api/games/abc/chat"),
            (Method::PATCH, "/api/me"),
            (Method::GET, "/api/me"),
            (Method::POST, "/api/seeks"),
            (Method::POST, "/api/tournaments"),
            (Method::POST, "/api/tournaments/abc/join"),
            (Method::GET, "/api/tournaments/abc/chat"),
            (Method::POST, "/api/tournaments/abc/chat"),
            (Method::POST, "/api/games"),
            (Method::POST, "/api/online"),
            (Method::DELETE, "/api/games/abc"),
            (Method::POST, "/api/challenges"),
            (Method::GET, "/api/ws"),
            (Method::GET, "/api/account/tokens"),
            (Method::POST, "/api/account/tokens"),
            (Method::POST, "/api/account/password"),
            (Method::POST, "/api/account/logout"),
            (Method::POST, "/api/position"),
            (Method::GET, "/api/challenge/abc"),
            (Method::POST, "/api/challenge"),
            (Method::POST, "/anything"),
        ] {
            assert_eq!(token_route(&method, path), None, "{method} {path}");
        }
    }
}
