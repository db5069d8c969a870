//! Bans, account changes and the account event log in SQLite.

use super::super::{AccountChange, AccountEvent, BanRecord, StoreError, ACCOUNT_EVENTS_KEPT};
use rusqlite::{params, Connection, OptionalExtension};

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

fn ban_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<BanRecord> {
    Ok(BanRecord {
        player_id: r.get(0)?,
        reason: r.get(1)?,
        banned_at: r.get(2)?,
    })
}

pub fn ban_of(conn: &Connection, player: &str) -> Result<Option<BanRecord>, StoreError> {
    Ok(conn
        .prepare_cached("SELECT player_id, reason, banned_at FROM bans WHERE player_id = ?1")?
        .query_row(params![player], ban_row)
        .optional()?)
}

pub fn bans(conn: &Connection) -> Result<Vec<BanRecord>, StoreError> {
    Ok(conn
        .prepare_cached(
            "SELECT player_id, reason, banned_at FROM bans ORDER BY banned_at DESC, player_id",
        )?
        .query_map([], ban_row)?
        .collect::<Result<Vec<_>, _>>()?)
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
        crate::trust::name_key(new_username)
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
    let rows = conn
        .prepare_cached(
            "SELECT seq, player_id, kind, token_hash, at FROM account_events \
             WHERE seq > ?1 ORDER BY seq LIMIT ?2",
        )?
        .query_map(params![after, limit as i64], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, Option<String>>(3)?,
                r.get::<_, i64>(4)?,
            ))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows
        .into_iter()
        .filter_map(|(seq, player_id, kind, token, at)| {
            Some(AccountEvent {
                seq,
                player_id,
                change: AccountChange::from_columns(&kind, token)?,
                at,
            })
        })
        .collect())
}

pub fn last_account_event(conn: &Connection) -> Result<i64, StoreError> {
    Ok(conn
        .prepare_cached("SELECT COALESCE(MAX(seq), 0) FROM account_events")?
        .query_row([], |r| r.get(0))?)
}
