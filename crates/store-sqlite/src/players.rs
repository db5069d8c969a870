//! Players, sessions, accounts, ratings and seeks in SQLite.

use super::games::insert_game;
use super::moderation::end_session;
use super::row::{all, insert_row, one};
use crate::moderation;
use crate::SqliteStore;
use async_trait::async_trait;
use rusqlite::{params, Connection, OptionalExtension};
use tensorchess_store::columns::parse_pool;
use tensorchess_store::player::{
    read_account, read_player, read_rating, ACCOUNT_COLUMNS, PLAYER_COLUMNS, RATING_COLUMNS,
};
use tensorchess_store::prelude::*;
use tensorchess_store::rows::Row as _;
use tensorchess_store::rows::{read_seek, seek_values, SEEK_COLUMNS};
use tensorchess_store::{
    AccountRecord, PlayerRecord, RatingPool, RatingRecord, SeekRecord, StoreError, StoredGame,
};

pub fn player(conn: &Connection, id: &str) -> Result<Option<PlayerRecord>, StoreError> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {PLAYER_COLUMNS} FROM players p \
         LEFT JOIN accounts a ON a.player_id = p.id WHERE p.id = ?1"
    ))?;
    one(&mut stmt, params![id], |r| read_player(r))
}

pub fn save_player(conn: &Connection, p: &PlayerRecord) -> Result<(), StoreError> {
    conn.prepare_cached(
        "INSERT INTO players (id, name, created_at) VALUES (?1, ?2, ?3) \
         ON CONFLICT(id) DO UPDATE SET name = ?2",
    )?
    .execute(params![p.id, p.name, p.created_at])?;
    Ok(())
}

pub fn session_player(conn: &Connection, token_hash: &str) -> Result<Option<String>, StoreError> {
    Ok(conn
        .prepare_cached("SELECT player_id FROM sessions WHERE token_hash = ?1")?
        .query_row(params![token_hash], |r| r.get(0))
        .optional()?)
}

pub fn start_session(
    conn: &Connection,
    token_hash: &str,
    player: &PlayerRecord,
    ending: Option<&str>,
) -> Result<(), StoreError> {
    conn.prepare_cached(
        "INSERT INTO players (id, name, created_at) VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING",
    )?
    .execute(params![player.id, player.name, player.created_at])?;
    if let Some(old) = ending {
        end_session(conn, old)?;
    }
    conn.prepare_cached(
        "INSERT INTO sessions (token_hash, player_id, created_at) VALUES (?1, ?2, ?3)",
    )?
    .execute(params![token_hash, player.id, player.created_at])?;
    Ok(())
}

pub fn create_account(conn: &Connection, a: &AccountRecord) -> Result<(), StoreError> {
    let taken: bool = conn
        .prepare_cached("SELECT COUNT(*) FROM accounts WHERE username_key = ?1 OR player_id = ?2")?
        .query_row(params![a.username.to_lowercase(), a.player_id], |r| {
            r.get::<_, i64>(0)
        })?
        > 0;
    if taken {
        return Err(StoreError::Conflict(format!(
            "the name {} is taken, or the player has an account already",
            a.username
        )));
    }
    conn.prepare_cached(
        "INSERT INTO accounts (username, username_key, password_hash, player_id, created_at, \
         skeleton) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?
    .execute(params![
        a.username,
        a.username.to_lowercase(),
        a.password_hash,
        a.player_id,
        a.created_at,
        tensorchess_store::trust::name_key(&a.username)
    ])?;
    Ok(())
}

pub fn account(conn: &Connection, username: &str) -> Result<Option<AccountRecord>, StoreError> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE username_key = ?1"
    ))?;
    one(&mut stmt, params![username.to_lowercase()], |r| {
        read_account(r)
    })
}

/// The open accounts whose name key starts with `prefix` (a range over
/// the key, so no `LIKE` wildcard is read in a name).
pub fn accounts_starting(
    conn: &Connection,
    prefix: &str,
    limit: usize,
) -> Result<Vec<AccountRecord>, StoreError> {
    let (from, to) = tensorchess_store::player::prefix_range(prefix);
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE username_key >= ?1 AND username_key < ?2 \
         AND closed_at IS NULL ORDER BY username_key LIMIT ?3"
    ))?;
    all(&mut stmt, params![from, to, limit as i64], |r| {
        read_account(r)
    })
}

pub fn ratings(
    conn: &Connection,
    player: &str,
) -> Result<Vec<(RatingPool, RatingRecord)>, StoreError> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT variant, {RATING_COLUMNS} FROM ratings WHERE player_id = ?1"
    ))?;
    all(&mut stmt, params![player], |r| {
        Ok((parse_pool(player, &r.text_nn(0)?)?, read_rating(r, 1)?))
    })
}

/// One prepared read a player: SQLite reads in-process, so a query each
/// costs no round trip.
pub fn players(conn: &Connection, ids: &[String]) -> Result<Vec<PlayerRecord>, StoreError> {
    let mut out = Vec::with_capacity(ids.len());
    for id in ids {
        out.extend(player(conn, id)?);
    }
    Ok(out)
}

pub fn pool_ratings(
    conn: &Connection,
    pool: RatingPool,
    ids: &[String],
) -> Result<Vec<(String, RatingRecord)>, StoreError> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {RATING_COLUMNS} FROM ratings WHERE variant = ?1 AND player_id = ?2"
    ))?;
    let key = pool.key();
    let mut out = Vec::with_capacity(ids.len());
    for id in ids {
        if let Some(r) = one(&mut stmt, params![key, id], |r| read_rating(r, 0))? {
            out.push((id.clone(), r));
        }
    }
    Ok(out)
}

pub fn create_seek(conn: &Connection, s: &SeekRecord) -> Result<(), StoreError> {
    let values = seek_values(s);
    insert_row(conn, "seeks", SEEK_COLUMNS, values)?;
    Ok(())
}

pub fn open_seeks(conn: &Connection, now: i64) -> Result<Vec<SeekRecord>, StoreError> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {SEEK_COLUMNS} FROM seeks WHERE expires_at > ?1 ORDER BY created_at, id"
    ))?;
    let mut rows = stmt.query(params![now])?;
    let mut seeks = Vec::new();
    while let Some(row) = rows.next()? {
        seeks.push(read_seek(row, 0)?);
    }
    Ok(seeks)
}

pub fn delete_seek(conn: &Connection, id: &str, player: Option<&str>) -> Result<bool, StoreError> {
    let n = match player {
        Some(p) => conn
            .prepare_cached("DELETE FROM seeks WHERE id = ?1 AND player_id = ?2")?
            .execute(params![id, p])?,
        None => conn
            .prepare_cached("DELETE FROM seeks WHERE id = ?1")?
            .execute(params![id])?,
    };
    Ok(n > 0)
}

pub fn delete_seeks_of(conn: &Connection, player: &str) -> Result<Vec<String>, StoreError> {
    Ok(conn
        .prepare_cached("DELETE FROM seeks WHERE player_id = ?1 RETURNING id")?
        .query_map(params![player], |r| r.get(0))?
        .collect::<Result<Vec<String>, _>>()?)
}

pub fn accept_seek(
    conn: &Connection,
    id: &str,
    now: i64,
    game: &StoredGame,
) -> Result<(), StoreError> {
    let n = conn
        .prepare_cached("DELETE FROM seeks WHERE id = ?1 AND expires_at > ?2")?
        .execute(params![id, now])?;
    if n == 0 {
        return Err(StoreError::Conflict(format!(
            "the seek {id} is no longer open"
        )));
    }
    insert_game(conn, game)
}

/// The online seats a merge moves: of games not over, and never the
/// seat facing the account's own (nobody plays both sides).
const MERGED_SEATS: &str = "SELECT o.game_id FROM online_games o JOIN games g ON g.id = o.game_id \
     WHERE g.end_reason IS NULL AND ( \
       (o.white_player = ?1 AND o.black_player IS NOT ?2) OR \
       (o.black_player = ?1 AND o.white_player IS NOT ?2))";

pub fn merge_player(conn: &Connection, from: &str, into: &str) -> Result<Vec<String>, StoreError> {
    let ids = conn
        .prepare_cached(&format!(
            "SELECT id FROM games WHERE owner = ?1 UNION {MERGED_SEATS}"
        ))?
        .query_map(params![from, into], |r| r.get::<_, String>(0))?
        .collect::<Result<Vec<_>, _>>()?;
    for sql in [
        "UPDATE games SET owner = ?2 WHERE owner = ?1",
        &format!(
            "UPDATE online_games SET white_player = ?2 WHERE white_player = ?1 \
             AND game_id IN ({MERGED_SEATS})"
        ),
        &format!(
            "UPDATE online_games SET black_player = ?2 WHERE black_player = ?1 \
             AND game_id IN ({MERGED_SEATS})"
        ),
        "DELETE FROM seeks WHERE player_id = ?1 AND ?2 IS NOT NULL",
    ] {
        conn.prepare_cached(sql)?.execute(params![from, into])?;
    }
    let mut bump = conn.prepare_cached("UPDATE games SET rev = rev + 1 WHERE id = ?1")?;
    for id in &ids {
        bump.execute(params![id])?;
    }
    Ok(ids)
}

#[async_trait]
impl PlayerRepo for SqliteStore {
    async fn player(&self, id: &str) -> Result<Option<PlayerRecord>, StoreError> {
        let id = id.to_string();
        self.read(move |conn| player(conn, &id)).await
    }

    async fn save_player(&self, player: &PlayerRecord) -> Result<(), StoreError> {
        let player = player.clone();
        self.write(move |conn| save_player(conn, &player)).await
    }

    async fn session_player(&self, token_hash: &str) -> Result<Option<String>, StoreError> {
        let token_hash = token_hash.to_string();
        self.read(move |conn| session_player(conn, &token_hash))
            .await
    }

    async fn start_session(
        &self,
        token_hash: &str,
        player: &PlayerRecord,
        ending: Option<&str>,
    ) -> Result<(), StoreError> {
        let (token_hash, player) = (token_hash.to_string(), player.clone());
        let ending = ending.map(str::to_string);
        self.write(move |conn| start_session(conn, &token_hash, &player, ending.as_deref()))
            .await
    }

    async fn end_session(&self, token_hash: &str) -> Result<(), StoreError> {
        let token_hash = token_hash.to_string();
        self.write(move |conn| moderation::end_session(conn, &token_hash))
            .await
    }

    async fn end_sessions(&self, player: &str, keep: Option<&str>) -> Result<usize, StoreError> {
        let (player, keep) = (player.to_string(), keep.map(str::to_string));
        self.write(move |conn| moderation::end_sessions(conn, &player, keep.as_deref()))
            .await
    }

    async fn create_account(&self, account: &AccountRecord) -> Result<(), StoreError> {
        let account = account.clone();
        self.write(move |conn| create_account(conn, &account)).await
    }

    async fn account(&self, username: &str) -> Result<Option<AccountRecord>, StoreError> {
        let username = username.to_string();
        self.read(move |conn| account(conn, &username)).await
    }

    async fn accounts_starting(
        &self,
        prefix: &str,
        limit: usize,
    ) -> Result<Vec<AccountRecord>, StoreError> {
        let prefix = prefix.to_string();
        self.read(move |conn| accounts_starting(conn, &prefix, limit))
            .await
    }

    async fn set_password(&self, player: &str, password_hash: &str) -> Result<(), StoreError> {
        let (player, hash) = (player.to_string(), password_hash.to_string());
        self.write(move |conn| moderation::set_password(conn, &player, &hash))
            .await
    }

    async fn merge_player(&self, from: &str, into: &str) -> Result<Vec<String>, StoreError> {
        let (from, into) = (from.to_string(), into.to_string());
        self.write(move |conn| merge_player(conn, &from, &into))
            .await
    }

    async fn ratings(&self, player: &str) -> Result<Vec<(RatingPool, RatingRecord)>, StoreError> {
        let player = player.to_string();
        self.read(move |conn| ratings(conn, &player)).await
    }

    async fn players(&self, ids: &[String]) -> Result<Vec<PlayerRecord>, StoreError> {
        let ids = ids.to_vec();
        self.read(move |conn| players(conn, &ids)).await
    }

    async fn pool_ratings(
        &self,
        pool: RatingPool,
        ids: &[String],
    ) -> Result<Vec<(String, RatingRecord)>, StoreError> {
        let ids = ids.to_vec();
        self.read(move |conn| pool_ratings(conn, pool, &ids)).await
    }
}
