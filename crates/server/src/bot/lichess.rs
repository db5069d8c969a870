//! lichess's words for what this server's API shows programs, so that
//! programs written for lichess read it unchanged: a user's id is their
//! user name in lower case, orthodox chess is the `standard` variant, a
//! game's `perf` is its speed (for chess) or its game, and ratings come as
//! `perfs` keyed by those perfs.

use super::shapes::{Status, VariantShape};
use crate::store::{ClockSettings, RatingPool, RatingRecord, Speed};
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

/// A game's key in lichess's API: orthodox chess is its `standard`; the
/// others are this site's own (lichess's clients decline them as an
/// unknown variant).
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq, ts_rs::TS)]
#[serde(rename_all = "lowercase")]
pub enum VariantKey {
    /// Orthodox chess.
    Standard,
    /// Tensor Chess.
    Tensor,
    /// Chessence.
    Chessence,
}

impl From<VariantKind> for VariantKey {
    fn from(kind: VariantKind) -> VariantKey {
        match kind {
            VariantKind::Chess => VariantKey::Standard,
            VariantKind::Tensor => VariantKey::Tensor,
            VariantKind::Chessence => VariantKey::Chessence,
        }
    }
}

/// A game's `variant` object: chess is lichess's `standard`.
pub fn variant(kind: VariantKind) -> VariantShape {
    let (name, short) = match kind {
        VariantKind::Chess => ("Standard", "Std"),
        VariantKind::Tensor => ("Tensor Chess", "Tensor"),
        VariantKind::Chessence => ("Chessence", "Chessence"),
    };
    VariantShape {
        key: kind.into(),
        name,
        short,
    }
}

/// lichess's speed of a time control (estimated game time: base + 40
/// increments); a game without a clock is `correspondence`.
pub fn speed(clock: Option<ClockSettings>) -> Speed {
    Speed::of_clock(clock.map(|c| (c.base_ms, c.increment_ms)))
}

/// A perf: what lichess keeps a rating for. Orthodox chess's are its
/// speeds; the other games each have one for real-time play and one for
/// correspondence.
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq, Hash, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub enum PerfKey {
    /// Tensor Chess on a clock.
    Tensor,
    /// Tensor Chess by days per move.
    TensorCorrespondence,
    /// Chessence on a clock.
    Chessence,
    /// Chessence by days per move.
    ChessenceCorrespondence,
    /// Orthodox chess: its speed's (`blitz`, `correspondence`).
    #[serde(untagged)]
    Chess(Speed),
}

impl PerfKey {
    /// The perf of a game of `kind` with `clock` (none: correspondence).
    pub fn of(kind: VariantKind, clock: Option<ClockSettings>) -> PerfKey {
        match (kind, clock) {
            (VariantKind::Chess, clock) => PerfKey::Chess(speed(clock)),
            (VariantKind::Tensor, Some(_)) => PerfKey::Tensor,
            (VariantKind::Tensor, None) => PerfKey::TensorCorrespondence,
            (VariantKind::Chessence, Some(_)) => PerfKey::Chessence,
            (VariantKind::Chessence, None) => PerfKey::ChessenceCorrespondence,
        }
    }

    /// Its key, as the JSON writes it (`blitz`, `tensorCorrespondence`).
    pub fn as_str(self) -> &'static str {
        match self {
            PerfKey::Chess(speed) => speed.as_str(),
            PerfKey::Tensor => "tensor",
            PerfKey::TensorCorrespondence => "tensorCorrespondence",
            PerfKey::Chessence => "chessence",
            PerfKey::ChessenceCorrespondence => "chessenceCorrespondence",
        }
    }

    /// Its name, as lichess writes it (`Blitz`, `Tensor Correspondence`).
    pub fn name(self) -> &'static str {
        match self {
            PerfKey::Chess(Speed::UltraBullet) => "UltraBullet",
            PerfKey::Chess(Speed::Bullet) => "Bullet",
            PerfKey::Chess(Speed::Blitz) => "Blitz",
            PerfKey::Chess(Speed::Rapid) => "Rapid",
            PerfKey::Chess(Speed::Classical) => "Classical",
            PerfKey::Chess(Speed::Correspondence) => "Correspondence",
            PerfKey::Tensor => "Tensor",
            PerfKey::TensorCorrespondence => "Tensor Correspondence",
            PerfKey::Chessence => "Chessence",
            PerfKey::ChessenceCorrespondence => "Chessence Correspondence",
        }
    }

    /// Every perf: chess's speeds, then the other games'.
    pub fn all() -> impl Iterator<Item = PerfKey> {
        Speed::ALL.into_iter().map(PerfKey::Chess).chain([
            PerfKey::Tensor,
            PerfKey::TensorCorrespondence,
            PerfKey::Chessence,
            PerfKey::ChessenceCorrespondence,
        ])
    }

    /// The perf of key `s`; `None` for another word.
    pub fn parse(s: &str) -> Option<PerfKey> {
        PerfKey::all().find(|k| k.as_str() == s)
    }
}

/// A game's status, as lichess's streams and exports name it.
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq, Hash, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub enum GameStatus {
    /// Made, not begun.
    Created,
    /// Going on.
    Started,
    /// Aborted.
    Aborted,
    /// Checkmate.
    Mate,
    /// A player resigned.
    Resign,
    /// Stalemate.
    Stalemate,
    /// A player left and the other claimed the win.
    Timeout,
    /// Drawn.
    Draw,
    /// A flag fell.
    #[serde(rename = "outoftime")]
    OutOfTime,
    /// A first move was not made in time.
    NoStart,
    /// Ended elsewhere (an imported game).
    UnknownFinish,
    /// Ended by a rule of the variant (Chessence: no legal move).
    VariantEnd,
}

impl GameStatus {
    /// lichess's number for it.
    pub fn id(self) -> u32 {
        match self {
            GameStatus::Created => 10,
            GameStatus::Started => 20,
            GameStatus::Aborted => 25,
            GameStatus::Mate => 30,
            GameStatus::Resign => 31,
            GameStatus::Stalemate => 32,
            GameStatus::Timeout => 33,
            GameStatus::Draw => 34,
            GameStatus::OutOfTime => 35,
            GameStatus::NoStart => 37,
            GameStatus::UnknownFinish => 38,
            GameStatus::VariantEnd => 60,
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
fn pool_perfs(pool: RatingPool) -> &'static [PerfKey] {
    use PerfKey::*;
    const CHESS: [PerfKey; 5] = [
        Chess(Speed::UltraBullet),
        Chess(Speed::Bullet),
        Chess(Speed::Blitz),
        Chess(Speed::Rapid),
        Chess(Speed::Classical),
    ];
    match (pool.variant, pool.correspondence) {
        (VariantKind::Chess, false) => &CHESS,
        (VariantKind::Chess, true) => &[Chess(Speed::Correspondence)],
        (VariantKind::Tensor, false) => &[Tensor],
        (VariantKind::Tensor, true) => &[TensorCorrespondence],
        (VariantKind::Chessence, false) => &[Chessence],
        (VariantKind::Chessence, true) => &[ChessenceCorrespondence],
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
pub fn status(name: GameStatus) -> Status {
    Status {
        id: name.id(),
        name,
    }
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
            out.insert(key.as_str().to_string(), perf.clone());
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
        assert_eq!(variant(VariantKind::Chess).key, VariantKey::Standard);
        assert_eq!(variant(VariantKind::Tensor).key, VariantKey::Tensor);
        let blitz = Some(ClockSettings {
            base_ms: 180_000,
            increment_ms: 2_000,
        });
        assert_eq!(
            PerfKey::of(VariantKind::Chess, blitz),
            PerfKey::Chess(Speed::Blitz)
        );
        assert_eq!(PerfKey::Chess(Speed::Blitz).name(), "Blitz");
        assert_eq!(PerfKey::of(VariantKind::Tensor, blitz), PerfKey::Tensor);
        assert_eq!(
            PerfKey::of(VariantKind::Chess, None),
            PerfKey::Chess(Speed::Correspondence)
        );
        assert_eq!(
            PerfKey::of(VariantKind::Tensor, None).name(),
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

    #[test]
    fn perfs_and_statuses_are_written_as_lichess_writes_them() {
        for key in PerfKey::all() {
            assert_eq!(serde_json::to_value(key).unwrap(), key.as_str());
            assert_eq!(PerfKey::parse(key.as_str()), Some(key));
        }
        assert_eq!(PerfKey::parse("Blitz"), None);
        let words = |s: GameStatus| (serde_json::to_value(s).unwrap(), s.id());
        assert_eq!(words(GameStatus::OutOfTime), ("outoftime".into(), 35));
        assert_eq!(words(GameStatus::NoStart), ("noStart".into(), 37));
        assert_eq!(words(GameStatus::VariantEnd), ("variantEnd".into(), 60));
        assert_eq!(
            serde_json::to_value(status(GameStatus::Resign)).unwrap(),
            serde_json::json!({"id": 31, "name": "resign"})
        );
    }
}
