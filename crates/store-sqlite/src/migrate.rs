//! The schema's migrations, run by refinery (`refinery_schema_history`
//! records them). Before refinery, this crate's own runner counted them in
//! `PRAGMA user_version`: a database it migrated is adopted once (the
//! versions it counted are recorded in refinery's history, not run again),
//! and `user_version` still follows the schema, so that an older program
//! refuses a database newer than it knows.

use refinery_core::{Migration, Runner, Target};
use rusqlite::{Connection, OptionalExtension};
use tensorchess_store::StoreError;

/// The migrations, in order: `(name, SQL)`, version `n` the `n`-th. Append
/// new ones; never edit one that has shipped (refinery checks each one's
/// checksum, its name included).
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
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// The table refinery records the migrations done in.
const HISTORY: &str = "refinery_schema_history";

fn runner() -> Result<Runner, StoreError> {
    let migrations = MIGRATIONS
        .iter()
        .enumerate()
        .map(|(i, (name, sql))| Migration::unapplied(&format!("V{}__{name}", i + 1), sql))
        .collect::<Result<Vec<_>, _>>()
        .map_err(refinery_error)?;
    Ok(Runner::new(&migrations))
}

fn refinery_error(e: refinery_core::Error) -> StoreError {
    StoreError::Backend(format!("migrations: {e}"))
}

/// The newest migration refinery's history records (0 when none).
pub(crate) fn recorded_version(conn: &Connection) -> Result<i64, StoreError> {
    let exists = conn
        .query_row(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1",
            [HISTORY],
            |_| Ok(()),
        )
        .optional()?
        .is_some();
    if !exists {
        return Ok(0);
    }
    Ok(conn.query_row(
        &format!("SELECT COALESCE(MAX(version), 0) FROM {HISTORY}"),
        [],
        |r| r.get(0),
    )?)
}

/// The version the hand runner counted (and this one keeps counting).
fn user_version(conn: &Connection) -> Result<i64, StoreError> {
    Ok(conn.pragma_query_value(None, "user_version", |r| r.get(0))?)
}

/// Brings the schema up to date: refuses a newer one ([`StoreError::TooNew`],
/// `path` naming the database), adopts what the hand runner applied, runs
/// the migrations not recorded (each in its own transaction), then counts
/// them in `user_version` too.
pub(crate) fn migrate(conn: &mut Connection, path: &str) -> Result<(), StoreError> {
    let recorded = recorded_version(conn)?;
    let counted = user_version(conn)?;
    let found = recorded.max(counted);
    if found > SCHEMA_VERSION {
        return Err(StoreError::TooNew {
            path: path.to_string(),
            found,
            known: SCHEMA_VERSION,
        });
    }
    if counted > recorded {
        // Applied by the hand runner (or by an older program after this
        // one): recorded as done, without running them again.
        runner()?
            .set_target(Target::FakeVersion(counted as i32))
            .run(conn)
            .map_err(refinery_error)?;
    }
    runner()?.run(conn).map_err(refinery_error)?;
    conn.pragma_update(None, "user_version", SCHEMA_VERSION)?;
    Ok(())
}
