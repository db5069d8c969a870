//! Who is asking, worked out once per request by middleware and handed to
//! the handlers as extractors: the client's address ([`resolve`]), the
//! player ([`identify`]: a personal API token, or the identity cookie, set
//! on the answer when the request had none), and the token's scopes.

use super::cookies::{bearer, id_cookie, via_https, Cookies};
use crate::client::{Client, Forwarding};
use crate::error::AppError;
use crate::identity::new_token;
use crate::identity::Me;
use crate::identity::ID_COOKIE;
use crate::ids::PlayerId;
use crate::tokens::TokenAuth;
use crate::AppState;
use axum::extract::{ConnectInfo, FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::convert::Infallible;
use std::net::SocketAddr;

/// The client of a request (after [`resolve`]); [`Client::unknown`] for
/// one that came with no connection (tests calling the router directly).
pub fn client_of(request: &Request) -> Client {
    request
        .extensions()
        .get::<Client>()
        .copied()
        .unwrap_or_else(Client::unknown)
}

/// The forwarding headers `Proxies::client_of` reads.
fn forwarding(headers: &HeaderMap) -> Forwarding<'_> {
    Forwarding {
        forwarded_for: headers
            .get_all("x-forwarded-for")
            .iter()
            .map(|v| v.to_str().ok())
            .collect(),
        real_ip: headers.get("x-real-ip").and_then(|v| v.to_str().ok()),
    }
}

/// Works out the [`Client`] of each request from its connection and, from
/// a trusted proxy, its forwarding headers.
pub async fn resolve(State(state): State<AppState>, mut request: Request, next: Next) -> Response {
    let proxies = &state.games.config().proxies;
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip());
    if let Some(peer) = peer {
        let ip = proxies.client_of(peer, &forwarding(request.headers()));
        let client = Client {
            ip,
            exempt: proxies.is_exempt(ip),
        };
        // Behind a proxy the listener counts the proxy's connections: the
        // forwarded client's requests, and what they open, are counted here.
        if ip != crate::client::canonical(peer) && !client.exempt {
            match state.held.forwarded_client(client.key()) {
                Ok(slot) => {
                    request.extensions_mut().insert(slot);
                }
                Err(e) => return e.into_response(),
            }
        }
        request.extensions_mut().insert(client);
    }
    next.run(request).await
}

/// Works out who sends each request (a [`Me`] in its extensions) and, when
/// the request had no valid identity, sets the new one's cookie on the
/// answer.
pub async fn identify(State(state): State<AppState>, mut request: Request, next: Next) -> Response {
    // A program with a personal API token is its account (no cookie).
    if let Some(token) = bearer(request.headers()) {
        let auth = match state.tokens.authenticate(token).await {
            Ok(auth) => auth,
            Err(e) => return e.into_response(),
        };
        let banned = match state.games.live.store().ban_of(&auth.player).await {
            Ok(ban) => ban.map(|b| b.reason),
            Err(e) => return AppError::from(e).into_response(),
        };
        let me = Me {
            id: PlayerId::new(auth.player.clone()),
            token_hash: crate::tokens::hash(token),
            stored: true,
            new_token: None,
            seat_tokens: Vec::new(),
            client: client_of(&request),
            banned,
        };
        if let Err(e) = me.may_act() {
            return e.into_response();
        }
        // A token reaches only the routes for programs its scopes name.
        if let Err(e) = super::token_routes::check(&auth, request.method(), request.uri().path()) {
            return e.into_response();
        }
        request.extensions_mut().insert(me);
        request.extensions_mut().insert(auth);
        return next.run(request).await;
    }
    let cookies = Cookies::from_headers(request.headers());
    let secure = via_https(request.headers());
    let mut me = state.players.identify(cookies.get(ID_COOKIE)).await;
    me.seat_tokens = cookies.seat_tokens();
    me.client = client_of(&request);
    // A cookie that no longer counts (its guest has registered or logged
    // in since) is answered as a new guest, but an API call does not hand
    // that guest's cookie over: it was sent before the login's answer,
    // whose cookie the browser holds now, and overwriting it would log the
    // page out. A page load does (a browser that never got the login's
    // answer starts afresh there).
    let hand_over = cookies.get(ID_COOKIE).is_none() || !request.uri().path().starts_with("/api/");
    let token = me.new_token.clone().filter(|_| hand_over);
    // A banned player may read, and log out; nothing else.
    let acts = !matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    ) && request.uri().path() != "/api/account/logout";
    if acts {
        if let Err(e) = me.may_act() {
            return e.into_response();
        }
    }
    request.extensions_mut().insert(me);
    let mut response = next.run(request).await;
    // An answer that sets its own identity (login, logout) wins.
    let sets_identity = response
        .headers()
        .get_all(header::SET_COOKIE)
        .iter()
        .any(|v| v.as_bytes().starts_with(ID_COOKIE.as_bytes()));
    if let (Some(token), false) = (token, sets_identity) {
        response
            .headers_mut()
            .append(header::SET_COOKIE, id_cookie(&token, secure));
    }
    response
}

impl<S: Send + Sync> FromRequestParts<S> for Me {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(parts
            .extensions
            .get::<Me>()
            .cloned()
            // Not through the middleware (a test calling a handler): a guest.
            .unwrap_or_else(|| Me::guest(new_token())))
    }
}

/// The token of a request (401 without one: these routes are for programs).
impl<S: Send + Sync> FromRequestParts<S> for TokenAuth {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        parts.extensions.get::<TokenAuth>().cloned().ok_or_else(|| {
            AppError::Unauthorized(
                "This route needs a personal API token: Authorization: Bearer <token>".into(),
            )
        })
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Cookies {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(Cookies::from_headers(&parts.headers))
    }
}
