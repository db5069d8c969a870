//! Why a request was refused, in a word: the `kind` of every error answer
//! (`{"error", "kind"}`, and a WebSocket `refused`), which is also the key
//! of the page's message for it (`error.<kind>` in both of its catalogues,
//! so that a Ukrainian player reads Ukrainian). Each kind knows its HTTP
//! status.

use axum::http::StatusCode;
use serde::Serialize;

macro_rules! kinds {
    ($($(#[$doc:meta])* $name:ident = $key:literal => $status:ident,)*) => {
        /// Why a request was refused (see the module).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, ts_rs::TS)]
        pub enum Kind {
            $($(#[$doc])* #[serde(rename = $key)] $name,)*
        }

        impl Kind {
            /// Every kind, for the test that finds each in the catalogues.
            pub const ALL: &'static [Kind] = &[$(Kind::$name,)*];

            /// The kind's word (`kind` in answers, `error.<word>` in the
            /// page's catalogues).
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Kind::$name => $key,)*
                }
            }

            /// The HTTP status a refusal of this kind is answered with.
            pub fn status(self) -> StatusCode {
                match self {
                    $(Kind::$name => StatusCode::$status,)*
                }
            }
        }
    };
}

kinds! {
    /// Malformed input: JSON, FEN, PGN, a move that is not a move string.
    BadRequest = "bad_request" => BAD_REQUEST,
    /// A wrong user name or password.
    Unauthorized = "unauthorized" => UNAUTHORIZED,
    /// No such thing (or not one the asker may see).
    NotFound = "not_found" => NOT_FOUND,
    /// The route does not take that method.
    MethodNotAllowed = "method_not_allowed" => METHOD_NOT_ALLOWED,
    /// A `Host` this server does not serve.
    MisdirectedHost = "misdirected_host" => MISDIRECTED_REQUEST,
    /// The request does not fit the state (the game moved on, a name taken).
    Conflict = "conflict" => CONFLICT,
    /// A well-formed move the rules forbid.
    IllegalMove = "illegal_move" => UNPROCESSABLE_ENTITY,
    /// The body is too large.
    TooLarge = "too_large" => PAYLOAD_TOO_LARGE,
    /// The body did not arrive in time.
    Timeout = "timeout" => REQUEST_TIMEOUT,
    /// Not JSON (or not said to be).
    UnsupportedMediaType = "unsupported_media_type" => UNSUPPORTED_MEDIA_TYPE,
    /// Too many requests from this client: wait `Retry-After`.
    RateLimited = "rate_limited" => TOO_MANY_REQUESTS,
    /// The server is stopping.
    Unavailable = "unavailable" => SERVICE_UNAVAILABLE,
    /// The server has too much to do: wait `Retry-After`.
    Overloaded = "overloaded" => SERVICE_UNAVAILABLE,
    /// A bug of the server's.
    Internal = "internal" => INTERNAL_SERVER_ERROR,
    /// The asker holds no seat in this game.
    NotAPlayer = "not_a_player" => FORBIDDEN,
    /// It is the other side's move.
    NotYourTurn = "not_your_turn" => CONFLICT,
    /// The move was for an earlier ply: the page is behind.
    Stale = "stale" => CONFLICT,
    /// The game is over.
    GameOver = "game_over" => CONFLICT,
    /// The other seat is still free.
    Waiting = "waiting" => CONFLICT,
    /// The same offer is already made.
    AlreadyOffered = "already_offered" => CONFLICT,
    /// An offer again before a move was played.
    TooSoon = "too_soon" => CONFLICT,
    /// There is no offer to answer.
    NoOffer = "no_offer" => CONFLICT,
    /// Both sides have moved: no abort any more.
    TooLate = "too_late" => CONFLICT,
    /// The opponent has not been gone long enough to claim the win.
    TooEarly = "too_early" => CONFLICT,
    /// The game is not over (a rematch asked too early).
    NotOver = "not_over" => CONFLICT,
    /// Both seats are taken.
    SeatsTaken = "seats_taken" => CONFLICT,
    /// The game is not played online.
    NotOnline = "not_online" => CONFLICT,
    /// Not in this kind of game (no takeback online, no engine help online).
    NotAllowed = "not_allowed" => CONFLICT,
    /// A game chat's room that is not the asker's to read or write in
    /// (a spectator in the players' room, a player in the spectators'
    /// while the game runs).
    NotYourRoom = "not_your_room" => FORBIDDEN,
    /// Rated play, and other things kept for accounts.
    AccountNeeded = "account_needed" => CONFLICT,
    /// The player (or their address) has as many open seeks as allowed.
    TooManySeeks = "too_many_seeks" => CONFLICT,
    /// The lobby holds as many seeks as it takes.
    LobbyFull = "lobby_full" => CONFLICT,
    /// The user name is taken.
    NameTaken = "name_taken" => CONFLICT,
    /// The operator banned this player.
    Banned = "banned" => FORBIDDEN,
    /// The account is closed.
    AccountClosed = "account_closed" => FORBIDDEN,
    /// A request that changes something from another site's page.
    ForbiddenOrigin = "forbidden_origin" => FORBIDDEN,
    /// The engine is still answering this player's other games.
    EngineBusy = "engine_busy" => TOO_MANY_REQUESTS,
    /// The game's review is running already.
    ReviewRunning = "review_running" => CONFLICT,
    /// Too many analyses of this player at once.
    TooMany = "too_many" => TOO_MANY_REQUESTS,
    /// The operator muted this player's chat.
    Muted = "muted" => FORBIDDEN,
    /// The API token lacks the scope the route needs.
    MissingScope = "missing_scope" => FORBIDDEN,
    /// Bot accounts play through challenges (not the lobby, not as a
    /// person); a bot route asked by an account that is not a bot.
    BotAccount = "bot_account" => FORBIDDEN,
    /// Something is still open that must be closed first (a bot upgrade
    /// with an open seek, challenge or tournament entry).
    StillOpen = "still_open" => CONFLICT,
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kind has the page's message, in English and in Ukrainian.
    #[test]
    fn every_kind_is_in_both_catalogues() {
        let (en, uk) = (crate::catalogues::EN, crate::catalogues::UK);
        for kind in Kind::ALL {
            let key = format!("'error.{}'", kind.as_str());
            assert!(en.contains(&key), "{key} is missing from en.js");
            assert!(uk.contains(&key), "{key} is missing from uk.js");
        }
        let words: std::collections::HashSet<_> = Kind::ALL.iter().map(|k| k.as_str()).collect();
        assert_eq!(words.len(), Kind::ALL.len(), "each word once");
        assert_eq!(
            serde_json::to_string(&Kind::NotYourTurn).unwrap(),
            "\"not_your_turn\""
        );
        assert_eq!(Kind::Banned.status(), StatusCode::FORBIDDEN);
    }
}
