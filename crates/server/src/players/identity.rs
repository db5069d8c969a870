//! Every browser is a player: an identity cookie (`tcid`, a random 256-bit
//! token, `HttpOnly; SameSite=Lax`, `Secure` behind HTTPS) set on the first
//! answer to a request without one. The server never stores a token: a
//! session is kept by the token's SHA-256, and a guest who never stored
//! anything is known by an id derived from the token (another hash), so
//! that visitors who only look cost nothing in the database.

use crate::client::Client;
use crate::ids::PlayerId;
use crate::kind::Kind;
use crate::online::seats::{new_token, token_hash, via_https, Cookies};
use crate::AppState;
use axum::extract::{FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderValue, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};
use std::convert::Infallible;

/// The identity cookie's name.
pub const ID_COOKIE: &str = "tcid";
/// How long a browser keeps its identity (a year; renewed at each login).
pub const ID_COOKIE_MAX_AGE: u64 = 365 * 24 * 3600;

/// Who is asking.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Me {
    /// The player's public id.
    pub id: PlayerId,
    /// The SHA-256 of the identity token: the session's key.
    pub(crate) token_hash: String,
    /// A session row exists for this token (the player is stored).
    pub(crate) stored: bool,
    /// A token made for this request (it came without a valid one): the
    /// answer hands it over in a cookie.
    pub(crate) new_token: Option<String>,
    /// Seat tokens of the cookies online games used before players existed.
    pub(crate) seat_tokens: Vec<(String, String)>,
    /// Where the request came from (the per-address limits' key).
    pub(crate) client: Client,
    /// The operator banned this player (the reason): they may look, not act.
    pub(crate) banned: Option<String>,
}

impl Me {
    /// Who an engine search is for: the player, and their address (none
    /// for an exempt client, whose turns go by player).
    pub fn requester(&self) -> crate::budget::Requester {
        let client = (!self.client.exempt).then(|| self.client.key());
        crate::budget::Requester::new(&self.id, client)
    }

    /// Refuses what a banned player asks to do.
    pub fn may_act(&self) -> Result<(), crate::error::AppError> {
        match &self.banned {
            None => Ok(()),
            Some(reason) => Err(crate::error::AppError::refused(
                Kind::Banned,
                format!("You are banned from this server: {reason}"),
            )),
        }
    }
}

impl Me {
    /// A guest made for a new token.
    pub(crate) fn guest(token: String) -> Me {
        Me {
            id: PlayerId::new(guest_id(&token)),
            token_hash: token_hash(&token),
            stored: false,
            new_token: Some(token),
            seat_tokens: Vec::new(),
            client: Client::unknown(),
            banned: None,
        }
    }
}

/// The id of a guest known only by their token: a hash of it, distinct
/// from the session key (`token_hash`), so neither reveals the other.
pub fn guest_id(token: &str) -> String {
    let digest = Sha256::digest(format!("tensorchess player id:{token}").as_bytes());
    digest[..10].iter().map(|b| format!("{b:02x}")).collect()
}

/// The `Set-Cookie` value handing over an identity token.
pub fn id_cookie(token: &str, secure: bool) -> HeaderValue {
    let value = format!(
        "{ID_COOKIE}={token}; Path=/; Max-Age={ID_COOKIE_MAX_AGE}; HttpOnly; SameSite=Lax{}",
        if secure { "; Secure" } else { "" }
    );
    HeaderValue::from_str(&value).unwrap_or_else(|_| HeaderValue::from_static(""))
}

/// Works out who sends each request (a [`Me`] in its extensions) and, when
/// the request had no valid identity, sets the new one's cookie on the
/// answer.
pub async fn identify(State(state): State<AppState>, mut request: Request, next: Next) -> Response {
    // A program with a personal API token is its account (no cookie).
    if let Some(token) = crate::tokens::bearer(request.headers()) {
        let auth = match state.tokens.authenticate(token).await {
            Ok(auth) => auth,
            Err(e) => return e.into_response(),
        };
        let banned = match state.games.live.store().ban_of(&auth.player).await {
            Ok(ban) => ban.map(|b| b.reason),
            Err(e) => return crate::error::AppError::from(e).into_response(),
        };
        let me = Me {
            id: PlayerId::new(auth.player.clone()),
            token_hash: crate::tokens::hash(token),
            stored: true,
            new_token: None,
            seat_tokens: Vec::new(),
            client: Client::of(&request),
            banned,
        };
        if let Err(e) = me.may_act() {
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
    me.client = Client::of(&request);
    let token = me.new_token.clone();
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guest_ids_are_stable_and_differ_from_the_session_key() {
        let token = new_token();
        assert_eq!(guest_id(&token), guest_id(&token));
        assert_eq!(guest_id(&token).len(), 20);
        assert!(!token_hash(&token).starts_with(&guest_id(&token)));
        let me = Me::guest(token.clone());
        assert_eq!(me.new_token.as_deref(), Some(token.as_str()));
        let v = id_cookie(&token, true);
        let v = v.to_str().unwrap();
        assert!(v.starts_with("tcid=") && v.contains("HttpOnly") && v.contains("SameSite=Lax"));
        assert!(v.ends_with("; Secure"));
    }
}
