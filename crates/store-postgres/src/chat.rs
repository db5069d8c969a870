//! Game chat in PostgreSQL.

use super::row::mark;
use super::trust::lock_keys;
use crate::PgStore;
use async_trait::async_trait;
use deadpool_postgres::GenericClient;
use tensorchess_store::chat::{
    read_message, read_report, ChatMessage, ChatReport, ChatRoom, NewChatMessage, MESSAGE_COLUMNS,
    REPORT_COLUMNS,
};
use tensorchess_store::prelude::*;
use tensorchess_store::trust::{report_counts_sql, NewReport, ReportCaps, Reported};
use tensorchess_store::StoreError;

pub async fn add(c: &impl GenericClient, m: &NewChatMessage) -> Result<ChatMessage, StoreError> {
    let row = c
        .query_one(
            "INSERT INTO chat_messages (game_id, room, author, name, body, at) \
             VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
            &[
                &m.game_id,
                &m.room.as_str(),
                &m.author,
                &m.name,
                &m.text,
                &m.at,
            ],
        )
        .await?;
    Ok(ChatMessage {
        id: row.try_get(0)?,
        message: m.clone(),
    })
}

pub async fn room(
    c: &impl GenericClient,
    game_id: &str,
    room: ChatRoom,
    limit: usize,
) -> Result<Vec<ChatMessage>, StoreError> {
    let rows = c
        .query(
            &format!(
                "SELECT {MESSAGE_COLUMNS} FROM chat_messages WHERE game_id = $1 AND room = $2 \
                 ORDER BY id DESC LIMIT $3"
            ),
            &[&game_id, &room.as_str(), &(limit as i64)],
        )
        .await?;
    let mut out = rows
        .iter()
        .map(|r| read_message(r, 0))
        .collect::<Result<Vec<_>, _>>()?;
    out.reverse();
    Ok(out)
}

pub async fn message(c: &impl GenericClient, id: i64) -> Result<Option<ChatMessage>, StoreError> {
    c.query_opt(
        &format!("SELECT {MESSAGE_COLUMNS} FROM chat_messages WHERE id = $1"),
        &[&id],
    )
    .await?
    .map(|r| read_message(&r, 0))
    .transpose()
}

/// Checks the caps and stores the report in `c`'s transaction, under one
/// advisory lock for every report (reports are few; the queue's bound
/// counts them all).
pub async fn report(
    c: &impl GenericClient,
    r: &NewReport,
    caps: &ReportCaps,
) -> Result<Reported, StoreError> {
    let id = r.message;
    if message(c, id).await?.is_none() {
        return Err(StoreError::Conflict(format!("there is no message {id}")));
    }
    lock_keys(c, &["chat reports".to_string()]).await?;
    let already = c
        .query_opt(
            "SELECT 1 FROM chat_reports WHERE message_id = $1 AND reporter = $2",
            &[&id, &r.reporter],
        )
        .await?
        .is_some();
    if already {
        return Ok(Reported::Already);
    }
    let stmt = c.prepare_cached(&report_counts_sql(mark)).await?;
    let row = c.query_one(&stmt, &[&r.reporter, &r.client]).await?;
    if let Some(cap) = caps.refusal(row.try_get(0)?, row.try_get(1)?, row.try_get(2)?) {
        return Ok(Reported::Refused(cap));
    }
    c.execute(
        "INSERT INTO chat_reports (message_id, reporter, at, client) VALUES ($1, $2, $3, $4)",
        &[&id, &r.reporter, &r.at, &r.client],
    )
    .await?;
    Ok(Reported::Stored)
}

pub async fn open_reports(c: &impl GenericClient) -> Result<Vec<ChatReport>, StoreError> {
    let rows = c
        .query(
            &format!(
                "SELECT {REPORT_COLUMNS} \
                 FROM chat_reports r JOIN chat_messages m ON m.id = r.message_id \
                 WHERE r.closed_at IS NULL ORDER BY r.id"
            ),
            &[],
        )
        .await?;
    rows.iter().map(read_report).collect()
}

pub async fn close_report(c: &impl GenericClient, id: i64, at: i64) -> Result<bool, StoreError> {
    let n = c
        .execute(
            "UPDATE chat_reports SET closed_at = $2 WHERE id = $1 AND closed_at IS NULL",
            &[&id, &at],
        )
        .await?;
    Ok(n == 1)
}

pub async fn set_mute(
    c: &impl GenericClient,
    player: &str,
    until: Option<i64>,
) -> Result<(), StoreError> {
    match until {
        Some(until) => {
            c.execute(
                "INSERT INTO chat_mutes (player_id, until) VALUES ($1, $2) \
                 ON CONFLICT (player_id) DO UPDATE SET until = $2",
                &[&player, &until],
            )
            .await?
        }
        None => {
            c.execute("DELETE FROM chat_mutes WHERE player_id = $1", &[&player])
                .await?
        }
    };
    Ok(())
}

pub async fn muted_until(c: &impl GenericClient, player: &str) -> Result<Option<i64>, StoreError> {
    Ok(c.query_opt(
        "SELECT until FROM chat_mutes WHERE player_id = $1",
        &[&player],
    )
    .await?
    .map(|r| r.try_get(0))
    .transpose()?)
}

pub async fn set_opponent_muted(
    c: &impl GenericClient,
    player: &str,
    game_id: &str,
    muted: bool,
) -> Result<(), StoreError> {
    let sql = if muted {
        "INSERT INTO chat_opponent_mutes (player_id, game_id) VALUES ($1, $2) ON CONFLICT DO NOTHING"
    } else {
        "DELETE FROM chat_opponent_mutes WHERE player_id = $1 AND game_id = $2"
    };
    c.execute(sql, &[&player, &game_id]).await?;
    Ok(())
}

pub async fn opponent_muted(
    c: &impl GenericClient,
    player: &str,
    game_id: &str,
) -> Result<bool, StoreError> {
    Ok(c.query_opt(
        "SELECT 1 FROM chat_opponent_mutes WHERE player_id = $1 AND game_id = $2",
        &[&player, &game_id],
    )
    .await?
    .is_some())
}

#[async_trait]
impl ChatRepo for PgStore {
    async fn add_chat(&self, message: &NewChatMessage) -> Result<ChatMessage, StoreError> {
        add(&self.client().await?, message).await
    }

    async fn chat(
        &self,
        game_id: &str,
        room: ChatRoom,
        limit: usize,
    ) -> Result<Vec<ChatMessage>, StoreError> {
        self::room(&self.client().await?, game_id, room, limit).await
    }

    async fn chat_message(&self, id: i64) -> Result<Option<ChatMessage>, StoreError> {
        message(&self.client().await?, id).await
    }

    async fn report_chat(
        &self,
        report: &tensorchess_store::trust::NewReport,
        caps: &tensorchess_store::trust::ReportCaps,
    ) -> Result<tensorchess_store::trust::Reported, StoreError> {
        write_tx!(self, |tx| crate::chat::report(&tx, report, caps).await?)
    }

    async fn open_reports(&self) -> Result<Vec<ChatReport>, StoreError> {
        open_reports(&self.client().await?).await
    }

    async fn close_report(&self, id: i64, at: i64) -> Result<bool, StoreError> {
        close_report(&self.client().await?, id, at).await
    }

    async fn set_chat_mute(&self, player: &str, until: Option<i64>) -> Result<(), StoreError> {
        set_mute(&self.client().await?, player, until).await
    }

    async fn chat_muted_until(&self, player: &str) -> Result<Option<i64>, StoreError> {
        muted_until(&self.client().await?, player).await
    }

    async fn set_opponent_muted(
        &self,
        player: &str,
        game_id: &str,
        muted: bool,
    ) -> Result<(), StoreError> {
        set_opponent_muted(&self.client().await?, player, game_id, muted).await
    }

    async fn opponent_muted(&self, player: &str, game_id: &str) -> Result<bool, StoreError> {
        opponent_muted(&self.client().await?, player, game_id).await
    }
}
