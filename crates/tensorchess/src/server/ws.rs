//! The WebSocket at `/api/ws`: clients subscribe to topics of the [`Hub`]
//! (`game:ID`) and receive a snapshot, then every change.
//!
//! Client messages are JSON ([`ClientMessage`]); anything malformed or too
//! large is answered with an `error` message and the connection stays open.
//!
//! [`Hub`]: super::hub::Hub

use super::games::{valid_id, Games};
use super::requests::ClientMessage;
use super::views::ServerEvent;
use super::AppState;
use axum::extract::ws::{Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use std::collections::HashMap;
use tokio::sync::{broadcast, mpsc};
use tokio::task::JoinHandle;

/// Largest client message handled; larger ones get an error answer.
pub const MAX_CLIENT_MESSAGE: usize = 4096;
/// Largest frame read at all (beyond it the protocol layer closes the connection).
const MAX_FRAME: usize = 1 << 20;
/// Topics one connection may follow.
const MAX_SUBSCRIPTIONS: usize = 32;

pub async fn handler(ws: WebSocketUpgrade, State(state): State<AppState>) -> Response {
    ws.max_message_size(MAX_FRAME)
        .max_frame_size(MAX_FRAME)
        .on_upgrade(move |socket| connection(socket, state))
}

fn text(event: &ServerEvent) -> Message {
    Message::Text(Utf8Bytes::from(
        serde_json::to_string(event).unwrap_or_else(|_| "{}".into()),
    ))
}

async fn connection(socket: WebSocket, state: AppState) {
    let (mut sink, mut stream) = socket.split();
    let (out_tx, mut out_rx) = mpsc::channel::<Message>(64);
    let mut subscriptions: HashMap<String, JoinHandle<()>> = HashMap::new();
    let mut shutdown = state.shutdown_signal();
    if *shutdown.borrow() {
        return;
    }
    loop {
        tokio::select! {
            incoming = stream.next() => {
                let msg = match incoming {
                    None | Some(Err(_)) => break,
                    Some(Ok(msg)) => msg,
                };
                match msg {
                    Message::Text(t) => {
                        let reply = handle_text(t.as_str(), &state, &out_tx, &mut subscriptions).await;
                        if let Some(reply) = reply {
                            if sink.send(text(&reply)).await.is_err() {
                                break;
                            }
                        }
                    }
                    Message::Binary(_) => {
                        let err = ServerEvent::Error { message: "Binary messages are not understood: send JSON text".into() };
                        if sink.send(text(&err)).await.is_err() {
                            break;
                        }
                    }
                    Message::Close(_) => break,
                    Message::Ping(_) | Message::Pong(_) => {}
                }
            }
            Some(out) = out_rx.recv() => {
                if sink.send(out).await.is_err() {
                    break;
                }
            }
            _ = shutdown.changed() => {
                let _ = sink.send(Message::Close(None)).await;
                break;
            }
        }
    }
    for (_, task) in subscriptions {
        task.abort();
    }
}

async fn handle_text(
    t: &str,
    state: &AppState,
    out: &mpsc::Sender<Message>,
    subscriptions: &mut HashMap<String, JoinHandle<()>>,
) -> Option<ServerEvent> {
    let error = |message: String| Some(ServerEvent::Error { message });
    if t.len() > MAX_CLIENT_MESSAGE {
        return error(format!(
            "Message too large ({} bytes; at most {MAX_CLIENT_MESSAGE})",
            t.len()
        ));
    }
    let msg: ClientMessage = match serde_json::from_str(t) {
        Ok(m) => m,
        Err(e) => return error(format!("Malformed message: {e}")),
    };
    match msg {
        ClientMessage::Ping => Some(ServerEvent::Pong),
        ClientMessage::Unsubscribe { topic } => {
            if let Some(task) = subscriptions.remove(&topic) {
                task.abort();
            }
            Some(ServerEvent::Unsubscribed { topic })
        }
        ClientMessage::Subscribe { topic } => {
            let Some(id) = topic.strip_prefix("game:").filter(|id| valid_id(id)) else {
                return error(format!(
                    "Unknown topic '{}'",
                    topic.chars().take(64).collect::<String>()
                ));
            };
            if !subscriptions.contains_key(&topic) && subscriptions.len() >= MAX_SUBSCRIPTIONS {
                return error(format!(
                    "At most {MAX_SUBSCRIPTIONS} subscriptions per connection"
                ));
            }
            // Subscribe before taking the snapshot, so no change falls in between.
            let rx = state.games.hub().subscribe(&topic);
            let game = match state.games.view(id).await {
                Ok(g) => g,
                Err(e) => return error(e.to_string()),
            };
            let snapshot = ServerEvent::Game {
                topic: topic.clone(),
                event: "snapshot",
                game: Box::new(game),
            };
            let out = out.clone();
            let forward_topic = topic.clone();
            let task = tokio::spawn(async move {
                if out
                    .send(text(&ServerEvent::Subscribed {
                        topic: forward_topic.clone(),
                    }))
                    .await
                    .is_err()
                    || out.send(text(&snapshot)).await.is_err()
                {
                    return;
                }
                forward(rx, out, forward_topic).await;
            });
            if let Some(old) = subscriptions.insert(topic, task) {
                old.abort();
            }
            None
        }
    }
}

async fn forward(
    mut rx: broadcast::Receiver<std::sync::Arc<str>>,
    out: mpsc::Sender<Message>,
    topic: String,
) {
    loop {
        let msg = match rx.recv().await {
            Ok(t) => Message::Text(Utf8Bytes::from(t.to_string())),
            Err(broadcast::error::RecvError::Lagged(_)) => text(&ServerEvent::Resync {
                topic: topic.clone(),
            }),
            Err(broadcast::error::RecvError::Closed) => break,
        };
        if out.send(msg).await.is_err() {
            break;
        }
    }
}

/// The topic of a game's updates.
pub fn game_topic(id: &str) -> String {
    Games::topic(id)
}
