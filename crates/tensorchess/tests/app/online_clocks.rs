//! Online play against the clock and the server's housekeeping: clocks on
//! a manual clock (flag fall, increments, the first-move minute, the restart
//! policy), API and WebSocket rate limits, and eviction from memory. On
//! SQLite, or on PostgreSQL with `TENSORCHESS_TEST_BACKEND=postgres`.

use crate::common::online::*;
use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tensorchess::server::app;
use tensorchess::server::clock::Clock;
use tensorchess::server::ratelimit::RateLimit;
use tensorchess::server::ServerConfig;

#[tokio::test]
async fn clocks_start_after_both_first_moves_add_increments_and_flag_without_a_move() {
    let t = TestApp::new();
    let (id, white, black) = t
        .started(json!({ "base_seconds": 60, "increment_seconds": 2 }))
        .await;
    let clock = |g: &Value| {
        let c = &g["online"]["clock"];
        (
            c["white_ms"].as_i64().unwrap(),
            c["black_ms"].as_i64().unwrap(),
            c["running"].clone(),
        )
    };
    assert_eq!(clock(&t.game(&id).await), (60_000, 60_000, Value::Null));
    t.clock.advance(10_000);
    t.play(&id, &white, "e2e4", 0).await;
    t.clock.advance(10_000);
    assert_eq!(
        clock(&t.game(&id).await),
        (60_000, 60_000, Value::Null),
        "no clock before both have moved"
    );
    let r = t.play(&id, &black, "e7e5", 1).await;
    assert_eq!(
        clock(&r.body),
        (60_000, 60_000, json!("white")),
        "White's clock starts after Black's first move"
    );
    t.clock.advance(5_000);
    assert_eq!(clock(&t.game(&id).await), (55_000, 60_000, json!("white")));
    let r = t.play(&id, &white, "d2d4", 2).await;
    assert_eq!(
        clock(&r.body),
        (57_000, 60_000, json!("black")),
        "5 s used, 2 s added"
    );
    t.clock.advance(3_000);
    let r = t.play(&id, &black, "d7d5", 3).await;
    assert_eq!(clock(&r.body), (57_000, 59_000, json!("white")));
    // Abort is over once both have moved.
    let r = t.act(&id, Some(&white), json!({ "type": "abort" })).await;
    expect_refused(&r, StatusCode::CONFLICT, "too_late");

    // Nobody moves: the flag falls by itself, exactly on time.
    t.clock.advance(56_999);
    t.armed_for(t.clock.now_ms() + 1).await;
    let g = t.game(&id).await;
    assert!(g["end"].is_null(), "1 ms left: {g}");
    assert_eq!(clock(&g).0, 1);
    t.clock.advance(1);
    let g = t.wait_for(&id, "the flag", |g| g["end"].is_object()).await;
    assert_eq!(g["end"]["reason"], "timeout");
    assert_eq!(g["end"]["result"], "0-1");
    assert_eq!(g["end"]["title"], "White lost on time");
    assert_eq!(clock(&g), (0, 59_000, Value::Null));
    let r = t.play(&id, &white, "g1f3", 4).await;
    expect_refused(&r, StatusCode::CONFLICT, "game_over");
    // It is stored: a new server reads the same result.
    let t2 = t.reopen();
    let g = t2.game(&id).await;
    assert_eq!(g["end"]["reason"], "timeout");
    assert_eq!(clock(&g), (0, 59_000, Value::Null));
}

#[tokio::test]
async fn a_side_that_does_not_make_its_first_move_in_time_aborts_the_game() {
    let t = TestApp::new();
    let first_move_ms = |g: &Value| g["online"]["clock"]["first_move_ms"].clone();
    let (id, white, black) = t.started(json!({ "base_seconds": 300 })).await;
    assert_eq!(first_move_ms(&t.game(&id).await), 60_000);
    // White moves with a second to spare; then Black's minute starts.
    t.clock.advance(59_000);
    assert_eq!(first_move_ms(&t.game(&id).await), 1_000);
    let r = t.play(&id, &white, "e2e4", 0).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(first_move_ms(&r.body), 60_000);
    t.clock.advance(59_999);
    t.armed_for(t.clock.now_ms() + 1).await;
    assert!(t.game(&id).await["end"].is_null(), "1 ms left");
    t.clock.advance(1);
    let g = t.wait_for(&id, "the abort", |g| g["end"].is_object()).await;
    assert_eq!(g["end"]["reason"], "aborted");
    assert_eq!(g["end"]["result"], "*");
    assert_eq!(
        g["end"]["text"],
        "Black did not make a first move in time: no result"
    );
    assert_eq!(first_move_ms(&g), Value::Null);
    assert_eq!(g["online"]["clock"]["black_ms"], 300_000, "no clock ran");
    let r = t.play(&id, &black, "e7e5", 1).await;
    expect_refused(&r, StatusCode::CONFLICT, "game_over");
    // Stored with its cause.
    let t2 = t.reopen();
    let g = t2.game(&id).await;
    assert_eq!(
        g["end"]["text"],
        "Black did not make a first move in time: no result"
    );
    let row = t2.listed(&id, &black).await;
    assert_eq!(row["end_reason"], "black_did_not_move");

    // Once both sides have moved there is no such wait, only the clock.
    let (id, white, black) = t.started(json!({ "base_seconds": 300 })).await;
    t.play(&id, &white, "e2e4", 0).await;
    let r = t.play(&id, &black, "e7e5", 1).await;
    assert_eq!(first_move_ms(&r.body), Value::Null);
    assert_eq!(r.body["online"]["clock"]["running"], "white");

    // Without a clock nobody is hurried.
    let (id, _, _) = t.started(Value::Null).await;
    assert_eq!(t.game(&id).await["online"]["clock"], Value::Null);
    assert!(!t.has_timer(&id).await, "no timer runs without a clock");
    t.clock.advance(3_600_000);
    assert!(t.game(&id).await["end"].is_null());

    // A game still waiting for White after a restart: the minute starts again
    // when the new server loads it.
    let (id, _, _) = t.started(json!({ "base_seconds": 300 })).await;
    t.clock.advance(50_000);
    t.state.close().await;
    let t3 = t.reopen();
    assert_eq!(first_move_ms(&t3.game(&id).await), 60_000);
    t3.clock.advance(60_000);
    let g = t3
        .wait_for(&id, "the abort", |g| g["end"].is_object())
        .await;
    assert_eq!(
        g["end"]["text"],
        "White did not make a first move in time: no result"
    );
}

/// The refusal of a move that arrived after its side's flag fell.
fn expect_time_ran_out(r: &Answer) {
    expect_refused(r, StatusCode::CONFLICT, "game_over");
    assert!(
        r.body["error"].as_str().unwrap().contains("time ran out"),
        "{}",
        r.text
    );
}

#[tokio::test]
async fn a_move_after_the_flag_ends_the_game_on_time() {
    let t = TestApp::new();
    let (id, white, black) = t.started(json!({ "base_seconds": 10 })).await;
    t.play(&id, &white, "e2e4", 0).await;
    t.play(&id, &black, "e7e5", 1).await;
    t.clock.advance(10_001);
    // The move is checked against the clock before the timer has had a turn.
    let r = t.play(&id, &white, "d2d4", 2).await;
    expect_time_ran_out(&r);
    let g = t.game(&id).await;
    assert_eq!(g["end"]["reason"], "timeout");
    assert_eq!(g["moves"].as_array().unwrap().len(), 2);

    // The timer first: the late move is told the same.
    let (id, white, black) = t.started(json!({ "base_seconds": 10 })).await;
    t.play(&id, &white, "e2e4", 0).await;
    t.play(&id, &black, "e7e5", 1).await;
    t.clock.advance(10_001);
    t.wait_for(&id, "the flag", |g| g["end"].is_object()).await;
    let r = t.play(&id, &white, "d2d4", 2).await;
    expect_time_ran_out(&r);
    // Black, whose time did not run out, is told the game is over.
    let r = t.play(&id, &black, "d7d5", 2).await;
    expect_refused(&r, StatusCode::CONFLICT, "game_over");
    assert!(!r.body["error"].as_str().unwrap().contains("time ran out"));
}

#[tokio::test]
async fn clock_time_does_not_run_while_the_server_is_down() {
    let t = TestApp::new();
    let (id, white, black) = t.started(json!({ "base_seconds": 60 })).await;
    t.play(&id, &white, "e2e4", 0).await;
    t.play(&id, &black, "e7e5", 1).await; // White's clock starts now
    t.clock.advance(7_000);
    t.state.games.heartbeat().await.unwrap(); // the server was seen up at 7 s
    t.clock.advance(2_000);
    // The server is killed: no goodbye. Its last heartbeat was at 7 s.
    let mut t = t;
    let (dir, clock, path, pg) = (t.dir.take(), t.clock.clone(), t.db.clone(), t.pg.clone());
    drop(t);
    // An hour of downtime, then a new server.
    clock.advance(3_600_000);
    let state = open_state(&path, &pg, config(&clock));
    let t = TestApp {
        router: app(state.clone()),
        state,
        clock,
        db: path.clone(),
        dir,
        pg,
    };
    // The game resumes by itself (its clock runs) and is charged 7 s: the
    // two seconds after the last heartbeat are lost with the server.
    let start = Instant::now();
    while t.state.games.live_games() == 0 {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "the running game was not resumed"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let g = t.game(&id).await;
    assert_eq!(g["online"]["clock"]["white_ms"], 53_000, "{}", g["online"]);
    assert_eq!(g["online"]["clock"]["running"], "white");
    t.clock.advance(5_000);
    assert_eq!(t.game(&id).await["online"]["clock"]["white_ms"], 48_000);
    // A graceful stop notes the exact time; the next server goes on from there.
    t.state.close().await;
    t.clock.advance(600_000);
    let t3 = t.reopen();
    let g = t3.game(&id).await;
    assert_eq!(g["online"]["clock"]["white_ms"], 48_000);
    assert_eq!(g["end"], Value::Null);
    // White moves on the new server; then Black's flag falls there without anyone moving.
    t3.clock.advance(1_000);
    let r = t3.play(&id, &white, "d2d4", 2).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["online"]["clock"]["white_ms"], 47_000);
    t3.clock.advance(60_000);
    let g = t3
        .wait_for(&id, "Black's flag", |g| g["end"].is_object())
        .await;
    assert_eq!(g["end"]["result"], "1-0");
    // Nothing acknowledged was lost on the way.
    let stored = t3.open_store().load_game(&id).await.unwrap().unwrap();
    let moves: Vec<_> = stored.moves.iter().map(|m| m.uci.as_str()).collect();
    assert_eq!(moves, ["e2e4", "e7e5", "d2d4"]);
}

#[tokio::test]
async fn api_writes_are_limited_per_client_address() {
    let t = TestApp::with(|c| ServerConfig {
        write_limit: RateLimit {
            burst: 3,
            per_second: 1.0,
        },
        ..c
    });
    // A request as if from `client` over a real connection.
    let from = |client: &str, method: Method, uri: &str, body: Option<Value>| {
        let addr: SocketAddr = client.parse().unwrap();
        let mut req = Request::builder().method(method.clone()).uri(uri);
        req = req.extension(axum::extract::ConnectInfo(addr));
        if method != Method::GET {
            req = req.header(header::CONTENT_TYPE, "application/json");
        }
        match body {
            Some(v) => req.body(Body::from(v.to_string())).unwrap(),
            None => req.body(Body::empty()).unwrap(),
        }
    };
    let far = "203.0.113.7:50000";
    let new_game = |client: &str| {
        let body = json!({ "variant": "chess", "mode": "local" });
        from(client, Method::POST, "/api/games", Some(body))
    };
    for _ in 0..3 {
        let a = t.send(new_game(far)).await;
        assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    }
    let a = t.send(new_game(far)).await;
    assert_eq!(a.status, StatusCode::TOO_MANY_REQUESTS, "{}", a.text);
    assert_eq!(a.body["kind"], "rate_limited");
    assert_eq!(a.body["error"], "Too many requests: try again in 1 s");
    // Reads, and legal moves of a position (nothing stored), still answer.
    let a = t.send(from(far, Method::GET, "/api/games", None)).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let a = t
        .send(from(
            far,
            Method::POST,
            "/api/position",
            Some(json!({ "variant": "chess" })),
        ))
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    // Another client is not limited; loopback is limited like any other
    // address (behind a proxy on this machine, every visitor would be
    // loopback), unless the server is told to trust it.
    let a = t.send(new_game("198.51.100.2:40000")).await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    let mut loopback_refused = false;
    for _ in 0..10 {
        let a = t.send(new_game("127.0.0.1:40000")).await;
        loopback_refused |= a.status == StatusCode::TOO_MANY_REQUESTS;
    }
    assert!(loopback_refused, "loopback is limited too");
    // A second later the far client may write once more.
    t.clock.advance(1000);
    let a = t.send(new_game(far)).await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
}

#[tokio::test]
async fn the_rate_limit_answers_with_an_error_and_keeps_the_connection() {
    let t = TestApp::with(|c| ServerConfig {
        rate_limit: RateLimit {
            burst: 5,
            per_second: 2.0,
        },
        ..c
    });
    let (id, white, _black) = t.started(Value::Null).await;
    let (addr, stop) = t.serve().await;
    let mut w = ws_connect(addr, Some(&white)).await;
    for _ in 0..5 {
        send(&mut w, json!({ "type": "ping" })).await;
        assert_eq!(next(&mut w).await["type"], "pong");
    }
    // The bucket is empty and time stands still (the manual clock).
    send(&mut w, json!({ "type": "ping" })).await;
    let e = next(&mut w).await;
    assert_eq!(e["type"], "error");
    assert!(
        e["message"].as_str().unwrap().contains("Too many messages"),
        "{e}"
    );
    send(
        &mut w,
        json!({ "type": "move", "game": id, "move": "e2e4", "ply": 0, "req": 1 }),
    )
    .await;
    let r = next(&mut w).await;
    assert_eq!(
        (r["type"].clone(), r["kind"].clone(), r["req"].clone()),
        (json!("refused"), json!("rate_limited"), json!(1))
    );
    assert_eq!(
        t.game(&id).await["moves"],
        json!([]),
        "the limited move was not played"
    );
    // Half a second later one more message is allowed.
    t.clock.advance(500);
    send(
        &mut w,
        json!({ "type": "move", "game": id, "move": "e2e4", "ply": 0, "req": 2 }),
    )
    .await;
    let r = next_of(&mut w, &["ack", "refused"]).await;
    assert_eq!(r["type"], "ack", "{r}");
    send(&mut w, json!({ "type": "ping" })).await;
    assert_eq!(next(&mut w).await["type"], "error");
    // A flood is answered, not fatal.
    for _ in 0..50 {
        send(&mut w, json!({ "type": "ping" })).await;
    }
    for _ in 0..50 {
        assert_eq!(next(&mut w).await["type"], "error");
    }
    t.clock.advance(10_000);
    send(&mut w, json!({ "type": "ping" })).await;
    assert_eq!(next(&mut w).await["type"], "pong");
    stop.send(()).unwrap();
}

#[tokio::test]
async fn finished_and_idle_games_leave_memory_and_come_back_from_the_store() {
    let t = TestApp::new();
    let mut finished = Vec::new();
    let mut idle = Vec::new();
    for i in 0..20 {
        let (id, creator, _) = t.create(json!({})).await;
        if i % 2 == 0 {
            t.act(&id, Some(&creator), json!({ "type": "abort" })).await;
            finished.push(id);
        } else {
            idle.push(id);
        }
    }
    // One game with a running clock, and one watched over a socket.
    let (running, white, black) = t.started(json!({ "base_seconds": 3600 })).await;
    t.play(&running, &white, "e2e4", 0).await;
    t.play(&running, &black, "e7e5", 1).await;
    let (watched, _, _) = t.create(json!({})).await;
    let (addr, stop) = t.serve().await;
    let mut s = ws_connect(addr, None).await;
    subscribe(&mut s, &watched).await;
    let base = t.state.games.live_games();
    assert_eq!(base, 22);

    assert_eq!(t.state.games.sweep(), 0, "nothing is idle yet");
    t.clock.advance(61_000);
    assert_eq!(
        t.state.games.sweep(),
        finished.len(),
        "finished games go after a minute"
    );
    t.clock.advance(10 * 60_000);
    assert_eq!(
        t.state.games.sweep(),
        idle.len(),
        "idle games go after ten minutes"
    );
    assert_eq!(
        t.state.games.live_games(),
        2,
        "the running clock and the watched game stay"
    );
    // Evicted games come back as they were.
    let g = t.game(&finished[0]).await;
    assert_eq!(g["end"]["reason"], "aborted");
    let g = t.game(&idle[0]).await;
    assert!(g["end"].is_null());
    assert_eq!(g["online"]["white"]["taken"], true);
    let j = t
        .post(&format!("/api/games/{}/join", idle[0]), None, json!({}))
        .await;
    assert_eq!(j.status, StatusCode::OK);
    // A watcher leaving lets its game go too.
    drop(s);
    let topic = tensorchess::server::topic::HubTopic::game(&watched);
    wait_until("the watcher's socket is gone", || async {
        t.state.games.hub().subscriber_count(&topic) == 0
    })
    .await;
    t.clock.advance(11 * 60_000);
    t.state.games.sweep();
    assert_eq!(
        t.state.games.live_games(),
        1,
        "only the game with a running clock stays"
    );
    stop.send(()).unwrap();
}
