//! What `--db` names, an SQLite file or a PostgreSQL server, opened: the
//! one crate that sees both backends (`tensorchess-store-sqlite`,
//! `tensorchess-store-postgres`), above them and the store crate
//! (`tensorchess-store`, the records and the repositories' traits).

pub use tensorchess_store_postgres::PgStore;
pub use tensorchess_store_sqlite::SqliteStore;

use std::path::PathBuf;
use std::sync::Arc;
use tensorchess_store::{redact, GameStore, StoreError};

/// A database to keep games in: a file path (SQLite) or a
/// `postgres://user@host:port/db` (or `postgresql://`) URL.
#[derive(Clone, PartialEq, Eq)]
pub enum Database {
    /// An SQLite file, created if it does not exist.
    Sqlite(PathBuf),
    /// A PostgreSQL server's URL, as given (with its password, if any:
    /// [`redact`] it before showing it).
    Postgres(String),
}

impl Database {
    /// Reads `--db`: a PostgreSQL URL by its scheme, anything else a path.
    pub fn parse(s: &str) -> Database {
        let lower = s.to_ascii_lowercase();
        if lower.starts_with("postgres://") || lower.starts_with("postgresql://") {
            Database::Postgres(s.to_string())
        } else {
            Database::Sqlite(PathBuf::from(s))
        }
    }

    /// Opens the store, bringing its schema up to date.
    pub async fn open(&self) -> Result<Arc<dyn GameStore>, StoreError> {
        Ok(match self {
            Database::Sqlite(path) => {
                let path = path.clone();
                // Opening migrates: file work, off the async runtime.
                let store = tokio::task::spawn_blocking(move || SqliteStore::open(path))
                    .await
                    .map_err(|e| StoreError::Task(e.to_string()))??;
                Arc::new(store)
            }
            Database::Postgres(url) => Arc::new(PgStore::open(url).await?),
        })
    }
}

impl std::fmt::Display for Database {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Database::Sqlite(path) => write!(f, "{}", path.display()),
            Database::Postgres(url) => f.write_str(&redact(url)),
        }
    }
}

// Debug is what clap shows: never the password.
impl std::fmt::Debug for Database {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Database({self})")
    }
}

impl std::str::FromStr for Database {
    type Err = std::convert::Infallible;

    fn from_str(s: &str) -> Result<Database, Self::Err> {
        Ok(Database::parse(s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_name_postgres_and_anything_else_a_file() {
        assert_eq!(
            Database::parse("games.sqlite3"),
            Database::Sqlite("games.sqlite3".into())
        );
        assert!(matches!(
            Database::parse("postgres://u@h:5432/db"),
            Database::Postgres(_)
        ));
        assert!(matches!(
            Database::parse("PostgreSQL://h/db"),
            Database::Postgres(_)
        ));
        assert_eq!(
            Database::parse("postgres://ann:secret@h:5432/db?sslmode=disable").to_string(),
            "postgres://ann@h:5432/db?sslmode=disable"
        );
        assert_eq!(redact("postgres://h/db"), "postgres://h/db");
    }
}

#[cfg(test)]
mod same_schema;
