//! Personal API tokens: an account makes one (shown once) for a program
//! that plays for it (the Bot API, the Board API, challenges), lists and
//! revokes them. A request with `Authorization: Bearer <token>` is that
//! account's; the token is looked up in the store on every request, so a
//! revoked token is refused at once on every server.

use crate::clock::Clock;
use crate::error::AppError;
use crate::identity::Me;
use crate::ids::new_id;
use crate::kind::Kind;
use crate::ratelimit::{KeyedLimiter, RateLimit};
use crate::store::{GameStore, TokenRecord};
use serde::Deserialize;
use std::sync::Arc;

/// Play as a bot account (the Bot API).
pub const BOT_PLAY: &str = "bot:play";
/// Play an account's games with a program (the Board API).
pub const BOARD_PLAY: &str = "board:play";
/// Make, accept and decline challenges.
pub const CHALLENGE_WRITE: &str = "challenge:write";
/// Every scope a token may have.
pub const SCOPES: [&str; 3] = [BOT_PLAY, BOARD_PLAY, CHALLENGE_WRITE];
/// What every token starts with (so that a leaked one is recognised).
pub const TOKEN_PREFIX: &str = "tct_";
/// Tokens one account may have at once.
pub const MAX_TOKENS: usize = 20;
/// Longest description, in characters.
pub const MAX_DESCRIPTION: usize = 100;
/// A token's use is written down at most this often.
const TOUCH_EVERY_MS: i64 = 60_000;
/// Requests of one account's tokens together, other than moves (and
/// streams): a program's bursts at a game's start, then a few a second.
pub const TOKEN_REQUESTS: RateLimit = RateLimit {
    burst: 40,
    per_second: 4.0,
};

/// `POST /api/account/tokens`.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct NewTokenRequest {
    /// What the owner calls it.
    pub description: String,
    /// What it may do: any of [`SCOPES`].
    #[serde(default)]
    pub scopes: Vec<String>,
}

/// A token just made: the only time the token itself is known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewToken {
    /// The token, for `Authorization: Bearer`.
    pub token: String,
    /// What is stored of it (its hash, never the token).
    pub record: TokenRecord,
}

/// The SHA-256 (hex) a token is stored by: the same hash as sessions' and
/// seats' tokens.
pub fn hash(token: &str) -> String {
    crate::identity::token_hash(token)
}

/// A new random token: the prefix and 32 hex digits (128 bits from the
/// operating system's generator).
fn new_token() -> String {
    let random = crate::identity::new_token();
    format!("{TOKEN_PREFIX}{}", &random[..32])
}

/// A request authenticated by a token: whose, and what it may do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenAuth {
    /// The token's id.
    pub id: String,
    /// The account's player.
    pub player: String,
    /// Its scopes.
    pub scopes: Vec<String>,
}

impl TokenAuth {
    /// Whether the token has `scope`.
    pub fn has(&self, scope: &str) -> bool {
        self.scopes.iter().any(|s| s == scope)
    }

    /// Refuses (403) unless the token has one of `scopes`.
    pub fn require_any(&self, scopes: &[&str]) -> Result<(), AppError> {
        if scopes.iter().any(|s| self.has(s)) {
            Ok(())
        } else {
            Err(AppError::refused(
                Kind::MissingScope,
                format!(
                    "This token lacks the scope {}: make a token with it",
                    scopes.join(" or ")
                ),
            ))
        }
    }
}

/// The tokens service.
pub struct Tokens {
    store: Arc<dyn GameStore>,
    clock: Arc<dyn Clock>,
    requests: KeyedLimiter<String>,
}

impl Tokens {
    /// The service over `store`.
    pub fn new(store: Arc<dyn GameStore>, clock: Arc<dyn Clock>) -> Tokens {
        Tokens {
            store,
            clock,
            requests: KeyedLimiter::new(TOKEN_REQUESTS),
        }
    }

    /// The account `me` is logged in to (tokens are made only for one).
    async fn account_of(&self, me: &Me) -> Result<(), AppError> {
        let has = self
            .store
            .player(&me.id)
            .await?
            .is_some_and(|p| p.account.is_some());
        if has {
            Ok(())
        } else {
            Err(AppError::refused(
                Kind::AccountNeeded,
                "Only an account has API tokens: register or log in first",
            ))
        }
    }

    /// Makes a token for `me`'s account; the answer is the only time the
    /// token is shown.
    pub async fn create(&self, me: &Me, req: NewTokenRequest) -> Result<NewToken, AppError> {
        me.may_act()?;
        self.account_of(me).await?;
        let description = crate::text::clean_text(&req.description)
            .ok()
            .filter(|d| d.chars().count() <= MAX_DESCRIPTION)
            .ok_or_else(|| {
                AppError::bad(format!(
                    "A description has 1 to {MAX_DESCRIPTION} characters"
                ))
            })?;
        let mut scopes = Vec::new();
        for s in &req.scopes {
            let Some(known) = SCOPES.iter().find(|k| **k == s) else {
                return Err(AppError::bad(format!(
                    "Unknown scope '{}': expected {}",
                    s.chars().take(30).collect::<String>(),
                    SCOPES.join(", ")
                )));
            };
            if !scopes.contains(&known.to_string()) {
                scopes.push(known.to_string());
            }
        }
        if scopes.is_empty() {
            return Err(AppError::bad(format!(
                "A token needs at least one scope ({}): a token without one could do nothing",
                SCOPES.join(", ")
            )));
        }
        if self.store.tokens_of(&me.id).await?.len() >= MAX_TOKENS {
            return Err(AppError::refused(
                Kind::TooMany,
                format!("An account has at most {MAX_TOKENS} tokens: revoke one first"),
            ));
        }
        let token = new_token();
        let record = TokenRecord {
            id: new_id(),
            player_id: me.id.to_string(),
            token_hash: hash(&token),
            description,
            scopes,
            created_at: self.clock.now_ms(),
            last_used_at: None,
            revoked_at: None,
        };
        self.store.create_token(&record).await?;
        Ok(NewToken { token, record })
    }

    /// `me`'s tokens (not revoked), oldest first.
    pub async fn list(&self, me: &Me) -> Result<Vec<TokenRecord>, AppError> {
        self.account_of(me).await?;
        Ok(self.store.tokens_of(&me.id).await?)
    }

    /// Revokes one of `me`'s tokens: refused from then on, on every server.
    pub async fn revoke(&self, me: &Me, id: &str) -> Result<(), AppError> {
        self.account_of(me).await?;
        if self
            .store
            .revoke_token(id, &me.id, self.clock.now_ms())
            .await?
        {
            Ok(())
        } else {
            Err(AppError::NotFound(format!(
                "You have no token {}",
                id.chars().take(30).collect::<String>()
            )))
        }
    }

    /// Who a bearer token stands for: 401 for a token unknown or revoked.
    pub async fn authenticate(&self, token: &str) -> Result<TokenAuth, AppError> {
        let refused = || AppError::Unauthorized("This token is unknown or was revoked".into());
        if !token.starts_with(TOKEN_PREFIX) || token.len() > 100 {
            return Err(refused());
        }
        let record = self
            .store
            .token_by_hash(&hash(token))
            .await?
            .filter(|t| t.revoked_at.is_none())
            .ok_or_else(refused)?;
        let now = self.clock.now_ms();
        if record
            .last_used_at
            .is_none_or(|at| now - at >= TOUCH_EVERY_MS)
        {
            if let Err(e) = self.store.touch_token(&record.id, now).await {
                tracing::warn!("a token's use was not noted: {e}");
            }
        }
        Ok(TokenAuth {
            id: record.id,
            player: record.player_id,
            scopes: record.scopes,
        })
    }

    /// Counts a request of a token against its account (all its tokens
    /// together): 429 past [`TOKEN_REQUESTS`].
    pub fn take(&self, auth: &TokenAuth) -> Result<(), AppError> {
        self.requests
            .take(&auth.player, self.clock.now_ms())
            .map_err(|retry_ms| AppError::TooManyRequests { retry_ms })
    }
}
