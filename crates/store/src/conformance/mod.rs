//! What every [`GameStore`] must do, written once against the trait and run
//! for each backend.

use super::*;

mod challenge;
mod chat;
mod moderation;
mod token;
mod tournament;
mod trust;
pub use challenge::*;
pub use chat::*;
pub use moderation::*;
use tensorchess_rules::{ByColor, EndReason};
pub use token::*;
pub use tournament::*;
pub use trust::*;

/// An engine game `id` at revision 1, owned by player `p1`, without moves.
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
        owner: Some("p1".into()),
        rated: false,
        ending: None,
        rev: 1,
        created_at: 1,
        updated_at: 1,
    }
}

/// A change that only moves game to revision `rev` (at time `2 + rev`).
pub fn update(rev: i64) -> GameUpdate {
    GameUpdate {
        rev,
        ending: None,
        updated_at: 2 + rev,
        online: None,
        names: None,
        ratings: Vec::new(),
    }
}

fn list(player: &str) -> GameListQuery {
    GameListQuery {
        player: player.into(),
        limit: 10,
        before: None,
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

fn online_game(id: &str) -> StoredGame {
    let mut r = record(id);
    r.mode = GameMode::Online;
    r.human_color = None;
    r.level = None;
    r.owner = None;
    StoredGame {
        record: r,
        moves: vec![],
        online: Some(OnlineRecord {
            players: ByColor::new(Some("alice".into()), None),
            clock: Some(ClockSettings {
                base_ms: 300_000,
                increment_ms: 2_000,
            }),
            ms: ByColor::new(300_000, 300_000),
            ..OnlineRecord::default()
        }),
    }
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

fn player(id: &str) -> PlayerRecord {
    PlayerRecord {
        id: id.into(),
        name: format!("Player {id}"),
        created_at: 5,
        account: None,
    }
}

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
            ..account
        })
        .await
        .unwrap_err();
    assert!(matches!(taken, StoreError::Conflict(_)), "{taken}");

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

// ---- learning (issue 16) ---------------------------------------------------

/// A review is stored with its game, replaced by a newer one, and deleted
/// with the game; a review of no game is refused.
pub async fn reviews_are_kept_with_their_game(store: &dyn GameStore) {
    a_game_with_two_moves(store, "rv").await;
    assert!(store.review("rv").await.unwrap().is_none());
    let first = ReviewRecord {
        game_id: "rv".into(),
        review_json: r#"{"plies":[1]}"#.into(),
        created_at: 10,
    };
    store.save_review(&first).await.unwrap();
    assert_eq!(store.review("rv").await.unwrap(), Some(first.clone()));
    let second = ReviewRecord {
        review_json: r#"{"plies":[1,2]}"#.into(),
        created_at: 20,
        ..first
    };
    store.save_review(&second).await.unwrap();
    assert_eq!(store.review("rv").await.unwrap(), Some(second.clone()));
    let orphan = ReviewRecord {
        game_id: "none".into(),
        ..second
    };
    let err = store.save_review(&orphan).await.unwrap_err();
    assert!(matches!(err, StoreError::Conflict(_)), "{err}");
    assert!(store.delete_game("rv").await.unwrap());
    assert!(store.review("rv").await.unwrap().is_none());
}

fn rating(rating: f64, games: u32) -> RatingRecord {
    RatingRecord {
        rating,
        rd: 200.0,
        volatility: 0.06,
        games,
    }
}

fn attempt(player: &str, puzzle: &str, at: i64, solved: bool) -> PuzzleAttemptRecord {
    PuzzleAttemptRecord {
        player_id: player.into(),
        puzzle_id: puzzle.into(),
        variant: VariantKind::Tensor,
        solved,
        rated: true,
        rating_diff: Some(if solved { 8 } else { -8 }),
        played_at: at,
    }
}

/// A rated try writes the try, the player's and the puzzle's ratings in
/// one transaction, each only if it is still what the writer read.
pub async fn puzzle_tries_and_ratings_are_written_together(store: &dyn GameStore) {
    let tensor = VariantKind::Tensor;
    assert!(store
        .puzzle_player_rating("ann", tensor)
        .await
        .unwrap()
        .is_none());
    let first = PuzzleResultWrite {
        attempt: attempt("ann", "p1", 100, true),
        player: Some(PuzzleRatingWrite {
            before: None,
            after: rating(1510.0, 1),
        }),
        puzzle: Some(PuzzleRatingWrite {
            before: None,
            after: rating(1190.0, 1),
        }),
    };
    store.record_puzzle_attempt(&first).await.unwrap();
    assert_eq!(
        store.puzzle_player_rating("ann", tensor).await.unwrap(),
        Some(rating(1510.0, 1))
    );
    assert_eq!(
        store
            .puzzle_player_rating("ann", VariantKind::Chessence)
            .await
            .unwrap(),
        None
    );
    assert_eq!(
        store.puzzle_ratings(tensor).await.unwrap(),
        vec![("p1".to_string(), rating(1190.0, 1))]
    );
    assert!(store
        .puzzle_ratings(VariantKind::Chessence)
        .await
        .unwrap()
        .is_empty());
    // Written again from the same "before": stale, and nothing changes.
    let mut again = first.clone();
    again.attempt.played_at = 200;
    let err = store.record_puzzle_attempt(&again).await.unwrap_err();
    assert!(matches!(err, StoreError::Stale { .. }), "{err}");
    assert!(store.puzzle_attempted("ann", "p1").await.unwrap());
    assert!(!store.puzzle_attempted("ann", "p2").await.unwrap());
    // The puzzle moved on while the player did not: stale too.
    let stale_puzzle = PuzzleResultWrite {
        attempt: attempt("dan", "p1", 300, false),
        player: Some(PuzzleRatingWrite {
            before: None,
            after: rating(1500.0, 1),
        }),
        puzzle: Some(PuzzleRatingWrite {
            before: Some(rating(1190.0, 0)),
            after: rating(1200.0, 1),
        }),
    };
    let err = store
        .record_puzzle_attempt(&stale_puzzle)
        .await
        .unwrap_err();
    assert!(matches!(err, StoreError::Stale { .. }), "{err}");
    assert_eq!(
        store.puzzle_player_rating("dan", tensor).await.unwrap(),
        None,
        "the player's write went with the failed one"
    );
    assert!(!store.puzzle_attempted("dan", "p1").await.unwrap());
    assert_eq!(
        store
            .recent_puzzle_attempts("ann", tensor, 10)
            .await
            .unwrap(),
        vec![first.attempt.clone()]
    );
    // Unrated tries (a streak) change no rating; newest first.
    for (i, p) in ["p2", "p3"].into_iter().enumerate() {
        let mut a = attempt("ann", p, 400 + i as i64, false);
        a.rated = false;
        a.rating_diff = None;
        store
            .record_puzzle_attempt(&PuzzleResultWrite {
                attempt: a,
                player: None,
                puzzle: None,
            })
            .await
            .unwrap();
    }
    let recent = store
        .recent_puzzle_attempts("ann", tensor, 2)
        .await
        .unwrap();
    let ids: Vec<&str> = recent.iter().map(|a| a.puzzle_id.as_str()).collect();
    assert_eq!(ids, ["p3", "p2"]);
    // A rated try of a puzzle tried before (here in a streak) is refused.
    let late = PuzzleResultWrite {
        attempt: attempt("ann", "p2", 450, true),
        player: Some(PuzzleRatingWrite {
            before: Some(rating(1510.0, 1)),
            after: rating(1520.0, 2),
        }),
        puzzle: None,
    };
    let err = store.record_puzzle_attempt(&late).await.unwrap_err();
    assert!(matches!(err, StoreError::Stale { .. }), "{err}");
    assert!(!recent[0].rated && recent[0].rating_diff.is_none());
    assert!(store
        .recent_puzzle_attempts("bob", tensor, 10)
        .await
        .unwrap()
        .is_empty());
    // Only the latest tries are kept.
    for i in 0..MAX_PUZZLE_ATTEMPTS as i64 + 5 {
        let mut a = attempt("cat", &format!("q{i}"), 1_000 + i, true);
        a.rated = false;
        store
            .record_puzzle_attempt(&PuzzleResultWrite {
                attempt: a,
                player: None,
                puzzle: None,
            })
            .await
            .unwrap();
    }
    let kept = store
        .recent_puzzle_attempts("cat", tensor, MAX_PUZZLE_ATTEMPTS + 100)
        .await
        .unwrap();
    assert_eq!(kept.len(), MAX_PUZZLE_ATTEMPTS);
    assert_eq!(
        kept[0].puzzle_id,
        format!("q{}", MAX_PUZZLE_ATTEMPTS as i64 + 4)
    );
}

fn lesson(player: &str, level: &str, stars: u8, moves: u32) -> LessonRecord {
    LessonRecord {
        player_id: player.into(),
        level_id: level.into(),
        stars,
        moves,
        completed_at: 1,
    }
}

/// A level completed again keeps the better result (stars, then moves).
pub async fn lesson_results_keep_the_best(store: &dyn GameStore) {
    assert!(store.lesson_progress("ann").await.unwrap().is_empty());
    for (player, level, stars, moves) in [
        ("ann", "b-1", 2, 5),
        ("ann", "a-1", 3, 2),
        ("ann", "b-1", 1, 3),
        ("bob", "b-1", 3, 3),
    ] {
        let l = lesson(player, level, stars, moves);
        store.save_lesson_result(&l).await.unwrap();
    }
    assert_eq!(
        store.lesson_progress("ann").await.unwrap(),
        vec![lesson("ann", "a-1", 3, 2), lesson("ann", "b-1", 2, 5)]
    );
    for (stars, moves) in [(2, 4), (3, 9)] {
        let l = lesson("ann", "b-1", stars, moves);
        store.save_lesson_result(&l).await.unwrap();
    }
    assert_eq!(
        store.lesson_progress("ann").await.unwrap()[1],
        lesson("ann", "b-1", 3, 9)
    );
    assert_eq!(store.lesson_progress("bob").await.unwrap().len(), 1);
}

/// A guest who logs in gives the account their lessons, tries and ratings
/// (the account's own rating and better results win).
pub async fn merging_a_guest_moves_what_they_learnt(store: &dyn GameStore) {
    for l in [
        lesson("guest", "a-1", 3, 2),
        lesson("guest", "b-1", 1, 9),
        lesson("member", "b-1", 2, 4),
    ] {
        store.save_lesson_result(&l).await.unwrap();
    }
    // Puzzle ids are unique over the games.
    let rated = |player: &str, variant, r| PuzzleResultWrite {
        attempt: PuzzleAttemptRecord {
            variant,
            ..attempt(
                player,
                if variant == VariantKind::Tensor {
                    "p1"
                } else {
                    "c1"
                },
                5,
                true,
            )
        },
        player: Some(PuzzleRatingWrite {
            before: None,
            after: rating(r, 1),
        }),
        puzzle: None,
    };
    let (tensor, chessence) = (VariantKind::Tensor, VariantKind::Chessence);
    store
        .record_puzzle_attempt(&rated("guest", tensor, 1600.0))
        .await
        .unwrap();
    store
        .record_puzzle_attempt(&rated("guest", chessence, 1700.0))
        .await
        .unwrap();
    store
        .record_puzzle_attempt(&rated("member", tensor, 1400.0))
        .await
        .unwrap();
    store.merge_learning("guest", "member").await.unwrap();
    assert_eq!(
        store.lesson_progress("member").await.unwrap(),
        vec![lesson("member", "a-1", 3, 2), lesson("member", "b-1", 2, 4)]
    );
    assert!(store.lesson_progress("guest").await.unwrap().is_empty());
    assert_eq!(
        store.puzzle_player_rating("member", tensor).await.unwrap(),
        Some(rating(1400.0, 1))
    );
    assert_eq!(
        store
            .puzzle_player_rating("member", chessence)
            .await
            .unwrap(),
        Some(rating(1700.0, 1))
    );
    assert!(store
        .puzzle_player_rating("guest", chessence)
        .await
        .unwrap()
        .is_none());
    assert!(store.puzzle_attempted("member", "c1").await.unwrap());
    assert!(!store.puzzle_attempted("guest", "c1").await.unwrap());
    assert_eq!(
        store
            .recent_puzzle_attempts("member", tensor, 10)
            .await
            .unwrap()
            .len(),
        2
    );
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
