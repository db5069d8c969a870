//! SQLite's placeholders and inserts of a record's [`Value`]s (how it binds
//! a value and reads a column is the store crate's `sqlite` feature).

use tensorchess_store::rows::Value;
use tensorchess_store::StoreError;

/// A placeholder in SQLite's syntax.
pub fn mark(i: usize) -> String {
    format!("?{i}")
}

/// Inserts one row of `values` in `columns` of `table`.
pub fn insert_row(
    conn: &rusqlite::Connection,
    table: &str,
    columns: &str,
    values: Vec<Value>,
) -> Result<(), StoreError> {
    conn.prepare_cached(&tensorchess_store::rows::insert_sql(table, columns, mark))?
        .execute(rusqlite::params_from_iter(values))?;
    Ok(())
}

/// Every row `stmt` answers, each read by one of the store's mappings.
pub fn all<T>(
    stmt: &mut rusqlite::Statement<'_>,
    params: impl rusqlite::Params,
    read: impl Fn(&rusqlite::Row<'_>) -> Result<T, StoreError>,
) -> Result<Vec<T>, StoreError> {
    let mut rows = stmt.query(params)?;
    let mut out = Vec::new();
    while let Some(row) = rows.next()? {
        out.push(read(row)?);
    }
    Ok(out)
}

/// The first row `stmt` answers, if any, read by one of the store's mappings.
pub fn one<T>(
    stmt: &mut rusqlite::Statement<'_>,
    params: impl rusqlite::Params,
    read: impl Fn(&rusqlite::Row<'_>) -> Result<T, StoreError>,
) -> Result<Option<T>, StoreError> {
    let mut rows = stmt.query(params)?;
    rows.next()?.map(read).transpose()
}
