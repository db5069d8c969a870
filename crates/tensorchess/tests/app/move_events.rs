//! The path of a move (issue 26): an online game's move reaches the
//! sockets as a compact `move` event; its size is counted here, on the
//! wire, for the side to move (who alone gets the legal moves) and for a
//! spectator, over a Tensor Chess game into its middlegame.

use crate::common::online::*;
use futures_util::StreamExt;
use serde_json::{json, Value};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

/// The most a move event to the opponent may weigh (median), and to a spectator.
const MAX_TO_MOVE_BYTES: usize = 1024;
const MAX_SPECTATOR_BYTES: usize = 300;

/// The next `move` event on `ws`, with its size in bytes as sent.
async fn next_move_event(ws: &mut Ws) -> (usize, Value) {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .expect("a message")
            .unwrap()
            .unwrap();
        if let Message::Text(t) = msg {
            let v: Value = serde_json::from_str(t.as_str()).unwrap();
            if v["type"] == "move" {
                return (t.len(), v);
            }
        }
    }
}

fn median(mut xs: Vec<usize>) -> usize {
    xs.sort_unstable();
    xs[xs.len() / 2]
}

/// A move of `game` that is not a capture when there is one (so that the
/// game keeps its pieces into a middlegame), chosen by `nth`.
fn a_quiet_move(game: &Value, nth: usize) -> String {
    let legal = game["position"]["legal"].as_array().unwrap();
    let quiet: Vec<&Value> = legal
        .iter()
        .filter(|m| m["path"]["captured"].is_null())
        .collect();
    let pool: Vec<&Value> = if quiet.is_empty() {
        legal.iter().collect()
    } else {
        quiet
    };
    pool[nth % pool.len()]["uci"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn move_events_are_small_and_only_the_side_to_move_gets_the_legal_moves() {
    let t = TestApp::new();
    let clock = json!({ "base_seconds": 300, "increment_seconds": 3 });
    let (id, white, black) = t.started(clock).await;
    let (addr, _stop) = t.serve().await;
    let mut w = ws_connect(addr, Some(&white)).await;
    let mut b = ws_connect(addr, Some(&black)).await;
    let mut s = ws_connect(addr, None).await;
    for ws in [&mut w, &mut b, &mut s] {
        subscribe(ws, &id).await;
    }
    let mut game = t.game(&id).await;
    let (mut to_move, mut watching) = (Vec::new(), Vec::new());
    for ply in 0..40 {
        let (mover, cookie) = if ply % 2 == 0 {
            (&mut w, &white)
        } else {
            (&mut b, &black)
        };
        let mv = a_quiet_move(&game, ply * 7 + 3);
        let r = t.play(&id, cookie, &mv, ply).await;
        assert_eq!(r.status, 200, "ply {ply} {mv}: {}", r.text);
        let (_, own) = next_move_event(mover).await;
        assert!(own.get("legal").is_none(), "the mover gets no legal moves");
        let opponent = if ply % 2 == 0 { &mut b } else { &mut w };
        let (bytes, ev) = next_move_event(opponent).await;
        assert_eq!(ev["move"]["uci"], mv.as_str());
        assert_eq!(ev["rev"], r.body["rev"]);
        // Every legal move of the whole view is in the compact form.
        assert_eq!(
            compact_legal_count(&ev),
            r.body["position"]["legal"].as_array().unwrap().len()
        );
        let (spectator_bytes, seen) = next_move_event(&mut s).await;
        assert!(
            seen.get("legal").is_none(),
            "a spectator gets no legal moves"
        );
        // The middlegame: from move 10 on.
        if ply >= 20 {
            to_move.push(bytes);
            watching.push(spectator_bytes);
        }
        game = r.body;
    }
    let (opponent, spectator) = (median(to_move), median(watching));
    eprintln!("move event: {opponent} B to the opponent, {spectator} B to a spectator (medians)");
    assert!(
        opponent <= MAX_TO_MOVE_BYTES,
        "{opponent} B to the opponent"
    );
    assert!(
        spectator <= MAX_SPECTATOR_BYTES,
        "{spectator} B to a spectator"
    );
}

/// The legal moves are made only when the side to move follows the game
/// here; a player who leaves and comes back gets them again, and the
/// others get the move all the same while nobody of that side follows.
#[tokio::test]
async fn the_side_to_move_gets_its_legal_moves_only_while_it_follows() {
    let t = TestApp::new();
    let clock = json!({ "base_seconds": 300, "increment_seconds": 3 });
    let (id, white, black) = t.started(clock).await;
    let (addr, _stop) = t.serve().await;
    let mut b = ws_connect(addr, Some(&black)).await;
    let mut s = ws_connect(addr, None).await;
    subscribe(&mut s, &id).await;
    let mut game = t.game(&id).await;
    for ply in 0..6 {
        let cookie = if ply % 2 == 0 { &white } else { &black };
        // Black follows on plies 0–1 and 4–5, not on 2–3 (it left).
        if ply == 0 || ply == 4 {
            subscribe(&mut b, &id).await;
        }
        let mv = a_quiet_move(&game, ply * 5 + 1);
        let r = t.play(&id, cookie, &mv, ply).await;
        assert_eq!(r.status, 200, "ply {ply} {mv}: {}", r.text);
        let (_, seen) = next_move_event(&mut s).await;
        assert_eq!(seen["move"]["uci"], mv.as_str());
        assert!(seen.get("legal").is_none());
        let black_follows = !(2..4).contains(&ply);
        if black_follows {
            let (_, ev) = next_move_event(&mut b).await;
            assert_eq!(ev["move"]["uci"], mv.as_str());
            // After White's moves Black is to move: its event has them.
            assert_eq!(ev.get("legal").is_some(), ply % 2 == 0, "ply {ply}: {ev}");
        }
        if ply == 1 {
            send(
                &mut b,
                json!({ "type": "unsubscribe", "topic": format!("game:{id}") }),
            )
            .await;
            next_of(&mut b, &["unsubscribed"]).await;
        }
        game = r.body;
    }
}
