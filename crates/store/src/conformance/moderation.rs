//! The moderation part of the store contract: bans, ended sessions,
//! renamed and closed accounts, and the account event log every server
//! reads in order.

use super::*;

fn account(username: &str, player: &str) -> AccountRecord {
    AccountRecord {
        username: username.into(),
        password_hash: "$argon2id$x".into(),
        player_id: player.into(),
        created_at: 1,
        closed_at: None,
    }
}

/// Every change is logged in order with its kind; bans end sessions and
/// seeks; accounts are renamed (names stay unique) and closed.
pub async fn moderation_is_logged_in_order(store: &dyn GameStore) {
    let start = store.last_account_event().await.unwrap();
    assert!(store.account_events(start, 10).await.unwrap().is_empty());
    for p in ["mo", "eve"] {
        store.save_player(&player(p)).await.unwrap();
    }
    store.create_account(&account("Mo", "mo")).await.unwrap();
    store.create_account(&account("Eve", "eve")).await.unwrap();
    store
        .start_session("m1", &player("mo"), None)
        .await
        .unwrap();
    store
        .start_session("m2", &player("mo"), None)
        .await
        .unwrap();
    store
        .start_session("m3", &player("mo"), None)
        .await
        .unwrap();

    // A logout; then every session but one.
    store.end_session("m1").await.unwrap();
    store.end_session("no-such-token").await.unwrap();
    assert_eq!(store.end_sessions("mo", Some("m2")).await.unwrap(), 1);
    assert!(store.session_player("m3").await.unwrap().is_none());
    assert_eq!(
        store.session_player("m2").await.unwrap().as_deref(),
        Some("mo")
    );
    store.set_password("mo", "$argon2id$new").await.unwrap();
    assert_eq!(
        store.account("mo").await.unwrap().unwrap().password_hash,
        "$argon2id$new"
    );
    assert!(store.set_password("nobody", "$x").await.is_err());

    // A ban ends the sessions and the seeks; a second one replaces the reason.
    store
        .start_session("e1", &player("eve"), None)
        .await
        .unwrap();
    let seek = SeekRecord {
        id: "eve-seek".into(),
        player_id: "eve".into(),
        variant: VariantKind::Tensor,
        clock: None,
        rated: false,
        color: SeekColor::Random,
        created_at: 1,
        expires_at: i64::MAX,
        client: None,
    };
    store.create_seek(&seek).await.unwrap();
    let ban = |reason: &str, at| BanRecord {
        player_id: "eve".into(),
        reason: reason.into(),
        banned_at: at,
    };
    store.ban(&ban("spam", 10)).await.unwrap();
    store.ban(&ban("spam and abuse", 11)).await.unwrap();
    assert_eq!(
        store.ban_of("eve").await.unwrap(),
        Some(ban("spam and abuse", 11))
    );
    assert!(store.session_player("e1").await.unwrap().is_none());
    let open = store.open_seeks(2).await.unwrap();
    assert!(open.iter().all(|s| s.player_id != "eve"), "{open:?}");
    assert_eq!(store.bans().await.unwrap(), vec![ban("spam and abuse", 11)]);
    assert!(store.unban("eve").await.unwrap());
    assert!(!store.unban("eve").await.unwrap());
    assert!(store.ban_of("eve").await.unwrap().is_none());

    // Renaming keeps names unique; the display name follows the user name.
    let mut eve = player("eve");
    eve.name = "Eve".into();
    store.save_player(&eve).await.unwrap();
    let taken = store.rename_account("eve", "MO").await.unwrap_err();
    assert!(matches!(taken, StoreError::Conflict(_)), "{taken}");
    assert_eq!(
        store.rename_account("EVE", "Eva").await.unwrap().as_deref(),
        Some("eve")
    );
    assert!(store.account("eve").await.unwrap().is_none());
    assert_eq!(store.account("eva").await.unwrap().unwrap().username, "Eva");
    assert_eq!(store.player("eve").await.unwrap().unwrap().name, "Eva");
    assert_eq!(store.rename_account("nobody", "x-y-z").await.unwrap(), None);

    // Closing keeps the name taken and ends the sessions.
    assert_eq!(
        store.close_account("mo", 99).await.unwrap().as_deref(),
        Some("mo")
    );
    assert_eq!(
        store.account("Mo").await.unwrap().unwrap().closed_at,
        Some(99)
    );
    assert!(store.session_player("m2").await.unwrap().is_none());
    assert_eq!(store.close_account("nobody", 99).await.unwrap(), None);

    let events = store.account_events(start, 100).await.unwrap();
    let kinds: Vec<_> = events
        .iter()
        .map(|e| (e.player_id.as_str(), e.change.columns().0))
        .collect();
    assert_eq!(
        kinds,
        [
            ("mo", "logout"),
            ("mo", "sessions_ended"),
            ("eve", "banned"),
            ("eve", "banned"),
            ("eve", "unbanned"),
            ("eve", "renamed"),
            ("mo", "closed"),
        ]
    );
    assert_eq!(
        events[0].change,
        AccountChange::Logout {
            token_hash: "m1".into()
        }
    );
    assert_eq!(
        events[1].change,
        AccountChange::SessionsEnded {
            keep: Some("m2".into())
        }
    );
    assert!(events.windows(2).all(|w| w[0].seq < w[1].seq));
    assert!(
        events.iter().all(|e| e.at > 1_600_000_000_000),
        "the database's time"
    );
    assert_eq!(store.last_account_event().await.unwrap(), events[6].seq);
    // Read in pages.
    let first = store.account_events(start, 2).await.unwrap();
    assert_eq!(first.len(), 2);
    let rest = store.account_events(first[1].seq, 100).await.unwrap();
    assert_eq!(rest.len(), 5);
}
