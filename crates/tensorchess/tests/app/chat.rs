//! Game chat: the players' room and the spectators' room kept apart,
//! limits (length, rate, guests), a player's mute of the other side, reports
//! for the operator and the operator's mute, and lines arriving live on the
//! WebSocket.

use crate::common::online::*;
use axum::http::StatusCode;
use serde_json::{json, Value};
use tensorchess::commands::admin::{act, AdminAction};
use tensorchess::server::clock::Clock;

async fn say(t: &TestApp, id: &str, cookie: &str, room: &str, text: &str) -> Answer {
    t.post(
        &format!("/api/games/{id}/chat"),
        Some(cookie),
        json!({ "room": room, "text": text }),
    )
    .await
}

async fn room(t: &TestApp, id: &str, cookie: Option<&str>, room: &str) -> Answer {
    t.get(&format!("/api/games/{id}/chat?room={room}"), cookie)
        .await
}

fn texts(chat: &Value) -> Vec<String> {
    chat["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["text"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn players_and_spectators_chat_apart() {
    let t = TestApp::new();
    let (id, white, black) = t.started(Value::Null).await;
    let sam = account(&t, "sam").await;

    let a = say(&t, &id, &white, "players", "  good luck\n<b>have fun</b> ").await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    assert_eq!(
        a.body["text"], "good luck <b>have fun</b>",
        "plain text, one line"
    );
    assert_eq!(a.body["seat"], "white");
    let a = say(&t, &id, &black, "players", "you too").await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    let chat = room(&t, &id, Some(&white), "players").await;
    assert_eq!(texts(&chat.body), ["good luck <b>have fun</b>", "you too"]);
    assert_eq!(chat.body["can_write"], true);
    assert_eq!(chat.body["lines"][1]["seat"], "black");

    // A spectator reads neither the players' room nor writes in it.
    expect_refused(
        &room(&t, &id, Some(&sam), "players").await,
        StatusCode::FORBIDDEN,
        "not_your_room",
    );
    expect_refused(
        &say(&t, &id, &sam, "players", "hi").await,
        StatusCode::FORBIDDEN,
        "not_your_room",
    );
    let a = say(&t, &id, &sam, "spectators", "what a game").await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    assert!(a.body.get("seat").is_none());
    // An author with an account is named by it (a link to the profile);
    // a guest player has none.
    assert_eq!(a.body["account"], "sam");
    assert!(
        chat.body["lines"][0].get("account").is_none(),
        "{}",
        chat.text
    );
    // A guest watching may read the spectators' room, not write in it.
    let guest = room(&t, &id, None, "spectators").await;
    assert_eq!(texts(&guest.body), ["what a game"]);
    assert_eq!(guest.body["lines"][0]["account"], "sam");
    assert_eq!(guest.body["can_write"], false);
    let g = guest.cookie.unwrap();
    expect_refused(
        &say(&t, &id, &g, "spectators", "hi").await,
        StatusCode::CONFLICT,
        "account_needed",
    );

    // The players do not see the spectators' room until the game ends.
    expect_refused(
        &room(&t, &id, Some(&white), "spectators").await,
        StatusCode::FORBIDDEN,
        "not_your_room",
    );
    expect_refused(
        &say(&t, &id, &black, "spectators", "hi").await,
        StatusCode::FORBIDDEN,
        "not_your_room",
    );
    let r = t.act(&id, Some(&black), json!({ "type": "resign" })).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let after = room(&t, &id, Some(&white), "spectators").await;
    assert_eq!(texts(&after.body), ["what a game"]);
    // Kept with the game: a server started again shows them.
    let t2 = t.reopen();
    let chat = room(&t2, &id, Some(&black), "players").await;
    assert_eq!(texts(&chat.body), ["good luck <b>have fun</b>", "you too"]);

    // A local game has no chat; a stranger's game does not exist.
    let local = t.post("/api/games", None, json!({ "mode": "local" })).await;
    let lid = local.body["id"].as_str().unwrap();
    let maker = local.cookie.unwrap();
    expect_refused(
        &say(&t, lid, &maker, "players", "hi").await,
        StatusCode::CONFLICT,
        "not_online",
    );
    assert_eq!(
        room(&t, lid, Some(&white), "players").await.status,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn chat_limits_hold() {
    let t = TestApp::new();
    let (id, white, _) = t.started(Value::Null).await;
    let long = "й".repeat(141);
    let a = say(&t, &id, &white, "players", &long).await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST, "{}", a.text);
    let a = say(&t, &id, &white, "players", " \u{200b} ").await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST, "{}", a.text);
    assert_eq!(
        say(&t, &id, &white, "players", &long[..280]).await.status,
        StatusCode::CREATED
    );
    for i in 0..4 {
        let a = say(&t, &id, &white, "players", &format!("line {i}")).await;
        assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    }
    let a = say(&t, &id, &white, "players", "one too many").await;
    expect_refused(&a, StatusCode::TOO_MANY_REQUESTS, "rate_limited");
    t.clock.advance(2_000);
    assert_eq!(
        say(&t, &id, &white, "players", "later").await.status,
        StatusCode::CREATED
    );
    let a = t
        .post(
            &format!("/api/games/{id}/chat"),
            Some(&white),
            json!({ "room": "lobby", "text": "x" }),
        )
        .await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST, "{}", a.text);
}

#[tokio::test]
async fn mutes_and_reports() {
    let t = TestApp::new();
    let (id, white, black) = t.started(Value::Null).await;
    say(&t, &id, &white, "players", "hello").await;
    let rude = say(&t, &id, &black, "players", "rude words").await;
    let rude_id = rude.body["id"].as_i64().unwrap();

    // White mutes Black: remembered, and Black's lines are left out for White.
    let mute = |muted: bool| {
        let (t, id, white) = (&t, &id, &white);
        async move {
            t.post(
                &format!("/api/games/{id}/chat/mute"),
                Some(white),
                json!({ "muted": muted }),
            )
            .await
        }
    };
    assert_eq!(mute(true).await.status, StatusCode::NO_CONTENT);
    let chat = room(&t.reopen(), &id, Some(&white), "players").await;
    assert_eq!(chat.body["muted"], true);
    assert_eq!(texts(&chat.body), ["hello"]);
    let theirs = room(&t, &id, Some(&black), "players").await;
    assert_eq!(
        texts(&theirs.body),
        ["hello", "rude words"],
        "only for White"
    );
    assert_eq!(mute(false).await.status, StatusCode::NO_CONTENT);
    assert_eq!(
        texts(&room(&t, &id, Some(&white), "players").await.body).len(),
        2
    );
    let sam = account(&t, "sam").await;
    let a = t
        .post(
            &format!("/api/games/{id}/chat/mute"),
            Some(&sam),
            json!({ "muted": true }),
        )
        .await;
    expect_refused(&a, StatusCode::FORBIDDEN, "not_a_player");

    // White reports the line; the operator sees it, once.
    let report = |cookie: String, msg: i64| {
        let t = &t;
        async move {
            t.post(&format!("/api/chat/{msg}/report"), Some(&cookie), json!({}))
                .await
        }
    };
    assert_eq!(
        report(white.clone(), rude_id).await.status,
        StatusCode::NO_CONTENT
    );
    assert_eq!(
        report(white.clone(), rude_id).await.status,
        StatusCode::NO_CONTENT
    );
    // A spectator cannot report (nor find) a line of the players' room.
    assert_eq!(
        report(sam.clone(), rude_id).await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        report(white.clone(), 999_999).await.status,
        StatusCode::NOT_FOUND
    );
    let store = t.open_store();
    let lines = act(&store, &AdminAction::Reports { close: None })
        .await
        .unwrap();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].contains("rude words") && lines[0].contains(&id),
        "{}",
        lines[0]
    );
    let number: i64 = lines[0].split('\t').next().unwrap().parse().unwrap();
    act(
        &store,
        &AdminAction::Reports {
            close: Some(number),
        },
    )
    .await
    .unwrap();
    let lines = act(&store, &AdminAction::Reports { close: None })
        .await
        .unwrap();
    assert_eq!(lines, ["no open reports"]);

    // The operator mutes Black for an hour: Black's lines are refused.
    let black_id = t.get("/api/me", Some(&black)).await.body["id"]
        .as_str()
        .unwrap()
        .to_string();
    act(
        &store,
        &AdminAction::Mute {
            target: black_id.clone(),
            hours: Some(1),
        },
    )
    .await
    .unwrap();
    let a = say(&t, &id, &black, "players", "still here").await;
    expect_refused(&a, StatusCode::FORBIDDEN, "muted");
    act(&store, &AdminAction::Unmute { target: black_id })
        .await
        .unwrap();
    assert_eq!(
        say(&t, &id, &black, "players", "sorry").await.status,
        StatusCode::CREATED
    );
    let _ = t.clock.now_ms();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lines_arrive_live_on_the_room_topic() {
    let t = TestApp::new();
    let (id, white, black) = t.started(Value::Null).await;
    say(&t, &id, &white, "players", "before").await;
    let (addr, _stop) = t.serve().await;
    let mut b = ws_connect(addr, Some(&black)).await;
    let topic = format!("chat:{id}:players");
    send(&mut b, json!({ "type": "subscribe", "topic": topic })).await;
    let history = next_of(&mut b, &["chat_history"]).await;
    assert_eq!(texts(&history["chat"]), ["before"]);
    say(&t, &id, &white, "players", "live").await;
    let line = next_of(&mut b, &["chat"]).await;
    assert_eq!(line["topic"], topic);
    assert_eq!(line["line"]["text"], "live");
    assert_eq!(line["line"]["seat"], "white");
    // A spectator may not follow the players' room.
    let mut s = ws_connect(addr, None).await;
    send(&mut s, json!({ "type": "subscribe", "topic": topic })).await;
    let e = next_of(&mut s, &["error", "chat_history"]).await;
    assert_eq!(e["type"], "error", "{e}");
    send(
        &mut s,
        json!({ "type": "subscribe", "topic": format!("chat:{id}:spectators") }),
    )
    .await;
    let h = next_of(&mut s, &["error", "chat_history"]).await;
    assert_eq!(h["type"], "chat_history", "{h}");
}

/// `GET /api/games/{id}/players`: each seat's player, with the account a
/// page challenges (a guest has none; a free seat is null).
#[tokio::test]
async fn a_games_players_name_their_accounts() {
    let t = TestApp::new();
    let (id, white, _black) = t.started(Value::Null).await;
    t.register(Some(&white), "wanda").await;
    let p = t.get(&format!("/api/games/{id}/players"), None).await;
    assert_eq!(p.status, StatusCode::OK, "{}", p.text);
    assert_eq!(p.body["white"]["account"], "wanda");
    assert_eq!(p.body["black"]["account"], Value::Null, "a guest");
    assert!(p.body["black"]["name"]
        .as_str()
        .unwrap()
        .starts_with("Guest "));

    let open = t.post("/api/online", None, json!({})).await;
    let oid = open.body["id"].as_str().unwrap();
    let p = t.get(&format!("/api/games/{oid}/players"), None).await;
    assert_eq!(p.status, StatusCode::OK, "{}", p.text);
    assert_eq!(p.body["black"], Value::Null, "a free seat");

    let local = t.post("/api/games", None, json!({ "mode": "local" })).await;
    let lid = local.body["id"].as_str().unwrap();
    let maker = local.cookie.unwrap();
    expect_refused(
        &t.get(&format!("/api/games/{lid}/players"), Some(&maker))
            .await,
        StatusCode::CONFLICT,
        "not_online",
    );
}
