//! The players' contract: sessions, accounts, ratings, seeks, merges.

use super::*;
use tensorchess_rules::EndReason;

/// Players, sessions, accounts (unique names ignoring case) and ratings
/// (written only over the rating read).
pub async fn players_sessions_accounts_and_ratings(store: &dyn GameStore) {
    assert!(store.player("ann").await.unwrap().is_none());
    store
        .start_session("h1", &player("ann"), None)
        .await
        .unwrap();
    assert_eq!(
        store.session_player("h1").await.unwrap().as_deref(),
        Some("ann")
    );
    let mut ann = store.player("ann").await.unwrap().unwrap();
    assert_eq!(ann.name, "Player ann");
    ann.name = "Ann Ї".into();
    store.save_player(&ann).await.unwrap();
    assert_eq!(store.player("ann").await.unwrap().unwrap().name, "Ann Ї");
    // A new session replaces the old one, together.
    store.start_session("h2", &ann, Some("h1")).await.unwrap();
    assert!(store.session_player("h1").await.unwrap().is_none());
    assert_eq!(
        store.session_player("h2").await.unwrap().as_deref(),
        Some("ann")
    );
    store.end_session("h2").await.unwrap();
    assert!(store.session_player("h2").await.unwrap().is_none());

    let account = AccountRecord {
        username: "Ann_1".into(),
        password_hash: "$argon2id$x".into(),
        player_id: "ann".into(),
        created_at: 6,
        closed_at: None,
    };
    store.create_account(&account).await.unwrap();
    assert_eq!(store.account("ann_1").await.unwrap(), Some(account.clone()));
    assert_eq!(
        store
            .player("ann")
            .await
            .unwrap()
            .unwrap()
            .account
            .as_deref(),
        Some("Ann_1")
    );
    store.save_player(&player("ann2")).await.unwrap();
    let taken = store
        .create_account(&AccountRecord {
            username: "ANN_1".into(),
            player_id: "ann2".into(),
            ..account.clone()
        })
        .await
        .unwrap_err();
    assert!(matches!(taken, StoreError::Conflict(_)), "{taken}");
    // Found by the start of the name, ignoring case, in name order; a
    // closed account is not; `_` is a letter here, not a wildcard.
    for (name, id, closed) in [
        ("annie", "search1", false),
        ("ANDY", "search2", false),
        ("Anna_Gone", "search3", true),
        ("annx1", "search4", false),
        ("zed_s", "search5", false),
    ] {
        store.save_player(&player(id)).await.unwrap();
        store
            .create_account(&AccountRecord {
                username: name.into(),
                player_id: id.into(),
                ..account.clone()
            })
            .await
            .unwrap();
        if closed {
            store.close_account(name, 9).await.unwrap();
        }
    }
    let names = |v: Vec<AccountRecord>| v.into_iter().map(|a| a.username).collect::<Vec<_>>();
    assert_eq!(
        names(store.accounts_starting("An", 10).await.unwrap()),
        ["ANDY", "Ann_1", "annie", "annx1"]
    );
    assert_eq!(
        names(store.accounts_starting("ann", 2).await.unwrap()),
        ["Ann_1", "annie"]
    );
    assert_eq!(
        names(store.accounts_starting("ann_", 10).await.unwrap()),
        ["Ann_1"]
    );
    assert!(store.accounts_starting("q", 10).await.unwrap().is_empty());

    // Ratings: the first write needs none stored, later ones the one read.
    let r = |rating, games| RatingRecord {
        rating,
        rd: 200.0,
        volatility: 0.06,
        games,
    };
    let write = |before, after| RatingWrite {
        player_id: "ann".into(),
        pool: RatingPool::real_time(VariantKind::Tensor),
        before,
        after,
    };
    store.create_game(&game(record("rated"))).await.unwrap();
    let mut up = update(2);
    up.ratings = vec![write(None, r(1520.0, 1))];
    store
        .commit("rated", &MovesChange::Keep, &up)
        .await
        .unwrap();
    let mut up = update(3);
    up.ratings = vec![write(None, r(1540.0, 2))];
    let stale = store
        .commit("rated", &MovesChange::Keep, &up)
        .await
        .unwrap_err();
    assert!(matches!(stale, StoreError::Stale { .. }), "{stale}");
    up.ratings = vec![write(Some(r(1520.0, 1)), r(1540.0, 2))];
    store
        .commit("rated", &MovesChange::Keep, &up)
        .await
        .unwrap();
    assert_eq!(
        store.ratings("ann").await.unwrap(),
        vec![(RatingPool::real_time(VariantKind::Tensor), r(1540.0, 2))]
    );
    // The correspondence pool is a rating of its own.
    let mut up = update(4);
    up.ratings = vec![RatingWrite {
        pool: RatingPool::correspondence(VariantKind::Tensor),
        ..write(None, r(1400.0, 1))
    }];
    store
        .commit("rated", &MovesChange::Keep, &up)
        .await
        .unwrap();
    let mut ratings = store.ratings("ann").await.unwrap();
    ratings.sort_by_key(|(pool, _)| pool.key());
    assert_eq!(
        ratings,
        vec![
            (RatingPool::real_time(VariantKind::Tensor), r(1540.0, 2)),
            (
                RatingPool::correspondence(VariantKind::Tensor),
                r(1400.0, 1)
            ),
        ]
    );
    assert_eq!(
        store.load_game("rated").await.unwrap().unwrap().record.rev,
        4
    );
    // A wave's reads: every player and every rating of a pool at once,
    // the never stored and the unrated left out.
    let ids = ["ann", "ann2", "nobody"].map(String::from);
    let mut named: Vec<_> = store
        .players(&ids)
        .await
        .unwrap()
        .into_iter()
        .map(|p| (p.id, p.name, p.account))
        .collect();
    named.sort();
    assert_eq!(
        named,
        vec![
            ("ann".into(), "Ann Ї".into(), Some("Ann_1".into())),
            ("ann2".into(), "Player ann2".into(), None),
        ]
    );
    assert!(store.players(&[]).await.unwrap().is_empty());
    assert_eq!(
        store
            .pool_ratings(RatingPool::correspondence(VariantKind::Tensor), &ids)
            .await
            .unwrap(),
        vec![("ann".into(), r(1400.0, 1))]
    );
    assert!(store
        .pool_ratings(RatingPool::real_time(VariantKind::Chess), &ids)
        .await
        .unwrap()
        .is_empty());
}

/// Seeks: listed while open, removed by their player, lapsing, and
/// accepted once only (the game is stored with the acceptance).
pub async fn seeks_are_accepted_once(store: &dyn GameStore) {
    let seek = |id: &str, player: &str, expires_at| SeekRecord {
        id: id.into(),
        player_id: player.into(),
        variant: VariantKind::Chessence,
        clock: Some(ClockSettings {
            base_ms: 180_000,
            increment_ms: 2_000,
        }),
        rated: true,
        color: SeekColor::Black,
        created_at: 10,
        expires_at,
        client: Some("203.0.113.9".into()),
    };
    store.create_seek(&seek("s1", "ann", 1_000)).await.unwrap();
    store.create_seek(&seek("s2", "bob", 2_000)).await.unwrap();
    store.create_seek(&seek("s3", "bob", 3_000)).await.unwrap();
    assert_eq!(
        store.open_seeks(0).await.unwrap()[0],
        seek("s1", "ann", 1_000)
    );
    assert_eq!(store.open_seeks(1_500).await.unwrap().len(), 2);
    assert!(
        !store.delete_seek("s2", Some("ann")).await.unwrap(),
        "not hers"
    );
    assert!(store.delete_seek("s2", Some("bob")).await.unwrap());
    assert_eq!(store.delete_lapsed_seeks(1_500).await.unwrap(), ["s1"]);
    let g = online_game("from-seek");
    store.accept_seek("s3", 2_500, &g).await.unwrap();
    assert!(store.load_game("from-seek").await.unwrap().is_some());
    let again = store
        .accept_seek("s3", 2_500, &online_game("twice"))
        .await
        .unwrap_err();
    assert!(matches!(again, StoreError::Conflict(_)), "{again}");
    assert!(store.load_game("twice").await.unwrap().is_none());
    store.create_seek(&seek("s4", "bob", 9_000)).await.unwrap();
    assert_eq!(store.delete_seeks_of("bob").await.unwrap(), ["s4"]);
    assert!(store.open_seeks(0).await.unwrap().is_empty());
}

/// A guest who logs in gives their games to the account.
pub async fn merging_a_guest_moves_their_games(store: &dyn GameStore) {
    let mut local = record("guest-local");
    local.owner = Some("guest".into());
    store.create_game(&game(local)).await.unwrap();
    let mut online = online_game("guest-online");
    online.online.as_mut().unwrap().players.white = Some("guest".into());
    store.create_game(&online).await.unwrap();
    let mut moved = store.merge_player("guest", "member").await.unwrap();
    moved.sort();
    assert_eq!(moved, ["guest-local", "guest-online"]);
    let l = store.load_game("guest-local").await.unwrap().unwrap();
    assert_eq!(
        (l.record.owner.as_deref(), l.record.rev),
        (Some("member"), 2)
    );
    let o = store.load_game("guest-online").await.unwrap().unwrap();
    assert_eq!(o.online.unwrap().players.white.as_deref(), Some("member"));

    // A game where the account holds the other seat keeps the guest's
    // seat apart (nobody plays both sides), and a finished game keeps its
    // players as they were.
    let mut both = online_game("both-seats");
    let o = both.online.as_mut().unwrap();
    o.players.white = Some("member".into());
    o.players.black = Some("guest2".into());
    store.create_game(&both).await.unwrap();
    let mut over = online_game("over");
    over.record.ending = Some(Ending::Outcome(Outcome::Decisive {
        winner: Color::White,
        reason: EndReason::Resignation,
    }));
    over.online.as_mut().unwrap().players.black = Some("guest2".into());
    store.create_game(&over).await.unwrap();
    assert!(store
        .merge_player("guest2", "member")
        .await
        .unwrap()
        .is_empty());
    let b = store
        .load_game("both-seats")
        .await
        .unwrap()
        .unwrap()
        .online
        .unwrap();
    assert_eq!(
        (b.players.white.as_deref(), b.players.black.as_deref()),
        (Some("member"), Some("guest2"))
    );
    let o = store
        .load_game("over")
        .await
        .unwrap()
        .unwrap()
        .online
        .unwrap();
    assert_eq!(o.players.black.as_deref(), Some("guest2"));
}
