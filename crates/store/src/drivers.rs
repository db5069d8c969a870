//! The drivers' glue: how each SQL backend binds a [`Value`], reads a
//! [`Row`]'s column and reports its errors as a [`StoreError`]. Rust lets
//! these impls live only beside the trait or the type, so they are here,
//! each behind the feature its backend crate turns on (`sqlite`,
//! `postgres`); everything else of a backend is in its own crate.

#[allow(unused_imports)] // each feature uses some of them
use crate::rows::{Row, Value};
#[allow(unused_imports)]
use crate::StoreError;

#[cfg(feature = "sqlite")]
mod sqlite {
    use super::{Row, StoreError, Value};
    use rusqlite::types::{ToSql, ToSqlOutput};

    impl From<rusqlite::Error> for StoreError {
        fn from(e: rusqlite::Error) -> StoreError {
            StoreError::Backend(e.to_string())
        }
    }

    impl ToSql for Value {
        fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
            match self {
                Value::Text(t) => t.to_sql(),
                Value::Int(i) => i.to_sql(),
                Value::Int32(i) => i.to_sql(),
                Value::Float(f) => f.to_sql(),
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

        fn float(&self, i: usize) -> Result<Option<f64>, StoreError> {
            Ok(self.get(i)?)
        }

        fn boolean(&self, i: usize) -> Result<bool, StoreError> {
            Ok(self.get::<_, i64>(i)? != 0)
        }
    }
}

#[cfg(feature = "postgres")]
mod postgres {
    use super::{Row, StoreError, Value};
    use tokio_postgres::types::{to_sql_checked, IsNull, ToSql, Type};

    impl From<tokio_postgres::Error> for StoreError {
        fn from(e: tokio_postgres::Error) -> StoreError {
            // The server's own message says more than the driver's "db error".
            StoreError::Backend(match e.as_db_error() {
                Some(db) => format!("{}: {}", db.code().code(), db.message()),
                None => match std::error::Error::source(&e) {
                    Some(cause) => format!("{e}: {cause}"),
                    None => e.to_string(),
                },
            })
        }
    }

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
                Value::Float(f) => f.to_sql(ty, out),
                Value::Bool(b) => b.to_sql(ty, out),
            }
        }

        fn accepts(ty: &Type) -> bool {
            <String as ToSql>::accepts(ty)
                || <i64 as ToSql>::accepts(ty)
                || <i32 as ToSql>::accepts(ty)
                || <f64 as ToSql>::accepts(ty)
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

        fn float(&self, i: usize) -> Result<Option<f64>, StoreError> {
            Ok(self.try_get(i)?)
        }

        fn boolean(&self, i: usize) -> Result<bool, StoreError> {
            Ok(self.try_get(i)?)
        }
    }
}
