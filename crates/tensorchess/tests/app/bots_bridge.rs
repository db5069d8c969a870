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
            ca_file: None,
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
    assert_eq!(started["game"]["variant"]["key"], "standard");

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
    assert!(moves >= 4, "{game}");
    assert_ne!(game["end"]["reason"], "resignation");
    let finish = events.next_of("gameFinish").await;
    assert_eq!(finish["game"]["id"], id.as_str());

    stop_tx.send(true).unwrap();
    alpha_bridge.await.unwrap().unwrap();
}

/// Serves `state` on `addr` (a port of its own, or one a stopped server
/// used); the task ends once the server has stopped.
async fn serve_at(
    addr: &str,
    state: &tensorchess::server::AppState,
) -> (
    std::net::SocketAddr,
    tokio::sync::oneshot::Sender<()>,
    tokio::task::JoinHandle<std::io::Result<()>>,
) {
    let listener = tokio::net::TcpListener::bind(addr).await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(tensorchess::server::serve(listener, state.clone(), async {
        let _ = rx.await;
    }));
    (addr, tx, task)
}

/// The first legal move of game `id` on `t`.
async fn a_legal_move(t: &TestApp, id: &str) -> String {
    let g = t.game(id).await;
    g["position"]["legal"][0]["uci"]
        .as_str()
        .unwrap()
        .to_string()
}

/// Waits until game `id` on `t` has `ply` moves.
async fn wait_for_ply(t: &TestApp, id: &str, ply: usize) {
    t.wait_for(id, &format!("ply {ply}"), |g| {
        g["moves"].as_array().map_or(0, Vec::len) >= ply
    })
    .await;
}

/// A person plays a bridged bot; the server stops mid-game and another
/// starts on the same database and port: the bridge reconnects and the
/// game goes on where it was.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bridge_plays_on_after_the_server_restarts() {
    let t = TestApp::new();
    let (addr, stop_first, first) = serve_at("127.0.0.1:0", &t.state).await;
    let ann = account(&t, "ann").await;
    let (_, robo) = bot_account(&t, "robo").await;
    let (stop_tx, stop) = tokio::sync::watch::channel(false);
    let bridge = tokio::spawn(run(
        BotConfig {
            server: format!("http://{addr}"),
            ca_file: None,
            token: robo.clone(),
            engine: vec![
                env!("CARGO_BIN_EXE_tensorchess").to_string(),
                "uci".to_string(),
            ],
            variants: vec![VariantKind::Tensor],
            accept_rated: false,
            max_games: 1,
            level: None,
            nodes: Some(200),
        },
        stop,
    ));
    // The bridge answers Ann's challenge (it follows its events by then:
    // the bot is online).
    let start = Instant::now();
    while !t.get("/api/bot/online", None).await.text.contains("robo") {
        assert!(start.elapsed() < Duration::from_secs(30), "no bridge");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let c = t
        .post(
            "/api/challenges",
            Some(&ann),
            json!({ "to": "robo", "color": "white", "clock": { "base_seconds": 300 } }),
        )
        .await;
    assert_eq!(c.status, StatusCode::CREATED, "{}", c.text);
    let start = Instant::now();
    let id = loop {
        let list = t.get("/api/games", Some(&ann)).await;
        if let Some(id) = list.body["games"][0]["id"].as_str() {
            break id.to_string();
        }
        assert!(start.elapsed() < Duration::from_secs(30), "not accepted");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let mv = a_legal_move(&t, &id).await;
    assert_eq!(t.play(&id, &ann, &mv, 0).await.status, StatusCode::OK);
    wait_for_ply(&t, &id, 2).await;

    // The server stops; another takes its place on the same port.
    stop_first.send(()).unwrap();
    first.await.unwrap().unwrap();
    let second = t.reopen();
    let (_, _stop_second, _task) = serve_at(&addr.to_string(), &second.state).await;
    let mv = a_legal_move(&second, &id).await;
    assert_eq!(second.play(&id, &ann, &mv, 2).await.status, StatusCode::OK);
    wait_for_ply(&second, &id, 4).await;
    let a = second
        .act(&id, Some(&ann), json!({ "type": "resign" }))
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    stop_tx.send(true).unwrap();
    bridge.await.unwrap().unwrap();
}
