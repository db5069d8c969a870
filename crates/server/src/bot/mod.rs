//! Programs that play: bot accounts, and the Bot and Board APIs' streams
//! (`GET /api/stream/event`, `GET /api/bot/game/stream/{id}`), in the
//! shapes of lichess's Bot API so that its clients need little change
//! (`docs/bots.md` lists the differences). Every move, resignation and
//! abort goes through [`Games::act`](crate::round::games::Games::act) as a page's
//! does; the streams follow the same hub topics as pages (a game's, a
//! player's challenges), which the other servers relay to this one.

mod events;
mod export;
mod game;
pub mod lichess;
mod lines;
pub mod shapes;

pub use events::{event_stream, now_playing, subscribe_events, EventSubscription};
pub use export::{
    ExportedClockView, ExportedGame, ExportedGameView, ExportedPlayersView, ExportedSideView,
    ExportedUserView, PlayerResult,
};
pub use game::{game_full, game_state, game_stream, GameStateLine};
pub use lines::LineStream;

use crate::error::AppError;
use crate::identity::Me;
use crate::kind::Kind;
use crate::players::Players;
use crate::round::live::LiveGames;
use crate::store::{RatingPool, RatingRecord};
use serde::Serialize;
use std::collections::HashSet;
use std::sync::{Arc, Mutex};

/// A keep-alive empty line is sent this often on every stream.
pub const KEEP_ALIVE_MS: i64 = 7_000;
pub use crate::views::BOT_TITLE;

/// A player as the streams show them (lichess's `LightUser` with a rating).
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct BotPlayerView {
    /// The player's id as lichess's API shows users ([`lichess::user_id`]).
    pub id: String,
    /// Their account's user name, else their display name.
    pub name: String,
    /// `BOT` for a bot account (left out for others, as lichess does).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<crate::views::Title>,
    /// Their rating in the game's variant, when rated.
    pub rating: Option<i32>,
}

/// A bot with a stream (or a page) open.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OnlineBot {
    /// The player's id.
    pub id: String,
    /// The account's user name.
    pub username: String,
}

/// A bot account as the Bots page lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct ListedBot {
    /// The player's id.
    pub id: String,
    /// The account's user name.
    pub username: String,
    /// Its display name.
    pub name: String,
    /// Whether it has a stream (or a page) open, on any server.
    pub online: bool,
    /// Its ratings as stored (pools never played are absent).
    pub ratings: Vec<(RatingPool, RatingRecord)>,
}

/// Bot accounts the Bots page lists at most.
pub const BOTS_LISTED: usize = 200;

/// Bot accounts.
pub struct Bots {
    live: Arc<LiveGames>,
    players: Arc<Players>,
    /// Players known to be bots (an account never stops being one).
    known: Mutex<HashSet<String>>,
}

impl Bots {
    /// The service over the games and players.
    pub fn new(live: Arc<LiveGames>, players: Arc<Players>) -> Bots {
        Bots {
            live,
            players,
            known: Mutex::new(HashSet::new()),
        }
    }

    /// Whether `player` is a bot account.
    pub async fn is_bot(&self, player: &str) -> Result<bool, AppError> {
        // Known from a game's seat (and then for good), or an upgrade here.
        if let Some(bot) = self.live.bot_marks().known(player) {
            return Ok(bot);
        }
        if self
            .known
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .contains(player)
        {
            return Ok(true);
        }
        let bot = self.live.store().is_bot(player).await?;
        if bot {
            self.known
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(player.to_string());
        }
        Ok(bot)
    }

    /// `BOT` for a bot account.
    pub async fn title(&self, player: &str) -> Result<Option<crate::views::Title>, AppError> {
        Ok(crate::views::Title::of_bot(self.is_bot(player).await?))
    }

    /// A player as the streams show them.
    pub async fn player_view(
        &self,
        player: &str,
        rating: Option<i32>,
    ) -> Result<BotPlayerView, AppError> {
        let record = self.players.record(player).await?;
        Ok(BotPlayerView {
            id: lichess::user_id(&record.id, record.account.as_deref()),
            name: record.account.unwrap_or(record.name),
            title: self.title(player).await?,
            rating,
        })
    }

    /// Refuses unless `me` is a bot account (the Bot API's routes).
    pub async fn require_bot(&self, me: &Me) -> Result<(), AppError> {
        if self.is_bot(&me.id).await? {
            Ok(())
        } else {
            Err(AppError::refused(
                Kind::BotAccount,
                "This is not a bot account: upgrade it first (POST /api/bot/account/upgrade), or use the Board API",
            ))
        }
    }

    /// Refuses a bot account (the Board API is for people's accounts).
    pub async fn require_person(&self, me: &Me) -> Result<(), AppError> {
        if self.is_bot(&me.id).await? {
            Err(AppError::refused(
                Kind::BotAccount,
                "Bot accounts play through the Bot API (/api/bot/...)",
            ))
        } else {
            Ok(())
        }
    }

    /// Makes `me`'s account a bot account: only an account that has played
    /// no game, for ever, and has nothing open a bot may not keep (seeks,
    /// challenges, tournament entries: refused, saying what to close).
    pub async fn upgrade(&self, me: &Me) -> Result<(), AppError> {
        let store = self.live.store();
        let record = self.players.record(&me.id).await?;
        if record.account.is_none() {
            return Err(AppError::refused(
                Kind::AccountNeeded,
                "Only an account becomes a bot account",
            ));
        }
        if self.is_bot(&me.id).await? {
            return Err(AppError::refused(
                Kind::BotAccount,
                "This account is a bot account already",
            ));
        }
        let games = store
            .list_games(&crate::store::GameListQuery {
                player: me.id.to_string(),
                limit: 1,
                before: None,
            })
            .await?;
        if !games.is_empty() {
            return Err(AppError::refused(
                Kind::BotAccount,
                "Only an account that has played no game becomes a bot account: make a new account for the bot",
            ));
        }
        let open = self.still_open(&me.id).await?;
        if !open.is_empty() {
            return Err(AppError::refused(
                Kind::StillOpen,
                format!(
                    "A bot account plays only through challenges: first close {}",
                    open.join("; ")
                ),
            ));
        }
        store.make_bot(&me.id, self.live.now()).await?;
        self.live.bot_marks().set(&me.id, true);
        self.known
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(me.id.to_string());
        Ok(())
    }

    /// What `player` has open that a bot may not keep (a seek in the
    /// people's lobby, a challenge sent or received as a person, an entry
    /// in a tournament not finished: tournaments are for people), said as
    /// what to close.
    async fn still_open(&self, player: &str) -> Result<Vec<String>, AppError> {
        let store = self.live.store();
        let now = self.live.now();
        let mut open = Vec::new();
        let seeks = store
            .open_seeks(now)
            .await?
            .iter()
            .filter(|s| s.player_id == player)
            .count();
        if seeks > 0 {
            open.push(format!("your seeks in the lobby ({seeks}: cancel them)"));
        }
        for c in store.open_challenges_of(player, now).await? {
            open.push(if c.challenger == player {
                let to = self.players.name_of(&c.challenged).await?;
                format!("your challenge to {to} (cancel it)")
            } else {
                let from = self.players.name_of(&c.challenger).await?;
                format!("the challenge from {from} (decline it)")
            });
        }
        for t in store.entered_tournaments(player).await? {
            open.push(format!(
                "your entry in the tournament \"{}\" (withdraw from it)",
                t.name
            ));
        }
        Ok(open)
    }

    /// Bots with a stream (or a page) open, on any server.
    pub async fn online(&self) -> Result<Vec<OnlineBot>, AppError> {
        let presence = self.live.presence();
        let mut out = Vec::new();
        for id in self.live.store().bots().await? {
            if !presence.is_here(&id) {
                continue;
            }
            let record = self.players.record(&id).await?;
            if let Some(username) = record.account {
                out.push(OnlineBot { id, username });
            }
        }
        Ok(out)
    }

    /// Every open bot account (closed ones left out), for the Bots page:
    /// those online first, each part by user name (ignoring case), at most
    /// [`BOTS_LISTED`].
    pub async fn list(&self) -> Result<Vec<ListedBot>, AppError> {
        let presence = self.live.presence();
        let store = self.live.store();
        let mut out = Vec::new();
        for id in store.bots().await? {
            let record = self.players.record(&id).await?;
            let Some(username) = record.account else {
                continue;
            };
            let closed = self
                .players
                .account(&username)
                .await?
                .is_none_or(|a| a.closed_at.is_some());
            if closed {
                continue;
            }
            out.push(ListedBot {
                online: presence.is_here(&id),
                ratings: store.ratings(&id).await?,
                name: record.name,
                username,
                id,
            });
        }
        out.sort_by(|a, b| {
            b.online
                .cmp(&a.online)
                .then_with(|| a.username.to_lowercase().cmp(&b.username.to_lowercase()))
        });
        out.truncate(BOTS_LISTED);
        Ok(out)
    }
}
