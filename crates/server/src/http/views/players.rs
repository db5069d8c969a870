//! `GET /api/me`, the account routes' answers and `GET /api/players/{username}`.

use super::games::GameSummaryView;
use crate::players::{PlayerInfo, Profile};
use crate::rating::START;
use crate::store::{RatingPool, RatingRecord};
use serde::Serialize;
use tensorchess_rules::VariantKind;

/// A Glicko-2 rating as pages see it.
#[derive(Serialize, Clone, Copy, Debug, PartialEq, ts_rs::TS)]
pub struct RatingView {
    /// The rating (1500 to start), rounded to hundredths.
    pub rating: f64,
    /// The rating deviation: how uncertain the rating is, in rating
    /// points (350 to start), rounded to hundredths.
    pub rd: f64,
    /// How erratic the player's results are (0.06 to start), rounded to
    /// millionths.
    pub volatility: f64,
    /// Rated games played.
    pub games: u32,
}

/// A player's rating in each game.
#[derive(Serialize, Clone, Copy, Debug, PartialEq, ts_rs::TS)]
pub struct RatingsView {
    /// Tensor Chess.
    pub tensor: RatingView,
    /// Chess.
    pub chess: RatingView,
    /// Chessence.
    pub chessence: RatingView,
    /// The correspondence ratings (days per move), a pool of their own.
    pub correspondence: GameRatingsView,
}

/// A rating per game, in one pool.
#[derive(Serialize, Clone, Copy, Debug, PartialEq, ts_rs::TS)]
pub struct GameRatingsView {
    /// Tensor Chess.
    pub tensor: RatingView,
    /// Chess.
    pub chess: RatingView,
    /// Chessence.
    pub chessence: RatingView,
}

/// `GET /api/me`: the player asking.
#[derive(Serialize, Clone, Debug, PartialEq, ts_rs::TS)]
pub struct MeView {
    /// The player's id (public: it names them in seeks and games).
    pub id: String,
    /// The display name.
    pub name: String,
    /// The account's user name; `null` for a guest.
    pub account: Option<String>,
    /// The player's ratings.
    pub ratings: RatingsView,
    /// Why the operator banned this player; absent when not banned.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub banned: Option<String>,
}

/// `GET /api/players/{username}`: a player's public profile.
#[derive(Serialize, Clone, Debug, PartialEq, ts_rs::TS)]
pub struct ProfileView {
    /// The player's id.
    pub id: String,
    /// The display name.
    pub name: String,
    /// `BOT` for a bot account (played by a program); `null` otherwise.
    pub title: Option<crate::views::Title>,
    /// The account's user name (as in the URL).
    pub username: String,
    /// When the player first came, in milliseconds since the Unix epoch.
    pub created_at: i64,
    /// The player's ratings.
    pub ratings: RatingsView,
    /// Recent finished online games, newest first.
    pub games: Vec<GameSummaryView>,
}

impl From<&RatingRecord> for RatingView {
    fn from(r: &RatingRecord) -> RatingView {
        RatingView {
            rating: (r.rating * 100.0).round() / 100.0,
            rd: (r.rd * 100.0).round() / 100.0,
            volatility: (r.volatility * 1e6).round() / 1e6,
            games: r.games,
        }
    }
}

impl RatingsView {
    /// Every game's rating in each pool (the start for games not played yet).
    pub fn new(stored: &[(RatingPool, RatingRecord)]) -> RatingsView {
        let of = |pool| {
            RatingView::from(
                stored
                    .iter()
                    .find(|(p, _)| *p == pool)
                    .map_or(&START, |(_, r)| r),
            )
        };
        let real_time = RatingPool::real_time;
        let correspondence = RatingPool::correspondence;
        RatingsView {
            tensor: of(real_time(VariantKind::Tensor)),
            chess: of(real_time(VariantKind::Chess)),
            chessence: of(real_time(VariantKind::Chessence)),
            correspondence: GameRatingsView {
                tensor: of(correspondence(VariantKind::Tensor)),
                chess: of(correspondence(VariantKind::Chess)),
                chessence: of(correspondence(VariantKind::Chessence)),
            },
        }
    }
}

impl From<PlayerInfo> for MeView {
    fn from(p: PlayerInfo) -> MeView {
        MeView {
            ratings: RatingsView::new(&p.ratings),
            id: p.record.id,
            name: p.record.name,
            account: p.record.account,
            banned: p.banned,
        }
    }
}

impl From<Profile> for ProfileView {
    fn from(p: Profile) -> ProfileView {
        ProfileView {
            ratings: RatingsView::new(&p.ratings),
            id: p.record.id,
            name: p.record.name,
            title: crate::views::Title::of_bot(p.bot),
            username: p.username,
            created_at: p.created_at,
            games: p.games.into_iter().map(GameSummaryView::from).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pool_never_played_shows_the_start_and_ratings_are_rounded() {
        let played = RatingRecord {
            rating: 1612.345678,
            rd: 80.0049,
            volatility: 0.0600007,
            games: 12,
        };
        let view = RatingsView::new(&[(RatingPool::correspondence(VariantKind::Chess), played)]);
        assert_eq!(view.correspondence.chess.rating, 1612.35);
        assert_eq!(view.correspondence.chess.rd, 80.0);
        assert_eq!(view.correspondence.chess.volatility, 0.060001);
        assert_eq!(view.correspondence.chess.games, 12);
        // The real-time pool of the same game is another pool: not played.
        assert_eq!(view.chess.rating, START.rating);
        assert_eq!(view.chess.games, 0);
        assert_eq!(view.tensor, view.chessence);
    }
}

/// `GET /api/player/autocomplete?term=`: one account found by the start
/// of its name.
#[derive(Serialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct FoundPlayerView {
    /// The user name (`#/player/{username}` is the profile).
    pub username: String,
    /// The display name.
    pub name: String,
    /// `BOT` for a bot account; `null` otherwise.
    pub title: Option<crate::views::Title>,
    /// Whether they have a page open (on any instance).
    pub online: bool,
}

/// One bot account on the Bots page.
#[derive(Serialize, Clone, Debug, PartialEq, ts_rs::TS)]
pub struct ListedBotView {
    /// The user name (`#/player/{username}` is the profile).
    pub username: String,
    /// The display name.
    pub name: String,
    /// Always `BOT`.
    pub title: crate::views::Title,
    /// Whether it has a stream (or a page) open, on any server: a bot
    /// online answers challenges.
    pub online: bool,
    /// Its ratings.
    pub ratings: RatingsView,
}

/// `GET /api/bots`: the bot accounts, those online first.
#[derive(Serialize, Clone, Debug, PartialEq, ts_rs::TS)]
pub struct BotsView {
    /// Online first, each part by user name; at most
    /// [`BOTS_LISTED`](crate::bot::BOTS_LISTED).
    pub bots: Vec<ListedBotView>,
}

impl From<Vec<crate::bot::ListedBot>> for BotsView {
    fn from(bots: Vec<crate::bot::ListedBot>) -> BotsView {
        BotsView {
            bots: bots
                .into_iter()
                .map(|b| ListedBotView {
                    ratings: RatingsView::new(&b.ratings),
                    username: b.username,
                    name: b.name,
                    title: crate::views::Title::Bot,
                    online: b.online,
                })
                .collect(),
        }
    }
}
