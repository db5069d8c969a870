//! The instances' bus: what one server tells the others sharing its
//! database ([`Notice`]s), apart from the repositories. PostgreSQL carries
//! it (`NOTIFY`/`LISTEN`); a database only one server uses (SQLite) has
//! nobody to tell, and keeps the defaults.

use crate::{Notice, StoreError, StoreNotice};
use async_trait::async_trait;

/// Notices between the servers of one database.
#[async_trait]
pub trait Bus: Send + Sync + 'static {
    /// Whether several servers may share this database (and so each must
    /// listen to the others' [`Notice`]s).
    fn shared(&self) -> bool {
        false
    }
    /// Names the server using this store, for the notices the store sends
    /// itself (a game's commit): the server then knows its own. Only the
    /// first name counts.
    fn set_instance(&self, _name: &str) {}
    /// Tells every server listening on this database (this one too). A
    /// database only one server uses (SQLite) has nobody to tell.
    async fn notify(&self, _notice: &Notice) -> Result<(), StoreError> {
        Ok(())
    }
    /// The notices of every server on this database, game commits
    /// included, from a connection of their own that reconnects by itself
    /// (each time saying [`StoreNotice::Listening`]); `None` when only one
    /// server uses the database.
    async fn listen(
        &self,
    ) -> Result<Option<tokio::sync::mpsc::UnboundedReceiver<StoreNotice>>, StoreError> {
        Ok(None)
    }
}
