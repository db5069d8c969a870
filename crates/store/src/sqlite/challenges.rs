//! Challenges in SQLite.

use super::games::insert_game;
use super::row::insert_row;
use crate::challenge::{
    challenge_values, read_challenge, ChallengeRecord, ChallengeState, CHALLENGE_COLUMNS,
};
use crate::{StoreError, StoredGame};
use rusqlite::{params, Connection};

pub fn create(conn: &Connection, c: &ChallengeRecord) -> Result<(), StoreError> {
    let values = challenge_values(c);
    insert_row(conn, "challenges", CHALLENGE_COLUMNS, values)?;
    Ok(())
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
