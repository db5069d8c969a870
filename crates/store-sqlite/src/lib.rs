//! The tensorchess store ([`tensorchess_store::GameStore`]) over an
//! embedded SQLite file, with numbered schema migrations (`migrations/`,
//! run by refinery: `migrate.rs`). Every write is atomic and
//! durable (`synchronous = FULL`) before its call returns, so a move the
//! server has acknowledged survives the process being killed. Writes go to
//! one writer thread that commits them in groups (`writer.rs`);
//! reads use a second connection (WAL lets them run beside the writer).

mod challenges;
mod chat;
mod explorer;
mod explorer_bulk;
mod games;
mod learning;
mod migrate;
mod moderation;
mod players;
mod row;
mod tokens;
mod tournaments;
mod trust;
mod writer;

use crate::writer::{writer_loop, Job, TypedJob};
use async_trait::async_trait;
use rusqlite::Connection;
use std::path::Path;
use std::sync::{mpsc, Arc, Mutex};
use tensorchess_store::Bus;
use tensorchess_store::StoreError;

/// The SQLite implementation of every repository ([`tensorchess_store::GameStore`]).
#[derive(Clone)]
pub struct SqliteStore {
    writer: Arc<mpsc::Sender<Box<dyn Job>>>,
    reader: Arc<Mutex<Connection>>,
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
        let path = path.as_ref();
        let mut conn = connect(path)?;
        migrate::migrate(&mut conn, &path.display().to_string())?;
        trust::fill_name_keys(&conn)?;
        let reader = connect(path)?;
        let (tx, rx) = mpsc::channel::<Box<dyn Job>>();
        std::thread::Builder::new()
            .name("sqlite-writer".into())
            .spawn(move || writer_loop(conn, rx))
            .map_err(|e| StoreError::Task(format!("cannot start the database writer: {e}")))?;
        Ok(SqliteStore {
            writer: Arc::new(tx),
            reader: Arc::new(Mutex::new(reader)),
        })
    }

    /// The schema version of the open database: the newest migration
    /// refinery's history records.
    pub fn schema_version(&self) -> Result<i64, StoreError> {
        let conn = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        migrate::recorded_version(&conn)
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

#[async_trait]
impl Bus for SqliteStore {}

#[cfg(test)]
mod tests;

pub use migrate::SCHEMA_VERSION;
