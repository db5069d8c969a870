//! Bans, account changes and the account event log in SQLite.

use crate::row::{all, one};
use crate::SqliteStore;
use async_trait::async_trait;
use rusqlite::{params, Connection, OptionalExtension};
use tensorchess_store::moderation::{
    read_account_event, read_ban, ACCOUNT_EVENT_COLUMNS, BAN_COLUMNS,
};
use tensorchess_store::prelude::*;
use tensorchess_store::{AccountChange, AccountEvent, BanRecord, StoreError, ACCOUNT_EVENTS_KEPT};

/// Logs an account event at the database's time (and prunes the oldest).
pub fn log_event(
    conn: &Connection,
    player: &str,
    change: &AccountChange,
) -> Result<(), StoreError> {
    let (kind, token) = change.columns();
    conn.prepare_cached(
        "INSERT INTO account_events (player_id, kind, token_hash, at) \
         VALUES (?1, ?2, ?3, CAST(unixepoch('subsec') * 1000 AS INTEGER))",
    )?
    .execute(params![player, kind, token])?;
    let seq = conn.last_insert_rowid();
    conn.prepare_cached("DELETE FROM account_events WHERE seq <= ?1")?
        .execute(params![seq - ACCOUNT_EVENTS_KEPT])?;
    Ok(())
}

/// Ends one session, logging it if there was one.
pub fn end_session(conn: &Connection, token_hash: &str) -> Result<(), StoreError> {
    let player: Option<String> = conn
        .prepare_cached("DELETE FROM sessions WHERE token_hash = ?1 RETURNING player_id")?
        .query_row(params![token_hash], |r| r.get(0))
        .optional()?;
    if let Some(player) = player {
        let change = AccountChange::Logout {
            token_hash: token_hash.to_string(),
        };
        log_event(conn, &player, &change)?;
    }
    Ok(())
}

pub fn end_sessions(
    conn: &Connection,
    player: &str,
    keep: Option<&str>,
) -> Result<usize, StoreError> {
    let n = conn
        .prepare_cached(
            "DELETE FROM sessions WHERE player_id = ?1 AND (?2 IS NULL OR token_hash != ?2)",
        )?
        .execute(params![player, keep])?;
    let change = AccountChange::SessionsEnded {
        keep: keep.map(str::to_string),
    };
    log_event(conn, player, &change)?;
    Ok(n)
}

pub fn set_password(conn: &Connection, player: &str, hash: &str) -> Result<(), StoreError> {
    let n = conn
        .prepare_cached("UPDATE accounts SET password_hash = ?2 WHERE player_id = ?1")?
        .execute(params![player, hash])?;
    if n == 0 {
        return Err(StoreError::Conflict(format!(
            "player {player} has no account"
        )));
    }
    Ok(())
}

pub fn ban(conn: &Connection, ban: &BanRecord) -> Result<(), StoreError> {
    conn.prepare_cached(
        "INSERT INTO bans (player_id, reason, banned_at) VALUES (?1, ?2, ?3) \
         ON CONFLICT(player_id) DO UPDATE SET reason = ?2, banned_at = ?3",
    )?
    .execute(params![ban.player_id, ban.reason, ban.banned_at])?;
    conn.prepare_cached("DELETE FROM sessions WHERE player_id = ?1")?
        .execute(params![ban.player_id])?;
    conn.prepare_cached("DELETE FROM seeks WHERE player_id = ?1")?
        .execute(params![ban.player_id])?;
    log_event(conn, &ban.player_id, &AccountChange::Banned)
}

pub fn unban(conn: &Connection, player: &str) -> Result<bool, StoreError> {
    let n = conn
        .prepare_cached("DELETE FROM bans WHERE player_id = ?1")?
        .execute(params![player])?;
    if n > 0 {
        log_event(conn, player, &AccountChange::Unbanned)?;
    }
    Ok(n > 0)
}

pub fn ban_of(conn: &Connection, player: &str) -> Result<Option<BanRecord>, StoreError> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {BAN_COLUMNS} FROM bans WHERE player_id = ?1"
    ))?;
    one(&mut stmt, params![player], |r| read_ban(r))
}

pub fn bans(conn: &Connection) -> Result<Vec<BanRecord>, StoreError> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {BAN_COLUMNS} FROM bans ORDER BY banned_at DESC, player_id"
    ))?;
    all(&mut stmt, [], |r| read_ban(r))
}

pub fn rename_account(
    conn: &Connection,
    username: &str,
    new_username: &str,
) -> Result<Option<String>, StoreError> {
    let Some((player, old)): Option<(String, String)> = conn
        .prepare_cached("SELECT player_id, username FROM accounts WHERE username_key = ?1")?
        .query_row(params![username.to_lowercase()], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .optional()?
    else {
        return Ok(None);
    };
    let taken: i64 = conn
        .prepare_cached(
            "SELECT COUNT(*) FROM accounts WHERE username_key = ?1 AND player_id != ?2",
        )?
        .query_row(params![new_username.to_lowercase(), player], |r| r.get(0))?;
    if taken > 0 {
        return Err(StoreError::Conflict(format!(
            "the name {new_username} is taken"
        )));
    }
    conn.prepare_cached(
        "UPDATE accounts SET username = ?2, username_key = ?3, skeleton = ?4 WHERE player_id = ?1",
    )?
    .execute(params![
        player,
        new_username,
        new_username.to_lowercase(),
        tensorchess_store::trust::name_key(new_username)
    ])?;
    conn.prepare_cached("UPDATE players SET name = ?3 WHERE id = ?1 AND name = ?2")?
        .execute(params![player, old, new_username])?;
    log_event(conn, &player, &AccountChange::Renamed)?;
    Ok(Some(player))
}

pub fn close_account(
    conn: &Connection,
    username: &str,
    at: i64,
) -> Result<Option<String>, StoreError> {
    let player: Option<String> = conn
        .prepare_cached(
            "UPDATE accounts SET closed_at = COALESCE(closed_at, ?2) WHERE username_key = ?1 \
             RETURNING player_id",
        )?
        .query_row(params![username.to_lowercase(), at], |r| r.get(0))
        .optional()?;
    if let Some(player) = &player {
        conn.prepare_cached("DELETE FROM sessions WHERE player_id = ?1")?
            .execute(params![player])?;
        conn.prepare_cached("DELETE FROM seeks WHERE player_id = ?1")?
            .execute(params![player])?;
        // Its programs' tokens go with it.
        conn.prepare_cached(
            "UPDATE api_tokens SET revoked_at = ?2 WHERE player_id = ?1 AND revoked_at IS NULL",
        )?
        .execute(params![player, at])?;
        log_event(conn, player, &AccountChange::Closed)?;
    }
    Ok(player)
}

pub fn account_events(
    conn: &Connection,
    after: i64,
    limit: usize,
) -> Result<Vec<AccountEvent>, StoreError> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {ACCOUNT_EVENT_COLUMNS} FROM account_events WHERE seq > ?1 ORDER BY seq LIMIT ?2"
    ))?;
    let events = all(&mut stmt, params![after, limit as i64], |r| {
        read_account_event(r)
    })?;
    Ok(events.into_iter().flatten().collect())
}

pub fn last_account_event(conn: &Connection) -> Result<i64, StoreError> {
    Ok(conn
        .prepare_cached("SELECT COALESCE(MAX(seq), 0) FROM account_events")?
        .query_row([], |r| r.get(0))?)
}

#[async_trait]
impl ModerationRepo for SqliteStore {
    async fn ban(&self, ban: &BanRecord) -> Result<(), StoreError> {
        let ban = ban.clone();
        self.write(move |conn| self::ban(conn, &ban)).await
    }

    async fn unban(&self, player: &str) -> Result<bool, StoreError> {
        let player = player.to_string();
        self.write(move |conn| unban(conn, &player)).await
    }

    async fn ban_of(&self, player: &str) -> Result<Option<BanRecord>, StoreError> {
        let player = player.to_string();
        self.read(move |conn| ban_of(conn, &player)).await
    }

    async fn bans(&self) -> Result<Vec<BanRecord>, StoreError> {
        self.read(bans).await
    }

    async fn rename_account(
        &self,
        username: &str,
        new_username: &str,
    ) -> Result<Option<String>, StoreError> {
        let (old, new) = (username.to_string(), new_username.to_string());
        self.write(move |conn| rename_account(conn, &old, &new))
            .await
    }

    async fn close_account(&self, username: &str, at: i64) -> Result<Option<String>, StoreError> {
        let username = username.to_string();
        self.write(move |conn| close_account(conn, &username, at))
            .await
    }

    async fn account_events(
        &self,
        after: i64,
        limit: usize,
    ) -> Result<Vec<AccountEvent>, StoreError> {
        self.read(move |conn| account_events(conn, after, limit))
            .await
    }

    async fn last_account_event(&self) -> Result<i64, StoreError> {
        self.read(last_account_event).await
    }
}
