//! Programs (issue 24): claiming the win of a game the opponent left
//! (`POST /api/bot/game/{id}/claim-victory`). The opponent's page leaves;
//! the bot's game stream says `opponentGone` with `claimWinInSeconds`, and
//! a claim is refused until the test clock has run those seconds.

use crate::bots::{person_against_bot, post_token, Lines};
use crate::common::online::*;
use axum::http::StatusCode;
use serde_json::json;
use tensorchess::server::clock::Clock;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_claims_the_win_once_its_opponent_has_been_gone_long_enough() {
    let t = TestApp::new();
    let (addr, _stop) = t.serve().await;
    let (ann, bot, id) = person_against_bot(&t).await;
    let claim = format!("/api/bot/game/{id}/claim-victory");

    let mut s = Lines::open(&t, &format!("/api/bot/game/stream/{id}"), &bot).await;
    assert_eq!(s.next().await["type"], "gameFull");
    // Ann's page is open on the game.
    let mut ws = ws_connect(addr, Some(&ann)).await;
    subscribe(&mut ws, &id).await;
    presence(&mut ws, true, true).await;

    // Before both sides have moved, the game is aborted, not claimed.
    assert_eq!(t.play(&id, &ann, "e2e4", 0).await.status, StatusCode::OK);
    assert_eq!(s.next_of("gameState").await["moves"], "e2e4");
    let a = post_token(&t, &claim, &bot).await;
    expect_refused(&a, StatusCode::CONFLICT, "not_allowed");
    assert!(
        a.body["error"].as_str().unwrap().contains("abort"),
        "{}",
        a.text
    );
    let mv = format!("/api/bot/game/{id}/move/e7e5");
    let a = post_token(&t, &mv, &bot).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    assert_eq!(s.next_of("gameState").await["moves"], "e2e4 e7e5");

    // Ann is here: nothing to claim.
    let a = post_token(&t, &claim, &bot).await;
    expect_refused(&a, StatusCode::CONFLICT, "not_allowed");
    assert!(
        a.body["error"].as_str().unwrap().contains("not left"),
        "{}",
        a.text
    );

    // Her page closes: the bot is told, with the seconds to wait.
    drop(ws);
    let gone_at = t.clock.now_ms();
    let g = s.next_of("opponentGone").await;
    assert_eq!(g["gone"], true, "{g}");
    assert_eq!(g["claimWinInSeconds"], 30, "{g}");
    let a = post_token(&t, &claim, &bot).await;
    expect_refused(&a, StatusCode::CONFLICT, "too_early");

    // The stream waits for the moment on the server's clock; then the
    // claim opens (a count of 0) and is granted.
    t.armed_for(gone_at + 30_000).await;
    t.clock.advance(30_000);
    let g = s.next_of("opponentGone").await;
    assert_eq!(g["claimWinInSeconds"], 0, "{g}");
    let a = post_token(&t, &claim, &bot).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let end = s.next_of("gameState").await;
    assert_eq!(end["status"], "timeout", "{end}");
    assert_eq!(end["winner"], "black");
    let g = t.game(&id).await;
    assert_eq!(g["end"]["reason"], "abandoned", "{g}");
    assert_eq!(g["end"]["result"], "0-1");
    // Over: no second claim.
    let a = post_token(&t, &claim, &bot).await;
    expect_refused(&a, StatusCode::CONFLICT, "game_over");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_without_a_clock_is_not_won_by_leaving() {
    let t = TestApp::new();
    let ann = account(&t, "ann").await;
    let bob = account(&t, "bob").await;
    let board = crate::bots::make_token(&t, &bob, &["board:play"]).await;
    let a = t
        .post(
            "/api/online",
            Some(&ann),
            json!({ "variant": "chess", "color": "white", "clock": null }),
        )
        .await;
    let id = a.body["id"].as_str().unwrap().to_string();
    let a = t
        .post(&format!("/api/games/{id}/join"), Some(&bob), json!({}))
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    assert_eq!(t.play(&id, &ann, "e2e4", 0).await.status, StatusCode::OK);
    let a = post_token(&t, &format!("/api/board/game/{id}/move/e7e5"), &board).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let a = post_token(&t, &format!("/api/board/game/{id}/claim-victory"), &board).await;
    expect_refused(&a, StatusCode::CONFLICT, "not_allowed");
    assert!(
        a.body["error"].as_str().unwrap().contains("clock"),
        "{}",
        a.text
    );
}

/// A claim is made only while the absent side's clock runs, and a move the
/// absent player makes without a page (by HTTP) shows them there: the
/// time to wait starts again from it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_claim_waits_on_the_absent_sides_clock_and_their_last_request() {
    let t = TestApp::new();
    let (addr, _stop) = t.serve().await;
    let (ann, bot, id) = person_against_bot(&t).await;
    let claim = format!("/api/bot/game/{id}/claim-victory");
    let mut s = Lines::open(&t, &format!("/api/bot/game/stream/{id}"), &bot).await;
    assert_eq!(s.next().await["type"], "gameFull");
    let mut ws = ws_connect(addr, Some(&ann)).await;
    subscribe(&mut ws, &id).await;
    presence(&mut ws, true, true).await;
    assert_eq!(t.play(&id, &ann, "e2e4", 0).await.status, StatusCode::OK);
    let a = post_token(&t, &format!("/api/bot/game/{id}/move/e7e5"), &bot).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);

    // Ann's page closes; 20 s later she moves without it (by HTTP).
    drop(ws);
    assert_eq!(s.next_of("opponentGone").await["gone"], true);
    t.clock.advance(20_000);
    assert_eq!(t.play(&id, &ann, "d2d4", 2).await.status, StatusCode::OK);
    // Now it is the bot's move: its own clock runs, nothing to claim.
    t.clock.advance(15_000);
    let a = post_token(&t, &claim, &bot).await;
    expect_refused(&a, StatusCode::CONFLICT, "not_allowed");
    assert!(
        a.body["error"].as_str().unwrap().contains("your move"),
        "{}",
        a.text
    );
    let a = post_token(&t, &format!("/api/bot/game/{id}/move/d7d5"), &bot).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    // 35 s since her page closed, 15 s since her move: too early.
    let a = post_token(&t, &claim, &bot).await;
    expect_refused(&a, StatusCode::CONFLICT, "too_early");
    t.clock.advance(15_000);
    let a = post_token(&t, &claim, &bot).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let g = t.game(&id).await;
    assert_eq!(g["end"]["reason"], "abandoned", "{g}");
}
