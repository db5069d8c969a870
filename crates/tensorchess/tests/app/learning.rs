//! Learning in the app (issue 16), through the API: live analysis over the
//! WebSocket, game reviews stored with their games, rated puzzles, and
//! lessons judged on the server; all engine work through the search budget.

use crate::common::TestApp;
use axum::http::StatusCode;
use futures_util::SinkExt;
use serde_json::{json, Value};
use std::time::{Duration, Instant};
use tensorchess::server::ServerConfig;
use tokio_tungstenite::tungstenite::Message;

use crate::common::online::{next, Ws as Socket};

/// A WebSocket to `t`'s server (served on a real socket), as `t`'s player.
async fn socket(t: &TestApp) -> (Socket, tokio::sync::oneshot::Sender<()>) {
    // A first request gives the client its identity cookie.
    t.get("/api/me").await;
    let (addr, stop) = t.serve().await;
    (t.ws(addr).await, stop)
}

async fn send(ws: &mut Socket, v: Value) {
    ws.send(Message::text(v.to_string())).await.unwrap();
}

#[tokio::test]
async fn analysis_streams_multipv_lines_in_san_and_stops() {
    let t = TestApp::new();
    let game = t.create(json!({ "mode": "local" })).await;
    let legal: Vec<(String, String)> = game["position"]["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["uci"].as_str().unwrap().to_string(),
                m["san"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let (mut ws, _stop) = socket(&t).await;
    send(
        &mut ws,
        json!({ "type": "analyse", "id": 7, "variant": "tensor", "multipv": 3 }),
    )
    .await;
    let first = next(&mut ws).await;
    assert_eq!(first["type"], "analysis", "{first}");
    assert_eq!(first["id"], 7);
    assert!(first["depth"].as_u64().unwrap() >= 1);
    let lines = first["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 3, "MultiPV 3: {first}");
    let mut firsts = Vec::new();
    for line in lines {
        let uci = line["uci"][0].as_str().unwrap();
        let san = line["san"][0].as_str().unwrap();
        assert!(
            legal.contains(&(uci.to_string(), san.to_string())),
            "{uci} {san} is a legal first move in SAN"
        );
        assert_eq!(
            line["san"].as_array().unwrap().len(),
            line["uci"].as_array().unwrap().len()
        );
        assert!(line["score"]["cp"].is_i64() || line["score"]["mate"].is_i64());
        assert!(line["path"].is_object(), "an arrow for the first move");
        firsts.push(uci.to_string());
    }
    firsts.dedup();
    assert_eq!(firsts.len(), 3, "three different moves");
    // Deeper depths come, then a stop ends it with `done`.
    let mut depth = first["depth"].as_u64().unwrap();
    let second = next(&mut ws).await;
    assert_eq!(second["type"], "analysis");
    assert!(second["depth"].as_u64().unwrap() > depth || second["done"] == true);
    depth = depth.max(second["depth"].as_u64().unwrap());
    send(&mut ws, json!({ "type": "analyse_stop", "id": 7 })).await;
    let started = Instant::now();
    loop {
        let msg = next(&mut ws).await;
        assert_eq!(msg["id"], 7);
        if msg["done"] == true {
            assert!(msg["depth"].as_u64().unwrap() >= depth);
            assert_eq!(msg["lines"].as_array().unwrap().len(), 3);
            break;
        }
    }
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "stopped at once"
    );
    assert_eq!(t.state.learning.analyses.count(), 0);

    // A position after moves, from a FEN; a new request replaces the old.
    send(
        &mut ws,
        json!({ "type": "analyse", "id": 8, "variant": "chess", "moves": ["e2e4", "e7e5"], "multipv": 9 }),
    )
    .await;
    send(
        &mut ws,
        json!({ "type": "analyse", "id": 9, "variant": "chess",
                "fen": "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1" }),
    )
    .await;
    loop {
        let msg = next(&mut ws).await;
        if msg["id"] == 9 {
            assert_eq!(msg["lines"][0]["san"][0], "Ra8#", "{msg}");
            assert_eq!(msg["lines"][0]["score"]["mate"], 1);
            break;
        }
        assert_eq!(msg["id"], 8);
        assert!(
            msg["lines"].as_array().unwrap().len() <= 5,
            "MultiPV at most 5"
        );
    }
    send(&mut ws, json!({ "type": "analyse_stop", "id": 9 })).await;
    // Illegal moves are refused with a reason.
    send(
        &mut ws,
        json!({ "type": "analyse", "id": 10, "variant": "chess", "moves": ["e2e5"] }),
    )
    .await;
    loop {
        let msg = next(&mut ws).await;
        if msg["id"] == 10 {
            assert_eq!(msg["type"], "analysis_refused", "{msg}");
            assert_eq!(msg["kind"], "illegal_move");
            break;
        }
    }
}

/// A finished local game of chess (fool's mate), made by `t`.
async fn fools_mate(t: &TestApp) -> String {
    let game = t
        .create(json!({ "mode": "local", "variant": "chess" }))
        .await;
    let id = game["id"].as_str().unwrap().to_string();
    for mv in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        let (status, g) = t.play(&id, mv).await;
        assert_eq!(status, StatusCode::OK, "{g}");
    }
    id
}

async fn review_done(t: &TestApp, id: &str) -> Value {
    let started = Instant::now();
    loop {
        let (status, r) = t.get(&format!("/api/games/{id}/review")).await;
        assert_eq!(status, StatusCode::OK, "{r}");
        if r["status"] == "done" {
            return r;
        }
        assert!(
            ["queued", "running"].contains(&r["status"].as_str().unwrap()),
            "{r}"
        );
        assert!(started.elapsed() < Duration::from_secs(60), "{r}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn a_review_is_stored_with_its_game_and_only_its_owner_sees_it() {
    let t = TestApp::new();
    let id = fools_mate(&t).await;
    let path = format!("/api/games/{id}/review");
    let (_, none) = t.get(&path).await;
    assert_eq!(none["status"], "none");

    // Strangers get 404, as for every route of another's local game.
    let stranger = t.stranger();
    assert_eq!(stranger.get(&path).await.0, StatusCode::NOT_FOUND);
    assert_eq!(
        stranger.post(&path, json!({})).await.0,
        StatusCode::NOT_FOUND
    );

    let (status, started) = t.post(&path, json!({})).await;
    assert!(
        status == StatusCode::ACCEPTED || status == StatusCode::OK,
        "{started}"
    );
    let done = review_done(&t, &id).await;
    let review = &done["review"];
    let plies = review["plies"].as_array().unwrap();
    assert_eq!(plies.len(), 4);
    assert_eq!(plies[3]["san"], "Qh4#");
    // White's g4 lets mate in one: a blunder, with the better move.
    assert_eq!(plies[2]["judgement"], "blunder", "{}", plies[2]);
    assert!(plies[2]["better"]["san"].is_string());
    assert_eq!(review["white"]["blunders"], 1);
    assert!(review["white"]["accuracy"].is_number());

    // The second time it is answered at once, from the store.
    let (status, again) = t.post(&path, json!({})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(again["status"], "done");
    assert_eq!(again["review"], *review);
    let restarted = t.restart();
    let (status, stored) = restarted.get(&path).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(stored["review"], *review, "kept over a restart");

    // A game in progress is analysed, not reviewed.
    let open = t.create(json!({ "mode": "local" })).await;
    let open_id = open["id"].as_str().unwrap();
    let (status, err) = restarted
        .post(&format!("/api/games/{open_id}/review"), json!({}))
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{err}");

    // Deleting the game deletes its review.
    let (status, _) = restarted
        .call(
            axum::http::Method::DELETE,
            &format!("/api/games/{id}"),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let store = restarted.state.games.live.store().clone();
    assert_eq!(store.review(&id).await.unwrap(), None);
}

#[tokio::test]
async fn reviews_wait_for_the_search_budget_behind_play() {
    let t = TestApp::with_config(ServerConfig {
        search_slots: 1,
        ..ServerConfig::default()
    });
    let id = fools_mate(&t).await;
    let engine = t.state.games.local.engine().clone();
    let budget = engine.budget().clone();
    // Someone's search holds the only slot.
    let held = budget
        .slot(
            &tensorchess::server::budget::Requester::new("someone", None),
            true,
        )
        .await
        .unwrap();
    let (status, _) = t.post(&format!("/api/games/{id}/review"), json!({})).await;
    assert_eq!(status, StatusCode::ACCEPTED);
    until("the review waits for the slot", || {
        budget.background_waiting() == 1
    })
    .await;
    let (_, waiting) = t.get(&format!("/api/games/{id}/review")).await;
    assert_eq!(waiting["status"], "running", "{waiting}");
    assert_eq!(waiting["progress"]["done"], 0, "nothing searched yet");
    assert_eq!(waiting["progress"]["total"], 5);
    // A game's search that comes later still goes first: it holds the slot
    // until told to give it back.
    let b = budget.clone();
    let (got, got_it) = tokio::sync::oneshot::channel();
    let (release, released) = tokio::sync::oneshot::channel::<()>();
    let game_search = tokio::spawn(async move {
        let _slot = b
            .slot(
                &tensorchess::server::budget::Requester::new("player", None),
                true,
            )
            .await
            .unwrap();
        got.send(()).unwrap();
        let _ = released.await;
    });
    until("the game's search waits", || budget.load() == (1, 1)).await;
    drop(held);
    got_it.await.unwrap();
    assert_eq!(budget.background_waiting(), 1, "the review still waits");
    let (_, still) = t.get(&format!("/api/games/{id}/review")).await;
    assert_eq!(still["progress"]["done"], 0, "the game's search went first");
    release.send(()).unwrap();
    game_search.await.unwrap();
    review_done(&t, &id).await;
    assert_eq!(budget.load(), (0, 0), "every slot given back");

    // A second player's review of their own game: one each at a time.
    let (status, _) = t.post(&format!("/api/games/{id}/review"), json!({})).await;
    assert_eq!(status, StatusCode::OK);
}

async fn next_puzzle(t: &TestApp) -> Value {
    let (status, p) = t.get("/api/puzzles/next?variant=tensor").await;
    assert_eq!(status, StatusCode::OK, "{p}");
    p
}

/// A puzzle's solution: the solver's moves of its line.
fn solution(p: &Value) -> Value {
    let line = p["moves"].as_array().unwrap();
    Value::Array(line.iter().skip(1).step_by(2).cloned().collect())
}

#[tokio::test]
async fn puzzle_tries_rate_the_player_and_the_puzzle() {
    let t = TestApp::new();
    t.register("solver1").await;
    let (status, themes) = t.get("/api/puzzles/themes?variant=tensor").await;
    assert_eq!(status, StatusCode::OK);
    assert!(themes["count"].as_u64().unwrap() >= 500);
    assert!(themes["themes"]
        .as_array()
        .unwrap()
        .iter()
        .any(|th| th["name"] == "ricochet"));

    let p = next_puzzle(&t).await;
    assert_eq!(p["player"]["rating"], 1500);
    assert!(p["moves"].as_array().unwrap().len() >= 2);
    assert!(["white", "black"].contains(&p["color"].as_str().unwrap()));
    let id = p["id"].as_str().unwrap().to_string();
    let before = p["rating"]["rating"].as_i64().unwrap();

    // A claim the moves do not back is not believed.
    let (status, r) = t
        .stranger()
        .post(
            &format!("/api/puzzles/{id}/result"),
            json!({ "moves": [], "solved": true }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{r}");
    assert_eq!(r["solved"], false);
    // Solved: the player goes up, the puzzle down.
    let (status, r) = t
        .post(
            &format!("/api/puzzles/{id}/result"),
            json!({ "moves": solution(&p), "solved": true }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{r}");
    assert_eq!(r["rated"], true);
    assert_eq!(r["solved"], true);
    assert!(r["player"]["rating"].as_i64().unwrap() > 1500);
    assert!(r["player_diff"].as_i64().unwrap() > 0);
    assert!(r["puzzle"]["rating"].as_i64().unwrap() < before);
    let after_solve = r["puzzle"]["rating"].as_i64().unwrap();
    // A second try at it changes nothing.
    let (_, again) = t
        .post(&format!("/api/puzzles/{id}/result"), json!({ "moves": [] }))
        .await;
    assert_eq!(again["rated"], false);
    assert_eq!(again["player"], r["player"]);

    // Failed by someone else: they go down, the puzzle up.
    let other = t.stranger();
    other.register("solver2").await;
    let (_, seen) = other.get(&format!("/api/puzzles/{id}")).await;
    assert_eq!(seen["rating"]["rating"].as_i64().unwrap(), after_solve);
    let (_, r2) = other
        .post(&format!("/api/puzzles/{id}/result"), json!({ "moves": [] }))
        .await;
    assert_eq!(r2["rated"], true);
    assert!(r2["player"]["rating"].as_i64().unwrap() < 1500);
    assert!(r2["puzzle"]["rating"].as_i64().unwrap() > after_solve);
    // Streak tries are never rated.
    let p2 = next_puzzle(&other).await;
    let (_, r3) = other
        .post(
            &format!("/api/puzzles/{}/result", p2["id"].as_str().unwrap()),
            json!({ "moves": solution(&p2), "streak": true }),
        )
        .await;
    assert_eq!(r3["rated"], false);
    assert_eq!(r3["player"], r2["player"]);
    // Guests, however many, move only their own ratings.
    let after_fail = r2["puzzle"]["rating"].clone();
    for _ in 0..5 {
        let guest = t.stranger();
        let (_, g) = guest
            .post(&format!("/api/puzzles/{id}/result"), json!({ "moves": [] }))
            .await;
        assert_eq!(g["rated"], true, "{g}");
        assert!(g["player"]["rating"].as_i64().unwrap() < 1500);
        assert_eq!(g["puzzle"]["rating"], after_fail);
    }
    // A move that is not legal there is refused.
    let (status, _) = t
        .stranger()
        .post(
            &format!("/api/puzzles/{id}/result"),
            json!({ "moves": ["a1a1"] }),
        )
        .await;
    assert!(status.is_client_error(), "{status}");
    // Themes filter; unknown puzzles are 404.
    let (_, mate) = t
        .get("/api/puzzles/next?variant=tensor&theme=mateIn1")
        .await;
    assert!(mate["themes"]
        .as_array()
        .unwrap()
        .contains(&json!("mateIn1")));
    assert_eq!(
        t.get("/api/puzzles/nonesuch").await.0,
        StatusCode::NOT_FOUND
    );
}

/// The shipped lessons, with their solutions (which pages never see).
fn book() -> Value {
    serde_json::from_str(include_str!("../../../server/lessons/tensor.json")).unwrap()
}

#[tokio::test]
async fn lessons_are_judged_on_the_server_with_stars_and_progress() {
    let t = TestApp::new();
    let (status, view) = t.get("/api/lessons").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(view["progress"], json!({}));
    let first = &view["book"]["stages"][0]["levels"][0];
    assert!(first["solution"].is_null(), "the page is not told the way");
    let id = first["id"].as_str().unwrap().to_string();

    // Every level of the book is met by its solution, at par: three stars.
    let book = book();
    let mut levels = 0;
    for stage in book["stages"].as_array().unwrap() {
        for level in stage["levels"].as_array().unwrap() {
            let lid = level["id"].as_str().unwrap();
            let (status, r) = t
                .post(
                    &format!("/api/lessons/{lid}/check"),
                    json!({ "moves": level["solution"] }),
                )
                .await;
            assert_eq!(status, StatusCode::OK, "{lid}: {r}");
            assert_eq!(r["goal_met"], true, "{lid}: {r}");
            assert_eq!(r["stars"], 3, "{lid}: {r}");
            assert_eq!(r["remaining"], json!([]), "{lid}");
            levels += 1;
        }
    }
    let (_, view) = t.get("/api/lessons").await;
    assert_eq!(view["progress"].as_object().unwrap().len(), levels);

    // A move at a time: the goal is not met yet, the position comes back.
    let solution = book["stages"][0]["levels"][0]["solution"].clone();
    let one = json!([solution[0]]);
    let (_, part) = t
        .post(&format!("/api/lessons/{id}/check"), json!({ "moves": one }))
        .await;
    assert_eq!(part["played"], 1);
    assert_eq!(part["goal_met"], false);
    assert!(part["stars"].is_null());
    assert!(part["position"]["fen"].as_str().unwrap().contains(" w "));
    assert!(part["last"]["path"].is_object());
    // An illegal move is refused with the rules' reason.
    let (_, bad) = t
        .post(
            &format!("/api/lessons/{id}/check"),
            json!({ "moves": ["a1a8"] }),
        )
        .await;
    assert_eq!(bad["played"], 0);
    assert!(bad["refused"]["kind"].is_string(), "{bad}");

    // A level that teaches a propel takes only a propel (the pawn's jump
    // over its beast would reach the square too).
    let (_, jump) = t
        .post(
            "/api/lessons/propel-pawn-1/check",
            json!({ "moves": ["e2e4"] }),
        )
        .await;
    assert_eq!(jump["refused"]["kind"], "wrong_kind", "{jump}");
    // Checking Black's king is refused in a collect level.
    let (_, check) = t
        .post(
            "/api/lessons/promotion-1/check",
            json!({ "moves": ["e7e8q"] }),
        )
        .await;
    assert!(check["refused"]["kind"].is_string(), "{check}");

    // Another player's progress is their own.
    let other = t.stranger();
    let (_, theirs) = other.get("/api/lessons").await;
    assert_eq!(theirs["progress"], json!({}));
    assert_eq!(
        other
            .post("/api/lessons/nonesuch/check", json!({ "moves": [] }))
            .await
            .0,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn what_a_guest_learnt_follows_them_into_their_account() {
    let t = TestApp::new();
    t.register("learner").await;
    t.post("/api/account/logout", json!({})).await;

    // A guest (another browser) solves a puzzle and completes a level.
    let guest = t.stranger();
    let p = next_puzzle(&guest).await;
    let (_, r) = guest
        .post(
            &format!("/api/puzzles/{}/result", p["id"].as_str().unwrap()),
            json!({ "moves": solution(&p) }),
        )
        .await;
    let rating = r["player"]["rating"].clone();
    let level = &book()["stages"][0]["levels"][0];
    let lid = level["id"].as_str().unwrap();
    let (_, done) = guest
        .post(
            &format!("/api/lessons/{lid}/check"),
            json!({ "moves": level["solution"] }),
        )
        .await;
    assert_eq!(done["goal_met"], true);

    let (status, me) = guest
        .post(
            "/api/account/login",
            json!({ "username": "learner", "password": "correct horse" }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{me}");
    let (_, lessons) = guest.get("/api/lessons").await;
    assert_eq!(lessons["progress"][lid]["stars"], 3);
    let (_, again) = guest
        .get(&format!("/api/puzzles/{}", p["id"].as_str().unwrap()))
        .await;
    assert_eq!(again["player"]["rating"], rating);
}

/// Waits (a few seconds at most) until `done` holds.
async fn until(what: &str, done: impl Fn() -> bool) {
    let start = std::time::Instant::now();
    while !done() {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "timed out waiting until {what}"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}
