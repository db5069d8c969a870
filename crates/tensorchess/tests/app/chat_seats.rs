//! A spectator who takes a seat stops reading the spectators' room (issue
//! 38, item 2b): the socket's subscription ends (`unsubscribed`) when the
//! seat is taken, on the server the page is on and on another one, and no
//! spectators' line reaches the new player while the game goes on.

use crate::common::online::*;
use axum::http::StatusCode;
use serde_json::json;

/// A game with White seated on `a`; a guest watches its spectators' room
/// on `addr` (a socket of `a`'s or another server's) and takes the free
/// seat through `b`; then a spectator speaks and White speaks to the
/// players' room, which the new player reads: only White's line comes.
async fn seat_ends_the_spectators_room(a: &TestApp, b: &TestApp, addr: std::net::SocketAddr) {
    let (id, white, _) = a
        .create(json!({ "variant": "tensor", "color": "white" }))
        .await;
    let guest = b.get("/api/info", None).await.cookie.expect("a cookie");
    let sam = account(b, "sam").await;
    let mut ws = ws_connect(addr, Some(&guest)).await;
    let spectators = format!("chat:{id}:spectators");
    send(&mut ws, json!({ "type": "subscribe", "topic": spectators })).await;
    let h = next_of(&mut ws, &["chat_history", "error"]).await;
    assert_eq!(h["type"], "chat_history", "{h}");

    let joined = b
        .post(&format!("/api/games/{id}/join"), Some(&guest), json!({}))
        .await;
    assert_eq!(joined.status, StatusCode::OK, "{}", joined.text);
    assert_eq!(joined.body["you"], "black");
    let ended = next_of(&mut ws, &["unsubscribed", "chat"]).await;
    assert_eq!(ended["type"], "unsubscribed", "{ended}");
    assert_eq!(ended["topic"], spectators);

    // Subscribing again is refused while the game goes on.
    send(&mut ws, json!({ "type": "subscribe", "topic": spectators })).await;
    let e = next_of(&mut ws, &["chat_history", "error"]).await;
    assert_eq!(e["type"], "error", "{e}");
    let players = format!("chat:{id}:players");
    send(&mut ws, json!({ "type": "subscribe", "topic": players })).await;
    let h = next_of(&mut ws, &["chat_history", "error"]).await;
    assert_eq!(h["type"], "chat_history", "{h}");

    let said = b
        .post(
            &format!("/api/games/{id}/chat"),
            Some(&sam),
            json!({ "room": "spectators", "text": "Black is lost" }),
        )
        .await;
    assert_eq!(said.status, StatusCode::CREATED, "{}", said.text);
    let said = a
        .post(
            &format!("/api/games/{id}/chat"),
            Some(&white),
            json!({ "room": "players", "text": "good luck" }),
        )
        .await;
    assert_eq!(said.status, StatusCode::CREATED, "{}", said.text);
    let line = next_of(&mut ws, &["chat"]).await;
    assert_eq!(line["topic"], players, "{line}");
    assert_eq!(line["line"]["text"], "good luck");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn taking_a_seat_ends_the_spectators_room() {
    let t = TestApp::new();
    let (addr, _stop) = t.serve().await;
    seat_ends_the_spectators_room(&t, &t, addr).await;
}

/// The seat taken on the other server: the socket's server hears of it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: set TENSORCHESS_TEST_PG (scripts/test.sh does)"]
async fn taking_a_seat_on_another_server_ends_the_spectators_room() {
    let pair = two_servers().await;
    seat_ends_the_spectators_room(&pair.a, &pair.b, pair.addr_a).await;
}
