//! Two clients per game playing it to its end over WebSockets.

use futures_util::{SinkExt, StreamExt};
use rand::rngs::SmallRng;
use rand::Rng;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

use crate::http::{GameEvent, LegalBody, Reply, Ws};
use crate::Error;

/// What the clients found, shared.
#[derive(Default)]
pub(crate) struct Tally {
    pub(crate) rtts_us: Vec<u64>,
    /// (game, ply, move) of every acknowledged move.
    pub(crate) acked: Vec<(String, usize, String)>,
    pub(crate) endings: HashMap<String, usize>,
    pub(crate) refused: HashMap<String, usize>,
    pub(crate) errors: Vec<String>,
}

/// Plays one side of one game until it ends (or the connection does); what
/// was acknowledged counts either way.
pub(crate) async fn play_side(
    ws: Ws,
    id: String,
    me: &'static str,
    max_plies: usize,
    rng: SmallRng,
    tally: Arc<Mutex<Tally>>,
    moves_done: Arc<AtomicU64>,
) -> Result<(), Error> {
    let mut rtts = Vec::new();
    let mut acked = Vec::new();
    let out = play_loop(
        ws,
        &id,
        me,
        max_plies,
        rng,
        &tally,
        &moves_done,
        &mut rtts,
        &mut acked,
    )
    .await;
    let mut t = tally.lock().unwrap();
    t.rtts_us.extend(rtts);
    t.acked.extend(acked);
    out
}

#[allow(clippy::too_many_arguments)]
pub(crate) async fn play_loop(
    mut ws: Ws,
    id: &str,
    me: &'static str,
    max_plies: usize,
    mut rng: SmallRng,
    tally: &Mutex<Tally>,
    moves_done: &AtomicU64,
    rtts: &mut Vec<u64>,
    acked: &mut Vec<(String, usize, String)>,
) -> Result<(), Error> {
    let id = id.to_string();
    // The move waiting for its acknowledgement: (req = ply, sent at, move).
    let mut sent: Option<(u64, Instant, String)> = None;
    // Messages not answered yet, by request number (resent when rate limited).
    let mut unanswered: HashMap<u64, String> = HashMap::new();
    let mut offered = false;
    let mut accepted = false;
    while let Some(msg) = ws.next().await {
        let text = match msg? {
            Message::Text(t) => t,
            Message::Close(_) => break,
            _ => continue,
        };
        let text = text.as_str();
        if text.starts_with(r#"{"type":"game""#) {
            let ev: GameEvent = serde_json::from_str(text)?;
            let g = ev.game;
            if let Some(end) = g.end {
                if me == "white" {
                    *tally.lock().unwrap().endings.entry(end.reason).or_default() += 1;
                }
                break;
            }
            let ply = g.moves_from + g.moves.len();
            let offer_from_them = g
                .online
                .as_ref()
                .and_then(|o| o.draw_offer.as_deref())
                .is_some_and(|c| c != me);
            if offer_from_them && !accepted {
                accepted = true;
                let m = format!(r#"{{"type":"accept_draw","game":"{id}","req":1000000}}"#);
                unanswered.insert(1_000_000, m.clone());
                ws.send(Message::text(m)).await?;
                continue;
            }
            if g.position.turn != me || sent.as_ref().is_some_and(|s| s.0 == ply as u64) {
                continue;
            }
            if ply >= max_plies {
                if !offered {
                    offered = true;
                    let m = format!(r#"{{"type":"offer_draw","game":"{id}","req":1000001}}"#);
                    unanswered.insert(1_000_001, m.clone());
                    ws.send(Message::text(m)).await?;
                }
                continue;
            }
            let Some(choice) = choose(&g.position.legal, &mut rng) else {
                continue;
            };
            let uci = choice.uci.clone();
            let m = format!(
                r#"{{"type":"move","game":"{id}","move":"{uci}","ply":{ply},"req":{ply}}}"#
            );
            sent = Some((ply as u64, Instant::now(), uci));
            unanswered.insert(ply as u64, m.clone());
            ws.send(Message::text(m)).await?;
        } else if text.starts_with(r#"{"type":"ack""#) {
            let r: Reply = serde_json::from_str(text)?;
            if let Some(req) = r.req {
                unanswered.remove(&req);
            }
            if let (Some((req, at, uci)), Some(got)) = (&sent, r.req) {
                if *req == got {
                    rtts.push(at.elapsed().as_micros() as u64);
                    acked.push((id.clone(), got as usize, uci.clone()));
                    moves_done.fetch_add(1, Ordering::Relaxed);
                }
            }
        } else if text.starts_with(r#"{"type":"refused""#) {
            let r: Reply = serde_json::from_str(text)?;
            let kind = r.kind.clone().unwrap_or_default();
            *tally
                .lock()
                .unwrap()
                .refused
                .entry(kind.clone())
                .or_default() += 1;
            let again = r
                .req
                .and_then(|req| unanswered.get(&req).map(|m| (req, m.clone())));
            if kind == "rate_limited" {
                // Back off and send the same message again.
                if let Some((req, m)) = again {
                    tokio::time::sleep(Duration::from_millis(200)).await;
                    if let Some(s) = sent.as_mut().filter(|s| s.0 == req) {
                        s.1 = Instant::now();
                    }
                    ws.send(Message::text(m)).await?;
                }
            } else if kind != "game_over" && kind != "stale" {
                tally.lock().unwrap().errors.push(format!(
                    "game {id}, {me}: refused {kind}: {}",
                    r.message.unwrap_or_default()
                ));
            }
        } else if text.starts_with(r#"{"type":"error""#) {
            tally
                .lock()
                .unwrap()
                .errors
                .push(format!("game {id}, {me}: {text}"));
        } else if text.starts_with(r#"{"type":"resync""#) {
            let sub = format!(r#"{{"type":"subscribe","topic":"game:{id}"}}"#);
            ws.send(Message::text(sub)).await?;
        }
    }
    let _ = ws.close(None).await;
    Ok(())
}

/// A simple policy: mate if possible, often a capture, else any move.
pub(crate) fn choose<'a>(legal: &'a [LegalBody], rng: &mut SmallRng) -> Option<&'a LegalBody> {
    if legal.is_empty() {
        return None;
    }
    if let Some(m) = legal.iter().find(|m| m.san.ends_with('#')) {
        return Some(m);
    }
    let captures: Vec<&LegalBody> = legal.iter().filter(|m| m.san.contains('x')).collect();
    if !captures.is_empty() && rng.random_bool(0.6) {
        return Some(captures[rng.random_range(0..captures.len())]);
    }
    Some(&legal[rng.random_range(0..legal.len())])
}

pub(crate) fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)] as f64 / 1000.0
}

pub(crate) fn parse_clock(s: &str) -> Result<String, Error> {
    if s == "none" {
        return Ok("null".into());
    }
    let (base, inc) = s.split_once('+').unwrap_or((s, "0"));
    let base: u32 = base
        .trim()
        .parse()
        .map_err(|_| format!("bad --clock {s}"))?;
    let inc: u32 = inc.trim().parse().map_err(|_| format!("bad --clock {s}"))?;
    Ok(format!(
        r#"{{"base_seconds":{base},"increment_seconds":{inc}}}"#
    ))
}
