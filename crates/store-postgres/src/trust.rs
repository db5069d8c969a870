//! Follows, preferences, name keys and address mutes in PostgreSQL, and
//! the advisory locks under which the caps are counted.

use super::row::mark;
use super::PgStore;
use async_trait::async_trait;
use deadpool_postgres::GenericClient;
use tensorchess_store::player::{read_account, ACCOUNT_COLUMNS};
use tensorchess_store::trust::{have_played_sql, name_key, FollowRecord, Preferences, TrustRepo};
use tensorchess_store::{AccountRecord, StoreError};

/// A lock key for `what`, the same on every server: FNV-1a (64 bits).
fn lock_key(what: &str) -> i64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in what.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h as i64
}

/// Takes transaction-scoped advisory locks on `keys`, in one order
/// everywhere (sorted), so that two transactions taking overlapping keys
/// never wait for each other in a circle. They are held until the
/// transaction `c` runs in ends.
pub async fn lock_keys(c: &impl GenericClient, keys: &[String]) -> Result<(), StoreError> {
    let mut ids: Vec<i64> = keys.iter().map(|k| lock_key(k)).collect();
    ids.sort_unstable();
    ids.dedup();
    let stmt = c.prepare_cached("SELECT pg_advisory_xact_lock($1)").await?;
    for id in ids {
        c.execute(&stmt, &[&id]).await?;
    }
    Ok(())
}

/// Gives every account stored without a look-alike key (before migration
/// 14, or by an older program) its key; in the migrations' transaction.
pub async fn fill_name_keys(c: &impl GenericClient) -> Result<(), StoreError> {
    let missing = c
        .query(
            "SELECT username_key, username FROM accounts WHERE skeleton IS NULL",
            &[],
        )
        .await?;
    for row in missing {
        let (key, username): (String, String) = (row.try_get(0)?, row.try_get(1)?);
        c.execute(
            "UPDATE accounts SET skeleton = $2 WHERE username_key = $1",
            &[&key, &name_key(&username)],
        )
        .await?;
    }
    Ok(())
}

#[async_trait]
impl TrustRepo for PgStore {
    async fn follow(&self, follower: &str, followed: &str, at: i64) -> Result<bool, StoreError> {
        let n = self
            .client()
            .await?
            .execute(
                "INSERT INTO follows (follower, followed, at) VALUES ($1, $2, $3) \
                 ON CONFLICT DO NOTHING",
                &[&follower, &followed, &at],
            )
            .await?;
        Ok(n == 1)
    }

    async fn unfollow(&self, follower: &str, followed: &str) -> Result<bool, StoreError> {
        let n = self
            .client()
            .await?
            .execute(
                "DELETE FROM follows WHERE follower = $1 AND followed = $2",
                &[&follower, &followed],
            )
            .await?;
        Ok(n == 1)
    }

    async fn is_following(&self, follower: &str, followed: &str) -> Result<bool, StoreError> {
        Ok(self
            .client()
            .await?
            .query_opt(
                "SELECT 1 FROM follows WHERE follower = $1 AND followed = $2",
                &[&follower, &followed],
            )
            .await?
            .is_some())
    }

    async fn following(
        &self,
        follower: &str,
        limit: usize,
    ) -> Result<Vec<FollowRecord>, StoreError> {
        self.client()
            .await?
            .query(
                "SELECT followed, at FROM follows WHERE follower = $1 \
                 ORDER BY at DESC, followed COLLATE \"C\" LIMIT $2",
                &[&follower, &(limit as i64)],
            )
            .await?
            .iter()
            .map(|r| {
                Ok(FollowRecord {
                    followed: r.try_get(0)?,
                    at: r.try_get(1)?,
                })
            })
            .collect()
    }

    async fn have_played(&self, a: &str, b: &str) -> Result<bool, StoreError> {
        let c = self.client().await?;
        let stmt = c.prepare_cached(&have_played_sql(mark)).await?;
        Ok(c.query_opt(&stmt, &[&a, &b]).await?.is_some())
    }

    async fn preferences(&self, player: &str) -> Result<Preferences, StoreError> {
        let row = self
            .client()
            .await?
            .query_opt(
                "SELECT challenges_from_guests FROM preferences WHERE player_id = $1",
                &[&player],
            )
            .await?;
        Ok(match row {
            Some(r) => Preferences {
                challenges_from_guests: r.try_get(0)?,
            },
            None => Preferences::default(),
        })
    }

    async fn set_preferences(&self, player: &str, p: &Preferences) -> Result<(), StoreError> {
        self.client()
            .await?
            .execute(
                "INSERT INTO preferences (player_id, challenges_from_guests) VALUES ($1, $2) \
                 ON CONFLICT (player_id) DO UPDATE SET challenges_from_guests = $2",
                &[&player, &p.challenges_from_guests],
            )
            .await?;
        Ok(())
    }

    async fn accounts_with_key(&self, key: &str) -> Result<Vec<AccountRecord>, StoreError> {
        self.client()
            .await?
            .query(
                &format!("SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE skeleton = $1 LIMIT 8"),
                &[&key],
            )
            .await?
            .iter()
            .map(read_account)
            .collect()
    }

    async fn mute_address(&self, address: &str, until: i64) -> Result<(), StoreError> {
        self.client()
            .await?
            .execute(
                "INSERT INTO chat_address_mutes (address, until) VALUES ($1, $2) \
                 ON CONFLICT (address) DO UPDATE \
                 SET until = GREATEST(chat_address_mutes.until, $2)",
                &[&address, &until],
            )
            .await?;
        Ok(())
    }

    async fn address_muted_until(&self, address: &str) -> Result<Option<i64>, StoreError> {
        Ok(self
            .client()
            .await?
            .query_opt(
                "SELECT until FROM chat_address_mutes WHERE address = $1",
                &[&address],
            )
            .await?
            .map(|r| r.try_get(0))
            .transpose()?)
    }
}
