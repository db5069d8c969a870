//! The headers that say who is asking: the `Cookie` headers (the identity
//! cookie and the old seat cookies), `Authorization: Bearer`, and whether
//! the request came over HTTPS. Read here, at the edge; the services get
//! the values.

use crate::identity::{ID_COOKIE, ID_COOKIE_MAX_AGE};
use crate::ids::valid_id;
use crate::round::online::seats::{plausible_token, SEAT_COOKIE_PREFIX};
use axum::http::{header, HeaderMap, HeaderValue};
use cookie::{Cookie, SameSite};

/// Whether the request came over HTTPS (through a proxy that says so).
pub fn via_https(headers: &HeaderMap) -> bool {
    headers
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("https"))
}

/// The `Set-Cookie` value handing over an identity token: for the whole
/// site, a year, out of scripts' reach, sent on top-level navigations from
/// other sites but not on their requests, and only over HTTPS when the
/// request came that way.
pub fn id_cookie(token: &str, secure: bool) -> HeaderValue {
    let cookie = Cookie::build((ID_COOKIE, token))
        .path("/")
        .max_age(time::Duration::seconds(ID_COOKIE_MAX_AGE as i64))
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(secure)
        .build();
    HeaderValue::from_str(&cookie.to_string()).unwrap_or_else(|_| HeaderValue::from_static(""))
}

/// The bearer token of a request, if it sends one.
pub fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then_some(token.trim())
}

/// The request's cookies (the `Cookie` headers), parsed leniently and bounded.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cookies(Vec<(String, String)>);

/// Cookies looked at per request.
const MAX_COOKIES: usize = 200;

/// Old seat cookies looked at per request.
const MAX_SEAT_TOKENS: usize = 32;

impl Cookies {
    /// The cookies of a request's `Cookie` headers (the `cookie` crate's
    /// parser; a pair without `=` or a name is skipped, quotes around a
    /// value are taken off).
    pub fn from_headers(headers: &HeaderMap) -> Cookies {
        let mut out = Vec::new();
        for value in headers.get_all(header::COOKIE) {
            let Ok(text) = value.to_str() else { continue };
            for cookie in Cookie::split_parse(text).flatten() {
                if out.len() >= MAX_COOKIES {
                    break;
                }
                let (name, value) = cookie.name_value_trimmed();
                out.push((name.to_string(), value.to_string()));
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

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn the_identity_cookie_is_http_only_and_secure_behind_https() {
        let v = id_cookie("t0k3n", true);
        let v = v.to_str().unwrap();
        assert!(
            v.starts_with("tcid=t0k3n") && v.contains("HttpOnly") && v.contains("SameSite=Lax")
        );
        assert!(v.contains("; Secure"), "{v}");
        assert!(
            v.contains("; Path=/") && v.contains("; Max-Age=31536000"),
            "{v}"
        );
        assert!(!id_cookie("t0k3n", false)
            .to_str()
            .unwrap()
            .contains("Secure"));
    }

    #[test]
    fn bearer_tokens_are_read_from_authorization() {
        let mut h = HeaderMap::new();
        assert_eq!(bearer(&h), None);
        h.insert(
            header::AUTHORIZATION,
            HeaderValue::from_static("Bearer  tct_x "),
        );
        assert_eq!(bearer(&h), Some("tct_x"));
        h.insert(header::AUTHORIZATION, HeaderValue::from_static("Basic abc"));
        assert_eq!(bearer(&h), None);
    }
}
