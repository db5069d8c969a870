//! Follows, preferences, name keys and address mutes in SQLite; the caps
//! checked in the write that they guard (the writer thread runs one write
//! at a time, inside `BEGIN IMMEDIATE`, so a count and its insert cannot
//! be split by another write).

use super::row::mark;
use super::SqliteStore;
use async_trait::async_trait;
use rusqlite::{params, Connection, OptionalExtension};
use tensorchess_store::player::{read_account, ACCOUNT_COLUMNS};
use tensorchess_store::trust::{have_played_sql, name_key, FollowRecord, Preferences, TrustRepo};
use tensorchess_store::{AccountRecord, StoreError};

/// Gives every account stored without a look-alike key (before migration
/// 14, or by an older program) its key.
pub fn fill_name_keys(conn: &Connection) -> Result<(), StoreError> {
    let missing: Vec<(String, String)> = conn
        .prepare("SELECT username_key, username FROM accounts WHERE skeleton IS NULL")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    for (key, username) in missing {
        conn.execute(
            "UPDATE accounts SET skeleton = ?2 WHERE username_key = ?1",
            params![key, name_key(&username)],
        )?;
    }
    Ok(())
}

fn follow(conn: &Connection, follower: &str, followed: &str, at: i64) -> Result<bool, StoreError> {
    let n = conn
        .prepare_cached(
            "INSERT INTO follows (follower, followed, at) VALUES (?1, ?2, ?3) \
             ON CONFLICT DO NOTHING",
        )?
        .execute(params![follower, followed, at])?;
    Ok(n == 1)
}

fn unfollow(conn: &Connection, follower: &str, followed: &str) -> Result<bool, StoreError> {
    let n = conn
        .prepare_cached("DELETE FROM follows WHERE follower = ?1 AND followed = ?2")?
        .execute(params![follower, followed])?;
    Ok(n == 1)
}

fn is_following(conn: &Connection, follower: &str, followed: &str) -> Result<bool, StoreError> {
    Ok(conn
        .prepare_cached("SELECT 1 FROM follows WHERE follower = ?1 AND followed = ?2")?
        .query_row(params![follower, followed], |_| Ok(()))
        .optional()?
        .is_some())
}

fn following(
    conn: &Connection,
    follower: &str,
    limit: usize,
) -> Result<Vec<FollowRecord>, StoreError> {
    Ok(conn
        .prepare_cached(
            "SELECT followed, at FROM follows WHERE follower = ?1 \
             ORDER BY at DESC, followed LIMIT ?2",
        )?
        .query_map(params![follower, limit as i64], |r| {
            Ok(FollowRecord {
                followed: r.get(0)?,
                at: r.get(1)?,
            })
        })?
        .collect::<Result<_, _>>()?)
}

fn have_played(conn: &Connection, a: &str, b: &str) -> Result<bool, StoreError> {
    Ok(conn
        .prepare_cached(&have_played_sql(mark))?
        .query_row(params![a, b], |_| Ok(()))
        .optional()?
        .is_some())
}

fn preferences(conn: &Connection, player: &str) -> Result<Preferences, StoreError> {
    let from_guests: Option<i64> = conn
        .prepare_cached("SELECT challenges_from_guests FROM preferences WHERE player_id = ?1")?
        .query_row(params![player], |r| r.get(0))
        .optional()?;
    Ok(match from_guests {
        Some(v) => Preferences {
            challenges_from_guests: v != 0,
        },
        None => Preferences::default(),
    })
}

fn set_preferences(conn: &Connection, player: &str, p: &Preferences) -> Result<(), StoreError> {
    conn.prepare_cached(
        "INSERT INTO preferences (player_id, challenges_from_guests) VALUES (?1, ?2) \
         ON CONFLICT (player_id) DO UPDATE SET challenges_from_guests = ?2",
    )?
    .execute(params![player, p.challenges_from_guests])?;
    Ok(())
}

fn accounts_with_key(conn: &Connection, key: &str) -> Result<Vec<AccountRecord>, StoreError> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE skeleton = ?1 LIMIT 8"
    ))?;
    crate::row::all(&mut stmt, params![key], |r| read_account(r))
}

fn mute_address(conn: &Connection, address: &str, until: i64) -> Result<(), StoreError> {
    conn.prepare_cached(
        "INSERT INTO chat_address_mutes (address, until) VALUES (?1, ?2) \
         ON CONFLICT (address) DO UPDATE SET until = MAX(until, ?2)",
    )?
    .execute(params![address, until])?;
    Ok(())
}

fn address_muted_until(conn: &Connection, address: &str) -> Result<Option<i64>, StoreError> {
    Ok(conn
        .prepare_cached("SELECT until FROM chat_address_mutes WHERE address = ?1")?
        .query_row(params![address], |r| r.get(0))
        .optional()?)
}

#[async_trait]
impl TrustRepo for SqliteStore {
    async fn follow(&self, follower: &str, followed: &str, at: i64) -> Result<bool, StoreError> {
        let (a, b) = (follower.to_string(), followed.to_string());
        self.write(move |conn| follow(conn, &a, &b, at)).await
    }

    async fn unfollow(&self, follower: &str, followed: &str) -> Result<bool, StoreError> {
        let (a, b) = (follower.to_string(), followed.to_string());
        self.write(move |conn| unfollow(conn, &a, &b)).await
    }

    async fn is_following(&self, follower: &str, followed: &str) -> Result<bool, StoreError> {
        let (a, b) = (follower.to_string(), followed.to_string());
        self.read(move |conn| is_following(conn, &a, &b)).await
    }

    async fn following(
        &self,
        follower: &str,
        limit: usize,
    ) -> Result<Vec<FollowRecord>, StoreError> {
        let a = follower.to_string();
        self.read(move |conn| following(conn, &a, limit)).await
    }

    async fn have_played(&self, a: &str, b: &str) -> Result<bool, StoreError> {
        let (a, b) = (a.to_string(), b.to_string());
        self.read(move |conn| have_played(conn, &a, &b)).await
    }

    async fn preferences(&self, player: &str) -> Result<Preferences, StoreError> {
        let player = player.to_string();
        self.read(move |conn| preferences(conn, &player)).await
    }

    async fn set_preferences(&self, player: &str, p: &Preferences) -> Result<(), StoreError> {
        let (player, p) = (player.to_string(), *p);
        self.write(move |conn| set_preferences(conn, &player, &p))
            .await
    }

    async fn accounts_with_key(&self, key: &str) -> Result<Vec<AccountRecord>, StoreError> {
        let key = key.to_string();
        self.read(move |conn| accounts_with_key(conn, &key)).await
    }

    async fn mute_address(&self, address: &str, until: i64) -> Result<(), StoreError> {
        let address = address.to_string();
        self.write(move |conn| mute_address(conn, &address, until))
            .await
    }

    async fn address_muted_until(&self, address: &str) -> Result<Option<i64>, StoreError> {
        let address = address.to_string();
        self.read(move |conn| address_muted_until(conn, &address))
            .await
    }
}
