//! PostgreSQL's placeholders and inserts of a record's [`Value`]s (how it
//! binds a value and reads a column is the store crate's `postgres`
//! feature).

use tensorchess_store::rows::Value;
use tensorchess_store::StoreError;
use tokio_postgres::types::ToSql;

/// A placeholder in PostgreSQL's syntax.
pub fn mark(i: usize) -> String {
    format!("${i}")
}

/// Values as the driver takes them.
pub fn params(values: &[Value]) -> Vec<&(dyn ToSql + Sync)> {
    values.iter().map(|v| v as &(dyn ToSql + Sync)).collect()
}

/// Inserts one row of `values` in `columns` of `table`.
pub async fn insert_row(
    c: &impl deadpool_postgres::GenericClient,
    table: &str,
    columns: &str,
    values: &[Value],
) -> Result<(), StoreError> {
    let stmt = c
        .prepare_cached(&tensorchess_store::rows::insert_sql(table, columns, mark))
        .await?;
    c.execute(&stmt, &params(values)).await?;
    Ok(())
}
