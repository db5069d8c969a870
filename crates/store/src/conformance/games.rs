//! The games' contract: moves, revisions, online state, lists, runs.

use super::*;
use tensorchess_rules::{ByColor, EndReason};

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

/// Moves are pushed ply after ply and taken back; a write that follows
/// another revision, or skips a ply, fails and changes nothing; a deleted
/// game is gone.
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
    let list = store.list_games(&list("p1")).await.unwrap();
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

/// An online game's seats, clocks and offers are written in the move's
/// transaction, and the game is listed for its two players only.
pub async fn online_state_is_written_with_the_move_and_listed_only_for_its_players(
    store: &dyn GameStore,
) {
    let game = online_game("o1");
    store.create_game(&game).await.unwrap();
    assert_eq!(store.load_game("o1").await.unwrap().unwrap(), game);
    let mut online = game.online.clone().unwrap();
    online.players.black = Some("bob".into());
    online.draw_offer_plies = ByColor::new(Some(0), None);
    online.ms.white = 299_000;
    online.turn_started_at = Some(77);
    online.draw_offer = Some(Color::White);
    let mut up = update(2);
    up.online = Some(online.clone());
    up.names = Some(["Alice".into(), "Bob".into()]);
    let first = mv(0, "e2e4");
    store
        .commit("o1", &MovesChange::Push(first.clone()), &up)
        .await
        .unwrap();
    let loaded = store.load_game("o1").await.unwrap().unwrap();
    assert_eq!(loaded.online, Some(online));
    assert_eq!(loaded.moves, vec![first.clone()]);
    // Only the moves from a ply on, the rest as a whole load.
    let tail = store.load_game_from("o1", 1).await.unwrap().unwrap();
    assert!(tail.moves.is_empty());
    assert_eq!(
        (tail.record.rev, tail.online.as_ref()),
        (loaded.record.rev, loaded.online.as_ref())
    );
    assert_eq!(
        store.load_game_from("o1", 0).await.unwrap().unwrap().moves,
        vec![first]
    );
    assert_eq!(
        (loaded.record.white.as_str(), loaded.record.black.as_str()),
        ("Alice", "Bob")
    );
    assert_eq!(store.running_online_games().await.unwrap(), vec!["o1"]);

    // A correspondence game: days per move instead of a clock, listed for
    // its players while it runs.
    let mut corr = online_game("c1");
    let o = corr.online.as_mut().unwrap();
    o.clock = None;
    o.days = Some(3);
    o.players.black = Some("bob".into());
    store.create_game(&corr).await.unwrap();
    assert_eq!(store.load_game("c1").await.unwrap().unwrap(), corr);
    assert_eq!(
        store.running_correspondence_games("bob").await.unwrap(),
        vec!["c1"]
    );
    assert!(store
        .running_correspondence_games("carol")
        .await
        .unwrap()
        .is_empty());
    assert!(store.delete_game("c1").await.unwrap());

    // The list shows online games only to their players, local ones only
    // to their owner.
    let mut local = record("local");
    local.owner = Some("bob".into());
    store.create_game(&self::game(local)).await.unwrap();
    let ids = |l: Vec<GameSummary>| l.into_iter().map(|s| s.record.id).collect::<Vec<_>>();
    assert_eq!(
        ids(store.list_games(&list("alice")).await.unwrap()),
        vec!["o1"]
    );
    // A bot account's side is marked in the list (a game made for it,
    // then deleted: the bot is a player of its own).
    let bots = |l: Vec<GameSummary>| l.into_iter().map(|s| s.bots).collect::<Vec<_>>();
    assert_eq!(
        bots(store.list_games(&list("alice")).await.unwrap()),
        vec![ByColor::new(false, false)]
    );
    let mut with_bot = online_game("ob");
    with_bot.online.as_mut().unwrap().players.black = Some("list-bot".into());
    store.create_game(&with_bot).await.unwrap();
    assert!(store.make_bot("list-bot", 1).await.unwrap());
    let marks: Vec<_> = store
        .list_games(&list("list-bot"))
        .await
        .unwrap()
        .into_iter()
        .map(|s| (s.record.id, s.bots))
        .collect();
    assert_eq!(marks, vec![("ob".to_string(), ByColor::new(false, true))]);
    assert!(store.delete_game("ob").await.unwrap());
    assert_eq!(ids(store.list_games(&list("bob")).await.unwrap()).len(), 2);
    assert!(store.list_games(&list("carol")).await.unwrap().is_empty());

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

/// Many games written at once all keep their moves, and a write that fails
/// (a stale revision) spoils none of the others.
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

/// Server runs are numbered, their heartbeats never go back, and they are
/// listed by when they were last seen.
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

/// Pages of a player's games, newest first; games of nobody are listed
/// for nobody until adopted.
pub async fn lists_page_by_cursor(store: &dyn GameStore) {
    for i in 0..5 {
        let mut r = record(&format!("page{i}"));
        r.owner = Some("pager".into());
        r.updated_at = 100 + i / 2; // two pairs share a time: the id decides
        store.create_game(&game(r)).await.unwrap();
    }
    let mut unowned = record("legacy");
    unowned.owner = None;
    store.create_game(&game(unowned)).await.unwrap();
    let mut seen = Vec::new();
    let mut before = None;
    loop {
        let page = store
            .list_games(&GameListQuery {
                player: "pager".into(),
                limit: 2,
                before: before.clone(),
            })
            .await
            .unwrap();
        if page.is_empty() {
            break;
        }
        let last = &page[page.len() - 1].record;
        before = Some((last.updated_at, last.id.clone()));
        seen.extend(page.into_iter().map(|s| s.record.id));
    }
    assert_eq!(seen, ["page4", "page3", "page2", "page1", "page0"]);
    assert_eq!(store.adopt_unowned("pager").await.unwrap(), ["legacy"]);
    assert!(store.adopt_unowned("someone").await.unwrap().is_empty());
    let adopted = store.load_game("legacy").await.unwrap().unwrap();
    assert_eq!(adopted.record.owner.as_deref(), Some("pager"));
    assert_eq!(adopted.record.rev, 2, "adopting bumps the revision");
    let listed = store.list_games(&list("pager")).await.unwrap();
    assert!(listed.iter().any(|s| s.record.id == "legacy"));
}

/// A player's online games are counted by result, rated and in progress
/// (lichess's `count`), whichever seat they held.
pub async fn games_are_counted_for_their_players(store: &dyn GameStore) {
    let decisive = |winner| {
        Some(Ending::Outcome(Outcome::Decisive {
            winner,
            reason: EndReason::Resignation,
        }))
    };
    let draw = Some(Ending::Outcome(Outcome::Draw {
        reason: EndReason::Agreement,
    }));
    // (id, white, black, rated, ending)
    let games = [
        ("cnt1", "c-alice", "c-bob", true, decisive(Color::White)),
        ("cnt2", "c-bob", "c-alice", false, decisive(Color::White)),
        ("cnt3", "c-alice", "c-carol", true, draw),
        ("cnt4", "c-carol", "c-alice", false, None),
        ("cnt5", "c-bob", "c-carol", true, decisive(Color::Black)),
    ];
    for (id, white, black, rated, ending) in games {
        let mut g = online_game(id);
        g.record.rated = rated;
        g.record.ending = ending;
        g.online.as_mut().unwrap().players = ByColor::new(Some(white.into()), Some(black.into()));
        store.create_game(&g).await.unwrap();
    }
    let alice = store.game_counts("c-alice").await.unwrap();
    assert_eq!(
        alice,
        GameCounts {
            all: 4,
            rated: 2,
            win: 1,
            loss: 1,
            draw: 1,
            playing: 1,
        }
    );
    let bob = store.game_counts("c-bob").await.unwrap();
    assert_eq!((bob.all, bob.win, bob.loss, bob.draw), (3, 1, 2, 0));
    assert_eq!(
        store.game_counts("nobody").await.unwrap(),
        GameCounts::default()
    );
}
