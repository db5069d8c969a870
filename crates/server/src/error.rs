//! One error type for every service and handler. Each error has a
//! [`Kind`] (its word on the wire and its HTTP status); the edge answers it
//! as JSON (`http::error`):
//! `{"error": "message for people", "kind": "illegal_move", "reason": "..."}`.

pub use super::kind::Kind;
use super::store::StoreError;
use axum::http::StatusCode;
use std::collections::BTreeMap;
use tensorchess_rules::IllegalReason;

/// What went wrong, and the status it is answered with.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// Malformed input: JSON, FEN, PGN, a move that is not a move string.
    #[error("{0}")]
    BadRequest(String),
    /// Wrong credentials.
    #[error("{0}")]
    Unauthorized(String),
    /// No such game, player, seek, puzzle or route.
    #[error("{0}")]
    NotFound(String),
    /// A route that does not take this method.
    #[error("{0}")]
    MethodNotAllowed(String),
    /// A `Host` this server does not serve.
    #[error("{0}")]
    MisdirectedHost(String),
    /// The request does not fit the game's state (not your turn, game over, stale).
    #[error("{0}")]
    Conflict(String),
    /// Another server changed the game first; this server has read it
    /// again, so the request may be tried once more. Answered as a
    /// [`AppError::Conflict`].
    #[error("{0}")]
    StaleGame(String),
    /// A well-formed move the rules forbid, with the reason for the player.
    #[error("Illegal move {text}: {reason}")]
    IllegalMove {
        /// The move as the player sent it.
        text: String,
        /// Why the rules forbid it.
        reason: IllegalReason,
    },
    /// An action the player's seat, account or the game's state does not
    /// allow; `kind` names the reason ([`Kind::NotAPlayer`],
    /// [`Kind::NotYourTurn`], [`Kind::Stale`], [`Kind::GameOver`], ...).
    #[error("{message}")]
    Refused {
        /// Why, in a word.
        kind: Kind,
        /// Why, as a sentence for the player.
        message: String,
    },
    /// A request, PGN or game larger than the server takes.
    #[error("{0}")]
    TooLarge(String),
    /// The request's body did not arrive in time.
    #[error("{0}")]
    Timeout(String),
    /// A body that is not `application/json`.
    #[error("{0}")]
    UnsupportedMediaType(String),
    /// Too many requests from one client; it may try again after `retry_ms`.
    #[error("Too many requests: try again in {} s", retry_ms.div_ceil(1000))]
    TooManyRequests {
        /// Milliseconds until the client's next request is allowed.
        retry_ms: u64,
    },
    /// The server is shutting down.
    #[error("{0}")]
    Unavailable(String),
    /// The server has too much to do: try again after `retry_ms`.
    #[error("The server is busy: try again in {} s", retry_ms.div_ceil(1000))]
    Overloaded {
        /// Milliseconds after which trying again makes sense.
        retry_ms: u64,
    },
    /// A bug or a storage failure; the message is logged too.
    #[error("internal error: {0}")]
    Internal(String),
}

impl AppError {
    /// A [`AppError::BadRequest`] with this message.
    pub fn bad(msg: impl Into<String>) -> AppError {
        AppError::BadRequest(msg.into())
    }

    /// A refusal of a kind, with a sentence for people.
    pub fn refused(kind: Kind, message: impl Into<String>) -> AppError {
        AppError::Refused {
            kind,
            message: message.into(),
        }
    }

    /// The status the error is answered with (its kind's).
    pub fn status(&self) -> StatusCode {
        self.kind().status()
    }

    /// Why, in a word: the answer's `kind`.
    pub fn kind(&self) -> Kind {
        match self {
            AppError::BadRequest(_) => Kind::BadRequest,
            AppError::Unauthorized(_) => Kind::Unauthorized,
            AppError::NotFound(_) => Kind::NotFound,
            AppError::MethodNotAllowed(_) => Kind::MethodNotAllowed,
            AppError::MisdirectedHost(_) => Kind::MisdirectedHost,
            AppError::Conflict(_) | AppError::StaleGame(_) => Kind::Conflict,
            AppError::IllegalMove { .. } => Kind::IllegalMove,
            AppError::Refused { kind, .. } => *kind,
            AppError::TooLarge(_) => Kind::TooLarge,
            AppError::Timeout(_) => Kind::Timeout,
            AppError::UnsupportedMediaType(_) => Kind::UnsupportedMediaType,
            AppError::TooManyRequests { .. } => Kind::RateLimited,
            AppError::Unavailable(_) => Kind::Unavailable,
            AppError::Overloaded { .. } => Kind::Overloaded,
            AppError::Internal(_) => Kind::Internal,
        }
    }
}

impl From<StoreError> for AppError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::Conflict(m) => AppError::Conflict(m),
            other => AppError::Internal(other.to_string()),
        }
    }
}

/// The details of an illegal move's reason, by name.
pub fn reason_args(reason: &IllegalReason) -> BTreeMap<&'static str, String> {
    reason.args().into_iter().collect()
}
