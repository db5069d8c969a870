//! Where games live between requests and across restarts.
//!
//! Everything the server keeps goes through the [`GameStore`] trait, so that
//! another database can be added without touching the handlers. The one
//! implementation here, [`SqliteStore`], keeps an embedded SQLite file with
//! numbered schema migrations. Every write is one transaction, committed
//! (`synchronous = FULL`) before the call returns, so a move the server has
//! acknowledged survives the process being killed.

use async_trait::async_trait;
use rusqlite::{params, Connection, OptionalExtension};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// A storage failure (the disk, the database file, or a broken invariant).
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database error: {0}")]
    Database(#[from] rusqlite::Error),
    #[error("storage task failed: {0}")]
    Task(String),
    #[error("{0}")]
    Conflict(String),
    #[error("the database at {path} was written by a newer version (schema {found}, this program knows {known})")]
    TooNew {
        path: String,
        found: i64,
        known: i64,
    },
}

/// How a game is played.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameMode {
    /// One person against the engine.
    Engine,
    /// Two people taking turns on one device.
    Local,
}

impl GameMode {
    pub fn as_str(self) -> &'static str {
        match self {
            GameMode::Engine => "engine",
            GameMode::Local => "local",
        }
    }

    pub fn parse(s: &str) -> Option<GameMode> {
        match s {
            "engine" => Some(GameMode::Engine),
            "local" => Some(GameMode::Local),
            _ => None,
        }
    }
}

/// What is stored about a game, besides its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub id: String,
    /// `tensor`, `chess` or `chessence`.
    pub variant: String,
    pub start_fen: String,
    pub mode: GameMode,
    /// The person's colour against the engine (`white`/`black`).
    pub human_color: Option<String>,
    /// The engine's level, 1..=6.
    pub level: Option<u8>,
    pub white: String,
    pub black: String,
    /// `1-0`, `0-1`, `1/2-1/2`, or `*` while the game goes on.
    pub result: String,
    /// Why the game ended (`checkmate`, `resignation`, ...), if it did.
    pub end_reason: Option<String>,
    /// Bumped by every change, so pages can tell new states from old ones.
    pub rev: i64,
    /// Milliseconds since the Unix epoch.
    pub created_at: i64,
    pub updated_at: i64,
}

/// One stored move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredMove {
    /// 0 for the first move of the game.
    pub ply: usize,
    /// The move string (RULES 4.2).
    pub uci: String,
    pub san: String,
}

/// A game with its moves, as loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredGame {
    pub record: GameRecord,
    pub moves: Vec<StoredMove>,
}

/// A line of the saved-games list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSummary {
    pub record: GameRecord,
    pub move_count: usize,
}

/// The fields of a game that change as it is played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameUpdate {
    pub rev: i64,
    pub result: String,
    pub end_reason: Option<String>,
    pub updated_at: i64,
}

/// Storage for games. Each method is one atomic, durable write or one read.
#[async_trait]
pub trait GameStore: Send + Sync + 'static {
    /// Stores a new game with the moves it starts with (an imported PGN).
    async fn create_game(&self, game: &StoredGame) -> Result<(), StoreError>;
    async fn load_game(&self, id: &str) -> Result<Option<StoredGame>, StoreError>;
    /// The most recently played games first.
    async fn list_games(&self, limit: usize) -> Result<Vec<GameSummary>, StoreError>;
    /// Appends one move; fails with [`StoreError::Conflict`] unless it is the
    /// next ply of that game.
    async fn append_move(
        &self,
        id: &str,
        mv: &StoredMove,
        update: &GameUpdate,
    ) -> Result<(), StoreError>;
    /// Keeps the first `keep` moves and deletes the others (a takeback).
    async fn truncate_moves(
        &self,
        id: &str,
        keep: usize,
        update: &GameUpdate,
    ) -> Result<(), StoreError>;
    /// Changes the result without a move (resignation, agreement).
    async fn update_game(&self, id: &str, update: &GameUpdate) -> Result<(), StoreError>;
    /// Deletes a game and its moves; false if there was none.
    async fn delete_game(&self, id: &str) -> Result<bool, StoreError>;
}

/// Schema migrations, applied in order; `PRAGMA user_version` counts those done.
/// Append new ones; never edit one that has shipped.
const MIGRATIONS: &[&str] = &[
    // 1: games and their moves.
    "CREATE TABLE games (
        id          TEXT PRIMARY KEY,
        variant     TEXT NOT NULL,
        start_fen   TEXT NOT NULL,
        mode        TEXT NOT NULL,
        human_color TEXT,
        level       INTEGER,
        white       TEXT NOT NULL,
        black       TEXT NOT NULL,
        result      TEXT NOT NULL DEFAULT '*',
        end_reason  TEXT,
        rev         INTEGER NOT NULL DEFAULT 0,
        created_at  INTEGER NOT NULL,
        updated_at  INTEGER NOT NULL
    );
    CREATE TABLE moves (
        game_id   TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        ply       INTEGER NOT NULL,
        uci       TEXT NOT NULL,
        san       TEXT NOT NULL,
        played_at INTEGER NOT NULL,
        PRIMARY KEY (game_id, ply)
    );
    CREATE INDEX games_by_update ON games(updated_at DESC);",
];

/// The SQLite implementation of [`GameStore`].
#[derive(Clone)]
pub struct SqliteStore {
    conn: Arc<Mutex<Connection>>,
    path: PathBuf,
}

impl SqliteStore {
    /// Opens (creating if needed) the database file and brings its schema up to date.
    pub fn open(path: impl AsRef<Path>) -> Result<SqliteStore, StoreError> {
        let path = path.as_ref().to_path_buf();
        let mut conn = Connection::open(&path)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        migrate(&mut conn, &path)?;
        Ok(SqliteStore {
            conn: Arc::new(Mutex::new(conn)),
            path,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The schema version of the open database.
    pub fn schema_version(&self) -> Result<i64, StoreError> {
        let conn = self.conn.lock().unwrap_or_else(|e| e.into_inner());
        Ok(conn.pragma_query_value(None, "user_version", |r| r.get(0))?)
    }

    /// Runs `f` on the connection off the async runtime.
    async fn with<T, F>(&self, f: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: FnOnce(&mut Connection) -> Result<T, StoreError> + Send + 'static,
    {
        let conn = self.conn.clone();
        tokio::task::spawn_blocking(move || {
            // A panic while holding the lock cannot leave a transaction half
            // done (rusqlite rolls back on drop), so the connection stays usable.
            let mut guard = conn.lock().unwrap_or_else(|e| e.into_inner());
            f(&mut guard)
        })
        .await
        .map_err(|e| StoreError::Task(e.to_string()))?
    }
}

/// The number of migrations this program knows.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

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

fn read_record(row: &rusqlite::Row<'_>) -> rusqlite::Result<GameRecord> {
    let mode: String = row.get(3)?;
    Ok(GameRecord {
        id: row.get(0)?,
        variant: row.get(1)?,
        start_fen: row.get(2)?,
        mode: GameMode::parse(&mode).unwrap_or(GameMode::Local),
        human_color: row.get(4)?,
        level: row.get::<_, Option<i64>>(5)?.map(|l| l.clamp(1, 6) as u8),
        white: row.get(6)?,
        black: row.get(7)?,
        result: row.get(8)?,
        end_reason: row.get(9)?,
        rev: row.get(10)?,
        created_at: row.get(11)?,
        updated_at: row.get(12)?,
    })
}

fn apply_update(
    tx: &rusqlite::Transaction<'_>,
    id: &str,
    update: &GameUpdate,
) -> Result<(), StoreError> {
    let n = tx.execute(
        "UPDATE games SET rev = ?2, result = ?3, end_reason = ?4, updated_at = ?5 WHERE id = ?1",
        params![
            id,
            update.rev,
            update.result,
            update.end_reason,
            update.updated_at
        ],
    )?;
    if n == 0 {
        return Err(StoreError::Conflict(format!("there is no game {id}")));
    }
    Ok(())
}

#[async_trait]
impl GameStore for SqliteStore {
    async fn create_game(&self, game: &StoredGame) -> Result<(), StoreError> {
        let game = game.clone();
        self.with(move |conn| {
            let tx = conn.transaction()?;
            let r = &game.record;
            tx.execute(
                &format!(
                    "INSERT INTO games ({RECORD_COLUMNS}) \
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)"
                ),
                params![
                    r.id,
                    r.variant,
                    r.start_fen,
                    r.mode.as_str(),
                    r.human_color,
                    r.level.map(i64::from),
                    r.white,
                    r.black,
                    r.result,
                    r.end_reason,
                    r.rev,
                    r.created_at,
                    r.updated_at
                ],
            )?;
            {
                let mut ins = tx.prepare(
                    "INSERT INTO moves (game_id, ply, uci, san, played_at) VALUES (?1, ?2, ?3, ?4, ?5)",
                )?;
                for m in &game.moves {
                    ins.execute(params![r.id, m.ply as i64, m.uci, m.san, r.created_at])?;
                }
            }
            tx.commit()?;
            Ok(())
        })
        .await
    }

    async fn load_game(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        let id = id.to_string();
        self.with(move |conn| {
            let record = conn
                .query_row(
                    &format!("SELECT {RECORD_COLUMNS} FROM games WHERE id = ?1"),
                    params![id],
                    read_record,
                )
                .optional()?;
            let Some(record) = record else {
                return Ok(None);
            };
            let mut stmt =
                conn.prepare("SELECT ply, uci, san FROM moves WHERE game_id = ?1 ORDER BY ply")?;
            let moves = stmt
                .query_map(params![id], |row| {
                    Ok(StoredMove {
                        ply: row.get::<_, i64>(0)? as usize,
                        uci: row.get(1)?,
                        san: row.get(2)?,
                    })
                })?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Some(StoredGame { record, moves }))
        })
        .await
    }

    async fn list_games(&self, limit: usize) -> Result<Vec<GameSummary>, StoreError> {
        self.with(move |conn| {
            let cols = RECORD_COLUMNS
                .split(", ")
                .map(|c| format!("g.{c}"))
                .collect::<Vec<_>>()
                .join(", ");
            let mut stmt = conn.prepare(&format!(
                "SELECT {cols}, (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) \
                 FROM games g ORDER BY g.updated_at DESC, g.created_at DESC LIMIT ?1"
            ))?;
            let rows = stmt
                .query_map(params![limit as i64], |row| {
                    Ok(GameSummary {
                        record: read_record(row)?,
                        move_count: row.get::<_, i64>(13)? as usize,
                    })
                })?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(rows)
        })
        .await
    }

    async fn append_move(
        &self,
        id: &str,
        mv: &StoredMove,
        update: &GameUpdate,
    ) -> Result<(), StoreError> {
        let (id, mv, update) = (id.to_string(), mv.clone(), update.clone());
        self.with(move |conn| {
            let tx = conn.transaction()?;
            let count: i64 = tx.query_row(
                "SELECT COUNT(*) FROM moves WHERE game_id = ?1",
                params![id],
                |r| r.get(0),
            )?;
            if count as usize != mv.ply {
                return Err(StoreError::Conflict(format!(
                    "game {id} has {count} moves stored, not {}",
                    mv.ply
                )));
            }
            tx.execute(
                "INSERT INTO moves (game_id, ply, uci, san, played_at) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![id, mv.ply as i64, mv.uci, mv.san, update.updated_at],
            )?;
            apply_update(&tx, &id, &update)?;
            tx.commit()?;
            Ok(())
        })
        .await
    }

    async fn truncate_moves(
        &self,
        id: &str,
        keep: usize,
        update: &GameUpdate,
    ) -> Result<(), StoreError> {
        let (id, update) = (id.to_string(), update.clone());
        self.with(move |conn| {
            let tx = conn.transaction()?;
            tx.execute(
                "DELETE FROM moves WHERE game_id = ?1 AND ply >= ?2",
                params![id, keep as i64],
            )?;
            apply_update(&tx, &id, &update)?;
            tx.commit()?;
            Ok(())
        })
        .await
    }

    async fn update_game(&self, id: &str, update: &GameUpdate) -> Result<(), StoreError> {
        let (id, update) = (id.to_string(), update.clone());
        self.with(move |conn| {
            let tx = conn.transaction()?;
            apply_update(&tx, &id, &update)?;
            tx.commit()?;
            Ok(())
        })
        .await
    }

    async fn delete_game(&self, id: &str) -> Result<bool, StoreError> {
        let id = id.to_string();
        self.with(move |conn| {
            let tx = conn.transaction()?;
            tx.execute("DELETE FROM moves WHERE game_id = ?1", params![id])?;
            let n = tx.execute("DELETE FROM games WHERE id = ?1", params![id])?;
            tx.commit()?;
            Ok(n > 0)
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(id: &str) -> GameRecord {
        GameRecord {
            id: id.into(),
            variant: "tensor".into(),
            start_fen: "start".into(),
            mode: GameMode::Engine,
            human_color: Some("white".into()),
            level: Some(3),
            white: "You".into(),
            black: "Engine".into(),
            result: "*".into(),
            end_reason: None,
            rev: 0,
            created_at: 1,
            updated_at: 1,
        }
    }

    fn update(rev: i64) -> GameUpdate {
        GameUpdate {
            rev,
            result: "*".into(),
            end_reason: None,
            updated_at: 2 + rev,
        }
    }

    #[tokio::test]
    async fn moves_survive_reopening_and_plies_must_follow_on() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.sqlite3");
        let store = SqliteStore::open(&path).unwrap();
        assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
        store
            .create_game(&StoredGame {
                record: record("g1"),
                moves: vec![],
            })
            .await
            .unwrap();
        let mv = |ply: usize, uci: &str| StoredMove {
            ply,
            uci: uci.into(),
            san: uci.into(),
        };
        store
            .append_move("g1", &mv(0, "e2e4"), &update(1))
            .await
            .unwrap();
        // A ply out of order is refused and changes nothing.
        let err = store
            .append_move("g1", &mv(5, "e7e5"), &update(2))
            .await
            .unwrap_err();
        assert!(matches!(err, StoreError::Conflict(_)));
        store
            .append_move("g1", &mv(1, "e7e5"), &update(2))
            .await
            .unwrap();
        drop(store);

        let store = SqliteStore::open(&path).unwrap();
        let game = store.load_game("g1").await.unwrap().unwrap();
        assert_eq!(game.moves.len(), 2);
        assert_eq!(game.record.rev, 2);
        store.truncate_moves("g1", 1, &update(3)).await.unwrap();
        let game = store.load_game("g1").await.unwrap().unwrap();
        assert_eq!(game.moves, vec![mv(0, "e2e4")]);
        let list = store.list_games(10).await.unwrap();
        assert_eq!(list.len(), 1);
        assert_eq!(list[0].move_count, 1);
        assert!(store.delete_game("g1").await.unwrap());
        assert!(!store.delete_game("g1").await.unwrap());
        assert!(store.load_game("g1").await.unwrap().is_none());
    }

    #[tokio::test]
    async fn a_newer_schema_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.sqlite3");
        {
            let conn = Connection::open(&path).unwrap();
            conn.pragma_update(None, "user_version", 99).unwrap();
        }
        assert!(matches!(
            SqliteStore::open(&path),
            Err(StoreError::TooNew { found: 99, .. })
        ));
    }
}
