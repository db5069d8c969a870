//! Errors answered at the edge: every [`AppError`] becomes a JSON answer
//! with its kind's status (and `Retry-After` where waiting helps), and
//! axum's own rejections of malformed requests become [`AppError`]s.

use crate::error::{reason_args, AppError, Kind};
use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use std::collections::BTreeMap;

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
pub(crate) struct ErrorBody {
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

impl ErrorBody {
    /// The body of a refusal of `kind`, said `error`.
    pub(crate) fn plain(error: &str, kind: Kind) -> ErrorBody {
        ErrorBody {
            error: error.to_string(),
            kind,
            reason: None,
            code: None,
            args: None,
        }
    }
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
        // An id that cannot be one is `IdPath`'s 404, not this.
        AppError::BadRequest(r.body_text())
    }
}

impl From<QueryRejection> for AppError {
    fn from(r: QueryRejection) -> Self {
        AppError::BadRequest(r.body_text())
    }
}
