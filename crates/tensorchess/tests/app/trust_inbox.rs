//! A player's challenge inbox against strangers (issue 38, item 5): fresh
//! guests from a few addresses take only a few of its places, a decline
//! frees none of them for a day, challenges from accounts the player
//! follows or has played always arrive, and a player may refuse guests.
//! Also the follows themselves (`/api/rel/…`) and the preference.

use crate::common::online::*;
use axum::http::{Method, StatusCode};
use serde_json::{json, Value};

/// An untimed challenge to `to` from address `client`, as the holder of
/// `cookie` (a fresh guest when `None`).
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

async fn post(t: &TestApp, uri: &str, client: &str, cookie: Option<&str>, body: Value) -> Answer {
    via_proxy(t, Method::POST, uri, client, cookie, Some(body)).await
}

async fn inbox(t: &TestApp, cookie: &str) -> Vec<Value> {
    let a = t.get("/api/challenges", Some(cookie)).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    a.body["in"].as_array().unwrap().clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn strangers_cannot_take_an_inbox_and_friends_always_arrive() {
    let t = TestApp::with(behind_proxy);
    let vic = account_from(&t, "198.51.100.1", "vic").await;
    let pal = account_from(&t, "198.51.100.2", "pal").await;
    let opp = account_from(&t, "198.51.100.3", "opp").await;
    let stranger = account_from(&t, "198.51.100.4", "stranger").await;
    // Vic follows Pal, and has a game with Opp (a challenge accepted).
    let a = post(
        &t,
        "/api/rel/follow/pal",
        "198.51.100.1",
        Some(&vic),
        json!({}),
    )
    .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let a = challenge(&t, "198.51.100.3", Some(&opp), "vic").await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    let id = a.body["id"].as_str().unwrap();
    let a = post(
        &t,
        &format!("/api/challenges/{id}/accept"),
        "198.51.100.1",
        Some(&vic),
        json!({}),
    )
    .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);

    // 60 fresh guests from two addresses: three each reach Vic.
    let mut made = Vec::new();
    for i in 0..60 {
        let from = if i % 2 == 0 {
            "203.0.113.1"
        } else {
            "203.0.113.2"
        };
        let a = challenge(&t, from, None, "vic").await;
        match a.status {
            StatusCode::CREATED => made.push((from, a.body["id"].as_str().unwrap().to_string())),
            _ => expect_refused(&a, StatusCode::TOO_MANY_REQUESTS, "too_many"),
        }
        t.clock.advance(500); // under each address's rate of writes
    }
    assert_eq!(made.len(), 6, "three from each address");
    assert_eq!(inbox(&t, &vic).await.len(), 6);

    // A stranger from elsewhere, a followed account and one Vic played
    // still arrive.
    let a = challenge(&t, "192.0.2.77", None, "vic").await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    let a = challenge(&t, "198.51.100.4", Some(&stranger), "vic").await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    let a = challenge(&t, "203.0.113.1", Some(&pal), "vic").await;
    assert_eq!(
        a.status,
        StatusCode::CREATED,
        "a friend behind a busy address: {}",
        a.text
    );
    let a = challenge(&t, "203.0.113.2", Some(&opp), "vic").await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);

    // Declining frees no place for that address today.
    let (from, id) = &made[0];
    let a = post(
        &t,
        &format!("/api/challenges/{id}/decline"),
        "198.51.100.1",
        Some(&vic),
        json!({}),
    )
    .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let a = challenge(&t, from, None, "vic").await;
    expect_refused(&a, StatusCode::TOO_MANY_REQUESTS, "too_many");

    // Strangers from many addresses fill the rest of the 50 places; then a
    // stranger waits, a friend does not.
    let mut i = 0;
    loop {
        let a = challenge(&t, &format!("10.7.0.{i}"), None, "vic").await;
        i += 1;
        if a.status != StatusCode::CREATED {
            expect_refused(&a, StatusCode::TOO_MANY_REQUESTS, "too_many");
            assert!(a.text.contains("too many challenges waiting"), "{}", a.text);
            break;
        }
        assert!(i < 100, "the inbox never filled");
    }
    let strangers = inbox(&t, &vic)
        .await
        .iter()
        .filter(|c| !matches!(c["from"]["account"].as_str(), Some("pal" | "opp")))
        .count();
    assert_eq!(strangers, 50);
    let a = challenge(&t, "198.51.100.2", Some(&pal), "vic").await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);

    // A day later it has all lapsed, and the address may again.
    t.clock.advance(24 * 3_600_000);
    t.state.challenges.sweep().await;
    let a = challenge(&t, from, None, "vic").await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
}

#[tokio::test]
async fn a_player_may_refuse_challenges_from_guests() {
    let t = TestApp::with(behind_proxy);
    let vic = account_from(&t, "198.51.100.1", "vic").await;
    let ann = account_from(&t, "198.51.100.2", "ann").await;
    let a = t.get("/api/account/preferences", Some(&vic)).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    assert_eq!(a.body, json!({ "challengesFromGuests": true }));
    let off = json!({ "challengesFromGuests": false });
    let a = post(
        &t,
        "/api/account/preferences",
        "198.51.100.1",
        Some(&vic),
        off.clone(),
    )
    .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    assert_eq!(a.body, off);
    assert_eq!(
        t.get("/api/account/preferences", Some(&vic)).await.body,
        off
    );

    let a = challenge(&t, "203.0.113.5", None, "vic").await;
    expect_refused(&a, StatusCode::CONFLICT, "account_needed");
    let a = challenge(&t, "198.51.100.2", Some(&ann), "vic").await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);

    // A guest has no preferences to set; nor an unknown field.
    let guest = t.get("/api/me", None).await.cookie.unwrap();
    let a = post(
        &t,
        "/api/account/preferences",
        "203.0.113.5",
        Some(&guest),
        off,
    )
    .await;
    expect_refused(&a, StatusCode::CONFLICT, "account_needed");
    let a = post(
        &t,
        "/api/account/preferences",
        "198.51.100.1",
        Some(&vic),
        json!({ "x": 1 }),
    )
    .await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST, "{}", a.text);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn follows_are_listed_with_who_is_online() {
    let t = TestApp::with(behind_proxy);
    let ann = account_from(&t, "198.51.100.1", "ann").await;
    let bob = account_from(&t, "198.51.100.2", "Bob").await;
    account_from(&t, "198.51.100.3", "cat").await;
    let follow = |who: &str| format!("/api/rel/follow/{who}");
    for who in ["bob", "cat"] {
        let a = post(&t, &follow(who), "198.51.100.1", Some(&ann), json!({})).await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.text);
        assert_eq!(a.body, json!({ "ok": true }));
        t.clock.advance(1_000);
    }
    // Again: still one follow.
    let a = post(&t, &follow("BOB"), "198.51.100.1", Some(&ann), json!({})).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let a = post(&t, &follow("nobody"), "198.51.100.1", Some(&ann), json!({})).await;
    assert_eq!(a.status, StatusCode::NOT_FOUND, "{}", a.text);
    let a = post(&t, &follow("ann"), "198.51.100.1", Some(&ann), json!({})).await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST, "{}", a.text);
    let guest = t.get("/api/me", None).await.cookie.unwrap();
    let a = post(&t, &follow("bob"), "203.0.113.9", Some(&guest), json!({})).await;
    expect_refused(&a, StatusCode::CONFLICT, "account_needed");

    // Bob has a page open: online.
    let (addr, _stop) = t.serve().await;
    let mut bob_ws = ws_connect(addr, Some(&bob)).await;
    follow_challenges(&mut bob_ws).await;
    let a = t.get("/api/rel/following", Some(&ann)).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let lines: Vec<Value> = a
        .text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2, "{}", a.text);
    assert_eq!(lines[0]["username"], "cat", "newest first");
    assert_eq!(lines[0]["online"], false);
    assert_eq!(lines[1]["username"], "Bob");
    assert_eq!(lines[1]["id"], "bob");
    assert_eq!(lines[1]["online"], true);
    assert_eq!(lines[1]["followedAt"], T0, "{}", lines[1]);

    let a = post(
        &t,
        "/api/rel/unfollow/cat",
        "198.51.100.1",
        Some(&ann),
        json!({}),
    )
    .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let a = t.get("/api/rel/following", Some(&ann)).await;
    assert_eq!(a.text.lines().count(), 1, "{}", a.text);
    let a = t.get("/api/rel/following", Some(&guest)).await;
    expect_refused(&a, StatusCode::CONFLICT, "account_needed");
}
