//! Follows and an account's preferences (issue 38). An account follows
//! other accounts (lichess's `/api/rel/follow/{username}`); challenges from
//! the accounts a player follows, or has played, always reach them
//! (`challenges.rs`). Preferences: whether challenges from guests arrive.

use crate::error::AppError;
use crate::kind::Kind;
use crate::players::{valid_username, Me, Players};
use crate::round::live::LiveGames;
use crate::store::{GameListQuery, GameMode, Preferences};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// A followed player's latest games looked at for one in progress.
const PLAYING_LOOKS_AT: usize = 5;

/// Accounts one account may follow (as lichess).
pub const MAX_FOLLOWING: usize = 400;

/// An account followed, as `GET /api/rel/following` lists it (one NDJSON
/// line each, lichess's field names).
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct FollowedView {
    /// The user name in lower case (lichess's user id).
    pub id: String,
    /// The user name.
    pub username: String,
    /// The display name.
    pub name: String,
    /// Whether they have a page open (on any instance).
    pub online: bool,
    /// When they were followed (ms).
    pub followed_at: i64,
    /// Their online game in progress, the latest changed, while they are
    /// online (watched at `#/game/{id}`); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub playing: Option<String>,
}

/// `GET` and `POST /api/account/preferences`.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PreferencesView {
    /// Challenges from guests arrive (`false`: refused, `409
    /// account_needed`). Absent in a request: unchanged.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub challenges_from_guests: Option<bool>,
}

impl From<Preferences> for PreferencesView {
    fn from(p: Preferences) -> Self {
        PreferencesView {
            challenges_from_guests: Some(p.challenges_from_guests),
        }
    }
}

/// The follows service.
pub struct Follows {
    live: Arc<LiveGames>,
    players: Arc<Players>,
}

impl Follows {
    /// The service over the store and presence of `live`.
    pub fn new(live: Arc<LiveGames>, players: Arc<Players>) -> Follows {
        Follows { live, players }
    }

    /// Refuses a guest: follows and preferences are an account's.
    async fn need_account(&self, me: &Me, what: &str) -> Result<(), AppError> {
        if self.players.has_account(&me.id).await? {
            Ok(())
        } else {
            Err(AppError::refused(
                Kind::AccountNeeded,
                format!("{what} are for accounts: register or log in"),
            ))
        }
    }

    /// The player of the open account `username`; 404 for none.
    async fn account(&self, username: &str) -> Result<String, AppError> {
        let nobody = || {
            AppError::NotFound(format!(
                "There is no player {}",
                username.chars().take(30).collect::<String>()
            ))
        };
        if !valid_username(username) {
            return Err(nobody());
        }
        let account = self.live.store().account(username).await?;
        account
            .filter(|a| a.closed_at.is_none())
            .map(|a| a.player_id)
            .ok_or_else(nobody)
    }

    /// `me` follows the account `username` (again: nothing changes).
    pub async fn follow(&self, me: &Me, username: &str) -> Result<(), AppError> {
        me.may_act()?;
        self.need_account(me, "Follows").await?;
        let them = self.account(username).await?;
        if them == me.id {
            return Err(AppError::bad("You cannot follow yourself"));
        }
        let store = self.live.store();
        if store.is_following(&me.id, &them).await? {
            return Ok(());
        }
        if store.following(&me.id, MAX_FOLLOWING).await?.len() >= MAX_FOLLOWING {
            return Err(AppError::refused(
                Kind::TooMany,
                format!("You follow {MAX_FOLLOWING} players: unfollow one first"),
            ));
        }
        store.follow(&me.id, &them, self.live.now()).await?;
        Ok(())
    }

    /// `me` stops following the account `username` (not followed: nothing
    /// changes).
    pub async fn unfollow(&self, me: &Me, username: &str) -> Result<(), AppError> {
        self.need_account(me, "Follows").await?;
        let them = self.account(username).await?;
        self.live.store().unfollow(&me.id, &them).await?;
        Ok(())
    }

    /// The accounts `me` follows, the latest followed first, with whether
    /// each has a page open.
    pub async fn following(&self, me: &Me) -> Result<Vec<FollowedView>, AppError> {
        self.need_account(me, "Follows").await?;
        let follows = self.live.store().following(&me.id, MAX_FOLLOWING).await?;
        let presence = self.live.presence();
        let mut out = Vec::with_capacity(follows.len());
        for f in follows {
            let record = self.players.record(&f.followed).await?;
            // Only accounts are followed (a record without one is no account now).
            let Some(username) = record.account else {
                continue;
            };
            let online = presence.is_here(&f.followed);
            let playing = if online {
                self.playing(&f.followed).await?
            } else {
                None
            };
            out.push(FollowedView {
                id: username.to_lowercase(),
                username,
                name: record.name,
                online,
                followed_at: f.at,
                playing,
            });
        }
        Ok(out)
    }

    /// `player`'s online game in progress, the latest changed (among their
    /// few latest games).
    async fn playing(&self, player: &str) -> Result<Option<String>, AppError> {
        let latest = self
            .live
            .store()
            .list_games(&GameListQuery {
                player: player.to_string(),
                limit: PLAYING_LOOKS_AT,
                before: None,
            })
            .await?;
        Ok(latest
            .into_iter()
            .find(|g| g.record.mode == GameMode::Online && g.record.ending.is_none())
            .map(|g| g.record.id))
    }

    /// `me`'s preferences.
    pub async fn preferences(&self, me: &Me) -> Result<PreferencesView, AppError> {
        self.need_account(me, "Preferences").await?;
        Ok(self.live.store().preferences(&me.id).await?.into())
    }

    /// Changes the preferences `change` names; returns them all.
    pub async fn set_preferences(
        &self,
        me: &Me,
        change: PreferencesView,
    ) -> Result<PreferencesView, AppError> {
        me.may_act()?;
        self.need_account(me, "Preferences").await?;
        let store = self.live.store();
        let mut p = store.preferences(&me.id).await?;
        if let Some(v) = change.challenges_from_guests {
            p.challenges_from_guests = v;
        }
        store.set_preferences(&me.id, &p).await?;
        Ok(p.into())
    }
}
