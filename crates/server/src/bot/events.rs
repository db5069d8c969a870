//! `GET /api/stream/event`: what happens to a player's challenges and
//! games, as lichess's event stream says it (`challenge`,
//! `challengeCanceled`, `challengeDeclined`, `gameStart`, `gameFinish`),
//! what is current first, and an empty line every [`KEEP_ALIVE_MS`].

use super::game::game_event;
use super::lichess;
use super::lines::{self, LineStream, Lines};
use super::{Bots, KEEP_ALIVE_MS};
use crate::error::AppError;
use crate::identity::Me;
use crate::ids::{game_topic, GameId};
use crate::round::games::Games;
use crate::round::online::started::{started_game, started_topic};
use crate::store::{GameListQuery, GameMode};
use serde_json::{json, Value};
use std::collections::HashSet;
use std::sync::Arc;
use tensorchess_rules::VariantKind;
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::mpsc;

/// Ongoing games looked at when the stream opens.
const ONGOING: usize = 100;

/// A challenge (as the `challenges` topic sends it) in lichess's shape.
pub fn lichess_challenge(c: &Value) -> Value {
    // lichess leaves `title` out where there is none.
    let user = |p: &Value| {
        let mut u = json!({
            "id": p["id"].as_str().map(|id| lichess::user_id(id, p["account"].as_str())),
            "name": p["account"].as_str().or(p["name"].as_str()),
            "rating": p["rating"],
            "provisional": p["provisional"],
        });
        if p["title"].is_string() {
            u["title"] = p["title"].clone();
        }
        u
    };
    let clock = &c["clock"];
    let clock_settings = clock.is_object().then(|| crate::store::ClockSettings {
        base_ms: clock["base_seconds"].as_i64().unwrap_or(0) * 1000,
        increment_ms: clock["increment_seconds"].as_i64().unwrap_or(0) * 1000,
    });
    let time_control = match (clock_settings, c["days"].as_u64()) {
        (Some(cs), _) => {
            let (base, inc) = (cs.base_ms / 1000, cs.increment_ms / 1000);
            json!({
                "type": "clock",
                "limit": base,
                "increment": inc,
                "show": format!("{}+{inc}", fmt_minutes(base)),
            })
        }
        (None, Some(days)) => json!({ "type": "correspondence", "daysPerTurn": days }),
        (None, None) => json!({ "type": "unlimited" }),
    };
    let kind = c["variant"]
        .as_str()
        .and_then(|v| v.parse::<VariantKind>().ok())
        .unwrap_or(VariantKind::Chess);
    let status = match c["state"].as_str() {
        Some("open") => "created",
        Some("canceled") | Some("expired") => "canceled",
        Some(other) => other,
        None => "created",
    };
    let mut out = json!({
        "id": c["id"],
        "url": format!("/#/challenge/{}", c["id"].as_str().unwrap_or("")),
        "status": status,
        "challenger": user(&c["from"]),
        "destUser": user(&c["to"]),
        "variant": lichess::variant(kind),
        "rated": c["rated"],
        "speed": lichess::speed(clock_settings),
        "perf": { "icon": "", "name": lichess::perf_name(lichess::perf_key(kind, clock_settings)) },
        "timeControl": time_control,
        "color": c["color"],
        "finalColor": c["final_color"],
        "direction": c["direction"],
    });
    if let Some(reason) = c["reason"].as_str() {
        out["declineReason"] = json!(reason);
    }
    if c["state"] == "declined" && c["reason"].is_null() {
        out["declineReason"] = json!("I'm not accepting challenges at the moment.");
    }
    out
}

/// Minutes as lichess shows them (`3`, `0.5`).
fn fmt_minutes(seconds: i64) -> String {
    if seconds % 60 == 0 {
        (seconds / 60).to_string()
    } else {
        format!("{}", seconds as f64 / 60.0)
    }
}

/// Watches one game of the player's until it ends, then sends its
/// `gameFinish` into `finished`.
fn watch_game(
    games: Arc<Games>,
    bots: Arc<Bots>,
    me: Me,
    id: String,
    finished: mpsc::Sender<Value>,
) {
    tokio::spawn(async move {
        let mut rx = games.hub().subscribe(&game_topic(&id));
        // Ended before the subscription?
        let mut check = true;
        loop {
            if check {
                if let Ok(Some(game)) =
                    game_event(&games, &bots, &me, &GameId::stored(id.clone())).await
                {
                    if game["status"]["name"] != "started" {
                        let _ = finished
                            .send(json!({ "type": "gameFinish", "game": game }))
                            .await;
                        return;
                    }
                }
            }
            check = tokio::select! {
                m = rx.recv() => match m {
                    Ok(text) => {
                        let v: Value = serde_json::from_slice(&text.text_for(None)).unwrap_or_default();
                        v["type"] == "game" && !v["game"]["end"].is_null()
                    }
                    Err(RecvError::Lagged(_)) => true,
                    Err(RecvError::Closed) => return,
                },
                _ = finished.closed() => return,
            };
        }
    });
}

/// The player's online games in progress, with a seat of theirs.
async fn ongoing(games: &Games, me: &Me) -> Result<Vec<String>, AppError> {
    let list = games
        .live
        .store()
        .list_games(&GameListQuery {
            player: me.id.to_string(),
            limit: ONGOING,
            before: None,
        })
        .await?;
    Ok(list
        .into_iter()
        .filter(|g| g.record.mode == GameMode::Online && g.record.ending.is_none())
        .map(|g| g.record.id)
        .collect())
}

/// `me`'s games in progress as `gameStart` shows them (lichess's
/// `GET /api/account/playing`), newest first.
pub async fn now_playing(games: &Games, bots: &Bots, me: &Me) -> Result<Vec<Value>, AppError> {
    let mut out = Vec::new();
    for id in ongoing(games, me).await? {
        if let Some(game) = game_event(games, bots, me, &GameId::stored(id)).await? {
            out.push(game);
        }
    }
    Ok(out)
}

/// An event stream's subscriptions, taken before what is current is
/// read, so that nothing made meanwhile is missed.
pub struct EventSubscription {
    me: Me,
    challenges: tokio::sync::broadcast::Receiver<crate::hub::Published>,
    started: tokio::sync::broadcast::Receiver<crate::hub::Published>,
}

/// Subscribes `me`'s event stream to their challenges and games.
pub fn subscribe_events(games: &Games, me: Me) -> EventSubscription {
    let hub = games.live.hub();
    EventSubscription {
        challenges: hub.subscribe(&crate::topic::challenges_of(&me.id)),
        started: hub.subscribe(&started_topic(&me.id)),
        me,
    }
}

/// `GET /api/stream/event` for the subscription's player, `incoming` the
/// challenges they have received, read after subscribing (as the
/// `challenges` topic sends them).
pub async fn event_stream(
    games: Arc<Games>,
    bots: Arc<Bots>,
    subscription: EventSubscription,
    incoming: Vec<Value>,
) -> Result<LineStream, AppError> {
    let live = games.live.clone();
    let EventSubscription {
        me,
        challenges: mut rx,
        started: mut started_rx,
    } = subscription;
    let here = live.presence().player_here(&me.id);
    let playing = ongoing(&games, &me).await?;
    let (lines, stream) = lines::channel(live.config().ws_write_timeout);
    tokio::spawn(async move {
        let _here = here;
        let (finished_tx, mut finished_rx) = mpsc::channel::<Value>(64);
        // Each game's start is sent once, however it was heard of (the
        // list on opening, a start announced, a challenge accepted).
        let mut told: HashSet<String> = HashSet::new();
        let mut start = |id: String| {
            let (games, bots, me, tx) =
                (games.clone(), bots.clone(), me.clone(), finished_tx.clone());
            let first = told.insert(id.clone());
            async move {
                if !first {
                    return None;
                }
                let line = match game_event(&games, &bots, &me, &GameId::stored(id.clone())).await {
                    Ok(Some(game)) => Some(json!({ "type": "gameStart", "game": game })),
                    _ => None,
                };
                watch_game(games, bots, me, id, tx);
                line
            }
        };
        for id in playing {
            if let Some(line) = start(id).await {
                if !lines.send(&line).await {
                    return;
                }
            }
        }
        for v in &incoming {
            if !lines
                .send(&json!({ "type": "challenge", "challenge": lichess_challenge(v) }))
                .await
            {
                return;
            }
        }
        let clock = live.config().clock.clone();
        let mut stopping = live.stopping();
        let mut alive_at = clock.now_ms() + KEEP_ALIVE_MS;
        loop {
            let next = tokio::select! {
                m = rx.recv() => match m {
                    Ok(text) => {
                        let v: Value = serde_json::from_slice(&text.text_for(None)).unwrap_or_default();
                        challenge_line(&v)
                    }
                    Err(RecvError::Lagged(_)) => None,
                    Err(RecvError::Closed) => return,
                },
                m = started_rx.recv() => match m {
                    Ok(text) => {
                        let v: Value = serde_json::from_slice(&text.text_for(None)).unwrap_or_default();
                        started_game(&v).map(|id| Err(id.to_string()))
                    }
                    Err(RecvError::Lagged(_)) => None,
                    Err(RecvError::Closed) => return,
                },
                Some(line) = finished_rx.recv() => Some(Ok(line)),
                _ = clock.sleep_until(alive_at) => {
                    alive_at = clock.now_ms() + KEEP_ALIVE_MS;
                    if !lines.keep_alive().await { return; }
                    None
                }
                _ = async { let _ = stopping.wait_for(|s| *s).await; } => return,
                _ = lines.closed() => return,
            };
            let line = match next {
                Some(Ok(line)) => Some(line),
                Some(Err(game)) => start(game).await,
                None => None,
            };
            if let Some(line) = line {
                if !send(&lines, &line).await {
                    return;
                }
            }
        }
    });
    Ok(stream)
}

async fn send(lines: &Lines, line: &Value) -> bool {
    lines.send(line).await
}

/// The line a `challenge` message of the hub becomes: a line, or the game
/// an acceptance made (`Err`, for a `gameStart`).
fn challenge_line(v: &Value) -> Option<Result<Value, String>> {
    if v["type"] != "challenge" {
        return None;
    }
    let c = &v["challenge"];
    let lichess = lichess_challenge(c);
    Some(Ok(match v["event"].as_str()? {
        "created" => json!({ "type": "challenge", "challenge": lichess }),
        "declined" => json!({ "type": "challengeDeclined", "challenge": lichess }),
        "canceled" | "expired" => json!({ "type": "challengeCanceled", "challenge": lichess }),
        "accepted" => return Some(Err(c["game"].as_str()?.to_string())),
        _ => return None,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_challenges_time_control_is_lichess_s() {
        let clock = json!({ "id": "c1", "clock": { "base_seconds": 180, "increment_seconds": 2 } });
        let v = lichess_challenge(&clock);
        assert_eq!(
            v["timeControl"],
            json!({ "type": "clock", "limit": 180, "increment": 2, "show": "3+2" })
        );
        assert_eq!(v["speed"], "blitz");
        let days = json!({ "id": "c2", "clock": null, "days": 3 });
        let v = lichess_challenge(&days);
        assert_eq!(
            v["timeControl"],
            json!({ "type": "correspondence", "daysPerTurn": 3 })
        );
        assert_eq!(v["speed"], "correspondence");
        let none = json!({ "id": "c3", "clock": null, "days": null });
        assert_eq!(lichess_challenge(&none)["timeControl"]["type"], "unlimited");
    }
}
