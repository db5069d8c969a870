//! The web edge: the routes, the extractors that read requests, the
//! middleware that works out who is asking and holds the limits, the
//! WebSocket, the page's files, and the mapping of errors to answers.
//! Handlers here read a typed request, ask a service, and answer its view
//! or its [`AppError`]; the services know nothing of HTTP.

pub mod api;
pub(crate) mod assets;
pub mod cookies;
pub mod docs;
pub mod error;
pub mod extract;
pub mod guard;
pub mod held;
pub mod identity;
pub mod limits;
pub mod listener;
pub mod ndjson;
pub mod token_routes;
// `build.rs` includes this file too, so it has no inner doc comment.
pub(crate) mod fnv;
pub(crate) mod mime;
pub(crate) mod subscriptions;
pub mod views;
pub mod ws;

use crate::error::AppError;
use crate::{tokens, AppState};
use axum::extract::DefaultBodyLimit;
use axum::extract::{Request, State};
use axum::http::Method;
use axum::middleware::Next;
use axum::response::IntoResponse;
use axum::response::Response;
use axum::Router;

/// Largest request body (a PGN import is the largest thing sent).
pub const MAX_BODY: usize = 1 << 20;

/// The router: API, WebSocket and page. Every answer names the player
/// asking (setting a new identity cookie when there was none), and comes
/// only for an allowed `Host`.
pub fn app(state: AppState) -> Router {
    let api = api::routes().layer(axum::middleware::from_fn_with_state(
        state.clone(),
        limit_writes,
    ));
    // The page's files go out compressed (gzip or brotli, as the browser
    // accepts); API answers are small and many, and are sent as they are.
    let page = Router::new()
        .fallback(assets::serve)
        .layer(tower_http::compression::CompressionLayer::new());
    Router::new()
        .nest("/api", api)
        .merge(api::site_routes())
        .merge(docs::routes())
        .fallback_service(page)
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            identity::identify,
        ))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            guard::guard,
        ))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            identity::resolve,
        ))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            limits::allowed_host,
        ))
        .layer(axum::middleware::from_fn(guard::security_headers))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(tower_http::catch_panic::CatchPanicLayer::custom(
            |_: Box<dyn std::any::Any + Send>| {
                AppError::Internal("the server hit a bug answering this request".into())
                    .into_response()
            },
        ))
        .with_state(state)
}

/// Whether an API path (under `/api`) searches the database: the opening
/// explorer, the player search, a player's games and the games export.
fn searches(path: &str) -> bool {
    path == "/explorer"
        || path == "/player/autocomplete"
        || path == "/games/export/_ids"
        || path.starts_with("/games/user/")
}

/// Answers 429 to a client that sends more API writes than
/// [`ServerConfig::write_limit`] allows, or more searches than
/// [`ServerConfig::search_limit`]. Other reads, and `/api/position`,
/// `/api/explain` and `/api/analysis/pgn` (which store nothing), are not
/// counted; nor are exempt clients (`--trusted-local`).
async fn limit_writes(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Result<Response, AppError> {
    let writes = !matches!(*request.method(), Method::GET | Method::HEAD)
        && !matches!(
            request.uri().path(),
            "/position" | "/explain" | "/analysis/pgn" | "/token/test" | "/games/export/_ids"
        );
    let client = identity::client_of(&request);
    // A program's requests (moves and streams excepted) count against its
    // account, whichever of its tokens it uses, and its writes against its
    // address too: tokens do not multiply the limits.
    if let Some(auth) = request.extensions().get::<tokens::TokenAuth>() {
        let path = request.uri().path();
        if path.contains("/move/") || path.contains("/stream/") {
            return Ok(next.run(request).await);
        }
        state.tokens.take(auth)?;
    }
    if !client.exempt {
        let now = state.games.config().clock.now_ms();
        let limiter = if writes {
            Some(&state.writes)
        } else if searches(request.uri().path()) {
            Some(&state.searches)
        } else {
            None
        };
        if let Some(limiter) = limiter {
            limiter
                .take(client.key(), now)
                .map_err(|retry_ms| AppError::TooManyRequests { retry_ms })?;
        }
    }
    Ok(next.run(request).await)
}
