//! Tournaments followed closely (issue 41): a Swiss of three played to its
//! end with its crosstable (every round's opponent, colour and result, the
//! bye on the line too), its rounds one by one, a player's games, its PGN
//! and TRF; a tournament's chat (the game chat's limits and moderation);
//! an arena's berserk marked only where it earned its point, a first move
//! not made lost alike on the game page, in the PGN and in the standings,
//! and nobody on fire once it is over.

use crate::common::online::*;
use crate::tournaments::{arena, create, post, rounds, running, standing, tick_at, view, START};
use crate::tournaments::{white_wins, Field};
use axum::http::StatusCode;
use serde_json::{json, Value};
use tensorchess::commands::admin::{act, AdminAction};

/// Black resigns game `p` after a move each, or White, when `white_wins`
/// is false.
async fn decide(t: &TestApp, f: &Field, p: &Value, white_wins: bool) {
    let id = p["game"].as_str().unwrap();
    let (white, black) = (f.of(&p["white"]["name"]), f.of(&p["black"]["name"]));
    assert_eq!(t.play(id, white, "e2e4", 0).await.status, StatusCode::OK);
    assert_eq!(t.play(id, black, "e7e5", 1).await.status, StatusCode::OK);
    let loser = if white_wins { black } else { white };
    let r = t.act(id, Some(loser), json!({ "type": "resign" })).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_swiss_of_three_has_its_crosstable_rounds_games_and_files() {
    let t = TestApp::new();
    let f = Field::new(&t, &["ann", "bob", "cyd"]).await;
    let mut body = rounds("Three Swiss", "swiss");
    body["rounds"] = json!(3);
    let id = create(&t, f.of(&json!("ann")), body).await;
    for n in ["ann", "bob", "cyd"] {
        post(&t, &id, "join", f.of(&json!(n))).await;
    }
    // Three rounds of one game and a bye: White wins each.
    for round in 1..=3 {
        tick_at(&t, START + i64::from(round) * 10_000).await;
        let v = view(&t, &id).await;
        assert_eq!(v["round"], round, "{v}");
        let games = running(&v);
        assert_eq!(games.len(), 1, "{v}");
        // Who plays shows on their line, with the game; the bye's does not.
        let p = &games[0];
        for side in ["white", "black"] {
            let line = standing(&v, p[side]["name"].as_str().unwrap());
            assert_eq!(line["playing"], p["game"], "{v}");
            assert_eq!(
                line["player"]["account"], p[side]["name"],
                "a link to the profile"
            );
        }
        let sat_out: Vec<&Value> = v["standings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| s["playing"].is_null())
            .collect();
        assert_eq!(sat_out.len(), 1, "{v}");
        let cell = sat_out[0]["rounds"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["round"] == round)
            .cloned()
            .unwrap_or_else(|| panic!("round {round}'s bye: {v}"));
        assert_eq!(cell, json!({ "round": round, "result": "1", "bye": true }));
        white_wins(&t, &f, p).await;
    }
    tick_at(&t, START + 40_000).await;
    let v = view(&t, &id).await;
    assert_eq!(v["state"], "finished", "{v}");
    assert_eq!(v["top_game"], Value::Null);

    // The crosstable: three rounds each, two games and a bye; the opponent
    // named by their rank, the colours and results theirs.
    let lines = v["standings"].as_array().unwrap();
    let rank_of = |id: &Value| -> Value {
        lines.iter().find(|s| &s["player"]["id"] == id).unwrap()["rank"].clone()
    };
    for s in lines {
        let cells = s["rounds"].as_array().unwrap();
        let played: Vec<&str> = cells
            .iter()
            .map(|c| c["result"].as_str().unwrap())
            .collect();
        assert_eq!(cells.len(), 3, "{s}");
        assert_eq!(cells.iter().filter(|c| c["bye"] == true).count(), 1, "{s}");
        // The bye is on the line: its point among the results, in its round.
        assert_eq!(s["points_line"], played.join(" "), "{s}");
        let half: u32 = played
            .iter()
            .map(|r| match *r {
                "1" => 2,
                "½" => 1,
                _ => 0,
            })
            .sum();
        assert_eq!(s["points"], half, "{s}");
        let me = s["player"]["id"].as_str().unwrap();
        let games = t
            .get(&format!("/api/tournaments/{id}/players/{me}"), None)
            .await;
        assert_eq!(games.status, StatusCode::OK, "{}", games.text);
        let games = games.body["games"].as_array().unwrap().clone();
        assert_eq!(games.len(), 2, "{games:?}");
        for c in cells.iter().filter(|c| c["bye"] != true) {
            let g = games.iter().find(|g| g["game"] == c["game"]).unwrap();
            assert_eq!(g["color"], c["color"]);
            assert_eq!(g["result"], c["result"]);
            assert_eq!(g["round"], c["round"]);
            assert_eq!(c["opponent"], rank_of(&g["opponent"]["id"]), "{s}");
            // White won every game.
            assert_eq!(c["result"], if c["color"] == "white" { "1" } else { "0" });
        }
    }

    // Its rounds one by one: the game and the bye of each.
    for round in 1..=3 {
        let r = t
            .get(&format!("/api/tournaments/{id}/round/{round}"), None)
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        assert_eq!(
            r.body["pairings"].as_array().unwrap().len(),
            1,
            "{}",
            r.text
        );
        assert_eq!(r.body["pairings"][0]["result"], "1-0");
        assert_eq!(r.body["byes"].as_array().unwrap().len(), 1);
        assert_eq!(r.body["byes"][0]["result"], "1");
    }
    let none = t.get(&format!("/api/tournaments/{id}/round/4"), None).await;
    assert_eq!(none.status, StatusCode::NOT_FOUND, "{}", none.text);
    let nobody = t
        .get(&format!("/api/tournaments/{id}/players/nobody"), None)
        .await;
    assert_eq!(nobody.status, StatusCode::NOT_FOUND, "{}", nobody.text);

    // The files: every game, the event and round named; the TRF.
    let pgn = t.get(&format!("/api/tournaments/{id}/games"), None).await;
    assert_eq!(pgn.status, StatusCode::OK);
    assert_eq!(
        pgn.text.matches("[Event \"Three Swiss\"]").count(),
        3,
        "{}",
        pgn.text
    );
    for round in 1..=3 {
        assert!(
            pgn.text.contains(&format!("[Round \"{round}\"]")),
            "{}",
            pgn.text
        );
    }
    assert_eq!(
        pgn.text.matches("[Result \"1-0\"]").count(),
        3,
        "{}",
        pgn.text
    );
    let trf = t.get(&format!("/api/tournaments/{id}/trf"), None).await;
    assert_eq!(trf.status, StatusCode::OK);
    assert_eq!(trf.text.lines().filter(|l| l.starts_with("001")).count(), 3);

    // An arena has no rounds.
    let mut later = arena("No rounds", 30);
    later["starts_at"] = json!(START + 3_600_000);
    let a = create(&t, f.of(&json!("ann")), later).await;
    let r = t.get(&format!("/api/tournaments/{a}/round/1"), None).await;
    expect_refused(&r, StatusCode::CONFLICT, "not_allowed");
}

/// The texts of a chat view's lines.
fn texts(chat: &Value) -> Vec<&str> {
    chat["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["text"].as_str().unwrap())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_has_a_chat_with_the_game_chats_limits_and_moderation() {
    let t = TestApp::new();
    let ann = account(&t, "ann").await;
    let bob = account(&t, "bob").await;
    let id = create(&t, &ann, arena("Chatty", 30)).await;
    post(&t, &id, "join", &ann).await;
    let uri = format!("/api/tournaments/{id}/chat");
    let say = |cookie: String, text: &str| {
        let t = &t;
        let uri = uri.clone();
        let text = text.to_string();
        async move { t.post(&uri, Some(&cookie), json!({ "text": text })).await }
    };
    let (addr, _stop) = t.serve().await;
    let mut ws = ws_connect(addr, Some(&bob)).await;
    let topic = format!("chat:{id}:tournament");
    send(&mut ws, json!({ "type": "subscribe", "topic": topic })).await;
    let history = next_of(&mut ws, &["chat_history"]).await;
    assert_eq!(history["chat"]["room"], "tournament", "{history}");
    assert_eq!(history["chat"]["can_write"], true, "an account writes");

    // A player's line, kept as text, reaches a watcher live.
    let a = say(ann.clone(), "good luck <b>all</b>").await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    assert_eq!(a.body["room"], "tournament");
    let line = next_of(&mut ws, &["chat"]).await;
    assert_eq!(line["topic"], topic);
    assert_eq!(line["line"]["text"], "good luck <b>all</b>");
    assert_eq!(line["line"]["name"], "ann");
    let ann_line = a.body["id"].as_i64().unwrap();

    // A guest watcher reads it and may not write; a guest who joined may.
    let guest = t.get("/api/me", None).await.cookie.unwrap();
    let h = t.get(&uri, Some(&guest)).await;
    assert_eq!(texts(&h.body), ["good luck <b>all</b>"], "{}", h.text);
    assert_eq!(h.body["can_write"], false);
    expect_refused(
        &say(guest.clone(), "hi").await,
        StatusCode::CONFLICT,
        "account_needed",
    );
    assert_eq!(post(&t, &id, "join", &guest).await.status, StatusCode::OK);
    assert_eq!(say(guest.clone(), "hi").await.status, StatusCode::CREATED);

    // The limits: 140 characters; five back to back.
    let long = "x".repeat(141);
    expect_refused(
        &say(bob.clone(), &long).await,
        StatusCode::BAD_REQUEST,
        "bad_request",
    );
    for i in 0..5 {
        let a = say(bob.clone(), &format!("line {i}")).await;
        assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    }
    let a = say(bob.clone(), "one more").await;
    assert_eq!(a.status, StatusCode::TOO_MANY_REQUESTS, "{}", a.text);

    // A report, for the operator; the operator's mute hides ann's lines.
    let r = t
        .post(
            &format!("/api/chat/{ann_line}/report"),
            Some(&guest),
            json!({}),
        )
        .await;
    assert_eq!(r.status, StatusCode::NO_CONTENT, "{}", r.text);
    let store = t.open_store();
    let reports = act(&store, &AdminAction::Reports { close: None })
        .await
        .unwrap();
    assert_eq!(reports.len(), 1, "{reports:?}");
    assert!(reports[0].contains("good luck") && reports[0].contains("tournament"));
    let ann_id = player_id(&t, &ann).await;
    act(
        &store,
        &AdminAction::Mute {
            target: ann_id,
            hours: Some(1),
        },
    )
    .await
    .unwrap();
    expect_refused(
        &say(ann.clone(), "still here").await,
        StatusCode::FORBIDDEN,
        "muted",
    );
    let h = t.get(&uri, Some(&bob)).await;
    assert!(
        !texts(&h.body).contains(&"good luck <b>all</b>"),
        "{}",
        h.text
    );

    // No such tournament; a game has no tournament's room.
    let a = t.get("/api/tournaments/nosuchthing/chat", Some(&bob)).await;
    assert_eq!(a.status, StatusCode::NOT_FOUND, "{}", a.text);
    let mut w = ws_connect(addr, None).await;
    send(
        &mut w,
        json!({ "type": "subscribe", "topic": "chat:nosuchthing:tournament" }),
    )
    .await;
    assert_eq!(
        next_of(&mut w, &["error", "chat_history"]).await["type"],
        "error"
    );
    let (game, white, _) = t.started(Value::Null).await;
    let a = t
        .get(
            &format!("/api/games/{game}/chat?room=tournament"),
            Some(&white),
        )
        .await;
    expect_refused(&a, StatusCode::FORBIDDEN, "not_your_room");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_arena_marks_only_an_earned_berserk_and_nobody_on_fire_once_over() {
    let t = TestApp::new();
    let f = Field::new(&t, &["ann", "bob", "cyd", "dee"]).await;
    let id = create(&t, f.of(&json!("ann")), arena("Marks", 10)).await;
    for n in ["ann", "bob", "cyd", "dee"] {
        post(&t, &id, "join", f.of(&json!(n))).await;
    }
    tick_at(&t, START).await;
    let games = running(&view(&t, &id).await);
    assert_eq!(games.len(), 2);
    // Both Whites berserk: the first loses, the second wins in 4 plies.
    for p in &games {
        let uri = format!("/api/games/{}/berserk", p["game"].as_str().unwrap());
        let a = t
            .post(&uri, Some(f.of(&p["white"]["name"])), json!({}))
            .await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    }
    decide(&t, &f, &games[0], false).await;
    decide(&t, &f, &games[1], true).await;
    tick_at(&t, START + 2_000).await;
    let v = view(&t, &id).await;
    let mark = |p: &Value| standing(&v, p["white"]["name"].as_str().unwrap())["sheet"][0].clone();
    assert_eq!(
        mark(&games[0]),
        json!({ "points": 0, "fire": false, "berserk": true, "berserk_bonus": false }),
        "a berserked loss: no point, no mark"
    );
    assert_eq!(
        mark(&games[1]),
        json!({ "points": 2, "fire": false, "berserk": true, "berserk_bonus": false }),
        "a berserked win of fewer than 14 plies: no point"
    );
    // The line's games, the same marks.
    let white = standing(&v, games[1]["white"]["name"].as_str().unwrap())["player"]["id"].clone();
    let g = t
        .get(
            &format!("/api/tournaments/{id}/players/{}", white.as_str().unwrap()),
            None,
        )
        .await;
    assert_eq!(g.status, StatusCode::OK, "{}", g.text);
    assert_eq!(g.body["games"][0]["result"], "1", "{}", g.text);
    assert_eq!(g.body["games"][0]["berserked"], true);
    assert_eq!(g.body["games"][0]["sheet"], mark(&games[1]));

    // The next wave: whoever has more points wins; two wins in a row set
    // someone on fire.
    let again = running(&v);
    assert_eq!(again.len(), 2, "{v}");
    for p in &again {
        let points =
            |side: &str| standing(&v, p[side]["name"].as_str().unwrap())["points"].as_u64();
        decide(&t, &f, p, points("white") >= points("black")).await;
    }
    tick_at(&t, START + 4_000).await;
    let v = view(&t, &id).await;
    assert!(
        v["standings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["on_fire"] == true),
        "{v}"
    );
    // The arena ends with the games over: nobody is on fire any more.
    for p in running(&v) {
        decide(&t, &f, &p, true).await;
    }
    tick_at(&t, START + 10 * 60_000 + 1).await;
    tick_at(&t, START + 10 * 60_000 + 2_000).await;
    let v = view(&t, &id).await;
    assert_eq!(v["state"], "finished", "{v}");
    assert!(
        v["standings"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["on_fire"] == false),
        "{v}"
    );
    assert_eq!(v["top_game"], Value::Null);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_arena_game_whose_first_move_is_not_made_is_lost_on_every_page() {
    let t = TestApp::new();
    let f = Field::new(&t, &["ann", "bob"]).await;
    let id = create(&t, f.of(&json!("ann")), arena("No show", 30)).await;
    for n in ["ann", "bob"] {
        post(&t, &id, "join", f.of(&json!(n))).await;
    }
    tick_at(&t, START).await;
    let p = running(&view(&t, &id).await)[0].clone();
    let game = p["game"].as_str().unwrap().to_string();
    let at = START + 60_000;
    t.armed_for(at).await;
    t.clock.set(at);
    let g = t
        .wait_for(&game, "the no-show", |g| g["end"].is_object())
        .await;
    // The game page: White lost, as the standings count it.
    assert_eq!(
        (
            &g["end"]["reason"],
            &g["end"]["winner"],
            &g["end"]["no_show"],
            &g["end"]["result"]
        ),
        (
            &json!("no_start"),
            &json!("black"),
            &json!("white"),
            &json!("0-1")
        ),
        "{g}"
    );
    assert!(
        g["end"]["text"].as_str().unwrap().starts_with("Black wins"),
        "{g}"
    );
    tick_at(&t, at + 2_000).await;
    let v = view(&t, &id).await;
    let (white, black) = (
        p["white"]["name"].as_str().unwrap(),
        p["black"]["name"].as_str().unwrap(),
    );
    assert_eq!(standing(&v, white)["points"], 0, "{v}");
    assert_eq!(standing(&v, black)["points"], 2, "{v}");
    // The line's games and the PGN say the same.
    let white_id = standing(&v, white)["player"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let mine = t
        .get(&format!("/api/tournaments/{id}/players/{white_id}"), None)
        .await;
    assert_eq!(
        (
            &mine.body["games"][0]["result"],
            &mine.body["games"][0]["no_show"]
        ),
        (&json!("0"), &json!("white")),
        "{}",
        mine.text
    );
    let pgn = t.get(&format!("/api/tournaments/{id}/games"), None).await;
    assert!(pgn.text.contains("[Result \"0-1\"]"), "{}", pgn.text);
    assert!(pgn.text.contains("[Round \"-\"]"), "{}", pgn.text);
}
