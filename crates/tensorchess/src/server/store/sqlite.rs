//! [`GameStore`] over an embedded SQLite file, with numbered schema
//! migrations (`migrations/sqlite/*.sql`). Every write is atomic and
//! durable (`synchronous = FULL`) before its call returns, so a move the
//! server has acknowledged survives the process being killed. Writes go to
//! one writer thread that commits them in groups ([`super::writer`]);
//! reads use a second connection (WAL lets them run beside the writer).

use super::columns::{color_text, ending_columns, parse_color, parse_ending, parse_variant};
use super::writer::{writer_loop, Job, TypedJob};
use super::{
    ClockSettings, GameMode, GameRecord, GameStore, GameSummary, GameUpdate, MovesChange,
    OnlineRecord, RunRecord, StoreError, StoredGame, StoredMove,
};
use async_trait::async_trait;
use rusqlite::{params, Connection, OptionalExtension};
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Arc, Mutex};

/// Schema migrations, applied in order; `PRAGMA user_version` counts those
/// done. Append new ones; never edit one that has shipped.
const MIGRATIONS: &[&str] = &[
    include_str!("migrations/sqlite/0001_games.sql"),
    include_str!("migrations/sqlite/0002_online.sql"),
];

/// The number of migrations this program knows.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// The SQLite implementation of [`GameStore`].
#[derive(Clone)]
pub struct SqliteStore {
    writer: Arc<mpsc::Sender<Box<dyn Job>>>,
    reader: Arc<Mutex<Connection>>,
    path: PathBuf,
}

fn connect(path: &Path) -> Result<Connection, StoreError> {
    let conn = Connection::open(path)?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "FULL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    Ok(conn)
}

impl SqliteStore {
    /// Opens (creating if needed) the database file and brings its schema up to date.
    pub fn open(path: impl AsRef<Path>) -> Result<SqliteStore, StoreError> {
        let path = path.as_ref().to_path_buf();
        let mut conn = connect(&path)?;
        migrate(&mut conn, &path)?;
        let reader = connect(&path)?;
        let (tx, rx) = mpsc::channel::<Box<dyn Job>>();
        std::thread::Builder::new()
            .name("sqlite-writer".into())
            .spawn(move || writer_loop(conn, rx))
            .map_err(|e| StoreError::Task(format!("cannot start the database writer: {e}")))?;
        Ok(SqliteStore {
            writer: Arc::new(tx),
            reader: Arc::new(Mutex::new(reader)),
            path,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The schema version of the open database.
    pub fn schema_version(&self) -> Result<i64, StoreError> {
        let conn = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        Ok(conn.pragma_query_value(None, "user_version", |r| r.get(0))?)
    }

    /// Runs a read on the read connection, off the async runtime.
    async fn read<T, F>(&self, f: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
    {
        let conn = self.reader.clone();
        tokio::task::spawn_blocking(move || {
            let guard = conn.lock().unwrap_or_else(|e| e.into_inner());
            f(&guard)
        })
        .await
        .map_err(|e| StoreError::Task(e.to_string()))?
    }

    /// Queues a write; answers once it is committed (or failed).
    async fn write<T, F>(&self, f: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
    {
        let (reply, answer) = tokio::sync::oneshot::channel();
        let job: Box<dyn Job> = Box::new(TypedJob {
            f: Some(f),
            out: None,
            reply,
        });
        let stopped = || StoreError::Task("the database writer stopped".into());
        self.writer.send(job).map_err(|_| stopped())?;
        answer.await.map_err(|_| stopped())?
    }
}

fn migrate(conn: &mut Connection, path: &Path) -> Result<(), StoreError> {
    let current: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    if current > SCHEMA_VERSION {
        return Err(StoreError::TooNew {
            path: path.display().to_string(),
            found: current,
            known: SCHEMA_VERSION,
        });
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(current as usize) {
        let tx = conn.transaction()?;
        tx.execute_batch(sql)?;
        tx.pragma_update(None, "user_version", (i + 1) as i64)?;
        tx.commit()?;
    }
    Ok(())
}

const RECORD_COLUMNS: &str = "id, variant, start_fen, mode, human_color, level, white, black, \
     result, end_reason, rev, created_at, updated_at";

/// A record's row; a value this program cannot read is reported, not guessed.
fn read_record(row: &rusqlite::Row<'_>) -> rusqlite::Result<Result<GameRecord, StoreError>> {
    let id: String = row.get(0)?;
    let variant: String = row.get(1)?;
    let mode: String = row.get(3)?;
    let human: Option<String> = row.get(4)?;
    let result: String = row.get(8)?;
    let reason: Option<String> = row.get(9)?;
    let level = row.get::<_, Option<i64>>(5)?.map(|l| l.clamp(1, 6) as u8);
    let (white, black, rev, created_at, updated_at) = (
        row.get(6)?,
        row.get(7)?,
        row.get(10)?,
        row.get(11)?,
        row.get(12)?,
    );
    Ok((|| {
        Ok(GameRecord {
            variant: parse_variant(&id, &variant)?,
            start_fen: row.get(2).map_err(StoreError::from)?,
            mode: GameMode::parse(&mode).unwrap_or(GameMode::Local),
            human_color: human.as_deref().and_then(parse_color),
            level,
            white,
            black,
            ending: parse_ending(&id, &result, reason.as_deref())?,
            rev,
            created_at,
            updated_at,
            id,
        })
    })())
}

const ONLINE_COLUMNS: &str = "white_seat, black_seat, clock_base_ms, clock_inc_ms, white_ms, \
     black_ms, turn_started_at, draw_offer, rematch_offer, rematch_of, rematch_id";

fn read_online(row: &rusqlite::Row<'_>) -> rusqlite::Result<OnlineRecord> {
    let base: Option<i64> = row.get(2)?;
    let inc: Option<i64> = row.get(3)?;
    let color = |i: usize| -> rusqlite::Result<_> {
        Ok(row
            .get::<_, Option<String>>(i)?
            .as_deref()
            .and_then(parse_color))
    };
    Ok(OnlineRecord {
        white_seat: row.get(0)?,
        black_seat: row.get(1)?,
        clock: base.map(|base_ms| ClockSettings {
            base_ms,
            increment_ms: inc.unwrap_or(0),
        }),
        white_ms: row.get(4)?,
        black_ms: row.get(5)?,
        turn_started_at: row.get(6)?,
        draw_offer: color(7)?,
        rematch_offer: color(8)?,
        rematch_of: row.get(9)?,
        rematch_id: row.get(10)?,
    })
}

fn write_online(conn: &Connection, id: &str, o: &OnlineRecord) -> Result<(), StoreError> {
    conn.prepare_cached(&format!(
        "INSERT INTO online_games (game_id, {ONLINE_COLUMNS}) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12) \
             ON CONFLICT(game_id) DO UPDATE SET white_seat = ?2, black_seat = ?3, \
             clock_base_ms = ?4, clock_inc_ms = ?5, white_ms = ?6, black_ms = ?7, \
             turn_started_at = ?8, draw_offer = ?9, rematch_offer = ?10, rematch_of = ?11, \
             rematch_id = ?12"
    ))?
    .execute(params![
        id,
        o.white_seat,
        o.black_seat,
        o.clock.map(|c| c.base_ms),
        o.clock.map(|c| c.increment_ms),
        o.white_ms,
        o.black_ms,
        o.turn_started_at,
        o.draw_offer.map(color_text),
        o.rematch_offer.map(color_text),
        o.rematch_of,
        o.rematch_id
    ])?;
    Ok(())
}

/// Writes an update to revision `update.rev - 1` of a game.
fn apply_update(conn: &Connection, id: &str, update: &GameUpdate) -> Result<(), StoreError> {
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
    if let Some(online) = &update.online {
        write_online(conn, id, online)?;
    }
    Ok(())
}

fn insert_game(conn: &Connection, game: &StoredGame) -> Result<(), StoreError> {
    let r = &game.record;
    let (result, reason) = ending_columns(r.ending);
    conn.execute(
        &format!(
            "INSERT INTO games ({RECORD_COLUMNS}) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)"
        ),
        params![
            r.id,
            r.variant.name(),
            r.start_fen,
            r.mode.as_str(),
            r.human_color.map(color_text),
            r.level.map(i64::from),
            r.white,
            r.black,
            result,
            reason,
            r.rev,
            r.created_at,
            r.updated_at
        ],
    )?;
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

fn push_move(conn: &Connection, id: &str, mv: &StoredMove, at: i64) -> Result<(), StoreError> {
    let count: i64 = conn
        .prepare_cached("SELECT COUNT(*) FROM moves WHERE game_id = ?1")?
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

#[async_trait]
impl GameStore for SqliteStore {
    async fn create_game(&self, game: &StoredGame) -> Result<(), StoreError> {
        let game = game.clone();
        self.write(move |conn| insert_game(conn, &game)).await
    }

    async fn load_game(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        let id = id.to_string();
        self.read(move |conn| {
            let record = conn
                .query_row(
                    &format!("SELECT {RECORD_COLUMNS} FROM games WHERE id = ?1"),
                    params![id],
                    read_record,
                )
                .optional()?;
            let Some(record) = record.transpose()? else {
                return Ok(None);
            };
            let mut stmt = conn.prepare_cached(
                "SELECT ply, uci, san FROM moves WHERE game_id = ?1 ORDER BY ply",
            )?;
            let moves = stmt
                .query_map(params![id], |row| {
                    Ok(StoredMove {
                        ply: row.get::<_, i64>(0)? as usize,
                        uci: row.get(1)?,
                        san: row.get(2)?,
                    })
                })?
                .collect::<Result<Vec<_>, _>>()?;
            let online = conn
                .query_row(
                    &format!("SELECT {ONLINE_COLUMNS} FROM online_games WHERE game_id = ?1"),
                    params![id],
                    read_online,
                )
                .optional()?;
            Ok(Some(StoredGame {
                record,
                moves,
                online,
            }))
        })
        .await
    }

    async fn list_games(
        &self,
        limit: usize,
        online_ids: &[String],
    ) -> Result<Vec<GameSummary>, StoreError> {
        let ids = serde_json::to_string(online_ids).unwrap_or_else(|_| "[]".into());
        self.read(move |conn| {
            let cols = RECORD_COLUMNS
                .split(", ")
                .map(|c| format!("g.{c}"))
                .collect::<Vec<_>>()
                .join(", ");
            let mut stmt = conn.prepare(&format!(
                "SELECT {cols}, (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) \
                 FROM games g \
                 WHERE g.mode != 'online' OR g.id IN (SELECT value FROM json_each(?2)) \
                 ORDER BY g.updated_at DESC, g.created_at DESC LIMIT ?1"
            ))?;
            let rows = stmt
                .query_map(params![limit as i64, ids], |row| {
                    Ok((read_record(row)?, row.get::<_, i64>(13)? as usize))
                })?
                .collect::<Result<Vec<_>, _>>()?;
            // A row this program cannot read is left out of the list (and
            // reported), rather than hiding every other game.
            Ok(rows
                .into_iter()
                .filter_map(|(record, move_count)| match record {
                    Ok(record) => Some(GameSummary { record, move_count }),
                    Err(e) => {
                        tracing::error!("{e}");
                        None
                    }
                })
                .collect())
        })
        .await
    }

    async fn commit(
        &self,
        id: &str,
        moves: &MovesChange,
        update: &GameUpdate,
    ) -> Result<(), StoreError> {
        let (id, moves, update) = (id.to_string(), moves.clone(), update.clone());
        self.write(move |conn| {
            apply_update(conn, &id, &update)?;
            match &moves {
                MovesChange::Keep => {}
                MovesChange::Push(mv) => push_move(conn, &id, mv, update.updated_at)?,
                MovesChange::Truncate(keep) => {
                    conn.prepare_cached("DELETE FROM moves WHERE game_id = ?1 AND ply >= ?2")?
                        .execute(params![id, *keep as i64])?;
                }
            }
            Ok(())
        })
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

    async fn delete_game(&self, id: &str) -> Result<bool, StoreError> {
        let id = id.to_string();
        self.write(move |conn| {
            conn.execute("DELETE FROM moves WHERE game_id = ?1", params![id])?;
            conn.execute("DELETE FROM online_games WHERE game_id = ?1", params![id])?;
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

#[cfg(test)]
mod tests;
