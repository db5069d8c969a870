//! Challenges in SQLite.

use super::games::insert_game;
use super::row::{insert_row, mark};
use super::SqliteStore;
use crate::players;
use async_trait::async_trait;
use rusqlite::{params, Connection};
use tensorchess_store::challenge::{
    challenge_values, read_challenge, ChallengeRecord, ChallengeState, CHALLENGE_COLUMNS,
};
use tensorchess_store::prelude::*;
use tensorchess_store::rows::Value;
use tensorchess_store::trust::{challenge_counts_sql, Cap, ChallengeCaps, ChallengeCounts};
use tensorchess_store::SeekRecord;
use tensorchess_store::{StoreError, StoredGame};

pub fn create(conn: &Connection, c: &ChallengeRecord) -> Result<(), StoreError> {
    let values = challenge_values(c);
    insert_row(conn, "challenges", CHALLENGE_COLUMNS, values)?;
    Ok(())
}

/// Counts and inserts in one write: the writer thread runs nothing else
/// in between.
fn create_capped(
    conn: &Connection,
    c: &ChallengeRecord,
    caps: &ChallengeCaps,
) -> Result<Option<Cap>, StoreError> {
    let since = caps.stranger.as_ref().map_or(caps.now, |s| s.since);
    let n = conn
        .prepare_cached(&challenge_counts_sql(mark))?
        .query_row(
            params![c.challenger, c.challenged, c.client, caps.now, since],
            |r| {
                Ok(ChallengeCounts {
                    per_pair: r.get(0)?,
                    made: r.get(1)?,
                    from_address: r.get(2)?,
                    player_to_receiver: r.get(3)?,
                    address_to_receiver: r.get(4)?,
                    received: r.get(5)?,
                })
            },
        )?;
    if let Some(cap) = caps.refusal(&n) {
        return Ok(Some(cap));
    }
    let mut values = challenge_values(c);
    values.push(Value::Bool(caps.stranger.is_some()));
    insert_row(
        conn,
        "challenges",
        &format!("{CHALLENGE_COLUMNS}, stranger"),
        values,
    )?;
    Ok(None)
}

fn select(
    conn: &Connection,
    filter: &str,
    args: impl rusqlite::Params,
) -> Result<Vec<ChallengeRecord>, StoreError> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE {filter} ORDER BY created_at, id"
    ))?;
    let mut rows = stmt.query(args)?;
    let mut out = Vec::new();
    while let Some(row) = rows.next()? {
        out.push(read_challenge(row, 0)?);
    }
    Ok(out)
}

pub fn get(conn: &Connection, id: &str) -> Result<Option<ChallengeRecord>, StoreError> {
    Ok(select(conn, "id = ?1", params![id])?.pop())
}

pub fn open_of(
    conn: &Connection,
    player: &str,
    now: i64,
) -> Result<Vec<ChallengeRecord>, StoreError> {
    select(
        conn,
        "state = 'open' AND expires_at > ?2 AND (challenger = ?1 OR challenged = ?1)",
        params![player, now],
    )
}

pub fn open_from(conn: &Connection, client: &str, now: i64) -> Result<usize, StoreError> {
    let n: i64 = conn
        .prepare_cached(
            "SELECT COUNT(*) FROM challenges WHERE client = ?1 AND state = 'open' AND expires_at > ?2",
        )?
        .query_row(params![client, now], |r| r.get(0))?;
    Ok(n.max(0) as usize)
}

pub fn open(conn: &Connection, now: i64) -> Result<Vec<ChallengeRecord>, StoreError> {
    select(conn, "state = 'open' AND expires_at > ?1", params![now])
}

pub fn accept(conn: &Connection, id: &str, now: i64, game: &StoredGame) -> Result<(), StoreError> {
    let n = conn
        .prepare_cached(
            "UPDATE challenges SET state = 'accepted', game_id = ?3 \
             WHERE id = ?1 AND state = 'open' AND expires_at > ?2",
        )?
        .execute(params![id, now, game.record.id])?;
    if n == 0 {
        return Err(StoreError::Conflict(format!(
            "the challenge {id} is no longer open"
        )));
    }
    insert_game(conn, game)
}

pub fn close(conn: &Connection, id: &str, state: &ChallengeState) -> Result<bool, StoreError> {
    let reason = match state {
        ChallengeState::Declined { reason } => reason.clone(),
        _ => None,
    };
    let n = conn
        .prepare_cached(
            "UPDATE challenges SET state = ?2, reason = ?3 WHERE id = ?1 AND state = 'open'",
        )?
        .execute(params![id, state.as_str(), reason])?;
    Ok(n == 1)
}

pub fn expire(conn: &Connection, now: i64) -> Result<Vec<ChallengeRecord>, StoreError> {
    let mut stmt = conn.prepare_cached(&format!(
        "UPDATE challenges SET state = 'expired' WHERE state = 'open' AND expires_at <= ?1 \
         RETURNING {CHALLENGE_COLUMNS}"
    ))?;
    let mut rows = stmt.query(params![now])?;
    let mut out = Vec::new();
    while let Some(row) = rows.next()? {
        out.push(read_challenge(row, 0)?);
    }
    Ok(out)
}

#[async_trait]
impl LobbyRepo for SqliteStore {
    async fn create_challenge(&self, c: &ChallengeRecord) -> Result<(), StoreError> {
        let c = c.clone();
        self.write(move |conn| create(conn, &c)).await
    }

    async fn create_challenge_capped(
        &self,
        c: &ChallengeRecord,
        caps: &ChallengeCaps,
    ) -> Result<Option<Cap>, StoreError> {
        let (c, caps) = (c.clone(), caps.clone());
        self.write(move |conn| create_capped(conn, &c, &caps)).await
    }

    async fn challenge(&self, id: &str) -> Result<Option<ChallengeRecord>, StoreError> {
        let id = id.to_string();
        self.read(move |conn| get(conn, &id)).await
    }

    async fn open_challenges_of(
        &self,
        player: &str,
        now: i64,
    ) -> Result<Vec<ChallengeRecord>, StoreError> {
        let player = player.to_string();
        self.read(move |conn| open_of(conn, &player, now)).await
    }

    async fn open_challenges_from(&self, client: &str, now: i64) -> Result<usize, StoreError> {
        let client = client.to_string();
        self.read(move |conn| open_from(conn, &client, now)).await
    }

    async fn open_challenges(&self, now: i64) -> Result<Vec<ChallengeRecord>, StoreError> {
        self.read(move |conn| open(conn, now)).await
    }

    async fn accept_challenge(
        &self,
        id: &str,
        now: i64,
        game: &StoredGame,
    ) -> Result<(), StoreError> {
        let (id, game) = (id.to_string(), game.clone());
        self.write(move |conn| accept(conn, &id, now, &game)).await
    }

    async fn close_challenge(&self, id: &str, state: &ChallengeState) -> Result<bool, StoreError> {
        let (id, state) = (id.to_string(), state.clone());
        self.write(move |conn| close(conn, &id, &state)).await
    }

    async fn expire_challenges(&self, now: i64) -> Result<Vec<ChallengeRecord>, StoreError> {
        self.write(move |conn| expire(conn, now)).await
    }

    async fn create_seek(&self, seek: &SeekRecord) -> Result<(), StoreError> {
        let seek = seek.clone();
        self.write(move |conn| players::create_seek(conn, &seek))
            .await
    }

    async fn open_seeks(&self, now: i64) -> Result<Vec<SeekRecord>, StoreError> {
        self.read(move |conn| players::open_seeks(conn, now)).await
    }

    async fn delete_seek(&self, id: &str, player: Option<&str>) -> Result<bool, StoreError> {
        let (id, player) = (id.to_string(), player.map(str::to_string));
        self.write(move |conn| players::delete_seek(conn, &id, player.as_deref()))
            .await
    }

    async fn delete_lapsed_seeks(&self, now: i64) -> Result<Vec<String>, StoreError> {
        self.write(move |conn| {
            Ok(conn
                .prepare_cached("DELETE FROM seeks WHERE expires_at <= ?1 RETURNING id")?
                .query_map(params![now], |r| r.get(0))?
                .collect::<Result<Vec<String>, _>>()?)
        })
        .await
    }

    async fn delete_seeks_of(&self, player: &str) -> Result<Vec<String>, StoreError> {
        let player = player.to_string();
        self.write(move |conn| players::delete_seeks_of(conn, &player))
            .await
    }

    async fn accept_seek(&self, id: &str, now: i64, game: &StoredGame) -> Result<(), StoreError> {
        let (id, game) = (id.to_string(), game.clone());
        self.write(move |conn| players::accept_seek(conn, &id, now, &game))
            .await
    }
}
