//! Players, sessions, accounts, ratings and seeks in PostgreSQL.

use super::games::insert_game_if_claimed;
use super::is_unique_violation;
use super::row::insert_row;
use crate::moderation;
use crate::PgStore;
use async_trait::async_trait;
use deadpool_postgres::GenericClient;
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

pub async fn player(c: &impl GenericClient, id: &str) -> Result<Option<PlayerRecord>, StoreError> {
    let stmt = c
        .prepare_cached(&format!(
            "SELECT {PLAYER_COLUMNS} FROM players p \
             LEFT JOIN accounts a ON a.player_id = p.id WHERE p.id = $1"
        ))
        .await?;
    c.query_opt(&stmt, &[&id])
        .await?
        .as_ref()
        .map(read_player)
        .transpose()
}

pub async fn save_player(c: &impl GenericClient, p: &PlayerRecord) -> Result<(), StoreError> {
    let stmt = c
        .prepare_cached(
            "INSERT INTO players (id, name, created_at) VALUES ($1, $2, $3) \
             ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name",
        )
        .await?;
    c.execute(&stmt, &[&p.id, &p.name, &p.created_at]).await?;
    Ok(())
}

pub async fn session_player(
    c: &impl GenericClient,
    token_hash: &str,
) -> Result<Option<String>, StoreError> {
    let stmt = c
        .prepare_cached("SELECT player_id FROM sessions WHERE token_hash = $1")
        .await?;
    match c.query_opt(&stmt, &[&token_hash]).await? {
        Some(r) => Ok(Some(r.try_get(0)?)),
        None => Ok(None),
    }
}

pub async fn start_session(
    c: &impl GenericClient,
    channel: &str,
    token_hash: &str,
    player: &PlayerRecord,
    ending: Option<&str>,
) -> Result<(), StoreError> {
    let stmt = c
        .prepare_cached(
            "INSERT INTO players (id, name, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
        )
        .await?;
    c.execute(&stmt, &[&player.id, &player.name, &player.created_at])
        .await?;
    if let Some(old) = ending {
        super::moderation::end_session(c, channel, old).await?;
    }
    let stmt = c
        .prepare_cached(
            "INSERT INTO sessions (token_hash, player_id, created_at) VALUES ($1, $2, $3)",
        )
        .await?;
    c.execute(&stmt, &[&token_hash, &player.id, &player.created_at])
        .await?;
    Ok(())
}

pub async fn create_account(c: &impl GenericClient, a: &AccountRecord) -> Result<(), StoreError> {
    let taken = || {
        StoreError::Conflict(format!(
            "the name {} is taken, or the player has an account already",
            a.username
        ))
    };
    let key = a.username.to_lowercase();
    let count: i64 = c
        .query_one(
            "SELECT COUNT(*) FROM accounts WHERE username_key = $1 OR player_id = $2",
            &[&key, &a.player_id],
        )
        .await?
        .try_get(0)?;
    if count > 0 {
        return Err(taken());
    }
    // Another instance may take the name between the check and the
    // insert: the unique key decides, and says so as a conflict.
    match c
        .execute(
            "INSERT INTO accounts (username, username_key, password_hash, player_id, created_at, \
             skeleton) VALUES ($1, $2, $3, $4, $5, $6)",
            &[
                &a.username,
                &key,
                &a.password_hash,
                &a.player_id,
                &a.created_at,
                &tensorchess_store::trust::name_key(&a.username),
            ],
        )
        .await
    {
        Ok(_) => Ok(()),
        Err(e) if is_unique_violation(&e) => Err(taken()),
        Err(e) => Err(e.into()),
    }
}

pub async fn account(
    c: &impl GenericClient,
    username: &str,
) -> Result<Option<AccountRecord>, StoreError> {
    let stmt = c
        .prepare_cached(&format!(
            "SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE username_key = $1"
        ))
        .await?;
    c.query_opt(&stmt, &[&username.to_lowercase()])
        .await?
        .as_ref()
        .map(read_account)
        .transpose()
}

pub async fn accounts_starting(
    c: &impl GenericClient,
    prefix: &str,
    limit: usize,
) -> Result<Vec<AccountRecord>, StoreError> {
    let (from, to) = tensorchess_store::player::prefix_range(prefix);
    let rows = c
        .query(
            &format!(
                "SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE username_key COLLATE \"C\" >= $1 \
                 AND username_key COLLATE \"C\" < $2 AND closed_at IS NULL \
                 ORDER BY username_key COLLATE \"C\" LIMIT $3"
            ),
            &[&from, &to, &(limit as i64)],
        )
        .await?;
    rows.iter().map(read_account).collect()
}

pub async fn ratings(
    c: &impl GenericClient,
    player: &str,
) -> Result<Vec<(RatingPool, RatingRecord)>, StoreError> {
    // Prepared once a connection: read for every rated game that starts.
    let stmt = c
        .prepare_cached(&format!(
            "SELECT variant, {RATING_COLUMNS} FROM ratings WHERE player_id = $1 \
             ORDER BY variant"
        ))
        .await?;
    let rows = c.query(&stmt, &[&player]).await?;
    rows.iter()
        .map(|r| Ok((parse_pool(player, &r.text_nn(0)?)?, read_rating(r, 1)?)))
        .collect()
}

pub async fn players(
    c: &impl GenericClient,
    ids: &[String],
) -> Result<Vec<PlayerRecord>, StoreError> {
    let stmt = c
        .prepare_cached(&format!(
            "SELECT {PLAYER_COLUMNS} FROM players p \
             LEFT JOIN accounts a ON a.player_id = p.id WHERE p.id = ANY($1)"
        ))
        .await?;
    c.query(&stmt, &[&ids])
        .await?
        .iter()
        .map(read_player)
        .collect()
}

pub async fn pool_ratings(
    c: &impl GenericClient,
    pool: RatingPool,
    ids: &[String],
) -> Result<Vec<(String, RatingRecord)>, StoreError> {
    let stmt = c
        .prepare_cached(&format!(
            "SELECT player_id, {RATING_COLUMNS} FROM ratings \
             WHERE variant = $1 AND player_id = ANY($2)"
        ))
        .await?;
    c.query(&stmt, &[&pool.key(), &ids])
        .await?
        .iter()
        .map(|r| Ok((r.text_nn(0)?, read_rating(r, 1)?)))
        .collect()
}

pub async fn create_seek(c: &impl GenericClient, s: &SeekRecord) -> Result<(), StoreError> {
    let values = seek_values(s);
    insert_row(c, "seeks", SEEK_COLUMNS, &values).await?;
    Ok(())
}

pub async fn open_seeks(c: &impl GenericClient, now: i64) -> Result<Vec<SeekRecord>, StoreError> {
    let stmt = c
        .prepare_cached(&format!(
            "SELECT {SEEK_COLUMNS} FROM seeks WHERE expires_at > $1 \
             ORDER BY created_at, id COLLATE \"C\""
        ))
        .await?;
    c.query(&stmt, &[&now])
        .await?
        .iter()
        .map(|row| read_seek(row, 0))
        .collect()
}

/// Deleting the seek is the condition: of two instances accepting it at
/// once, the second finds no row (it waits for the first's row lock, then
/// re-checks) and stores no game.
pub async fn accept_seek(
    c: &impl GenericClient,
    id: &str,
    now: i64,
    game: &StoredGame,
) -> Result<(), StoreError> {
    let n = c
        .execute(
            "DELETE FROM seeks WHERE id = $1 AND expires_at > $2",
            &[&id, &now],
        )
        .await?;
    insert_game_if_claimed(c, n, "seek", id, game).await
}

pub async fn merge_player(
    c: &impl GenericClient,
    from: &str,
    into: &str,
) -> Result<Vec<String>, StoreError> {
    // Bumping the revisions first locks the games, so a move racing the
    // merge either comes before it or finds the new revision.
    // The online seats moved: of games not over, and never the seat
    // facing the account's own (nobody plays both sides).
    let seats = "SELECT o.game_id FROM online_games o JOIN games g ON g.id = o.game_id \
         WHERE g.end_reason IS NULL AND ( \
           (o.white_player = $1 AND o.black_player IS DISTINCT FROM $2) OR \
           (o.black_player = $1 AND o.white_player IS DISTINCT FROM $2))";
    let rows = c
        .query(
            &format!(
                "UPDATE games SET rev = rev + 1 WHERE id IN (SELECT id FROM games WHERE owner = $1 \
                 UNION {seats}) RETURNING id"
            ),
            &[&from, &into],
        )
        .await?;
    let ids = rows
        .iter()
        .map(|r| r.try_get::<_, String>(0))
        .collect::<Result<Vec<_>, _>>()?;
    c.execute(
        "UPDATE games SET owner = $2 WHERE owner = $1",
        &[&from, &into],
    )
    .await?;
    // Only the games bumped above: their rows are locked, and what they
    // hold cannot have changed since.
    for sql in [
        "UPDATE online_games SET white_player = $2 WHERE white_player = $1 AND game_id = ANY($3)",
        "UPDATE online_games SET black_player = $2 WHERE black_player = $1 AND game_id = ANY($3)",
    ] {
        c.execute(sql, &[&from, &into, &ids]).await?;
    }
    c.execute("DELETE FROM seeks WHERE player_id = $1", &[&from])
        .await?;
    Ok(ids)
}

#[async_trait]
impl PlayerRepo for PgStore {
    async fn player(&self, id: &str) -> Result<Option<PlayerRecord>, StoreError> {
        player(&self.client().await?, id).await
    }

    async fn save_player(&self, player: &PlayerRecord) -> Result<(), StoreError> {
        save_player(&self.client().await?, player).await
    }

    async fn session_player(&self, token_hash: &str) -> Result<Option<String>, StoreError> {
        session_player(&self.client().await?, token_hash).await
    }

    async fn start_session(
        &self,
        token_hash: &str,
        player: &PlayerRecord,
        ending: Option<&str>,
    ) -> Result<(), StoreError> {
        write_tx!(self, |tx| start_session(
            &tx,
            &self.channel,
            token_hash,
            player,
            ending
        )
        .await?)
    }

    async fn end_session(&self, token_hash: &str) -> Result<(), StoreError> {
        write_tx!(self, |tx| moderation::end_session(
            &tx,
            &self.channel,
            token_hash
        )
        .await?)
    }

    async fn end_sessions(&self, player: &str, keep: Option<&str>) -> Result<usize, StoreError> {
        write_tx!(self, |tx| moderation::end_sessions(
            &tx,
            &self.channel,
            player,
            keep
        )
        .await?)
    }

    async fn create_account(&self, account: &AccountRecord) -> Result<(), StoreError> {
        write_tx!(self, |tx| create_account(&tx, account).await?)
    }

    async fn account(&self, username: &str) -> Result<Option<AccountRecord>, StoreError> {
        account(&self.client().await?, username).await
    }

    async fn accounts_starting(
        &self,
        prefix: &str,
        limit: usize,
    ) -> Result<Vec<AccountRecord>, StoreError> {
        accounts_starting(&self.client().await?, prefix, limit).await
    }

    async fn set_password(&self, player: &str, password_hash: &str) -> Result<(), StoreError> {
        moderation::set_password(&self.client().await?, player, password_hash).await
    }

    async fn merge_player(&self, from: &str, into: &str) -> Result<Vec<String>, StoreError> {
        write_tx!(self, |tx| merge_player(&tx, from, into).await?)
    }

    async fn ratings(&self, player: &str) -> Result<Vec<(RatingPool, RatingRecord)>, StoreError> {
        ratings(&self.client().await?, player).await
    }

    async fn players(&self, ids: &[String]) -> Result<Vec<PlayerRecord>, StoreError> {
        players(&self.client().await?, ids).await
    }

    async fn pool_ratings(
        &self,
        pool: RatingPool,
        ids: &[String],
    ) -> Result<Vec<(String, RatingRecord)>, StoreError> {
        pool_ratings(&self.client().await?, pool, ids).await
    }
}
