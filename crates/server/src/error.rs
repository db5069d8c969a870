//! One error type for every handler, answered as JSON:
//! `{"error": "message for people", "kind": "illegal_move", "reason": "..."}`.

pub use super::kind::Kind;
use super::store::StoreError;
use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;
use serde::Serialize;
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

/// Overload warnings are logged at most this often.
const OVERLOAD_LOG_EVERY_MS: u64 = 10_000;

/// Logs an overload answer as a warning, at most once every
/// [`OVERLOAD_LOG_EVERY_MS`], saying how many were not logged since.
fn warn_overloaded(e: &AppError) {
    use std::sync::atomic::{AtomicU64, Ordering};
    static LAST_MS: AtomicU64 = AtomicU64::new(0);
    static QUIET: AtomicU64 = AtomicU64::new(0);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64);
    let last = LAST_MS.load(Ordering::Relaxed);
    if now.saturating_sub(last) >= OVERLOAD_LOG_EVERY_MS
        && LAST_MS
            .compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed)
            .is_ok()
    {
        let quiet = QUIET.swap(0, Ordering::Relaxed);
        tracing::warn!("{e} ({quiet} more like it since the last warning)");
    } else {
        QUIET.fetch_add(1, Ordering::Relaxed);
    }
}

/// The JSON body of an error answer.
#[derive(Serialize, Debug)]
struct ErrorBody {
    /// What went wrong, as a sentence for people.
    error: String,
    /// Why, in a word.
    kind: Kind,
    /// For illegal moves: why, as a sentence for the player.
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
    /// For illegal moves: the reason in a word, and its details (for
    /// translations: see [`IllegalReason::code`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    code: Option<&'static str>,
    /// The reason's details by name (squares, roles, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    args: Option<BTreeMap<&'static str, String>>,
}

/// The details of an illegal move's reason, by name.
pub fn reason_args(reason: &IllegalReason) -> BTreeMap<&'static str, String> {
    reason.args().into_iter().collect()
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let status = self.status();
        match &self {
            // Overload is the server protecting itself, not a fault: a
            // warning, at most one every few seconds however many there are.
            AppError::Overloaded { .. } | AppError::Unavailable(_) => warn_overloaded(&self),
            _ if status.is_server_error() => tracing::error!("{self}"),
            _ => {}
        }
        let illegal = match &self {
            AppError::IllegalMove { reason, .. } => Some(reason),
            _ => None,
        };
        let retry_after = match &self {
            AppError::TooManyRequests { retry_ms } | AppError::Overloaded { retry_ms } => {
                Some(retry_ms.div_ceil(1000).to_string())
            }
            AppError::Refused {
                kind: Kind::EngineBusy,
                ..
            } => Some("2".to_string()),
            _ => None,
        };
        let body = ErrorBody {
            error: self.to_string(),
            kind: self.kind(),
            reason: illegal.map(|r| r.to_string()),
            code: illegal.map(|r| r.code()),
            args: illegal.map(reason_args),
        };
        let mut response = (status, axum::Json(body)).into_response();
        if let Some(seconds) = retry_after.and_then(|s| s.parse().ok()) {
            response
                .headers_mut()
                .insert(axum::http::header::RETRY_AFTER, seconds);
        }
        response
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

impl From<JsonRejection> for AppError {
    fn from(r: JsonRejection) -> Self {
        match r {
            JsonRejection::JsonDataError(e) => {
                AppError::BadRequest(format!("Invalid request: {}", e.body_text()))
            }
            JsonRejection::JsonSyntaxError(e) => {
                AppError::BadRequest(format!("Malformed JSON: {}", e.body_text()))
            }
            JsonRejection::MissingJsonContentType(_) => AppError::UnsupportedMediaType(
                "Expected a JSON body with Content-Type: application/json".into(),
            ),
            JsonRejection::BytesRejection(e) => {
                if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
                    AppError::TooLarge("The request body is too large".into())
                } else {
                    AppError::BadRequest(format!("Could not read the request body: {e}"))
                }
            }
            other => AppError::BadRequest(other.body_text()),
        }
    }
}

impl From<PathRejection> for AppError {
    fn from(r: PathRejection) -> Self {
        use axum::extract::path::ErrorKind;
        // A path's game id that cannot be one names no game, as an unknown id.
        if let PathRejection::FailedToDeserializePathParams(e) = &r {
            if let ErrorKind::Message(m) = e.kind() {
                if m.contains(crate::ids::NOT_A_GAME_ID) {
                    return AppError::NotFound("There is no such game".into());
                }
            }
        }
        AppError::BadRequest(r.body_text())
    }
}

impl From<QueryRejection> for AppError {
    fn from(r: QueryRejection) -> Self {
        AppError::BadRequest(r.body_text())
    }
}

/// `axum::Json` whose rejections are [`AppError`]s (JSON bodies, never plain text).
pub struct ApiJson<T>(pub T);

impl<T, S> FromRequest<S> for ApiJson<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = AppError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let axum::Json(v) = axum::Json::<T>::from_request(req, state).await?;
        Ok(ApiJson(v))
    }
}

/// `axum::extract::Query` with [`AppError`] rejections.
pub struct ApiQuery<T>(pub T);

impl<T, S> FromRequestParts<S> for ApiQuery<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let axum::extract::Query(v) =
            axum::extract::Query::<T>::from_request_parts(parts, state).await?;
        Ok(ApiQuery(v))
    }
}

/// `axum::extract::Path` with [`AppError`] rejections.
pub struct ApiPath<T>(pub T);

impl<T, S> FromRequestParts<S> for ApiPath<T>
where
    T: DeserializeOwned + Send,
    S: Send + Sync,
{
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let axum::extract::Path(v) =
            axum::extract::Path::<T>::from_request_parts(parts, state).await?;
        Ok(ApiPath(v))
    }
}
