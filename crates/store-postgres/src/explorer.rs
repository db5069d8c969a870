//! The opening explorer's tables in PostgreSQL.

use super::row::{mark, params};
use crate::PgStore;
use async_trait::async_trait;
use deadpool_postgres::GenericClient;
use std::collections::HashSet;
use tensorchess_rules::VariantKind;
use tensorchess_store::explorer::bulk::{
    finished_games_sql, first_moves_sql, read_finished_game, read_first_move, with_first_moves,
    ExplorerChunk,
};
use tensorchess_store::explorer::{
    count_sql, count_upsert, count_values, eval_values, explore_values, explorer_game_values,
    moves_sql, position_sql, position_values, put_eval_sql, read_eval, read_move_counts,
    read_top_game, sort_moves, stored_hash, top_games_sql, top_sql, top_values, uncounted_ids_sql,
    EVAL_COLUMNS, EXPLORER_GAME_COLUMNS, TOP_GAMES,
};
use tensorchess_store::prelude::*;
use tensorchess_store::rows::Value;
use tensorchess_store::{
    ExplorerAnswer, ExplorerEval, ExplorerFilter, ExplorerGame, StoreError, StoredGame,
};
use tokio_postgres::types::ToSql;

/// Rows sent in one statement when many games are counted at once.
const ROWS_AT_ONCE: usize = 10_000;

/// `UNNEST` of one array parameter per column, of these types (`text`,
/// `bigint`, `int`), as the rows of a statement.
fn unnest(types: &[&str]) -> String {
    let arrays: Vec<String> = types
        .iter()
        .enumerate()
        .map(|(i, t)| format!("${}::{t}[]", i + 1))
        .collect();
    format!("SELECT * FROM UNNEST({})", arrays.join(", "))
}

/// The explorer_games columns' types, in `EXPLORER_GAME_COLUMNS`' order.
const GAME_TYPES: [&str; 10] = [
    "text", "text", "text", "text", "int", "int", "text", "int", "int", "bigint",
];
/// The `explorer_moves` columns' types, in `COUNT_COLUMNS`' order.
const COUNT_TYPES: [&str; 11] = [
    "text", "bigint", "text", "int", "int", "int", "bigint", "bigint", "bigint", "bigint", "bigint",
];
/// A bucket of `explorer_top`'s columns' types (variant, hash, rated,
/// speed, band), then the rating and the game.
const TOP_TYPES: [&str; 7] = ["text", "bigint", "int", "int", "int", "int", "text"];

/// `rows` as one array per column, [`ROWS_AT_ONCE`] rows at a time: the
/// parameters of statements over [`unnest`] (made before the first is
/// sent: no iterator is held across an await).
fn in_arrays(rows: impl Iterator<Item = Vec<Value>>, columns: usize) -> Vec<Vec<Vec<Value>>> {
    let mut batches: Vec<Vec<Vec<Value>>> = Vec::new();
    for (i, row) in rows.enumerate() {
        if i % ROWS_AT_ONCE == 0 {
            batches.push(vec![Vec::new(); columns]);
        }
        let Some(arrays) = batches.last_mut() else {
            continue;
        };
        for (array, value) in arrays.iter_mut().zip(row) {
            array.push(value);
        }
    }
    batches
}

/// Runs `sql` over `rows` (one array parameter per column: [`unnest`]).
async fn each_batch(
    c: &impl GenericClient,
    sql: &str,
    batches: Vec<Vec<Vec<Value>>>,
) -> Result<(), StoreError> {
    let stmt = c.prepare_cached(sql).await?;
    for arrays in batches {
        let params: Vec<&(dyn ToSql + Sync)> =
            arrays.iter().map(|a| a as &(dyn ToSql + Sync)).collect();
        c.execute(&stmt, &params).await?;
    }
    Ok(())
}

/// Counts the games of `games` not counted yet, their rows summed, in the
/// caller's transaction: their `explorer_games` rows first (those there
/// already say which to leave out), then every row in the order of its
/// key, as [`add`] does one game's.
async fn add_many(c: &impl GenericClient, games: &[ExplorerGame]) -> Result<usize, StoreError> {
    let stmt = c
        .prepare_cached(&format!(
            "INSERT INTO explorer_games ({EXPLORER_GAME_COLUMNS}) {} \
             ON CONFLICT (id) DO NOTHING RETURNING id",
            unnest(&GAME_TYPES)
        ))
        .await?;
    let mut inserted = HashSet::new();
    let batches = in_arrays(games.iter().map(explorer_game_values), GAME_TYPES.len());
    for arrays in batches {
        let params: Vec<&(dyn ToSql + Sync)> =
            arrays.iter().map(|a| a as &(dyn ToSql + Sync)).collect();
        for row in c.query(&stmt, &params).await? {
            inserted.insert(row.try_get::<_, String>(0)?);
        }
    }
    // Each inserted game once (the same game twice in `games` counts once).
    let new: Vec<&ExplorerGame> = games.iter().filter(|g| inserted.remove(&g.id)).collect();
    let chunk = ExplorerChunk::of(new.iter().copied());
    let counts = count_upsert(&unnest(&COUNT_TYPES));
    each_batch(
        c,
        &counts,
        in_arrays(chunk.count_values(), COUNT_TYPES.len()),
    )
    .await?;
    let positions = format!(
        "INSERT INTO explorer_positions (variant, hash, game_id) {} ON CONFLICT DO NOTHING",
        unnest(&["text", "bigint", "text"])
    );
    each_batch(c, &positions, in_arrays(chunk.position_values(), 3)).await?;
    let tops = format!(
        "INSERT INTO explorer_top (variant, hash, rated, speed, band, rating, game_id) {} \
         ON CONFLICT DO NOTHING",
        unnest(&TOP_TYPES)
    );
    each_batch(c, &tops, in_arrays(chunk.top_values(), TOP_TYPES.len())).await?;
    // Each bucket's games past the best TOP_GAMES, removed.
    let trim = format!(
        "DELETE FROM explorer_top t USING (SELECT b.variant, b.hash, b.rated, b.speed, b.band, \
         x.game_id FROM ({}) AS b (variant, hash, rated, speed, band) \
         CROSS JOIN LATERAL (SELECT game_id FROM explorer_top x WHERE x.variant = b.variant \
         AND x.hash = b.hash AND x.rated = b.rated AND x.speed = b.speed AND x.band = b.band \
         ORDER BY x.rating DESC, x.game_id OFFSET {TOP_GAMES}) x) d \
         WHERE t.variant = d.variant AND t.hash = d.hash AND t.rated = d.rated \
         AND t.speed = d.speed AND t.band = d.band AND t.game_id = d.game_id",
        unnest(&TOP_TYPES[..5])
    );
    let buckets = chunk.tops.keys().map(|&(v, h, r, s, b)| {
        vec![
            Value::Text(Some(v.to_string())),
            Value::Int(Some(h)),
            Value::Int32(Some(r)),
            Value::Int32(Some(s)),
            Value::Int32(Some(b)),
        ]
    });
    each_batch(c, &trim, in_arrays(buckets, 5)).await?;
    Ok(new.len())
}

async fn finished_games(
    c: &impl GenericClient,
    after: &str,
    limit: usize,
) -> Result<Vec<StoredGame>, StoreError> {
    let limit = i64::try_from(limit).unwrap_or(i64::MAX);
    let stmt = c.prepare_cached(&finished_games_sql(mark)).await?;
    let games = c
        .query(&stmt, &[&after, &limit])
        .await?
        .iter()
        .map(read_finished_game)
        .collect::<Result<Vec<_>, _>>()?;
    let (Some(first), Some(last)) = (games.first(), games.last()) else {
        return Ok(games);
    };
    let stmt = c.prepare_cached(&first_moves_sql(mark)).await?;
    let moves = c
        .query(&stmt, &[&first.record.id, &last.record.id])
        .await?
        .iter()
        .map(read_first_move)
        .collect::<Result<Vec<_>, _>>()?;
    Ok(with_first_moves(games, moves))
}

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
            tx.batch_execute(
                "TRUNCATE explorer_moves, explorer_top, explorer_positions, explorer_games",
            )
            .await?
        })
    }

    async fn stage_explorer_games(&self, games: &[ExplorerGame]) -> Result<usize, StoreError> {
        write_tx!(self, |tx| add_many(&tx, games).await?)
    }

    async fn merge_explorer_games(&self) -> Result<(), StoreError> {
        // Nothing staged: each chunk was written when it came.
        Ok(())
    }

    async fn explorer_source_games(
        &self,
        after: Option<&str>,
        limit: usize,
    ) -> Result<Vec<StoredGame>, StoreError> {
        finished_games(&self.client().await?, after.unwrap_or(""), limit).await
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
