//! The API token part of the store contract: found by hash, listed for
//! their owner while not revoked, revoked once and only by their owner;
//! bot accounts made once.

use super::*;
use crate::token::TokenRecord;

fn token(id: &str, player: &str, hash: &str, at: i64) -> TokenRecord {
    TokenRecord {
        id: id.into(),
        player_id: player.into(),
        token_hash: hash.into(),
        description: format!("token {id}"),
        scopes: vec!["bot:play".into(), "challenge:write".into()],
        created_at: at,
        last_used_at: None,
        revoked_at: None,
    }
}

/// A token's life: made, found, used, listed, revoked; bots.
pub async fn tokens_are_found_by_hash_listed_and_revoked(store: &dyn GameStore) {
    let t1 = token("t1", "ann", "h1", 10);
    let t2 = TokenRecord {
        scopes: vec![],
        ..token("t2", "ann", "h2", 20)
    };
    let t3 = token("t3", "bob", "h3", 30);
    for t in [&t1, &t2, &t3] {
        store.create_token(t).await.unwrap();
    }
    assert_eq!(store.token_by_hash("h1").await.unwrap(), Some(t1.clone()));
    assert_eq!(store.token_by_hash("h2").await.unwrap(), Some(t2.clone()));
    assert_eq!(store.token_by_hash("nope").await.unwrap(), None);
    // One hash, one token.
    assert!(store
        .create_token(&token("t4", "cat", "h1", 40))
        .await
        .is_err());
    store.touch_token("t1", 50).await.unwrap();
    let used = store.token_by_hash("h1").await.unwrap().unwrap();
    assert_eq!(used.last_used_at, Some(50));
    let ann = store.tokens_of("ann").await.unwrap();
    assert_eq!(
        ann.iter().map(|t| t.id.as_str()).collect::<Vec<_>>(),
        ["t1", "t2"]
    );
    // Only the owner revokes, once.
    assert!(!store.revoke_token("t1", "bob", 60).await.unwrap());
    assert!(store.revoke_token("t1", "ann", 60).await.unwrap());
    assert!(!store.revoke_token("t1", "ann", 61).await.unwrap());
    assert_eq!(
        store.token_by_hash("h1").await.unwrap().unwrap().revoked_at,
        Some(60)
    );
    assert_eq!(store.tokens_of("ann").await.unwrap(), [t2]);
    // Closing an account revokes its tokens.
    store
        .save_player(&PlayerRecord {
            id: "bob".into(),
            name: "Bob".into(),
            created_at: 1,
            account: None,
        })
        .await
        .unwrap();
    store
        .create_account(&AccountRecord {
            username: "bob".into(),
            password_hash: "x".into(),
            player_id: "bob".into(),
            created_at: 1,
            closed_at: None,
        })
        .await
        .unwrap();
    store.close_account("bob", 65).await.unwrap();
    assert_eq!(
        store.token_by_hash("h3").await.unwrap().unwrap().revoked_at,
        Some(65)
    );

    assert!(!store.is_bot("ann").await.unwrap());
    assert!(store.make_bot("ann", 70).await.unwrap());
    assert!(!store.make_bot("ann", 71).await.unwrap());
    assert!(store.make_bot("bob", 72).await.unwrap());
    assert!(store.is_bot("ann").await.unwrap());
    assert!(!store.is_bot("cat").await.unwrap());
    // (The games part of the contract makes a bot of its own.)
    let bots: Vec<String> = store.bots().await.unwrap();
    let bots: Vec<&str> = bots
        .iter()
        .map(String::as_str)
        .filter(|b| *b != "list-bot")
        .collect();
    assert_eq!(bots, ["ann", "bob"]);
}
