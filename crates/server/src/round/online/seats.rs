//! Seats belong to players: creating an online game gives the creator a
//! seat; the first other player to ask for the free seat gets it. Games
//! made before players existed held seats by secret tokens in cookies
//! (`tcseat_ID`, of which the server kept only the SHA-256): a request
//! bringing such a cookie still holds that seat. Tokens (random 256-bit,
//! from the operating system's CSPRNG) live here; the cookies are read
//! at the edge (`http::cookies`).

pub(crate) use crate::identity::plausible_token;
use crate::identity::Me;
pub use crate::identity::{new_token, token_hash};
use crate::round::live::OnlineState;
use tensorchess_rules::Color;

/// The prefix of the seat cookies online games used before players
/// existed (`tcseat_ID`).
pub const SEAT_COOKIE_PREFIX: &str = "tcseat_";

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
