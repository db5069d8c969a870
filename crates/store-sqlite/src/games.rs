//! Games, moves and online state in SQLite: the statements, each a
//! function of a connection (run by the writer thread or on the read
//! connection; the rows are mapped in [`tensorchess_store::rows`]).

use super::row::{insert_row, mark};
use crate::SqliteStore;
use async_trait::async_trait;
use rusqlite::{params, params_from_iter, Connection, OptionalExtension};
use tensorchess_store::columns::ending_columns;
use tensorchess_store::prelude::*;
use tensorchess_store::rows::{
    assignments, online_values, placeholders, prefixed_record_columns, read_online, read_record,
    read_summary, record_values, Value, ONLINE_COLUMNS, ONLINE_COLUMN_COUNT, RECORD_COLUMNS,
    SUMMARY_EXTRA_COLUMNS,
};
use tensorchess_store::RunRecord;
use tensorchess_store::{
    GameListQuery, GameSummary, GameUpdate, MovesChange, OnlineRecord, RatingWrite, StoreError,
    StoredGame, StoredMove,
};

/// Replaces a game's online state (inserted, or every column updated).
fn write_online(conn: &Connection, id: &str, o: &OnlineRecord) -> Result<(), StoreError> {
    // Made once: every move's commit looks its statement up by it.
    static SQL: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let sql = SQL.get_or_init(|| {
        format!(
            "INSERT INTO online_games (game_id, {ONLINE_COLUMNS}) VALUES (?1, {}) \
             ON CONFLICT(game_id) DO UPDATE SET {}",
            placeholders(mark, 2, ONLINE_COLUMN_COUNT),
            assignments(ONLINE_COLUMNS, mark, 2)
        )
    });
    conn.prepare_cached(sql)?.execute(params_from_iter(
        std::iter::once(Value::Text(Some(id.to_string()))).chain(online_values(o)),
    ))?;
    Ok(())
}

/// Writes a player's new rating if the stored one is still `before`.
fn write_rating(conn: &Connection, w: &RatingWrite) -> Result<(), StoreError> {
    super::learning::write_rating(
        conn,
        "INSERT INTO ratings (player_id, variant, rating, rd, volatility, games) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT DO NOTHING",
        "UPDATE ratings SET rating = ?3, rd = ?4, volatility = ?5, games = ?6 \
         WHERE player_id = ?1 AND variant = ?2 AND games = ?7",
        [&w.player_id, &w.pool.key()],
        w.before.as_ref(),
        &w.after,
        format!("rating of {}", w.player_id),
    )
}

/// Writes an update to revision `update.rev - 1` of a game.
pub fn apply_update(conn: &Connection, id: &str, update: &GameUpdate) -> Result<(), StoreError> {
    let (result, reason) = ending_columns(update.ending);
    let n = conn
        .prepare_cached(
            "UPDATE games SET rev = ?2, result = ?3, end_reason = ?4, updated_at = ?5 \
             WHERE id = ?1 AND rev = ?2 - 1",
        )?
        .execute(params![id, update.rev, result, reason, update.updated_at])?;
    if n == 0 {
        let found: Option<i64> = conn
            .prepare_cached("SELECT rev FROM games WHERE id = ?1")?
            .query_row(params![id], |r| r.get(0))
            .optional()?;
        return Err(match found {
            None => StoreError::Conflict(format!("there is no game {id}")),
            Some(found) => StoreError::Stale {
                id: id.to_string(),
                found,
            },
        });
    }
    if let Some([white, black]) = &update.names {
        conn.prepare_cached("UPDATE games SET white = ?2, black = ?3 WHERE id = ?1")?
            .execute(params![id, white, black])?;
    }
    if let Some(online) = &update.online {
        write_online(conn, id, online)?;
    }
    for w in &update.ratings {
        write_rating(conn, w)?;
    }
    if let Some(ending) = update.ending {
        super::tournaments::game_ended(conn, id, ending)?;
    }
    Ok(())
}

pub fn insert_game(conn: &Connection, game: &StoredGame) -> Result<(), StoreError> {
    let r = &game.record;
    let values = record_values(r);
    insert_row(conn, "games", RECORD_COLUMNS, values)?;
    let mut ins = conn.prepare_cached(
        "INSERT INTO moves (game_id, ply, uci, san, played_at) VALUES (?1, ?2, ?3, ?4, ?5)",
    )?;
    for m in &game.moves {
        ins.execute(params![r.id, m.ply as i64, m.uci, m.san, r.created_at])?;
    }
    if let Some(online) = &game.online {
        write_online(conn, &r.id, online)?;
    }
    Ok(())
}

pub fn push_move(conn: &Connection, id: &str, mv: &StoredMove, at: i64) -> Result<(), StoreError> {
    // Plies 0, 1, … with no gap: the count is the last ply plus one, read
    // from the primary key's index (a count would read every move).
    let count: i64 = conn
        .prepare_cached("SELECT COALESCE(MAX(ply) + 1, 0) FROM moves WHERE game_id = ?1")?
        .query_row(params![id], |r| r.get(0))?;
    if count as usize != mv.ply {
        return Err(StoreError::Conflict(format!(
            "game {id} has {count} moves stored, not {}",
            mv.ply
        )));
    }
    conn.prepare_cached(
        "INSERT INTO moves (game_id, ply, uci, san, played_at) VALUES (?1, ?2, ?3, ?4, ?5)",
    )?
    .execute(params![id, mv.ply as i64, mv.uci, mv.san, at])?;
    Ok(())
}

pub fn commit(
    conn: &Connection,
    id: &str,
    moves: &MovesChange,
    update: &GameUpdate,
) -> Result<(), StoreError> {
    apply_update(conn, id, update)?;
    if let Some(color) = update.berserk {
        crate::tournaments::berserk(conn, id, color)?;
    }
    match moves {
        MovesChange::Keep => {}
        MovesChange::Push(mv) => push_move(conn, id, mv, update.updated_at)?,
        MovesChange::Truncate(keep) => {
            conn.prepare_cached("DELETE FROM moves WHERE game_id = ?1 AND ply >= ?2")?
                .execute(params![id, *keep as i64])?;
        }
    }
    Ok(())
}

pub fn load_game(
    conn: &Connection,
    id: &str,
    from: usize,
) -> Result<Option<StoredGame>, StoreError> {
    let mut stmt =
        conn.prepare_cached(&format!("SELECT {RECORD_COLUMNS} FROM games WHERE id = ?1"))?;
    let mut rows = stmt.query(params![id])?;
    let Some(row) = rows.next()? else {
        return Ok(None);
    };
    let record = read_record(row, 0)?;
    let moves = conn
        .prepare_cached(
            "SELECT ply, uci, san FROM moves WHERE game_id = ?1 AND ply >= ?2 ORDER BY ply",
        )?
        .query_map(params![id, from as i64], |row| {
            Ok(StoredMove {
                ply: row.get::<_, i64>(0)? as usize,
                uci: row.get(1)?,
                san: row.get(2)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {ONLINE_COLUMNS} FROM online_games WHERE game_id = ?1"
    ))?;
    let mut rows = stmt.query(params![id])?;
    let online = match rows.next()? {
        Some(row) => Some(read_online(row, 0)?),
        None => None,
    };
    Ok(Some(StoredGame {
        record,
        moves,
        online,
    }))
}

/// Summaries from a query whose columns are the record's, then the move count.
fn summaries(
    stmt: &mut rusqlite::CachedStatement<'_>,
    params: impl rusqlite::Params,
) -> Result<Vec<GameSummary>, StoreError> {
    let mut rows = stmt.query(params)?;
    let mut out = Vec::new();
    while let Some(row) = rows.next()? {
        out.extend(read_summary(row)?);
    }
    Ok(out)
}

pub fn list_games(conn: &Connection, q: &GameListQuery) -> Result<Vec<GameSummary>, StoreError> {
    let (before_at, before_id) = q.before.clone().unwrap_or((i64::MAX, String::new()));
    let sql = format!(
        "SELECT {}, {SUMMARY_EXTRA_COLUMNS} \
         FROM games g \
         WHERE g.id IN (SELECT id FROM games WHERE owner = ?1 \
                UNION SELECT game_id FROM online_games WHERE white_player = ?1 \
                UNION SELECT game_id FROM online_games WHERE black_player = ?1) \
           AND (g.updated_at < ?2 OR (g.updated_at = ?2 AND g.id < ?3) OR ?4) \
         ORDER BY g.updated_at DESC, g.id DESC LIMIT ?5",
        prefixed_record_columns()
    );
    let mut stmt = conn.prepare_cached(&sql)?;
    summaries(
        &mut stmt,
        params![
            q.player,
            before_at,
            before_id,
            q.before.is_none(),
            q.limit as i64
        ],
    )
}

/// [`GameStore::game_counts`](tensorchess_store::GameStore::game_counts).
pub fn game_counts(
    conn: &Connection,
    player: &str,
) -> Result<tensorchess_store::GameCounts, StoreError> {
    let mut stmt = conn.prepare_cached(
        "SELECT COUNT(*), \
         COALESCE(SUM(CASE WHEN g.rated <> 0 THEN 1 ELSE 0 END), 0), \
         COALESCE(SUM(CASE WHEN (g.result = '1-0' AND o.white_player = ?1) OR (g.result = '0-1' AND o.black_player = ?1) THEN 1 ELSE 0 END), 0), \
         COALESCE(SUM(CASE WHEN (g.result = '0-1' AND o.white_player = ?1) OR (g.result = '1-0' AND o.black_player = ?1) THEN 1 ELSE 0 END), 0), \
         COALESCE(SUM(CASE WHEN g.result = '1/2-1/2' THEN 1 ELSE 0 END), 0), \
         COALESCE(SUM(CASE WHEN g.end_reason IS NULL THEN 1 ELSE 0 END), 0) \
         FROM games g JOIN online_games o ON o.game_id = g.id \
         WHERE o.white_player = ?1 OR o.black_player = ?1",
    )?;
    let n = |v: i64| u32::try_from(v).unwrap_or(u32::MAX);
    Ok(stmt.query_row(params![player], |r| {
        Ok(tensorchess_store::GameCounts {
            all: n(r.get(0)?),
            rated: n(r.get(1)?),
            win: n(r.get(2)?),
            loss: n(r.get(3)?),
            draw: n(r.get(4)?),
            playing: n(r.get(5)?),
        })
    })?)
}

/// [`GameRepo::search_games`](tensorchess_store::GameRepo::search_games).
pub fn search_games(
    conn: &Connection,
    q: &tensorchess_store::GameSearch,
) -> Result<Vec<(String, i64)>, StoreError> {
    let sql = if q.oldest_first {
        "SELECT g.id, g.created_at FROM games g JOIN online_games o ON o.game_id = g.id \
         WHERE (o.white_player = ?1 OR o.black_player = ?1) \
           AND (?2 IS NULL OR (o.white_player = ?1 AND o.black_player = ?2) \
                OR (o.black_player = ?1 AND o.white_player = ?2)) \
           AND (?3 IS NULL OR g.rated = ?3) \
           AND (?4 IS NULL OR g.created_at >= ?4) \
           AND (?5 IS NULL OR g.created_at <= ?5) \
           AND (?6 = FALSE OR g.end_reason IS NOT NULL) \
           AND (?7 IS NULL OR g.created_at > ?7 OR (g.created_at = ?7 AND g.id > ?8)) \
           AND (?10 IS NULL OR EXISTS (SELECT 1 FROM explorer_positions p \
                WHERE p.variant = ?10 AND p.hash = ?11 AND p.game_id = g.id)) \
           AND (?12 IS NULL OR g.variant = ?12) \
           AND (?13 IS NULL OR (o.white_player = ?1 AND g.result = ?13) \
                OR (o.black_player = ?1 AND g.result = ?14)) \
         ORDER BY g.created_at ASC, g.id ASC LIMIT ?9"
    } else {
        "SELECT g.id, g.created_at FROM games g JOIN online_games o ON o.game_id = g.id \
         WHERE (o.white_player = ?1 OR o.black_player = ?1) \
           AND (?2 IS NULL OR (o.white_player = ?1 AND o.black_player = ?2) \
                OR (o.black_player = ?1 AND o.white_player = ?2)) \
           AND (?3 IS NULL OR g.rated = ?3) \
           AND (?4 IS NULL OR g.created_at >= ?4) \
           AND (?5 IS NULL OR g.created_at <= ?5) \
           AND (?6 = FALSE OR g.end_reason IS NOT NULL) \
           AND (?7 IS NULL OR g.created_at < ?7 OR (g.created_at = ?7 AND g.id < ?8)) \
           AND (?10 IS NULL OR EXISTS (SELECT 1 FROM explorer_positions p \
                WHERE p.variant = ?10 AND p.hash = ?11 AND p.game_id = g.id)) \
           AND (?12 IS NULL OR g.variant = ?12) \
           AND (?13 IS NULL OR (o.white_player = ?1 AND g.result = ?13) \
                OR (o.black_player = ?1 AND g.result = ?14)) \
         ORDER BY g.created_at DESC, g.id DESC LIMIT ?9"
    };
    let (after_at, after_id) = match &q.after {
        Some((at, id)) => (Some(*at), Some(id.clone())),
        None => (None, None),
    };
    let mut stmt = conn.prepare_cached(sql)?;
    let rows = stmt.query_map(
        params![
            q.player,
            q.opponent,
            q.rated,
            q.since,
            q.until,
            q.finished,
            after_at,
            after_id,
            q.limit as i64,
            q.position.map(|(v, _)| v.name()),
            q.position
                .map(|(_, h)| tensorchess_store::explorer::stored_hash(h)),
            q.variant.map(|v| v.name()),
            q.end
                .map(|e| e.stored_result(tensorchess_rules::Color::White)),
            q.end
                .map(|e| e.stored_result(tensorchess_rules::Color::Black)),
        ],
        |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)),
    )?;
    Ok(rows.collect::<Result<Vec<_>, _>>()?)
}

pub fn finished_online_games(
    conn: &Connection,
    player: &str,
    limit: usize,
) -> Result<Vec<GameSummary>, StoreError> {
    let sql = format!(
        "SELECT {}, {SUMMARY_EXTRA_COLUMNS} \
         FROM games g JOIN online_games o ON o.game_id = g.id \
         WHERE (o.white_player = ?1 OR o.black_player = ?1) AND g.end_reason IS NOT NULL \
         ORDER BY g.updated_at DESC, g.id DESC LIMIT ?2",
        prefixed_record_columns()
    );
    let mut stmt = conn.prepare_cached(&sql)?;
    summaries(&mut stmt, params![player, limit as i64])
}

#[async_trait]
impl GameRepo for SqliteStore {
    async fn create_game(&self, game: &StoredGame) -> Result<(), StoreError> {
        let game = game.clone();
        self.write(move |conn| insert_game(conn, &game)).await
    }

    async fn load_game_from(
        &self,
        id: &str,
        from: usize,
    ) -> Result<Option<StoredGame>, StoreError> {
        let id = id.to_string();
        self.read(move |conn| load_game(conn, &id, from)).await
    }

    async fn list_games(&self, query: &GameListQuery) -> Result<Vec<GameSummary>, StoreError> {
        let query = query.clone();
        self.read(move |conn| list_games(conn, &query)).await
    }

    async fn game_counts(&self, player: &str) -> Result<tensorchess_store::GameCounts, StoreError> {
        let player = player.to_string();
        self.read(move |conn| game_counts(conn, &player)).await
    }

    async fn search_games(
        &self,
        search: &tensorchess_store::GameSearch,
    ) -> Result<Vec<(String, i64)>, StoreError> {
        let search = search.clone();
        self.read(move |conn| search_games(conn, &search)).await
    }

    async fn finished_online_games(
        &self,
        player: &str,
        limit: usize,
    ) -> Result<Vec<GameSummary>, StoreError> {
        let player = player.to_string();
        self.read(move |conn| finished_online_games(conn, &player, limit))
            .await
    }

    async fn commit(
        &self,
        id: &str,
        moves: &MovesChange,
        update: &GameUpdate,
    ) -> Result<(), StoreError> {
        let (id, moves, update) = (id.to_string(), moves.clone(), update.clone());
        self.write(move |conn| commit(conn, &id, &moves, &update))
            .await
    }

    async fn create_rematch(
        &self,
        game: &StoredGame,
        previous: &str,
        update: &GameUpdate,
    ) -> Result<(), StoreError> {
        let (game, previous, update) = (game.clone(), previous.to_string(), update.clone());
        self.write(move |conn| {
            apply_update(conn, &previous, &update)?;
            insert_game(conn, &game)
        })
        .await
    }

    async fn adopt_unowned(&self, owner: &str) -> Result<Vec<String>, StoreError> {
        let owner = owner.to_string();
        self.write(move |conn| {
            let ids = conn
                .prepare_cached(
                    "UPDATE games SET owner = ?1, rev = rev + 1 \
                     WHERE owner IS NULL AND mode != 'online' RETURNING id",
                )?
                .query_map(params![owner], |r| r.get::<_, String>(0))?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(ids)
        })
        .await
    }

    async fn delete_game(&self, id: &str) -> Result<bool, StoreError> {
        let id = id.to_string();
        self.write(move |conn| {
            conn.execute("DELETE FROM moves WHERE game_id = ?1", params![id])?;
            conn.execute("DELETE FROM online_games WHERE game_id = ?1", params![id])?;
            conn.execute("DELETE FROM game_reviews WHERE game_id = ?1", params![id])?;
            let n = conn.execute("DELETE FROM games WHERE id = ?1", params![id])?;
            Ok(n > 0)
        })
        .await
    }

    async fn running_online_games(&self) -> Result<Vec<String>, StoreError> {
        self.read(|conn| {
            let mut stmt = conn.prepare(
                "SELECT o.game_id FROM online_games o JOIN games g ON g.id = o.game_id \
                 WHERE o.turn_started_at IS NOT NULL AND g.result = '*' AND g.end_reason IS NULL",
            )?;
            let ids = stmt
                .query_map([], |r| r.get(0))?
                .collect::<Result<Vec<String>, _>>()?;
            Ok(ids)
        })
        .await
    }

    async fn running_correspondence_games(&self, player: &str) -> Result<Vec<String>, StoreError> {
        let player = player.to_string();
        self.read(move |conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT o.game_id FROM online_games o JOIN games g ON g.id = o.game_id \
                 WHERE o.days_per_move IS NOT NULL AND (o.white_player = ?1 OR o.black_player = ?1) \
                 AND g.result = '*' AND g.end_reason IS NULL ORDER BY g.updated_at, o.game_id",
            )?;
            let ids = stmt
                .query_map(params![player], |r| r.get(0))?
                .collect::<Result<Vec<String>, _>>()?;
            Ok(ids)
        })
        .await
    }

    async fn start_run(&self, boot_ms: i64) -> Result<i64, StoreError> {
        self.write(move |conn| {
            conn.execute(
                "INSERT INTO server_runs (boot_ms, last_seen_ms) VALUES (?1, ?1)",
                params![boot_ms],
            )?;
            Ok(conn.last_insert_rowid())
        })
        .await
    }

    async fn heartbeat(&self, run: i64, now_ms: i64) -> Result<(), StoreError> {
        self.write(move |conn| {
            conn.execute(
                "UPDATE server_runs SET last_seen_ms = MAX(last_seen_ms, ?2) WHERE id = ?1",
                params![run, now_ms],
            )?;
            Ok(())
        })
        .await
    }

    async fn runs_since(&self, since_ms: i64) -> Result<Vec<RunRecord>, StoreError> {
        self.read(move |conn| {
            let mut stmt = conn.prepare(
                "SELECT id, boot_ms, last_seen_ms FROM server_runs WHERE last_seen_ms > ?1 ORDER BY id",
            )?;
            let runs = stmt
                .query_map(params![since_ms], |r| {
                    Ok(RunRecord {
                        id: r.get(0)?,
                        boot_ms: r.get(1)?,
                        last_seen_ms: r.get(2)?,
                    })
                })?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(runs)
        })
        .await
    }
}
