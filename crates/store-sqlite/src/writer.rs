//! The SQLite writer thread: writes that queue up while one commit is being
//! flushed to disk share the next commit, each inside its own savepoint, so
//! one failing write changes nothing of the others. Under load this turns
//! many small fsyncs into one.

use super::StoreError;
use rusqlite::Connection;
use std::sync::mpsc;

/// Writes that may share one commit.
const MAX_BATCH: usize = 512;

/// A write waiting for the writer thread.
pub(super) trait Job: Send {
    /// Runs inside a savepoint; false rolls the savepoint back.
    fn run(&mut self, conn: &Connection) -> bool;
    /// Answers the caller once the commit is known.
    fn finish(self: Box<Self>, committed: Result<(), String>);
}

pub(super) struct TypedJob<T, F> {
    pub(super) f: Option<F>,
    pub(super) out: Option<Result<T, StoreError>>,
    pub(super) reply: tokio::sync::oneshot::Sender<Result<T, StoreError>>,
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
pub(super) fn writer_loop(conn: Connection, jobs: mpsc::Receiver<Box<dyn Job>>) {
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
