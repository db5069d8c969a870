//! Challenges: made to a named account, seen live by both players,
//! declined with a reason, withdrawn, accepted once (the game made with the
//! asked colours and rating), refused when they make no sense, and lapsing
//! after a day or when a real-time challenger has left.

use crate::common::online::*;
use axum::http::StatusCode;
use serde_json::{json, Value};

async fn challenge(t: &TestApp, from: &str, body: Value) -> Answer {
    t.post("/api/challenges", Some(from), body).await
}

fn blitz(to: &str) -> Value {
    json!({ "to": to, "variant": "tensor", "clock": { "base_seconds": 180, "increment_seconds": 2 }, "rated": true, "color": "white" })
}

/// `POST /api/challenges/{id}/{what}` (`accept`, `decline`, `cancel`) by
/// the player of `cookie`, with no reason.
async fn answer(t: &TestApp, id: &str, what: &str, cookie: &str) -> Answer {
    let uri = format!("/api/challenges/{id}/{what}");
    t.post(&uri, Some(cookie), json!({})).await
}

async fn lists(t: &TestApp, cookie: &str) -> (Vec<Value>, Vec<Value>) {
    let a = t.get("/api/challenges", Some(cookie)).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    (
        a.body["in"].as_array().unwrap().clone(),
        a.body["out"].as_array().unwrap().clone(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_is_seen_live_declined_then_accepted() {
    let t = TestApp::new();
    let ann = account(&t, "ann").await;
    let bob = account(&t, "Bob").await;
    let (addr, _stop) = t.serve().await;
    let mut bob_ws = ws_connect(addr, Some(&bob)).await;
    let first = follow_challenges(&mut bob_ws).await;
    assert_eq!(first["challenges"]["in"], json!([]));
    let mut ann_ws = ws_connect(addr, Some(&ann)).await;
    follow_challenges(&mut ann_ws).await;

    let made = challenge(&t, &ann, blitz("bob")).await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
    assert_eq!(made.body["direction"], "out");
    assert_eq!(
        made.body["to"]["account"], "Bob",
        "the name is found ignoring case"
    );
    assert_eq!(made.body["clock"]["base_seconds"], 180);
    let id = made.body["id"].as_str().unwrap().to_string();
    let seen = next_of(&mut bob_ws, &["challenge"]).await;
    assert_eq!(seen["event"], "created");
    assert_eq!(seen["challenge"]["id"], id.as_str());
    assert_eq!(seen["challenge"]["direction"], "in");
    assert_eq!(seen["challenge"]["from"]["account"], "ann");
    let (incoming, outgoing) = lists(&t, &bob).await;
    assert_eq!((incoming.len(), outgoing.len()), (1, 0));
    let (incoming, outgoing) = lists(&t, &ann).await;
    assert_eq!((incoming.len(), outgoing.len()), (0, 1));

    // Only Bob answers it; a stranger does not even find it.
    let a = answer(&t, &id, "accept", &ann).await;
    expect_refused(&a, StatusCode::CONFLICT, "not_allowed");
    let a = t
        .post(&format!("/api/challenges/{id}/accept"), None, json!({}))
        .await;
    assert_eq!(a.status, StatusCode::NOT_FOUND, "{}", a.text);

    let d = t
        .post(
            &format!("/api/challenges/{id}/decline"),
            Some(&bob),
            json!({ "reason": "after lunch" }),
        )
        .await;
    assert_eq!(d.status, StatusCode::OK, "{}", d.text);
    assert_eq!(d.body["state"], "declined");
    let told = next_of(&mut ann_ws, &["challenge"]).await;
    assert_eq!(told["event"], "created");
    let told = next_of(&mut ann_ws, &["challenge"]).await;
    assert_eq!(told["event"], "declined");
    assert_eq!(told["challenge"]["reason"], "after lunch");
    assert_eq!(lists(&t, &ann).await.1.len(), 0);
    let a = answer(&t, &id, "accept", &bob).await;
    expect_refused(&a, StatusCode::CONFLICT, "game_over");

    // Again, accepted: the game is made with Ann as White, rated.
    let made = challenge(&t, &ann, blitz("bob")).await;
    let id = made.body["id"].as_str().unwrap().to_string();
    let a = answer(&t, &id, "accept", &bob).await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    assert_eq!(a.body["state"], "accepted");
    let game = a.body["game"].as_str().unwrap().to_string();
    let g = t.get(&format!("/api/games/{game}"), Some(&ann)).await.body;
    assert_eq!(g["you"], "white");
    assert_eq!(g["online"]["rated"], true, "{g}");
    assert_eq!(g["online"]["clock"]["white_ms"], 180_000);
    let r = t.play(&game, &ann, "e2e4", 0).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let accepted = loop {
        let m = next_of(&mut ann_ws, &["challenge"]).await;
        if m["event"] == "accepted" {
            break m;
        }
    };
    assert_eq!(accepted["challenge"]["game"], game.as_str());
    let a = answer(&t, &id, "accept", &bob).await;
    expect_refused(&a, StatusCode::CONFLICT, "game_over");
    assert_eq!(lists(&t, &bob).await, (vec![], vec![]));
}

#[tokio::test]
async fn challenges_that_make_no_sense_are_refused() {
    let t = TestApp::new();
    let ann = account(&t, "ann").await;
    account(&t, "bob").await;
    let a = challenge(&t, &ann, blitz("nobody")).await;
    assert_eq!(a.status, StatusCode::NOT_FOUND, "{}", a.text);
    let a = challenge(&t, &ann, blitz("ann")).await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST, "{}", a.text);
    // Days per move: one of the offered counts, and not with a clock.
    let a = challenge(&t, &ann, json!({ "to": "bob", "days": 4 })).await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST, "{}", a.text);
    let a = challenge(
        &t,
        &ann,
        json!({ "to": "bob", "days": 3, "clock": { "base_seconds": 60 } }),
    )
    .await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST, "{}", a.text);
    let a = challenge(&t, &ann, json!({ "to": "bob", "color": "green" })).await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST, "{}", a.text);
    let a = challenge(
        &t,
        &ann,
        json!({ "to": "bob", "clock": { "base_seconds": 0 } }),
    )
    .await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST, "{}", a.text);
    let a = challenge(&t, &ann, json!({ "to": "bob", "hmm": 1 })).await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST, "{}", a.text);
    // A guest may challenge to a casual game, not a rated one.
    let guest = t.get("/api/me", None).await.cookie.unwrap();
    let a = challenge(&t, &guest, blitz("bob")).await;
    expect_refused(&a, StatusCode::CONFLICT, "account_needed");
    let a = challenge(&t, &guest, json!({ "to": "bob" })).await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    assert_eq!(a.body["color"], "random");
    assert_eq!(a.body["clock"], Value::Null);
    // At most ten waiting at once;
    // withdrawing one makes room.
    let mut last = String::new();
    for i in 0..10 {
        let to = if i == 9 {
            "bob".to_string()
        } else {
            let name = format!("player{i}");
            account(&t, &name).await;
            name
        };
        let a = challenge(&t, &ann, json!({ "to": to })).await;
        assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
        last = a.body["id"].as_str().unwrap().to_string();
    }
    account(&t, "player10").await;
    expect_refused(
        &challenge(&t, &ann, json!({ "to": "player10" })).await,
        StatusCode::TOO_MANY_REQUESTS,
        "too_many",
    );
    let bob_cookie = {
        let login = t
            .post(
                "/api/account/login",
                None,
                json!({ "username": "bob", "password": "a long password" }),
            )
            .await;
        login.cookie.unwrap()
    };
    let a = t
        .req(
            axum::http::Method::DELETE,
            &format!("/api/challenges/{last}"),
            Some(&bob_cookie),
            None,
        )
        .await;
    expect_refused(&a, StatusCode::CONFLICT, "not_allowed");
    let a = t
        .req(
            axum::http::Method::DELETE,
            &format!("/api/challenges/{last}"),
            Some(&ann),
            None,
        )
        .await;
    assert_eq!(a.status, StatusCode::NO_CONTENT, "{}", a.text);
    let a = answer(&t, &last, "accept", &bob_cookie).await;
    expect_refused(&a, StatusCode::CONFLICT, "game_over");
    assert_eq!(
        challenge(&t, &ann, json!({ "to": "player10" }))
            .await
            .status,
        StatusCode::CREATED
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn challenges_lapse_after_a_day_or_when_a_real_time_challenger_leaves() {
    let t = TestApp::new();
    let ann = account(&t, "ann").await;
    let bob = account(&t, "bob").await;
    let cat = account(&t, "cat").await;
    // Unlimited: waits a day, with or without its challenger's page.
    let slow = challenge(&t, &cat, json!({ "to": "bob" })).await;
    assert_eq!(slow.status, StatusCode::CREATED);
    // Real time, while Ann has a page open: stays.
    let (addr, _stop) = t.serve().await;
    let mut ann_ws = ws_connect(addr, Some(&ann)).await;
    follow_challenges(&mut ann_ws).await;
    let fast = challenge(&t, &ann, blitz("bob")).await;
    assert_eq!(fast.status, StatusCode::CREATED);
    t.clock.advance(60_000);
    t.state.challenges.sweep().await;
    assert_eq!(lists(&t, &bob).await.0.len(), 2, "Ann is here");
    // Ann leaves: the real-time one lapses, the other stays.
    drop(ann_ws);
    let start = std::time::Instant::now();
    loop {
        t.state.challenges.sweep().await;
        if lists(&t, &bob).await.0.len() == 1 {
            break;
        }
        assert!(
            start.elapsed() < std::time::Duration::from_secs(10),
            "not lapsed"
        );
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    let left = lists(&t, &bob).await.0;
    assert_eq!(left[0]["id"], slow.body["id"]);
    // A day later it is gone too, and Bob is told.
    let mut bob_ws = ws_connect(addr, Some(&bob)).await;
    follow_challenges(&mut bob_ws).await;
    t.clock.advance(24 * 3_600_000);
    t.state.challenges.sweep().await;
    let m = next_of(&mut bob_ws, &["challenge"]).await;
    assert_eq!(m["event"], "expired");
    assert_eq!(m["challenge"]["id"], slow.body["id"]);
    assert_eq!(lists(&t, &bob).await, (vec![], vec![]));
}
