//! The store contract on a real PostgreSQL: `TENSORCHESS_TEST_PG` names
//! one (`scripts/test.sh` starts a throwaway cluster and sets it); each
//! test gets a schema of its own, so the tests run in parallel. They are
//! `#[ignore]`d, reported as skipped unless asked for (`--run-ignored`);
//! asked for without the variable, they fail.

use super::*;
use std::str::FromStr;
use std::sync::atomic::{AtomicUsize, Ordering};
use tensorchess_rules::VariantKind;
use tensorchess_store::conformance;
use tensorchess_store::prelude::*;
use tensorchess_store::{
    AccountRecord, GameMode, MovesChange, PlayerRecord, SeekRecord, StoredGame, StoredMove,
};

/// The test database's URL.
fn url() -> String {
    match std::env::var("TENSORCHESS_TEST_PG") {
        Ok(url) if !url.is_empty() => url,
        _ => panic!(
            "this test needs PostgreSQL: set TENSORCHESS_TEST_PG to a server's URL \
             (scripts/test.sh starts one: bash scripts/pg-cluster.sh start DIR)"
        ),
    }
}

/// A schema name no other test (nor another run) uses.
fn fresh_schema() -> String {
    static N: AtomicUsize = AtomicUsize::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    format!(
        "t{}_{}_{}",
        std::process::id(),
        nanos,
        N.fetch_add(1, Ordering::Relaxed)
    )
}

async fn fresh() -> (String, String, PgStore) {
    let url = url();
    let schema = fresh_schema();
    let store = PgStore::open_in_schema(&url, &schema).await.unwrap();
    (url, schema, store)
}

/// One test per contract function, each on a schema of its own.
macro_rules! contract {
    ($($name:ident),* $(,)?) => {$(
        #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
        #[ignore = "needs PostgreSQL: set TENSORCHESS_TEST_PG (scripts/test.sh does)"]
        async fn $name() {
            let (_, _, store) = fresh().await;
            conformance::$name(&store).await;
        }
    )*};
}

contract!(
    moves_follow_on_and_revisions_decide,
    online_state_is_written_with_the_move_and_listed_only_for_its_players,
    concurrent_writes_and_a_failing_one_spoils_nothing,
    runs_and_heartbeats,
    lists_page_by_cursor,
    players_sessions_accounts_and_ratings,
    seeks_are_accepted_once,
    merging_a_guest_moves_their_games,
    moderation_is_logged_in_order,
    chat_rooms_are_kept_apart_and_in_order,
    chat_reports_and_mutes,
    challenges_are_answered_once,
    tokens_are_found_by_hash_listed_and_revoked,
    tournaments_pair_each_player_once,
    tournament_seats_run_once_and_a_no_show_is_paused,
    a_director_reads_only_what_changed,
    a_wave_is_stored_together_and_a_refused_board_alone,
    scheduled_tournaments_are_made_once,
    games_are_counted_for_their_players,
    games_are_searched,
    reviews_are_kept_with_their_game,
    puzzle_tries_and_ratings_are_written_together,
    lesson_results_keep_the_best,
    merging_a_guest_moves_what_they_learnt,
    follows_preferences_and_names,
    challenge_caps_are_counted_in_the_write,
    tournament_caps_count_the_player_and_the_address,
    reports_are_bounded,
    racing_writes_never_pass_a_cap,
    explorer_counts_each_game_once,
    explorer_rebuild_reads_finished_online_games,
    games_are_found_by_position,
);

/// Many games counted at once (a rebuild) and one by one: the same tables.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: set TENSORCHESS_TEST_PG (scripts/test.sh does)"]
async fn many_games_counted_at_once_count_as_one_by_one() {
    let (_, _, one) = fresh().await;
    let (_, _, many) = fresh().await;
    conformance::explorer_many_games_count_as_one_by_one(&one, &many).await;
}

/// Two servers (two pools over one database) add the same games at once:
/// each is counted once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: set TENSORCHESS_TEST_PG (scripts/test.sh does)"]
async fn two_instances_adding_a_game_count_it_once() {
    let (url, schema, a) = fresh().await;
    let b = PgStore::open_in_schema(&url, &schema).await.unwrap();
    conformance::explorer_racing_adds_count_once(&a, &b).await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL: set TENSORCHESS_TEST_PG (scripts/test.sh does)"]
async fn migrations_run_once_and_a_newer_schema_is_refused() {
    let (url, schema, store) = fresh().await;
    assert_eq!(store.schema_version().await.unwrap(), PG_SCHEMA_VERSION);
    conformance::a_game_with_two_moves(&store, "g1").await;
    drop(store);
    // Reopening applies nothing again and keeps what was stored.
    let store = PgStore::open_in_schema(&url, &schema).await.unwrap();
    assert_eq!(store.schema_version().await.unwrap(), PG_SCHEMA_VERSION);
    let game = store.load_game("g1").await.unwrap().unwrap();
    assert_eq!((game.moves.len(), game.record.rev), (2, 3));
    store
        .client()
        .await
        .unwrap()
        .execute(
            "INSERT INTO schema_migrations (version, applied_at) VALUES (99, 0)",
            &[],
        )
        .await
        .unwrap();
    assert!(matches!(
        PgStore::open_in_schema(&url, &schema).await,
        Err(StoreError::TooNew { found: 99, .. })
    ));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: set TENSORCHESS_TEST_PG (scripts/test.sh does)"]
async fn instances_starting_together_migrate_once() {
    let url = url();
    let schema = fresh_schema();
    let opens = (0..4).map(|_| {
        let (url, schema) = (url.clone(), schema.clone());
        tokio::spawn(async move { PgStore::open_in_schema(&url, &schema).await })
    });
    for open in opens.collect::<Vec<_>>() {
        let store = open.await.unwrap().unwrap();
        assert_eq!(store.schema_version().await.unwrap(), PG_SCHEMA_VERSION);
    }
}

/// Two servers (two pools over one database) race to write the same
/// revisions of one game: for each revision exactly one wins, the other
/// is told the game moved on, and the moves stored are the winners'.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: set TENSORCHESS_TEST_PG (scripts/test.sh does)"]
async fn two_instances_racing_for_a_game_never_both_win() {
    let (url, schema, a) = fresh().await;
    let b = PgStore::open_in_schema(&url, &schema).await.unwrap();
    a.create_game(&StoredGame {
        record: conformance::record("race"),
        moves: vec![],
        online: None,
    })
    .await
    .unwrap();
    let mut winners = Vec::new();
    for ply in 0..30usize {
        let rev = ply as i64 + 2;
        let write = |store: PgStore, who: &'static str| {
            tokio::spawn(async move {
                let mv = StoredMove {
                    ply,
                    uci: format!("{who}{ply}"),
                    san: who.into(),
                };
                let out = store
                    .commit("race", &MovesChange::Push(mv), &conformance::update(rev))
                    .await;
                (who, out)
            })
        };
        let (x, y) = (write(a.clone(), "a"), write(b.clone(), "b"));
        let results = [x.await.unwrap(), y.await.unwrap()];
        let won: Vec<_> = results.iter().filter(|(_, r)| r.is_ok()).collect();
        assert_eq!(won.len(), 1, "revision {rev}: {results:?}");
        for (_, r) in &results {
            if let Err(e) = r {
                assert!(
                    matches!(e, StoreError::Stale { found, .. } if *found == rev),
                    "{e}"
                );
            }
        }
        winners.push(format!("{}{ply}", won[0].0));
    }
    let game = b.load_game("race").await.unwrap().unwrap();
    assert_eq!(game.record.rev, 31);
    let stored: Vec<_> = game.moves.iter().map(|m| m.uci.clone()).collect();
    assert_eq!(stored, winners);
}

/// One seek accepted on two servers at once makes one game.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: set TENSORCHESS_TEST_PG (scripts/test.sh does)"]
async fn a_seek_accepted_on_two_instances_makes_one_game() {
    let (url, schema, a) = fresh().await;
    let b = PgStore::open_in_schema(&url, &schema).await.unwrap();
    for round in 0..10 {
        let seek = SeekRecord {
            id: format!("s{round}"),
            player_id: "ann".into(),
            variant: VariantKind::Chess,
            clock: None,
            rated: false,
            color: tensorchess_store::SeekColor::Random,
            created_at: 1,
            expires_at: 1_000,
            client: None,
        };
        a.create_seek(&seek).await.unwrap();
        let accept = |store: PgStore, gid: String| {
            let sid = seek.id.clone();
            tokio::spawn(async move {
                let mut record = conformance::record(&gid);
                record.mode = GameMode::Online;
                let game = StoredGame {
                    record,
                    moves: vec![],
                    online: Some(Default::default()),
                };
                store.accept_seek(&sid, 10, &game).await
            })
        };
        let x = accept(a.clone(), format!("ga{round}"));
        let y = accept(b.clone(), format!("gb{round}"));
        let (x, y) = (x.await.unwrap(), y.await.unwrap());
        assert!(x.is_ok() != y.is_ok(), "round {round}: {x:?} {y:?}");
        let made = [
            a.load_game(&format!("ga{round}")).await.unwrap(),
            a.load_game(&format!("gb{round}")).await.unwrap(),
        ];
        assert_eq!(made.iter().flatten().count(), 1);
    }
}

/// Names taken on one server are taken on the other, even when two
/// servers register the same name at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: set TENSORCHESS_TEST_PG (scripts/test.sh does)"]
async fn one_name_registered_twice_at_once_is_taken_once() {
    let (url, schema, a) = fresh().await;
    let b = PgStore::open_in_schema(&url, &schema).await.unwrap();
    for round in 0..10 {
        let mut tasks = Vec::new();
        for (store, who) in [(a.clone(), "x"), (b.clone(), "y")] {
            let player = format!("{who}{round}");
            store
                .save_player(&PlayerRecord {
                    id: player.clone(),
                    name: player.clone(),
                    created_at: 1,
                    account: None,
                })
                .await
                .unwrap();
            tasks.push(tokio::spawn(async move {
                store
                    .create_account(&AccountRecord {
                        username: format!("Name{round}"),
                        password_hash: "h".into(),
                        player_id: player,
                        created_at: 1,
                        closed_at: None,
                    })
                    .await
            }));
        }
        let mut ok = 0;
        for t in tasks {
            match t.await.unwrap() {
                Ok(()) => ok += 1,
                Err(e) => assert!(matches!(e, StoreError::Conflict(_)), "{e}"),
            }
        }
        assert_eq!(ok, 1);
    }
}

/// Two instances racing for a tournament's director's lease: for each
/// tournament exactly one wins, and the loser gets it only once it expired.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: set TENSORCHESS_TEST_PG (scripts/test.sh does)"]
async fn two_instances_racing_for_a_directors_lease_one_wins() {
    let (url, schema, a) = fresh().await;
    let b = PgStore::open_in_schema(&url, &schema).await.unwrap();
    for i in 0..30 {
        let t = format!("t{i}");
        let take = |store: PgStore, who: &'static str, t: String| {
            tokio::spawn(async move {
                let won = store
                    .take_director_lease(&t, who, 1_000, 11_000)
                    .await
                    .unwrap();
                (who, won)
            })
        };
        let (x, y) = (
            take(a.clone(), "a", t.clone()),
            take(b.clone(), "b", t.clone()),
        );
        let results = [x.await.unwrap(), y.await.unwrap()];
        let won: Vec<_> = results.iter().filter(|(_, w)| *w).collect();
        assert_eq!(won.len(), 1, "{t}: {results:?}");
        let loser = if won[0].0 == "a" { &b } else { &a };
        let name = if won[0].0 == "a" { "b" } else { "a" };
        assert!(!loser
            .take_director_lease(&t, name, 10_999, 20_000)
            .await
            .unwrap());
        assert!(loser
            .take_director_lease(&t, name, 11_000, 21_000)
            .await
            .unwrap());
    }
}

/// Two instances pair one player at once (a director stopped past its
/// lease writes its wave while the lease's next holder writes its own):
/// neither write sees the other's uncommitted game, so only the seats'
/// unique index keeps the player to one running game of the tournament.
/// The second write waits for the first and is refused once it commits.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: set TENSORCHESS_TEST_PG (scripts/test.sh does)"]
async fn one_player_paired_by_two_instances_at_once_plays_once() {
    let (_, _, store) = fresh().await;
    let pairing = |game: &str, white: &str, black: &str| {
        let mut record = conformance::record(game);
        record.mode = GameMode::Online;
        record.owner = None;
        let link = tensorchess_store::TournamentGameLink {
            tournament_id: "a1".into(),
            game_id: game.into(),
            round: None,
            white: white.into(),
            black: black.into(),
            white_berserked: false,
            black_berserked: false,
            created_at: 1,
        };
        let game = StoredGame {
            record,
            moves: vec![],
            online: Some(Default::default()),
        };
        (link, game)
    };
    let mut c1 = store.client().await.unwrap();
    let first = c1.transaction().await.unwrap();
    let (link, game) = pairing("g1", "ann", "bob");
    tournaments::start_game(&first, &link, &game).await.unwrap();
    let pid: i32 = first
        .query_one("SELECT pg_backend_pid()", &[])
        .await
        .unwrap()
        .get(0);
    let b = store.clone();
    let second = tokio::spawn(async move {
        let mut c = b.client().await.unwrap();
        let tx = c.transaction().await.unwrap();
        let (link, game) = pairing("g2", "cy", "ann");
        let out = tournaments::start_game(&tx, &link, &game).await;
        if out.is_ok() {
            tx.commit().await.unwrap();
        }
        out
    });
    // The second write has run: it is done, or waits for the first.
    let watch = store.client().await.unwrap();
    let start = std::time::Instant::now();
    while !second.is_finished() {
        let waiting: i64 = watch
            .query_one(
                "SELECT COUNT(*) FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))",
                &[&pid],
            )
            .await
            .unwrap()
            .get(0);
        if waiting > 0 {
            break;
        }
        assert!(start.elapsed().as_secs() < 10, "the second write never ran");
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    first.commit().await.unwrap();
    let out = second.await.unwrap();
    assert!(matches!(out, Err(StoreError::Conflict(_))), "{out:?}");
    assert_eq!(store.load_game("g2").await.unwrap(), None);
    assert_eq!(store.tournament_games("a1").await.unwrap().len(), 1);
}

/// A connection whose tables are those of `schema` (created if needed).
async fn connect_in(url: &str, schema: &str) -> tokio_postgres::Client {
    let mut config = tokio_postgres::Config::from_str(url).unwrap();
    let (client, conn) = config.connect(NoTls).await.unwrap();
    tokio::spawn(conn);
    client
        .batch_execute(&format!("CREATE SCHEMA IF NOT EXISTS {schema}"))
        .await
        .unwrap();
    drop(client);
    config.options(format!("-c search_path={schema}"));
    let (client, conn) = config.connect(NoTls).await.unwrap();
    tokio::spawn(conn);
    client
}

/// The versions refinery's history records, in order.
async fn recorded(c: &tokio_postgres::Client) -> Vec<i64> {
    c.query(
        "SELECT version::BIGINT FROM refinery_schema_history ORDER BY version",
        &[],
    )
    .await
    .unwrap()
    .iter()
    .map(|r| r.get(0))
    .collect()
}

/// A database the hand runner migrated (in one transaction, recorded in
/// `schema_migrations`), wholly or in part, is adopted: what it applied is
/// recorded in refinery's history and not run again (it would fail: its
/// tables exist), the rest is applied, the data stays, and
/// `schema_migrations` still records the schema for older programs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: set TENSORCHESS_TEST_PG (scripts/test.sh does)"]
async fn a_database_of_the_hand_runner_is_adopted() {
    let url = url();
    for upto in [PG_SCHEMA_VERSION as usize, 10, 3] {
        let schema = fresh_schema();
        let mut c = connect_in(&url, &schema).await;
        let tx = c.transaction().await.unwrap();
        tx.batch_execute(
            "CREATE TABLE schema_migrations (
                 version    BIGINT PRIMARY KEY,
                 applied_at BIGINT NOT NULL
             );",
        )
        .await
        .unwrap();
        for (i, (_, sql)) in migrate::MIGRATIONS.iter().enumerate().take(upto) {
            tx.batch_execute(sql).await.unwrap();
            tx.execute(
                "INSERT INTO schema_migrations (version, applied_at) VALUES ($1, 0)",
                &[&((i + 1) as i64)],
            )
            .await
            .unwrap();
        }
        tx.execute(
            "INSERT INTO players (id, name, created_at) VALUES ('p1', 'Ann', 7)",
            &[],
        )
        .await
        .unwrap();
        tx.commit().await.unwrap();

        let store = PgStore::open_in_schema(&url, &schema).await.unwrap();
        assert_eq!(store.schema_version().await.unwrap(), PG_SCHEMA_VERSION);
        let all = (1..=PG_SCHEMA_VERSION).collect::<Vec<_>>();
        assert_eq!(recorded(&c).await, all, "from {upto}");
        let player = store.player("p1").await.unwrap().unwrap();
        assert_eq!((player.name.as_str(), player.created_at), ("Ann", 7));
        assert!(store.follow("p1", "p2", 1).await.unwrap());
        drop(store);
        let store = PgStore::open_in_schema(&url, &schema).await.unwrap();
        assert_eq!(store.schema_version().await.unwrap(), PG_SCHEMA_VERSION);
        assert_eq!(recorded(&c).await, all);
        let counted: Vec<i64> = c
            .query(
                "SELECT version FROM schema_migrations ORDER BY version",
                &[],
            )
            .await
            .unwrap()
            .iter()
            .map(|r| r.get(0))
            .collect();
        assert_eq!(counted, all);
    }
}
