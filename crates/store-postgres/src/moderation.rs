//! Bans, account changes and the account event log in PostgreSQL. Each
//! event is announced to the other servers in its own transaction
//! ([`Notice::Account`]), so that they act on it at once.

use crate::bus::send_notice;
use crate::PgStore;
use async_trait::async_trait;
use deadpool_postgres::GenericClient;
use tensorchess_store::moderation::{
    read_account_event, read_ban, ACCOUNT_EVENT_COLUMNS, BAN_COLUMNS,
};
use tensorchess_store::prelude::*;
use tensorchess_store::{
    AccountChange, AccountEvent, BanRecord, Notice, StoreError, ACCOUNT_EVENTS_KEPT,
};

/// Logs an account event at the database's time, prunes the oldest, and
/// tells the other servers (on `channel`) when the transaction commits.
pub async fn log_event(
    c: &impl GenericClient,
    channel: &str,
    player: &str,
    change: &AccountChange,
) -> Result<(), StoreError> {
    let (kind, token) = change.columns();
    let stmt = c
        .prepare_cached(
            "INSERT INTO account_events (player_id, kind, token_hash, at) \
             VALUES ($1, $2, $3, (extract(epoch FROM clock_timestamp()) * 1000)::BIGINT) \
             RETURNING seq",
        )
        .await?;
    let seq: i64 = c
        .query_one(&stmt, &[&player, &kind, &token])
        .await?
        .try_get(0)?;
    let stmt = c
        .prepare_cached("DELETE FROM account_events WHERE seq <= $1")
        .await?;
    c.execute(&stmt, &[&(seq - ACCOUNT_EVENTS_KEPT)]).await?;
    send_notice(c, channel, &Notice::Account { seq }).await
}

/// Ends one session, logging it if there was one.
pub async fn end_session(
    c: &impl GenericClient,
    channel: &str,
    token_hash: &str,
) -> Result<(), StoreError> {
    let stmt = c
        .prepare_cached("DELETE FROM sessions WHERE token_hash = $1 RETURNING player_id")
        .await?;
    if let Some(row) = c.query_opt(&stmt, &[&token_hash]).await? {
        let player: String = row.try_get(0)?;
        let change = AccountChange::Logout {
            token_hash: token_hash.to_string(),
        };
        log_event(c, channel, &player, &change).await?;
    }
    Ok(())
}

pub async fn end_sessions(
    c: &impl GenericClient,
    channel: &str,
    player: &str,
    keep: Option<&str>,
) -> Result<usize, StoreError> {
    let n = c
        .execute(
            "DELETE FROM sessions WHERE player_id = $1 AND ($2::TEXT IS NULL OR token_hash != $2)",
            &[&player, &keep],
        )
        .await?;
    let change = AccountChange::SessionsEnded {
        keep: keep.map(str::to_string),
    };
    log_event(c, channel, player, &change).await?;
    Ok(n as usize)
}

pub async fn set_password(
    c: &impl GenericClient,
    player: &str,
    hash: &str,
) -> Result<(), StoreError> {
    let n = c
        .execute(
            "UPDATE accounts SET password_hash = $2 WHERE player_id = $1",
            &[&player, &hash],
        )
        .await?;
    if n == 0 {
        return Err(StoreError::Conflict(format!(
            "player {player} has no account"
        )));
    }
    Ok(())
}

pub async fn ban(c: &impl GenericClient, channel: &str, ban: &BanRecord) -> Result<(), StoreError> {
    c.execute(
        "INSERT INTO bans (player_id, reason, banned_at) VALUES ($1, $2, $3) \
         ON CONFLICT (player_id) DO UPDATE SET reason = EXCLUDED.reason, banned_at = EXCLUDED.banned_at",
        &[&ban.player_id, &ban.reason, &ban.banned_at],
    )
    .await?;
    c.execute(
        "DELETE FROM sessions WHERE player_id = $1",
        &[&ban.player_id],
    )
    .await?;
    c.execute("DELETE FROM seeks WHERE player_id = $1", &[&ban.player_id])
        .await?;
    log_event(c, channel, &ban.player_id, &AccountChange::Banned).await
}

pub async fn unban(
    c: &impl GenericClient,
    channel: &str,
    player: &str,
) -> Result<bool, StoreError> {
    let n = c
        .execute("DELETE FROM bans WHERE player_id = $1", &[&player])
        .await?;
    if n > 0 {
        log_event(c, channel, player, &AccountChange::Unbanned).await?;
    }
    Ok(n > 0)
}

pub async fn ban_of(c: &impl GenericClient, player: &str) -> Result<Option<BanRecord>, StoreError> {
    let stmt = c
        .prepare_cached(&format!(
            "SELECT {BAN_COLUMNS} FROM bans WHERE player_id = $1"
        ))
        .await?;
    c.query_opt(&stmt, &[&player])
        .await?
        .as_ref()
        .map(read_ban)
        .transpose()
}

pub async fn bans(c: &impl GenericClient) -> Result<Vec<BanRecord>, StoreError> {
    c.query(
        &format!("SELECT {BAN_COLUMNS} FROM bans ORDER BY banned_at DESC, player_id"),
        &[],
    )
    .await?
    .iter()
    .map(read_ban)
    .collect()
}

pub async fn rename_account(
    c: &impl GenericClient,
    channel: &str,
    username: &str,
    new_username: &str,
) -> Result<Option<String>, StoreError> {
    let Some(row) = c
        .query_opt(
            "SELECT player_id, username FROM accounts WHERE username_key = $1 FOR UPDATE",
            &[&username.to_lowercase()],
        )
        .await?
    else {
        return Ok(None);
    };
    let (player, old): (String, String) = (row.try_get(0)?, row.try_get(1)?);
    let taken = c
        .query_opt(
            "SELECT 1 FROM accounts WHERE username_key = $1 AND player_id != $2",
            &[&new_username.to_lowercase(), &player],
        )
        .await?
        .is_some();
    if taken {
        return Err(StoreError::Conflict(format!(
            "the name {new_username} is taken"
        )));
    }
    let renamed = c
        .execute(
            "UPDATE accounts SET username = $2, username_key = $3, skeleton = $4 \
             WHERE player_id = $1",
            &[
                &player,
                &new_username,
                &new_username.to_lowercase(),
                &tensorchess_store::trust::name_key(new_username),
            ],
        )
        .await;
    match renamed {
        Ok(_) => {}
        Err(e) if super::is_unique_violation(&e) => {
            return Err(StoreError::Conflict(format!(
                "the name {new_username} is taken"
            )))
        }
        Err(e) => return Err(e.into()),
    }
    c.execute(
        "UPDATE players SET name = $3 WHERE id = $1 AND name = $2",
        &[&player, &old, &new_username],
    )
    .await?;
    log_event(c, channel, &player, &AccountChange::Renamed).await?;
    Ok(Some(player))
}

pub async fn close_account(
    c: &impl GenericClient,
    channel: &str,
    username: &str,
    at: i64,
) -> Result<Option<String>, StoreError> {
    let Some(row) = c
        .query_opt(
            "UPDATE accounts SET closed_at = COALESCE(closed_at, $2) WHERE username_key = $1 \
             RETURNING player_id",
            &[&username.to_lowercase(), &at],
        )
        .await?
    else {
        return Ok(None);
    };
    let player: String = row.try_get(0)?;
    c.execute("DELETE FROM sessions WHERE player_id = $1", &[&player])
        .await?;
    c.execute("DELETE FROM seeks WHERE player_id = $1", &[&player])
        .await?;
    // Its programs' tokens go with it.
    c.execute(
        "UPDATE api_tokens SET revoked_at = $2 WHERE player_id = $1 AND revoked_at IS NULL",
        &[&player, &at],
    )
    .await?;
    log_event(c, channel, &player, &AccountChange::Closed).await?;
    Ok(Some(player))
}

pub async fn account_events(
    c: &impl GenericClient,
    after: i64,
    limit: usize,
) -> Result<Vec<AccountEvent>, StoreError> {
    let stmt = c
        .prepare_cached(&format!(
            "SELECT {ACCOUNT_EVENT_COLUMNS} FROM account_events \
             WHERE seq > $1 ORDER BY seq LIMIT $2"
        ))
        .await?;
    let rows = c.query(&stmt, &[&after, &(limit as i64)]).await?;
    let mut events = Vec::with_capacity(rows.len());
    for r in &rows {
        events.extend(read_account_event(r)?);
    }
    Ok(events)
}

pub async fn last_account_event(c: &impl GenericClient) -> Result<i64, StoreError> {
    Ok(c.query_one(
        "SELECT COALESCE(MAX(seq), 0)::BIGINT FROM account_events",
        &[],
    )
    .await?
    .try_get(0)?)
}

#[async_trait]
impl ModerationRepo for PgStore {
    async fn ban(&self, ban: &BanRecord) -> Result<(), StoreError> {
        write_tx!(self, |tx| crate::moderation::ban(&tx, &self.channel, ban)
            .await?)
    }

    async fn unban(&self, player: &str) -> Result<bool, StoreError> {
        write_tx!(self, |tx| unban(&tx, &self.channel, player).await?)
    }

    async fn ban_of(&self, player: &str) -> Result<Option<BanRecord>, StoreError> {
        ban_of(&self.client().await?, player).await
    }

    async fn bans(&self) -> Result<Vec<BanRecord>, StoreError> {
        bans(&self.client().await?).await
    }

    async fn rename_account(
        &self,
        username: &str,
        new_username: &str,
    ) -> Result<Option<String>, StoreError> {
        write_tx!(self, |tx| rename_account(
            &tx,
            &self.channel,
            username,
            new_username
        )
        .await?)
    }

    async fn close_account(&self, username: &str, at: i64) -> Result<Option<String>, StoreError> {
        write_tx!(self, |tx| close_account(&tx, &self.channel, username, at)
            .await?)
    }

    async fn account_events(
        &self,
        after: i64,
        limit: usize,
    ) -> Result<Vec<AccountEvent>, StoreError> {
        account_events(&self.client().await?, after, limit).await
    }

    async fn last_account_event(&self) -> Result<i64, StoreError> {
        last_account_event(&self.client().await?).await
    }
}
