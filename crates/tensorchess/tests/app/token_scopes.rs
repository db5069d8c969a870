//! A personal API token is only what its scopes say (issue 38, item 1): a
//! token made for challenges makes challenges, and cannot resign its
//! account's games, chat, rename, seek, or make and join tournaments
//! through the site's own routes; a token without a scope is not made.

use crate::bots::{make_token, with_token};
use crate::common::online::*;
use axum::http::{Method, StatusCode};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_token_reaches_only_the_challenge_routes() {
    let t = TestApp::new();
    let ann = account(&t, "ann").await;
    let bob = account(&t, "bob").await;
    // Ann plays Bob (a challenge accepted in the browser).
    let c = t
        .post(
            "/api/challenges",
            Some(&ann),
            json!({ "to": "bob", "clock": { "base_seconds": 300 } }),
        )
        .await;
    let cid = c.body["id"].as_str().unwrap().to_string();
    let a = t
        .post(
            &format!("/api/challenges/{cid}/accept"),
            Some(&bob),
            json!({}),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    let id = t.get("/api/games", Some(&ann)).await.body["games"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();

    let token = make_token(&t, &ann, &["challenge:write"]).await;
    let tournament = json!({
        "kind": "arena", "name": "Leaked", "variant": "chess",
        "clock": { "base_seconds": 60, "increment_seconds": 0 },
        "rated": false, "starts_at": T0 + 60_000, "minutes": 30, "max_players": 50
    });
    for (method, uri, body) in [
        (
            Method::POST,
            format!("/api/games/{id}/act"),
            json!({ "type": "resign" }),
        ),
        (Method::POST, format!("/api/games/{id}/resign"), json!({})),
        (
            Method::POST,
            format!("/api/games/{id}/chat"),
            json!({ "room": "players", "text": "hello" }),
        ),
        (Method::PATCH, "/api/me".into(), json!({ "name": "Owned" })),
        (
            Method::POST,
            "/api/seeks".into(),
            json!({ "variant": "chess", "clock": { "base_seconds": 60 } }),
        ),
        (Method::POST, "/api/tournaments".into(), tournament),
        (
            Method::POST,
            "/api/online".into(),
            json!({ "variant": "chess" }),
        ),
        (
            Method::POST,
            "/api/challenges".into(),
            json!({ "to": "bob" }),
        ),
    ] {
        let a = with_token(&t, method.clone(), &uri, &token, Some(body)).await;
        expect_refused(&a, StatusCode::FORBIDDEN, "missing_scope");
        assert!(
            a.body["error"]
                .as_str()
                .unwrap()
                .contains("routes for programs"),
            "{method} {uri}: {}",
            a.text
        );
    }
    // Nothing of the above happened.
    let game = t.game(&id).await;
    assert!(game["end"].is_null(), "{game}");
    let me = t.get("/api/me", Some(&ann)).await;
    assert_ne!(me.body["name"], "Owned", "{}", me.text);
    assert_eq!(
        t.get("/api/tournaments", None).await.body["upcoming"],
        json!([])
    );

    // What the token is for works: a challenge, and reading its account.
    let a = with_token(
        &t,
        Method::POST,
        "/api/challenge/bob",
        &token,
        Some(json!({ "clock": { "base_seconds": 300 } })),
    )
    .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    let a = with_token(&t, Method::GET, "/api/account", &token, None).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    // Public reads too.
    let a = with_token(&t, Method::GET, &format!("/api/games/{id}"), &token, None).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_without_a_scope_is_not_made() {
    let t = TestApp::new();
    let ann = account(&t, "ann").await;
    for scopes in [json!([]), json!(null)] {
        let mut body = json!({ "description": "nothing" });
        if !scopes.is_null() {
            body["scopes"] = scopes;
        }
        let a = t.post("/api/account/tokens", Some(&ann), body).await;
        expect_refused(&a, StatusCode::BAD_REQUEST, "bad_request");
        assert!(
            a.body["error"]
                .as_str()
                .unwrap()
                .contains("at least one scope"),
            "{}",
            a.text
        );
    }
    let list = t.get("/api/account/tokens", Some(&ann)).await;
    assert_eq!(list.body["tokens"], json!([]));
}
