//! Tournaments: made (and refused when they make no sense), joined,
//! started by the director on the test clock, paired (an arena's waiting
//! players; a Swiss's and a round robin's rounds as their games end),
//! scored from the games, berserk, withdraw and pause, and the end.
//! The director's ticks are driven by hand after moving the clock.

use crate::common::online::*;
use axum::http::StatusCode;
use serde_json::{json, Value};
use std::collections::HashMap;
use tensorchess::server::presence::PlayerHere;

pub const START: i64 = T0 + 60_000;

pub fn arena(name: &str, minutes: u32) -> Value {
    json!({
        "kind": "arena", "name": name, "variant": "chess",
        "clock": { "base_seconds": 60, "increment_seconds": 2 },
        "rated": false, "starts_at": START, "minutes": minutes, "max_players": 50
    })
}

/// A tournament of rounds (`kind`: `swiss` or `round_robin`), as
/// [`arena`] with the same clock, start and cap but no length.
pub fn rounds(name: &str, kind: &str) -> Value {
    let mut body = arena(name, 30);
    body["kind"] = json!(kind);
    body.as_object_mut().unwrap().remove("minutes");
    body
}

/// Players by name, with their cookies, connected to the site (an arena
/// pairs only them) while the field lasts.
pub struct Field {
    cookies: HashMap<String, String>,
    ids: Vec<String>,
    _here: Vec<PlayerHere>,
}

impl Field {
    pub async fn new(t: &TestApp, names: &[&str]) -> Field {
        let mut f = Field {
            cookies: HashMap::new(),
            ids: Vec::new(),
            _here: Vec::new(),
        };
        for n in names {
            let cookie = account(t, n).await;
            f.ids.push(player_id(t, &cookie).await);
            f.cookies.insert(n.to_string(), cookie);
        }
        f.connect(t);
        f
    }

    /// Everyone connected to `t` too (another instance on one database).
    pub fn connect(&mut self, t: &TestApp) {
        let here: Vec<_> = self.ids.iter().map(|id| connected(t, id)).collect();
        self._here.extend(here);
    }

    pub fn of(&self, name: &Value) -> &str {
        &self.cookies[name.as_str().unwrap()]
    }
}

pub async fn create(t: &TestApp, cookie: &str, body: Value) -> String {
    let a = t.post("/api/tournaments", Some(cookie), body).await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    a.body["id"].as_str().unwrap().to_string()
}

pub async fn post(t: &TestApp, id: &str, what: &str, cookie: &str) -> Answer {
    t.post(
        &format!("/api/tournaments/{id}/{what}"),
        Some(cookie),
        json!({}),
    )
    .await
}

pub async fn view(t: &TestApp, id: &str) -> Value {
    let a = t.get(&format!("/api/tournaments/{id}"), None).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    a.body
}

/// The clock at `ms`, then one director's tick.
pub async fn tick_at(t: &TestApp, ms: i64) {
    t.clock.set(ms);
    t.state.tournaments.tick().await;
}

pub fn running(v: &Value) -> Vec<Value> {
    v["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["result"] == "*")
        .cloned()
        .collect()
}

/// The points of every line of the standings, added up.
pub fn total_points(v: &Value) -> u64 {
    v["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["points"].as_u64().unwrap())
        .sum()
}

pub fn standing<'a>(v: &'a Value, name: &str) -> &'a Value {
    v["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["player"]["name"] == name)
        .unwrap_or_else(|| panic!("{name} is not in the standings: {v}"))
}

/// Black resigns game `p` (after a move each): White wins.
pub async fn white_wins(t: &TestApp, f: &Field, p: &Value) {
    let id = p["game"].as_str().unwrap();
    let (white, black) = (f.of(&p["white"]["name"]), f.of(&p["black"]["name"]));
    let a = t.play(id, white, "e2e4", 0).await;
    assert_eq!(a.status, StatusCode::OK, "{p}: {}", a.text);
    let a = t.play(id, black, "e7e5", 1).await;
    assert_eq!(a.status, StatusCode::OK, "{p}: {}", a.text);
    let r = t.act(id, Some(black), json!({ "type": "resign" })).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn making_a_tournament_is_checked() {
    let t = TestApp::new();
    let ann = account(&t, "ann").await;
    let refused = |body: Value, kind: &'static str| {
        let t = &t;
        let ann = ann.clone();
        async move {
            let a = t.post("/api/tournaments", Some(&ann), body).await;
            assert_eq!(a.body["kind"], kind, "{}", a.text);
        }
    };
    let with = |k: &str, v: Value| {
        let mut b = arena("Friday blitz", 30);
        b[k] = v;
        b
    };
    refused(with("name", json!("x")), "bad_request").await;
    refused(with("name", json!("Blitz <b>")), "bad_request").await;
    refused(with("name", json!("a".repeat(41))), "bad_request").await;
    refused(with("minutes", json!(5)), "bad_request").await;
    refused(with("minutes", json!(181)), "bad_request").await;
    refused(with("rounds", json!(5)), "bad_request").await;
    refused(with("starts_at", json!(T0 - 1)), "bad_request").await;
    refused(
        with("starts_at", json!(T0 + 31 * 86_400_000_i64)),
        "bad_request",
    )
    .await;
    refused(with("max_players", json!(1)), "bad_request").await;
    refused(with("max_players", json!(1001)), "bad_request").await;
    refused(with("kind", json!("knockout")), "bad_request").await;
    let mut swiss = arena("Swiss", 30);
    swiss["kind"] = json!("swiss");
    refused(swiss.clone(), "bad_request").await;
    swiss.as_object_mut().unwrap().remove("minutes");
    swiss["rounds"] = json!(2);
    refused(swiss.clone(), "bad_request").await;
    swiss["rounds"] = json!(16);
    refused(swiss.clone(), "bad_request").await;

    // Rated ones are for accounts.
    let guest = t.get("/api/tournaments", None).await.cookie.unwrap();
    let a = t
        .post("/api/tournaments", Some(&guest), with("rated", json!(true)))
        .await;
    expect_refused(&a, StatusCode::CONFLICT, "account_needed");

    let made = t
        .post("/api/tournaments", Some(&ann), arena("Friday blitz", 30))
        .await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
    assert_eq!(made.body["state"], "upcoming");
    assert_eq!(made.body["ends_at"], START + 30 * 60_000);
    assert_eq!(made.body["clock"]["base_seconds"], 60);
    swiss["rounds"] = json!(5);
    create(&t, &ann, swiss).await;
    let mut rr = arena("Club round robin", 30);
    rr["kind"] = json!("round_robin");
    rr.as_object_mut().unwrap().remove("minutes");
    rr["max_players"] = json!(8);
    create(&t, &ann, rr.clone()).await;
    let list = t.get("/api/tournaments", None).await.body;
    let kinds: Vec<&str> = list["upcoming"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds.len(), 3);
    assert!(kinds.contains(&"round_robin") && kinds.contains(&"swiss"));

    // Five a day.
    create(&t, &ann, arena("Four", 20)).await;
    create(&t, &ann, arena("Five", 20)).await;
    let a = t
        .post("/api/tournaments", Some(&ann), arena("Six", 20))
        .await;
    expect_refused(&a, StatusCode::TOO_MANY_REQUESTS, "too_many");
    let a = t.get("/api/tournaments/nosuchthing", None).await;
    assert_eq!(a.status, StatusCode::NOT_FOUND);
    // An id that cannot be one names no tournament either, on every route.
    let long = "x".repeat(41);
    for path in [
        format!("/api/tournaments/{long}"),
        "/api/tournaments/a%20b/games".to_string(),
        "/api/tournaments/%C3%A9/trf".to_string(),
    ] {
        let a = t.get(&path, None).await;
        assert_eq!(a.status, StatusCode::NOT_FOUND, "{path}: {}", a.text);
        assert!(a.text.contains("no such tournament"), "{path}: {}", a.text);
    }
    let a = t
        .post(
            &format!("/api/tournaments/{long}/join"),
            Some(&ann),
            json!({}),
        )
        .await;
    assert_eq!(a.status, StatusCode::NOT_FOUND, "{}", a.text);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_arena_pairs_scores_and_pairs_again() {
    let t = TestApp::new();
    let f = Field::new(&t, &["ann", "bob", "cyd", "dee"]).await;
    let id = create(&t, f.of(&json!("ann")), arena("Arena", 30)).await;
    let (addr, _stop) = t.serve().await;
    let mut ws = ws_connect(addr, Some(f.of(&json!("ann")))).await;
    let snap = follow_tournament(&mut ws, &id).await;
    assert_eq!(snap["tournament"]["state"], "upcoming");
    // Ann's page follows her own topic too, as every page does.
    follow_challenges(&mut ws).await;
    for n in ["ann", "bob", "cyd", "dee"] {
        let a = post(&t, &id, "join", f.of(&json!(n))).await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    }
    assert_eq!(view(&t, &id).await["players"], 4);

    // Not before the start.
    tick_at(&t, START - 1).await;
    assert_eq!(view(&t, &id).await["state"], "upcoming");
    tick_at(&t, START).await;
    let v = view(&t, &id).await;
    assert_eq!(v["state"], "running");
    let games = running(&v);
    assert_eq!(games.len(), 2, "{v}");
    let mut seated: Vec<&str> = games
        .iter()
        .flat_map(|p| [p["white"]["name"].as_str(), p["black"]["name"].as_str()])
        .flatten()
        .collect();
    seated.sort();
    assert_eq!(seated, ["ann", "bob", "cyd", "dee"]);
    // Ann's page is told of her own game, as this tournament's.
    let paired = next_of(&mut ws, &["tournament_pairings"]).await;
    assert_eq!(paired["topic"], format!("tournament:{id}"));
    assert_eq!(paired["pairings"].as_array().unwrap().len(), 1);
    // Only what a page needs to find its player's game: ids.
    let first = &paired["pairings"][0];
    assert_eq!(first.as_object().unwrap().len(), 3, "{paired}");
    assert!(games.iter().any(|g| g["game"] == first["game"]
        && g["white"]["id"] == first["white"]
        && g["black"]["id"] == first["black"]
        && (g["white"]["name"] == "ann" || g["black"]["name"] == "ann")));
    // The game is an online game with both seats given.
    let g = t.game(games[0]["game"].as_str().unwrap()).await;
    assert_eq!(g["online"]["clock"]["base_ms"], 60_000);

    // A tick again pairs nobody twice.
    tick_at(&t, START + 2_000).await;
    assert_eq!(running(&view(&t, &id).await).len(), 2);

    // A win is 2, a loss 0; the standings come on the topic.
    white_wins(&t, &f, &games[0]).await;
    tick_at(&t, START + 4_000).await;
    let v = view(&t, &id).await;
    let winner = games[0]["white"]["name"].as_str().unwrap();
    let loser = games[0]["black"]["name"].as_str().unwrap();
    assert_eq!(standing(&v, winner)["points"], 2, "{v}");
    assert_eq!(standing(&v, winner)["points_line"], "2");
    assert_eq!(standing(&v, loser)["points"], 0);
    assert_eq!(standing(&v, winner)["rank"], 1);
    // The game to watch: the only one going on now.
    assert_eq!(v["top_game"], games[1]["game"], "{v}");
    // Its news: the new standings (after the start's and the pairing's).
    let news = loop {
        let news = next_of(&mut ws, &["tournament"]).await;
        if news["event"] == "standings" {
            break news;
        }
        assert!(["joined", "started", "paired"].contains(&news["event"].as_str().unwrap()));
    };
    assert_eq!(standing(&news["tournament"], winner)["points"], 2, "{news}");
    // The two still playing were told at the start: their lines are named
    // by id, version (the same as a GET's) and rank, not told again.
    for side in ["white", "black"] {
        let name = games[1][side]["name"].as_str().unwrap();
        let line = standing(&v, name);
        let id = &line["player"]["id"];
        let told = news["tournament"]["standings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s.is_array() && &s[0] == id)
            .unwrap_or_else(|| panic!("{name} named only: {news}"));
        assert_eq!(told[1], line["v"], "{news}");
        assert_eq!(told[2], line["rank"], "{news}");
    }

    // The other game ends: the winner is paired again.
    assert_ne!(games[0]["game"], games[1]["game"], "{v}");
    white_wins(&t, &f, &games[1]).await;
    tick_at(&t, START + 6_000).await;
    let v = view(&t, &id).await;
    let again = running(&v);
    assert_eq!(again.len(), 2, "{v}");
    assert!(again
        .iter()
        .any(|p| p["white"]["name"] == winner || p["black"]["name"] == winner));
    for p in &again {
        assert_ne!(p["game"], games[0]["game"]);
    }
    // The games as PGN.
    let pgn = t.get(&format!("/api/tournaments/{id}/games"), None).await;
    assert_eq!(pgn.status, StatusCode::OK);
    assert_eq!(pgn.text.matches("[Event ").count(), 4, "{}", pgn.text);
    // Only a Swiss has a TRF.
    let trf = t.get(&format!("/api/tournaments/{id}/trf"), None).await;
    expect_refused(&trf, StatusCode::CONFLICT, "not_allowed");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn withdrawn_and_paused_players_wait_and_the_end_stops_pairing() {
    let t = TestApp::new();
    let f = Field::new(&t, &["ann", "bob", "cyd", "dee"]).await;
    let mut body = arena("Short", 10);
    // Long enough a clock for a game to outlast the arena.
    body["clock"]["base_seconds"] = json!(1200);
    let id = create(&t, f.of(&json!("ann")), body).await;
    for n in ["ann", "bob", "cyd", "dee"] {
        post(&t, &id, "join", f.of(&json!(n))).await;
    }
    let a = post(&t, &id, "withdraw", f.of(&json!("cyd"))).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let a = post(&t, &id, "pause", f.of(&json!("dee"))).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    assert_eq!(a.body["you"]["withdrawn"], false);
    assert_eq!(a.body["you"]["paused"], true);
    assert_eq!(a.body["you"]["standing"]["player"]["name"], "dee");
    let stranger = account(&t, "eve").await;
    let a = post(&t, &id, "pause", &stranger).await;
    expect_refused(&a, StatusCode::CONFLICT, "not_allowed");
    tick_at(&t, START).await;
    let v = view(&t, &id).await;
    let games = running(&v);
    assert_eq!(games.len(), 1, "{v}");
    let mut names = [
        games[0]["white"]["name"].as_str().unwrap(),
        games[0]["black"]["name"].as_str().unwrap(),
    ];
    names.sort();
    assert_eq!(names, ["ann", "bob"]);
    assert_eq!(standing(&v, "cyd")["withdrawn"], true);
    assert_eq!(standing(&v, "dee")["paused"], true);

    // Back from the pause: paired at the next tick... with whoever waits.
    post(&t, &id, "join", f.of(&json!("dee"))).await;
    post(&t, &id, "join", f.of(&json!("cyd"))).await;
    tick_at(&t, START + 2_000).await;
    let v = view(&t, &id).await;
    assert_eq!(running(&v).len(), 2);
    let last = running(&v)
        .into_iter()
        .find(|p| p["game"] != games[0]["game"])
        .unwrap();
    let last_id = last["game"].as_str().unwrap();
    let w = f.of(&last["white"]["name"]);
    assert_eq!(t.play(last_id, w, "d2d4", 0).await.status, StatusCode::OK);
    let b = f.of(&last["black"]["name"]);
    assert_eq!(t.play(last_id, b, "d7d5", 1).await.status, StatusCode::OK);

    // Time is up: games going on finish and count, nobody is paired.
    let end = START + 10 * 60_000;
    white_wins(&t, &f, &games[0]).await;
    tick_at(&t, end).await;
    let v = view(&t, &id).await;
    assert_eq!(v["state"], "running");
    assert_eq!(running(&v).len(), 1, "{v}");
    assert_eq!(running(&v)[0]["game"], last["game"]);
    let r = t.act(last_id, Some(b), json!({ "type": "resign" })).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    tick_at(&t, end + 2_000).await;
    let v = view(&t, &id).await;
    assert_eq!(v["state"], "finished", "{v}");
    assert!(running(&v).is_empty());
    assert_eq!(
        standing(&v, last["white"]["name"].as_str().unwrap())["points"],
        2
    );
    let a = post(&t, &id, "join", &stranger).await;
    expect_refused(&a, StatusCode::CONFLICT, "game_over");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn berserk_halves_the_clock_and_a_long_win_earns_one_more() {
    let t = TestApp::new();
    let f = Field::new(&t, &["ann", "bob"]).await;
    let id = create(&t, f.of(&json!("ann")), arena("Berserk", 30)).await;
    for n in ["ann", "bob"] {
        post(&t, &id, "join", f.of(&json!(n))).await;
    }
    tick_at(&t, START).await;
    let p = running(&view(&t, &id).await)[0].clone();
    let game = p["game"].as_str().unwrap().to_string();
    let (white, black) = (f.of(&p["white"]["name"]), f.of(&p["black"]["name"]));
    let (addr, _stop) = t.serve().await;
    let mut ws = ws_connect(addr, None).await;
    follow_tournament(&mut ws, &id).await;
    let uri = format!("/api/games/{game}/berserk");
    let a = t.post(&uri, Some(white), json!({})).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    // The tournament's pages hear of it: the berserker marked in the pairings.
    let news = next_of(&mut ws, &["tournament"]).await;
    assert_eq!(news["event"], "berserk");
    assert_eq!(
        news["tournament"]["pairings"][0]["white_berserked"], true,
        "{news}"
    );
    assert_eq!(a.body["online"]["clock"]["white_ms"], 30_000, "{}", a.text);
    assert_eq!(a.body["online"]["clock"]["black_ms"], 60_000);
    assert_eq!(a.body["online"]["berserked"], json!([true, false]));
    // The game page learns which tournament the game is of (berserk is an arena's).
    let of = t.get(&format!("/api/games/{game}/tournament"), None).await;
    assert_eq!(of.status, StatusCode::OK, "{}", of.text);
    assert_eq!(
        of.body,
        json!({ "id": id, "name": "Berserk", "kind": "arena" })
    );
    let none = t.get("/api/games/nosuchgame1/tournament", None).await;
    assert_eq!(none.status, StatusCode::OK, "{}", none.text);
    assert_eq!(none.body, Value::Null);
    let a = t.post(&uri, Some(white), json!({})).await;
    expect_refused(&a, StatusCode::CONFLICT, "already_offered");
    let a = t.post(&uri, None, json!({})).await;
    expect_refused(&a, StatusCode::FORBIDDEN, "not_a_player");

    let moves = [
        "e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "d2d3", "f8c5", "c2c3", "d7d6", "b1d2",
        "c8e6", "h2h3", "h7h6",
    ];
    for (ply, mv) in moves.iter().enumerate() {
        let who = if ply % 2 == 0 { white } else { black };
        t.clock.advance(1_000);
        let a = t.play(&game, who, mv, ply).await;
        assert_eq!(a.status, StatusCode::OK, "{mv}: {}", a.text);
        if ply == 1 {
            // Black has moved: too late for them.
            let a = t.post(&uri, Some(black), json!({})).await;
            expect_refused(&a, StatusCode::CONFLICT, "too_late");
        }
    }
    // No increment for the berserker: 6 of White's moves ran 1 s each
    // after the first two plies (which cost nothing).
    let g = t.game(&game).await;
    assert_eq!(g["online"]["clock"]["white_ms"], 30_000 - 6_000, "{g}");
    assert_eq!(g["online"]["clock"]["black_ms"], 60_000 - 6_000 + 6 * 2_000);
    let r = t.act(&game, Some(black), json!({ "type": "resign" })).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    tick_at(&t, START + 60_000).await;
    let v = view(&t, &id).await;
    let winner = standing(&v, p["white"]["name"].as_str().unwrap());
    assert_eq!(winner["points"], 3, "{v}");
    assert_eq!(winner["sheet"][0]["berserk"], true);
    assert_eq!(
        winner["sheet"][0]["berserk_bonus"], true,
        "earned: 14 plies"
    );
    let done = v["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|q| q["game"] == game.as_str())
        .cloned();
    // The berserk mark on a finished game shows in the standings; the
    // pairings list what goes on.
    assert!(done.is_none() || done.unwrap()["white_berserked"] == true);
}

async fn play_rounds(t: &TestApp, f: &Field, id: &str, rounds: u32, per_round: usize) -> Value {
    for round in 1..=rounds {
        tick_at(t, START + i64::from(round) * 10_000).await;
        let v = view(t, id).await;
        assert_eq!(v["round"], round, "{v}");
        let games = running(&v);
        assert_eq!(games.len(), per_round, "round {round}: {v}");
        for p in &games {
            assert_eq!(p["round"], round);
        }
        // Not paired again while a game of the round goes on.
        white_wins(t, f, &games[0]).await;
        tick_at(t, START + i64::from(round) * 10_000 + 5_000).await;
        assert_eq!(view(t, id).await["round"], round);
        for p in &games[1..] {
            white_wins(t, f, p).await;
        }
    }
    tick_at(t, START + i64::from(rounds + 1) * 10_000).await;
    view(t, id).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_swiss_pairs_each_round_once_the_last_has_ended() {
    let t = TestApp::new();
    let names = ["ann", "bob", "cyd", "dee", "eve"];
    let f = Field::new(&t, &names).await;
    let mut body = rounds("Swiss", "swiss");
    body["rounds"] = json!(3);
    let id = create(&t, f.of(&json!("ann")), body).await;
    for n in names {
        post(&t, &id, "join", f.of(&json!(n))).await;
    }
    let v = play_rounds(&t, &f, &id, 3, 2).await;
    assert_eq!(v["state"], "finished", "{v}");
    // Six games, a win each (2 half-points), three byes (2 each).
    let total: u64 = v["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["points"].as_u64().unwrap())
        .sum();
    assert_eq!(total, 6 * 2 + 3 * 2, "{v}");
    let trf = t.get(&format!("/api/tournaments/{id}/trf"), None).await;
    assert_eq!(trf.status, StatusCode::OK);
    assert!(trf.text.starts_with("012 Swiss"), "{}", trf.text);
    assert_eq!(trf.text.matches("\n001 ").count(), 5, "{}", trf.text);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_round_robin_plays_its_table() {
    let t = TestApp::new();
    let names = ["ann", "bob", "cyd", "dee"];
    let f = Field::new(&t, &names).await;
    let mut body = rounds("Round robin", "round_robin");
    body["max_players"] = json!(8);
    let id = create(&t, f.of(&json!("ann")), body).await;
    for n in names {
        post(&t, &id, "join", f.of(&json!(n))).await;
    }
    let v = play_rounds(&t, &f, &id, 3, 2).await;
    assert_eq!(v["state"], "finished", "{v}");
    // Everyone met everyone once.
    for s in v["standings"].as_array().unwrap() {
        assert_eq!(s["games"], 3, "{v}");
    }
    let a = post(&t, &id, "join", &account(&t, "late").await).await;
    expect_refused(&a, StatusCode::CONFLICT, "game_over");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_ticks_the_director_on_its_clock() {
    let t = TestApp::with(|c| tensorchess::server::ServerConfig {
        director_every_ms: 2_000,
        ..c
    });
    let f = Field::new(&t, &["ann", "bob"]).await;
    let id = create(&t, f.of(&json!("ann")), arena("Clocked", 10)).await;
    for n in ["ann", "bob"] {
        post(&t, &id, "join", f.of(&json!(n))).await;
    }
    t.clock.set(START + 2_000);
    let start = std::time::Instant::now();
    loop {
        // The view reads the tournament, then its games: one read while the
        // tick starts and pairs may see the game before the new state.
        let v = view(&t, &id).await;
        if running(&v).len() == 1 && v["state"] == "running" {
            break;
        }
        assert!(
            start.elapsed() < std::time::Duration::from_secs(10),
            "never paired: {v}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

/// Two servers over one PostgreSQL: one directs the arena (both ticking
/// at once pair each player once); when it stops, the other takes the
/// lease over once it expired and pairs the players waiting.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: set TENSORCHESS_TEST_PG (scripts/test.sh does)"]
async fn one_instance_directs_and_another_takes_over() {
    let a = TestApp::on_postgres();
    let b = a.reopen();
    let mut f = Field::new(&a, &["ann", "bob", "cyd", "dee"]).await;
    f.connect(&b);
    let id = create(&a, f.of(&json!("ann")), arena("Shared", 30)).await;
    // A page on B follows the tournament; what happens on A reaches it.
    let (addr_b, _stop) = b.serve().await;
    until_both_listen(&a, &b).await;
    let mut ws = ws_connect(addr_b, Some(f.of(&json!("bob")))).await;
    follow_tournament(&mut ws, &id).await;
    for n in ["ann", "bob", "cyd", "dee"] {
        post(&a, &id, "join", f.of(&json!(n))).await;
    }
    // The first join is told at once; the others, a moment later, together
    // (the next tick of the instance they joined on), and on the other
    // instance as well. B reads the tournament when it hears of the first
    // join: the later joins may already be in it.
    let news = next_of(&mut ws, &["tournament"]).await;
    assert_eq!(news["event"], "joined");
    let players = news["tournament"]["players"].as_u64().unwrap();
    assert!((1..=4).contains(&players), "{news}");
    a.state.tournaments.tick().await;
    let news = next_of(&mut ws, &["tournament"]).await;
    assert_eq!(news["event"], "joined");
    assert_eq!(news["tournament"]["players"], 4);
    a.clock.set(START);
    a.state.tournaments.tick().await;
    b.state.tournaments.tick().await;
    tokio::join!(a.state.tournaments.tick(), b.state.tournaments.tick());
    let v = view(&b, &id).await;
    assert_eq!(v["state"], "running");
    let games = running(&v);
    assert_eq!(games.len(), 2, "{v}");

    // A stops; its games end on B.
    a.state.shutdown();
    for p in &games {
        white_wins(&b, &f, p).await;
    }
    // A's lease holds until it expires: B pairs nobody before.
    tick_at(&b, START + 9_999).await;
    assert!(running(&view(&b, &id).await).is_empty());
    tick_at(&b, START + 10_000).await;
    let v = view(&b, &id).await;
    assert_eq!(running(&v).len(), 2, "{v}");
    assert_eq!(
        standing(&v, games[0]["white"]["name"].as_str().unwrap())["points"],
        2
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paused_swiss_player_sits_a_round_out_and_a_full_one_takes_nobody() {
    let t = TestApp::new();
    let names = ["ann", "bob", "cyd", "dee", "eve"];
    let f = Field::new(&t, &names).await;
    let mut body = rounds("Small Swiss", "swiss");
    body["rounds"] = json!(3);
    body["max_players"] = json!(4);
    let id = create(&t, f.of(&json!("ann")), body).await;
    for n in ["ann", "bob", "cyd", "dee"] {
        let a = post(&t, &id, "join", f.of(&json!(n))).await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    }
    let a = post(&t, &id, "join", f.of(&json!("eve"))).await;
    expect_refused(&a, StatusCode::TOO_MANY_REQUESTS, "too_many");

    tick_at(&t, START).await;
    let v = view(&t, &id).await;
    assert_eq!(v["round"], 1);
    let games = running(&v);
    assert_eq!(games.len(), 2, "{v}");
    for p in &games {
        white_wins(&t, &f, p).await;
    }
    // Dee pauses: three play round 2, one of them has the pairing bye.
    post(&t, &id, "pause", f.of(&json!("dee"))).await;
    tick_at(&t, START + 2_000).await;
    let v = view(&t, &id).await;
    assert_eq!(v["round"], 2, "{v}");
    let games = running(&v);
    assert_eq!(games.len(), 1, "{v}");
    for p in &games {
        assert_ne!(p["white"]["name"], "dee");
        assert_ne!(p["black"]["name"], "dee");
        white_wins(&t, &f, p).await;
    }
    tick_at(&t, START + 4_000).await;
    let v = view(&t, &id).await;
    assert_eq!(v["round"], 3, "{v}");
    // Three wins and the pairing byes of rounds 2 and 3 (recorded as the
    // round is paired), 2 half-points each; Dee's byes of the pause score
    // nothing.
    let total: u64 = v["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["points"].as_u64().unwrap())
        .sum();
    assert_eq!(total, 5 * 2, "{v}");
    assert_eq!(standing(&v, "dee")["games"], 1);
    assert_eq!(standing(&v, "dee")["paused"], true);
}

/// Swiss restart idempotence: a second server beside the first (both
/// ticking, at once too) pairs round 2 once; the first stops mid-round and
/// the second, once the lease expired, pairs round 3 once. No round is
/// paired twice and no result counted twice.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_swiss_directed_again_after_a_restart_pairs_and_scores_once() {
    let a = TestApp::new();
    let b = a.reopen();
    let f = Field::new(&a, &["ann", "bob", "cyd", "dee"]).await;
    let mut body = rounds("Restarted Swiss", "swiss");
    body["rounds"] = json!(3);
    let id = create(&a, f.of(&json!("ann")), body).await;
    for n in ["ann", "bob", "cyd", "dee"] {
        post(&a, &id, "join", f.of(&json!(n))).await;
    }
    let games_of = |v: &Value| -> u64 {
        v["standings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["games"].as_u64().unwrap())
            .sum()
    };
    tick_at(&a, START).await;
    b.state.tournaments.tick().await;
    let v = view(&a, &id).await;
    assert_eq!(v["round"], 1, "{v}");
    let round1 = running(&v);
    assert_eq!(round1.len(), 2, "{v}");
    for p in &round1 {
        white_wins(&a, &f, p).await;
    }
    // Both servers tick, one after the other and at once: round 2 once.
    a.clock.set(START + 2_000);
    b.state.tournaments.tick().await;
    a.state.tournaments.tick().await;
    tokio::join!(a.state.tournaments.tick(), b.state.tournaments.tick());
    b.state.tournaments.tick().await;
    let v = view(&b, &id).await;
    assert_eq!(v["round"], 2, "{v}");
    let round2 = running(&v);
    assert_eq!(round2.len(), 2, "{v}");
    assert_eq!(total_points(&v), 2 * 2, "{v}");
    let pgn = b.get(&format!("/api/tournaments/{id}/games"), None).await;
    assert_eq!(pgn.text.matches("[Event ").count(), 4, "{}", pgn.text);

    // The first server stops mid-round 2; its games end on the second.
    a.state.shutdown();
    for p in &round2 {
        white_wins(&b, &f, p).await;
    }
    // The stopped server's lease holds until it expires (10 s after its
    // last tick): nothing is paired before, round 3 once after.
    tick_at(&b, START + 2_000 + 9_999).await;
    let v = view(&b, &id).await;
    assert_eq!(v["round"], 2, "{v}");
    assert_eq!(total_points(&v), 4 * 2, "{v}");
    tick_at(&b, START + 12_000).await;
    tick_at(&b, START + 12_001).await;
    let v = view(&b, &id).await;
    assert_eq!(v["round"], 3, "{v}");
    assert_eq!(running(&v).len(), 2, "{v}");
    // Four results counted once each (two games each player), six games
    // in all (two going on).
    assert_eq!(total_points(&v), 4 * 2, "{v}");
    assert_eq!(games_of(&v), 2 * 4, "{v}");
    let pgn = b.get(&format!("/api/tournaments/{id}/games"), None).await;
    assert_eq!(pgn.text.matches("[Event ").count(), 6, "{}", pgn.text);
    // A server restarted on the same database (the lease now the second's,
    // held until it expires) scores the same.
    let c = b.reopen();
    assert_eq!(total_points(&view(&c, &id).await), 4 * 2);
}
