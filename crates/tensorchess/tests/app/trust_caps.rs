//! Caps that neither a race nor fresh identities pass (issue 38, item 7):
//! challenges per player and per address fired at once, on one server and
//! on two over one PostgreSQL, and tournaments made per player and per
//! address.

use crate::common::online::*;
use axum::http::{Method, StatusCode};
use futures_util::future::join_all;
use serde_json::{json, Value};
use tensorchess::server::challenges::{MAX_CHALLENGES_PER_ADDRESS, MAX_OPEN_CHALLENGES};

async fn challenge(t: &TestApp, client: &str, cookie: Option<&str>, to: &str) -> Answer {
    let body = json!({ "to": to });
    via_proxy(
        t,
        Method::POST,
        "/api/challenges",
        client,
        cookie,
        Some(body),
    )
    .await
}

fn created(answers: &[Answer]) -> usize {
    for a in answers {
        assert!(
            a.status == StatusCode::CREATED || a.status == StatusCode::TOO_MANY_REQUESTS,
            "{}: {}",
            a.status,
            a.text
        );
    }
    answers
        .iter()
        .filter(|a| a.status == StatusCode::CREATED)
        .count()
}

/// `players` accounts (each from an address of its own).
async fn accounts(t: &TestApp, prefix: &str, n: usize) -> Vec<String> {
    let mut names = Vec::new();
    for i in 0..n {
        let name = format!("{prefix}{i}");
        account_from(t, &format!("198.51.{}.{i}", 100 + prefix.len()), &name).await;
        names.push(name);
    }
    names
}

/// One player's challenges, then fresh guests' from one address, fired at
/// once at `a` and `b` (the same server, or two over one database): the
/// caps hold exactly.
async fn racing_challenges_keep_their_caps(a: &TestApp, b: &TestApp) {
    let targets = accounts(a, "to", 12).await;
    let racer = account_from(a, "192.0.2.1", "racer").await;
    let tries = (0..2 * MAX_OPEN_CHALLENGES).map(|i| {
        let t = if i % 2 == 0 { a } else { b };
        let (racer, to) = (racer.clone(), targets[i % targets.len()].clone());
        async move { challenge(t, &format!("192.0.2.{}", 10 + i), Some(&racer), &to).await }
    });
    let answers = join_all(tries).await;
    assert_eq!(created(&answers), MAX_OPEN_CHALLENGES, "made by one player");

    // Fresh guests from one address, three to each of twelve players at
    // most (36 > 30): the address's cap decides.
    let tries = (0..40).map(|i| {
        let t = if i % 2 == 0 { a } else { b };
        let to = targets[i % targets.len()].clone();
        async move { challenge(t, "203.0.113.50", None, &to).await }
    });
    let answers = join_all(tries).await;
    assert_eq!(
        created(&answers),
        MAX_CHALLENGES_PER_ADDRESS,
        "from one address"
    );
}

/// Rather than a per-address write limit, these tests count caps.
fn unlimited_writes(c: tensorchess::server::ServerConfig) -> tensorchess::server::ServerConfig {
    tensorchess::server::ServerConfig {
        write_limit: tensorchess::server::ratelimit::RateLimit {
            burst: 1_000,
            per_second: 1_000.0,
        },
        ..behind_proxy(c)
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn challenges_fired_at_once_keep_their_caps() {
    let t = TestApp::with(unlimited_writes);
    racing_challenges_keep_their_caps(&t, &t).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs PostgreSQL: set TENSORCHESS_TEST_PG (scripts/test.sh does)"]
async fn challenges_fired_at_two_servers_keep_their_caps() {
    let a = TestApp::on_postgres_with(unlimited_writes);
    let b = a.reopen_with(unlimited_writes);
    racing_challenges_keep_their_caps(&a, &b).await;
}

fn arena(name: &str) -> Value {
    json!({
        "kind": "arena", "name": name, "variant": "chess",
        "clock": { "base_seconds": 60, "increment_seconds": 2 },
        "rated": false, "starts_at": T0 + 60_000, "minutes": 30, "max_players": 50
    })
}

async fn make_tournament(t: &TestApp, client: &str, cookie: Option<&str>, name: &str) -> Answer {
    via_proxy(
        t,
        Method::POST,
        "/api/tournaments",
        client,
        cookie,
        Some(arena(name)),
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn fresh_guests_from_one_address_make_five_tournaments_a_day() {
    let t = TestApp::with(unlimited_writes);
    // Six fresh guests from one address, one after another.
    let mut made = 0;
    for i in 0..6 {
        let guest = t.get("/api/me", None).await.cookie.unwrap();
        for j in 0..5 {
            let a = make_tournament(&t, "203.0.113.7", Some(&guest), &format!("Cup {i} {j}")).await;
            if a.status == StatusCode::CREATED {
                made += 1;
            } else {
                expect_refused(&a, StatusCode::TOO_MANY_REQUESTS, "too_many");
            }
        }
    }
    assert_eq!(made, 5, "five a day from one address");
    // Another address is another count; and so is tomorrow.
    let a = make_tournament(&t, "203.0.113.8", None, "Elsewhere").await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    t.clock.advance(24 * 3_600_000 + 1);
    let tomorrow = json!({ "starts_at": T0 + 24 * 3_600_000 + 60_000 });
    let mut body = arena("Tomorrow");
    body["starts_at"] = tomorrow["starts_at"].clone();
    let a = via_proxy(
        &t,
        Method::POST,
        "/api/tournaments",
        "203.0.113.7",
        None,
        Some(body),
    )
    .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);

    // Twelve more fired at once from a third address: five made.
    let tomorrow = &tomorrow;
    let tries = (0..12).map(|i| {
        let t = &t;
        async move {
            let mut body = arena(&format!("Race {i}"));
            body["starts_at"] = tomorrow["starts_at"].clone();
            via_proxy(
                t,
                Method::POST,
                "/api/tournaments",
                "203.0.113.9",
                None,
                Some(body),
            )
            .await
        }
    });
    let answers = join_all(tries).await;
    assert_eq!(created(&answers), 5);
}
