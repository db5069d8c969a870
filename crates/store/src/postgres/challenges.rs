//! Challenges in PostgreSQL.

use super::games::insert_game_if_claimed;
use super::row::insert_row;
use crate::challenge::{
    challenge_values, read_challenge, ChallengeRecord, ChallengeState, CHALLENGE_COLUMNS,
};
use crate::{StoreError, StoredGame};
use deadpool_postgres::GenericClient;
use tokio_postgres::types::ToSql;

pub async fn create(c: &impl GenericClient, ch: &ChallengeRecord) -> Result<(), StoreError> {
    let values = challenge_values(ch);
    insert_row(c, "challenges", CHALLENGE_COLUMNS, &values).await?;
    Ok(())
}

async fn select(
    c: &impl GenericClient,
    filter: &str,
    args: &[&(dyn ToSql + Sync)],
) -> Result<Vec<ChallengeRecord>, StoreError> {
    let stmt = c
        .prepare_cached(&format!(
            "SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE {filter} \
             ORDER BY created_at, id COLLATE \"C\""
        ))
        .await?;
    c.query(&stmt, args)
        .await?
        .iter()
        .map(|row| read_challenge(row, 0))
        .collect()
}

pub async fn get(c: &impl GenericClient, id: &str) -> Result<Option<ChallengeRecord>, StoreError> {
    Ok(select(c, "id = $1", &[&id]).await?.pop())
}

pub async fn open_of(
    c: &impl GenericClient,
    player: &str,
    now: i64,
) -> Result<Vec<ChallengeRecord>, StoreError> {
    select(
        c,
        "state = 'open' AND expires_at > $2 AND (challenger = $1 OR challenged = $1)",
        &[&player, &now],
    )
    .await
}

pub async fn open_from(
    c: &impl GenericClient,
    client: &str,
    now: i64,
) -> Result<usize, StoreError> {
    let row = c
        .query_one(
            "SELECT COUNT(*) FROM challenges WHERE client = $1 AND state = 'open' AND expires_at > $2",
            &[&client, &now],
        )
        .await?;
    Ok(row.try_get::<_, i64>(0)?.max(0) as usize)
}

pub async fn open(c: &impl GenericClient, now: i64) -> Result<Vec<ChallengeRecord>, StoreError> {
    select(c, "state = 'open' AND expires_at > $1", &[&now]).await
}

/// Updating the open row is the condition: of two instances accepting it
/// at once, the second finds it accepted and stores no game.
pub async fn accept(
    c: &impl GenericClient,
    id: &str,
    now: i64,
    game: &StoredGame,
) -> Result<(), StoreError> {
    let n = c
        .execute(
            "UPDATE challenges SET state = 'accepted', game_id = $3 \
             WHERE id = $1 AND state = 'open' AND expires_at > $2",
            &[&id, &now, &game.record.id],
        )
        .await?;
    insert_game_if_claimed(c, n, "challenge", id, game).await
}

pub async fn close(
    c: &impl GenericClient,
    id: &str,
    state: &ChallengeState,
) -> Result<bool, StoreError> {
    let reason = match state {
        ChallengeState::Declined { reason } => reason.clone(),
        _ => None,
    };
    let n = c
        .execute(
            "UPDATE challenges SET state = $2, reason = $3 WHERE id = $1 AND state = 'open'",
            &[&id, &state.as_str(), &reason],
        )
        .await?;
    Ok(n == 1)
}

pub async fn expire(c: &impl GenericClient, now: i64) -> Result<Vec<ChallengeRecord>, StoreError> {
    let stmt = c
        .prepare_cached(&format!(
            "UPDATE challenges SET state = 'expired' WHERE state = 'open' AND expires_at <= $1 \
             RETURNING {CHALLENGE_COLUMNS}"
        ))
        .await?;
    c.query(&stmt, &[&now])
        .await?
        .iter()
        .map(|row| read_challenge(row, 0))
        .collect()
}
