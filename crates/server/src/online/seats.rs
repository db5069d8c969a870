//! Seats belong to players: creating an online game gives the creator a
//! seat; the first other player to ask for the free seat gets it. Games
//! made before players existed held seats by secret tokens in cookies
//! (`tcseat_ID`, of which the server kept only the SHA-256): a request
//! bringing such a cookie still holds that seat. Tokens (random 256-bit,
//! from the operating system's CSPRNG) and the cookie helpers live here.

use crate::ids::valid_id;
use crate::live::OnlineState;
use crate::players::Me;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue};
use rand::TryRngCore;
use sha2::{Digest, Sha256};
use std::convert::Infallible;
use tensorchess_rules::Color;

/// The prefix of the seat cookies online games used before players
/// existed (`tcseat_ID`).
pub const SEAT_COOKIE_PREFIX: &str = "tcseat_";

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
    /// The cookies of a request's `Cookie` headers.
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

    /// The value of the cookie named `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The seat tokens of the old seat cookies this request carries: game
    /// id and token.
    pub fn seat_tokens(&self) -> Vec<(String, String)> {
        self.0
            .iter()
            .filter_map(|(k, v)| Some((k.strip_prefix(SEAT_COOKIE_PREFIX)?, v)))
            .filter(|(id, token)| valid_id(id) && plausible_token(token))
            .map(|(id, token)| (id.to_string(), token.clone()))
            .take(MAX_SEAT_TOKENS)
            .collect()
    }
}

/// Old seat cookies looked at per request.
const MAX_SEAT_TOKENS: usize = 32;

impl<S: Send + Sync> FromRequestParts<S> for Cookies {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(Cookies::from_headers(&parts.headers))
    }
}

/// The seat `me` holds in game `id`: by their player id, or by an old
/// seat cookie for a seat no player holds.
pub fn seat_of(online: &OnlineState, id: &str, me: &Me) -> Option<Color> {
    for c in [Color::White, Color::Black] {
        if online.player(c) == Some(me.id.as_str()) {
            return Some(c);
        }
    }
    for (game, token) in &me.seat_tokens {
        if game != id {
            continue;
        }
        let hash = token_hash(token);
        for c in [Color::White, Color::Black] {
            if online.player(c).is_none() && online.seat_hash(c) == Some(hash.as_str()) {
                return Some(c);
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
        let token = "ab".repeat(32);
        let c = Cookies::parse(&format!(
            "a=1; tcseat_abc=\"{token}\" ;junk; tcseat_../x={token}; tcseat_def=short; b = 3"
        ));
        assert_eq!(c.get("a"), Some("1"));
        assert_eq!(c.get("b"), Some("3"));
        assert_eq!(c.seat_tokens(), vec![("abc".to_string(), token)]);
    }
}
