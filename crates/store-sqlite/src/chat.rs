//! Game chat in SQLite.

use super::row::mark;
use super::row::{all, one};
use crate::SqliteStore;
use async_trait::async_trait;
use rusqlite::{params, Connection, OptionalExtension};
use tensorchess_store::chat::{
    read_message, read_report, ChatMessage, ChatReport, ChatRoom, NewChatMessage, MESSAGE_COLUMNS,
    REPORT_COLUMNS,
};
use tensorchess_store::prelude::*;
use tensorchess_store::trust::{report_counts_sql, NewReport, ReportCaps, Reported};
use tensorchess_store::StoreError;

pub fn add(conn: &Connection, m: &NewChatMessage) -> Result<ChatMessage, StoreError> {
    conn.prepare_cached(
        "INSERT INTO chat_messages (game_id, room, author, name, body, at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?
    .execute(params![
        m.game_id,
        m.room.as_str(),
        m.author,
        m.name,
        m.text,
        m.at
    ])?;
    Ok(ChatMessage {
        id: conn.last_insert_rowid(),
        message: m.clone(),
    })
}

pub fn room(
    conn: &Connection,
    game_id: &str,
    room: ChatRoom,
    limit: usize,
) -> Result<Vec<ChatMessage>, StoreError> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {MESSAGE_COLUMNS} FROM chat_messages WHERE game_id = ?1 AND room = ?2 \
         ORDER BY id DESC LIMIT ?3"
    ))?;
    let mut rows = all(
        &mut stmt,
        params![game_id, room.as_str(), limit as i64],
        |r| read_message(r, 0),
    )?;
    rows.reverse();
    Ok(rows)
}

pub fn message(conn: &Connection, id: i64) -> Result<Option<ChatMessage>, StoreError> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {MESSAGE_COLUMNS} FROM chat_messages WHERE id = ?1"
    ))?;
    one(&mut stmt, params![id], |r| read_message(r, 0))
}

/// Checks the caps and stores the report in one write (the writer
/// thread's).
pub fn report(conn: &Connection, r: &NewReport, caps: &ReportCaps) -> Result<Reported, StoreError> {
    let id = r.message;
    if message(conn, id)?.is_none() {
        return Err(StoreError::Conflict(format!("there is no message {id}")));
    }
    let already = conn
        .prepare_cached("SELECT 1 FROM chat_reports WHERE message_id = ?1 AND reporter = ?2")?
        .query_row(params![id, r.reporter], |_| Ok(()))
        .optional()?
        .is_some();
    if already {
        return Ok(Reported::Already);
    }
    let (mine, from_address, in_all): (i64, i64, i64) = conn
        .prepare_cached(&report_counts_sql(mark))?
        .query_row(params![r.reporter, r.client], |row| {
            Ok((row.get(0)?, row.get(1)?, row.get(2)?))
        })?;
    if let Some(cap) = caps.refusal(mine, from_address, in_all) {
        return Ok(Reported::Refused(cap));
    }
    conn.prepare_cached(
        "INSERT INTO chat_reports (message_id, reporter, at, client) VALUES (?1, ?2, ?3, ?4)",
    )?
    .execute(params![id, r.reporter, r.at, r.client])?;
    Ok(Reported::Stored)
}

pub fn open_reports(conn: &Connection) -> Result<Vec<ChatReport>, StoreError> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {REPORT_COLUMNS} \
         FROM chat_reports r JOIN chat_messages m ON m.id = r.message_id \
         WHERE r.closed_at IS NULL ORDER BY r.id"
    ))?;
    all(&mut stmt, [], |r| read_report(r))
}

pub fn close_report(conn: &Connection, id: i64, at: i64) -> Result<bool, StoreError> {
    let n = conn
        .prepare_cached(
            "UPDATE chat_reports SET closed_at = ?2 WHERE id = ?1 AND closed_at IS NULL",
        )?
        .execute(params![id, at])?;
    Ok(n == 1)
}

pub fn set_mute(conn: &Connection, player: &str, until: Option<i64>) -> Result<(), StoreError> {
    match until {
        Some(until) => conn
            .prepare_cached(
                "INSERT INTO chat_mutes (player_id, until) VALUES (?1, ?2) \
                 ON CONFLICT (player_id) DO UPDATE SET until = ?2",
            )?
            .execute(params![player, until])?,
        None => conn
            .prepare_cached("DELETE FROM chat_mutes WHERE player_id = ?1")?
            .execute(params![player])?,
    };
    Ok(())
}

pub fn muted_until(conn: &Connection, player: &str) -> Result<Option<i64>, StoreError> {
    Ok(conn
        .prepare_cached("SELECT until FROM chat_mutes WHERE player_id = ?1")?
        .query_row(params![player], |r| r.get(0))
        .optional()?)
}

pub fn set_opponent_muted(
    conn: &Connection,
    player: &str,
    game_id: &str,
    muted: bool,
) -> Result<(), StoreError> {
    let sql = if muted {
        "INSERT INTO chat_opponent_mutes (player_id, game_id) VALUES (?1, ?2) ON CONFLICT DO NOTHING"
    } else {
        "DELETE FROM chat_opponent_mutes WHERE player_id = ?1 AND game_id = ?2"
    };
    conn.prepare_cached(sql)?
        .execute(params![player, game_id])?;
    Ok(())
}

pub fn opponent_muted(conn: &Connection, player: &str, game_id: &str) -> Result<bool, StoreError> {
    Ok(conn
        .prepare_cached("SELECT 1 FROM chat_opponent_mutes WHERE player_id = ?1 AND game_id = ?2")?
        .query_row(params![player, game_id], |_| Ok(()))
        .optional()?
        .is_some())
}

#[async_trait]
impl ChatRepo for SqliteStore {
    async fn add_chat(&self, message: &NewChatMessage) -> Result<ChatMessage, StoreError> {
        let message = message.clone();
        self.write(move |conn| add(conn, &message)).await
    }

    async fn chat(
        &self,
        game_id: &str,
        room: ChatRoom,
        limit: usize,
    ) -> Result<Vec<ChatMessage>, StoreError> {
        let game_id = game_id.to_string();
        self.read(move |conn| self::room(conn, &game_id, room, limit))
            .await
    }

    async fn chat_message(&self, id: i64) -> Result<Option<ChatMessage>, StoreError> {
        self.read(move |conn| message(conn, id)).await
    }

    async fn report_chat(
        &self,
        report: &tensorchess_store::trust::NewReport,
        caps: &tensorchess_store::trust::ReportCaps,
    ) -> Result<tensorchess_store::trust::Reported, StoreError> {
        let (report, caps) = (report.clone(), caps.clone());
        self.write(move |conn| self::report(conn, &report, &caps))
            .await
    }

    async fn open_reports(&self) -> Result<Vec<ChatReport>, StoreError> {
        self.read(open_reports).await
    }

    async fn close_report(&self, id: i64, at: i64) -> Result<bool, StoreError> {
        self.write(move |conn| close_report(conn, id, at)).await
    }

    async fn set_chat_mute(&self, player: &str, until: Option<i64>) -> Result<(), StoreError> {
        let player = player.to_string();
        self.write(move |conn| set_mute(conn, &player, until)).await
    }

    async fn chat_muted_until(&self, player: &str) -> Result<Option<i64>, StoreError> {
        let player = player.to_string();
        self.read(move |conn| muted_until(conn, &player)).await
    }

    async fn set_opponent_muted(
        &self,
        player: &str,
        game_id: &str,
        muted: bool,
    ) -> Result<(), StoreError> {
        let (player, game_id) = (player.to_string(), game_id.to_string());
        self.write(move |conn| set_opponent_muted(conn, &player, &game_id, muted))
            .await
    }

    async fn opponent_muted(&self, player: &str, game_id: &str) -> Result<bool, StoreError> {
        let (player, game_id) = (player.to_string(), game_id.to_string());
        self.read(move |conn| opponent_muted(conn, &player, &game_id))
            .await
    }
}
