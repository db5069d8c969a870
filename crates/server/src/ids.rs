//! Game ids and the topics their updates go out on.

use rand::Rng;

/// A new game id: 10 characters from an alphabet without look-alikes.
pub fn new_id() -> String {
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";
    let mut rng = rand::rng();
    (0..10)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect()
}

/// Whether `id` could be a game id (anything else is not looked up).
pub fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 40
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// The hub topic of a game's updates.
pub fn game_topic(id: &str) -> String {
    format!("game:{id}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_checked_before_lookup() {
        assert!(valid_id(&new_id()));
        assert!(!valid_id(""));
        assert!(!valid_id("../etc"));
        assert!(!valid_id(&"a".repeat(41)));
        assert_eq!(game_topic("abc"), "game:abc");
    }
}
