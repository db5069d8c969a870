//! What is being played now, for the home page: how many online games have
//! a player connected (from the presence every server shares, so the count
//! is the same whichever server answers) and the featured game (lichess's
//! TV): the highest-rated real-time game in progress, its players both
//! connected. Reading the games is cached for a few seconds, as every
//! visit of the home page asks ([`Featured::now`] says when it is read
//! again sooner).

use crate::error::AppError;
use crate::round::live::LiveGames;
use crate::store::GameStore;
use serde::Serialize;
use std::sync::Mutex;
use tensorchess_rules::{ByColor, VariantKind};

/// How long a reading is kept (ms).
const KEEP_MS: i64 = 3_000;
/// How soon a reading is made again when games begin or end (ms).
const SOONEST_MS: i64 = 1_000;
/// At most this many games are read for the featured one (the rest count).
const MAX_READ: usize = 300;

/// The featured game: who plays what.
#[derive(Serialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct FeaturedGame {
    /// The game's id.
    pub id: String,
    /// The game played.
    pub variant: VariantKind,
    /// White's name, as shown over the board.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// White's account (its username, for a link to the profile); `None`
    /// for a guest.
    pub white_account: Option<String>,
    /// Black's account.
    pub black_account: Option<String>,
    /// White's rating when the game began (rated games).
    pub white_rating: Option<i32>,
    /// Black's rating when the game began (rated games).
    pub black_rating: Option<i32>,
    /// Whether the game is rated.
    pub rated: bool,
}

/// Online games being played now, and the one to show.
#[derive(Serialize, Clone, Debug, PartialEq, Eq, Default)]
pub struct PlayingNow {
    /// Online games in progress with a player connected (on any server).
    pub games: usize,
    /// The highest-rated of them (real-time, both players connected).
    pub featured: Option<FeaturedGame>,
}

/// The games with a player connected, and which of their seats are.
type Connected = Vec<(String, [bool; 2])>;

/// A reading: when, at which change of the seats connected, and what it
/// found.
struct Reading {
    at: i64,
    seats: u64,
    seen: PlayingNow,
}

/// The cached reading.
#[derive(Default)]
pub struct Featured {
    cache: Mutex<Option<Reading>>,
}

impl Featured {
    /// What is played now, read at most every few seconds: sooner when
    /// the seats connected changed (a game begun shows at once), but not
    /// more than once a second while a featured game is still being
    /// played (on a busy site seats come and go all the time, and every
    /// visit of the home page asks). Checking costs O(1): the presence
    /// keeps its counts.
    pub async fn now(&self, live: &LiveGames) -> Result<PlayingNow, AppError> {
        let now = live.now();
        let presence = live.presence();
        let seats = presence.seat_changes();
        if let Some(r) = self
            .cache
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_ref()
        {
            let age = now - r.at;
            let featured_on = r
                .seen
                .featured
                .as_ref()
                .is_some_and(|f| presence.connected(&f.id) == [true, true]);
            let fresh = (0..KEEP_MS).contains(&age)
                && (r.seats == seats || (featured_on && age < SOONEST_MS));
            if fresh && (featured_on || r.seen.featured.is_none()) {
                return Ok(r.seen.clone());
            }
        }
        let mut connected: Connected = presence
            .games_connected()
            .into_iter()
            .map(|id| {
                let seats = presence.connected(&id);
                (id, seats)
            })
            .collect();
        connected.sort();
        let seen = read(live, &connected).await?;
        *self.cache.lock().unwrap_or_else(|e| e.into_inner()) = Some(Reading {
            at: now,
            seats,
            seen: seen.clone(),
        });
        Ok(seen)
    }
}

/// The best game so far: its (rating sum, last change), what is shown of
/// it, and its players' ids.
type Candidate = ((i64, i64), FeaturedGame, ByColor<Option<String>>);

/// Reads the games with a player connected from the store.
async fn read(live: &LiveGames, connected: &Connected) -> Result<PlayingNow, AppError> {
    let store: &dyn GameStore = live.store().as_ref();
    let mut games = 0;
    let mut best: Option<Candidate> = None;
    for (n, (id, seats)) in connected.iter().enumerate() {
        if n >= MAX_READ {
            // Not read: counted as being played (a player is there).
            games += connected.len() - n;
            break;
        }
        let Some(stored) = store.load_game(id).await? else {
            continue;
        };
        let record = &stored.record;
        let Some(online) = stored.online.as_ref() else {
            continue;
        };
        if record.ending.is_some() {
            continue;
        }
        games += 1;
        let both_here = *seats == [true, true];
        let seated = online.players.white.is_some() && online.players.black.is_some();
        if online.clock.is_none() || !both_here || !seated {
            continue;
        }
        let ratings = [online.ratings.white, online.ratings.black];
        let sum = ratings.iter().map(|r| r.unwrap_or(0) as i64).sum::<i64>();
        let key = (sum, record.updated_at);
        if best.as_ref().is_none_or(|(k, _, _)| key > *k) {
            best = Some((
                key,
                FeaturedGame {
                    id: record.id.clone(),
                    variant: record.variant,
                    white: record.white.clone(),
                    black: record.black.clone(),
                    white_account: None,
                    black_account: None,
                    white_rating: ratings[0],
                    black_rating: ratings[1],
                    rated: record.rated,
                },
                online.players.clone(),
            ));
        }
    }
    let featured = match best {
        Some((_, mut g, players)) => {
            // The players' accounts, for links to their profiles.
            for (id, account) in [
                (players.white, &mut g.white_account),
                (players.black, &mut g.black_account),
            ] {
                if let Some(id) = id {
                    *account = store.player(&id).await?.and_then(|p| p.account);
                }
            }
            Some(g)
        }
        None => None,
    };
    Ok(PlayingNow { games, featured })
}
