//! Seats held by secret tokens in cookies. Creating an online game gives
//! the creator a seat; the first other person to ask for the free seat gets
//! it. Each seat is a random 256-bit token (the operating system's CSPRNG)
//! sent once, in an `HttpOnly; SameSite=Lax` cookie named after the game
//! (`tcseat_ID`). The server keeps only its SHA-256, so neither the database
//! nor any view holds a token, and spectators and the opponent never see one.

use crate::server::ids::valid_id;
use crate::server::live::OnlineState;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue};
use rand::TryRngCore;
use sha2::{Digest, Sha256};
use std::convert::Infallible;
use tensorchess_rules::Color;

/// The cookie holding the seat of game `id`.
pub fn seat_cookie_name(id: &str) -> String {
    format!("{SEAT_COOKIE_PREFIX}{id}")
}

pub const SEAT_COOKIE_PREFIX: &str = "tcseat_";

/// How long a browser keeps a seat cookie (a year: long games are allowed).
pub const SEAT_COOKIE_MAX_AGE: u64 = 365 * 24 * 3600;

/// The `Set-Cookie` value that gives the holder the seat in game `id`;
/// `secure` when the page was reached over HTTPS (then the cookie is never
/// sent in clear).
pub fn seat_cookie(id: &str, token: &str, secure: bool) -> HeaderValue {
    let value = format!(
        "{}={token}; Path=/; Max-Age={SEAT_COOKIE_MAX_AGE}; HttpOnly; SameSite=Lax{}",
        seat_cookie_name(id),
        if secure { "; Secure" } else { "" }
    );
    HeaderValue::from_str(&value).unwrap_or_else(|_| HeaderValue::from_static(""))
}

/// A new seat token: 256 random bits from the operating system, in hex.
pub fn new_token() -> String {
    let mut bytes = [0u8; 32];
    if rand::rngs::OsRng.try_fill_bytes(&mut bytes).is_err() {
        // The thread-local generator is a CSPRNG seeded from the OS as well.
        rand::RngCore::fill_bytes(&mut rand::rng(), &mut bytes);
    }
    hex(&bytes)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// What the server stores of a token.
pub fn token_hash(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

/// Whether `s` looks like a token (anything else is not even hashed).
fn plausible_token(s: &str) -> bool {
    s.len() == 64 && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Whether the request came over HTTPS (through a proxy that says so).
pub fn via_https(headers: &HeaderMap) -> bool {
    headers
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("https"))
}

/// The request's cookies (the `Cookie` headers), parsed leniently and bounded.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cookies(Vec<(String, String)>);

/// Cookies looked at per request.
const MAX_COOKIES: usize = 200;

impl Cookies {
    pub fn from_headers(headers: &HeaderMap) -> Cookies {
        let mut out = Vec::new();
        for value in headers.get_all(header::COOKIE) {
            let Ok(text) = value.to_str() else { continue };
            for pair in text.split(';') {
                if out.len() >= MAX_COOKIES {
                    break;
                }
                if let Some((k, v)) = pair.trim().split_once('=') {
                    out.push((k.trim().to_string(), v.trim().trim_matches('"').to_string()));
                }
            }
        }
        Cookies(out)
    }

    /// A cookie line as a browser sends it (`a=1; b=2`): for clients and tests.
    pub fn parse(line: &str) -> Cookies {
        let mut h = HeaderMap::new();
        if let Ok(v) = HeaderValue::from_str(line) {
            h.insert(header::COOKIE, v);
        }
        Cookies::from_headers(&h)
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The games whose seat cookie this request carries.
    pub fn seat_games(&self) -> Vec<String> {
        self.0
            .iter()
            .filter_map(|(k, _)| k.strip_prefix(SEAT_COOKIE_PREFIX))
            .filter(|id| valid_id(id))
            .map(str::to_string)
            .collect()
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Cookies {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(Cookies::from_headers(&parts.headers))
    }
}

/// The seat a request holds in a game, and how it was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatClaim {
    pub color: Color,
    pub token: String,
    /// Found through the cookie of the game this one is a rematch of: the
    /// answer should set this game's own cookie.
    pub inherited: bool,
}

/// The seat `cookies` hold in game `id`: its own cookie, or the cookie of
/// the game it is a rematch of (the rematch keeps the players' tokens,
/// colours swapped).
pub fn seat_of(online: &OnlineState, id: &str, cookies: &Cookies) -> Option<SeatClaim> {
    let mut names = vec![(seat_cookie_name(id), false)];
    if let Some(prev) = &online.record().rematch_of {
        names.push((seat_cookie_name(prev), true));
    }
    for (name, inherited) in names {
        let Some(token) = cookies.get(&name).filter(|t| plausible_token(t)) else {
            continue;
        };
        let hash = token_hash(token);
        for c in [Color::White, Color::Black] {
            if online.seat_hash(c) == Some(hash.as_str()) {
                return Some(SeatClaim {
                    color: c,
                    token: token.to_string(),
                    inherited,
                });
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_long_random_and_only_their_hash_is_kept() {
        let a = new_token();
        let b = new_token();
        assert_eq!(a.len(), 64);
        assert!(plausible_token(&a));
        assert_ne!(a, b);
        assert_eq!(token_hash(&a).len(), 64);
        assert_ne!(token_hash(&a), a);
        assert_eq!(token_hash(&a), token_hash(&a));
    }

    #[test]
    fn cookies_are_parsed_leniently() {
        let c = Cookies::parse("a=1; tcseat_abc=\"xyz\" ;junk; tcseat_../x=2; b = 3");
        assert_eq!(c.get("a"), Some("1"));
        assert_eq!(c.get("tcseat_abc"), Some("xyz"));
        assert_eq!(c.get("b"), Some("3"));
        assert_eq!(c.seat_games(), vec!["abc"]);
        let v = seat_cookie("abc", "00ff", false);
        let v = v.to_str().unwrap();
        assert!(v.starts_with("tcseat_abc=00ff;"));
        assert!(v.contains("HttpOnly") && v.contains("SameSite=Lax"));
        assert!(!v.contains("Secure"));
        assert!(seat_cookie("abc", "00ff", true)
            .to_str()
            .unwrap()
            .ends_with("; Secure"));
    }
}
