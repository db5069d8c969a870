//! Players, their sessions, accounts and ratings; [`PlayerRepo`] stores them.

use crate::rows::Row;
use crate::{RatingPool, StoreError};
use async_trait::async_trait;

/// A player: a browser (an identity cookie), maybe with an account.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerRecord {
    /// Public and stable (it names the player in games and seats).
    pub id: String,
    /// The name others see (at most 40 characters).
    pub name: String,
    /// When the player first came, in milliseconds since the Unix epoch.
    pub created_at: i64,
    /// The account's user name, once the player has registered.
    pub account: Option<String>,
}

/// An account: a user name and password for a player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccountRecord {
    /// As the player wrote it; unique ignoring case.
    pub username: String,
    /// The password's Argon2id hash (PHC string).
    pub password_hash: String,
    /// The player the account belongs to ([`crate::PlayerRecord::id`]).
    pub player_id: String,
    /// When the account was registered, in milliseconds since the Unix epoch.
    pub created_at: i64,
    /// When the operator closed it (`admin close`): nobody logs in.
    pub closed_at: Option<i64>,
}

/// A Glicko-2 rating as stored (rating scale, not the algorithm's).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatingRecord {
    /// The rating (1500 to start).
    pub rating: f64,
    /// The rating deviation, in rating points (350 to start).
    pub rd: f64,
    /// The volatility (0.06 to start).
    pub volatility: f64,
    /// Rated games played (also the version the conditional write checks).
    pub games: u32,
}

/// A player's new rating, written only if the stored one is still `before`
/// (`None`: no rating stored yet).
#[derive(Clone, Debug, PartialEq)]
pub struct RatingWrite {
    /// The player rated.
    pub player_id: String,
    /// The game and speed the rating is for.
    pub pool: RatingPool,
    /// The rating the new one was computed from.
    pub before: Option<RatingRecord>,
    /// The new rating.
    pub after: RatingRecord,
}

/// A player's columns (the player `p`, their account `a`), in
/// [`read_player`]'s order.
pub const PLAYER_COLUMNS: &str = "p.id, p.name, p.created_at, a.username";

/// A player from [`PLAYER_COLUMNS`].
pub fn read_player(row: &impl Row) -> Result<PlayerRecord, StoreError> {
    Ok(PlayerRecord {
        id: row.text_nn(0)?,
        name: row.text_nn(1)?,
        created_at: row.int_nn(2)?,
        account: row.text(3)?,
    })
}

/// An account's columns, in [`read_account`]'s order.
pub const ACCOUNT_COLUMNS: &str = "username, password_hash, player_id, created_at, closed_at";

/// An account from [`ACCOUNT_COLUMNS`].
pub fn read_account(row: &impl Row) -> Result<AccountRecord, StoreError> {
    Ok(AccountRecord {
        username: row.text_nn(0)?,
        password_hash: row.text_nn(1)?,
        player_id: row.text_nn(2)?,
        created_at: row.int_nn(3)?,
        closed_at: row.int(4)?,
    })
}

/// A rating's columns (of a player's rating or a puzzle's), in
/// [`read_rating`]'s order.
pub const RATING_COLUMNS: &str = "rating, rd, volatility, games";

/// A rating from its columns (from column `at` on).
pub fn read_rating(row: &impl Row, at: usize) -> Result<RatingRecord, StoreError> {
    let number = |i: usize| {
        row.float(at + i)?
            .ok_or_else(|| StoreError::Backend(format!("column {} is empty", at + i)))
    };
    Ok(RatingRecord {
        rating: number(0)?,
        rd: number(1)?,
        volatility: number(2)?,
        games: row.int_nn(at + 3)?.clamp(0, i64::from(u32::MAX)) as u32,
    })
}

/// Storage for players, sessions, accounts and ratings. Each method is
/// one atomic, durable write or one read.
#[async_trait]
pub trait PlayerRepo: Send + Sync + 'static {
    /// A player, with their account's name.
    async fn player(&self, id: &str) -> Result<Option<PlayerRecord>, StoreError>;
    /// Stores a player (a new one, or a new name).
    async fn save_player(&self, player: &PlayerRecord) -> Result<(), StoreError>;
    /// The player a session token's hash belongs to.
    async fn session_player(&self, token_hash: &str) -> Result<Option<String>, StoreError>;
    /// Opens a session of a player (stored with the player if new); ends
    /// `ending` (the session it replaces), together.
    async fn start_session(
        &self,
        token_hash: &str,
        player: &PlayerRecord,
        ending: Option<&str>,
    ) -> Result<(), StoreError>;
    /// Ends a session (a logout), logging it.
    async fn end_session(&self, token_hash: &str) -> Result<(), StoreError>;
    /// Ends every session of `player` but `keep`, logging it; returns how
    /// many ended. (Every account event is logged at the database's time.)
    async fn end_sessions(&self, player: &str, keep: Option<&str>) -> Result<usize, StoreError>;
    /// Creates an account for its player; [`StoreError::Conflict`] if the
    /// name is taken (ignoring case).
    async fn create_account(&self, account: &AccountRecord) -> Result<(), StoreError>;
    /// The account of a user name (ignoring case).
    async fn account(&self, username: &str) -> Result<Option<AccountRecord>, StoreError>;
    /// The open accounts whose user name starts with `prefix` (ignoring
    /// case), in the order of their names ignoring case, at most `limit`
    /// (the header's search).
    async fn accounts_starting(
        &self,
        prefix: &str,
        limit: usize,
    ) -> Result<Vec<AccountRecord>, StoreError>;
    /// Sets the password hash of `player`'s account.
    async fn set_password(&self, player: &str, password_hash: &str) -> Result<(), StoreError>;
    /// Gives `into` everything `from` has (a guest logging in): their local
    /// games and seats (each such game's revision goes up), and drops
    /// `from`'s seeks. Returns the games that changed.
    async fn merge_player(&self, from: &str, into: &str) -> Result<Vec<String>, StoreError>;
    /// A player's ratings, by game.
    async fn ratings(&self, player: &str) -> Result<Vec<(RatingPool, RatingRecord)>, StoreError>;
    /// The stored players among `ids` (with their accounts' names), in one
    /// read: a tournament's wave names all its players at once. An id
    /// never stored (a guest's first game) is left out.
    async fn players(&self, ids: &[String]) -> Result<Vec<PlayerRecord>, StoreError>;
    /// The ratings in `pool` of those among `ids` who have one, in one
    /// read (a rated wave's players).
    async fn pool_ratings(
        &self,
        pool: RatingPool,
        ids: &[String],
    ) -> Result<Vec<(String, RatingRecord)>, StoreError>;
}

/// The range of name keys (lower case) that start with `prefix`: from the
/// prefix itself to the prefix with its last character one higher (a name
/// key is ASCII: user names are letters, digits, `_` and `-`). Compared
/// byte by byte, as both backends compare the key.
pub fn prefix_range(prefix: &str) -> (String, String) {
    let from = prefix.to_lowercase();
    let mut to = from.clone();
    match to.pop() {
        Some(last) => {
            let next = char::from_u32(last as u32 + 1).unwrap_or(char::MAX);
            to.push(next);
        }
        None => to.push(char::MAX),
    }
    (from, to)
}
