//! What one account or client may hold open (issue 38, item 6): event
//! streams per account whatever its tokens, a game's streams per account,
//! and behind a trusted proxy the per-address cap on the forwarded client
//! (its sockets), freed when they close.

use crate::bots::{make_token, person_against_bot, with_token, Lines};
use crate::common::online::*;
use axum::http::{header, Method, StatusCode};
use tensorchess::server::client::Proxies;
use tensorchess::server::http::held::{EVENT_STREAMS_PER_ACCOUNT, GAME_STREAMS_PER_ACCOUNT};
use tensorchess::server::http::listener::ConnectionLimits;
use tensorchess::server::ServerConfig;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_accounts_event_streams_are_capped_whatever_its_tokens() {
    let t = TestApp::new();
    let ann = account(&t, "ann").await;
    let tokens = [
        make_token(&t, &ann, &["board:play"]).await,
        make_token(&t, &ann, &["challenge:write"]).await,
    ];
    let mut open = Vec::new();
    for i in 0..EVENT_STREAMS_PER_ACCOUNT {
        open.push(Lines::open(&t, "/api/stream/event", &tokens[i % 2]).await);
    }
    for token in &tokens {
        let a = with_token(&t, Method::GET, "/api/stream/event", token, None).await;
        expect_refused(&a, StatusCode::TOO_MANY_REQUESTS, "too_many");
    }
    // Another account is counted apart; a stream closed frees its place.
    let bob = account(&t, "bob").await;
    let bob_token = make_token(&t, &bob, &["board:play"]).await;
    let _bobs = Lines::open(&t, "/api/stream/event", &bob_token).await;
    drop(open.pop());
    let _again = Lines::open(&t, "/api/stream/event", &tokens[0]).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_games_streams_are_capped_per_account() {
    let t = TestApp::new();
    let (_ann, bot, id) = person_against_bot(&t).await;
    let uri = format!("/api/bot/game/stream/{id}");
    let mut open = Vec::new();
    for _ in 0..GAME_STREAMS_PER_ACCOUNT {
        let mut s = Lines::open(&t, &uri, &bot).await;
        assert_eq!(s.next().await["type"], "gameFull");
        open.push(s);
    }
    let a = with_token(&t, Method::GET, &uri, &bot, None).await;
    expect_refused(&a, StatusCode::TOO_MANY_REQUESTS, "too_many");
    drop(open.pop());
    let mut s = Lines::open(&t, &uri, &bot).await;
    assert_eq!(s.next().await["type"], "gameFull");
}

/// Opens the page's socket as a client behind the proxy named `client`:
/// the upgrade's status.
async fn socket_from(addr: std::net::SocketAddr, client: &str) -> Result<Ws, StatusCode> {
    let mut req = format!("ws://{addr}/api/ws").into_client_request().unwrap();
    req.headers_mut()
        .insert("x-forwarded-for", client.parse().unwrap());
    req.headers_mut()
        .insert(header::ORIGIN, format!("http://{addr}").parse().unwrap());
    match tokio_tungstenite::connect_async(req).await {
        Ok((ws, _)) => Ok(ws),
        Err(tokio_tungstenite::tungstenite::Error::Http(res)) => Err(res.status()),
        Err(e) => panic!("{e}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn behind_a_proxy_the_per_address_cap_counts_the_forwarded_client() {
    let t = TestApp::with(|c| ServerConfig {
        proxies: Proxies::new(["127.0.0.1".parse().unwrap()], false),
        connections: ConnectionLimits {
            per_client: 2,
            ..c.connections
        },
        ..c
    });
    let (addr, _stop) = t.serve().await;
    let mut first = socket_from(addr, "203.0.113.7").await.unwrap();
    let _second = socket_from(addr, "203.0.113.7").await.unwrap();
    // Every connection comes from the proxy (127.0.0.1), which the
    // listener exempts: the forwarded client is held to the cap.
    assert_eq!(
        socket_from(addr, "203.0.113.7").await.err(),
        Some(StatusCode::TOO_MANY_REQUESTS)
    );
    let _other = socket_from(addr, "198.51.100.7").await.unwrap();
    // A socket closed frees its place.
    first.close(None).await.unwrap();
    drop(first);
    let mut again = None;
    for _ in 0..500 {
        if let Ok(ws) = socket_from(addr, "203.0.113.7").await {
            again = Some(ws);
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(again.is_some(), "a closed socket's place is freed");
}
