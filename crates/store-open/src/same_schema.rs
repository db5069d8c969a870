//! Both backends end with the same tables and columns: a fresh SQLite file
//! and a fresh PostgreSQL schema, each migrated by its crate, listed
//! (`sqlite_master` and `table_info`; `information_schema`) and compared,
//! types loosely (an integer, a boolean, a number with a fraction, text).
//! Needs `TENSORCHESS_TEST_PG` (skipped without it, unless
//! `TENSORCHESS_REQUIRE_PG` is set).

use super::{PgStore, SqliteStore};
use std::collections::BTreeSet;

/// `(table, column, type class)` of every column.
type Columns = BTreeSet<(String, String, &'static str)>;

/// Tables only one backend has, on purpose: PostgreSQL's
/// `schema_migrations` is the record of its hand runner before refinery,
/// kept so that older programs still refuse a newer schema (SQLite's
/// counterpart is `PRAGMA user_version`, no table).
const POSTGRES_ONLY: &[&str] = &["schema_migrations"];

/// A declared type, loosely: SQLite stores booleans as integers, and an
/// identity column is an integer on both.
fn class(ty: &str) -> &'static str {
    let ty = ty.to_ascii_lowercase();
    if ty.contains("int") || ty.contains("serial") || ty == "boolean" {
        "integer"
    } else if ty.contains("real") || ty.contains("double") || ty.contains("numeric") {
        "real"
    } else if ty.contains("text") || ty.contains("char") {
        "text"
    } else {
        "other"
    }
}

fn sqlite_columns(path: &std::path::Path) -> Columns {
    let conn = rusqlite::Connection::open(path).unwrap();
    let tables: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let mut columns = Columns::new();
    for table in tables {
        let mut stmt = conn
            .prepare(&format!(
                "SELECT name, type FROM pragma_table_info('{table}')"
            ))
            .unwrap();
        let rows = stmt
            .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))
            .unwrap();
        for row in rows {
            let (name, ty) = row.unwrap();
            columns.insert((table.clone(), name, class(&ty)));
        }
    }
    columns
}

async fn postgres_columns(url: &str, schema: &str) -> Columns {
    let (client, conn) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(conn);
    let rows = client
        .query(
            "SELECT c.table_name::TEXT, c.column_name::TEXT, c.data_type::TEXT \
             FROM information_schema.columns c JOIN information_schema.tables t \
               ON t.table_schema = c.table_schema AND t.table_name = c.table_name \
             WHERE c.table_schema = $1 AND t.table_type = 'BASE TABLE'",
            &[&schema],
        )
        .await
        .unwrap();
    rows.iter()
        .map(|r| {
            (
                r.get::<_, String>(0),
                r.get::<_, String>(1),
                class(r.get(2)),
            )
        })
        .filter(|(table, _, _)| !POSTGRES_ONLY.contains(&table.as_str()))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: set TENSORCHESS_TEST_PG (scripts/test.sh does)"]
async fn both_backends_end_with_the_same_tables_and_columns() {
    let url = std::env::var("TENSORCHESS_TEST_PG")
        .ok()
        .filter(|u| !u.is_empty())
        .expect("this test needs PostgreSQL: set TENSORCHESS_TEST_PG (scripts/test.sh does)");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("schema.sqlite3");
    drop(SqliteStore::open(&path).unwrap());
    let schema = format!("same_schema_{}", std::process::id());
    let store = PgStore::open_in_schema(&url, &schema).await.unwrap();
    let sqlite = sqlite_columns(&path);
    let postgres = postgres_columns(&url, store.schema()).await;
    assert!(sqlite
        .iter()
        .any(|(t, _, _)| t == "refinery_schema_history"));
    let only = |a: &Columns, b: &Columns| a.difference(b).cloned().collect::<Vec<_>>();
    assert!(
        sqlite == postgres,
        "only in SQLite: {:?}\nonly in PostgreSQL: {:?}",
        only(&sqlite, &postgres),
        only(&postgres, &sqlite)
    );
}
