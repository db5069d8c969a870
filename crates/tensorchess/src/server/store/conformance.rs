//! What every [`GameStore`] must do, written once against the trait and run
//! for each backend.

use super::*;
use tensorchess_rules::EndReason;

pub fn record(id: &str) -> GameRecord {
    GameRecord {
        id: id.into(),
        variant: VariantKind::Tensor,
        start_fen: "start".into(),
        mode: GameMode::Engine,
        human_color: Some(Color::White),
        level: Some(3),
        white: "You".into(),
        black: "Engine".into(),
        ending: None,
        rev: 1,
        created_at: 1,
        updated_at: 1,
    }
}

pub fn update(rev: i64) -> GameUpdate {
    GameUpdate {
        rev,
        ending: None,
        updated_at: 2 + rev,
        online: None,
    }
}

fn mv(ply: usize, uci: &str) -> StoredMove {
    StoredMove {
        ply,
        uci: uci.into(),
        san: uci.into(),
    }
}

fn game(record: GameRecord) -> StoredGame {
    StoredGame {
        record,
        moves: vec![],
        online: None,
    }
}

/// Creates game `id` (revision 1) and plays two moves (revision 3).
pub async fn a_game_with_two_moves(store: &dyn GameStore, id: &str) {
    store.create_game(&game(record(id))).await.unwrap();
    store
        .commit(id, &MovesChange::Push(mv(0, "e2e4")), &update(2))
        .await
        .unwrap();
    store
        .commit(id, &MovesChange::Push(mv(1, "e7e5")), &update(3))
        .await
        .unwrap();
}

pub async fn moves_follow_on_and_revisions_decide(store: &dyn GameStore) {
    a_game_with_two_moves(store, "g1").await;
    // A ply out of order is refused and changes nothing.
    let err = store
        .commit("g1", &MovesChange::Push(mv(5, "d2d4")), &update(4))
        .await
        .unwrap_err();
    assert!(matches!(err, StoreError::Conflict(_)), "{err}");
    // A write that follows an old revision is stale (another server moved).
    let err = store
        .commit("g1", &MovesChange::Push(mv(2, "d2d4")), &update(3))
        .await
        .unwrap_err();
    assert!(matches!(err, StoreError::Stale { found: 3, .. }), "{err}");
    let game = store.load_game("g1").await.unwrap().unwrap();
    assert_eq!(game.moves, vec![mv(0, "e2e4"), mv(1, "e7e5")]);
    assert_eq!(game.record.rev, 3);

    let mut end = update(4);
    end.ending = Some(Ending::Outcome(Outcome::Decisive {
        winner: Color::Black,
        reason: EndReason::Resignation,
    }));
    store
        .commit("g1", &MovesChange::Truncate(1), &end)
        .await
        .unwrap();
    let game = store.load_game("g1").await.unwrap().unwrap();
    assert_eq!(game.moves, vec![mv(0, "e2e4")]);
    assert_eq!(game.record.ending, end.ending);
    let list = store.list_games(10, &[]).await.unwrap();
    assert_eq!(list.len(), 1);
    assert_eq!(list[0].move_count, 1);
    assert!(store.delete_game("g1").await.unwrap());
    assert!(!store.delete_game("g1").await.unwrap());
    assert!(store.load_game("g1").await.unwrap().is_none());
    let err = store
        .commit("g1", &MovesChange::Keep, &update(5))
        .await
        .unwrap_err();
    assert!(matches!(err, StoreError::Conflict(_)), "{err}");
}

fn online_game(id: &str) -> StoredGame {
    let mut r = record(id);
    r.mode = GameMode::Online;
    r.human_color = None;
    r.level = None;
    StoredGame {
        record: r,
        moves: vec![],
        online: Some(OnlineRecord {
            white_seat: Some("ab".repeat(32)),
            clock: Some(ClockSettings {
                base_ms: 300_000,
                increment_ms: 2_000,
            }),
            white_ms: 300_000,
            black_ms: 300_000,
            ..OnlineRecord::default()
        }),
    }
}

pub async fn online_state_is_written_with_the_move_and_listed_only_for_its_players(
    store: &dyn GameStore,
) {
    let game = online_game("o1");
    store.create_game(&game).await.unwrap();
    assert_eq!(store.load_game("o1").await.unwrap().unwrap(), game);
    let mut online = game.online.clone().unwrap();
    online.black_seat = Some("cd".repeat(32));
    online.white_ms = 299_000;
    online.turn_started_at = Some(77);
    online.draw_offer = Some(Color::White);
    let mut up = update(2);
    up.online = Some(online.clone());
    let first = mv(0, "e2e4");
    store
        .commit("o1", &MovesChange::Push(first.clone()), &up)
        .await
        .unwrap();
    let loaded = store.load_game("o1").await.unwrap().unwrap();
    assert_eq!(loaded.online, Some(online));
    assert_eq!(loaded.moves, vec![first]);
    assert_eq!(store.running_online_games().await.unwrap(), vec!["o1"]);

    // The list shows online games only to those who name them.
    store
        .create_game(&self::game(record("local")))
        .await
        .unwrap();
    let ids = |l: Vec<GameSummary>| l.into_iter().map(|s| s.record.id).collect::<Vec<_>>();
    assert_eq!(ids(store.list_games(10, &[]).await.unwrap()), vec!["local"]);
    let mine = store.list_games(10, &["o1".to_string()]).await.unwrap();
    assert_eq!(ids(mine).len(), 2);

    // A rematch and the link from the old game are stored together.
    let mut rematch = online_game("o2");
    rematch.online.as_mut().unwrap().rematch_of = Some("o1".into());
    let mut old = loaded.online.unwrap();
    old.rematch_id = Some("o2".into());
    let mut up = update(3);
    up.online = Some(old);
    store.create_rematch(&rematch, "o1", &up).await.unwrap();
    let o1 = store.load_game("o1").await.unwrap().unwrap();
    assert_eq!(o1.online.unwrap().rematch_id.as_deref(), Some("o2"));
    // A rematch of a game that does not exist, or of a stale revision,
    // stores nothing.
    for previous in ["nope", "o1"] {
        let err = store
            .create_rematch(&online_game("o3"), previous, &up)
            .await
            .unwrap_err();
        assert!(
            matches!(err, StoreError::Conflict(_) | StoreError::Stale { .. }),
            "{err}"
        );
        assert!(store.load_game("o3").await.unwrap().is_none());
    }
    assert!(store.delete_game("o1").await.unwrap());
    assert!(store.load_game("o1").await.unwrap().is_none());
}

pub async fn concurrent_writes_and_a_failing_one_spoils_nothing(store: &(impl GameStore + Clone)) {
    let games = 40;
    for g in 0..games {
        store
            .create_game(&game(record(&format!("c{g}"))))
            .await
            .unwrap();
    }
    let mut tasks = Vec::new();
    for g in 0..games {
        let store = store.clone();
        tasks.push(tokio::spawn(async move {
            let id = format!("c{g}");
            for ply in 0..10 {
                let rev = ply as i64 + 2;
                let m = mv(ply, &format!("m{ply}"));
                store
                    .commit(&id, &MovesChange::Push(m.clone()), &update(rev))
                    .await
                    .unwrap();
                // A stale write in the same batches fails alone.
                let stale = StoredMove { ply: 0, ..m };
                assert!(store
                    .commit(&id, &MovesChange::Push(stale), &update(rev + 1))
                    .await
                    .is_err());
            }
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
    for g in 0..games {
        let game = store.load_game(&format!("c{g}")).await.unwrap().unwrap();
        assert_eq!(game.moves.len(), 10);
        assert_eq!(game.record.rev, 11, "the failed writes left no trace");
    }
}

pub async fn runs_and_heartbeats(store: &dyn GameStore) {
    let before = store.runs_since(0).await.unwrap().len();
    let a = store.start_run(1_000).await.unwrap();
    store.heartbeat(a, 6_000).await.unwrap();
    store.heartbeat(a, 5_000).await.unwrap(); // never backwards
    let b = store.start_run(10_000).await.unwrap();
    assert_ne!(a, b);
    let runs = store.runs_since(2_000).await.unwrap();
    assert_eq!(runs.len(), before + 2);
    assert_eq!(
        runs[runs.len() - 2..],
        [
            RunRecord {
                id: a,
                boot_ms: 1_000,
                last_seen_ms: 6_000
            },
            RunRecord {
                id: b,
                boot_ms: 10_000,
                last_seen_ms: 10_000
            }
        ]
    );
    assert_eq!(store.runs_since(7_000).await.unwrap().len(), 1);
}
