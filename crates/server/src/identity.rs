//! Every browser is a player: an identity cookie (`tcid`, a random 256-bit
//! token, `HttpOnly; SameSite=Lax`, `Secure` behind HTTPS) set on the first
//! answer to a request without one. The server never stores a token: a
//! session is kept by the token's SHA-256, and a guest who never stored
//! anything is known by an id derived from the token (another hash), so
//! that visitors who only look cost nothing in the database. The cookie is
//! read and set at the edge (`http::identity`).

use crate::client::Client;
use crate::ids::PlayerId;
use crate::kind::Kind;
use rand::TryRngCore;
use sha2::{Digest, Sha256};

/// The identity cookie's name.
pub const ID_COOKIE: &str = "tcid";
/// How long a browser keeps its identity (a year; renewed at each login).
pub const ID_COOKIE_MAX_AGE: u64 = 365 * 24 * 3600;

/// A new token (identity, session, seat): 256 random bits from the operating system, in hex.
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
pub(crate) fn plausible_token(s: &str) -> bool {
    s.len() == 64 && s.bytes().all(|b| b.is_ascii_hexdigit())
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::identity::new_token;

    #[test]
    fn guest_ids_are_stable_and_differ_from_the_session_key() {
        let token = new_token();
        assert_eq!(guest_id(&token), guest_id(&token));
        assert_eq!(guest_id(&token).len(), 20);
        assert!(!token_hash(&token).starts_with(&guest_id(&token)));
        let me = Me::guest(token.clone());
        assert_eq!(me.new_token.as_deref(), Some(token.as_str()));
    }
}
