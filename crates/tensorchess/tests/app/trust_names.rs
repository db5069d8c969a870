//! Names and moderation (issue 38, item 10): display names that pass for
//! a guest's or for another account's user name, or show nothing, are
//! refused; reports are one per reporter and line, name their reporters
//! and are bounded; a muted player speaks neither through a decline's
//! reason nor as a guest after logging out, and the operator's mute hides
//! their earlier lines.

use crate::common::online::*;
use axum::http::{Method, StatusCode};
use serde_json::{json, Value};
use tensorchess::commands::admin::{act, AdminAction};
use tensorchess::server::chat::MAX_OPEN_REPORTS_PER_REPORTER;

async fn rename(t: &TestApp, cookie: Option<&str>, name: &str) -> Answer {
    t.req(
        Method::PATCH,
        "/api/me",
        cookie,
        Some(json!({ "name": name })),
    )
    .await
}

#[tokio::test]
async fn names_that_pass_for_another_or_show_nothing_are_refused() {
    let t = TestApp::new();
    let ada = account(&t, "ada").await;
    let guest = t.get("/api/me", None).await.cookie.unwrap();
    for name in [
        "Gu\u{435}st 1a2b",  // a Cyrillic е
        "\u{ff27}uest 1a2b", // a full-width Ｇ
        "GUEST-1A2B",
        "\u{3164}",         // Hangul filler
        "\u{2800}",         // braille blank
        "\u{115f}\u{1160}", // Hangul choseong and jungseong fillers
        "a\u{3164}b",       // a filler between letters
        "\u{301}\u{301}",   // combining marks with nothing under them
        "x\u{e0041}",       // a tag character
    ] {
        let a = rename(&t, Some(&guest), name).await;
        expect_refused(&a, StatusCode::BAD_REQUEST, "bad_request");
        assert!(!a.text.is_empty(), "{name:?}");
    }
    for name in ["ada", "ADA", "\u{430}d\u{430}", "\u{ff41}da"] {
        let a = rename(&t, Some(&guest), name).await;
        expect_refused(&a, StatusCode::CONFLICT, "name_taken");
    }
    for name in ["Ada Lovelace", "\u{265e} rider", "Олена", "Guest", "adam"] {
        let a = rename(&t, Some(&guest), name).await;
        assert_eq!(a.status, StatusCode::OK, "{name:?}: {}", a.text);
    }
    // One's own user name is one's to show.
    let a = rename(&t, Some(&ada), "Ada").await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
}

async fn say(t: &TestApp, id: &str, cookie: &str, room: &str, text: &str) -> Answer {
    let body = json!({ "room": room, "text": text });
    t.post(&format!("/api/games/{id}/chat"), Some(cookie), body)
        .await
}

async fn report(t: &TestApp, client: &str, cookie: Option<&str>, line: i64) -> Answer {
    let uri = format!("/api/chat/{line}/report");
    via_proxy(t, Method::POST, &uri, client, cookie, Some(json!({}))).await
}

#[tokio::test]
async fn reports_are_one_per_reporter_and_line_and_bounded() {
    let t = TestApp::with(behind_proxy);
    let (id, _white, _black) = t.started(Value::Null).await;
    let loud = account(&t, "loud").await;
    let mut lines = Vec::new();
    for i in 0..25 {
        let a = say(&t, &id, &loud, "spectators", &format!("line {i}")).await;
        assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
        lines.push(a.body["id"].as_i64().unwrap());
        t.clock.advance(2_000);
    }
    let sam = account_from(&t, "198.51.100.1", "sam").await;
    for line in &lines[..MAX_OPEN_REPORTS_PER_REPORTER] {
        let a = report(&t, "198.51.100.1", Some(&sam), *line).await;
        assert_eq!(a.status, StatusCode::NO_CONTENT, "{}", a.text);
    }
    // Again: nothing more is stored, and nothing refused.
    let a = report(&t, "198.51.100.1", Some(&sam), lines[0]).await;
    assert_eq!(a.status, StatusCode::NO_CONTENT, "{}", a.text);
    let a = report(&t, "198.51.100.1", Some(&sam), lines[20]).await;
    expect_refused(&a, StatusCode::TOO_MANY_REQUESTS, "too_many");

    let store = t.open_store();
    let listed = act(&store, &AdminAction::Reports { close: None })
        .await
        .unwrap();
    assert_eq!(listed.len(), MAX_OPEN_REPORTS_PER_REPORTER, "{listed:?}");
    assert!(
        listed[0].contains("sam ("),
        "the reporter named: {}",
        listed[0]
    );

    // Fresh guests from one address: twenty open reports in all.
    let mut stored = 0;
    for g in 0..3 {
        let guest = t.get("/api/me", None).await.cookie.unwrap();
        for line in &lines[g * 8..g * 8 + 8] {
            let a = report(&t, "203.0.113.3", Some(&guest), *line).await;
            if a.status == StatusCode::NO_CONTENT {
                stored += 1;
            } else {
                expect_refused(&a, StatusCode::TOO_MANY_REQUESTS, "too_many");
            }
            t.clock.advance(1_000);
        }
    }
    assert_eq!(stored, 20);
}

async fn me_id(t: &TestApp, cookie: &str) -> String {
    t.get("/api/me", Some(cookie)).await.body["id"]
        .as_str()
        .unwrap()
        .to_string()
}

fn texts(chat: &Value) -> Vec<String> {
    chat["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["text"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_muted_player_says_nothing_through_declines_or_as_a_guest() {
    let t = TestApp::with(behind_proxy);
    let store = t.open_store();
    let rude = account_from(&t, "203.0.113.66", "rude").await;
    let ann = account_from(&t, "198.51.100.1", "ann").await;
    // Rude speaks in a game with Ann, then is muted by the operator.
    let made = via_proxy(
        &t,
        Method::POST,
        "/api/challenges",
        "198.51.100.1",
        Some(&ann),
        Some(json!({ "to": "rude" })),
    )
    .await;
    let cid = made.body["id"].as_str().unwrap();
    let game = t
        .post(
            &format!("/api/challenges/{cid}/accept"),
            Some(&rude),
            json!({}),
        )
        .await;
    let game = game.body["game"].as_str().unwrap().to_string();
    assert_eq!(
        say(&t, &game, &ann, "players", "good luck").await.status,
        StatusCode::CREATED
    );
    assert_eq!(
        say(&t, &game, &rude, "players", "rude words").await.status,
        StatusCode::CREATED
    );
    let rude_id = me_id(&t, &rude).await;
    act(
        &store,
        &AdminAction::Mute {
            target: "rude".into(),
            hours: None,
        },
    )
    .await
    .unwrap();

    // The mute hides the earlier lines from everyone, while it lasts.
    let history = t
        .get(&format!("/api/games/{game}/chat?room=players"), Some(&ann))
        .await;
    assert_eq!(texts(&history.body), ["good luck"]);

    // A decline's reason is speech; a bare decline or an offered reason is not.
    let challenge = |reason: Value| {
        let (t, ann, rude) = (&t, &ann, &rude);
        async move {
            let made = t
                .post("/api/challenges", Some(ann), json!({ "to": "rude" }))
                .await;
            let id = made.body["id"].as_str().unwrap().to_string();
            t.post(&format!("/api/challenges/{id}/decline"), Some(rude), reason)
                .await
        }
    };
    let a = challenge(json!({ "reason": "you are all losers" })).await;
    expect_refused(&a, StatusCode::FORBIDDEN, "muted");
    let a = challenge(json!({})).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let later = "This is not the right time for me, please ask again later.";
    let a = challenge(json!({ "reason": later })).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    assert_eq!(a.body["reason"], later);

    // Logged out, Rude is a guest: muted still, in a game of their own,
    // and so is a fresh browser at Rude's address; a guest elsewhere is not.
    let out = via_proxy(
        &t,
        Method::POST,
        "/api/account/logout",
        "203.0.113.66",
        Some(&rude),
        Some(json!({})),
    )
    .await;
    assert_eq!(out.status, StatusCode::OK, "{}", out.text);
    let as_guest = out.cookie.unwrap();
    let fresh = t.get("/api/me", None).await.cookie.unwrap();
    let elsewhere = t.get("/api/me", None).await.cookie.unwrap();
    for (cookie, client, muted) in [
        (&as_guest, "203.0.113.66", true),
        (&fresh, "203.0.113.66", true),
        (&elsewhere, "192.0.2.5", false),
    ] {
        let (id, host, _) = t
            .create(json!({ "variant": "tensor", "color": "white" }))
            .await;
        let join = via_proxy(
            &t,
            Method::POST,
            &format!("/api/games/{id}/join"),
            client,
            Some(cookie),
            Some(json!({})),
        )
        .await;
        assert_eq!(join.status, StatusCode::OK, "{}", join.text);
        let body = json!({ "room": "players", "text": "hello again" });
        let a = via_proxy(
            &t,
            Method::POST,
            &format!("/api/games/{id}/chat"),
            client,
            Some(cookie),
            Some(body),
        )
        .await;
        if muted {
            expect_refused(&a, StatusCode::FORBIDDEN, "muted");
        } else {
            assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
        }
        let _ = host;
    }
    // An account at that address still speaks.
    let cat = account_from(&t, "203.0.113.66", "cat").await;
    let (id, _, _) = t
        .create(json!({ "variant": "tensor", "color": "white" }))
        .await;
    let join = via_proxy(
        &t,
        Method::POST,
        &format!("/api/games/{id}/join"),
        "203.0.113.66",
        Some(&cat),
        Some(json!({})),
    )
    .await;
    assert_eq!(join.status, StatusCode::OK, "{}", join.text);
    let body = json!({ "room": "players", "text": "hi" });
    let a = via_proxy(
        &t,
        Method::POST,
        &format!("/api/games/{id}/chat"),
        "203.0.113.66",
        Some(&cat),
        Some(body),
    )
    .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);

    // Unmuted, the earlier lines are back.
    act(&store, &AdminAction::Unmute { target: rude_id })
        .await
        .unwrap();
    let history = t
        .get(&format!("/api/games/{game}/chat?room=players"), Some(&ann))
        .await;
    assert_eq!(texts(&history.body), ["good luck", "rude words"]);
}
