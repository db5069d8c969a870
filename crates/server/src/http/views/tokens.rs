//! `GET` and `POST /api/account/tokens`: a player's API tokens.

use crate::store::TokenRecord;
use crate::tokens::NewToken;
use serde::Serialize;

/// A token as its owner's list shows it (never the token itself).
#[derive(Serialize, Debug, Clone, PartialEq, Eq, ts_rs::TS)]
pub struct TokenView {
    /// Its id (to revoke it).
    pub id: String,
    /// What the owner calls it.
    pub description: String,
    /// What it may do.
    pub scopes: Vec<String>,
    /// When it was made (ms).
    pub created_at: i64,
    /// When it was last used (ms, to the minute); `null`: never.
    pub last_used_at: Option<i64>,
}

impl From<&TokenRecord> for TokenView {
    fn from(t: &TokenRecord) -> TokenView {
        TokenView {
            id: t.id.clone(),
            description: t.description.clone(),
            scopes: t.scopes.clone(),
            created_at: t.created_at,
            last_used_at: t.last_used_at,
        }
    }
}

/// A new token: the only time the token itself is shown.
#[derive(Serialize, Debug, Clone, PartialEq, Eq, ts_rs::TS)]
pub struct NewTokenView {
    /// The token, for `Authorization: Bearer`.
    pub token: String,
    /// The rest.
    #[serde(flatten)]
    #[ts(flatten)]
    pub view: TokenView,
}

impl From<NewToken> for NewTokenView {
    fn from(new: NewToken) -> NewTokenView {
        NewTokenView {
            view: TokenView::from(&new.record),
            token: new.token,
        }
    }
}

/// `GET /api/account/tokens`.
#[derive(Serialize, Debug, Clone, PartialEq, Eq, ts_rs::TS)]
pub struct TokensView {
    /// Not revoked, oldest first.
    pub tokens: Vec<TokenView>,
}

impl From<Vec<TokenRecord>> for TokensView {
    fn from(tokens: Vec<TokenRecord>) -> TokensView {
        TokensView {
            tokens: tokens.iter().map(TokenView::from).collect(),
        }
    }
}
