//! A tournament with more players than its pages are told of at once: the
//! topic's news carries the first lines of the standings and the best
//! games (with the totals), each player asks for their own line, joins
//! are told together, a wave's games are told each to its players' own
//! pages only, and on two instances the news and the pairings reach the
//! other instance's pages (the pairings in notices of a few games each).

use crate::common::online::*;
use axum::http::StatusCode;
use serde_json::{json, Value};
use std::collections::HashSet;
use tensorchess_server::tournaments::views::{TOPIC_PAIRINGS, TOPIC_STANDINGS};

const START: i64 = T0 + 60_000;
const PLAYERS: usize = 44;

fn arena() -> Value {
    json!({
        "kind": "arena", "name": "Big arena", "variant": "tensor",
        "clock": { "base_seconds": 180, "increment_seconds": 2 },
        "rated": false, "starts_at": START, "minutes": 30, "max_players": 100
    })
}

/// `PLAYERS` guests join tournament `id` on `t`; their cookies and ids.
/// The guests' cookies and ids, and their connections (an arena pairs
/// only connected players).
async fn guests_join(
    t: &TestApp,
    id: &str,
) -> (
    Vec<(String, String)>,
    Vec<tensorchess::server::presence::PlayerHere>,
) {
    let mut out = Vec::new();
    let mut here = Vec::new();
    for _ in 0..PLAYERS {
        let a = t
            .post(&format!("/api/tournaments/{id}/join"), None, json!({}))
            .await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.text);
        let cookie = a.cookie.expect("a guest's cookie");
        let me = t.get("/api/me", Some(&cookie)).await;
        let me = me.body["id"].as_str().unwrap().to_string();
        here.push(connected(t, &me));
        out.push((cookie, me));
    }
    (out, here)
}

/// The topic's news after the start: the standings' first lines, the best
/// games, and the totals.
fn assert_first_lines(news: &Value) {
    let v = &news["tournament"];
    assert_eq!(v["standings"].as_array().unwrap().len(), TOPIC_STANDINGS);
    assert_eq!(v["standings_total"], PLAYERS);
    assert_eq!(v["pairings"].as_array().unwrap().len(), TOPIC_PAIRINGS);
    assert_eq!(v["pairings_total"], PLAYERS / 2);
    assert!(v.get("you").is_none(), "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_large_arena_tells_its_pages_the_first_lines_and_each_player_their_own() {
    let t = TestApp::new();
    let ann = account(&t, "ann").await;
    let a = t.post("/api/tournaments", Some(&ann), arena()).await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    let id = a.body["id"].as_str().unwrap().to_string();
    let (addr, _stop) = t.serve().await;
    let mut ws = ws_connect(addr, None).await;
    follow_tournament(&mut ws, &id).await;
    let (players, _here) = guests_join(&t, &id).await;
    // The first join is told at once, the rest together at the next tick.
    let news = next_of(&mut ws, &["tournament"]).await;
    assert_eq!(
        (
            news["event"].as_str(),
            news["tournament"]["players"].as_u64()
        ),
        (Some("joined"), Some(1))
    );
    t.state.tournaments.tick().await;
    let news = next_of(&mut ws, &["tournament"]).await;
    assert_eq!(news["tournament"]["players"], PLAYERS);
    assert_eq!(
        news["tournament"]["standings"].as_array().unwrap().len(),
        TOPIC_STANDINGS
    );

    // Two players' pages, following their own topic as every page does.
    let mut pages = Vec::new();
    for (cookie, me) in [&players[0], &players[PLAYERS - 1]] {
        let mut page = ws_connect(addr, Some(cookie)).await;
        follow_challenges(&mut page).await;
        pages.push((page, me.clone()));
    }
    t.clock.set(START);
    t.state.tournaments.tick().await;
    // Each player's page is told of their own game, as a game of this
    // tournament's (the page that follows it opens the game).
    for (page, me) in &mut pages {
        let paired = next_of(page, &["tournament_pairings"]).await;
        assert_eq!(paired["topic"], format!("tournament:{id}"));
        let games = paired["pairings"].as_array().unwrap();
        assert_eq!(games.len(), 1, "{paired}");
        assert!(
            games[0]["white"] == me.as_str() || games[0]["black"] == me.as_str(),
            "{paired}"
        );
    }
    // The tournament's followers are not sent the wave's games: they see
    // them in the news that follows.
    let news = loop {
        let news = next(&mut ws).await;
        assert_ne!(news["type"], "tournament_pairings", "{news}");
        if news["type"] == "tournament" && news["event"] == "paired" {
            break news;
        }
    };
    assert_first_lines(&news);

    // GET: every line and game, and the asker's own line.
    let (cookie, me) = players.last().unwrap();
    let v = t
        .get(&format!("/api/tournaments/{id}"), Some(cookie))
        .await
        .body;
    assert_eq!(v["standings"].as_array().unwrap().len(), PLAYERS);
    assert_eq!(v["pairings"].as_array().unwrap().len(), PLAYERS / 2);
    assert_eq!(v["you"]["standing"]["player"]["id"], me.as_str(), "{v}");
    assert_eq!(v["you"]["paused"], false);
    // The health counters saw the wave.
    let h = t.get("/api/health", None).await.body;
    assert_eq!(h["arena_waves"], 1, "{h}");
    assert_eq!(h["arena_recent_waves"][0]["waiting"], PLAYERS);
    assert_eq!(h["arena_recent_waves"][0]["boards"], PLAYERS / 2);
    // When its games began to be started, by the server's clock.
    assert_eq!(h["arena_recent_waves"][0]["at_ms"], START, "{h}");
}

/// Two servers over one PostgreSQL: the pages on B hear A's news of a
/// large arena (made from the store on B), and the players whose pages
/// are on B each their own game, from notices of a few games each.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: set TENSORCHESS_TEST_PG (scripts/test.sh does)"]
async fn a_large_arenas_news_and_pairings_reach_the_other_instance() {
    let a = TestApp::on_postgres();
    let b = a.reopen();
    let ann = account(&a, "ann").await;
    let made = a.post("/api/tournaments", Some(&ann), arena()).await;
    let id = made.body["id"].as_str().unwrap().to_string();
    let (addr_b, _stop) = b.serve().await;
    until_both_listen(&a, &b).await;
    let mut ws = ws_connect(addr_b, None).await;
    follow_tournament(&mut ws, &id).await;
    let (players, _here) = guests_join(&a, &id).await;
    // Every player's page is on B (the notices carry 16 games each: the
    // wave's 22 games come in two).
    let mut pages = Vec::new();
    for (cookie, me) in &players {
        let mut page = ws_connect(addr_b, Some(cookie)).await;
        follow_challenges(&mut page).await;
        pages.push((page, me.clone()));
    }
    a.clock.set(START);
    a.state.tournaments.tick().await;
    let mut games = HashSet::new();
    for (page, me) in &mut pages {
        let paired = next_of(page, &["tournament_pairings"]).await;
        let game = &paired["pairings"][0];
        assert!(game["white"] == me.as_str() || game["black"] == me.as_str());
        games.insert(game["game"].as_str().unwrap().to_string());
    }
    assert_eq!(
        games.len(),
        PLAYERS / 2,
        "every game, each to its two players"
    );
    let news = loop {
        let news = next_of(&mut ws, &["tournament"]).await;
        if news["event"] == "paired" {
            break news;
        }
    };
    assert_first_lines(&news);
}
