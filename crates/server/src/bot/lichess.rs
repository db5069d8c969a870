//! lichess's words for what this server's API shows programs, so that
//! programs written for lichess read it unchanged: a user's id is their
//! user name in lower case, orthodox chess is the `standard` variant, a
//! game's `perf` is its speed (for chess) or its game, and ratings come as
//! `perfs` keyed by those perfs.

use super::shapes::{Status, VariantShape};
use crate::store::{ClockSettings, RatingPool, RatingRecord};
use serde::Serialize;
use serde_json::{Map, Value};
use tensorchess_rules::VariantKind;

/// What a guest's id starts with in the API: longer than any user name
/// can be (20 characters), so no guest is ever taken for an account.
pub const GUEST_PREFIX: &str = "guest-";

/// A player's id as lichess's API shows users: an account's user name in
/// lower case; a guest's own id, prefixed so it can never be a user name.
pub fn user_id(id: &str, account: Option<&str>) -> String {
    match account {
        Some(name) => name.to_lowercase(),
        None => format!("{GUEST_PREFIX}{id}"),
    }
}

/// A game's `variant` object: chess is lichess's `standard`.
pub fn variant(kind: VariantKind) -> VariantShape {
    let (key, name, short) = match kind {
        VariantKind::Chess => ("standard", "Standard", "Std"),
        VariantKind::Tensor => ("tensor", "Tensor Chess", "Tensor"),
        VariantKind::Chessence => ("chessence", "Chessence", "Chessence"),
    };
    VariantShape { key, name, short }
}

/// lichess's speed of a time control (estimated game time: base + 40
/// increments); a game without a clock is `correspondence`.
pub fn speed(clock: Option<ClockSettings>) -> &'static str {
    let Some(c) = clock else {
        return "correspondence";
    };
    let estimate = (c.base_ms + 40 * c.increment_ms) / 1000;
    match estimate {
        ..30 => "ultraBullet",
        30..180 => "bullet",
        180..480 => "blitz",
        480..1500 => "rapid",
        _ => "classical",
    }
}

/// The key of a game's perf (its rating on lichess): chess by speed, the
/// other games by name, correspondence apart.
pub fn perf_key(kind: VariantKind, clock: Option<ClockSettings>) -> &'static str {
    match (kind, clock) {
        (VariantKind::Chess, clock) => speed(clock),
        (VariantKind::Tensor, Some(_)) => "tensor",
        (VariantKind::Tensor, None) => "tensorCorrespondence",
        (VariantKind::Chessence, Some(_)) => "chessence",
        (VariantKind::Chessence, None) => "chessenceCorrespondence",
    }
}

/// A perf's name, as lichess writes it (`Blitz`, `Tensor`).
pub fn perf_name(key: &str) -> String {
    match key {
        "ultraBullet" => "UltraBullet".to_string(),
        "tensorCorrespondence" => "Tensor Correspondence".to_string(),
        "chessenceCorrespondence" => "Chessence Correspondence".to_string(),
        other => {
            let mut chars = other.chars();
            chars
                .next()
                .map(|c| c.to_uppercase().chain(chars).collect())
                .unwrap_or_default()
        }
    }
}

/// One perf of a user (`perfs.blitz`).
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Perf {
    /// Rated games played.
    pub games: u32,
    /// The rating, rounded.
    pub rating: i32,
    /// The rating deviation, rounded.
    pub rd: i32,
    /// Progress over the last games (not kept here: 0).
    pub prog: i32,
    /// Provisional (a deviation over 110, as on lichess).
    pub prov: bool,
}

impl Perf {
    fn of(r: &RatingRecord) -> Perf {
        Perf {
            games: r.games,
            rating: r.rating.round() as i32,
            rd: r.rd.round() as i32,
            prog: 0,
            prov: r.rd > crate::rating::PROVISIONAL_RD,
        }
    }
}

/// The perfs a pool's rating stands for: orthodox chess's real-time
/// rating is each of lichess's speeds.
fn pool_perfs(pool: RatingPool) -> &'static [&'static str] {
    match (pool.variant, pool.correspondence) {
        (VariantKind::Chess, false) => &["ultraBullet", "bullet", "blitz", "rapid", "classical"],
        (VariantKind::Chess, true) => &["correspondence"],
        (VariantKind::Tensor, false) => &["tensor"],
        (VariantKind::Tensor, true) => &["tensorCorrespondence"],
        (VariantKind::Chessence, false) => &["chessence"],
        (VariantKind::Chessence, true) => &["chessenceCorrespondence"],
    }
}

/// Every pool, so that a perf never played shows its starting rating.
const POOLS: [RatingPool; 6] = [
    RatingPool::real_time(VariantKind::Chess),
    RatingPool::correspondence(VariantKind::Chess),
    RatingPool::real_time(VariantKind::Tensor),
    RatingPool::correspondence(VariantKind::Tensor),
    RatingPool::real_time(VariantKind::Chessence),
    RatingPool::correspondence(VariantKind::Chessence),
];

/// A game's status as lichess's `gameStart` and `gameFinish` show it:
/// `{"id": 31, "name": "resign"}` (lichess's numbers for its words).
pub fn status(name: &'static str) -> Status {
    let id = match name {
        "created" => 10,
        "started" => 20,
        "aborted" => 25,
        "mate" => 30,
        "resign" => 31,
        "stalemate" => 32,
        "timeout" => 33,
        "draw" => 34,
        "outoftime" => 35,
        "noStart" => 37,
        "unknownFinish" => 38,
        _ => 60, // variantEnd
    };
    Status { id, name }
}

/// A user's `perfs` from their stored ratings (pools never played at the
/// starting rating, provisional).
pub fn perfs(ratings: &[(RatingPool, RatingRecord)]) -> Map<String, Value> {
    let start = RatingRecord {
        rating: 1500.0,
        rd: 350.0,
        volatility: 0.06,
        games: 0,
    };
    let mut out = Map::new();
    for pool in POOLS {
        let record = ratings
            .iter()
            .find(|(p, _)| *p == pool)
            .map_or(start, |(_, r)| *r);
        let perf = serde_json::to_value(Perf::of(&record)).unwrap_or_default();
        for key in pool_perfs(pool) {
            out.insert((*key).to_string(), perf.clone());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_lower_case_user_names_and_guests_never_pass_for_one() {
        assert_eq!(user_id("abc", Some("RoboBot")), "robobot");
        let guest = user_id("e340dc114b4229f6fe0c", None);
        assert!(!crate::players::valid_username(&guest), "{guest}");
    }

    #[test]
    fn chess_is_standard_and_its_perf_is_its_speed() {
        assert_eq!(variant(VariantKind::Chess).key, "standard");
        assert_eq!(variant(VariantKind::Tensor).key, "tensor");
        let blitz = Some(ClockSettings {
            base_ms: 180_000,
            increment_ms: 2_000,
        });
        assert_eq!(perf_key(VariantKind::Chess, blitz), "blitz");
        assert_eq!(perf_name("blitz"), "Blitz");
        assert_eq!(perf_key(VariantKind::Tensor, blitz), "tensor");
        assert_eq!(perf_key(VariantKind::Chess, None), "correspondence");
        assert_eq!(
            perf_name(perf_key(VariantKind::Tensor, None)),
            "Tensor Correspondence"
        );
    }

    #[test]
    fn perfs_cover_every_pool_with_the_stored_ratings() {
        let played = RatingRecord {
            rating: 1723.4,
            rd: 80.0,
            volatility: 0.06,
            games: 31,
        };
        let p = perfs(&[(RatingPool::real_time(VariantKind::Chess), played)]);
        assert_eq!(p["blitz"]["rating"], 1723);
        assert_eq!(p["bullet"]["games"], 31);
        assert_eq!(p["blitz"]["prov"], false);
        assert_eq!(p["tensor"]["rating"], 1500);
        assert_eq!(p["tensor"]["prov"], true);
        assert!(p.contains_key("correspondence"));
    }
}
