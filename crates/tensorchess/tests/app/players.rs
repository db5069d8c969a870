//! Players on a public server: identities, names, accounts and sessions,
//! whose games are whose (a stranger gets 404 on every route of another's
//! local game), and Glicko-2 ratings from rated games.

use crate::common::TestApp;
use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use serde_json::{json, Value};
use std::sync::Arc;
use tensorchess::server::clock::ManualClock;
use tensorchess::server::ServerConfig;

#[tokio::test]
async fn every_browser_is_a_player_with_a_name_it_can_change() {
    let t = TestApp::new();
    let (status, me) = t.get("/api/me").await;
    assert_eq!(status, StatusCode::OK);
    let id = me["id"].as_str().unwrap().to_string();
    assert!(me["name"].as_str().unwrap().starts_with("Guest"));
    assert_eq!(me["account"], Value::Null);
    for game in ["tensor", "chess", "chessence"] {
        assert_eq!(me["ratings"][game]["rating"], 1500.0);
        assert_eq!(me["ratings"][game]["rd"], 350.0);
        assert_eq!(me["ratings"][game]["volatility"], 0.06);
        assert_eq!(me["ratings"][game]["games"], 0);
    }
    // The cookie keeps the player.
    let (_, again) = t.get("/api/me").await;
    assert_eq!(again["id"], id.as_str());
    assert!(t.identity().starts_with("tcid="));
    // Another browser is another player.
    let (_, other) = t.stranger().get("/api/me").await;
    assert_ne!(other["id"], id.as_str());

    let (status, me) = t
        .call(
            Method::PATCH,
            "/api/me",
            Some(json!({ "name": "  Оксана \n Ч. " })),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{me}");
    assert_eq!(me["name"], "Оксана Ч.");
    assert_eq!(me["id"], id.as_str(), "naming oneself keeps one's id");
    assert_eq!(t.get("/api/me").await.1["name"], "Оксана Ч.");
    for bad in ["".to_string(), "   ".to_string(), "x".repeat(41)] {
        let (status, err) = t
            .call(Method::PATCH, "/api/me", Some(json!({ "name": bad })))
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{err}");
    }
    let forty = "ї".repeat(40);
    let (status, _) = t
        .call(Method::PATCH, "/api/me", Some(json!({ "name": forty })))
        .await;
    assert_eq!(status, StatusCode::OK, "40 characters are fine");
}

#[tokio::test]
async fn a_stranger_gets_404_on_every_route_of_another_players_local_game() {
    let t = TestApp::new();
    let game = t
        .create(json!({ "mode": "engine", "level": 1, "variant": "chess" }))
        .await;
    let id = game["id"].as_str().unwrap();
    let s = t.stranger();
    let g = format!("/api/games/{id}");
    let routes: Vec<(Method, String, Option<Value>)> = vec![
        (Method::GET, g.clone(), None),
        (Method::DELETE, g.clone(), None),
        (
            Method::POST,
            format!("{g}/moves"),
            Some(json!({ "move": "e2e4" })),
        ),
        (Method::POST, format!("{g}/takeback"), Some(json!({}))),
        (Method::POST, format!("{g}/resign"), Some(json!({}))),
        (Method::POST, format!("{g}/draw"), Some(json!({}))),
        (Method::POST, format!("{g}/hint"), Some(json!({}))),
        (Method::GET, format!("{g}/eval"), None),
        (Method::GET, format!("{g}/pgn"), None),
        (Method::POST, format!("{g}/join"), Some(json!({}))),
        (
            Method::POST,
            format!("{g}/act"),
            Some(json!({ "type": "resign" })),
        ),
    ];
    for (method, uri, body) in routes {
        let (status, err) = s.call(method.clone(), &uri, body).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{method} {uri}: {err}");
        assert_eq!(err["kind"], "not_found", "{method} {uri}");
        assert_eq!(
            err["error"],
            format!("There is no game {id}"),
            "as if it did not exist"
        );
    }
    // The game is untouched, and listed for its owner only.
    let (status, mine) = t.get(&g).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(mine["moves"], json!([]));
    assert!(mine["end"].is_null());
    assert_eq!(
        t.get("/api/games").await.1["games"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    assert_eq!(s.get("/api/games").await.1["games"], json!([]));
}

#[tokio::test]
async fn the_games_list_pages_newest_first_with_a_cursor() {
    // Each game a millisecond newer than the last, on a clock of the test's.
    let clock = Arc::new(ManualClock::new(1_700_000_000_000));
    let t = TestApp::with_config(ServerConfig {
        clock: clock.clone(),
        ..ServerConfig::default()
    });
    let mut made = Vec::new();
    for _ in 0..7 {
        made.push(
            t.create(json!({ "mode": "local" })).await["id"]
                .as_str()
                .unwrap()
                .to_string(),
        );
        clock.advance(1);
    }
    let mut seen = Vec::new();
    let mut uri = "/api/games?limit=3".to_string();
    loop {
        let (status, page) = t.get(&uri).await;
        assert_eq!(status, StatusCode::OK, "{page}");
        let games = page["games"].as_array().unwrap();
        assert!(games.len() <= 3);
        seen.extend(games.iter().map(|g| g["id"].as_str().unwrap().to_string()));
        match page["next"].as_str() {
            Some(next) => uri = format!("/api/games?limit=3&cursor={next}"),
            None => break,
        }
    }
    made.reverse();
    assert_eq!(seen, made, "newest first, each once");
    // At most 100 a page, whatever is asked.
    let (status, page) = t.get("/api/games?limit=1000").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(page["games"].as_array().unwrap().len(), 7);
    let (status, _) = t.get("/api/games?cursor=nonsense").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    // Moves are counted as players count them.
    let id = &made[0];
    for (ply, mv) in ["e2e4", "e7e5", "d2d4"].into_iter().enumerate() {
        let (status, _) = t
            .post(
                &format!("/api/games/{id}/moves"),
                json!({ "move": mv, "ply": ply }),
            )
            .await;
        assert_eq!(status, StatusCode::OK);
    }
    let (_, page) = t.get("/api/games?limit=1").await;
    assert_eq!(page["games"][0]["move_count"], 3);
    assert_eq!(page["games"][0]["moves"], 2);
}

#[tokio::test]
async fn accounts_register_log_in_and_out_with_new_sessions() {
    let t = TestApp::new();
    let game = t.create(json!({ "mode": "local" })).await;
    let id = game["id"].as_str().unwrap().to_string();
    let guest = t.identity();
    let me = t.register("Ada_1").await;
    assert_eq!(me["account"], "Ada_1");
    assert_eq!(me["name"], "Ada_1");
    let session = t.identity();
    assert_ne!(session, guest, "the session id changes at login");
    // Registering keeps the player's games.
    assert_eq!(t.get(&format!("/api/games/{id}")).await.0, StatusCode::OK);
    // The token from before counts no more (no session fixation).
    let old = t.stranger();
    *old.cookie.lock().unwrap() = Some(guest.clone());
    let (_, who) = old.get("/api/me").await;
    assert_ne!(who["account"], "Ada_1");
    assert_eq!(
        old.get(&format!("/api/games/{id}")).await.0,
        StatusCode::NOT_FOUND
    );

    // Names are unique, ignoring case; bad ones are refused.
    let other = t.stranger();
    let (status, err) = other
        .post(
            "/api/account/register",
            json!({ "username": "ADA_1", "password": "another one" }),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{err}");
    assert_eq!(err["kind"], "name_taken");
    for (username, password) in [
        ("a", "long enough"),
        ("ada lovelace", "long enough"),
        ("ada2", "short"),
    ] {
        let (status, _) = other
            .post(
                "/api/account/register",
                json!({ "username": username, "password": password }),
            )
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{username}");
    }
    // Log in from another browser: a wrong password is 401, the right one
    // is the same player; a guest's games come along.
    let phone = t.stranger();
    let guest_game = phone.create(json!({ "mode": "local" })).await;
    let gid = guest_game["id"].as_str().unwrap().to_string();
    let (status, err) = phone
        .post(
            "/api/account/login",
            json!({ "username": "ada_1", "password": "wrong horse" }),
        )
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{err}");
    assert_eq!(err["kind"], "unauthorized");
    let (status, err) = phone
        .post(
            "/api/account/login",
            json!({ "username": "nobody", "password": "whatever1" }),
        )
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{err}");
    let (status, me2) = phone
        .post(
            "/api/account/login",
            json!({ "username": "ada_1", "password": "correct horse" }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{me2}");
    assert_eq!(me2["id"], me["id"]);
    let (_, list) = phone.get("/api/games").await;
    let ids: Vec<&str> = list["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert!(
        ids.contains(&id.as_str()) && ids.contains(&gid.as_str()),
        "{ids:?}"
    );
    assert_eq!(t.get(&format!("/api/games/{gid}")).await.0, StatusCode::OK);

    // Log out: a new guest; the session's cookie counts no more.
    let session = phone.identity();
    let (status, guest) = phone.post("/api/account/logout", json!({})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(guest["account"], Value::Null);
    assert_ne!(guest["id"], me["id"]);
    let replay = t.stranger();
    *replay.cookie.lock().unwrap() = Some(session);
    assert_eq!(replay.get("/api/me").await.1["account"], Value::Null);

    // The public profile.
    let (status, profile) = t.stranger().get("/api/players/ada_1").await;
    assert_eq!(status, StatusCode::OK, "{profile}");
    assert_eq!(profile["username"], "Ada_1");
    assert_eq!(profile["ratings"]["tensor"]["rating"], 1500.0);
    assert_eq!(profile["games"], json!([]), "local games are private");
    assert_eq!(t.get("/api/players/nobody").await.0, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_request_sent_before_registering_does_not_log_the_page_out() {
    let t = TestApp::new();
    t.get("/api/me").await;
    let guest = t.identity();
    t.register("Grace_1").await;
    // The page's call that left before the registration's answer, carrying
    // the guest's cookie, is answered after it: as nobody in particular,
    // and without a cookie that would replace the account's.
    let late = t.stranger();
    *late.cookie.lock().unwrap() = Some(guest.clone());
    let res = late
        .response(Request::get("/api/site").body(Body::empty()).unwrap())
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let cookies: Vec<_> = res.headers().get_all(header::SET_COOKIE).iter().collect();
    assert!(
        !cookies.iter().any(|c| c.as_bytes().starts_with(b"tcid=")),
        "{cookies:?}"
    );
    assert_eq!(t.get("/api/me").await.1["account"], "Grace_1");
    // A page load with the old cookie starts a new guest.
    let res = late
        .response(Request::get("/").body(Body::empty()).unwrap())
        .await;
    let fresh = res
        .headers()
        .get_all(header::SET_COOKIE)
        .iter()
        .filter_map(|c| c.to_str().ok())
        .find(|c| c.starts_with("tcid="))
        .map(|c| c.split(';').next().unwrap_or_default().to_string());
    assert!(fresh.is_some_and(|c| c != guest));
}

#[tokio::test]
async fn login_attempts_are_limited_per_name() {
    let t = TestApp::new();
    t.register("target").await;
    let attacker = t.stranger();
    let mut limited = None;
    for i in 0..20 {
        let (status, err) = attacker
            .post(
                "/api/account/login",
                json!({ "username": "target", "password": format!("guess {i:04}") }),
            )
            .await;
        if status == StatusCode::TOO_MANY_REQUESTS {
            assert_eq!(err["kind"], "rate_limited");
            limited = Some(i);
            break;
        }
        assert_eq!(status, StatusCode::UNAUTHORIZED);
    }
    let limited = limited.expect("guessing is slowed down");
    assert!((3..=10).contains(&limited), "after {limited} tries");
    // Even the right password waits now: the name is being guessed.
    let (status, _) = attacker
        .post(
            "/api/account/login",
            json!({ "username": "TARGET", "password": "correct horse" }),
        )
        .await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
}

/// Two players with accounts: a rated game from a seek, then `loser` resigns.
async fn rated_game(variant: &str) -> (TestApp, TestApp, String) {
    let a = TestApp::new();
    a.register("alice").await;
    let b = a.stranger();
    b.register("bob").await;
    let (status, seek) = a
        .post(
            "/api/seeks",
            json!({ "variant": variant, "clock": { "base_seconds": 300, "increment_seconds": 3 },
                    "rated": true, "color": "white" }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{seek}");
    let (status, game) = b
        .post(
            &format!("/api/seeks/{}/accept", seek["id"].as_str().unwrap()),
            json!({}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{game}");
    assert_eq!(game["you"], "black");
    assert_eq!(game["white"], "alice");
    assert_eq!(game["black"], "bob");
    assert_eq!(game["online"]["rated"], true);
    assert_eq!(game["online"]["ratings"], json!([1500, 1500]));
    (a, b, game["id"].as_str().unwrap().to_string())
}

#[tokio::test]
async fn a_rated_result_changes_both_ratings_by_glicko_2() {
    let (alice, bob, id) = rated_game("tensor").await;
    for (player, mv, ply) in [(&alice, "e2e4", 0), (&bob, "e7e5", 1)] {
        let (status, g) = player
            .post(
                &format!("/api/games/{id}/act"),
                json!({ "type": "move", "move": mv, "ply": ply }),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{g}");
    }
    let (status, g) = bob
        .post(&format!("/api/games/{id}/act"), json!({ "type": "resign" }))
        .await;
    assert_eq!(status, StatusCode::OK, "{g}");
    assert_eq!(g["end"]["result"], "1-0");
    let diffs = g["online"]["rating_diffs"].as_array().unwrap();
    assert!(
        diffs[0].as_i64().unwrap() > 0 && diffs[1].as_i64().unwrap() < 0,
        "{g}"
    );
    // Two new players at 1500/350: the winner gains what the loser loses.
    let (_, a) = alice.get("/api/me").await;
    let (_, b) = bob.get("/api/me").await;
    let (ra, rb) = (&a["ratings"]["tensor"], &b["ratings"]["tensor"]);
    assert!(ra["rating"].as_f64().unwrap() > 1600.0, "{ra}");
    assert!(rb["rating"].as_f64().unwrap() < 1400.0, "{rb}");
    let sum = ra["rating"].as_f64().unwrap() + rb["rating"].as_f64().unwrap();
    assert!((sum - 3000.0).abs() < 0.1, "{sum}");
    assert!(ra["rd"].as_f64().unwrap() < 350.0);
    assert_eq!(
        (ra["games"].clone(), rb["games"].clone()),
        (json!(1), json!(1))
    );
    // Other games' ratings are untouched; the profile shows the game.
    assert_eq!(a["ratings"]["chess"]["games"], 0);
    let (_, profile) = bob.get("/api/players/alice").await;
    assert_eq!(profile["ratings"]["tensor"], a["ratings"]["tensor"]);
    assert_eq!(profile["games"][0]["id"], id.as_str());
    // It is stored: after a restart the ratings are the same.
    let again = alice.restart();
    assert_eq!(again.get("/api/me").await.1["ratings"], a["ratings"]);
}

#[tokio::test]
async fn an_aborted_rated_game_changes_nothing() {
    let (alice, _bob, id) = rated_game("chess").await;
    let (status, g) = alice
        .post(&format!("/api/games/{id}/act"), json!({ "type": "abort" }))
        .await;
    assert_eq!(status, StatusCode::OK, "{g}");
    assert_eq!(g["end"]["reason"], "aborted");
    assert_eq!(g["online"]["rating_diffs"], json!([null, null]));
    let (_, a) = alice.get("/api/me").await;
    assert_eq!(a["ratings"]["chess"]["games"], 0);
    assert_eq!(a["ratings"]["chess"]["rating"], 1500.0);
}
