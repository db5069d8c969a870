//! Account events across two servers over one PostgreSQL (issue 20,
//! item 8): a logout on one server ends the session on the other at once
//! (each remembers tokens for a while), a password change ends the other
//! sessions everywhere, and an operator's ban closes the player's sockets
//! on every server. Needs a PostgreSQL (`TENSORCHESS_TEST_PG`): ignored
//! unless asked for.

use crate::common::online::*;
use axum::http::StatusCode;
use serde_json::{json, Value};
use tensorchess::commands::admin::{act as admin, AdminAction};

async fn me(t: &TestApp, cookie: &str) -> Value {
    t.get("/api/me", Some(cookie)).await.body
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: set TENSORCHESS_TEST_PG (scripts/test.sh does)"]
async fn a_logout_on_one_server_ends_the_session_on_the_other_at_once() {
    let pair = two_servers().await;
    let (a, b) = (&pair.a, &pair.b);
    let session = a.register(None, "roamer").await;
    // B remembers the token (a read caches it for a minute).
    assert_eq!(me(b, &session).await["account"], "roamer");
    let out = a
        .post("/api/account/logout", Some(&session), json!({}))
        .await;
    assert_eq!(out.status, StatusCode::OK, "{}", out.text);
    // B forgets it at once (no clock moves: only the notice can tell it).
    wait_until("B forgets the token", || async {
        me(b, &session).await["account"] == Value::Null
    })
    .await;
    let renamed = b
        .req(
            axum::http::Method::PATCH,
            "/api/me",
            Some(&session),
            Some(json!({ "name": "Not Roamer" })),
        )
        .await;
    // The old token is no one's: the rename lands on a new guest.
    assert_ne!(renamed.body["account"], "roamer", "{}", renamed.text);
    let login = a
        .post(
            "/api/account/login",
            None,
            json!({ "username": "roamer", "password": "a long password" }),
        )
        .await;
    assert_eq!(login.body["name"], "roamer", "{}", login.text);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: set TENSORCHESS_TEST_PG (scripts/test.sh does)"]
async fn a_ban_closes_the_players_sockets_on_every_server() {
    let pair = two_servers().await;
    let (a, b) = (&pair.a, &pair.b);
    let session = a.register(None, "spammer").await;
    let mut page = ws_connect(pair.addr_b, Some(&session)).await;
    send(&mut page, json!({ "type": "ping" })).await;
    next_of(&mut page, &["pong"]).await;
    // Over the same database, as the operator's command would.
    let store = a.open_store();
    admin(
        &store,
        &AdminAction::Ban {
            target: "spammer".into(),
            reason: "spam".into(),
        },
    )
    .await
    .unwrap();
    let said = next_of(&mut page, &["banned"]).await;
    assert!(said["message"].as_str().unwrap().contains("spam"), "{said}");
    assert_eq!(me(b, &session).await["account"], Value::Null);
    let again = a
        .post(
            "/api/account/login",
            None,
            json!({ "username": "spammer", "password": "a long password" }),
        )
        .await;
    expect_refused(&again, StatusCode::FORBIDDEN, "banned");
}
