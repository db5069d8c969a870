//! Online play: seats held by cookie tokens, refusals, clocks on a manual
//! clock (flag fall, increments, the restart policy), draw, resignation,
//! abort, rematch, reconnection, presence, rate limits and eviction —
//! through the router (`oneshot`) and over real WebSockets. On SQLite, or
//! on PostgreSQL with `TENSORCHESS_TEST_BACKEND=postgres` (see `common`).

use crate::common::online::*;
use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use futures_util::SinkExt;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;
use tower::ServiceExt;

#[tokio::test]
async fn seats_belong_to_players_strangers_cannot_move_and_tokens_never_leave_their_cookie() {
    let t = TestApp::new();
    let a = t
        .post(
            "/api/online",
            None,
            json!({ "variant": "chess", "color": "black" }),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    let id = a.body["id"].as_str().unwrap().to_string();
    // A browser without an identity gets one with its first answer.
    let set = a.set_cookie.clone().unwrap();
    assert!(set.starts_with("tcid="), "{set}");
    for attr in ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age="] {
        assert!(set.contains(attr), "{set} lacks {attr}");
    }
    let black = a.cookie.unwrap();
    let black_token = token_of(&black).to_string();
    assert_eq!(black_token.len(), 64, "256 bits in hex");
    assert!(
        !a.text.contains(&black_token),
        "the token is only in the cookie"
    );
    assert_eq!(a.body["mode"], "online");
    assert_eq!(a.body["you"], "black");
    assert_eq!(a.body["online"]["black"]["taken"], true);
    assert_eq!(a.body["online"]["white"]["taken"], false);
    assert_eq!(a.body["online"]["clock"], Value::Null);

    // Nobody moves before the second player is there.
    let r = t.play(&id, &black, "e2e4", 0).await;
    expect_refused(&r, StatusCode::CONFLICT, "waiting");

    // A stranger sees the game, holds no seat, cannot move.
    let s = t.get(&format!("/api/games/{id}"), None).await;
    assert_eq!(s.status, StatusCode::OK);
    assert_eq!(s.body["you"], Value::Null);
    let stranger = s.cookie.expect("a stranger's identity");
    assert_ne!(token_of(&stranger), black_token);
    let r = t.play(&id, &stranger, "e2e4", 0).await;
    expect_refused(&r, StatusCode::FORBIDDEN, "not_a_player");

    // The friend takes the free seat.
    let j = t
        .post(&format!("/api/games/{id}/join"), None, json!({}))
        .await;
    assert_eq!(j.status, StatusCode::OK, "{}", j.text);
    assert_eq!(j.body["you"], "white");
    let white = j.cookie.unwrap();
    assert_ne!(token_of(&white), black_token);
    assert!(!j.text.contains(token_of(&white)) && !j.text.contains(&black_token));
    // Joining again keeps one's seat; the creator cannot take the other one.
    let again = t
        .post(&format!("/api/games/{id}/join"), Some(&black), json!({}))
        .await;
    assert_eq!(again.body["you"], "black");
    assert!(
        again.set_cookie.is_none(),
        "a known player keeps their cookie"
    );

    // Now the seats are taken: a third person is a spectator.
    let third = t
        .post(&format!("/api/games/{id}/join"), Some(&stranger), json!({}))
        .await;
    expect_refused(&third, StatusCode::CONFLICT, "seats_taken");
    let spectator = t.get(&format!("/api/games/{id}"), Some(&stranger)).await;
    assert_eq!(spectator.body["you"], Value::Null);
    assert!(!spectator.text.contains(token_of(&white)) && !spectator.text.contains(&black_token));

    // Forged identities and old-style seat cookies are strangers too.
    for forged in [
        format!("tcid={}", "ab".repeat(32)),
        format!("tcseat_{id}={}", "ab".repeat(32)),
        "tcid=1".to_string(),
    ] {
        expect_refused(
            &t.play(&id, &forged, "e2e4", 0).await,
            StatusCode::FORBIDDEN,
            "not_a_player",
        );
    }
    // The wrong seat for the move.
    expect_refused(
        &t.play(&id, &black, "e7e5", 0).await,
        StatusCode::CONFLICT,
        "not_your_turn",
    );
    // The right one.
    let ok = t.play(&id, &white, "e2e4", 0).await;
    assert_eq!(ok.status, StatusCode::OK, "{}", ok.text);
    assert_eq!(ok.body["moves"][0]["san"], "e4");
    assert_eq!(ok.body["you"], "white");
    // The old move endpoint works for players too, with their cookie and the ply.
    let r = t
        .post(
            &format!("/api/games/{id}/moves"),
            Some(&white),
            json!({ "move": "d2d4", "ply": 1 }),
        )
        .await;
    expect_refused(&r, StatusCode::CONFLICT, "not_your_turn");
    let r = t
        .post(
            &format!("/api/games/{id}/moves"),
            Some(&black),
            json!({ "move": "e7e5" }),
        )
        .await;
    assert_eq!(
        r.status,
        StatusCode::BAD_REQUEST,
        "an online move says its ply"
    );
    let r = t
        .post(
            &format!("/api/games/{id}/moves"),
            Some(&black),
            json!({ "move": "e7e5", "ply": 1 }),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    // An illegal move is refused with the reason.
    let r = t.play(&id, &white, "e4e5", 2).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(r.body["kind"], "illegal_move");
    assert!(r.body["reason"].as_str().is_some());

    // No engine help, no takebacks, no deleting an online game.
    let game_url = format!("/api/games/{id}");
    for (uri, status) in [
        (format!("{game_url}/takeback"), StatusCode::CONFLICT),
        (format!("{game_url}/hint"), StatusCode::CONFLICT),
        (format!("{game_url}/draw"), StatusCode::CONFLICT),
    ] {
        let r = t.post(&uri, Some(&white), json!({})).await;
        assert_eq!(r.status, status, "{uri}: {}", r.text);
    }
    assert_eq!(
        t.get(&format!("{game_url}/eval"), None).await.status,
        StatusCode::CONFLICT
    );
    assert_eq!(
        t.req(Method::DELETE, &game_url, Some(&white), None)
            .await
            .status,
        StatusCode::CONFLICT
    );

    // The saved-games list shows an online game only to its players.
    let listed = |a: &Answer| {
        a.body["games"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["id"] == id.as_str())
    };
    assert!(!listed(&t.get("/api/games", Some(&stranger)).await));
    assert!(listed(&t.get("/api/games", Some(&white)).await));
    assert!(listed(&t.get("/api/games", Some(&black)).await));

    // The database keeps hashes of the tokens, never the tokens (looked
    // for in the SQLite file's bytes).
    if t.pg.is_none() {
        let bytes = std::fs::read(&t.db).unwrap();
        let wal = std::fs::read(t.db.with_extension("sqlite3-wal")).unwrap_or_default();
        for token in [token_of(&white), black_token.as_str()] {
            let hay = [bytes.as_slice(), wal.as_slice()].concat();
            assert!(!hay.windows(token.len()).any(|w| w == token.as_bytes()));
        }
    }
}

#[tokio::test]
async fn bad_creation_requests_are_refused() {
    let t = TestApp::new();
    for (body, needle) in [
        (json!({ "variant": "shogi" }), "nknown variant"),
        (json!({ "color": "green" }), "Unknown colour"),
        (json!({ "clock": { "base_seconds": 0 } }), "1 to"),
        (json!({ "clock": { "base_seconds": 99999 } }), "1 to"),
        (
            json!({ "clock": { "base_seconds": 60, "increment_seconds": 999 } }),
            "increment",
        ),
        (json!({ "clock": "fast" }), "Invalid"),
        (json!({ "colour": "white" }), "unknown field"),
    ] {
        let a = t.post("/api/online", None, body.clone()).await;
        assert_eq!(a.status, StatusCode::BAD_REQUEST, "{body}: {}", a.text);
        assert!(
            a.body["error"].as_str().unwrap().contains(needle),
            "{body}: {}",
            a.text
        );
    }
    let a = t.post("/api/games/nosuchgame/join", None, json!({})).await;
    assert_eq!(a.status, StatusCode::NOT_FOUND);
    // Joining takes a JSON body: another site's form cannot make a visitor join.
    let (id, _, _) = t.create(json!({})).await;
    let form = t
        .send_raw(
            &format!("/api/games/{id}/join"),
            "application/x-www-form-urlencoded",
            "",
        )
        .await;
    assert_eq!(form.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    // A local game has no seats (and only its maker sees it).
    let local = t.post("/api/games", None, json!({ "mode": "local" })).await;
    let id = local.body["id"].as_str().unwrap();
    let maker = local.cookie.clone().unwrap();
    let a = t
        .post(&format!("/api/games/{id}/join"), Some(&maker), json!({}))
        .await;
    expect_refused(&a, StatusCode::CONFLICT, "not_online");
    let a = t.act(id, Some(&maker), json!({ "type": "resign" })).await;
    expect_refused(&a, StatusCode::CONFLICT, "not_online");
    let a = t.act(id, Some(&maker), json!({ "type": "castle" })).await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST);
    let a = t.act(id, None, json!({ "type": "resign" })).await;
    assert_eq!(a.status, StatusCode::NOT_FOUND, "a stranger's is no game");
    // A random colour is one of the two.
    let (_, _, g) = t.create(json!({ "color": "random" })).await;
    assert!(g["you"] == "white" || g["you"] == "black");
}

#[tokio::test]
async fn websocket_play_with_acks_refusals_presence_and_spectators() {
    let t = TestApp::new();
    let (id, white, black) = t.started(Value::Null).await;
    let (addr, stop) = t.serve().await;
    let mut w = ws_connect(addr, Some(&white)).await;
    let mut b = ws_connect(addr, Some(&black)).await;
    let mut s = ws_connect(addr, None).await;

    let (sub, snap) = subscribe(&mut w, &id).await;
    assert_eq!(sub["seat"], "white");
    assert_eq!(snap["game"]["online"]["black"]["connected"], false);
    let (sub, _) = subscribe(&mut b, &id).await;
    assert_eq!(sub["seat"], "black");
    // White learns that Black is here.
    presence(&mut w, true, true).await;
    let (sub, snap) = subscribe(&mut s, &id).await;
    assert!(sub.get("seat").is_none(), "a spectator has no seat: {sub}");
    assert!(!snap.to_string().contains(token_of(&white)));

    // A move over the socket: acknowledged to the mover, shown to everybody.
    send(
        &mut w,
        json!({ "type": "move", "game": id, "move": "e2e4", "ply": 0, "req": 7 }),
    )
    .await;
    let ack = next_of(&mut w, &["ack", "refused"]).await;
    assert_eq!(ack["type"], "ack", "{ack}");
    assert_eq!(
        (ack["req"].clone(), ack["ply"].clone()),
        (json!(7), json!(1))
    );
    // The move comes as a compact `move` event: the legal moves only to
    // the side now to move (Black), none to a spectator.
    for (ws, to_move) in [(&mut b, true), (&mut s, false)] {
        let g = next_of(ws, &["move"]).await;
        assert_eq!(g["move"]["uci"], "e2e4");
        assert_eq!(g["topic"], format!("game:{id}"));
        assert_eq!(g["legal"]["moves"]["e7"].is_array(), to_move, "{g}");
    }

    // Refusals, each with its reason; the connections stay.
    let cases = [
        (
            0,
            json!({ "type": "move", "game": id, "move": "d2d4", "ply": 1, "req": 1 }),
            "not_your_turn",
        ),
        (
            1,
            json!({ "type": "move", "game": id, "move": "e7e5", "ply": 0, "req": 2 }),
            "stale",
        ),
        (
            2,
            json!({ "type": "move", "game": id, "move": "e7e5", "ply": 1, "req": 3 }),
            "not_a_player",
        ),
        (
            1,
            json!({ "type": "move", "game": id, "move": "e7e4", "ply": 1, "req": 4 }),
            "illegal_move",
        ),
        (
            1,
            json!({ "type": "move", "game": "nope", "move": "e7e5", "ply": 1, "req": 5 }),
            "not_found",
        ),
        (
            2,
            json!({ "type": "resign", "game": id, "req": 6 }),
            "not_a_player",
        ),
    ];
    for (who, msg, kind) in cases {
        let ws = match who {
            0 => &mut w,
            1 => &mut b,
            _ => &mut s,
        };
        send(ws, msg.clone()).await;
        let r = next_of(ws, &["ack", "refused"]).await;
        assert_eq!(r["type"], "refused", "{msg}: {r}");
        assert_eq!(r["kind"], kind, "{msg}: {r}");
        assert_eq!(r["req"], msg["req"]);
        assert!(!r["message"].as_str().unwrap().is_empty());
        if kind == "illegal_move" {
            assert!(r["reason"].as_str().is_some(), "{r}");
        }
        send(ws, json!({ "type": "ping" })).await;
        assert_eq!(next_of(ws, &["pong"]).await["type"], "pong");
    }

    // Malformed and oversized messages get an error; the connection stays.
    for bad in [
        "not json".to_string(),
        r#"{"type":"move","game":"x"}"#.to_string(),
        r#"{"type":"fly"}"#.to_string(),
        "x".repeat(10_000),
    ] {
        b.send(Message::text(bad.clone())).await.unwrap();
        let e = next_of(&mut b, &["error"]).await;
        assert!(!e["message"].as_str().unwrap().is_empty(), "{bad}");
    }
    b.send(Message::binary(vec![1, 2, 3])).await.unwrap();
    next_of(&mut b, &["error"]).await;
    send(
        &mut b,
        json!({ "type": "move", "game": id, "move": "e7e5", "ply": 1 }),
    )
    .await;
    let ack = next_of(&mut b, &["ack", "refused"]).await;
    assert_eq!(ack["type"], "ack", "{ack}");
    assert_eq!(ack["req"], Value::Null);
    // A move event carries only the move, with the revision it makes.
    let g = next_of(&mut w, &["move"]).await;
    assert_eq!(g["move"]["uci"], "e7e5");
    assert_eq!(g["move"]["ply"], 1);
    assert_eq!(g["rev"], t.game(&id).await["rev"]);
    // Whole games come over HTTP and in snapshots.
    let full = t.game(&id).await;
    assert_eq!(full["moves_from"], 0);
    assert_eq!(full["moves"].as_array().unwrap().len(), 2);

    // Black leaves: White sees "disconnected", then "connected" again.
    b.close(None).await.unwrap();
    drop(b);
    presence(&mut w, true, false).await;
    assert_eq!(t.game(&id).await["online"]["black"]["connected"], false);
    let mut b = ws_connect(addr, Some(&black)).await;
    subscribe(&mut b, &id).await;
    presence(&mut w, true, true).await;

    // After the end, moves are refused with the reason.
    send(&mut w, json!({ "type": "resign", "game": id, "req": 9 })).await;
    let ack = next_of(&mut w, &["ack", "refused"]).await;
    assert_eq!(ack["action"], "resign");
    assert_eq!(ack["type"], "ack", "{ack}");
    let g = loop {
        let g = next_of(&mut s, &["game"]).await;
        if g["event"] != "move" {
            break g;
        }
    };
    assert_eq!(g["event"], "resign");
    assert_eq!(g["game"]["end"]["result"], "0-1");
    send(
        &mut b,
        json!({ "type": "move", "game": id, "move": "d7d5", "ply": 2, "req": 10 }),
    )
    .await;
    let r = next_of(&mut b, &["ack", "refused"]).await;
    assert_eq!(r["kind"], "game_over", "{r}");

    // A page from another site may not open the socket.
    let mut req = format!("ws://{addr}/api/ws").into_client_request().unwrap();
    req.headers_mut()
        .insert(header::ORIGIN, "http://evil.example".parse().unwrap());
    assert!(tokio_tungstenite::connect_async(req).await.is_err());
    let mut req = format!("ws://{addr}/api/ws").into_client_request().unwrap();
    req.headers_mut()
        .insert(header::ORIGIN, format!("http://{addr}").parse().unwrap());
    assert!(tokio_tungstenite::connect_async(req).await.is_ok());
    stop.send(()).unwrap();
}

#[tokio::test]
async fn reconnecting_resyncs_the_whole_game() {
    let t = TestApp::new();
    let (id, white, black) = t
        .started(json!({ "base_seconds": 300, "increment_seconds": 5 }))
        .await;
    for (i, (cookie, mv)) in [(&white, "e2e4"), (&black, "e7e5"), (&white, "b1b3")]
        .into_iter()
        .enumerate()
    {
        t.clock.advance(1_000);
        assert_eq!(t.play(&id, cookie, mv, i).await.status, StatusCode::OK);
    }
    t.act(&id, Some(&white), json!({ "type": "offer_draw" }))
        .await;
    t.clock.advance(2_500);
    let (addr, stop) = t.serve().await;
    // A page that reloads: a new connection, a whole snapshot.
    let mut b = ws_connect(addr, Some(&black)).await;
    let (sub, snap) = subscribe(&mut b, &id).await;
    assert_eq!(sub["seat"], "black");
    let g = &snap["game"];
    let http = t.get(&format!("/api/games/{id}"), Some(&black)).await.body;
    assert_eq!(http["you"], "black");
    for field in [
        "id",
        "variant",
        "mode",
        "rev",
        "start_fen",
        "position",
        "moves",
        "end",
        "online",
    ] {
        let mut want = http[field].clone();
        if field == "online" {
            // Presence differs: the HTTP request came while the socket was open.
            want["black"]["connected"] = g["online"]["black"]["connected"].clone();
        }
        assert_eq!(g[field], want, "snapshot field {field}");
    }
    assert_eq!(g["moves"].as_array().unwrap().len(), 3);
    assert_eq!(g["moves"][2]["san"], "Tb3");
    assert_eq!(g["position"]["turn"], "black");
    assert!(!g["position"]["legal"].as_array().unwrap().is_empty());
    assert_eq!(g["online"]["draw_offer"], "white");
    let clock = &g["online"]["clock"];
    assert_eq!(clock["running"], "black");
    assert_eq!(clock["white_ms"], 300_000 - 1_000 + 5_000);
    assert_eq!(clock["black_ms"], 300_000 - 2_500);
    assert_eq!(clock["base_ms"], 300_000);
    assert_eq!(clock["increment_ms"], 5_000);
    stop.send(()).unwrap();
}

async fn offer(t: &TestApp, id: &str, cookie: &str) -> Answer {
    t.act(id, Some(cookie), json!({ "type": "offer_draw" }))
        .await
}

#[tokio::test]
async fn draw_offers_are_accepted_declined_or_lapse_with_a_move() {
    let t = TestApp::new();
    let (id, white, black) = t.started(Value::Null).await;
    let r = offer(&t, &id, &white).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["online"]["draw_offer"], "white");
    expect_refused(
        &offer(&t, &id, &white).await,
        StatusCode::CONFLICT,
        "already_offered",
    );
    // Only the opponent answers.
    let r = t
        .act(&id, Some(&white), json!({ "type": "accept_draw" }))
        .await;
    expect_refused(&r, StatusCode::CONFLICT, "no_offer");
    let r = t.act(&id, None, json!({ "type": "accept_draw" })).await;
    expect_refused(&r, StatusCode::FORBIDDEN, "not_a_player");
    let r = t
        .act(&id, Some(&black), json!({ "type": "decline_draw" }))
        .await;
    assert_eq!(r.body["online"]["draw_offer"], Value::Null);
    // One offer per move.
    expect_refused(
        &offer(&t, &id, &white).await,
        StatusCode::CONFLICT,
        "too_soon",
    );
    t.play(&id, &white, "e2e4", 0).await;
    // Black offers, then moves: the offer stands; White's move declines it.
    offer(&t, &id, &black).await;
    let r = t.play(&id, &black, "e7e5", 1).await;
    assert_eq!(r.body["online"]["draw_offer"], "black");
    let r = t.play(&id, &white, "d2d4", 2).await;
    assert_eq!(r.body["online"]["draw_offer"], Value::Null);
    // Offered and accepted.
    offer(&t, &id, &black).await;
    let r = t
        .act(&id, Some(&white), json!({ "type": "accept_draw" }))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["end"]["result"], "1/2-1/2");
    assert_eq!(r.body["end"]["reason"], "agreement");
    expect_refused(
        &offer(&t, &id, &white).await,
        StatusCode::CONFLICT,
        "game_over",
    );
    // Offering when the opponent already offered is agreeing.
    let (id2, white2, black2) = t.started(Value::Null).await;
    t.act(&id2, Some(&black2), json!({ "type": "offer_draw" }))
        .await;
    let r = t
        .act(&id2, Some(&white2), json!({ "type": "offer_draw" }))
        .await;
    assert_eq!(r.body["end"]["reason"], "agreement");
}

#[tokio::test]
async fn abort_resign_and_rematch_with_colours_swapped() {
    let t = TestApp::new();
    // Abort while nobody has joined.
    let (id, creator, _) = t.create(json!({})).await;
    let r = t.act(&id, Some(&creator), json!({ "type": "abort" })).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["end"]["reason"], "aborted");
    assert_eq!(r.body["end"]["result"], "*");
    expect_refused(
        &t.play(&id, &creator, "e2e4", 0).await,
        StatusCode::CONFLICT,
        "game_over",
    );
    let r = t
        .post(&format!("/api/games/{id}/join"), None, json!({}))
        .await;
    expect_refused(&r, StatusCode::CONFLICT, "game_over");
    let row = t.listed(&id, &creator).await;
    assert_eq!(row["finished"], true);
    assert_eq!(row["end_reason"], "aborted");

    // Black may abort after White's first move; a resignation needs the game on.
    let (id, white, black) = t
        .started(json!({ "base_seconds": 180, "increment_seconds": 2 }))
        .await;
    t.play(&id, &white, "e2e4", 0).await;
    let r = t.act(&id, Some(&black), json!({ "type": "abort" })).await;
    assert_eq!(r.body["end"]["reason"], "aborted");
    let r = t.act(&id, Some(&black), json!({ "type": "resign" })).await;
    expect_refused(&r, StatusCode::CONFLICT, "game_over");

    // Resign, then a rematch: offered, declined, offered again, accepted.
    let (id, white, black) = t
        .started(json!({ "base_seconds": 180, "increment_seconds": 2 }))
        .await;
    expect_refused(
        &t.act(&id, Some(&white), json!({ "type": "rematch" })).await,
        StatusCode::CONFLICT,
        "not_over",
    );
    t.play(&id, &white, "e2e4", 0).await;
    let r = t.act(&id, Some(&white), json!({ "type": "resign" })).await;
    assert_eq!(r.body["end"]["result"], "0-1");
    assert_eq!(r.body["end"]["reason"], "resignation");
    let r = t.act(&id, Some(&black), json!({ "type": "rematch" })).await;
    assert_eq!(r.body["online"]["rematch_offer"], "black");
    expect_refused(
        &t.act(&id, Some(&black), json!({ "type": "rematch" })).await,
        StatusCode::CONFLICT,
        "already_offered",
    );
    let r = t
        .act(&id, Some(&white), json!({ "type": "decline_rematch" }))
        .await;
    assert_eq!(r.body["online"]["rematch_offer"], Value::Null);
    t.act(&id, Some(&black), json!({ "type": "rematch" })).await;
    let r = t.act(&id, Some(&white), json!({ "type": "rematch" })).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let next = r.body["online"]["rematch_id"]
        .as_str()
        .expect("a rematch")
        .to_string();
    assert_ne!(next, id);
    // Asking again finds the same rematch.
    let r = t.act(&id, Some(&black), json!({ "type": "rematch" })).await;
    assert_eq!(r.body["online"]["rematch_id"], next.as_str());

    // The rematch: colours swapped, same clock, the same players.
    let g = t.get(&format!("/api/games/{next}"), Some(&black)).await;
    assert_eq!(g.body["you"], "white");
    assert_eq!(g.body["online"]["rematch_of"], id.as_str());
    assert_eq!(g.body["online"]["clock"]["base_ms"], 180_000);
    assert_eq!(g.body["online"]["clock"]["increment_ms"], 2_000);
    assert_eq!(g.body["moves"], json!([]));
    assert_eq!(g.body["variant"], "tensor");
    let old_white_as_black = t.get(&format!("/api/games/{next}"), Some(&white)).await;
    assert_eq!(old_white_as_black.body["you"], "black");
    assert!(t.get(&format!("/api/games/{next}"), None).await.body["you"].is_null());
    let r = t.play(&next, &black, "e2e4", 0).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let r = t.play(&next, &white, "e7e5", 1).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    // Nobody else can join it.
    let r = t
        .post(&format!("/api/games/{next}/join"), None, json!({}))
        .await;
    expect_refused(&r, StatusCode::CONFLICT, "seats_taken");
}

#[tokio::test]
async fn behind_https_the_seat_cookie_is_secure() {
    let t = TestApp::new();
    let req = Request::builder()
        .method(Method::POST)
        .uri("/api/online")
        .header(header::CONTENT_TYPE, "application/json")
        .header("x-forwarded-proto", "https")
        .body(Body::from("{}"))
        .unwrap();
    let res = t.router.clone().oneshot(req).await.unwrap();
    assert_eq!(res.status(), StatusCode::CREATED);
    let cookie = res.headers()[header::SET_COOKIE].to_str().unwrap();
    assert!(cookie.split("; ").any(|a| a == "Secure"), "{cookie}");
    // Over plain HTTP (a server on a home network) it cannot be.
    let a = t.post("/api/online", None, json!({})).await;
    assert!(!a.set_cookie.unwrap().contains("Secure"));
}
