//! Game chat in PostgreSQL.

use super::row::mark;
use super::trust::lock_keys;
use crate::chat::{ChatMessage, ChatReport, ChatRoom, NewChatMessage};
use crate::trust::{report_counts_sql, NewReport, ReportCaps, Reported};
use crate::StoreError;
use deadpool_postgres::GenericClient;
use tokio_postgres::Row;

const MESSAGE_COLUMNS: &str = "id, game_id, room, author, name, body, at";

fn read_message(r: &Row, at: usize) -> Result<ChatMessage, StoreError> {
    let room: String = r.try_get(at + 2)?;
    Ok(ChatMessage {
        id: r.try_get(at)?,
        message: NewChatMessage {
            game_id: r.try_get(at + 1)?,
            // Only the two rooms are ever written.
            room: ChatRoom::parse(&room).unwrap_or(ChatRoom::Spectators),
            author: r.try_get(at + 3)?,
            name: r.try_get(at + 4)?,
            text: r.try_get(at + 5)?,
            at: r.try_get(at + 6)?,
        },
    })
}

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
            "SELECT r.id, r.reporter, r.at, m.id, m.game_id, m.room, m.author, m.name, m.body, m.at \
             FROM chat_reports r JOIN chat_messages m ON m.id = r.message_id \
             WHERE r.closed_at IS NULL ORDER BY r.id",
            &[],
        )
        .await?;
    rows.iter()
        .map(|r| {
            Ok(ChatReport {
                id: r.try_get(0)?,
                reporter: r.try_get(1)?,
                at: r.try_get(2)?,
                message: read_message(r, 3)?,
            })
        })
        .collect()
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
