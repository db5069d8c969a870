//! Players: who asks (`identity`), their names, optional accounts
//! (user name and an Argon2id-hashed password), sessions, and their
//! Glicko-2 ratings ([`crate::rating`]).

mod events;
pub mod mutes;
mod names;
mod password;

pub use events::AccountSignal;
pub use names::clean_name;

pub use crate::identity::{Me, ID_COOKIE};
pub use crate::rating as ratings;

use super::client::Client;
use super::clock::Clock;
use super::error::AppError;
use super::ratelimit::{KeyedLimiter, RateLimit};
use super::store::{
    AccountRecord, GameStore, GameSummary, PlayerRecord, RatingPool, RatingRecord, StoreError,
};
use crate::identity::guest_id;
use crate::identity::{new_token, token_hash};
use crate::ids::PlayerId;
use crate::kind::Kind;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

/// A player as they see themselves.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerInfo {
    /// Who they are.
    pub record: PlayerRecord,
    /// Their ratings as stored (pools never played are absent).
    pub ratings: Vec<(RatingPool, RatingRecord)>,
    /// Why the operator banned them, if they did.
    pub banned: Option<String>,
}

/// A player's public profile.
#[derive(Clone, Debug, PartialEq)]
pub struct Profile {
    /// Who they are.
    pub record: PlayerRecord,
    /// The account's user name.
    pub username: String,
    /// When the account was made (ms).
    pub created_at: i64,
    /// A bot account.
    pub bot: bool,
    /// Their ratings as stored (pools never played are absent).
    pub ratings: Vec<(RatingPool, RatingRecord)>,
    /// Recent finished online games, newest first.
    pub games: Vec<GameSummary>,
}

/// The refusal of a rated game to a guest (seeks and challenges).
pub(crate) fn rated_needs_account() -> AppError {
    AppError::refused(
        Kind::AccountNeeded,
        "Rated games are for players with an account: register or log in first",
    )
}

/// The longest display name.
pub const MAX_NAME: usize = 40;
/// How long a token's player is remembered without asking the store.
const CACHE_MS: i64 = 60_000;
/// Tokens remembered before the oldest are forgotten.
const CACHE_SIZE: usize = 50_000;
/// Failed logins to one user name from one client address: a few
/// mistakes, then a pause. Only failures count, and only from that
/// address, so nobody else's guessing can keep an owner out.
const FAILURES_PER_NAME_AND_ADDRESS: RateLimit = RateLimit {
    burst: 5,
    per_second: 0.05,
};
/// Failed logins from one client address, whatever the name: slows one
/// address trying many names.
const FAILURES_PER_ADDRESS: RateLimit = RateLimit {
    burst: 20,
    per_second: 0.2,
};
/// Finished games a profile lists.
const PROFILE_GAMES: usize = 20;

/// What a token stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Resolved {
    /// A stored session of this player.
    Session(String),
    /// A guest known by the token alone (this is their id).
    Guest(String),
    /// A token that no longer counts (its player logged in or registered
    /// with another): treated as no token.
    Retired,
}

impl Resolved {
    fn player(&self) -> Option<&str> {
        match self {
            Resolved::Session(p) | Resolved::Guest(p) => Some(p),
            Resolved::Retired => None,
        }
    }
}

/// A token remembered: what it stands for, its player's ban (the reason),
/// and when it was read.
#[derive(Clone, Debug)]
struct Cached {
    resolved: Resolved,
    banned: Option<String>,
    at: i64,
}

/// Accounts made from one client address: a few for a family or a club,
/// then one an hour (each is a rated identity: puzzles, ratings).
const REGISTRATIONS_PER_ADDRESS: RateLimit = RateLimit {
    burst: 5,
    per_second: 1.0 / 3600.0,
};

/// The players service.
pub struct Players {
    store: Arc<dyn GameStore>,
    clock: Arc<dyn Clock>,
    cache: Mutex<HashMap<String, Cached>>,
    /// Account events are told to the sockets here.
    signals: tokio::sync::broadcast::Sender<AccountSignal>,
    /// The last account event acted on.
    events_seen: tokio::sync::Mutex<i64>,
    registrations: KeyedLimiter<IpAddr>,
    failures_by_address: KeyedLimiter<IpAddr>,
    failures_by_name: KeyedLimiter<(String, IpAddr)>,
    dummy: tokio::sync::OnceCell<String>,
}

/// The name a guest has before choosing one.
pub fn guest_name(id: &str) -> String {
    format!("Guest {}", &id[..id.len().min(4)])
}

/// An account found by the start of its name (the header's search).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FoundPlayer {
    /// The user name.
    pub username: String,
    /// The display name.
    pub name: String,
    /// The player's id.
    pub player: String,
}

/// Whether `name` may be a user name: 3 to 20 letters, digits, `-` or `_`,
/// starting with a letter or digit.
pub fn valid_username(name: &str) -> bool {
    (3..=20).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
        && name.as_bytes()[0].is_ascii_alphanumeric()
}

impl Players {
    /// The players service over `store`, reading time on `clock`.
    pub fn new(store: Arc<dyn GameStore>, clock: Arc<dyn Clock>) -> Players {
        Players {
            store,
            clock,
            cache: Mutex::new(HashMap::new()),
            signals: tokio::sync::broadcast::channel(256).0,
            events_seen: tokio::sync::Mutex::new(0),
            registrations: KeyedLimiter::new(REGISTRATIONS_PER_ADDRESS),
            failures_by_address: KeyedLimiter::new(FAILURES_PER_ADDRESS),
            failures_by_name: KeyedLimiter::new(FAILURES_PER_NAME_AND_ADDRESS),
            dummy: tokio::sync::OnceCell::new(),
        }
    }

    /// Forgets what a token stood for (its session ended).
    fn forget(&self, token_hash: &str) {
        self.cache
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(token_hash);
    }

    /// Forgets every token of `player` (their sessions or ban changed).
    fn forget_player(&self, player: &str) {
        self.cache
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|_, c| c.resolved.player() != Some(player));
    }

    async fn resolve(&self, hash: &str, token: &str) -> Result<Cached, StoreError> {
        let now = self.clock.now_ms();
        if let Some(c) = self
            .cache
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(hash)
        {
            if now - c.at < CACHE_MS {
                return Ok(c.clone());
            }
        }
        let resolved = match self.store.session_player(hash).await? {
            Some(player) => Resolved::Session(player),
            // A guest stays a guest until their player is stored; then only
            // a session counts (so a token seen before a login is worthless).
            None => {
                let id = guest_id(token);
                match self.store.player(&id).await? {
                    None => Resolved::Guest(id),
                    Some(_) => Resolved::Retired,
                }
            }
        };
        let banned = match resolved.player() {
            Some(p) => self.store.ban_of(p).await?.map(|b| b.reason),
            None => None,
        };
        let cached = Cached {
            resolved,
            banned,
            at: now,
        };
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        if cache.len() >= CACHE_SIZE {
            cache.retain(|_, c| now - c.at < CACHE_MS);
            if cache.len() >= CACHE_SIZE {
                cache.clear();
            }
        }
        cache.insert(hash.to_string(), cached.clone());
        Ok(cached)
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
            Ok(Cached {
                resolved: Resolved::Retired,
                ..
            }) => Me::guest(new_token()),
            Ok(Cached {
                resolved, banned, ..
            }) => Me {
                stored: matches!(resolved, Resolved::Session(_)),
                id: PlayerId::new(resolved.player().unwrap_or_default()),
                token_hash: hash,
                new_token: None,
                seat_tokens: Vec::new(),
                client: Client::unknown(),
                banned,
            },
            Err(e) => {
                tracing::error!("identity: {e}");
                Me::guest(new_token())
            }
        }
    }

    /// A player's record (a guest who stored nothing has a default one).
    /// The open accounts whose user name starts with `term` (ignoring
    /// case), at most `limit`, in name order; none for a term no user
    /// name could start with.
    pub async fn search(&self, term: &str, limit: usize) -> Result<Vec<FoundPlayer>, AppError> {
        // Only what could start a user name is looked for.
        let term = term.trim();
        let fits = !term.is_empty()
            && term.len() <= 20
            && term
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
        if !fits {
            return Ok(Vec::new());
        }
        let accounts = self.store.accounts_starting(term, limit).await?;
        let mut found = Vec::with_capacity(accounts.len());
        for a in accounts {
            let record = self.record(&a.player_id).await?;
            found.push(FoundPlayer {
                username: a.username,
                name: record.name,
                player: a.player_id,
            });
        }
        Ok(found)
    }

    /// The player `id` (a fresh guest's record when none is stored).
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

    /// The names others see of `ids`, in their order, read at once (a
    /// tournament's wave).
    pub async fn names_of(&self, ids: &[String]) -> Result<Vec<String>, AppError> {
        let stored: std::collections::HashMap<String, String> = self
            .store
            .players(ids)
            .await?
            .into_iter()
            .map(|p| (p.id, p.name))
            .collect();
        Ok(ids
            .iter()
            .map(|id| stored.get(id).cloned().unwrap_or_else(|| guest_name(id)))
            .collect())
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

    /// The player asking, as they see themselves (`GET /api/me`).
    pub async fn info(&self, me: &Me) -> Result<PlayerInfo, AppError> {
        Ok(PlayerInfo {
            record: self.record(&me.id).await?,
            ratings: self.store.ratings(&me.id).await?,
            banned: me.banned.clone(),
        })
    }

    /// Changes the player's display name.
    pub async fn rename(&self, me: &Me, name: &str) -> Result<PlayerInfo, AppError> {
        let mut record = self.record(&me.id).await?;
        record.name = clean_name(name)?;
        names::check_not_another(self.store.as_ref(), &me.id, &record.name).await?;
        self.store_guest(me, &record).await?;
        self.store.save_player(&record).await?;
        self.info(me).await
    }

    /// Creates an account for the player asking (keeping their games) and
    /// logs them in: returns who they are now and the new session's token.
    pub async fn register(
        &self,
        me: &Me,
        username: &str,
        password: &str,
    ) -> Result<(PlayerInfo, String), AppError> {
        check_credentials(username, password)?;
        if !me.client.exempt {
            self.registrations
                .take(&me.client.key(), self.clock.now_ms())
                .map_err(|retry_ms| AppError::TooManyRequests { retry_ms })?;
        }
        let mut record = self.record(&me.id).await?;
        if record.account.is_some() {
            return Err(AppError::Conflict(
                "You have an account already: log out first to make another".into(),
            ));
        }
        if self.store.account(username).await?.is_some() {
            return Err(AppError::refused(
                Kind::NameTaken,
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
                player_id: me.id.to_string(),
                created_at: self.clock.now_ms(),
                closed_at: None,
            })
            .await
            .map_err(|e| match e {
                StoreError::Conflict(_) => AppError::refused(
                    Kind::NameTaken,
                    format!("The name {username} is taken: choose another"),
                ),
                other => other.into(),
            })?;
        let token = self.new_session(me, &record).await?;
        let me = self.identify(Some(&token)).await;
        Ok((self.info(&me).await?, token))
    }

    /// Logs in as `username`: a guest's games go with them into the
    /// account. Returns who they are now, the new session's token and the
    /// games that moved into the account.
    pub async fn login(
        &self,
        me: &Me,
        username: &str,
        password: &str,
    ) -> Result<(PlayerInfo, String, Vec<String>), AppError> {
        let now = self.clock.now_ms();
        // Failed logins are limited on loopback too (guessing is guessing),
        // per address and per name from that address: a correct password
        // from an address that did not fail is never refused.
        let too_many = |retry_ms| AppError::TooManyRequests { retry_ms };
        let ip = me.client.key();
        let pair = (
            username.to_lowercase().chars().take(64).collect::<String>(),
            ip,
        );
        self.failures_by_address.check(&ip, now).map_err(too_many)?;
        self.failures_by_name.check(&pair, now).map_err(too_many)?;
        let failed = || {
            let _ = self.failures_by_address.take(&ip, now);
            let _ = self.failures_by_name.take(&pair, now);
            AppError::Unauthorized("Wrong user name or password".into())
        };
        let Some(account) = self.store.account(username).await? else {
            // As slow as a real check, so that names cannot be probed by time.
            password::verify(password.to_string(), self.dummy_hash().await).await;
            return Err(failed());
        };
        if !password::verify(password.to_string(), account.password_hash.clone()).await {
            return Err(failed());
        }
        if account.closed_at.is_some() {
            return Err(AppError::refused(
                Kind::AccountClosed,
                format!("The account {} is closed", account.username),
            ));
        }
        if let Some(ban) = self.store.ban_of(&account.player_id).await? {
            return Err(AppError::refused(
                Kind::Banned,
                format!("You are banned from this server: {}", ban.reason),
            ));
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
        Ok((self.info(&me).await?, token, moved))
    }

    /// Ends the session: the browser becomes a new guest. Returns the new
    /// guest's token.
    pub async fn logout(&self, me: &Me) -> Result<String, AppError> {
        if me.stored {
            // Logged: every server forgets the token at once.
            self.store.end_session(&me.token_hash).await?;
        }
        self.forget(&me.token_hash);
        self.catch_up().await;
        let token = new_token();
        self.hand_on_mute(me, &guest_id(&token)).await?;
        Ok(token)
    }

    /// A muted player logging out stays muted as the guest their browser
    /// becomes (`next`), and guests at their address are muted too
    /// ([`crate::chat::muted`]): a logout is no way around a mute.
    async fn hand_on_mute(&self, me: &Me, next: &str) -> Result<(), AppError> {
        let now = self.clock.now_ms();
        if crate::players::mutes::muted(&self.store, me, false, now).await? {
            let until = self.store.chat_muted_until(&me.id).await?;
            self.store.set_chat_mute(next, until).await?;
        }
        Ok(())
    }

    /// Changes the password of `me`'s account (the old one must be right:
    /// failures count as failed logins) and ends every other session.
    pub async fn change_password(&self, me: &Me, old: &str, new: &str) -> Result<(), AppError> {
        let record = self.record(&me.id).await?;
        let Some(username) = record.account else {
            return Err(AppError::refused(
                Kind::AccountNeeded,
                "Only an account has a password: register first",
            ));
        };
        check_credentials(&username, new)?;
        let now = self.clock.now_ms();
        let too_many = |retry_ms| AppError::TooManyRequests { retry_ms };
        let ip = me.client.key();
        let pair = (username.to_lowercase(), ip);
        self.failures_by_address.check(&ip, now).map_err(too_many)?;
        self.failures_by_name.check(&pair, now).map_err(too_many)?;
        let account = self
            .store
            .account(&username)
            .await?
            .ok_or_else(|| AppError::Conflict("The account is gone".into()))?;
        if !password::verify(old.to_string(), account.password_hash).await {
            let _ = self.failures_by_address.take(&ip, now);
            let _ = self.failures_by_name.take(&pair, now);
            return Err(AppError::Unauthorized("The old password is wrong".into()));
        }
        let hash = password::hash(new.to_string())
            .await
            .map_err(|e| AppError::Internal(format!("cannot hash a password: {e}")))?;
        self.store.set_password(&me.id, &hash).await?;
        self.store
            .end_sessions(&me.id, Some(&me.token_hash))
            .await?;
        self.catch_up().await;
        Ok(())
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

    /// A player's online games counted (won, lost, drawn, in progress).
    pub async fn game_counts(&self, id: &str) -> Result<crate::store::GameCounts, AppError> {
        Ok(self.store.game_counts(id).await?)
    }

    /// An account by user name (any case), closed or not.
    pub async fn account(&self, username: &str) -> Result<Option<AccountRecord>, AppError> {
        if !valid_username(username) {
            return Ok(None);
        }
        Ok(self.store.account(username).await?)
    }

    /// A player's public profile, by account name.
    pub async fn profile(&self, username: &str) -> Result<Profile, AppError> {
        let not_found = || AppError::NotFound(format!("There is no player {username}"));
        if !valid_username(username) {
            return Err(not_found());
        }
        let account = self.store.account(username).await?.ok_or_else(not_found)?;
        if account.closed_at.is_some() {
            return Err(AppError::NotFound(format!(
                "The account {} is closed",
                account.username
            )));
        }
        let record = self.record(&account.player_id).await?;
        let recent = self
            .store
            .finished_online_games(&account.player_id, PROFILE_GAMES)
            .await?;
        let bot = self.store.is_bot(&account.player_id).await?;
        Ok(Profile {
            ratings: self.store.ratings(&account.player_id).await?,
            record,
            username: account.username,
            created_at: account.created_at,
            bot,
            games: recent,
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
