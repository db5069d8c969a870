//! API tokens and bot accounts in PostgreSQL.

use super::row::insert_row;
use crate::PgStore;
use async_trait::async_trait;
use deadpool_postgres::GenericClient;
use tensorchess_store::prelude::*;
use tensorchess_store::token::{read_token, token_values, TokenRecord, TOKEN_COLUMNS};
use tensorchess_store::StoreError;

pub async fn create(c: &impl GenericClient, t: &TokenRecord) -> Result<(), StoreError> {
    let values = token_values(t);
    insert_row(c, "api_tokens", TOKEN_COLUMNS, &values).await?;
    Ok(())
}

pub async fn by_hash(
    c: &impl GenericClient,
    hash: &str,
) -> Result<Option<TokenRecord>, StoreError> {
    let stmt = c
        .prepare_cached(&format!(
            "SELECT {TOKEN_COLUMNS} FROM api_tokens WHERE token_hash = $1"
        ))
        .await?;
    c.query_opt(&stmt, &[&hash])
        .await?
        .map(|row| read_token(&row, 0))
        .transpose()
}

pub async fn of(c: &impl GenericClient, player: &str) -> Result<Vec<TokenRecord>, StoreError> {
    let stmt = c
        .prepare_cached(&format!(
            "SELECT {TOKEN_COLUMNS} FROM api_tokens WHERE player_id = $1 AND revoked_at IS NULL \
             ORDER BY created_at, id COLLATE \"C\""
        ))
        .await?;
    c.query(&stmt, &[&player])
        .await?
        .iter()
        .map(|row| read_token(row, 0))
        .collect()
}

pub async fn revoke(
    c: &impl GenericClient,
    id: &str,
    player: &str,
    at: i64,
) -> Result<bool, StoreError> {
    let n = c
        .execute(
            "UPDATE api_tokens SET revoked_at = $3 \
             WHERE id = $1 AND player_id = $2 AND revoked_at IS NULL",
            &[&id, &player, &at],
        )
        .await?;
    Ok(n == 1)
}

pub async fn touch(c: &impl GenericClient, id: &str, at: i64) -> Result<(), StoreError> {
    c.execute(
        "UPDATE api_tokens SET last_used_at = $2 WHERE id = $1",
        &[&id, &at],
    )
    .await?;
    Ok(())
}

pub async fn make_bot(c: &impl GenericClient, player: &str, at: i64) -> Result<bool, StoreError> {
    let n = c
        .execute(
            "INSERT INTO bots (player_id, since) VALUES ($1, $2) ON CONFLICT DO NOTHING",
            &[&player, &at],
        )
        .await?;
    Ok(n == 1)
}

pub async fn is_bot(c: &impl GenericClient, player: &str) -> Result<bool, StoreError> {
    Ok(
        c.query_opt("SELECT 1 FROM bots WHERE player_id = $1", &[&player])
            .await?
            .is_some(),
    )
}

pub async fn bots(c: &impl GenericClient) -> Result<Vec<String>, StoreError> {
    Ok(c.query(
        "SELECT player_id FROM bots ORDER BY since, player_id COLLATE \"C\"",
        &[],
    )
    .await?
    .iter()
    .map(|r| r.get::<_, String>(0))
    .collect())
}

#[async_trait]
impl TokenRepo for PgStore {
    async fn create_token(&self, token: &TokenRecord) -> Result<(), StoreError> {
        create(&self.client().await?, token).await
    }

    async fn token_by_hash(&self, hash: &str) -> Result<Option<TokenRecord>, StoreError> {
        by_hash(&self.client().await?, hash).await
    }

    async fn tokens_of(&self, player: &str) -> Result<Vec<TokenRecord>, StoreError> {
        of(&self.client().await?, player).await
    }

    async fn revoke_token(&self, id: &str, player: &str, at: i64) -> Result<bool, StoreError> {
        revoke(&self.client().await?, id, player, at).await
    }

    async fn touch_token(&self, id: &str, at: i64) -> Result<(), StoreError> {
        touch(&self.client().await?, id, at).await
    }

    async fn make_bot(&self, player: &str, at: i64) -> Result<bool, StoreError> {
        make_bot(&self.client().await?, player, at).await
    }

    async fn is_bot(&self, player: &str) -> Result<bool, StoreError> {
        is_bot(&self.client().await?, player).await
    }

    async fn bots(&self) -> Result<Vec<String>, StoreError> {
        bots(&self.client().await?).await
    }
}
