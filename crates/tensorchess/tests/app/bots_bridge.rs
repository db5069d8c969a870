//! The bridge (`tensorchess bot`) against a real server on a socket: two
//! bot accounts, one bridged in process (the library function) and one by
//! the `tensorchess bot` binary, both with our engine (`tensorchess uci`)
//! on a small node budget. A challenge the other's variants leave out is
//! declined with a reason; one that fits is accepted and played to its end.

use crate::bots::{bot_account, with_token, Lines};
use crate::common::online::*;
use axum::http::{Method, StatusCode};
use serde_json::json;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tensorchess::bot::{run, BotConfig};
use tensorchess_rules::VariantKind;

/// Kills the bridge process when the test ends, however it ends.
struct Bridge(Child);

impl Drop for Bridge {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_bridged_bots_play_a_game_to_its_end() {
    let t = TestApp::new();
    let (addr, _stop) = t.serve().await;
    let (_, alpha) = bot_account(&t, "alpha").await;
    let (_, beta) = bot_account(&t, "beta").await;
    let exe = env!("CARGO_BIN_EXE_tensorchess");

    let (stop_tx, stop) = tokio::sync::watch::channel(false);
    let alpha_bridge = tokio::spawn(run(
        BotConfig {
            server: format!("http://{addr}"),
            token: alpha.clone(),
            engine: vec![exe.to_string(), "uci".to_string()],
            variants: vec![VariantKind::Tensor, VariantKind::Chess],
            accept_rated: false,
            max_games: 2,
            level: None,
            nodes: Some(200),
        },
        stop,
    ));
    let _beta_bridge = Bridge(
        Command::new(exe)
            .args([
                "bot",
                "--server",
                &format!("http://{addr}"),
                "--token",
                &beta,
                "--variants",
                "tensor,chess",
                "--level",
                "1",
                "--nodes",
                "200",
            ])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap(),
    );
    // Both bridges follow their events: both bots are online.
    let start = Instant::now();
    loop {
        let online = t.get("/api/bot/online", None).await;
        if online.text.contains("\"alpha\"") && online.text.contains("\"beta\"") {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the bridges did not connect: {}",
            online.text
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    // The test watches alpha's events beside its bridge.
    let mut events = Lines::open(&t, "/api/stream/event", &alpha).await;
    let challenge = |variant: &str| json!({ "variant": variant, "clock": { "base_seconds": 600, "increment_seconds": 5 }, "color": "white" });
    let a = with_token(
        &t,
        Method::POST,
        "/api/challenge/beta",
        &alpha,
        Some(challenge("chessence")),
    )
    .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    let declined = events.next_of("challengeDeclined").await;
    assert_eq!(declined["challenge"]["id"], a.body["id"]);
    assert!(declined["challenge"]["declineReason"]
        .as_str()
        .unwrap()
        .contains("variant"));

    let a = with_token(
        &t,
        Method::POST,
        "/api/challenge/beta",
        &alpha,
        Some(challenge("chess")),
    )
    .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    let started = events.next_of("gameStart").await;
    let id = started["game"]["id"].as_str().unwrap().to_string();
    assert_eq!(started["game"]["color"], "white");
    assert_eq!(started["game"]["variant"]["key"], "chess");

    // Played by both engines to the end (the server's clock stands still,
    // so no flag falls: the rules end it).
    let start = Instant::now();
    let game = loop {
        let g = t.game(&id).await;
        if !g["end"].is_null() {
            break g;
        }
        assert!(
            start.elapsed() < Duration::from_secs(240),
            "the game did not end: {} moves",
            g["moves"].as_array().map_or(0, Vec::len)
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let moves = game["moves"].as_array().unwrap().len();
    eprintln!("{moves} plies, {}", game["end"]);
    assert!(moves >= 4, "{game}");
    assert_ne!(game["end"]["reason"], "resignation");
    let finish = events.next_of("gameFinish").await;
    assert_eq!(finish["game"]["id"], id.as_str());

    stop_tx.send(true).unwrap();
    alpha_bridge.await.unwrap().unwrap();
}
