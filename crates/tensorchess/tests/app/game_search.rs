//! A player's games searched (issue 42 item 3): `GET /api/games/user/{name}`
//! by game, speed and result from the player's side, with the export's
//! other filters (opponent, position).

use crate::common::online::{account, wait_until, TestApp};
use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use serde_json::{json, Value};

/// A game `white` makes and `black` joins: `moves` played, then ended by
/// `end` (`resign` by `loser`'s side, or a draw agreed).
async fn played(
    t: &TestApp,
    (white, black): (&str, &str),
    setup: Value,
    moves: &[&str],
    end: &str,
) -> String {
    // A second apart: the games are listed newest first.
    t.clock.advance(1_000);
    let made = t.post("/api/online", Some(white), setup).await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
    let id = made.body["id"].as_str().unwrap().to_string();
    let joined = t
        .post(&format!("/api/games/{id}/join"), Some(black), json!({}))
        .await;
    assert_eq!(joined.status, StatusCode::OK, "{}", joined.text);
    for (ply, mv) in moves.iter().enumerate() {
        let who = if ply % 2 == 0 { white } else { black };
        let r = t.play(&id, who, mv, ply).await;
        assert_eq!(r.status, StatusCode::OK, "{mv}: {}", r.text);
    }
    let actions: Vec<(&str, Value)> = match end {
        "white resigns" => vec![(white, json!({ "type": "resign" }))],
        "black resigns" => vec![(black, json!({ "type": "resign" }))],
        _ => vec![
            (white, json!({ "type": "offer_draw" })),
            (black, json!({ "type": "accept_draw" })),
        ],
    };
    for (who, action) in actions {
        let r = t.act(&id, Some(who), action).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    }
    id
}

/// The ids of `name`'s games that `query` finds (NDJSON, newest first).
async fn found(t: &TestApp, name: &str, query: &str) -> Vec<String> {
    let req = Request::builder()
        .uri(format!("/api/games/user/{name}?{query}"))
        .header(header::ACCEPT, "application/x-ndjson")
        .body(Body::empty())
        .unwrap();
    let a = t.send(req).await;
    assert_eq!(a.status, StatusCode::OK, "{query}: {}", a.text);
    a.text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            v["id"].as_str().unwrap().to_string()
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_players_games_are_found_by_game_speed_and_result() {
    let t = TestApp::new();
    let ann = account(&t, "ann").await;
    let bob = account(&t, "bob").await;
    let cat = account(&t, "cat").await;
    let blitz = json!({ "base_seconds": 180, "increment_seconds": 2 });
    let bullet = json!({ "base_seconds": 60 });
    let chess = |clock: &Value| json!({ "variant": "chess", "color": "white", "clock": clock });
    // Ann wins a blitz game of chess against Bob, loses a correspondence
    // one to Cat (Cat white), and draws a bullet Tensor game with Bob.
    let won = played(
        &t,
        (&ann, &bob),
        chess(&blitz),
        &["e2e4", "e7e5"],
        "black resigns",
    )
    .await;
    let lost = played(
        &t,
        (&cat, &ann),
        chess(&Value::Null),
        &["e2e4", "d7d5"],
        "black resigns",
    )
    .await;
    let tensor = json!({ "variant": "tensor", "color": "white", "clock": bullet });
    let drawn = played(&t, (&ann, &bob), tensor, &["e2e4", "e7e5"], "draw").await;
    let (won, lost, drawn) = (won.as_str(), lost.as_str(), drawn.as_str());
    // The position search reads the explorer, which counts a game once it
    // has ended (in the background).
    wait_until("the explorer counts the chess games", || async {
        let a = t.get("/api/explorer?variant=chess", None).await;
        a.body["white"].as_i64().unwrap_or(0) == 2
    })
    .await;

    assert_eq!(found(&t, "ann", "").await, [drawn, lost, won]);
    assert_eq!(found(&t, "ann", "result=win").await, [won]);
    assert_eq!(found(&t, "ann", "result=loss").await, [lost]);
    assert_eq!(found(&t, "ann", "result=draw").await, [drawn]);
    // The same games from the other side.
    assert_eq!(found(&t, "cat", "result=win").await, [lost]);
    assert!(found(&t, "bob", "result=win").await.is_empty());
    assert_eq!(found(&t, "ann", "variant=chess").await, [lost, won]);
    assert_eq!(found(&t, "ann", "variant=standard").await, [lost, won]);
    assert_eq!(found(&t, "ann", "variant=tensor").await, [drawn]);
    assert_eq!(found(&t, "ann", "speeds=blitz").await, [won]);
    assert_eq!(
        found(&t, "ann", "speeds=bullet,correspondence").await,
        [drawn, lost]
    );
    assert!(found(&t, "ann", "speeds=rapid").await.is_empty());
    // With the other filters: by opponent, and by a position reached.
    assert_eq!(found(&t, "ann", "vs=bob&result=draw").await, [drawn]);
    assert!(found(&t, "ann", "vs=cat&result=win").await.is_empty());
    assert_eq!(
        found(&t, "ann", "variant=chess&play=e2e4,d7d5&result=loss").await,
        [lost]
    );
    assert!(found(&t, "ann", "variant=chess&play=e2e4,e7e5&result=loss")
        .await
        .is_empty());

    for (query, says) in [
        ("result=won", "Unknown result 'won'"),
        ("speeds=fast", "Unknown speed 'fast'"),
        ("variant=go", "Unknown variant 'go'"),
    ] {
        let a = t.get(&format!("/api/games/user/ann?{query}"), None).await;
        assert_eq!(a.status, StatusCode::BAD_REQUEST, "{query}: {}", a.text);
        assert!(a.text.contains(says), "{query}: {}", a.text);
    }
}
