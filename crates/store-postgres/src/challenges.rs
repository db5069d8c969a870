//! Challenges in PostgreSQL.

use super::games::insert_game_if_claimed;
use super::row::{insert_row, mark};
use super::trust::lock_keys;
use super::PgStore;
use crate::players;
use async_trait::async_trait;
use deadpool_postgres::GenericClient;
use tensorchess_store::challenge::{
    challenge_values, read_challenge, ChallengeRecord, ChallengeState, CHALLENGE_COLUMNS,
};
use tensorchess_store::prelude::*;
use tensorchess_store::rows::Value;
use tensorchess_store::trust::{challenge_counts_sql, Cap, ChallengeCaps, ChallengeCounts};
use tensorchess_store::SeekRecord;
use tensorchess_store::{StoreError, StoredGame};
use tokio_postgres::types::ToSql;

pub async fn create(c: &impl GenericClient, ch: &ChallengeRecord) -> Result<(), StoreError> {
    let values = challenge_values(ch);
    insert_row(c, "challenges", CHALLENGE_COLUMNS, &values).await?;
    Ok(())
}

/// Counts and inserts in `c`'s transaction, holding advisory locks on the
/// challenger, the player challenged and the address until it ends: every
/// count a cap reads is keyed by one of them, so of two servers racing,
/// the second counts after the first committed.
async fn create_capped(
    c: &impl GenericClient,
    ch: &ChallengeRecord,
    caps: &ChallengeCaps,
) -> Result<Option<Cap>, StoreError> {
    let mut keys = vec![
        format!("challenges by {}", ch.challenger),
        format!("challenges to {}", ch.challenged),
    ];
    if let Some(client) = &ch.client {
        keys.push(format!("challenges from {client}"));
    }
    lock_keys(c, &keys).await?;
    let since = caps.stranger.as_ref().map_or(caps.now, |s| s.since);
    let stmt = c.prepare_cached(&challenge_counts_sql(mark)).await?;
    let row = c
        .query_one(
            &stmt,
            &[
                &ch.challenger,
                &ch.challenged,
                &ch.client,
                &caps.now,
                &since,
            ],
        )
        .await?;
    let n = ChallengeCounts {
        per_pair: row.try_get(0)?,
        made: row.try_get(1)?,
        from_address: row.try_get(2)?,
        player_to_receiver: row.try_get(3)?,
        address_to_receiver: row.try_get(4)?,
        received: row.try_get(5)?,
    };
    if let Some(cap) = caps.refusal(&n) {
        return Ok(Some(cap));
    }
    let mut values = challenge_values(ch);
    values.push(Value::Bool(caps.stranger.is_some()));
    insert_row(
        c,
        "challenges",
        &format!("{CHALLENGE_COLUMNS}, stranger"),
        &values,
    )
    .await?;
    Ok(None)
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

#[async_trait]
impl LobbyRepo for PgStore {
    async fn create_challenge(&self, c: &ChallengeRecord) -> Result<(), StoreError> {
        create(&self.client().await?, c).await
    }

    async fn create_challenge_capped(
        &self,
        ch: &ChallengeRecord,
        caps: &ChallengeCaps,
    ) -> Result<Option<Cap>, StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        let out = create_capped(&tx, ch, caps).await?;
        tx.commit().await?;
        Ok(out)
    }

    async fn challenge(&self, id: &str) -> Result<Option<ChallengeRecord>, StoreError> {
        get(&self.client().await?, id).await
    }

    async fn open_challenges_of(
        &self,
        player: &str,
        now: i64,
    ) -> Result<Vec<ChallengeRecord>, StoreError> {
        open_of(&self.client().await?, player, now).await
    }

    async fn open_challenges_from(&self, client: &str, now: i64) -> Result<usize, StoreError> {
        open_from(&self.client().await?, client, now).await
    }

    async fn open_challenges(&self, now: i64) -> Result<Vec<ChallengeRecord>, StoreError> {
        open(&self.client().await?, now).await
    }

    async fn accept_challenge(
        &self,
        id: &str,
        now: i64,
        game: &StoredGame,
    ) -> Result<(), StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        accept(&tx, id, now, game).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn close_challenge(&self, id: &str, state: &ChallengeState) -> Result<bool, StoreError> {
        close(&self.client().await?, id, state).await
    }

    async fn expire_challenges(&self, now: i64) -> Result<Vec<ChallengeRecord>, StoreError> {
        expire(&self.client().await?, now).await
    }

    async fn create_seek(&self, seek: &SeekRecord) -> Result<(), StoreError> {
        players::create_seek(&self.client().await?, seek).await
    }

    async fn open_seeks(&self, now: i64) -> Result<Vec<SeekRecord>, StoreError> {
        players::open_seeks(&self.client().await?, now).await
    }

    async fn delete_seek(&self, id: &str, player: Option<&str>) -> Result<bool, StoreError> {
        let c = self.client().await?;
        let n = match player {
            Some(p) => {
                c.execute(
                    "DELETE FROM seeks WHERE id = $1 AND player_id = $2",
                    &[&id, &p],
                )
                .await?
            }
            None => c.execute("DELETE FROM seeks WHERE id = $1", &[&id]).await?,
        };
        Ok(n > 0)
    }

    async fn delete_lapsed_seeks(&self, now: i64) -> Result<Vec<String>, StoreError> {
        let c = self.client().await?;
        c.query(
            "DELETE FROM seeks WHERE expires_at <= $1 RETURNING id",
            &[&now],
        )
        .await?
        .iter()
        .map(|r| Ok(r.try_get(0)?))
        .collect()
    }

    async fn delete_seeks_of(&self, player: &str) -> Result<Vec<String>, StoreError> {
        let c = self.client().await?;
        c.query(
            "DELETE FROM seeks WHERE player_id = $1 RETURNING id",
            &[&player],
        )
        .await?
        .iter()
        .map(|r| Ok(r.try_get(0)?))
        .collect()
    }

    async fn accept_seek(&self, id: &str, now: i64, game: &StoredGame) -> Result<(), StoreError> {
        write_tx!(self, |tx| players::accept_seek(&tx, id, now, game).await?)
    }
}
