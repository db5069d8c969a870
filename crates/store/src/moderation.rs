//! The operator's moderation (bans, renames, closed accounts) and the log
//! of account events every server follows; [`ModerationRepo`] stores them.

use crate::rows::Row;
use crate::StoreError;
use async_trait::async_trait;

/// A player the operator banned (`admin ban`): they may look, not act.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BanRecord {
    /// The player banned ([`crate::PlayerRecord::id`]).
    pub player_id: String,
    /// Shown to the player.
    pub reason: String,
    /// When the ban was made, in milliseconds since the Unix epoch.
    pub banned_at: i64,
}

/// What happened to a player's account or sessions: every server acts on
/// it at once (forgets the tokens it remembers, closes sockets).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AccountChange {
    /// One session ended (a logout, or the guest token a login replaced).
    Logout {
        /// The SHA-256 (hex) of the session's token.
        token_hash: String,
    },
    /// Every session of the player ended but `keep` (a password change
    /// keeps the session that made it).
    SessionsEnded {
        /// The hash of the session that stays, if one does.
        keep: Option<String>,
    },
    /// The operator banned the player.
    Banned,
    /// The operator lifted the player's ban.
    Unbanned,
    /// The account's user name changed.
    Renamed,
    /// The account was closed (its sessions ended).
    Closed,
}

impl AccountChange {
    /// The kind as stored, and the token it names.
    pub fn columns(&self) -> (&'static str, Option<&str>) {
        match self {
            AccountChange::Logout { token_hash } => ("logout", Some(token_hash)),
            AccountChange::SessionsEnded { keep } => ("sessions_ended", keep.as_deref()),
            AccountChange::Banned => ("banned", None),
            AccountChange::Unbanned => ("unbanned", None),
            AccountChange::Renamed => ("renamed", None),
            AccountChange::Closed => ("closed", None),
        }
    }

    /// Reads the stored kind and token back; `None` for a kind this
    /// program does not know (a newer server wrote it).
    pub fn from_columns(kind: &str, token_hash: Option<String>) -> Option<AccountChange> {
        Some(match kind {
            "logout" => AccountChange::Logout {
                token_hash: token_hash?,
            },
            "sessions_ended" => AccountChange::SessionsEnded { keep: token_hash },
            "banned" => AccountChange::Banned,
            "unbanned" => AccountChange::Unbanned,
            "renamed" => AccountChange::Renamed,
            "closed" => AccountChange::Closed,
            _ => return None,
        })
    }
}

/// An [`AccountChange`] as logged, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccountEvent {
    /// Increases with every event.
    pub seq: i64,
    /// The player it happened to.
    pub player_id: String,
    /// What happened.
    pub change: AccountChange,
    /// When it was logged, in milliseconds since the Unix epoch (the database's clock).
    pub at: i64,
}

/// Account events kept in the log (older ones are pruned): far more than
/// any server falls behind between two polls.
pub const ACCOUNT_EVENTS_KEPT: i64 = 10_000;

/// A ban's columns, in [`read_ban`]'s order.
pub const BAN_COLUMNS: &str = "player_id, reason, banned_at";

/// A ban from [`BAN_COLUMNS`].
pub fn read_ban(row: &impl Row) -> Result<BanRecord, StoreError> {
    Ok(BanRecord {
        player_id: row.text_nn(0)?,
        reason: row.text_nn(1)?,
        banned_at: row.int_nn(2)?,
    })
}

/// An account event's columns, in [`read_account_event`]'s order.
pub const ACCOUNT_EVENT_COLUMNS: &str = "seq, player_id, kind, token_hash, at";

/// An account event from [`ACCOUNT_EVENT_COLUMNS`]; `None` for a kind this
/// program does not know (a newer server wrote it: skipped).
pub fn read_account_event(row: &impl Row) -> Result<Option<AccountEvent>, StoreError> {
    let kind = row.text_nn(2)?;
    let Some(change) = AccountChange::from_columns(&kind, row.text(3)?) else {
        return Ok(None);
    };
    Ok(Some(AccountEvent {
        seq: row.int_nn(0)?,
        player_id: row.text_nn(1)?,
        change,
        at: row.int_nn(4)?,
    }))
}

/// Storage for bans, renames, closed accounts and the account events' log.
/// Each method is one atomic, durable write or one read.
#[async_trait]
pub trait ModerationRepo: Send + Sync + 'static {
    /// Bans a player (replacing an earlier ban's reason): their sessions
    /// end and their seeks go, in one transaction, logged.
    async fn ban(&self, ban: &BanRecord) -> Result<(), StoreError>;
    /// Lifts a ban, logged; false if there was none.
    async fn unban(&self, player: &str) -> Result<bool, StoreError>;
    /// The player's ban, if they are banned.
    async fn ban_of(&self, player: &str) -> Result<Option<BanRecord>, StoreError>;
    /// Every ban, newest first.
    async fn bans(&self) -> Result<Vec<BanRecord>, StoreError>;
    /// Renames an account (unique ignoring case: [`StoreError::Conflict`]
    /// if taken); the display name follows if it was the old user name.
    /// Returns the player, or `None` for no such account.
    async fn rename_account(
        &self,
        username: &str,
        new_username: &str,
    ) -> Result<Option<String>, StoreError>;
    /// Closes an account: nobody logs in to it again, its sessions end.
    /// Returns the player, or `None` for no such account.
    async fn close_account(&self, username: &str, at: i64) -> Result<Option<String>, StoreError>;
    /// Account events after `after`, oldest first, at most `limit`.
    async fn account_events(
        &self,
        after: i64,
        limit: usize,
    ) -> Result<Vec<AccountEvent>, StoreError>;
    /// The newest account event's number (0 when none).
    async fn last_account_event(&self) -> Result<i64, StoreError>;
}
