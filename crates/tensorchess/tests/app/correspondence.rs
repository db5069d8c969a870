//! Correspondence games: days per move instead of a clock, each move
//! starting the mover's time again; a move not made in time loses (the
//! server's timer, driven by the test clock); "your turn" lists the games
//! waiting for a player's move; rated ones move a rating of their own;
//! challenges are capped per address as well as per player.

use crate::common::online::*;
use axum::http::StatusCode;
use serde_json::{json, Value};
use tensorchess::server::clock::Clock;

const DAY: i64 = 86_400_000;

/// Ann (White) and Bob in an accepted correspondence challenge.
async fn corr_game(t: &TestApp, days: u32, rated: bool) -> (String, String, String) {
    let ann = account(t, "ann").await;
    let bob = account(t, "bob").await;
    let (made, game) = accepted_challenge(
        t,
        &ann,
        &bob,
        "bob",
        json!({ "variant": "chess", "days": days, "rated": rated, "color": "white" }),
    )
    .await;
    assert_eq!(made["days"], days);
    assert_eq!(made["clock"], Value::Null);
    (game, ann, bob)
}

async fn turns(t: &TestApp, cookie: &str) -> Value {
    let a = t.get("/api/correspondence", Some(cookie)).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    a.body
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn days_per_move_start_again_after_each_move_and_a_late_move_loses() {
    let t = TestApp::new();
    let (id, ann, bob) = corr_game(&t, 3, false).await;
    let view = t.game(&id).await;
    let clock = &view["online"]["clock"];
    assert_eq!(clock["days"], 3, "{view}");
    assert_eq!(clock["base_ms"], 3 * DAY);
    assert_eq!(clock["increment_ms"], 0);
    // A first move may take the days too (not the real-time minute).
    assert_eq!(clock["first_move_ms"], 3 * DAY);
    assert_eq!(turns(&t, &ann).await["your_turn"], 1);
    assert_eq!(turns(&t, &bob).await["your_turn"], 0);

    t.clock.advance(2 * DAY);
    let a = t.play(&id, &ann, "e2e4", 0).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    assert_eq!(turns(&t, &ann).await["your_turn"], 0);
    let bob_list = turns(&t, &bob).await;
    assert_eq!(bob_list["your_turn"], 1);
    let g = &bob_list["games"][0];
    assert_eq!(g["id"], id.as_str());
    assert_eq!(
        (g["color"].as_str(), g["opponent"].as_str()),
        (Some("black"), Some("ann"))
    );
    assert_eq!(g["days"], 3);
    t.clock.advance(DAY);
    assert_eq!(t.play(&id, &bob, "e7e5", 1).await.status, StatusCode::OK);
    // Both have moved: Ann's time runs, three whole days.
    t.clock.advance(2 * DAY + 3_600_000);
    let a = t.play(&id, &ann, "g1f3", 2).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let clock = &t.game(&id).await["online"]["clock"];
    assert_eq!(
        clock["white_ms"],
        3 * DAY,
        "the mover's days start again: {clock}"
    );
    assert_eq!(clock["black_ms"], 3 * DAY);
    assert_eq!(clock["running"], "black");
    // Bob does not move in three days: the server's timer ends the game.
    let now = t.clock.now_ms();
    t.armed_for(now + 3 * DAY).await;
    t.clock.advance(3 * DAY);
    let over = t
        .wait_for(&id, "the flag", |g| g["end"] != Value::Null)
        .await;
    assert_eq!(over["end"]["result"], "1-0", "{over}");
    assert_eq!(over["end"]["reason"], "timeout");
    assert_eq!(turns(&t, &bob).await["games"], json!([]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rated_correspondence_moves_its_own_rating() {
    let t = TestApp::new();
    let (id, ann, bob) = corr_game(&t, 1, true).await;
    assert_eq!(t.play(&id, &ann, "e2e4", 0).await.status, StatusCode::OK);
    assert_eq!(t.play(&id, &bob, "e7e5", 1).await.status, StatusCode::OK);
    let a = t.act(&id, Some(&bob), json!({ "type": "resign" })).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let me = t.get("/api/me", Some(&ann)).await.body;
    let ratings = &me["ratings"];
    assert_eq!(ratings["correspondence"]["chess"]["games"], 1, "{me}");
    assert!(
        ratings["correspondence"]["chess"]["rating"]
            .as_f64()
            .unwrap()
            > 1500.0
    );
    assert_eq!(
        ratings["chess"]["games"], 0,
        "the real-time rating is untouched"
    );
}

async fn challenge_from(t: &TestApp, cookie: Option<&str>, client: &str, to: &str) -> Answer {
    let peer: std::net::SocketAddr = "127.0.0.1:40000".parse().unwrap();
    let mut b = axum::http::Request::post("/api/challenges")
        .header("content-type", "application/json")
        .header("x-forwarded-for", client)
        .extension(axum::extract::ConnectInfo(peer));
    if let Some(c) = cookie {
        b = b.header("cookie", c);
    }
    let body = json!({ "to": to, "days": 7 }).to_string();
    t.send(b.body(axum::body::Body::from(body)).unwrap()).await
}

#[tokio::test]
async fn fresh_guests_from_one_address_make_only_so_many_challenges() {
    use tensorchess::server::challenges::MAX_CHALLENGES_PER_ADDRESS;
    let t = TestApp::with(|c| tensorchess::server::ServerConfig {
        proxies: tensorchess::server::client::Proxies::new(["127.0.0.1".parse().unwrap()], false),
        ..c
    });
    // Three from one address reach one player (a stranger's inbox cap):
    // the guests spread over eleven players.
    let players = MAX_CHALLENGES_PER_ADDRESS.div_ceil(3) + 1;
    for p in 0..players {
        account(&t, &format!("ann{p}")).await;
    }
    for i in 0..MAX_CHALLENGES_PER_ADDRESS {
        let to = format!("ann{}", i / 3);
        let a = challenge_from(&t, None, "203.0.113.9", &to).await;
        assert_eq!(a.status, StatusCode::CREATED, "guest {i}: {}", a.text);
        t.clock.advance(1_000); // under the address's rate of writes
    }
    let last = format!("ann{}", players - 1);
    let a = challenge_from(&t, None, "203.0.113.9", &last).await;
    expect_refused(&a, StatusCode::TOO_MANY_REQUESTS, "too_many");
    let other = challenge_from(&t, None, "198.51.100.9", "ann0").await;
    assert_eq!(other.status, StatusCode::CREATED, "{}", other.text);
}

/// A player's own games list: whose move it is while a game goes on, from
/// each player's side, and which games are correspondence.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_games_list_says_whose_move_and_marks_correspondence() {
    let t = TestApp::new();
    let (id, ann, bob) = corr_game(&t, 3, false).await;
    let line = |list: &Value| {
        list["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["id"] == id.as_str())
            .cloned()
            .unwrap_or_else(|| panic!("{id} is listed: {list}"))
    };
    let games = |cookie: String| {
        let t = &t;
        async move {
            let a = t.get("/api/games", Some(&cookie)).await;
            assert_eq!(a.status, StatusCode::OK, "{}", a.text);
            a.body
        }
    };
    let a = line(&games(ann.clone()).await);
    assert_eq!(
        (&a["you"], &a["to_move"], &a["your_turn"], &a["days"]),
        (&json!("white"), &json!("white"), &json!(true), &json!(3)),
        "{a}"
    );
    let b = line(&games(bob.clone()).await);
    assert_eq!(
        (&b["you"], &b["your_turn"]),
        (&json!("black"), &json!(false))
    );
    // The players' accounts, for links to their profiles.
    assert_eq!(
        (&b["white_account"], &b["black_account"]),
        (&json!("ann"), &json!("bob"))
    );
    assert_eq!(t.play(&id, &ann, "e2e4", 0).await.status, StatusCode::OK);
    let a = line(&games(ann.clone()).await);
    let b = line(&games(bob.clone()).await);
    assert_eq!(
        (&a["to_move"], &a["your_turn"]),
        (&json!("black"), &json!(false))
    );
    assert_eq!(b["your_turn"], true, "{b}");
    // Over: nobody's move. A game against the engine is the player's own
    // side's, and not correspondence.
    let r = t
        .post(
            &format!("/api/games/{id}/act"),
            Some(&bob),
            json!({ "type": "resign" }),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let b = line(&games(bob.clone()).await);
    assert_eq!(
        (&b["to_move"], &b["your_turn"]),
        (&Value::Null, &json!(false))
    );
    let made = t
        .post(
            "/api/games",
            Some(&ann),
            json!({ "mode": "engine", "variant": "chess", "color": "black", "level": 1 }),
        )
        .await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
    let engine_id = made.body["id"].as_str().unwrap().to_string();
    let list = games(ann.clone()).await;
    let e = list["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == engine_id.as_str())
        .unwrap();
    assert_eq!(
        (&e["you"], &e["days"]),
        (&json!("black"), &Value::Null),
        "{e}"
    );
}
