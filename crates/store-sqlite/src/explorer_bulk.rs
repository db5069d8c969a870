//! Many games counted at once (a rebuild): each chunk's rows, summed in
//! memory, are appended to staging tables of the writer's connection
//! (`TEMP`, split in [`PARTS`] parts by the position's hash), and merged
//! into the explorer's tables part by part, each in the order of the
//! tables' keys.
//!
//! Written straight into the tables, a chunk's rows land on pages all over
//! their B-trees: every chunk rewrote most of their pages (through the
//! WAL, then again at the checkpoint), so a rebuild's writes grew with the
//! square of the games. Merged in key order, each page is written about
//! once; each part is one short transaction, so a server writing beside a
//! rebuild waits for one part at most.

use super::row::{all, mark};
use crate::explorer::insert_game;
use rusqlite::{params, params_from_iter, Connection};
use tensorchess_store::explorer::bulk::{
    finished_games_sql, first_moves_sql, read_finished_game, read_first_move, with_first_moves,
    ExplorerChunk,
};
use tensorchess_store::explorer::{count_upsert, TOP_GAMES};
use tensorchess_store::rows::Value;
use tensorchess_store::{ExplorerGame, StoreError, StoredGame};

/// The parts the staged rows are split in (by the top bits of the hash).
pub const PARTS: i64 = 64;

/// The page cache (KiB) while a chunk is staged or a part merged.
const BULK_CACHE_KIB: i64 = 128 * 1024;

const STAGE_TABLES: &str = "
CREATE TEMP TABLE IF NOT EXISTS explorer_stage_moves (part INTEGER NOT NULL, variant TEXT NOT NULL,
    hash INTEGER NOT NULL, uci TEXT NOT NULL, rated INTEGER NOT NULL, speed INTEGER NOT NULL,
    band INTEGER NOT NULL, white INTEGER NOT NULL, draws INTEGER NOT NULL, black INTEGER NOT NULL,
    rating_sum INTEGER NOT NULL, rating_games INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS temp.explorer_stage_moves_part ON explorer_stage_moves (part);
CREATE TEMP TABLE IF NOT EXISTS explorer_stage_positions (part INTEGER NOT NULL,
    variant TEXT NOT NULL, hash INTEGER NOT NULL, game_id TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS temp.explorer_stage_positions_part ON explorer_stage_positions (part);
CREATE TEMP TABLE IF NOT EXISTS explorer_stage_top (part INTEGER NOT NULL, variant TEXT NOT NULL,
    hash INTEGER NOT NULL, rated INTEGER NOT NULL, speed INTEGER NOT NULL, band INTEGER NOT NULL,
    rating INTEGER NOT NULL, game_id TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS temp.explorer_stage_top_part ON explorer_stage_top (part);
";

/// The part of a row whose position's stored hash is `hash`.
fn part_of(row: &[Value]) -> i64 {
    match row.get(1) {
        Some(Value::Int(Some(hash))) => ((*hash as u64) >> 58) as i64 % PARTS,
        _ => 0,
    }
}

/// Runs `f` with a larger page cache, then SQLite's default again.
fn with_cache<T>(
    conn: &Connection,
    f: impl FnOnce() -> Result<T, StoreError>,
) -> Result<T, StoreError> {
    let cache: i64 = conn.pragma_query_value(None, "cache_size", |r| r.get(0))?;
    conn.pragma_update(None, "cache_size", -BULK_CACHE_KIB)?;
    let out = f();
    conn.pragma_update(None, "cache_size", cache)?;
    out
}

/// Counts the games of `games` not counted yet: their `explorer_games`
/// rows written now (one in `games` twice, or counted by a server
/// meanwhile, counts once), their other rows summed and staged.
pub fn stage(conn: &Connection, games: &[ExplorerGame]) -> Result<usize, StoreError> {
    with_cache(conn, || {
        conn.execute_batch(STAGE_TABLES)?;
        let mut new = Vec::with_capacity(games.len());
        for game in games {
            if insert_game(conn, game)? {
                new.push(game);
            }
        }
        let chunk = ExplorerChunk::of(new.iter().copied());
        let staged = [
            (
                "explorer_stage_moves",
                12,
                chunk.count_values().collect::<Vec<_>>(),
            ),
            (
                "explorer_stage_positions",
                4,
                chunk.position_values().collect(),
            ),
            ("explorer_stage_top", 8, chunk.top_values().collect()),
        ];
        for (table, columns, rows) in staged {
            let marks: Vec<String> = (1..=columns).map(mark).collect();
            let mut stmt = conn.prepare_cached(&format!(
                "INSERT INTO {table} VALUES ({})",
                marks.join(", ")
            ))?;
            for row in rows {
                let part = Value::Int(Some(part_of(&row)));
                stmt.execute(params_from_iter(std::iter::once(part).chain(row)))?;
            }
        }
        Ok(new.len())
    })
}

/// Adds the rows staged in `part` to the explorer's tables, in the order
/// of their keys, keeps the best [`TOP_GAMES`] of each bucket of top games
/// it touched, and forgets them.
pub fn merge_part(conn: &Connection, part: i64) -> Result<(), StoreError> {
    let staged: bool = conn
        .query_row(
            "SELECT COUNT(*) FROM sqlite_temp_master WHERE name = 'explorer_stage_moves'",
            [],
            |r| r.get::<_, i64>(0),
        )
        .map(|n| n > 0)?;
    if !staged {
        return Ok(());
    }
    with_cache(conn, || {
        let key = "variant, hash, uci, rated, speed, band";
        conn.prepare_cached(&count_upsert(&format!(
            "SELECT {key}, SUM(white), SUM(draws), SUM(black), SUM(rating_sum), \
             SUM(rating_games) FROM explorer_stage_moves WHERE part = ?1 \
             GROUP BY {key} ORDER BY {key}"
        )))?
        .execute(params![part])?;
        conn.prepare_cached(
            "INSERT INTO explorer_positions (variant, hash, game_id) \
             SELECT variant, hash, game_id FROM explorer_stage_positions WHERE part = ?1 \
             ORDER BY variant, hash, game_id ON CONFLICT DO NOTHING",
        )?
        .execute(params![part])?;
        let bucket = "variant, hash, rated, speed, band";
        conn.prepare_cached(&format!(
            "INSERT INTO explorer_top ({bucket}, rating, game_id) \
             SELECT {bucket}, rating, game_id FROM (SELECT *, ROW_NUMBER() OVER \
             (PARTITION BY {bucket} ORDER BY rating DESC, game_id) AS n \
             FROM explorer_stage_top WHERE part = ?1) WHERE n <= {TOP_GAMES} \
             ORDER BY {bucket}, game_id ON CONFLICT DO NOTHING"
        ))?
        .execute(params![part])?;
        // Buckets that had games before (counted by a server meanwhile, or
        // an earlier merge) keep their best TOP_GAMES.
        conn.prepare_cached(&format!(
            "DELETE FROM explorer_top WHERE rowid IN (SELECT id FROM (SELECT t.rowid AS id, \
             ROW_NUMBER() OVER (PARTITION BY t.variant, t.hash, t.rated, t.speed, t.band \
             ORDER BY t.rating DESC, t.game_id) AS n \
             FROM (SELECT DISTINCT {bucket} FROM explorer_stage_top WHERE part = ?1) b \
             JOIN explorer_top t ON t.variant = b.variant AND t.hash = b.hash \
             AND t.rated = b.rated AND t.speed = b.speed AND t.band = b.band) \
             WHERE n > {TOP_GAMES})"
        ))?
        .execute(params![part])?;
        for table in [
            "explorer_stage_moves",
            "explorer_stage_positions",
            "explorer_stage_top",
        ] {
            conn.prepare_cached(&format!("DELETE FROM {table} WHERE part = ?1"))?
                .execute(params![part])?;
        }
        Ok(())
    })
}

/// Drops the staging tables (every part merged).
pub fn drop_stage(conn: &Connection) -> Result<(), StoreError> {
    conn.execute_batch(
        "DROP TABLE IF EXISTS temp.explorer_stage_moves; \
         DROP TABLE IF EXISTS temp.explorer_stage_positions; \
         DROP TABLE IF EXISTS temp.explorer_stage_top;",
    )?;
    Ok(())
}

/// A page of finished online games with their first moves.
pub fn source_games(
    conn: &Connection,
    after: &str,
    limit: usize,
) -> Result<Vec<StoredGame>, StoreError> {
    let limit = i64::try_from(limit).unwrap_or(i64::MAX);
    let games = all(
        &mut *conn.prepare_cached(&finished_games_sql(mark))?,
        params![after, limit],
        |r| read_finished_game(r),
    )?;
    let (Some(first), Some(last)) = (games.first(), games.last()) else {
        return Ok(games);
    };
    let (first, last) = (first.record.id.clone(), last.record.id.clone());
    let moves = all(
        &mut *conn.prepare_cached(&first_moves_sql(mark))?,
        params![first, last],
        |r| read_first_move(r),
    )?;
    Ok(with_first_moves(games, moves))
}
