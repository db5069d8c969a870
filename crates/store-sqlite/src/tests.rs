use super::*;
use tensorchess_store::conformance;
use tensorchess_store::prelude::*;

fn open(dir: &tempfile::TempDir) -> SqliteStore {
    SqliteStore::open(dir.path().join("t.sqlite3")).unwrap()
}

#[tokio::test]
async fn the_store_contract_holds() {
    let dir = tempfile::tempdir().unwrap();
    conformance::moves_follow_on_and_revisions_decide(&open(&dir)).await;
    conformance::online_state_is_written_with_the_move_and_listed_only_for_its_players(&open(&dir))
        .await;
    conformance::concurrent_writes_and_a_failing_one_spoils_nothing(&open(&dir)).await;
    conformance::runs_and_heartbeats(&open(&dir)).await;
    conformance::lists_page_by_cursor(&open(&dir)).await;
    conformance::players_sessions_accounts_and_ratings(&open(&dir)).await;
    conformance::seeks_are_accepted_once(&open(&dir)).await;
    conformance::merging_a_guest_moves_their_games(&open(&dir)).await;
    conformance::reviews_are_kept_with_their_game(&open(&dir)).await;
    conformance::puzzle_tries_and_ratings_are_written_together(&open(&dir)).await;
    conformance::lesson_results_keep_the_best(&open(&dir)).await;
    conformance::merging_a_guest_moves_what_they_learnt(&open(&dir)).await;
    conformance::moderation_is_logged_in_order(&open(&dir)).await;
    conformance::chat_rooms_are_kept_apart_and_in_order(&open(&dir)).await;
    conformance::chat_reports_and_mutes(&open(&dir)).await;
    conformance::challenges_are_answered_once(&open(&dir)).await;
    conformance::tokens_are_found_by_hash_listed_and_revoked(&open(&dir)).await;
    conformance::tournaments_pair_each_player_once(&open(&dir)).await;
    conformance::games_are_counted_for_their_players(&open(&dir)).await;
    conformance::games_are_searched(&open(&dir)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_explorer_contract_holds() {
    // Each on a database of its own: the explorer counts what is stored.
    let fresh = || tempfile::tempdir().unwrap();
    let dirs = [fresh(), fresh(), fresh(), fresh()];
    conformance::explorer_counts_each_game_once(&open(&dirs[0])).await;
    conformance::games_are_found_by_position(&open(&dirs[3])).await;
    conformance::explorer_rebuild_reads_finished_online_games(&open(&dirs[1])).await;
    let store = open(&dirs[2]);
    conformance::explorer_racing_adds_count_once(&store, &store.clone()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_games_counted_at_once_count_as_one_by_one() {
    let dirs = [tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap()];
    conformance::explorer_many_games_count_as_one_by_one(&open(&dirs[0]), &open(&dirs[1])).await;
}

#[tokio::test]
async fn tournament_seats_run_once_and_a_no_show_is_paused() {
    // A database of its own: the contract lists a player's tournaments.
    let dir = tempfile::tempdir().unwrap();
    conformance::tournament_seats_run_once_and_a_no_show_is_paused(&open(&dir)).await;
}

#[tokio::test]
async fn a_wave_is_stored_together_and_a_refused_board_alone() {
    let dir = tempfile::tempdir().unwrap();
    conformance::a_wave_is_stored_together_and_a_refused_board_alone(&open(&dir)).await;
}

#[tokio::test]
async fn a_director_reads_only_what_changed() {
    let dir = tempfile::tempdir().unwrap();
    conformance::a_director_reads_only_what_changed(&open(&dir)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_trust_contract_holds() {
    // Each on a database of its own: the caps count what is stored.
    let fresh = || tempfile::tempdir().unwrap();
    let dirs = [fresh(), fresh(), fresh(), fresh(), fresh()];
    conformance::follows_preferences_and_names(&open(&dirs[0])).await;
    conformance::challenge_caps_are_counted_in_the_write(&open(&dirs[1])).await;
    conformance::tournament_caps_count_the_player_and_the_address(&open(&dirs[2])).await;
    conformance::reports_are_bounded(&open(&dirs[3])).await;
    conformance::racing_writes_never_pass_a_cap(&open(&dirs[4])).await;
}

#[tokio::test]
async fn scheduled_tournaments_are_made_once() {
    // A database of its own: the contract counts the tournaments in it.
    let dir = tempfile::tempdir().unwrap();
    conformance::scheduled_tournaments_are_made_once(&open(&dir)).await;
}

#[tokio::test]
async fn moves_survive_reopening() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.sqlite3");
    let store = SqliteStore::open(&path).unwrap();
    assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
    conformance::a_game_with_two_moves(&store, "g1").await;
    drop(store);
    let store = SqliteStore::open(&path).unwrap();
    let game = store.load_game("g1").await.unwrap().unwrap();
    assert_eq!(game.moves.len(), 2);
    assert_eq!(game.record.rev, 3);
}

#[tokio::test]
async fn a_newer_schema_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.sqlite3");
    {
        let conn = Connection::open(&path).unwrap();
        conn.pragma_update(None, "user_version", 99).unwrap();
    }
    assert!(matches!(
        SqliteStore::open(&path),
        Err(StoreError::TooNew { found: 99, .. })
    ));
}

#[tokio::test]
async fn rows_of_older_versions_read_as_typed_records() {
    // The text an earlier version wrote: the same schema, the same words.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.sqlite3");
    let store = SqliteStore::open(&path).unwrap();
    drop(store);
    {
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch(
            "INSERT INTO games (id, variant, start_fen, mode, human_color, level, white, black, \
             result, end_reason, rev, created_at, updated_at) VALUES ('old1', 'tensor', 'start', \
             'engine', 'black', 3, 'Engine', 'You', '1-0', 'checkmate', 7, 1, 2);
             INSERT INTO games (id, variant, start_fen, mode, human_color, level, white, black, \
             result, end_reason, rev, created_at, updated_at) VALUES ('old2', 'chess', 'start', \
             'online', NULL, NULL, 'White', 'Black', '*', 'white_did_not_move', 3, 1, 2);
             INSERT INTO online_games (game_id, draw_offer) VALUES ('old2', 'black');",
        )
        .unwrap();
    }
    let store = SqliteStore::open(&path).unwrap();
    let g = store.load_game("old1").await.unwrap().unwrap().record;
    assert_eq!(g.variant, tensorchess_rules::VariantKind::Tensor);
    assert_eq!(g.human_color, Some(tensorchess_rules::Color::Black));
    assert_eq!(
        g.ending,
        Some(tensorchess_store::Ending::Outcome(
            tensorchess_rules::Outcome::Decisive {
                winner: tensorchess_rules::Color::White,
                reason: tensorchess_rules::EndReason::Checkmate
            }
        ))
    );
    let g = store.load_game("old2").await.unwrap().unwrap();
    assert_eq!(
        g.record.ending,
        Some(tensorchess_store::Ending::Aborted {
            no_show: Some(tensorchess_rules::Color::White)
        })
    );
    assert_eq!(
        g.online.unwrap().draw_offer,
        Some(tensorchess_rules::Color::Black)
    );
}

/// Migrates `conn` to version `upto` as this crate did before refinery:
/// each migration in a transaction, counted in `PRAGMA user_version`.
fn migrate_by_hand(conn: &mut Connection, upto: usize) {
    for (i, (_, sql)) in migrate::MIGRATIONS.iter().enumerate().take(upto) {
        let tx = conn.transaction().unwrap();
        tx.execute_batch(sql).unwrap();
        tx.pragma_update(None, "user_version", (i + 1) as i64)
            .unwrap();
        tx.commit().unwrap();
    }
}

/// The versions refinery's history records, in order.
fn recorded(path: &std::path::Path) -> Vec<i64> {
    Connection::open(path)
        .unwrap()
        .prepare("SELECT version FROM refinery_schema_history ORDER BY version")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

/// A database the hand runner migrated, wholly or in part, is adopted:
/// what it applied is recorded in refinery's history and not run again
/// (it would fail: its tables exist), the rest is applied, the data stays,
/// and `user_version` still counts the schema for older programs.
#[tokio::test]
async fn a_database_of_the_hand_runner_is_adopted() {
    for upto in [SCHEMA_VERSION as usize, 10, 3] {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.sqlite3");
        {
            let mut conn = Connection::open(&path).unwrap();
            migrate_by_hand(&mut conn, upto);
            conn.execute(
                "INSERT INTO players (id, name, created_at) VALUES ('p1', 'Ann', 7)",
                [],
            )
            .unwrap();
        }
        let store = SqliteStore::open(&path).unwrap();
        assert_eq!(
            store.schema_version().unwrap(),
            SCHEMA_VERSION,
            "from {upto}"
        );
        assert_eq!(recorded(&path), (1..=SCHEMA_VERSION).collect::<Vec<_>>());
        let player = store.player("p1").await.unwrap().unwrap();
        assert_eq!((player.name.as_str(), player.created_at), ("Ann", 7));
        // What the later migrations made works (follows: migration 14).
        assert!(store.follow("p1", "p2", 1).await.unwrap());
        drop(store);
        // Opening again applies nothing.
        let store = SqliteStore::open(&path).unwrap();
        assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
        let conn = Connection::open(&path).unwrap();
        let counted: i64 = conn
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .unwrap();
        assert_eq!(counted, SCHEMA_VERSION);
    }
}

/// A database an older program moved on after this one (the hand runner
/// counted more than refinery's history records): the versions it applied
/// are recorded, not run again.
#[tokio::test]
async fn versions_an_older_program_applied_later_are_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.sqlite3");
    {
        let mut conn = Connection::open(&path).unwrap();
        migrate_by_hand(&mut conn, 5);
    }
    drop(SqliteStore::open(&path).unwrap());
    {
        // Forget refinery's last records, as if an older program had
        // applied those migrations after an adoption.
        let conn = Connection::open(&path).unwrap();
        conn.execute("DELETE FROM refinery_schema_history WHERE version > 8", [])
            .unwrap();
    }
    let store = SqliteStore::open(&path).unwrap();
    assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
    assert_eq!(recorded(&path), (1..=SCHEMA_VERSION).collect::<Vec<_>>());
}
