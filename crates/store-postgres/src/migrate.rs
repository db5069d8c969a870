//! The schema's migrations, run by refinery (`refinery_schema_history`
//! records them), all in one transaction, under an advisory lock: instances
//! starting together migrate once. Before refinery, this crate's own runner
//! recorded them in `schema_migrations`: a database it migrated is adopted
//! once (the versions recorded there are recorded in refinery's history,
//! not run again), and `schema_migrations` still follows the schema, so
//! that an older program refuses a database newer than it knows.

use refinery_core::{Migration, Runner, Target};
use tensorchess_store::StoreError;
use tokio_postgres::{Client, NoTls};

/// The migrations, in order: `(name, SQL)`, version `n` the `n`-th; the
/// same numbers mean the same schema as SQLite's. Append new ones; never
/// edit one that has shipped (refinery checks each one's checksum, its
/// name included).
pub(crate) const MIGRATIONS: &[(&str, &str)] = &[
    ("games", include_str!("../migrations/0001_games.sql")),
    ("online", include_str!("../migrations/0002_online.sql")),
    ("players", include_str!("../migrations/0003_players.sql")),
    ("learning", include_str!("../migrations/0004_learning.sql")),
    (
        "moderation",
        include_str!("../migrations/0005_moderation.sql"),
    ),
    ("chat", include_str!("../migrations/0006_chat.sql")),
    (
        "challenges",
        include_str!("../migrations/0007_challenges.sql"),
    ),
    ("tokens", include_str!("../migrations/0008_tokens.sql")),
    (
        "correspondence",
        include_str!("../migrations/0009_correspondence.sql"),
    ),
    (
        "tournaments",
        include_str!("../migrations/0010_tournaments.sql"),
    ),
    (
        "scheduled_tournaments",
        include_str!("../migrations/0011_scheduled_tournaments.sql"),
    ),
    (
        "correspondence_tournaments",
        include_str!("../migrations/0012_correspondence_tournaments.sql"),
    ),
    (
        "tournament_trust",
        include_str!("../migrations/0013_tournament_trust.sql"),
    ),
    // Issue 38's trust (follows, preferences, caps' keys).
    ("trust", include_str!("../migrations/0014_trust.sql")),
    // Issue 42's opening explorer.
    ("explorer", include_str!("../migrations/0015_explorer.sql")),
    // Issue 43's director in memory: a revision of each tournament's entries.
    (
        "director_memory",
        include_str!("../migrations/0016_director_memory.sql"),
    ),
];

/// The number of migrations this program knows.
pub const PG_SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

fn runner() -> Result<Runner, StoreError> {
    let migrations = MIGRATIONS
        .iter()
        .enumerate()
        .map(|(i, (name, sql))| Migration::unapplied(&format!("V{}__{name}", i + 1), sql))
        .collect::<Result<Vec<_>, _>>()
        .map_err(refinery_error)?;
    Ok(Runner::new(&migrations).set_grouped(true))
}

fn refinery_error(e: refinery_core::Error) -> StoreError {
    StoreError::Backend(format!("migrations: {e}"))
}

/// The newest version `table` records (0 when it does not exist).
async fn newest_in(c: &Client, table: &str) -> Result<i64, StoreError> {
    let exists: bool = c
        .query_one("SELECT to_regclass($1) IS NOT NULL", &[&table])
        .await?
        .try_get(0)?;
    if !exists {
        return Ok(0);
    }
    Ok(c.query_one(
        &format!("SELECT COALESCE(MAX(version), 0)::BIGINT FROM {table}"),
        &[],
    )
    .await?
    .try_get(0)?)
}

/// The newest migration refinery's history records (0 when none).
pub(crate) async fn recorded_version(c: &Client) -> Result<i64, StoreError> {
    newest_in(c, "refinery_schema_history").await
}

/// Brings the schema of the database `config` names up to date, on a
/// connection of its own holding the advisory lock (given back when it
/// closes): refuses a newer schema ([`StoreError::TooNew`], `url` naming
/// the database), adopts what the hand runner applied, runs the
/// migrations not recorded, and records them in `schema_migrations` too.
/// `then` runs under the same lock (the fills that follow a migration).
pub(crate) async fn migrate<F, Fut>(
    config: &tokio_postgres::Config,
    url: &str,
    then: F,
) -> Result<(), StoreError>
where
    F: FnOnce() -> Fut,
    Fut: std::future::Future<Output = Result<(), StoreError>>,
{
    let (mut client, conn) = config.connect(NoTls).await?;
    let task = tokio::spawn(conn);
    let out = async {
        client
            .batch_execute(
                "SELECT pg_advisory_lock(hashtext('tensorchess migrations ' || current_schema()))",
            )
            .await?;
        let recorded = recorded_version(&client).await?;
        let counted = newest_in(&client, "schema_migrations").await?;
        let found = recorded.max(counted);
        if found > PG_SCHEMA_VERSION {
            return Err(StoreError::TooNew {
                path: url.to_string(),
                found,
                known: PG_SCHEMA_VERSION,
            });
        }
        if counted > recorded {
            // Applied by the hand runner (or by an older program after
            // this one): recorded as done, without running them again.
            runner()?
                .set_target(Target::FakeVersion(counted as i32))
                .run_async(&mut client)
                .await
                .map_err(refinery_error)?;
        }
        runner()?
            .run_async(&mut client)
            .await
            .map_err(refinery_error)?;
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis() as i64)
            .unwrap_or(0);
        client
            .execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations (
                     version    BIGINT PRIMARY KEY,
                     applied_at BIGINT NOT NULL
                 )",
                &[],
            )
            .await?;
        client
            .execute(
                "INSERT INTO schema_migrations (version, applied_at) \
                 SELECT version, $1 FROM refinery_schema_history ON CONFLICT DO NOTHING",
                &[&now],
            )
            .await?;
        then().await
    }
    .await;
    drop(client);
    let _ = task.await;
    out
}
