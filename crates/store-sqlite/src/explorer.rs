//! The opening explorer's tables in SQLite.

use super::row::{all, mark};
use crate::SqliteStore;
use async_trait::async_trait;
use rusqlite::{params, params_from_iter, Connection};
use tensorchess_rules::VariantKind;
use tensorchess_store::explorer::{
    count_sql, count_values, eval_values, explore_values, explorer_game_values, moves_sql,
    position_sql, position_values, put_eval_sql, read_eval, read_move_counts, read_top_game,
    sort_moves, stored_hash, top_games_sql, top_sql, top_values, uncounted_ids_sql, EVAL_COLUMNS,
    EXPLORER_GAME_COLUMNS,
};
use tensorchess_store::prelude::*;
use tensorchess_store::{
    ExplorerAnswer, ExplorerEval, ExplorerFilter, ExplorerGame, StoreError, StoredGame,
};

/// Inserts `game`'s row unless it is there: whether it was inserted.
pub(crate) fn insert_game(conn: &Connection, game: &ExplorerGame) -> Result<bool, StoreError> {
    let inserted = conn
        .prepare_cached(&format!(
            "INSERT INTO explorer_games ({EXPLORER_GAME_COLUMNS}) VALUES \
             (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10) ON CONFLICT (id) DO NOTHING"
        ))?
        .execute(params_from_iter(explorer_game_values(game)))?;
    Ok(inserted == 1)
}

/// Counts `game` unless its row is there already. The writer runs this in
/// a savepoint of its commit: the game's row and its counts go together.
fn add(conn: &Connection, game: &ExplorerGame) -> Result<bool, StoreError> {
    if !insert_game(conn, game)? {
        return Ok(false);
    }
    let mut stmt = conn.prepare_cached(&count_sql(mark))?;
    for values in count_values(game) {
        stmt.execute(params_from_iter(values))?;
    }
    let mut through = conn.prepare_cached(&position_sql(mark))?;
    for values in position_values(game) {
        through.execute(params_from_iter(values))?;
    }
    let (insert, trim) = top_sql(mark);
    let (mut insert, mut trim) = (conn.prepare_cached(&insert)?, conn.prepare_cached(&trim)?);
    for values in top_values(game) {
        insert.execute(params_from_iter(values.iter().cloned()))?;
        trim.execute(params_from_iter(values.into_iter().take(5)))?;
    }
    Ok(true)
}

fn explore(
    conn: &Connection,
    variant: VariantKind,
    hash: u64,
    filter: &ExplorerFilter,
) -> Result<ExplorerAnswer, StoreError> {
    let values = explore_values(variant, hash, filter);
    let mut moves = all(
        &mut *conn.prepare_cached(&moves_sql(mark))?,
        params_from_iter(values.clone()),
        |r| read_move_counts(r),
    )?;
    sort_moves(&mut moves);
    let top_games = all(
        &mut *conn.prepare_cached(&top_games_sql(mark))?,
        params_from_iter(values),
        |r| read_top_game(r),
    )?;
    Ok(ExplorerAnswer { moves, top_games })
}

fn clear(conn: &Connection) -> Result<(), StoreError> {
    conn.execute_batch(
        "DELETE FROM explorer_moves; DELETE FROM explorer_top; DELETE FROM explorer_positions; \
         DELETE FROM explorer_games;",
    )?;
    Ok(())
}

fn evals(
    conn: &Connection,
    variant: VariantKind,
    hashes: &[u64],
) -> Result<Vec<(u64, ExplorerEval)>, StoreError> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {EVAL_COLUMNS} FROM explorer_evals WHERE variant = ?1 AND hash = ?2"
    ))?;
    let mut out = Vec::new();
    for &h in hashes {
        let found = all(&mut stmt, params![variant.name(), stored_hash(h)], |r| {
            read_eval(r)
        })?;
        out.extend(found);
    }
    Ok(out)
}

#[async_trait]
impl ExplorerRepo for SqliteStore {
    async fn add_explorer_game(&self, game: &ExplorerGame) -> Result<bool, StoreError> {
        let game = game.clone();
        self.write(move |conn| add(conn, &game)).await
    }

    async fn explore(
        &self,
        variant: VariantKind,
        hash: u64,
        filter: &ExplorerFilter,
    ) -> Result<ExplorerAnswer, StoreError> {
        let filter = filter.clone();
        self.read(move |conn| explore(conn, variant, hash, &filter))
            .await
    }

    async fn clear_explorer(&self) -> Result<(), StoreError> {
        self.write(clear).await
    }

    async fn stage_explorer_games(&self, games: &[ExplorerGame]) -> Result<usize, StoreError> {
        let games = games.to_vec();
        self.write(move |conn| crate::explorer_bulk::stage(conn, &games))
            .await
    }

    async fn merge_explorer_games(&self) -> Result<(), StoreError> {
        for part in 0..crate::explorer_bulk::PARTS {
            self.write(move |conn| crate::explorer_bulk::merge_part(conn, part))
                .await?;
        }
        self.write(crate::explorer_bulk::drop_stage).await
    }

    async fn explorer_source_games(
        &self,
        after: Option<&str>,
        limit: usize,
    ) -> Result<Vec<StoredGame>, StoreError> {
        let after = after.unwrap_or("").to_string();
        self.read(move |conn| crate::explorer_bulk::source_games(conn, &after, limit))
            .await
    }

    async fn uncounted_game_ids(
        &self,
        since: i64,
        limit: usize,
    ) -> Result<Vec<String>, StoreError> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        self.read(move |conn| {
            let mut stmt = conn.prepare_cached(&uncounted_ids_sql(mark))?;
            let ids = stmt
                .query_map(params![since, limit], |r| r.get::<_, String>(0))?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(ids)
        })
        .await
    }

    async fn explorer_evals(
        &self,
        variant: VariantKind,
        hashes: &[u64],
    ) -> Result<Vec<(u64, ExplorerEval)>, StoreError> {
        let hashes = hashes.to_vec();
        self.read(move |conn| evals(conn, variant, &hashes)).await
    }

    async fn put_explorer_eval(
        &self,
        variant: VariantKind,
        hash: u64,
        eval: ExplorerEval,
    ) -> Result<(), StoreError> {
        self.write(move |conn| {
            conn.prepare_cached(&put_eval_sql(mark))?
                .execute(params_from_iter(eval_values(variant, hash, eval)))?;
            Ok(())
        })
        .await
    }
}
