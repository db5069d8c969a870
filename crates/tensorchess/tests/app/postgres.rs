//! The API's key flows over PostgreSQL: a game with moves that survives a
//! restart, an online game to its result, accounts and a rated game, and
//! two servers over one database racing for the same move (the database
//! lets one win). Ignored unless asked for (`--run-ignored`): they need the
//! PostgreSQL that `TENSORCHESS_TEST_PG` names (`scripts/test.sh` starts one).

use crate::common::TestApp;
use axum::http::StatusCode;
use serde_json::{json, Value};
use std::sync::Arc;
use tensorchess::server::{app, AppState, ServerConfig};

fn pg() -> TestApp {
    TestApp::on_postgres(ServerConfig::default())
}

/// Another server over the same database, for a client with `t`'s cookie.
fn second_instance(t: &TestApp) -> TestApp {
    let state = crate::common::started(AppState::new(Arc::new(t.pg.clone().unwrap())));
    let mut other = t.stranger();
    other.router = app(state.clone());
    other.state = state;
    *other.cookie.lock().unwrap() = t.cookie.lock().unwrap().clone();
    other
}

async fn act(t: &TestApp, id: &str, action: Value) -> (StatusCode, Value) {
    t.post(&format!("/api/games/{id}/act"), action).await
}

#[tokio::test]
#[ignore = "needs PostgreSQL: set TENSORCHESS_TEST_PG (scripts/test.sh does)"]
async fn moves_are_stored_when_acknowledged_and_survive_a_restart() {
    let t = pg();
    let game = t
        .create(json!({ "variant": "tensor", "mode": "local" }))
        .await;
    let id = game["id"].as_str().unwrap().to_string();
    for mv in ["e2e4", "e7e5", "b1b3"] {
        let (status, g) = t.play(&id, mv).await;
        assert_eq!(status, StatusCode::OK, "{g}");
        let stored = t.open_store().load_game(&id).await.unwrap().unwrap();
        assert_eq!(stored.moves.last().unwrap().uci, mv);
    }
    let t2 = t.restart();
    let (status, game) = t2.get(&format!("/api/games/{id}")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(game["moves"].as_array().unwrap().len(), 3);
    assert_eq!(game["moves"][2]["san"], "Tb3");
    let (status, _) = t2.play(&id, "d7d5").await;
    assert_eq!(status, StatusCode::OK);
    let (_, list) = t2.get("/api/games").await;
    assert_eq!(list["games"][0]["id"], id.as_str(), "{list}");
}

#[tokio::test]
#[ignore = "needs PostgreSQL: set TENSORCHESS_TEST_PG (scripts/test.sh does)"]
async fn an_online_game_is_played_to_its_result() {
    let white = pg();
    let (status, game) = white
        .post(
            "/api/online",
            json!({ "variant": "chess", "color": "white",
                    "clock": { "base_seconds": 300, "increment_seconds": 2 } }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{game}");
    let id = game["id"].as_str().unwrap().to_string();
    let black = white.stranger();
    let (status, joined) = black
        .post(&format!("/api/games/{id}/join"), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{joined}");
    assert_eq!(joined["you"], "black");
    for (player, mv, ply) in [
        (&white, "e2e4", 0),
        (&black, "e7e5", 1),
        (&white, "g1f3", 2),
    ] {
        let (status, g) = act(
            player,
            &id,
            json!({ "type": "move", "move": mv, "ply": ply }),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{g}");
    }
    // A move for a ply already played is refused.
    let (status, _) = act(
        &white,
        &id,
        json!({ "type": "move", "move": "d2d4", "ply": 2 }),
    )
    .await;
    assert!(status.is_client_error(), "{status}");
    let (status, g) = act(&black, &id, json!({ "type": "offer_draw" })).await;
    assert_eq!(status, StatusCode::OK, "{g}");
    let (status, g) = act(&white, &id, json!({ "type": "accept_draw" })).await;
    assert_eq!(status, StatusCode::OK, "{g}");
    assert_eq!(g["end"]["result"], "1/2-1/2", "{g}");
    let stored = white.open_store().load_game(&id).await.unwrap().unwrap();
    assert_eq!(stored.moves.len(), 3);
    assert!(stored.record.ending.is_some());
    // After a restart the game reads back as it ended.
    let again = white.restart();
    let (_, g) = again.get(&format!("/api/games/{id}")).await;
    assert_eq!(g["end"]["result"], "1/2-1/2", "{g}");
    assert_eq!(g["moves"].as_array().unwrap().len(), 3);
}

#[tokio::test]
#[ignore = "needs PostgreSQL: set TENSORCHESS_TEST_PG (scripts/test.sh does)"]
async fn accounts_log_in_and_a_rated_result_changes_ratings() {
    let alice = pg();
    let me = alice.register("alice").await;
    let bob = alice.stranger();
    bob.register("bob").await;
    let (status, err) = alice
        .stranger()
        .post(
            "/api/account/register",
            json!({ "username": "ALICE", "password": "another one" }),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{err}");
    // Another browser logs in as alice: the same player.
    let phone = alice.stranger();
    let (status, me2) = phone
        .post(
            "/api/account/login",
            json!({ "username": "Alice", "password": "correct horse" }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{me2}");
    assert_eq!(me2["id"], me["id"]);

    let (status, seek) = alice
        .post(
            "/api/seeks",
            json!({ "variant": "tensor", "clock": { "base_seconds": 300, "increment_seconds": 3 },
                    "rated": true, "color": "white" }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{seek}");
    let accept = format!("/api/seeks/{}/accept", seek["id"].as_str().unwrap());
    let (status, game) = bob.post(&accept, json!({})).await;
    assert_eq!(status, StatusCode::CREATED, "{game}");
    let id = game["id"].as_str().unwrap().to_string();
    // A seek makes one game.
    let (status, _) = bob.post(&accept, json!({})).await;
    assert!(status.is_client_error(), "{status}");
    for (player, mv, ply) in [(&alice, "e2e4", 0), (&bob, "e7e5", 1)] {
        let (status, g) = act(
            player,
            &id,
            json!({ "type": "move", "move": mv, "ply": ply }),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{g}");
    }
    let (status, g) = act(&bob, &id, json!({ "type": "resign" })).await;
    assert_eq!(status, StatusCode::OK, "{g}");
    assert_eq!(g["end"]["result"], "1-0");
    let (_, a) = alice.get("/api/me").await;
    let (_, b) = bob.get("/api/me").await;
    let (ra, rb) = (&a["ratings"]["tensor"], &b["ratings"]["tensor"]);
    assert!(ra["rating"].as_f64().unwrap() > 1600.0, "{ra}");
    assert!(rb["rating"].as_f64().unwrap() < 1400.0, "{rb}");
    assert_eq!(
        (ra["games"].clone(), rb["games"].clone()),
        (json!(1), json!(1))
    );
    let again = alice.restart();
    assert_eq!(again.get("/api/me").await.1["ratings"], a["ratings"]);
}

/// Two servers over one database, each having loaded the game: the same
/// player sends a different move for the same ply to each. The database
/// lets exactly one through; the other is told to reload.
#[tokio::test]
#[ignore = "needs PostgreSQL: set TENSORCHESS_TEST_PG (scripts/test.sh does)"]
async fn two_servers_racing_for_one_move_let_exactly_one_win() {
    let a = pg();
    let game = a
        .create(json!({ "variant": "chess", "mode": "local" }))
        .await;
    let id = game["id"].as_str().unwrap().to_string();
    let (status, _) = a.play(&id, "e2e4").await;
    assert_eq!(status, StatusCode::OK);
    let b = second_instance(&a);
    let (status, seen) = b.get(&format!("/api/games/{id}")).await;
    assert_eq!(status, StatusCode::OK, "the session is the database's");
    assert_eq!(seen["moves"].as_array().unwrap().len(), 1);
    // Each says which ply it is for: the instance that loses may already have
    // heard of the winner's move (then the ply is stale) or not (then its
    // write is), and either way it answers 409.
    let moves = format!("/api/games/{id}/moves");
    let ((sa, ga), (sb, gb)) = tokio::join!(
        a.post(&moves, json!({ "move": "e7e5", "ply": 1 })),
        b.post(&moves, json!({ "move": "d7d5", "ply": 1 }))
    );
    let oks = [sa, sb].iter().filter(|s| **s == StatusCode::OK).count();
    assert_eq!(oks, 1, "{sa} {ga} / {sb} {gb}");
    let loser = if sa == StatusCode::OK { sb } else { sa };
    assert_eq!(loser, StatusCode::CONFLICT);
    let stored = a.open_store().load_game(&id).await.unwrap().unwrap();
    let won = if sa == StatusCode::OK { "e7e5" } else { "d7d5" };
    let moves: Vec<_> = stored.moves.iter().map(|m| m.uci.as_str()).collect();
    assert_eq!(moves, ["e2e4", won]);
    assert_eq!(stored.record.rev, 3);
}
