//! API tokens and bot accounts in SQLite.

use super::row::insert_row;
use crate::SqliteStore;
use async_trait::async_trait;
use rusqlite::{params, Connection, OptionalExtension};
use tensorchess_store::prelude::*;
use tensorchess_store::token::{read_token, token_values, TokenRecord, TOKEN_COLUMNS};
use tensorchess_store::StoreError;

pub fn create(conn: &Connection, t: &TokenRecord) -> Result<(), StoreError> {
    let values = token_values(t);
    insert_row(conn, "api_tokens", TOKEN_COLUMNS, values)?;
    Ok(())
}

pub fn by_hash(conn: &Connection, hash: &str) -> Result<Option<TokenRecord>, StoreError> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {TOKEN_COLUMNS} FROM api_tokens WHERE token_hash = ?1"
    ))?;
    let mut rows = stmt.query(params![hash])?;
    match rows.next()? {
        Some(row) => Ok(Some(read_token(row, 0)?)),
        None => Ok(None),
    }
}

pub fn of(conn: &Connection, player: &str) -> Result<Vec<TokenRecord>, StoreError> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {TOKEN_COLUMNS} FROM api_tokens WHERE player_id = ?1 AND revoked_at IS NULL \
         ORDER BY created_at, id"
    ))?;
    let mut rows = stmt.query(params![player])?;
    let mut out = Vec::new();
    while let Some(row) = rows.next()? {
        out.push(read_token(row, 0)?);
    }
    Ok(out)
}

pub fn revoke(conn: &Connection, id: &str, player: &str, at: i64) -> Result<bool, StoreError> {
    let n = conn
        .prepare_cached(
            "UPDATE api_tokens SET revoked_at = ?3 \
             WHERE id = ?1 AND player_id = ?2 AND revoked_at IS NULL",
        )?
        .execute(params![id, player, at])?;
    Ok(n == 1)
}

pub fn touch(conn: &Connection, id: &str, at: i64) -> Result<(), StoreError> {
    conn.prepare_cached("UPDATE api_tokens SET last_used_at = ?2 WHERE id = ?1")?
        .execute(params![id, at])?;
    Ok(())
}

pub fn make_bot(conn: &Connection, player: &str, at: i64) -> Result<bool, StoreError> {
    let n = conn
        .prepare_cached(
            "INSERT INTO bots (player_id, since) VALUES (?1, ?2) ON CONFLICT DO NOTHING",
        )?
        .execute(params![player, at])?;
    Ok(n == 1)
}

pub fn is_bot(conn: &Connection, player: &str) -> Result<bool, StoreError> {
    Ok(conn
        .prepare_cached("SELECT 1 FROM bots WHERE player_id = ?1")?
        .query_row(params![player], |_| Ok(()))
        .optional()?
        .is_some())
}

pub fn bots(conn: &Connection) -> Result<Vec<String>, StoreError> {
    let mut stmt = conn.prepare_cached("SELECT player_id FROM bots ORDER BY since, player_id")?;
    let rows = stmt.query_map([], |r| r.get::<_, String>(0))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

#[async_trait]
impl TokenRepo for SqliteStore {
    async fn create_token(&self, token: &TokenRecord) -> Result<(), StoreError> {
        let token = token.clone();
        self.write(move |conn| create(conn, &token)).await
    }

    async fn token_by_hash(&self, hash: &str) -> Result<Option<TokenRecord>, StoreError> {
        let hash = hash.to_string();
        self.read(move |conn| by_hash(conn, &hash)).await
    }

    async fn tokens_of(&self, player: &str) -> Result<Vec<TokenRecord>, StoreError> {
        let player = player.to_string();
        self.read(move |conn| of(conn, &player)).await
    }

    async fn revoke_token(&self, id: &str, player: &str, at: i64) -> Result<bool, StoreError> {
        let (id, player) = (id.to_string(), player.to_string());
        self.write(move |conn| revoke(conn, &id, &player, at)).await
    }

    async fn touch_token(&self, id: &str, at: i64) -> Result<(), StoreError> {
        let id = id.to_string();
        self.write(move |conn| touch(conn, &id, at)).await
    }

    async fn make_bot(&self, player: &str, at: i64) -> Result<bool, StoreError> {
        let player = player.to_string();
        self.write(move |conn| make_bot(conn, &player, at)).await
    }

    async fn is_bot(&self, player: &str) -> Result<bool, StoreError> {
        let player = player.to_string();
        self.read(move |conn| is_bot(conn, &player)).await
    }

    async fn bots(&self) -> Result<Vec<String>, StoreError> {
        self.read(bots).await
    }
}
