//! Several servers over one database (PostgreSQL): each keeps its own
//! games, sockets and timers in memory, and they keep each other up to
//! date with [`Notice`](crate::store::Notice)s. The database decides the order of changes (a
//! write names the revision it follows, so of two servers racing exactly
//! one wins); notices only tell the others to read again. Over SQLite one
//! server owns the file and nothing here runs.
//!
//! - game commits: the store sends the new revision in the commit's own
//!   transaction; a server holding that game reads it again and tells its
//!   sockets ([`follow`]);
//! - the lobby: a server that changed the seeks says which (a new seek's
//!   view, or the ids that went), the others tell their lobby subscribers;
//!   a pairing is passed on, so that the seek's creator is taken to the
//!   game wherever it is connected;
//! - presence: each server says which seats and players it has connected
//!   ([`Presence`](super::presence::Presence) keeps the others'); a server
//!   not heard from for three heartbeats is taken for dead.

mod follow;

pub use crate::outbox::Cluster;
pub use follow::follow;
