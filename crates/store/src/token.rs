//! Personal API tokens (a program plays for an account through the Bot and
//! Board APIs) and bot accounts. Only a token's SHA-256 is stored: the
//! token itself is shown once, when it is made.

use crate::rows::{Row, Value};
use crate::StoreError;
use async_trait::async_trait;

/// A stored API token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenRecord {
    /// Its id (shown in lists, used to revoke it).
    pub id: String,
    /// The account's player.
    pub player_id: String,
    /// The SHA-256 (hex) of the token.
    pub token_hash: String,
    /// What its owner calls it.
    pub description: String,
    /// What it may do (`bot:play`, `board:play`, `challenge:write`).
    pub scopes: Vec<String>,
    /// When it was made (ms).
    pub created_at: i64,
    /// When it was last used (ms), roughly (at most once a minute).
    pub last_used_at: Option<i64>,
    /// When it was revoked (ms); a revoked token authenticates nothing.
    pub revoked_at: Option<i64>,
}

/// The columns of a token, in [`token_values`]' order.
pub const TOKEN_COLUMNS: &str =
    "id, player_id, token_hash, description, scopes, created_at, last_used_at, revoked_at";

/// A token's values, in [`TOKEN_COLUMNS`]' order.
pub fn token_values(t: &TokenRecord) -> Vec<Value> {
    vec![
        Value::Text(Some(t.id.clone())),
        Value::Text(Some(t.player_id.clone())),
        Value::Text(Some(t.token_hash.clone())),
        Value::Text(Some(t.description.clone())),
        Value::Text(Some(t.scopes.join(" "))),
        Value::Int(Some(t.created_at)),
        Value::Int(t.last_used_at),
        Value::Int(t.revoked_at),
    ]
}

/// A token from a row whose columns start at `at`.
pub fn read_token(row: &impl Row, at: usize) -> Result<TokenRecord, StoreError> {
    Ok(TokenRecord {
        id: row.text_nn(at)?,
        player_id: row.text_nn(at + 1)?,
        token_hash: row.text_nn(at + 2)?,
        description: row.text_nn(at + 3)?,
        scopes: row
            .text_nn(at + 4)?
            .split_whitespace()
            .map(str::to_string)
            .collect(),
        created_at: row.int_nn(at + 5)?,
        last_used_at: row.int(at + 6)?,
        revoked_at: row.int(at + 7)?,
    })
}

/// Storage for API tokens and bot accounts. Each method is one atomic
/// write or one read.
#[async_trait]
pub trait TokenRepo: Send + Sync + 'static {
    /// Stores a new token.
    async fn create_token(&self, token: &TokenRecord) -> Result<(), StoreError>;
    /// The token whose SHA-256 is `hash`, revoked or not.
    async fn token_by_hash(&self, hash: &str) -> Result<Option<TokenRecord>, StoreError>;
    /// A player's tokens not revoked, oldest first.
    async fn tokens_of(&self, player: &str) -> Result<Vec<TokenRecord>, StoreError>;
    /// Revokes a token of `player` at `at`; `false` when they have no such
    /// token not revoked.
    async fn revoke_token(&self, id: &str, player: &str, at: i64) -> Result<bool, StoreError>;
    /// Notes that a token was used at `at`.
    async fn touch_token(&self, id: &str, at: i64) -> Result<(), StoreError>;
    /// Makes `player` a bot account (once: `false` if it was one already).
    async fn make_bot(&self, player: &str, at: i64) -> Result<bool, StoreError>;
    /// Whether `player` is a bot account.
    async fn is_bot(&self, player: &str) -> Result<bool, StoreError>;
    /// Every bot account, by player id.
    async fn bots(&self) -> Result<Vec<String>, StoreError>;
}
