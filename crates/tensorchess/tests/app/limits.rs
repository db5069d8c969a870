//! The limits that keep a public server usable: connections (header time,
//! per address, in all), the `Host` allow-list, sizes (names, PGN imports),
//! engine work (per-player queue, overload), and JSON bodies on every error.

use crate::common::online::read_to_close;
use crate::common::TestApp;
use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use futures_util::stream::{FuturesUnordered, StreamExt};
use serde_json::{json, Value};
use std::time::{Duration, Instant};
use tensorchess::server::http::listener::ConnectionLimits;
use tensorchess::server::ServerConfig;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

/// Whether the server answers a request on a new connection.
async fn answers(addr: std::net::SocketAddr) -> String {
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(b"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    read_to_close(&mut s, Duration::from_secs(10)).await
}

fn limits(header_ms: u64, per_client: usize, total: usize) -> ServerConfig {
    ServerConfig {
        connections: ConnectionLimits {
            header_timeout: Duration::from_millis(header_ms),
            per_client,
            total,
        },
        ..ServerConfig::default()
    }
}

#[tokio::test]
async fn slow_headers_and_idle_keep_alive_connections_are_closed() {
    let t = TestApp::with_config(limits(300, 64, 1000));
    let (addr, _stop) = t.serve().await;
    // Half a request, then nothing: closed once the header time is up.
    let mut slow = TcpStream::connect(addr).await.unwrap();
    slow.write_all(b"GET /api/info HTTP/1.1\r\nHost: 127")
        .await
        .unwrap();
    let started = Instant::now();
    read_to_close(&mut slow, Duration::from_secs(5)).await;
    assert!(started.elapsed() >= Duration::from_millis(250));
    // A connection that asked once and then idles is closed too.
    let mut idle = TcpStream::connect(addr).await.unwrap();
    idle.write_all(b"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        .await
        .unwrap();
    let text = read_to_close(&mut idle, Duration::from_secs(5)).await;
    assert!(text.starts_with("HTTP/1.1 200"), "{text}");
    // And the server still answers others.
    assert!(answers(addr).await.starts_with("HTTP/1.1 200"));
}

#[tokio::test]
async fn connections_past_the_caps_are_refused_quickly_with_json() {
    // Per client address.
    let t = TestApp::with_config(limits(10_000, 3, 1000));
    let (addr, _stop) = t.serve().await;
    let mut held = Vec::new();
    for _ in 0..3 {
        held.push(TcpStream::connect(addr).await.unwrap());
    }
    open_connections(&t, 3).await;
    let refused = answers(addr).await;
    assert!(refused.starts_with("HTTP/1.1 503"), "{refused}");
    let body = refused.split("\r\n\r\n").nth(1).unwrap_or("");
    let v: Value = serde_json::from_str(body).unwrap_or_else(|_| panic!("JSON: {refused}"));
    assert!(v["error"].as_str().is_some(), "{v}");
    drop(held.pop());
    open_connections(&t, 2).await;
    assert!(
        answers(addr).await.starts_with("HTTP/1.1 200"),
        "a closed connection frees its place"
    );

    // In all.
    let t = TestApp::with_config(limits(10_000, 100, 2));
    let (addr, _stop) = t.serve().await;
    let _a = TcpStream::connect(addr).await.unwrap();
    let _b = TcpStream::connect(addr).await.unwrap();
    open_connections(&t, 2).await;
    assert!(answers(addr).await.starts_with("HTTP/1.1 503"));
}

/// Waits until the server counts `n` open connections.
async fn open_connections(t: &TestApp, n: usize) {
    let start = std::time::Instant::now();
    while t.state.metrics.connections() != n {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "{} connections open, not {n}",
            t.state.metrics.connections()
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

#[tokio::test]
async fn only_allowed_hosts_are_served() {
    let t = TestApp::with_config(ServerConfig {
        allowed_hosts: vec!["localhost".into(), "chess.example".into()],
        ..ServerConfig::default()
    });
    let with_host = |host: &str| {
        Request::get("/api/info")
            .header(header::HOST, host)
            .body(Body::empty())
            .unwrap()
    };
    let (status, body) = t.send(with_host("evil.example")).await;
    assert_eq!(status, StatusCode::MISDIRECTED_REQUEST);
    assert!(body["error"].as_str().is_some(), "{body}");
    for ok in ["localhost:8080", "CHESS.example", "chess.example:443"] {
        assert_eq!(t.send(with_host(ok)).await.0, StatusCode::OK, "{ok}");
    }
}

#[tokio::test]
async fn every_error_has_a_json_body() {
    let t = TestApp::new();
    for (method, uri) in [
        (Method::GET, "/api/nothing-here"),
        (Method::DELETE, "/api/seeks"),
        (Method::PUT, "/api/games"),
        (Method::GET, "/api/games/nosuchgame1"),
        (Method::POST, "/api/account/login"),
    ] {
        let (status, body) = t.call(method.clone(), uri, None).await;
        assert!(status.is_client_error(), "{method} {uri}: {status}");
        assert!(
            body["error"].as_str().is_some_and(|e| !e.is_empty()),
            "{method} {uri}: {body}"
        );
    }
    let (status, _) = t.call(Method::DELETE, "/api/seeks", None).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
}

#[tokio::test]
async fn names_and_imported_pgns_are_bounded() {
    let t = TestApp::new();
    let (status, _) = t
        .call(
            Method::PATCH,
            "/api/me",
            Some(json!({ "name": "x".repeat(41) })),
        )
        .await;
    assert!(status.is_client_error());
    let (status, me) = t
        .call(
            Method::PATCH,
            "/api/me",
            Some(json!({ "name": "y".repeat(40) })),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{me}");

    let too_long_tag = format!("[Event \"{}\"]\n\n1. e4 *", "z".repeat(300));
    let too_big = format!("[Event \"x\"]\n\n{{{}}} 1. e4 *", "c".repeat(70 * 1024));
    let mut many = String::from("[Variant \"Chess\"]\n\n");
    for n in 1..=501 {
        many.push_str(&format!("{}. Nf3 Nf6 {}. Ng1 Ng8 ", 2 * n - 1, 2 * n));
    }
    for (what, pgn) in [
        ("a tag over 256 characters", too_long_tag),
        ("a PGN over 64 KiB", too_big),
    ] {
        let (status, err) = t
            .post("/api/games", json!({ "mode": "local", "pgn": pgn }))
            .await;
        assert!(status.is_client_error(), "{what}: {status}");
        assert!(err["error"].as_str().is_some(), "{what}: {err}");
    }
    // 2,004 plies are refused before any is played.
    let (status, err) = t
        .post("/api/games", json!({ "mode": "local", "pgn": many }))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{err}");
    assert!(err["error"].as_str().unwrap().contains("2000"), "{err}");
}

#[tokio::test]
async fn an_imported_pgn_stops_where_the_rules_end_the_game() {
    let t = TestApp::new();
    // Threefold repetition after 8 plies; the moves after it are not kept.
    let pgn = "[Variant \"Chess\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. e4 e5 *";
    let game = t.create(json!({ "mode": "local", "pgn": pgn })).await;
    assert_eq!(game["moves"].as_array().unwrap().len(), 8, "{game}");
    assert_eq!(game["end"]["result"], "1/2-1/2");
    // Mate: the fool's mate, with a move written after it.
    let pgn = "[Variant \"Chess\"]\n\n1. f3 e5 2. g4 Qh4# 3. a3 *";
    let game = t.create(json!({ "mode": "local", "pgn": pgn })).await;
    assert_eq!(game["moves"].as_array().unwrap().len(), 4);
    assert_eq!(game["end"]["result"], "0-1");
}

/// Sends `GET uri` as `t`, answering the status and the Retry-After header.
async fn get_with_retry(t: &TestApp, uri: &str) -> (StatusCode, Option<String>) {
    let res = t
        .response(Request::get(uri).body(Body::empty()).unwrap())
        .await;
    let retry = res
        .headers()
        .get(header::RETRY_AFTER)
        .map(|v| v.to_str().unwrap().to_string());
    (res.status(), retry)
}

#[tokio::test]
async fn engine_work_is_queued_fairly_and_refused_when_overloaded() {
    let t = TestApp::with_config(ServerConfig {
        search_slots: 1,
        ..ServerConfig::default()
    });
    // The test holds the engine's only slot while the asks arrive, so that
    // none of them is answered before all are queued or refused, however
    // fast or slow the machine is.
    let budget = t.state.games.local.engine().budget().clone();
    let hold = || async {
        budget
            .slot(
                &tensorchess::server::budget::Requester::new("test", None),
                true,
            )
            .await
            .unwrap()
    };
    // One player asking for many evaluations at once: as many as a player
    // may have waiting wait (4), the rest are told to slow down (429 with
    // Retry-After).
    let held = hold().await;
    let game = t.create(json!({ "mode": "local" })).await;
    let uri = format!("/api/games/{}/eval", game["id"].as_str().unwrap());
    let mut asks: FuturesUnordered<_> = (0..10).map(|_| get_with_retry(&t, &uri)).collect();
    for _ in 0..6 {
        let (status, retry) = asks.next().await.expect("an answer");
        assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "refusals first");
        assert!(retry.is_some());
    }
    assert_eq!(asks.len(), 4, "a player's four wait their turn");
    drop(held);
    while let Some((status, _)) = asks.next().await {
        assert_eq!(status, StatusCode::OK);
    }

    // Many players at once: past the queue's bound, 503 with Retry-After
    // at once rather than a long wait.
    let held = hold().await;
    let mut players = Vec::new();
    for _ in 0..30 {
        let p = t.stranger();
        let g = p.create(json!({ "mode": "local" })).await;
        let uri = format!("/api/games/{}/eval", g["id"].as_str().unwrap());
        players.push((p, uri));
    }
    let mut asks: FuturesUnordered<_> = players
        .iter()
        .map(|(p, uri)| get_with_retry(p, uri))
        .collect();
    // 16 wait (the queue's bound with one slot): the other 14 are refused
    // before any evaluation is done.
    for _ in 0..14 {
        let (status, retry) = asks.next().await.expect("an answer");
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "refusals first");
        assert!(retry.is_some());
    }
    assert_eq!(asks.len(), 16, "the rest still wait their turn");
    drop(held);
    let (status, _) = asks.next().await.expect("an answer");
    assert_eq!(status, StatusCode::OK, "the first in the queue is answered");
    // The others go away unanswered: their places are given back.
    drop(asks);
}
