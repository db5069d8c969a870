//! Scheduled tournaments: the defaults made and listed as the schedule's,
//! a custom schedule honoured, the next occurrence made when the test
//! clock moves on, no second copy after a restart nor from two servers
//! sharing PostgreSQL, and a bad schedule file stopping `serve`.
//!
//! The test clock stands at [`T0`], 1970-01-12 13:46:40 UTC: the hourly
//! arena's next start is 14:00, the daily Swiss's 18:00.

use crate::common::online::*;
use serde_json::{json, Value};
use std::time::{Duration, Instant};
use tensorchess::server::clock::Clock;
use tensorchess::server::store::{TournamentRecord, TournamentState};
use tensorchess::server::tournaments::schedule::Schedule;

const MINUTE: i64 = 60_000;
const HOUR: i64 = 60 * MINUTE;
/// 14:00 UTC, the hour after [`T0`].
const TWO_PM: i64 = (T0 / HOUR + 1) * HOUR;

/// Every tournament of the list, whatever its state.
async fn listed(t: &TestApp) -> Vec<Value> {
    let a = t.get("/api/tournaments", None).await;
    assert_eq!(a.status, axum::http::StatusCode::OK, "{}", a.text);
    ["upcoming", "running", "finished"]
        .iter()
        .flat_map(|s| a.body[s].as_array().cloned().unwrap_or_default())
        .collect()
}

/// Waits (a while at most) until the list holds `n` tournaments: the
/// server's background work makes them on its own task.
async fn wait_listed(t: &TestApp, n: usize) -> Vec<Value> {
    let start = Instant::now();
    loop {
        let list = listed(t).await;
        if list.len() >= n {
            return list;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "timed out waiting for {n} tournaments: {list:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The stored upcoming tournaments.
async fn stored(t: &TestApp) -> Vec<TournamentRecord> {
    t.open_store()
        .tournaments_in(TournamentState::Upcoming, 100)
        .await
        .unwrap()
}

fn starting_at(list: &[Value], ms: i64) -> Vec<&Value> {
    list.iter().filter(|t| t["starts_at"] == ms).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn scheduled_defaults_are_made_and_listed_as_the_schedules() {
    let t = TestApp::with_schedule(|c| c, Some(Schedule::defaults()));
    let list = wait_listed(&t, 2).await;
    assert_eq!(list.len(), 2, "{list:?}");
    let arena = starting_at(&list, TWO_PM)[0];
    assert_eq!(arena["kind"], "arena");
    assert_eq!(arena["name"], "Hourly Tensor Blitz");
    assert_eq!(arena["variant"], "tensor");
    assert_eq!(arena["clock"]["base_seconds"], 180);
    assert_eq!(arena["clock"]["increment_seconds"], 2);
    assert_eq!(arena["minutes"], 57);
    assert_eq!(arena["rated"], true);
    assert_eq!(arena["scheduled"], true);
    assert_eq!(arena["state"], "upcoming");
    assert_eq!(arena["created_by"], "@schedule");
    // Its name in Ukrainian, for the page in Ukrainian.
    assert_eq!(arena["names"]["uk"], "Щогодинний бліц Тензор");
    let swiss = starting_at(&list, TWO_PM + 4 * HOUR)[0];
    assert_eq!(swiss["kind"], "swiss");
    assert_eq!(swiss["rounds"], 7);
    assert_eq!(swiss["clock"]["base_seconds"], 300);
    assert_eq!(swiss["clock"]["increment_seconds"], 3);
    assert_eq!(swiss["scheduled"], true);
    // One tournament's own view says so too.
    let one = t
        .get(
            &format!("/api/tournaments/{}", arena["id"].as_str().unwrap()),
            None,
        )
        .await;
    assert_eq!(one.body["scheduled"], true, "{}", one.text);
    assert_eq!(one.body["names"]["uk"], "Щогодинний бліц Тензор");
    // Looking again makes nothing more.
    let again = t.state.tournaments.create_scheduled(t.clock.now_ms()).await;
    assert_eq!(again.unwrap(), vec![]);
    assert_eq!(stored(&t).await.len(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn scheduled_tournaments_of_a_players_making_are_not_marked() {
    let t = TestApp::new();
    let ann = account(&t, "ann").await;
    let a = t
        .post(
            "/api/tournaments",
            Some(&ann),
            json!({
                "kind": "arena", "name": "Ann's arena", "variant": "chess",
                "clock": { "base_seconds": 60, "increment_seconds": 0 },
                "starts_at": T0 + HOUR, "minutes": 30
            }),
        )
        .await;
    assert_eq!(a.status, axum::http::StatusCode::CREATED, "{}", a.text);
    assert_eq!(a.body["scheduled"], false);
    assert!(a.body.get("names").is_none(), "{}", a.text);
    // No schedule given: the server makes nothing by itself.
    let made = t.state.tournaments.create_scheduled(T0).await.unwrap();
    assert_eq!(made, vec![]);
    assert_eq!(listed(&t).await.len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn scheduled_from_a_custom_file_are_made_as_it_says() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("schedule.json");
    std::fs::write(
        &path,
        json!({ "tournaments": [{
            "key": "chess-half-hour", "kind": "swiss", "name": "Half-hourly Chess",
            "variant": "chess", "clock": { "base_seconds": 120, "increment_seconds": 1 },
            "rated": false, "rounds": 5, "max_players": 64,
            "every_minutes": 30, "minute": 10, "announce_minutes": 60
        }]})
        .to_string(),
    )
    .unwrap();
    let t = TestApp::with_schedule(|c| c, Some(Schedule::read(&path).unwrap()));
    // At 13:46:40, within an hour: 14:10 and 14:40.
    let list = wait_listed(&t, 2).await;
    let mut starts: Vec<i64> = list
        .iter()
        .map(|t| t["starts_at"].as_i64().unwrap())
        .collect();
    starts.sort();
    assert_eq!(starts, vec![TWO_PM + 10 * MINUTE, TWO_PM + 40 * MINUTE]);
    for s in &list {
        assert_eq!(s["name"], "Half-hourly Chess");
        assert_eq!(s["variant"], "chess");
        assert_eq!(s["rounds"], 5);
        assert_eq!(s["max_players"], 64);
        assert_eq!(s["rated"], false);
        assert_eq!(s["scheduled"], true);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn scheduled_next_occurrence_is_made_as_the_clock_moves_on() {
    let t = TestApp::with_schedule(|c| c, Some(Schedule::defaults()));
    wait_listed(&t, 2).await;
    // 14:00:30: the 15:00 arena is now within its hour's notice; the
    // background work's next look (a minute on) comes with the clock.
    t.clock.set(TWO_PM + 30_000);
    let list = wait_listed(&t, 3).await;
    assert_eq!(starting_at(&list, TWO_PM + HOUR).len(), 1, "{list:?}");
    assert_eq!(starting_at(&list, TWO_PM).len(), 1, "{list:?}");
    // A restarted server (same database, same schedule) makes no copy.
    let restarted = t.reopen_scheduled(|c| c, Some(Schedule::defaults()));
    let made = restarted
        .state
        .tournaments
        .create_scheduled(restarted.clock.now_ms())
        .await
        .unwrap();
    assert_eq!(made, vec![]);
    assert_eq!(stored(&t).await.len(), 3);
    // A day on, the next Swiss is made for the next day's 18:00.
    t.clock.set(TWO_PM + 24 * HOUR);
    let list = wait_listed(&t, 5).await;
    assert_eq!(starting_at(&list, TWO_PM + 28 * HOUR).len(), 1, "{list:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: set TENSORCHESS_TEST_PG (scripts/test.sh does)"]
async fn scheduled_by_two_servers_over_postgres_are_made_once() {
    let a = TestApp::on_postgres_scheduled(|c| c, Some(Schedule::defaults()));
    let b = a.reopen_scheduled(|c| c, Some(Schedule::defaults()));
    wait_listed(&a, 2).await;
    // Both look at once, as their background work may too.
    let now = a.clock.now_ms();
    let (made_a, made_b) = tokio::join!(
        a.state.tournaments.create_scheduled(now),
        b.state.tournaments.create_scheduled(now)
    );
    assert_eq!(made_a.unwrap().len() + made_b.unwrap().len(), 0);
    a.clock.set(TWO_PM + 30_000);
    let now = a.clock.now_ms();
    let (made_a, made_b) = tokio::join!(
        a.state.tournaments.create_scheduled(now),
        b.state.tournaments.create_scheduled(now)
    );
    // The background work of either may have made it first.
    assert!(made_a.unwrap().len() + made_b.unwrap().len() <= 1);
    let list = wait_listed(&b, 3).await;
    assert_eq!(starting_at(&list, TWO_PM + HOUR).len(), 1, "{list:?}");
    let mut keys: Vec<String> = stored(&a)
        .await
        .into_iter()
        .filter_map(|t| t.schedule_key)
        .collect();
    keys.sort();
    keys.dedup();
    assert_eq!(keys.len(), 3, "{keys:?}");
    assert_eq!(stored(&a).await.len(), 3);
}

#[test]
fn scheduled_file_that_is_wrong_stops_serve_naming_the_entry() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("schedule.json");
    std::fs::write(
        &path,
        json!({ "tournaments": [{
            "kind": "arena", "name": "Too Long", "clock": { "base_seconds": 60 },
            "minutes": 500, "every": "daily"
        }]})
        .to_string(),
    )
    .unwrap();
    let db = dir.path().join("games.sqlite3");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_tensorchess"))
        .args(["serve", "--port", "0", "--schedule"])
        .arg(&path)
        .arg("--db")
        .arg(&db)
        .output()
        .expect("the binary runs");
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("tournament 1 (\"Too Long\")") && err.contains("An arena lasts"),
        "{err}"
    );
    assert!(
        !db.exists(),
        "nothing is opened before the schedule is checked"
    );
}
