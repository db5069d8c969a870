//! How PostgreSQL binds a [`Value`] and reads a [`Row`]'s column.

use crate::rows::{Row, Value};
use crate::StoreError;
use tokio_postgres::types::{to_sql_checked, IsNull, ToSql, Type};

impl ToSql for Value {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut tokio_postgres::types::private::BytesMut,
    ) -> Result<IsNull, Box<dyn std::error::Error + Sync + Send>> {
        match self {
            Value::Text(t) => t.to_sql(ty, out),
            Value::Int(i) => i.to_sql(ty, out),
            Value::Int32(i) => i.to_sql(ty, out),
            Value::Bool(b) => b.to_sql(ty, out),
        }
    }

    fn accepts(ty: &Type) -> bool {
        <String as ToSql>::accepts(ty)
            || <i64 as ToSql>::accepts(ty)
            || <i32 as ToSql>::accepts(ty)
            || <bool as ToSql>::accepts(ty)
    }

    to_sql_checked!();
}

impl Row for tokio_postgres::Row {
    fn text(&self, i: usize) -> Result<Option<String>, StoreError> {
        Ok(self.try_get(i)?)
    }

    fn int(&self, i: usize) -> Result<Option<i64>, StoreError> {
        Ok(self.try_get(i)?)
    }

    fn int32(&self, i: usize) -> Result<Option<i32>, StoreError> {
        Ok(self.try_get(i)?)
    }

    fn boolean(&self, i: usize) -> Result<bool, StoreError> {
        Ok(self.try_get(i)?)
    }
}

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
        .prepare_cached(&crate::rows::insert_sql(table, columns, mark))
        .await?;
    c.execute(&stmt, &params(values)).await?;
    Ok(())
}
