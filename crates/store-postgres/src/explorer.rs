//! The opening explorer's tables in PostgreSQL.

use super::row::{mark, params};
use crate::PgStore;
use async_trait::async_trait;
use deadpool_postgres::GenericClient;
use tensorchess_rules::VariantKind;
use tensorchess_store::explorer::{
    count_sql, count_values, eval_values, explore_values, explorer_game_values, finished_ids_sql,
    moves_sql, position_sql, position_values, put_eval_sql, read_eval, read_move_counts,
    read_top_game, sort_moves, stored_hash, top_games_sql, top_sql, top_values, uncounted_ids_sql,
    EVAL_COLUMNS, EXPLORER_GAME_COLUMNS,
};
use tensorchess_store::prelude::*;
use tensorchess_store::{ExplorerAnswer, ExplorerEval, ExplorerFilter, ExplorerGame, StoreError};

/// Counts `game` unless its row is there already, in one transaction: of
/// two instances adding the same game, the second waits on the first's
/// row, finds the conflict and counts nothing.
async fn add(c: &impl GenericClient, game: &ExplorerGame) -> Result<bool, StoreError> {
    let stmt = c
        .prepare_cached(&format!(
            "INSERT INTO explorer_games ({EXPLORER_GAME_COLUMNS}) VALUES \
             ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (id) DO NOTHING"
        ))
        .await?;
    if c.execute(&stmt, &params(&explorer_game_values(game)))
        .await?
        == 0
    {
        return Ok(false);
    }
    let stmt = c.prepare_cached(&count_sql(mark)).await?;
    for values in count_values(game) {
        c.execute(&stmt, &params(&values)).await?;
    }
    let through = c.prepare_cached(&position_sql(mark)).await?;
    for values in position_values(game) {
        c.execute(&through, &params(&values)).await?;
    }
    let (insert, trim) = top_sql(mark);
    let (insert, trim) = (
        c.prepare_cached(&insert).await?,
        c.prepare_cached(&trim).await?,
    );
    for values in top_values(game) {
        c.execute(&insert, &params(&values)).await?;
        c.execute(&trim, &params(&values[..5])).await?;
    }
    Ok(true)
}

async fn explore(
    c: &impl GenericClient,
    variant: VariantKind,
    hash: u64,
    filter: &ExplorerFilter,
) -> Result<ExplorerAnswer, StoreError> {
    let values = explore_values(variant, hash, filter);
    let stmt = c.prepare_cached(&moves_sql(mark)).await?;
    let mut moves = c
        .query(&stmt, &params(&values))
        .await?
        .iter()
        .map(read_move_counts)
        .collect::<Result<Vec<_>, _>>()?;
    sort_moves(&mut moves);
    let stmt = c.prepare_cached(&top_games_sql(mark)).await?;
    let top_games = c
        .query(&stmt, &params(&values))
        .await?
        .iter()
        .map(read_top_game)
        .collect::<Result<Vec<_>, _>>()?;
    Ok(ExplorerAnswer { moves, top_games })
}

#[async_trait]
impl ExplorerRepo for PgStore {
    async fn add_explorer_game(&self, game: &ExplorerGame) -> Result<bool, StoreError> {
        write_tx!(self, |tx| add(&tx, game).await?)
    }

    async fn explore(
        &self,
        variant: VariantKind,
        hash: u64,
        filter: &ExplorerFilter,
    ) -> Result<ExplorerAnswer, StoreError> {
        explore(&self.client().await?, variant, hash, filter).await
    }

    async fn clear_explorer(&self) -> Result<(), StoreError> {
        write_tx!(self, |tx| {
            tx
            .batch_execute(
                "DELETE FROM explorer_moves; DELETE FROM explorer_top; DELETE FROM explorer_positions; \
                 DELETE FROM explorer_games;"
            )
            .await?
        })
    }

    async fn finished_online_game_ids(
        &self,
        after: Option<&str>,
        limit: usize,
    ) -> Result<Vec<String>, StoreError> {
        let c = self.client().await?;
        let stmt = c.prepare_cached(&finished_ids_sql(mark)).await?;
        let after = after.unwrap_or("");
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        Ok(c.query(&stmt, &[&after, &limit])
            .await?
            .iter()
            .map(|r| r.get::<_, String>(0))
            .collect())
    }

    async fn uncounted_game_ids(
        &self,
        since: i64,
        limit: usize,
    ) -> Result<Vec<String>, StoreError> {
        let c = self.client().await?;
        let stmt = c.prepare_cached(&uncounted_ids_sql(mark)).await?;
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        Ok(c.query(&stmt, &[&since, &limit])
            .await?
            .iter()
            .map(|r| r.get::<_, String>(0))
            .collect())
    }

    async fn explorer_evals(
        &self,
        variant: VariantKind,
        hashes: &[u64],
    ) -> Result<Vec<(u64, ExplorerEval)>, StoreError> {
        let c = self.client().await?;
        let stored: Vec<i64> = hashes.iter().map(|&h| stored_hash(h)).collect();
        let stmt = c
            .prepare_cached(&format!(
                "SELECT {EVAL_COLUMNS} FROM explorer_evals WHERE variant = $1 AND hash = ANY($2)"
            ))
            .await?;
        c.query(&stmt, &[&variant.name(), &stored])
            .await?
            .iter()
            .map(read_eval)
            .collect()
    }

    async fn put_explorer_eval(
        &self,
        variant: VariantKind,
        hash: u64,
        eval: ExplorerEval,
    ) -> Result<(), StoreError> {
        let c = self.client().await?;
        let stmt = c.prepare_cached(&put_eval_sql(mark)).await?;
        c.execute(&stmt, &params(&eval_values(variant, hash, eval)))
            .await?;
        Ok(())
    }
}
