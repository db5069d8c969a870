//! Correspondence tournaments: a Swiss or a round robin with days per move
//! for every game instead of a clock (an arena is always played on a
//! clock); its games are correspondence games, rated in the
//! correspondence pool.

use crate::common::online::*;
use axum::http::StatusCode;
use serde_json::{json, Value};

const START: i64 = T0 + 60_000;
const DAY: i64 = 24 * 3_600_000;

fn swiss(days: Value, clock: Value) -> Value {
    json!({
        "kind": "swiss", "name": "Slow Swiss", "variant": "tensor",
        "clock": clock, "days": days, "rated": true, "starts_at": START,
        "rounds": 3, "max_players": 20
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_swiss_by_correspondence_pairs_games_with_days_per_move() {
    let t = TestApp::new();
    let ann = account(&t, "ann").await;
    let refused = |body: Value| {
        let (t, ann) = (&t, ann.clone());
        async move {
            let a = t.post("/api/tournaments", Some(&ann), body).await;
            expect_refused(&a, StatusCode::BAD_REQUEST, "bad_request");
            a.body["error"].as_str().unwrap().to_string()
        }
    };
    // Days per move or a clock, one of them; days from the correspondence list.
    let clock = json!({ "base_seconds": 180, "increment_seconds": 2 });
    assert!(refused(swiss(json!(3), clock.clone()))
        .await
        .contains("not both"));
    assert!(refused(swiss(json!(4), Value::Null))
        .await
        .contains("Days per move"));
    assert!(refused(swiss(Value::Null, Value::Null))
        .await
        .contains("days per move"));
    let mut arena = swiss(json!(3), Value::Null);
    arena["kind"] = json!("arena");
    arena["rounds"] = Value::Null;
    arena["minutes"] = json!(60);
    assert!(refused(arena).await.contains("arena is played on a clock"));

    let made = t
        .post("/api/tournaments", Some(&ann), swiss(json!(3), Value::Null))
        .await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
    assert_eq!(made.body["days"], 3);
    let id = made.body["id"].as_str().unwrap().to_string();
    let listed = t.get("/api/tournaments", None).await.body;
    assert_eq!(listed["upcoming"][0]["days"], 3, "{listed}");

    let mut cookies = vec![ann];
    for n in ["bob", "cyd", "dee"] {
        cookies.push(account(&t, n).await);
    }
    // Ann beats Bob in a rated correspondence game first: their ratings in
    // the pool the tournament's games are rated in are no longer the start.
    let rated = rated_corr_win(&t, &cookies[0], &cookies[1], "bob").await;
    for c in &cookies {
        let a = t
            .post(&format!("/api/tournaments/{id}/join"), Some(c), json!({}))
            .await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    }
    t.clock.set(START);
    t.state.tournaments.tick().await;
    let v = t.get(&format!("/api/tournaments/{id}"), None).await.body;
    let games = v["pairings"].as_array().unwrap();
    assert_eq!(games.len(), 2, "{v}");
    for p in games {
        let g = t.game(p["game"].as_str().unwrap()).await;
        let clock = &g["online"]["clock"];
        assert_eq!(clock["days"], 3, "{g}");
        assert_eq!(clock["base_ms"], 3 * DAY);
        assert_eq!(g["online"]["rated"], true);
        // Each game starts with its players' names and their ratings in
        // the correspondence pool (the wave's reads).
        for (i, side) in ["white", "black"].into_iter().enumerate() {
            let name = g[side].as_str().unwrap();
            let want = rated.get(name).copied().unwrap_or(1500);
            assert_eq!(
                g["online"]["ratings"][i],
                json!(want),
                "{name}: {}",
                g["online"]
            );
        }
    }
    // The games count among each player's correspondence games.
    let turns = t.get("/api/correspondence", Some(&cookies[0])).await;
    assert_eq!(turns.status, StatusCode::OK, "{}", turns.text);
    assert_eq!(
        turns.body["games"].as_array().map(Vec::len),
        Some(1),
        "{}",
        turns.text
    );
}

/// A rated Tensor Chess correspondence game that `winner` wins when
/// `loser` (named `loser_name`) resigns; the two players' new ratings in
/// that pool, rounded, by name.
async fn rated_corr_win(
    t: &TestApp,
    winner: &str,
    loser: &str,
    loser_name: &str,
) -> std::collections::HashMap<String, i64> {
    let (_, game) = accepted_challenge(
        t,
        winner,
        loser,
        loser_name,
        json!({ "variant": "tensor", "days": 3, "rated": true, "color": "white" }),
    )
    .await;
    assert_eq!(
        t.play(&game, winner, "e2e4", 0).await.status,
        StatusCode::OK
    );
    assert_eq!(t.play(&game, loser, "e7e5", 1).await.status, StatusCode::OK);
    let a = t.act(&game, Some(loser), json!({ "type": "resign" })).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let mut rated = std::collections::HashMap::new();
    for cookie in [winner, loser] {
        let me = t.get("/api/me", Some(cookie)).await.body;
        let r = me["ratings"]["correspondence"]["tensor"]["rating"]
            .as_f64()
            .unwrap();
        assert_ne!(r.round() as i64, 1500, "{me}");
        rated.insert(me["name"].as_str().unwrap().to_string(), r.round() as i64);
    }
    rated
}
