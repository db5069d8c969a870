//! Seats belong to players: creating an online game gives the creator a
//! seat; the first other player to ask for the free seat gets it. Games
//! made before players existed held seats by secret tokens in cookies
//! (`tcseat_ID`, of which the server kept only the SHA-256): a request
//! bringing such a cookie still holds that seat. Tokens (random 256-bit,
//! from the operating system's CSPRNG) live here; the cookies are read
//! at the edge (`http::cookies`).

use crate::players::Me;
use crate::round::live::OnlineState;
use rand::TryRngCore;
use sha2::{Digest, Sha256};
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
pub(crate) fn plausible_token(s: &str) -> bool {
    s.len() == 64 && s.bytes().all(|b| b.is_ascii_hexdigit())
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
}
