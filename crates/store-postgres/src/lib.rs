//! The tensorchess store ([`tensorchess_store::GameStore`]) over a PostgreSQL server, which several server instances
//! may share. Each write is one transaction on a pooled connection
//! (deadpool); a change to a game is an `UPDATE … WHERE id = $1 AND rev =
//! $2 - 1`, which PostgreSQL re-checks after waiting for the row lock, so
//! of two instances racing for the same revision exactly one wins and the
//! other gets [`StoreError::Stale`]. A commit returns once PostgreSQL has
//! made it durable (`synchronous_commit` as the server sets it, `on` by
//! default). Numbered migrations (`migrations/*.sql`) run at
//! start, by refinery (`migrate.rs`). The servers sharing the database
//! tell each other what changed over its [`tensorchess_store::Bus`]
//! (`NOTIFY`, `LISTEN`: `bus.rs`, `listen.rs`).

/// Runs `$body` in a transaction on a pooled connection and commits it;
/// an error (or a panic) drops the transaction, which rolls it back.
macro_rules! write_tx {
    ($self:ident, |$tx:ident| $body:expr) => {{
        let mut client = $self.client().await?;
        let $tx = client.transaction().await?;
        let out = $body;
        $tx.commit().await?;
        Ok(out)
    }};
}

mod bus;
mod challenges;
mod chat;
mod explorer;
mod games;
mod learning;
mod listen;
mod migrate;
mod moderation;
mod players;
mod row;
mod tokens;
mod tournaments;
mod trust;

pub use migrate::PG_SCHEMA_VERSION;

use deadpool_postgres::{
    GenericClient, Manager, ManagerConfig, Object, Pool, RecyclingMethod, Runtime,
};
use std::str::FromStr;
use std::time::Duration;
use tensorchess_store::redact;
use tensorchess_store::StoreError;
use tokio_postgres::NoTls;

/// Connections one server keeps open at most: enough for the writes of a
/// busy instance, few enough that several instances fit PostgreSQL's
/// default `max_connections` (100).
const POOL_SIZE: usize = 16;

/// A pool's failure, as the store reports it.
fn pool_error(e: deadpool_postgres::PoolError) -> StoreError {
    match e {
        deadpool_postgres::PoolError::Backend(e) => e.into(),
        e => StoreError::Backend(format!("no database connection: {e}")),
    }
}

/// The PostgreSQL implementation of every repository and of the bus
/// ([`tensorchess_store::GameStore`]).
#[derive(Clone)]
pub struct PgStore {
    pool: Pool,
    url: String,
    /// How to open the listener's own connection.
    config: tokio_postgres::Config,
    /// The `NOTIFY` channel of this schema's servers (channels are per
    /// database, so stores in other schemas must not hear these).
    channel: String,
    /// The schema holding this store's tables.
    schema: String,
    /// The server using this store, named in its game notices.
    instance: std::sync::OnceLock<String>,
}

impl PgStore {
    /// Connects to the database at `url` and brings its schema up to date.
    pub async fn open(url: &str) -> Result<PgStore, StoreError> {
        PgStore::connect(url, None).await
    }

    /// [`PgStore::open`] with every table in `schema` (created if needed),
    /// so that several stores (tests, or tenants) can share a database.
    pub async fn open_in_schema(url: &str, schema: &str) -> Result<PgStore, StoreError> {
        if schema.is_empty()
            || !schema
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_')
        {
            return Err(StoreError::Backend(format!(
                "the schema name {schema:?} is not letters, digits and _"
            )));
        }
        PgStore::connect(url, Some(schema)).await
    }

    async fn connect(url: &str, schema: Option<&str>) -> Result<PgStore, StoreError> {
        let mut config = tokio_postgres::Config::from_str(url)
            .map_err(|e| StoreError::Backend(format!("{}: {e}", redact(url))))?;
        if config.get_application_name().is_none() {
            config.application_name("tensorchess");
        }
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(Duration::from_secs(10));
        }
        if let Some(schema) = schema {
            // Before anything else on the pool: the schema must exist for
            // the search path to use it.
            // IF NOT EXISTS is not safe against a concurrent CREATE (the
            // loser fails on a unique index): stores opening together take
            // turns.
            let (mut client, conn) = config.connect(NoTls).await?;
            let task = tokio::spawn(conn);
            let tx = client.transaction().await?;
            tx.batch_execute(&format!(
                "SELECT pg_advisory_xact_lock(hashtext('tensorchess schema {schema}'));
                 CREATE SCHEMA IF NOT EXISTS {schema};"
            ))
            .await?;
            tx.commit().await?;
            drop(client);
            let _ = task.await;
            config.options(format!("-c search_path={schema}"));
        }
        let manager = Manager::from_config(
            config.clone(),
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(POOL_SIZE)
            .runtime(Runtime::Tokio1)
            .create_timeout(Some(Duration::from_secs(10)))
            .wait_timeout(Some(Duration::from_secs(30)))
            .build()
            .map_err(|e| StoreError::Backend(e.to_string()))?;
        let mut store = PgStore {
            pool,
            url: redact(url),
            config,
            channel: String::new(),
            schema: String::new(),
            instance: std::sync::OnceLock::new(),
        };
        store.migrate().await?;
        let schema: String = store
            .client()
            .await?
            .query_one("SELECT current_schema()::TEXT", &[])
            .await?
            .try_get(0)?;
        store.channel = format!("tensorchess {schema}");
        store.schema = schema;
        Ok(store)
    }

    /// The database, without its password.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The schema holding the tables (`public` unless opened in one).
    pub fn schema(&self) -> &str {
        &self.schema
    }

    /// The newest migration applied to the database (refinery's history).
    pub async fn schema_version(&self) -> Result<i64, StoreError> {
        let c = self.client().await?;
        migrate::recorded_version(&c).await
    }

    async fn client(&self) -> Result<Object, StoreError> {
        self.pool.get().await.map_err(pool_error)
    }

    /// Applies the migrations not yet recorded (`migrate.rs`), then fills
    /// what a migration left empty, under the same lock.
    async fn migrate(&self) -> Result<(), StoreError> {
        migrate::migrate(&self.config, &self.url, || async {
            let mut c = self.client().await?;
            let tx = c.transaction().await?;
            trust::fill_name_keys(&tx).await?;
            tx.commit().await?;
            Ok(())
        })
        .await
    }
}

/// Whether a statement failed on a unique constraint (a name or id taken
/// meanwhile, by another instance).
fn is_unique_violation(e: &tokio_postgres::Error) -> bool {
    e.code() == Some(&tokio_postgres::error::SqlState::UNIQUE_VIOLATION)
}

#[cfg(test)]
mod tests;
