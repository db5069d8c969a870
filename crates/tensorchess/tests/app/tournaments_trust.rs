//! Tournaments that can be trusted (issue 38): an arena pairs only players
//! connected to the site and pauses one who does not make a first move
//! (paired again once they join again); a director stopped past its lease
//! does not write the wave it planned; a tournament's game is never
//! aborted, and a first move not made counts one way in the standings,
//! the TRF and the pairing; bot accounts stay out of tournaments, and an
//! account with something open does not become one.

use crate::bots::{make_token, post_token, with_token};
use crate::common::online::*;
use crate::tournaments::{
    arena, create, post, rounds, running, standing, tick_at, view, Field, START,
};
use axum::http::{Method, StatusCode};
use serde_json::{json, Value};
use tensorchess::server::ids::TournamentId;
use tensorchess::server::tournaments::director::LEASE_MS;

/// When a game paired at `START` is aborted for a first move not made.
const NO_SHOW_AT: i64 = START + 60_000;

/// The names of game `p`'s players, White first.
fn names(p: &Value) -> (String, String) {
    (
        p["white"]["name"].as_str().unwrap().to_string(),
        p["black"]["name"].as_str().unwrap().to_string(),
    )
}

/// Lets game `game` (paired at `START`) pass its first-move minute: White
/// has not moved, so the game ends as White's no-show.
async fn no_show(t: &TestApp, game: &str) {
    t.armed_for(NO_SHOW_AT).await;
    t.clock.set(NO_SHOW_AT);
    let g = t
        .wait_for(game, "the no-show", |g| g["end"].is_object())
        .await;
    assert_eq!(g["end"]["no_show"], "white", "{g}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_arena_pairs_only_players_connected_to_the_site() {
    let t = TestApp::new();
    let f = Field::new(&t, &["ann", "bob", "cyd"]).await;
    // Dee joins and never comes (no page, no program).
    let dee = account(&t, "dee").await;
    let id = create(&t, f.of(&json!("ann")), arena("Ghosts", 30)).await;
    for cookie in ["ann", "bob", "cyd"]
        .map(|n| f.of(&json!(n)))
        .iter()
        .chain([&dee.as_str()])
    {
        let a = post(&t, &id, "join", cookie).await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    }
    tick_at(&t, START).await;
    let v = view(&t, &id).await;
    let games = running(&v);
    assert_eq!(games.len(), 1, "{v}");
    let (white, black) = names(&games[0]);
    assert!(white != "dee" && black != "dee", "{v}");
    // Dee opens the site: paired with the one left waiting.
    let _dee = connected(&t, &player_id(&t, &dee).await);
    tick_at(&t, START + 2_000).await;
    let v = view(&t, &id).await;
    let games = running(&v);
    assert_eq!(games.len(), 2, "{v}");
    assert!(games
        .iter()
        .any(|p| p["white"]["name"] == "dee" || p["black"]["name"] == "dee"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_arena_no_show_loses_and_waits_paused_until_joining_again() {
    let t = TestApp::new();
    let f = Field::new(&t, &["ann", "bob"]).await;
    let id = create(&t, f.of(&json!("ann")), arena("No shows", 30)).await;
    for n in ["ann", "bob"] {
        post(&t, &id, "join", f.of(&json!(n))).await;
    }
    tick_at(&t, START).await;
    let p = running(&view(&t, &id).await)[0].clone();
    let game = p["game"].as_str().unwrap().to_string();
    let (white, black) = names(&p);
    // Nobody may abort a tournament's game; the page offers no Abort.
    let g = t.game(&game).await;
    assert_ne!(g["online"]["can_abort"], true, "{g}");
    for side in [&white, &black] {
        let a = t
            .act(&game, Some(f.of(&json!(side))), json!({ "type": "abort" }))
            .await;
        expect_refused(&a, StatusCode::CONFLICT, "not_allowed");
    }

    // White lets the first-move minute pass: a loss, and a pause.
    no_show(&t, &game).await;
    tick_at(&t, NO_SHOW_AT + 2_000).await;
    let v = view(&t, &id).await;
    assert_eq!(standing(&v, &white)["points"], 0, "{v}");
    assert_eq!(standing(&v, &white)["games"], 1);
    assert_eq!(standing(&v, &white)["paused"], true);
    assert_eq!(standing(&v, &black)["points"], 2);
    assert_eq!(standing(&v, &black)["paused"], false);
    // Both are connected and neither plays: the no-show waits, paused.
    assert!(running(&v).is_empty(), "{v}");
    tick_at(&t, NO_SHOW_AT + 4_000).await;
    assert!(running(&view(&t, &id).await).is_empty());

    // Joining again brings them back. Resigning before a move (what an
    // abort would have been) is a loss like any other.
    let a = post(&t, &id, "join", f.of(&json!(white))).await;
    assert_eq!(a.body["you"]["paused"], false, "{}", a.text);
    tick_at(&t, NO_SHOW_AT + 6_000).await;
    let p = running(&view(&t, &id).await)[0].clone();
    let (second_white, _) = names(&p);
    let game = p["game"].as_str().unwrap();
    let r = t
        .act(
            game,
            Some(f.of(&json!(second_white))),
            json!({ "type": "resign" }),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    tick_at(&t, NO_SHOW_AT + 8_000).await;
    let v = view(&t, &id).await;
    assert_eq!(standing(&v, &second_white)["games"], 2, "{v}");
    assert_eq!(standing(&v, &second_white)["paused"], false);
    assert_eq!(running(&v).len(), 1, "paired again: {v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_swiss_no_show_is_a_forfeit_in_the_standings_the_trf_and_the_pairing() {
    let t = TestApp::new();
    let f = Field::new(&t, &["ann", "bob"]).await;
    let mut body = rounds("Forfeits", "swiss");
    body["rounds"] = json!(3);
    let id = create(&t, f.of(&json!("ann")), body).await;
    for n in ["ann", "bob"] {
        post(&t, &id, "join", f.of(&json!(n))).await;
    }
    tick_at(&t, START).await;
    let p = running(&view(&t, &id).await)[0].clone();
    let (white, black) = names(&p);
    let a = t
        .act(
            p["game"].as_str().unwrap(),
            Some(f.of(&json!(white))),
            json!({ "type": "abort" }),
        )
        .await;
    expect_refused(&a, StatusCode::CONFLICT, "not_allowed");
    no_show(&t, p["game"].as_str().unwrap()).await;
    // Paused (a zero-point bye each round) until they join again.
    let v = view(&t, &id).await;
    assert_eq!(standing(&v, &white)["paused"], true, "{v}");
    post(&t, &id, "join", f.of(&json!(white))).await;
    tick_at(&t, NO_SHOW_AT + 2_000).await;
    let v = view(&t, &id).await;

    // The standings: a forfeit, the point without a game played.
    let line = |name: &str| {
        let s = standing(&v, name);
        (
            s["points"].clone(),
            s["games"].clone(),
            s["points_line"].clone(),
        )
    };
    assert_eq!(line(&black), (json!(2), json!(0), json!("+")), "{v}");
    assert_eq!(line(&white), (json!(0), json!(0), json!("-")), "{v}");
    // The crosstable and the round say it alike: Black won, by forfeit.
    assert_eq!(standing(&v, &white)["rounds"][0]["result"], "-", "{v}");
    assert_eq!(standing(&v, &black)["rounds"][0]["result"], "+", "{v}");
    let round1 = t.get(&format!("/api/tournaments/{id}/round/1"), None).await;
    let p1 = &round1.body["pairings"][0];
    assert_eq!(
        (&p1["result"], &p1["no_show"]),
        (&json!("0-1"), &json!("white")),
        "{}",
        round1.text
    );
    // The pairing: not a game played, so the two may meet again (a played
    // game would forbid the rematch and end a Swiss of two).
    assert_eq!(v["round"], 2, "{v}");
    let again = running(&v);
    assert_eq!(again.len(), 1, "{v}");
    let mut met = [names(&again[0]).0, names(&again[0]).1];
    met.sort();
    assert_eq!(met, ["ann", "bob"]);
    // The TRF of round 1: the same forfeit and points.
    let trf = t.get(&format!("/api/tournaments/{id}/trf"), None).await;
    assert_eq!(trf.status, StatusCode::OK);
    let round1 = |name: &str| -> (String, char) {
        let l = trf
            .text
            .lines()
            .find(|l| l.starts_with("001") && l.contains(name))
            .unwrap_or_else(|| panic!("{name} in {}", trf.text));
        let chars: Vec<char> = l.chars().collect();
        let points: String = chars[80..84].iter().collect();
        (points.trim().to_string(), chars[98])
    };
    assert_eq!(round1(&black), ("1.0".into(), '+'), "{}", trf.text);
    assert_eq!(round1(&white), ("0.0".into(), '-'), "{}", trf.text);
}

/// A director plans a wave, then stops (SIGSTOP) past its lease; the other
/// instance takes the lease and directs meanwhile. Resumed, the first
/// writes nothing: the lease is asked for again right before a wave.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_director_whose_lease_passed_does_not_write_its_wave() {
    let a = TestApp::new();
    let b = a.reopen();
    let all = ["ann", "bob", "cyd", "dee", "eve", "fay"];
    let mut f = Field::new(&a, &all).await;
    f.connect(&b);
    let id = create(&a, f.of(&json!("ann")), arena("Stalled", 30)).await;
    for n in all {
        post(&a, &id, "join", f.of(&json!(n))).await;
    }
    a.clock.set(START);
    let tid = TournamentId::parse(&id).unwrap();
    let wave = a.state.tournaments.plan_wave(&tid).await.unwrap();
    let wave = wave.expect("a wave planned");
    assert_eq!(wave.boards().len(), 3);
    // While A is stopped, four players pause and B directs: it pairs the
    // two left. Whatever A planned, one of its boards has two of the four.
    for n in ["cyd", "dee", "eve", "fay"] {
        let r = post(&b, &id, "pause", f.of(&json!(n))).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    }
    tick_at(&b, START + LEASE_MS).await;
    let v = view(&b, &id).await;
    assert_eq!(running(&v).len(), 1, "{v}");
    // A resumes and writes its wave: nothing.
    assert_eq!(a.state.tournaments.write_wave(wave).await.unwrap(), 0);
    let v = view(&a, &id).await;
    let games = running(&v);
    assert_eq!(games.len(), 1, "{v}");
    let mut met = [names(&games[0]).0, names(&games[0]).1];
    met.sort();
    assert_eq!(met, ["ann", "bob"]);
    let h = a.get("/api/health", None).await.body;
    assert_eq!(h["arena_waves"], 0, "A wrote no wave: {h}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bot_accounts_do_not_join_tournaments() {
    let t = TestApp::new();
    let ann = account(&t, "ann").await;
    let id = create(&t, &ann, arena("People", 30)).await;
    let (robo, token) = crate::bots::bot_account(&t, "robo").await;
    let a = post(&t, &id, "join", &robo).await;
    expect_refused(&a, StatusCode::FORBIDDEN, "bot_account");
    assert!(
        a.body["error"].as_str().unwrap().contains("for people"),
        "{}",
        a.text
    );
    let uri = format!("/api/tournaments/{id}/join");
    // A token reaches no site route at all (item 1): refused before that.
    let a = with_token(&t, Method::POST, &uri, &token, None).await;
    expect_refused(&a, StatusCode::FORBIDDEN, "missing_scope");
    assert_eq!(view(&t, &id).await["players"], 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_account_becomes_a_bot_only_with_nothing_open() {
    let t = TestApp::new();
    let ann = account(&t, "ann").await;
    let bob = account(&t, "bob").await;
    let token = make_token(&t, &ann, &["bot:play"]).await;
    let upgrade = || post_token(&t, "/api/bot/account/upgrade", &token);
    let refused = |a: &Answer, what: &str| {
        expect_refused(a, StatusCode::CONFLICT, "still_open");
        let why = a.body["error"].as_str().unwrap();
        assert!(why.contains(what), "{what}: {why}");
    };

    // A seek in the lobby.
    let seek = json!({ "variant": "tensor", "clock": { "base_seconds": 60 } });
    let s = t.post("/api/seeks", Some(&ann), seek).await;
    assert_eq!(s.status, StatusCode::CREATED, "{}", s.text);
    refused(&upgrade().await, "seeks in the lobby");
    let sid = s.body["id"].as_str().unwrap();
    let d = t
        .req(
            Method::DELETE,
            &format!("/api/seeks/{sid}"),
            Some(&ann),
            None,
        )
        .await;
    assert!(d.status.is_success(), "{}", d.text);

    // A challenge received, then one sent.
    let challenge = |from: &str, to: &str| {
        let (t, from, to) = (&t, from.to_string(), to.to_string());
        async move {
            let c = t
                .post(
                    "/api/challenges",
                    Some(&from),
                    json!({ "to": to, "clock": { "base_seconds": 60 } }),
                )
                .await;
            assert_eq!(c.status, StatusCode::CREATED, "{}", c.text);
            c.body["id"].as_str().unwrap().to_string()
        }
    };
    let cid = challenge(&bob, "ann").await;
    refused(&upgrade().await, "the challenge from bob");
    let d = t
        .post(
            &format!("/api/challenges/{cid}/decline"),
            Some(&ann),
            json!({}),
        )
        .await;
    assert!(d.status.is_success(), "{}", d.text);
    let cid = challenge(&ann, "bob").await;
    refused(&upgrade().await, "your challenge to bob");
    let d = t
        .req(
            Method::DELETE,
            &format!("/api/challenges/{cid}"),
            Some(&ann),
            None,
        )
        .await;
    assert!(d.status.is_success(), "{}", d.text);

    // A tournament entry, paused or not, in one not finished.
    let id = create(&t, &bob, arena("Humans only", 30)).await;
    post(&t, &id, "join", &ann).await;
    post(&t, &id, "pause", &ann).await;
    refused(&upgrade().await, "\"Humans only\" (withdraw from it)");
    post(&t, &id, "withdraw", &ann).await;

    // Nothing open: a bot.
    let up = upgrade().await;
    assert_eq!(up.status, StatusCode::OK, "{}", up.text);
}
