//! The server against strangers over real sockets (issue 20): a body that
//! never comes, a WebSocket client that stops reading, and a lobby that
//! sends changes instead of the list, where a seek needs its creator; a
//! topic that names nothing is refused.

use crate::common::online::{
    expect_refused, next_of, read_to_close, send, ws_connect, Answer, TestApp,
};
use serde_json::{json, Value};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};
use tensorchess::server::http::guard::BodyLimits;
use tensorchess::server::lobby::{ABSENT_CREATOR_MS, MAX_SEEKS_PER_PLAYER};
use tensorchess::server::ServerConfig;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

#[tokio::test]
async fn a_body_that_never_arrives_is_answered_408_and_closed() {
    let t = TestApp::with(|c| ServerConfig {
        body: BodyLimits {
            total: Duration::from_millis(600),
            idle: Duration::from_millis(300),
            min_rate: 64,
        },
        ..c
    });
    let (addr, _stop) = t.serve().await;
    let head = |len: usize| {
        format!(
            "POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
             Content-Length: {len}\r\n\r\n"
        )
    };
    // Headers, then nothing.
    let mut silent = TcpStream::connect(addr).await.unwrap();
    silent.write_all(head(50).as_bytes()).await.unwrap();
    let text = read_to_close(&mut silent, Duration::from_secs(10)).await;
    assert!(text.starts_with("HTTP/1.1 408"), "{text}");
    assert!(text.contains("\"kind\":\"timeout\""), "{text}");
    // A byte now and then: too slow, though never idle for long. (The
    // answer may be lost to the reset that the bytes still sent after it
    // cause; the connection is closed either way.)
    let trickle = TcpStream::connect(addr).await.unwrap();
    let (mut rd, mut wr) = trickle.into_split();
    wr.write_all(head(2000).as_bytes()).await.unwrap();
    let dripping = tokio::spawn(async move {
        for _ in 0..100 {
            if wr.write_all(b" ").await.is_err() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    });
    let mut got = Vec::new();
    let closed = tokio::time::timeout(Duration::from_secs(10), async {
        let mut buf = [0u8; 4096];
        loop {
            match rd.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => got.extend_from_slice(&buf[..n]),
            }
        }
    })
    .await;
    assert!(closed.is_ok(), "the trickling connection was not closed");
    let text = String::from_utf8_lossy(&got);
    assert!(
        text.is_empty() || text.starts_with("HTTP/1.1 408"),
        "{text}"
    );
    dripping.abort();
    assert_eq!(t.state.metrics.body_timeouts.load(Ordering::Relaxed), 2);
    // A whole body is served as ever.
    let mut ok = TcpStream::connect(addr).await.unwrap();
    let body = r#"{"mode":"local","variant":"chess"}"#;
    ok.write_all(
        format!("{}{body}", head(body.len()))
            .replace("HTTP/1.1\r\n", "HTTP/1.1\r\nConnection: close\r\n")
            .as_bytes(),
    )
    .await
    .unwrap();
    let text = read_to_close(&mut ok, Duration::from_secs(10)).await;
    assert!(text.starts_with("HTTP/1.1 201"), "{text}");
}

#[tokio::test]
async fn a_socket_whose_client_stops_reading_is_dropped() {
    let t = TestApp::with(|c| ServerConfig {
        ws_write_timeout: Duration::from_millis(500),
        ..c
    });
    let (id, white, _black) = t.started(Value::Null).await;
    let (addr, _stop) = t.serve().await;
    // A client with a small receive buffer follows the game, then reads no more.
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let stream = socket.connect(addr).await.unwrap();
    let stream = tokio_tungstenite::MaybeTlsStream::Plain(stream);
    let (mut ws, _) = tokio_tungstenite::client_async(format!("ws://{addr}/api/ws"), stream)
        .await
        .unwrap();
    send(
        &mut ws,
        json!({ "type": "subscribe", "topic": format!("game:{id}") }),
    )
    .await;
    next_of(&mut ws, &["game"]).await;
    let honest = ws_connect(addr, Some(&white)).await;
    wait_until(|| t.state.metrics.sockets() == 2).await;
    // Far more than a send queue and the kernel's buffers hold.
    let big = "x".repeat(32 * 1024);
    let hub = t.state.games.hub().clone();
    let topic = tensorchess::server::topic::HubTopic::game(&id);
    let started = Instant::now();
    while t.state.metrics.slow_sockets_dropped.load(Ordering::Relaxed) == 0 {
        hub.publish(
            &topic,
            tensorchess::server::views::ServerEvent::Error {
                message: big.clone(),
            },
        );
        tokio::time::sleep(Duration::from_millis(2)).await;
        assert!(started.elapsed() < Duration::from_secs(20), "never dropped");
    }
    wait_until(|| t.state.metrics.sockets() == 1).await;
    drop(honest);
    drop(ws);
}

/// Polls `done` (a socket's task runs on the runtime) for up to 10 s.
async fn wait_until(done: impl Fn() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "the condition did not come"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

async fn post_seek(t: &TestApp, cookie: Option<&str>, client: &str) -> Answer {
    let peer: std::net::SocketAddr = "127.0.0.1:40000".parse().unwrap();
    let mut b = axum::http::Request::post("/api/seeks")
        .header("content-type", "application/json")
        .header("x-forwarded-for", client)
        .extension(axum::extract::ConnectInfo(peer));
    if let Some(c) = cookie {
        b = b.header("cookie", c);
    }
    t.send(
        b.body(axum::body::Body::from(
            json!({ "variant": "tensor" }).to_string(),
        ))
        .unwrap(),
    )
    .await
}

#[tokio::test]
async fn the_lobby_sends_changes_and_caps_seeks_per_address() {
    let t = TestApp::with(|c| ServerConfig {
        proxies: tensorchess::server::client::Proxies::new(["127.0.0.1".parse().unwrap()], false),
        ..c
    });
    let (addr, _stop) = t.serve().await;
    // On PostgreSQL the listener connects in the background, and sends the
    // lobby's list again when it does: subscribe after.
    let live = t.state.games.live.clone();
    wait_until(|| !live.store().shared() || live.cluster().is_listening()).await;
    let mut watcher = ws_connect(addr, None).await;
    send(
        &mut watcher,
        json!({ "type": "subscribe", "topic": "lobby" }),
    )
    .await;
    assert_eq!(next_of(&mut watcher, &["lobby"]).await["seeks"], json!([]));
    // Fresh guests from one address, until the address's cap.
    let mut posted = Vec::new();
    for i in 0..tensorchess::server::lobby::MAX_SEEKS_PER_ADDRESS {
        let a = post_seek(&t, None, "203.0.113.44").await;
        assert_eq!(
            a.status,
            axum::http::StatusCode::CREATED,
            "seek {i}: {}",
            a.text
        );
        posted.push(a);
        let added = next_of(&mut watcher, &["seek_added", "lobby"]).await;
        assert_eq!(added["type"], "seek_added", "a change, not the list");
        let bytes = added.to_string().len();
        assert!(bytes < 600, "one seek's change is small: {bytes} bytes");
    }
    let a = post_seek(&t, None, "203.0.113.44").await;
    expect_refused(&a, axum::http::StatusCode::CONFLICT, "too_many_seeks");
    let other = post_seek(&t, None, "198.51.100.44").await;
    assert_eq!(
        other.status,
        axum::http::StatusCode::CREATED,
        "{}",
        other.text
    );
    next_of(&mut watcher, &["seek_added"]).await;
    // One player has at most a few.
    let cookie = other.cookie.clone().unwrap();
    for _ in 1..MAX_SEEKS_PER_PLAYER {
        let a = post_seek(&t, Some(&cookie), "198.51.100.44").await;
        assert_eq!(a.status, axum::http::StatusCode::CREATED, "{}", a.text);
        next_of(&mut watcher, &["seek_added"]).await;
    }
    let a = post_seek(&t, Some(&cookie), "198.51.100.44").await;
    expect_refused(&a, axum::http::StatusCode::CONFLICT, "too_many_seeks");
    // Their creators have no page open: within a minute they all lapse,
    // and the lobby hears which.
    t.clock.advance(ABSENT_CREATOR_MS);
    t.state.lobby.sweep().await;
    let removed = next_of(&mut watcher, &["seek_removed"]).await;
    assert_eq!(
        removed["ids"].as_array().unwrap().len(),
        tensorchess::server::lobby::MAX_SEEKS_PER_ADDRESS + MAX_SEEKS_PER_PLAYER
    );
    assert_eq!(t.get("/api/seeks", None).await.body, json!([]));
}

#[tokio::test]
async fn a_seek_stays_while_its_creator_has_a_page_open() {
    let t = TestApp::new();
    let (addr, _stop) = t.serve().await;
    let a = t
        .post("/api/seeks", None, json!({ "variant": "tensor" }))
        .await;
    let cookie = a.cookie.unwrap();
    let seek = a.body["id"].as_str().unwrap().to_string();
    let mut page = ws_connect(addr, Some(&cookie)).await;
    send(&mut page, json!({ "type": "subscribe", "topic": "lobby" })).await;
    next_of(&mut page, &["lobby"]).await;
    t.clock.advance(ABSENT_CREATOR_MS * 2);
    t.state.lobby.sweep().await;
    let open = t.get("/api/seeks", None).await.body;
    assert_eq!(open[0]["id"], seek, "{open}");
    // The page closes: the seek goes with it.
    drop(page);
    let start = Instant::now();
    while t.get("/api/seeks", None).await.body != json!([]) {
        assert!(start.elapsed() < Duration::from_secs(10));
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test]
async fn a_topic_that_names_nothing_is_refused_and_the_socket_goes_on() {
    let t = TestApp::new();
    let (addr, _stop) = t.serve().await;
    let mut ws = ws_connect(addr, None).await;
    let long = format!("game:{}", "a".repeat(41));
    for topic in [
        "nothing",
        "game:../etc",
        long.as_str(),
        "chat:abc:lobby",
        "tournament:a b",
        "Lobby",
    ] {
        send(&mut ws, json!({ "type": "subscribe", "topic": topic })).await;
        let e = next_of(&mut ws, &["error"]).await;
        let message = e["message"].as_str().unwrap();
        assert!(message.starts_with("Unknown topic"), "{topic}: {e}");
    }
    // An unknown tournament with a good id is named as such.
    send(
        &mut ws,
        json!({ "type": "subscribe", "topic": "tournament:nosuch" }),
    )
    .await;
    let e = next_of(&mut ws, &["error"]).await;
    assert!(
        e["message"].as_str().unwrap().contains("no tournament"),
        "{e}"
    );
    send(&mut ws, json!({ "type": "subscribe", "topic": "lobby" })).await;
    assert_eq!(next_of(&mut ws, &["subscribed"]).await["topic"], "lobby");
}
