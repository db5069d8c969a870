//! Where games live between requests and across restarts.
//!
//! Everything the server keeps goes through the [`GameStore`] trait, so that
//! another database can be added without touching the handlers. The one
//! implementation here, [`SqliteStore`], keeps an embedded SQLite file with
//! numbered schema migrations. Every write is atomic and durable
//! (`synchronous = FULL`) before its call returns, so a move the server has
//! acknowledged survives the process being killed.
//!
//! Writes go to one writer thread that commits them in groups: the writes
//! that queue up while one commit is being flushed to disk share the next
//! commit, each inside its own savepoint, so one failing write changes
//! nothing of the others. Under load this turns many small fsyncs into one.
//! Reads use a second connection (WAL lets them run beside the writer).

use async_trait::async_trait;
use rusqlite::{params, Connection, OptionalExtension};
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Arc, Mutex};

/// A storage failure (the disk, the database file, or a broken invariant).
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database error: {0}")]
    Database(#[from] rusqlite::Error),
    #[error("storage task failed: {0}")]
    Task(String),
    #[error("the database could not commit: {0}")]
    Commit(String),
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
    /// Two people on their own devices, each holding a seat (see [`OnlineRecord`]).
    Online,
}

impl GameMode {
    pub fn as_str(self) -> &'static str {
        match self {
            GameMode::Engine => "engine",
            GameMode::Local => "local",
            GameMode::Online => "online",
        }
    }

    pub fn parse(s: &str) -> Option<GameMode> {
        match s {
            "engine" => Some(GameMode::Engine),
            "local" => Some(GameMode::Local),
            "online" => Some(GameMode::Online),
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
    /// `1-0`, `0-1`, `1/2-1/2`, or `*` while the game goes on (or when it
    /// was aborted: then `end_reason` is set).
    pub result: String,
    /// Why the game ended (`checkmate`, `resignation`, `aborted`, ...), if it did.
    pub end_reason: Option<String>,
    /// Bumped by every change, so pages can tell new states from old ones.
    pub rev: i64,
    /// Milliseconds since the Unix epoch.
    pub created_at: i64,
    pub updated_at: i64,
}

/// A time control: `base_ms` for the game plus `increment_ms` a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockSettings {
    pub base_ms: i64,
    pub increment_ms: i64,
}

/// What an online game keeps besides its [`GameRecord`]: who holds the
/// seats, the clocks and the pending offers.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct OnlineRecord {
    /// SHA-256 (hex) of the token of the player holding the seat; `None`
    /// while it is free. Tokens themselves are never stored.
    pub white_seat: Option<String>,
    pub black_seat: Option<String>,
    /// `None`: no clock.
    pub clock: Option<ClockSettings>,
    /// Time left at the start of the current turn, in milliseconds.
    pub white_ms: i64,
    pub black_ms: i64,
    /// When the side to move's clock started running (server clock, ms);
    /// `None` while no clock runs (before both first moves, after the end).
    pub turn_started_at: Option<i64>,
    /// The colour (`white`/`black`) whose draw offer is pending.
    pub draw_offer: Option<String>,
    /// The colour whose rematch offer is pending.
    pub rematch_offer: Option<String>,
    /// The game this one is a rematch of.
    pub rematch_of: Option<String>,
    /// The rematch of this game, once agreed.
    pub rematch_id: Option<String>,
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
    /// Set for online games.
    pub online: Option<OnlineRecord>,
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
    /// An online game's new seats, clocks and offers, written in the same
    /// transaction (`None`: unchanged, or not an online game).
    pub online: Option<OnlineRecord>,
}

/// One run of a server over this database: when it started and when it was
/// last known to be up (its heartbeat). Clocks of online games count only
/// the time a server was running.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunRecord {
    pub id: i64,
    pub boot_ms: i64,
    pub last_seen_ms: i64,
}

/// Storage for games. Each method is one atomic, durable write or one read.
#[async_trait]
pub trait GameStore: Send + Sync + 'static {
    /// Stores a new game with the moves it starts with (an imported PGN).
    async fn create_game(&self, game: &StoredGame) -> Result<(), StoreError>;
    async fn load_game(&self, id: &str) -> Result<Option<StoredGame>, StoreError>;
    /// The most recently played games first: every engine and local game,
    /// and of the online games only those in `online_ids`.
    async fn list_games(
        &self,
        limit: usize,
        online_ids: &[String],
    ) -> Result<Vec<GameSummary>, StoreError>;
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
    /// Changes the result or the online state without a move (resignation,
    /// agreement, a seat taken, an offer).
    async fn update_game(&self, id: &str, update: &GameUpdate) -> Result<(), StoreError>;
    /// Stores `game` (a rematch) and updates the game it follows, together.
    async fn create_rematch(
        &self,
        game: &StoredGame,
        previous: &str,
        update: &GameUpdate,
    ) -> Result<(), StoreError>;
    /// Deletes a game and its moves; false if there was none.
    async fn delete_game(&self, id: &str) -> Result<bool, StoreError>;
    /// Online games in progress whose clock runs.
    async fn running_online_games(&self) -> Result<Vec<String>, StoreError>;
    /// Records that a server started at `boot_ms`; returns the run's id.
    async fn start_run(&self, boot_ms: i64) -> Result<i64, StoreError>;
    /// The run is still up at `now_ms`.
    async fn heartbeat(&self, run: i64, now_ms: i64) -> Result<(), StoreError>;
    /// Runs last seen after `since_ms`, oldest first.
    async fn runs_since(&self, since_ms: i64) -> Result<Vec<RunRecord>, StoreError>;
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
    // 2: online games (seats, clocks, offers, rematches) and server runs.
    "CREATE TABLE online_games (
        game_id         TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        white_seat      TEXT,
        black_seat      TEXT,
        clock_base_ms   INTEGER,
        clock_inc_ms    INTEGER,
        white_ms        INTEGER NOT NULL DEFAULT 0,
        black_ms        INTEGER NOT NULL DEFAULT 0,
        turn_started_at INTEGER,
        draw_offer      TEXT,
        rematch_offer   TEXT,
        rematch_of      TEXT,
        rematch_id      TEXT
    );
    CREATE INDEX online_clocks_running ON online_games(turn_started_at)
        WHERE turn_started_at IS NOT NULL;
    CREATE TABLE server_runs (
        id           INTEGER PRIMARY KEY AUTOINCREMENT,
        boot_ms      INTEGER NOT NULL,
        last_seen_ms INTEGER NOT NULL
    );",
];

/// Writes that may share one commit.
const MAX_BATCH: usize = 512;

/// A write waiting for the writer thread.
trait Job: Send {
    /// Runs inside a savepoint; false rolls the savepoint back.
    fn run(&mut self, conn: &Connection) -> bool;
    /// Answers the caller once the commit is known.
    fn finish(self: Box<Self>, committed: Result<(), String>);
}

struct TypedJob<T, F> {
    f: Option<F>,
    out: Option<Result<T, StoreError>>,
    reply: tokio::sync::oneshot::Sender<Result<T, StoreError>>,
}

impl<T, F> Job for TypedJob<T, F>
where
    T: Send,
    F: FnOnce(&Connection) -> Result<T, StoreError> + Send,
{
    fn run(&mut self, conn: &Connection) -> bool {
        let Some(f) = self.f.take() else {
            return false;
        };
        let out = f(conn);
        let ok = out.is_ok();
        self.out = Some(out);
        ok
    }

    fn finish(self: Box<Self>, committed: Result<(), String>) {
        let this = *self;
        let answer = match (this.out, committed) {
            (Some(Ok(v)), Ok(())) => Ok(v),
            (Some(Ok(_)), Err(e)) => Err(StoreError::Commit(e)),
            (Some(Err(e)), _) => Err(e),
            (None, Err(e)) => Err(StoreError::Commit(e)),
            (None, Ok(())) => Err(StoreError::Task("the write failed".into())),
        };
        let _ = this.reply.send(answer);
    }
}

/// The writer thread: takes the queued writes, runs each in a savepoint of
/// one transaction, commits, then answers them all.
fn writer_loop(conn: Connection, jobs: mpsc::Receiver<Box<dyn Job>>) {
    while let Ok(first) = jobs.recv() {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match jobs.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        if let Err(e) = conn.execute_batch("BEGIN IMMEDIATE") {
            let e = e.to_string();
            for job in batch {
                job.finish(Err(e.clone()));
            }
            continue;
        }
        let exec = |sql: &str| conn.prepare_cached(sql).and_then(|mut s| s.execute([]));
        for job in batch.iter_mut() {
            let ok = exec("SAVEPOINT job").is_ok()
                && std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job.run(&conn)))
                    .unwrap_or(false);
            let end = if ok {
                exec("RELEASE job")
            } else {
                exec("ROLLBACK TO job").and_then(|_| exec("RELEASE job"))
            };
            if let Err(e) = end {
                tracing::error!("savepoint: {e}");
            }
        }
        let committed = conn.execute_batch("COMMIT").map_err(|e| e.to_string());
        if committed.is_err() {
            let _ = conn.execute_batch("ROLLBACK");
        }
        for job in batch {
            job.finish(committed.clone());
        }
    }
}

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

const ONLINE_COLUMNS: &str = "white_seat, black_seat, clock_base_ms, clock_inc_ms, white_ms, \
     black_ms, turn_started_at, draw_offer, rematch_offer, rematch_of, rematch_id";

fn read_online(row: &rusqlite::Row<'_>) -> rusqlite::Result<OnlineRecord> {
    let base: Option<i64> = row.get(2)?;
    let inc: Option<i64> = row.get(3)?;
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
        draw_offer: row.get(7)?,
        rematch_offer: row.get(8)?,
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
        o.draw_offer,
        o.rematch_offer,
        o.rematch_of,
        o.rematch_id
    ])?;
    Ok(())
}

fn apply_update(conn: &Connection, id: &str, update: &GameUpdate) -> Result<(), StoreError> {
    let n = conn
        .prepare_cached(
            "UPDATE games SET rev = ?2, result = ?3, end_reason = ?4, updated_at = ?5 WHERE id = ?1",
        )?
        .execute(params![
            id,
            update.rev,
            update.result,
            update.end_reason,
            update.updated_at
        ])?;
    if n == 0 {
        return Err(StoreError::Conflict(format!("there is no game {id}")));
    }
    if let Some(online) = &update.online {
        write_online(conn, id, online)?;
    }
    Ok(())
}

fn insert_game(conn: &Connection, game: &StoredGame) -> Result<(), StoreError> {
    let r = &game.record;
    conn.execute(
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
            let Some(record) = record else {
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
        self.write(move |conn| {
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
            .execute(params![
                id,
                mv.ply as i64,
                mv.uci,
                mv.san,
                update.updated_at
            ])?;
            apply_update(conn, &id, &update)
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
        self.write(move |conn| {
            conn.execute(
                "DELETE FROM moves WHERE game_id = ?1 AND ply >= ?2",
                params![id, keep as i64],
            )?;
            apply_update(conn, &id, &update)
        })
        .await
    }

    async fn update_game(&self, id: &str, update: &GameUpdate) -> Result<(), StoreError> {
        let (id, update) = (id.to_string(), update.clone());
        self.write(move |conn| apply_update(conn, &id, &update))
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
            insert_game(conn, &game)?;
            apply_update(conn, &previous, &update)
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
            online: None,
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
                online: None,
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
        let list = store.list_games(10, &[]).await.unwrap();
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

    fn online_game(id: &str) -> StoredGame {
        let mut r = record(id);
        r.mode = GameMode::Online;
        r.human_color = None;
        r.level = None;
        StoredGame {
            record: r,
            moves: vec![],
            online: Some(OnlineRecord {
                white_seat: Some("ab".repeat(32)),
                clock: Some(ClockSettings {
                    base_ms: 300_000,
                    increment_ms: 2_000,
                }),
                white_ms: 300_000,
                black_ms: 300_000,
                ..OnlineRecord::default()
            }),
        }
    }

    #[tokio::test]
    async fn online_state_is_written_with_the_move_and_listed_only_for_its_players() {
        let dir = tempfile::tempdir().unwrap();
        let store = SqliteStore::open(dir.path().join("t.sqlite3")).unwrap();
        let game = online_game("o1");
        store.create_game(&game).await.unwrap();
        assert_eq!(store.load_game("o1").await.unwrap().unwrap(), game);
        let mut online = game.online.clone().unwrap();
        online.black_seat = Some("cd".repeat(32));
        online.white_ms = 299_000;
        online.turn_started_at = Some(77);
        online.draw_offer = Some("white".into());
        let mut up = update(1);
        up.online = Some(online.clone());
        let mv = StoredMove {
            ply: 0,
            uci: "e2e4".into(),
            san: "e4".into(),
        };
        store.append_move("o1", &mv, &up).await.unwrap();
        let loaded = store.load_game("o1").await.unwrap().unwrap();
        assert_eq!(loaded.online, Some(online));
        assert_eq!(loaded.moves, vec![mv]);
        assert_eq!(store.running_online_games().await.unwrap(), vec!["o1"]);

        // The list shows online games only to those who name them.
        store
            .create_game(&StoredGame {
                record: record("local"),
                moves: vec![],
                online: None,
            })
            .await
            .unwrap();
        let ids = |l: Vec<GameSummary>| l.into_iter().map(|s| s.record.id).collect::<Vec<_>>();
        assert_eq!(ids(store.list_games(10, &[]).await.unwrap()), vec!["local"]);
        let mine = store.list_games(10, &["o1".to_string()]).await.unwrap();
        assert_eq!(ids(mine).len(), 2);

        // A rematch and the link from the old game are stored together.
        let mut rematch = online_game("o2");
        rematch.online.as_mut().unwrap().rematch_of = Some("o1".into());
        let mut old = loaded.online.unwrap();
        old.rematch_id = Some("o2".into());
        let mut up = update(2);
        up.online = Some(old);
        store.create_rematch(&rematch, "o1", &up).await.unwrap();
        let o1 = store.load_game("o1").await.unwrap().unwrap();
        assert_eq!(o1.online.unwrap().rematch_id.as_deref(), Some("o2"));
        // A rematch of a game that does not exist stores nothing.
        let err = store
            .create_rematch(&online_game("o3"), "nope", &up)
            .await
            .unwrap_err();
        assert!(matches!(err, StoreError::Conflict(_)));
        assert!(store.load_game("o3").await.unwrap().is_none());
        assert!(store.delete_game("o1").await.unwrap());
        assert!(store.load_game("o1").await.unwrap().is_none());
    }

    #[tokio::test]
    async fn concurrent_writes_share_commits_and_a_failing_one_spoils_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.sqlite3");
        let store = SqliteStore::open(&path).unwrap();
        let games = 40;
        for g in 0..games {
            store
                .create_game(&StoredGame {
                    record: record(&format!("g{g}")),
                    moves: vec![],
                    online: None,
                })
                .await
                .unwrap();
        }
        let mut tasks = Vec::new();
        for g in 0..games {
            let store = store.clone();
            tasks.push(tokio::spawn(async move {
                let id = format!("g{g}");
                for ply in 0..10 {
                    let mv = StoredMove {
                        ply,
                        uci: format!("m{ply}"),
                        san: format!("m{ply}"),
                    };
                    store
                        .append_move(&id, &mv, &update(ply as i64 + 1))
                        .await
                        .unwrap();
                    // A stale write in the same batches fails alone.
                    let stale = StoredMove { ply: 0, ..mv };
                    assert!(store.append_move(&id, &stale, &update(99)).await.is_err());
                }
            }));
        }
        for t in tasks {
            t.await.unwrap();
        }
        drop(store);
        let store = SqliteStore::open(&path).unwrap();
        for g in 0..games {
            let game = store.load_game(&format!("g{g}")).await.unwrap().unwrap();
            assert_eq!(game.moves.len(), 10);
            assert_eq!(game.record.rev, 10, "the failed writes left no trace");
        }
    }

    #[tokio::test]
    async fn runs_and_heartbeats() {
        let dir = tempfile::tempdir().unwrap();
        let store = SqliteStore::open(dir.path().join("t.sqlite3")).unwrap();
        let a = store.start_run(1_000).await.unwrap();
        store.heartbeat(a, 6_000).await.unwrap();
        store.heartbeat(a, 5_000).await.unwrap(); // never backwards
        let b = store.start_run(10_000).await.unwrap();
        assert_ne!(a, b);
        let runs = store.runs_since(2_000).await.unwrap();
        assert_eq!(
            runs,
            vec![
                RunRecord {
                    id: a,
                    boot_ms: 1_000,
                    last_seen_ms: 6_000
                },
                RunRecord {
                    id: b,
                    boot_ms: 10_000,
                    last_seen_ms: 10_000
                }
            ]
        );
        assert_eq!(store.runs_since(7_000).await.unwrap().len(), 1);
    }
}
