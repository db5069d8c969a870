//! How SQLite binds a [`Value`] and reads a [`Row`]'s column.

use crate::rows::{Row, Value};
use crate::StoreError;
use rusqlite::types::{ToSql, ToSqlOutput};

impl ToSql for Value {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        match self {
            Value::Text(t) => t.to_sql(),
            Value::Int(i) => i.to_sql(),
            Value::Int32(i) => i.to_sql(),
            Value::Bool(b) => b.to_sql(),
        }
    }
}

impl Row for rusqlite::Row<'_> {
    fn text(&self, i: usize) -> Result<Option<String>, StoreError> {
        Ok(self.get(i)?)
    }

    fn int(&self, i: usize) -> Result<Option<i64>, StoreError> {
        Ok(self.get(i)?)
    }

    fn int32(&self, i: usize) -> Result<Option<i32>, StoreError> {
        Ok(self.get(i)?)
    }

    fn boolean(&self, i: usize) -> Result<bool, StoreError> {
        Ok(self.get::<_, i64>(i)? != 0)
    }
}

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
    conn.prepare_cached(&crate::rows::insert_sql(table, columns, mark))?
        .execute(rusqlite::params_from_iter(values))?;
    Ok(())
}
