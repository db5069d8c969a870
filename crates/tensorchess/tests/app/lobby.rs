//! The lobby: seeks posted, listed, cancelled, accepted (once), lapsing
//! after 30 minutes or when their creator's last page closes, and the
//! `lobby` WebSocket topic that tells the creator of the pairing.

use crate::common::{ws_next_of, ws_send, TestApp};
use axum::http::{Method, StatusCode};
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tensorchess::server::clock::ManualClock;
use tensorchess::server::ServerConfig;

fn seek_body(rated: bool) -> Value {
    json!({ "variant": "tensor", "clock": { "base_seconds": 300, "increment_seconds": 3 },
            "rated": rated, "color": "random" })
}

async fn post_seek(t: &TestApp, body: Value) -> Value {
    let (status, seek) = t.post("/api/seeks", body).await;
    assert_eq!(status, StatusCode::CREATED, "{seek}");
    seek
}

async fn open_seeks(t: &TestApp) -> Vec<Value> {
    let (status, list) = t.get("/api/seeks").await;
    assert_eq!(status, StatusCode::OK);
    list.as_array().expect("a JSON array").clone()
}

#[tokio::test]
async fn seeks_are_posted_listed_cancelled_and_accepted() {
    let ann = TestApp::new();
    let ben = ann.stranger();
    let seek = post_seek(&ann, seek_body(false)).await;
    let id = seek["id"].as_str().unwrap().to_string();
    assert_eq!(seek["variant"], "tensor");
    assert_eq!(seek["clock"]["base_seconds"], 300);
    assert_eq!(seek["clock"]["increment_seconds"], 3);
    assert_eq!(seek["rated"], false);
    assert_eq!(seek["player"]["rating"], 1500);

    // Everyone sees it, with its creator's name.
    let seen = open_seeks(&ben).await;
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0]["id"], id.as_str());
    assert!(seen[0]["player"]["name"]
        .as_str()
        .is_some_and(|n| !n.is_empty()));

    // Only its creator cancels it; accepting one's own is a conflict.
    let (status, _) = ben
        .call(Method::DELETE, &format!("/api/seeks/{id}"), None)
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, err) = ann
        .post(&format!("/api/seeks/{id}/accept"), json!({}))
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{err}");
    assert!(err["error"].as_str().is_some());
    let (status, _) = ann
        .call(Method::DELETE, &format!("/api/seeks/{id}"), None)
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert!(open_seeks(&ben).await.is_empty());
    let (status, _) = ben
        .post(&format!("/api/seeks/{id}/accept"), json!({}))
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "a cancelled seek is gone");

    // Accepting makes the online game with both seats taken.
    let seek = post_seek(
        &ann,
        json!({ "variant": "chess", "clock": null, "rated": false, "color": "black" }),
    )
    .await;
    let (status, game) = ben
        .post(
            &format!("/api/seeks/{}/accept", seek["id"].as_str().unwrap()),
            json!({}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{game}");
    let gid = game["id"].as_str().unwrap();
    assert_eq!(game["variant"], "chess");
    assert_eq!(game["you"], "white", "the creator asked for Black");
    let (status, theirs) = ann.get(&format!("/api/games/{gid}")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(theirs["you"], "black");
    assert!(
        open_seeks(&ann).await.is_empty(),
        "an accepted seek is gone"
    );
    // The seats are taken: a third person only watches.
    let carl = ann.stranger();
    let (_, watched) = carl.get(&format!("/api/games/{gid}")).await;
    assert!(watched["you"].is_null(), "{watched}");
    let (status, _) = carl
        .post(&format!("/api/games/{gid}/join"), json!({}))
        .await;
    assert!(status.is_client_error());
}

#[tokio::test]
async fn bad_seeks_and_rated_seeks_without_accounts_are_refused() {
    let t = TestApp::new();
    for bad in [
        json!({ "variant": "go", "clock": null, "rated": false, "color": "white" }),
        json!({ "variant": "tensor", "clock": null, "rated": false, "color": "purple" }),
        json!({ "variant": "tensor", "clock": { "base_seconds": -5, "increment_seconds": 0 },
                "rated": false, "color": "white" }),
        json!({ "clock": null, "rated": false, "color": "white" }),
    ] {
        let (status, err) = t.post("/api/seeks", bad.clone()).await;
        assert!(status.is_client_error(), "{bad} → {status}");
        assert!(err["error"].as_str().is_some(), "{err}");
    }
    // Left out, the clock is none, the game unrated, the colour random.
    let seek = post_seek(&t, json!({ "variant": "chessence" })).await;
    assert!(seek["clock"].is_null() && seek["rated"] == false && seek["color"] == "random");
    let (status, _) = t
        .call(
            Method::DELETE,
            &format!("/api/seeks/{}", seek["id"].as_str().unwrap()),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    // Rated seeks need an account to post, and to accept.
    let (status, err) = t.post("/api/seeks", seek_body(true)).await;
    assert!(status.is_client_error(), "{err}");
    t.register("rated_one").await;
    let seek = post_seek(&t, seek_body(true)).await;
    let guest = t.stranger();
    let (status, err) = guest
        .post(
            &format!("/api/seeks/{}/accept", seek["id"].as_str().unwrap()),
            json!({}),
        )
        .await;
    assert!(status.is_client_error(), "{err}");
    assert_eq!(open_seeks(&t).await.len(), 1, "still open for others");
    // At most three open seeks each.
    post_seek(&t, seek_body(false)).await;
    post_seek(&t, seek_body(false)).await;
    let (status, err) = t.post("/api/seeks", seek_body(false)).await;
    assert!(status.is_client_error(), "{err}");
}

#[tokio::test]
async fn a_seek_lapses_after_thirty_minutes() {
    let clock = Arc::new(ManualClock::new(1_000_000));
    let t = TestApp::with_config(ServerConfig {
        clock: clock.clone(),
        ..ServerConfig::default()
    });
    let seek = post_seek(&t, seek_body(false)).await;
    // Its creator's page stays open (else the seek goes 45 s after they
    // leave, whenever the lobby's sweep runs): it lapses by age alone.
    let (_, me) = t.get("/api/me").await;
    let _here = t
        .state
        .games
        .live
        .presence()
        .player_here(me["id"].as_str().unwrap());
    clock.advance(29 * 60_000);
    assert_eq!(open_seeks(&t).await.len(), 1);
    clock.advance(60_001);
    assert!(open_seeks(&t).await.is_empty());
    let (status, _) = t
        .stranger()
        .post(
            &format!("/api/seeks/{}/accept", seek["id"].as_str().unwrap()),
            json!({}),
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn one_seek_makes_one_game_however_many_accept_at_once() {
    let t = TestApp::new();
    let seek = post_seek(&t, seek_body(false)).await;
    let url = format!("/api/seeks/{}/accept", seek["id"].as_str().unwrap());
    let takers: Vec<TestApp> = (0..8).map(|_| t.stranger()).collect();
    let answers =
        futures_util::future::join_all(takers.iter().map(|p| p.post(&url, json!({})))).await;
    let won: Vec<&Value> = answers
        .iter()
        .filter(|(s, _)| *s == StatusCode::CREATED)
        .map(|(_, g)| g)
        .collect();
    assert_eq!(won.len(), 1, "{answers:?}");
    for (status, err) in &answers {
        if *status != StatusCode::CREATED {
            assert!(status.is_client_error(), "{status} {err}");
        }
    }
    // The creator's list holds that one game.
    let (_, mine) = t.get("/api/games").await;
    let online: Vec<&Value> = mine["games"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["mode"] == "online")
        .collect();
    assert_eq!(online.len(), 1, "{mine}");
    assert_eq!(online[0]["id"], won[0]["id"]);
}

#[tokio::test]
async fn the_lobby_topic_shows_seeks_live_and_tells_the_creator_of_the_pairing() {
    let ann = TestApp::new();
    let ben = ann.stranger();
    ann.get("/api/me").await;
    ben.get("/api/me").await;
    let (addr, _stop) = ann.serve().await;
    let mut ann_ws = ann.ws(addr).await;
    ws_send(
        &mut ann_ws,
        json!({ "type": "subscribe", "topic": "lobby" }),
    )
    .await;
    let first = ws_next_of(&mut ann_ws, &["lobby"]).await;
    assert_eq!(first["seeks"], json!([]));
    let mut ben_ws = ben.ws(addr).await;
    ws_send(
        &mut ben_ws,
        json!({ "type": "subscribe", "topic": "lobby" }),
    )
    .await;
    ws_next_of(&mut ben_ws, &["lobby"]).await;

    // After the list, only changes.
    let seek = post_seek(&ann, seek_body(false)).await;
    let seen = ws_next_of(&mut ben_ws, &["lobby", "seek_added"]).await;
    assert_eq!(seen["type"], "seek_added");
    assert_eq!(seen["seek"], seek);

    let (status, game) = ben
        .post(
            &format!("/api/seeks/{}/accept", seek["id"].as_str().unwrap()),
            json!({}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let paired = ws_next_of(&mut ann_ws, &["paired"]).await;
    assert_eq!(paired["seek"], seek["id"]);
    assert_eq!(paired["game"], game["id"]);
    let after = ws_next_of(&mut ben_ws, &["lobby", "seek_removed"]).await;
    assert_eq!(after["ids"], json!([seek["id"]]));
}

#[tokio::test]
async fn a_seek_ends_when_its_creators_last_page_closes() {
    let ann = TestApp::new();
    ann.get("/api/me").await;
    let (addr, _stop) = ann.serve().await;
    let mut one = ann.ws(addr).await;
    let mut two = ann.ws(addr).await;
    for ws in [&mut one, &mut two] {
        ws_send(ws, json!({ "type": "ping" })).await;
        ws_next_of(ws, &["pong"]).await;
    }
    post_seek(&ann, seek_body(false)).await;
    let (_, me) = ann.get("/api/me").await;
    let presence = ann.state.games.live.presence().clone();
    let pages = || presence.pages_here(me["id"].as_str().unwrap());
    assert_eq!(pages(), 2);
    drop(one);
    let start = Instant::now();
    while pages() != 1 {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "the page did not close"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert_eq!(open_seeks(&ann).await.len(), 1, "another page is open");
    drop(two);
    let start = Instant::now();
    while !open_seeks(&ann).await.is_empty() {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "the seek did not end"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
