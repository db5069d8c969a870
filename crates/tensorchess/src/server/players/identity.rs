//! Every browser is a player: an identity cookie (`tcid`, a random 256-bit
//! token, `HttpOnly; SameSite=Lax`, `Secure` behind HTTPS) set on the first
//! answer to a request without one. The server never stores a token: a
//! session is kept by the token's SHA-256, and a guest who never stored
//! anything is known by an id derived from the token (another hash), so
//! that visitors who only look cost nothing in the database.

use crate::server::online::seats::{new_token, token_hash, via_https, Cookies};
use crate::server::AppState;
use axum::extract::{ConnectInfo, FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;
use sha2::{Digest, Sha256};
use std::convert::Infallible;
use std::net::SocketAddr;

/// The identity cookie's name.
pub const ID_COOKIE: &str = "tcid";
/// How long a browser keeps its identity (a year; renewed at each login).
pub const ID_COOKIE_MAX_AGE: u64 = 365 * 24 * 3600;

/// Who is asking.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Me {
    /// The player's public id.
    pub id: String,
    /// The SHA-256 of the identity token: the session's key.
    pub(crate) token_hash: String,
    /// A session row exists for this token (the player is stored).
    pub(crate) stored: bool,
    /// A token made for this request (it came without a valid one): the
    /// answer hands it over in a cookie.
    pub(crate) new_token: Option<String>,
    /// Seat tokens of the cookies online games used before players existed.
    pub(crate) seat_tokens: Vec<(String, String)>,
    /// The request came from this computer (loopback): its user may open
    /// the local games stored before players existed.
    pub(crate) loopback: bool,
    /// The client's address, when known.
    pub(crate) client: Option<std::net::IpAddr>,
}

impl Me {
    /// A guest made for a new token.
    pub(crate) fn guest(token: String) -> Me {
        Me {
            id: guest_id(&token),
            token_hash: token_hash(&token),
            stored: false,
            new_token: Some(token),
            seat_tokens: Vec::new(),
            loopback: false,
            client: None,
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
    let cookies = Cookies::from_headers(request.headers());
    let secure = via_https(request.headers());
    let mut me = state.players.identify(cookies.get(ID_COOKIE)).await;
    me.seat_tokens = cookies.seat_tokens();
    me.client = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip());
    me.loopback = me.client.is_some_and(|ip| ip.is_loopback());
    let token = me.new_token.clone();
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
