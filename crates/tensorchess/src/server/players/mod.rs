//! Players: who asks (`identity`), their names, optional accounts
//! (user name and an Argon2id-hashed password), sessions, and their
//! Glicko-2 ratings ([`glicko2`], [`ratings`]).

pub mod glicko2;
pub mod identity;
mod password;
pub mod ratings;

pub use identity::{Me, ID_COOKIE};

use super::clock::Clock;
use super::error::AppError;
use super::online::seats::{new_token, token_hash};
use super::ratelimit::{KeyedLimiter, RateLimit};
use super::store::{AccountRecord, GameStore, PlayerRecord, StoreError};
use super::views::{GameSummaryView, MeView, ProfileView};
use identity::guest_id;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

/// The longest display name.
pub const MAX_NAME: usize = 40;
/// How long a token's player is remembered without asking the store.
const CACHE_MS: i64 = 60_000;
/// Tokens remembered before the oldest are forgotten.
const CACHE_SIZE: usize = 50_000;
/// Login attempts per client address: a few mistakes, then a pause.
const LOGINS_PER_ADDRESS: RateLimit = RateLimit {
    burst: 10,
    per_second: 0.2,
};
/// Login attempts per user name, from anywhere: slows password guessing.
const LOGINS_PER_NAME: RateLimit = RateLimit {
    burst: 5,
    per_second: 0.05,
};
/// Finished games a profile lists.
const PROFILE_GAMES: usize = 20;

/// What a token stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Resolved {
    /// A stored session of this player.
    Session(String),
    /// A guest known by the token alone.
    Guest,
    /// A token that no longer counts (its player logged in or registered
    /// with another): treated as no token.
    Retired,
}

/// The players service.
pub struct Players {
    store: Arc<dyn GameStore>,
    clock: Arc<dyn Clock>,
    cache: Mutex<HashMap<String, (Resolved, i64)>>,
    logins_by_address: KeyedLimiter<IpAddr>,
    logins_by_name: KeyedLimiter<String>,
    dummy: tokio::sync::OnceCell<String>,
}

/// The name a guest has before choosing one.
pub fn guest_name(id: &str) -> String {
    format!("Guest {}", &id[..id.len().min(4)])
}

fn valid_username(name: &str) -> bool {
    (3..=20).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
        && name.as_bytes()[0].is_ascii_alphanumeric()
}

/// A display name as stored: trimmed, inner runs of spaces and control
/// characters made one space; at most [`MAX_NAME`] characters.
pub fn clean_name(name: &str) -> Result<String, AppError> {
    let cleaned = name
        .split(|c: char| c.is_whitespace() || c.is_control())
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    if cleaned.is_empty() {
        return Err(AppError::bad("A name cannot be empty"));
    }
    if cleaned.chars().count() > MAX_NAME {
        return Err(AppError::bad(format!(
            "A name has at most {MAX_NAME} characters"
        )));
    }
    Ok(cleaned)
}

impl Players {
    pub fn new(store: Arc<dyn GameStore>, clock: Arc<dyn Clock>) -> Players {
        Players {
            store,
            clock,
            cache: Mutex::new(HashMap::new()),
            logins_by_address: KeyedLimiter::new(LOGINS_PER_ADDRESS),
            logins_by_name: KeyedLimiter::new(LOGINS_PER_NAME),
            dummy: tokio::sync::OnceCell::new(),
        }
    }

    fn forget(&self, token_hash: &str) {
        self.cache
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(token_hash);
    }

    async fn resolve(&self, hash: &str, token: &str) -> Result<Resolved, StoreError> {
        let now = self.clock.now_ms();
        if let Some((r, at)) = self
            .cache
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(hash)
        {
            if now - at < CACHE_MS {
                return Ok(r.clone());
            }
        }
        let resolved = match self.store.session_player(hash).await? {
            Some(player) => Resolved::Session(player),
            // A guest stays a guest until their player is stored; then only
            // a session counts (so a token seen before a login is worthless).
            None => match self.store.player(&guest_id(token)).await? {
                None => Resolved::Guest,
                Some(_) => Resolved::Retired,
            },
        };
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        if cache.len() >= CACHE_SIZE {
            cache.retain(|_, (_, at)| now - *at < CACHE_MS);
            if cache.len() >= CACHE_SIZE {
                cache.clear();
            }
        }
        cache.insert(hash.to_string(), (resolved.clone(), now));
        Ok(resolved)
    }

    /// Who holds `token` (the identity cookie's value); a new guest when
    /// there is none or it no longer counts. A store failure makes a guest
    /// too: the page goes on working, and the error is logged.
    pub async fn identify(&self, token: Option<&str>) -> Me {
        let Some(token) = token.filter(|t| plausible(t)) else {
            return Me::guest(new_token());
        };
        let hash = token_hash(token);
        match self.resolve(&hash, token).await {
            Ok(Resolved::Session(id)) => Me {
                id,
                token_hash: hash,
                stored: true,
                new_token: None,
                seat_tokens: Vec::new(),
                loopback: false,
                client: None,
            },
            Ok(Resolved::Guest) => Me {
                id: guest_id(token),
                token_hash: hash,
                stored: false,
                new_token: None,
                seat_tokens: Vec::new(),
                loopback: false,
                client: None,
            },
            Ok(Resolved::Retired) => Me::guest(new_token()),
            Err(e) => {
                tracing::error!("identity: {e}");
                Me::guest(new_token())
            }
        }
    }

    /// A player's record (a guest who stored nothing has a default one).
    pub async fn record(&self, id: &str) -> Result<PlayerRecord, AppError> {
        Ok(self
            .store
            .player(id)
            .await?
            .unwrap_or_else(|| PlayerRecord {
                id: id.to_string(),
                name: guest_name(id),
                created_at: self.clock.now_ms(),
                account: None,
            }))
    }

    /// The name others see.
    pub async fn name_of(&self, id: &str) -> Result<String, AppError> {
        Ok(self.record(id).await?.name)
    }

    /// Whether the player has an account.
    pub async fn has_account(&self, id: &str) -> Result<bool, AppError> {
        Ok(self
            .store
            .player(id)
            .await?
            .is_some_and(|p| p.account.is_some()))
    }

    /// Stores a guest (with their session) so that something can be kept
    /// for them: their name, an account.
    async fn store_guest(&self, me: &Me, player: &PlayerRecord) -> Result<(), AppError> {
        if !me.stored {
            self.store
                .start_session(&me.token_hash, player, None)
                .await?;
            self.forget(&me.token_hash);
        }
        Ok(())
    }

    /// What `GET /api/me` answers.
    pub async fn me_view(&self, me: &Me) -> Result<MeView, AppError> {
        let record = self.record(&me.id).await?;
        Ok(MeView {
            id: record.id.clone(),
            name: record.name,
            account: record.account,
            ratings: ratings::ratings_view(&self.store.ratings(&me.id).await?),
        })
    }

    /// Changes the player's display name.
    pub async fn rename(&self, me: &Me, name: &str) -> Result<MeView, AppError> {
        let mut record = self.record(&me.id).await?;
        record.name = clean_name(name)?;
        self.store_guest(me, &record).await?;
        self.store.save_player(&record).await?;
        self.me_view(me).await
    }

    /// Creates an account for the player asking (keeping their games) and
    /// logs them in: returns their view and the new session's token.
    pub async fn register(
        &self,
        me: &Me,
        username: &str,
        password: &str,
    ) -> Result<(MeView, String), AppError> {
        check_credentials(username, password)?;
        let mut record = self.record(&me.id).await?;
        if record.account.is_some() {
            return Err(AppError::Conflict(
                "You have an account already: log out first to make another".into(),
            ));
        }
        if self.store.account(username).await?.is_some() {
            return Err(AppError::refused(
                "name_taken",
                format!("The name {username} is taken: choose another"),
            ));
        }
        let hash = password::hash(password.to_string())
            .await
            .map_err(|e| AppError::Internal(format!("cannot hash a password: {e}")))?;
        if record.name == guest_name(&record.id) {
            record.name = username.to_string();
        }
        self.store_guest(me, &record).await?;
        self.store.save_player(&record).await?;
        self.store
            .create_account(&AccountRecord {
                username: username.to_string(),
                password_hash: hash,
                player_id: me.id.clone(),
                created_at: self.clock.now_ms(),
            })
            .await
            .map_err(|e| match e {
                StoreError::Conflict(_) => AppError::refused(
                    "name_taken",
                    format!("The name {username} is taken: choose another"),
                ),
                other => other.into(),
            })?;
        let token = self.new_session(me, &record).await?;
        let me = self.identify(Some(&token)).await;
        Ok((self.me_view(&me).await?, token))
    }

    /// Logs in as `username`: a guest's games go with them into the
    /// account. Returns the account's view and the new session's token.
    pub async fn login(
        &self,
        me: &Me,
        username: &str,
        password: &str,
    ) -> Result<(MeView, String, Vec<String>), AppError> {
        let now = self.clock.now_ms();
        // Login attempts are limited on loopback too: guessing is guessing.
        let too_many = |retry_ms| AppError::TooManyRequests { retry_ms };
        if let Some(ip) = me.client {
            self.logins_by_address.take(&ip, now).map_err(too_many)?;
        }
        let key = username.to_lowercase().chars().take(64).collect::<String>();
        self.logins_by_name.take(&key, now).map_err(too_many)?;
        let wrong = || AppError::Unauthorized("Wrong user name or password".into());
        let Some(account) = self.store.account(username).await? else {
            // As slow as a real check, so that names cannot be probed by time.
            password::verify(password.to_string(), self.dummy_hash().await).await;
            return Err(wrong());
        };
        if !password::verify(password.to_string(), account.password_hash.clone()).await {
            return Err(wrong());
        }
        let mine = self.record(&me.id).await?;
        let mut moved = Vec::new();
        if mine.account.is_none() && me.id != account.player_id {
            moved = self.store.merge_player(&me.id, &account.player_id).await?;
            self.store
                .merge_learning(&me.id, &account.player_id)
                .await?;
            // The guest's token must not stand for anyone any more.
            self.store.save_player(&mine).await?;
        }
        let record = self.record(&account.player_id).await?;
        let token = self.new_session(me, &record).await?;
        let me = self.identify(Some(&token)).await;
        Ok((self.me_view(&me).await?, token, moved))
    }

    /// Ends the session: the browser becomes a new guest. Returns the new
    /// guest's token.
    pub async fn logout(&self, me: &Me) -> Result<String, AppError> {
        if me.stored {
            self.store.end_session(&me.token_hash).await?;
        }
        self.forget(&me.token_hash);
        Ok(new_token())
    }

    /// A hash of no one's password, checked when a user name does not exist.
    async fn dummy_hash(&self) -> String {
        self.dummy
            .get_or_init(|| async { password::hash(new_token()).await.unwrap_or_default() })
            .await
            .clone()
    }

    /// A new session of `player` replacing the one `me` came with.
    async fn new_session(&self, me: &Me, player: &PlayerRecord) -> Result<String, AppError> {
        let token = new_token();
        // Always end the old token's session: a guest stored a moment ago
        // (to keep their account) has one though `me` says it is not stored.
        self.store
            .start_session(&token_hash(&token), player, Some(&me.token_hash))
            .await?;
        self.forget(&me.token_hash);
        Ok(token)
    }

    /// A player's public profile, by account name.
    pub async fn profile(
        &self,
        username: &str,
        games: impl FnOnce(Vec<super::store::GameSummary>) -> Vec<GameSummaryView>,
    ) -> Result<ProfileView, AppError> {
        let not_found = || AppError::NotFound(format!("There is no player {username}"));
        if !valid_username(username) {
            return Err(not_found());
        }
        let account = self.store.account(username).await?.ok_or_else(not_found)?;
        let record = self.record(&account.player_id).await?;
        let recent = self
            .store
            .finished_online_games(&account.player_id, PROFILE_GAMES)
            .await?;
        Ok(ProfileView {
            id: record.id,
            name: record.name,
            username: account.username,
            created_at: account.created_at,
            ratings: ratings::ratings_view(&self.store.ratings(&account.player_id).await?),
            games: games(recent),
        })
    }
}

fn check_credentials(username: &str, password: &str) -> Result<(), AppError> {
    if !valid_username(username) {
        return Err(AppError::bad(
            "A user name has 3 to 20 letters, digits, '-' or '_', and starts with a letter or digit",
        ));
    }
    if !(8..=128).contains(&password.chars().count()) {
        return Err(AppError::bad("A password has 8 to 128 characters"));
    }
    Ok(())
}

/// Whether `s` looks like a token (anything else is not even hashed).
fn plausible(s: &str) -> bool {
    s.len() == 64 && s.bytes().all(|b| b.is_ascii_hexdigit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_cleaned_and_bounded() {
        assert_eq!(clean_name("  Ada \t\n Lovelace ").unwrap(), "Ada Lovelace");
        assert!(clean_name("   ").is_err());
        assert!(clean_name(&"x".repeat(41)).is_err());
        assert_eq!(clean_name(&"ї".repeat(40)).unwrap().chars().count(), 40);
        assert!(valid_username("ada_99") && !valid_username("_ada") && !valid_username("a b"));
        assert!(!valid_username("ab") && !valid_username(&"a".repeat(21)));
        assert!(check_credentials("ada", "short").is_err());
    }
}
