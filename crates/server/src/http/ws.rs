//! The WebSocket at `/api/ws`: clients subscribe to topics of the [`Hub`]
//! (`game:ID`) and receive a snapshot, then every change; players of online
//! games also send their actions here (moves, resignations, offers).
//!
//! Client messages are JSON ([`ClientMessage`]); anything malformed or too
//! large is answered with an `error` message and the connection stays open.
//! Each connection may send a burst of messages, then a steady rate (a
//! token bucket, [`RateLimit`]); messages beyond it are answered with an
//! error of kind `rate_limited` and dropped.
//!
//! The player a connection speaks for comes from the identity cookie of its
//! upgrade request (see [`crate::players`]); a cross-site page cannot open
//! the socket (the `Origin` must be this server). Topics: `game:ID` and
//! `lobby` (the open seeks). While a player has a connection open, their
//! seeks stay; when their last one closes, the seeks go. A connection
//! closes when its session ends or its player is banned, on any server
//! (it is told why first).
//!
//! A client that does not read what it is sent cannot make the server
//! hold it: each connection queues at most [`SEND_QUEUE`] messages, and a
//! write that the client does not take within the configured write
//! timeout closes the connection (`slow_sockets_dropped` in the health
//! counters).
//!
//! The socket is yawc's, which negotiates WebSocket compression
//! (permessage-deflate, RFC 7692) when the client offers it, as browsers
//! do: without context takeover in either direction, so that between
//! messages a connection holds no deflate state (the state is lent from
//! one pool per server for the message being compressed), and only
//! messages of [`COMPRESS_FROM`] bytes or more are compressed.
//!
//! [`Hub`]: crate::hub::Hub
//! [`RateLimit`]: crate::ratelimit::RateLimit

use crate::error::AppError;
use crate::identity::Me;
use crate::ids::{game_topic, GameId};
use crate::learning::analysis::{AnalyseRequest, RunningAnalysis};
use crate::metrics::{Gauge, Metrics};
use crate::presence::{PresenceGuard, WatchGuard};
use crate::ratelimit::TokenBucket;
use crate::requests::ClientMessage;
use crate::round::live::GameEvent;
use crate::round::online::OnlineGames;
use crate::store::{ChatRoom, GameMode};
use crate::topic::Topic;
use crate::views::ServerEvent;
use crate::AppState;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use futures_util::{SinkExt, StreamExt};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{broadcast, mpsc};
use tokio::task::JoinHandle;
use yawc::close::CloseCode;
use yawc::{DeflatePool, Frame, HttpStream, IncomingUpgrade, OpCode, Options, WebSocket};

/// What goes out on a socket: one frame (a text, a ping, a close).
type Message = Frame;

/// Largest client message handled; a larger one gets an error answer.
pub const MAX_CLIENT_MESSAGE: usize = 4096;
/// Largest message read at all: beyond it the protocol layer refuses the
/// message before reading it whole, and closes the connection ("message
/// too big"), so nobody can make the server buffer large messages.
pub const MAX_READ_MESSAGE: usize = 16 * 1024;
/// Bytes read from a socket at a time.
const READ_BUFFER: usize = 8 * 1024;
/// Topics one connection may follow.
const MAX_SUBSCRIPTIONS: usize = 32;
/// Messages queued for one connection: past this, its client is not
/// reading, and the connection is dropped.
pub const SEND_QUEUE: usize = 64;
/// The server pings this often; a connection silent for [`IDLE_LIMIT`] is closed
/// (a closed laptop, a dead network), so the opponent sees "disconnected".
const PING_EVERY: Duration = Duration::from_secs(15);
const IDLE_LIMIT: Duration = Duration::from_secs(45);
/// Messages shorter than this go uncompressed: deflate saves little on a
/// few dozen bytes, and costs a compressor.
pub const COMPRESS_FROM: usize = 128;
/// Deflate states kept between messages, for all connections together:
/// about the messages compressed at one moment (one per worker thread, and
/// some to spare), not one per connection.
const DEFLATE_STATES: usize = 16;

/// The sockets' settings: small buffers (client messages are small, and a
/// thousand connections with large ones would hold a quarter of a
/// gigabyte), the read limits, and compression for clients that offer it.
pub fn socket_options() -> Options {
    Options::default()
        .with_limits(MAX_READ_MESSAGE, MAX_READ_MESSAGE)
        .with_read_buffer_capacity(READ_BUFFER)
        .with_write_buffer_capacity(READ_BUFFER)
        .with_utf8()
        .with_low_latency_compression()
        .server_no_context_takeover()
        .client_no_context_takeover()
        .with_deflate_pool(DeflatePool::new(DEFLATE_STATES))
        .with_compression_threshold(COMPRESS_FROM)
}

/// `GET /api/ws`: upgrades to a WebSocket for `me` (origin and connection limits checked first).
pub async fn handler(
    ws: IncomingUpgrade,
    headers: HeaderMap,
    me: Me,
    client: Option<axum::Extension<super::held::ClientSlot>>,
    State(state): State<AppState>,
) -> Response {
    if !super::guard::same_site(&headers) {
        return (
            StatusCode::FORBIDDEN,
            "WebSocket connections are only accepted from this server's own pages",
        )
            .into_response();
    }
    let (response, upgrade) = match ws.upgrade(state.socket_options.clone()) {
        Ok(upgraded) => upgraded,
        Err(e) => {
            return (
                StatusCode::BAD_REQUEST,
                format!("Not a WebSocket upgrade: {e}"),
            )
                .into_response()
        }
    };
    tokio::spawn(async move {
        // A forwarded client's place is held while its socket is open.
        let _client = client;
        // The client may go before the upgrade completes: nothing to do.
        if let Ok(socket) = upgrade.await {
            connection(socket, state, me).await;
        }
    });
    response.map(axum::body::Body::new)
}

fn text(event: &ServerEvent) -> Message {
    Frame::text(serde_json::to_string(event).unwrap_or_else(|_| "{}".into()))
}

/// The frame that closes a connection.
fn close() -> Message {
    Frame::close(CloseCode::Normal, [])
}

/// The channel an analysis answers on: its events are written out on the
/// connection's queue, waiting for room there (an analysis slows down for
/// a slow reader rather than dropping it); closed when the connection is.
fn analysis_outbox(out: &mpsc::Sender<Message>) -> mpsc::Sender<ServerEvent> {
    let (tx, mut rx) = mpsc::channel::<ServerEvent>(4);
    let out = out.clone();
    tokio::spawn(async move {
        while let Some(event) = rx.recv().await {
            if out.send(text(&event)).await.is_err() {
                break;
            }
        }
    });
    tx
}

/// What one connection keeps.
struct Conn {
    me: Me,
    bucket: TokenBucket,
    subscriptions: HashMap<String, JoinHandle<()>>,
    /// The connection's live analysis (one at a time: a new one replaces it).
    analysis: Option<RunningAnalysis>,
    /// Told when the send queue is full (the client does not read).
    slow: Arc<tokio::sync::Notify>,
}

/// A message to a page whose session ended (`type`: `banned` or
/// `session_ended`), sent before the socket closes.
fn account_message(kind: &str, message: &str) -> Message {
    Frame::text(serde_json::json!({ "type": kind, "message": message }).to_string())
}

/// Sends one message, unless the client does not take it within `limit`.
async fn send_within<S>(sink: &mut S, msg: Message, limit: Duration) -> bool
where
    S: futures_util::Sink<Message> + Unpin,
{
    matches!(
        tokio::time::timeout(limit, sink.send(msg)).await,
        Ok(Ok(()))
    )
}

async fn connection(socket: WebSocket<HttpStream>, state: AppState, me: Me) {
    let _open = Gauge::hold(&state.metrics, |m| &m.sockets);
    let write_limit = state.games.config().ws_write_timeout;
    let (mut sink, mut stream) = socket.split();
    if let Some(reason) = &me.banned {
        let text = format!("You are banned from this server: {reason}");
        let _ = send_within(&mut sink, account_message("banned", &text), write_limit).await;
        let _ = send_within(&mut sink, close(), write_limit).await;
        return;
    }
    // The player counts as here while this connection lasts.
    let here = state.games.live.presence().player_here(&me.id);
    let mut signals = state.players.signals();
    let (out_tx, mut out_rx) = mpsc::channel::<Message>(SEND_QUEUE);
    // Set by a subscription that found the queue full.
    let slow = Arc::new(tokio::sync::Notify::new());
    let clock = state.games.config().clock.clone();
    let mut conn = Conn {
        me,
        bucket: TokenBucket::new(state.games.config().rate_limit, clock.now_ms()),
        subscriptions: HashMap::new(),
        analysis: None,
        slow: slow.clone(),
    };
    let mut shutdown = state.shutdown_signal();
    if *shutdown.borrow() {
        return;
    }
    let mut ping = tokio::time::interval(PING_EVERY);
    ping.tick().await;
    let mut last_heard = tokio::time::Instant::now();
    let mut dropped_slow = false;
    loop {
        tokio::select! {
            incoming = stream.next() => {
                // The socket ends (`None`) on a protocol error, a message
                // over the limit, or invalid UTF-8 in a text.
                let Some(msg) = incoming else { break };
                last_heard = tokio::time::Instant::now();
                let reply = match msg.opcode() {
                    OpCode::Text => match std::str::from_utf8(msg.payload()) {
                        Ok(t) => handle_text(t, &state, &out_tx, &mut conn).await,
                        // The socket checks UTF-8 first; this is in case.
                        Err(_) => error("A text message must be UTF-8".into()),
                    },
                    OpCode::Binary => Some(ServerEvent::Error {
                        message: "Binary messages are not understood: send JSON text".into(),
                    }),
                    OpCode::Close => break,
                    // Pings are answered by the socket itself.
                    OpCode::Ping | OpCode::Pong | OpCode::Continuation => None,
                };
                if let Some(reply) = reply {
                    if !send_within(&mut sink, text(&reply), write_limit).await {
                        dropped_slow = true;
                        break;
                    }
                }
            }
            Some(out) = out_rx.recv() => {
                if !send_within(&mut sink, out, write_limit).await {
                    dropped_slow = true;
                    break;
                }
            }
            _ = slow.notified() => {
                dropped_slow = true;
                break;
            }
            signal = signals.recv() => {
                let ends = match &signal {
                    Ok(s) => s.closes(&conn.me.id, &conn.me.token_hash),
                    // Signals were missed: none can be checked, so the
                    // page reconnects and is identified afresh.
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        Some(("session_ended", "Please reconnect".to_string()))
                    }
                    Err(broadcast::error::RecvError::Closed) => None,
                };
                if let Some((kind, message)) = ends {
                    let _ = send_within(&mut sink, account_message(kind, &message), write_limit).await;
                    let _ = send_within(&mut sink, close(), write_limit).await;
                    break;
                }
            }
            _ = ping.tick() => {
                if last_heard.elapsed() > IDLE_LIMIT {
                    let _ = send_within(&mut sink, close(), write_limit).await;
                    break;
                }
                if !send_within(&mut sink, Frame::ping(bytes::Bytes::new()), write_limit).await {
                    break;
                }
            }
            _ = shutdown.changed() => {
                let _ = send_within(&mut sink, close(), write_limit).await;
                break;
            }
        }
    }
    if dropped_slow {
        Metrics::count(&state.metrics.slow_sockets_dropped);
        tracing::debug!(
            "a socket of {} was dropped: its client did not read",
            conn.me.id
        );
    }
    for (_, task) in conn.subscriptions {
        task.abort();
    }
    if let Some(analysis) = conn.analysis.take() {
        analysis.stop();
    }
    if here.leave() {
        state.lobby.player_left(&conn.me.id).await;
    }
}

fn error(message: String) -> Option<ServerEvent> {
    Some(ServerEvent::Error { message })
}

async fn handle_text(
    t: &str,
    state: &AppState,
    out: &mpsc::Sender<Message>,
    conn: &mut Conn,
) -> Option<ServerEvent> {
    if t.len() > MAX_CLIENT_MESSAGE {
        return error(format!(
            "Message too large ({} bytes; at most {MAX_CLIENT_MESSAGE})",
            t.len()
        ));
    }
    let msg: Result<ClientMessage, _> = serde_json::from_str(t);
    if !conn.bucket.take(state.games.config().clock.now_ms()) {
        let message = format!(
            "Too many messages: slow down (try again in {} ms)",
            conn.bucket.retry_after_ms()
        );
        // An action is answered as refused, so its sender knows which one.
        return Some(match msg.map(ClientMessage::action) {
            Ok(Ok((game, req, action))) => ServerEvent::Refused {
                req,
                game,
                action: action.name(),
                kind: crate::kind::Kind::RateLimited,
                message,
                reason: None,
            },
            _ => ServerEvent::Error { message },
        });
    }
    let msg = match msg {
        Ok(m) => m,
        Err(e) => return error(format!("Malformed message: {e}")),
    };
    let msg = match msg.action() {
        Ok((game, req, action)) => {
            let name = action.name();
            return Some(match act(state, &game, &conn.me, action).await {
                Ok(done) => ServerEvent::Ack {
                    req,
                    game,
                    action: name,
                    rev: done.rev,
                    ply: done.ply,
                    rematch_id: done.rematch_id,
                },
                Err(e) => refused(req, game, name, e),
            });
        }
        Err(other) => other,
    };
    match msg {
        ClientMessage::Ping => Some(ServerEvent::Pong),
        ClientMessage::Unsubscribe { topic } => {
            if let Some(task) = conn.subscriptions.remove(&topic) {
                task.abort();
            }
            Some(ServerEvent::Unsubscribed { topic })
        }
        ClientMessage::Subscribe { topic } => subscribe(topic, state, out, conn).await,
        ClientMessage::Analyse {
            id,
            variant,
            fen,
            moves,
            multipv,
        } => {
            let req = AnalyseRequest {
                id,
                variant,
                fen,
                moves,
                multipv,
            };
            let now = state.games.config().clock.now_ms();
            let previous = conn.analysis.take();
            conn.analysis = Some(state.learning.analyses.start(
                &conn.me.requester(),
                now,
                req,
                analysis_outbox(out),
                previous,
            ));
            None
        }
        ClientMessage::AnalyseStop { id } => {
            if let Some(a) = conn.analysis.as_ref().filter(|a| a.id == id) {
                a.stop();
            }
            None
        }
        _ => error("Unknown message".into()),
    }
}

/// A player's action on game `id` (an id that cannot be one names no game).
async fn act(
    state: &AppState,
    id: &str,
    me: &Me,
    action: crate::requests::OnlineAction,
) -> Result<crate::round::command::Acted, AppError> {
    let id =
        GameId::parse(id).ok_or_else(|| AppError::NotFound(format!("There is no game {id}")))?;
    let acted = state.games.act_online(&id, me, action).await?.0;
    if acted.event == Some(crate::round::live::GameEvent::Berserk) {
        // The arena's pages mark the berserker.
        state.tournaments.berserked(&id).await?;
    }
    Ok(acted)
}

fn refused(req: Option<u64>, game: String, action: &'static str, e: AppError) -> ServerEvent {
    let reason = match &e {
        AppError::IllegalMove { reason, .. } => Some(reason.to_string()),
        _ => None,
    };
    if e.status().is_server_error() {
        tracing::error!("game {game}: {action}: {e}");
    }
    ServerEvent::Refused {
        req,
        game,
        action,
        kind: e.kind(),
        message: e.to_string(),
        reason,
    }
}

async fn subscribe(
    topic: String,
    state: &AppState,
    out: &mpsc::Sender<Message>,
    conn: &mut Conn,
) -> Option<ServerEvent> {
    let Some(parsed) = Topic::parse(&topic) else {
        return error(format!(
            "Unknown topic '{}'",
            topic.chars().take(64).collect::<String>()
        ));
    };
    if !conn.subscriptions.contains_key(&topic) && conn.subscriptions.len() >= MAX_SUBSCRIPTIONS {
        return error(format!(
            "At most {MAX_SUBSCRIPTIONS} subscriptions per connection"
        ));
    }
    // Subscribe before taking the snapshot, so no change falls in between.
    // Each player follows their own challenges under the one topic name.
    let hub_topic = match parsed {
        Topic::Challenges => crate::challenges::Challenges::topic_of(&conn.me),
        _ => topic.clone(),
    };
    let hub = state.games.hub();
    let rx = hub.subscribe(&hub_topic);
    // A spectator who takes a seat stops reading the spectators' room: its
    // game's changes are watched from before the snapshot's check.
    let seat_watch = match &parsed {
        Topic::Chat(id, ChatRoom::Spectators) => Some((id.clone(), hub.subscribe(&game_topic(id)))),
        _ => None,
    };
    // Only an online game has spectators (a local game is its owner's).
    let mut online_game = false;
    let snapshot = match &parsed {
        Topic::Challenges => state
            .challenges
            .snapshot(&conn.me)
            .await
            .map(|e| (None, e, None)),
        Topic::Tournament(id) => state
            .tournaments
            .snapshot(id)
            .await
            .map(|e| (None, e, None)),
        Topic::Chat(id, room) => chat_snapshot(&topic, id, *room, state, &conn.me)
            .await
            .map(|e| (None, e, None)),
        Topic::TournamentChat(id) => tournament_chat_snapshot(&topic, id, state, &conn.me)
            .await
            .map(|e| (None, e, None)),
        Topic::Lobby => state.lobby.snapshot().await.map(|e| (None, e, None)),
        Topic::Game(id) => state.games.lock_for(id, &conn.me).await.map(|(_, lg)| {
            online_game = lg.mode() == GameMode::Online;
            let snapshot = ServerEvent::Game {
                topic: topic.clone(),
                event: GameEvent::Snapshot,
                game: Box::new(state.games.live.view(&lg)),
            };
            let seat = OnlineGames::seat(&lg, &conn.me);
            // Joined under the game's lock, as moves are published: a move
            // before is in the snapshot, one after is made for this seat.
            let member = seat.map(|c| hub.join_audience(&topic, c.name()));
            (seat, snapshot, member)
        }),
    };
    let (seat, snapshot, audience_member) = match snapshot {
        Ok(s) => s,
        Err(e) => return error(e.to_string()),
    };
    let out = out.clone();
    let slow = conn.slow.clone();
    let forward_topic = topic.clone();
    let presence = state.games.live.presence().clone();
    let id = match parsed {
        Topic::Game(id) => Some(id),
        _ => None,
    };
    let watching = online_game && seat.is_none();
    let watcher_id = conn.me.id.clone();
    let watcher = seat_watch.map(|(game, rx)| SeatWatch {
        state: state.clone(),
        me: conn.me.clone(),
        game,
        rx,
    });
    let task = tokio::spawn(async move {
        let subscribed = text(&ServerEvent::Subscribed {
            topic: forward_topic.clone(),
            seat: seat.map(|c| c.name()),
        });
        if !queue(&out, subscribed, &slow) || !queue(&out, text(&snapshot), &slow) {
            return;
        }
        // The seat's place in its audience lasts as long as this task.
        let _member = audience_member;
        // A player counts as connected to their game while this lasts.
        let _here: Option<PresenceGuard> = match (seat, &id) {
            (Some(c), Some(id)) => Some(presence.enter(id, c)),
            _ => None,
        };
        // Anyone else on a game's topic watches it: a spectator counted.
        let _watching: Option<WatchGuard> = match &id {
            Some(id) if watching => Some(presence.watch(id, &watcher_id)),
            _ => None,
        };
        match watcher {
            Some(watcher) => forward_to_spectator(rx, out, forward_topic, slow, watcher).await,
            None => forward(rx, out, forward_topic, seat.map(|c| c.name()), slow).await,
        }
    });
    if let Some(old) = conn.subscriptions.insert(topic, task) {
        old.abort();
    }
    None
}

/// A chat room's newest lines, for a subscriber who may read them.
async fn chat_snapshot(
    topic: &str,
    id: &GameId,
    room: crate::store::ChatRoom,
    state: &AppState,
    me: &Me,
) -> Result<ServerEvent, AppError> {
    let has_account = state.players.has_account(&me.id).await?;
    let (_, lg) = state.games.lock_for(id, me).await?;
    let view = state.chat.history(&lg, me, has_account, room).await?;
    Ok(ServerEvent::ChatHistory {
        topic: topic.to_string(),
        chat: Box::new(view),
    })
}

/// A tournament's room's newest lines (everyone reads them).
async fn tournament_chat_snapshot(
    topic: &str,
    id: &crate::ids::TournamentId,
    state: &AppState,
    me: &Me,
) -> Result<ServerEvent, AppError> {
    let has_account = state.players.has_account(&me.id).await?;
    let view = state.chat.tournament_history(id, me, has_account).await?;
    Ok(ServerEvent::ChatHistory {
        topic: topic.to_string(),
        chat: Box::new(view),
    })
}

/// Queues a message for the connection; false (and the connection is
/// told it is slow) when its queue is full, or false when it closed.
fn queue(out: &mpsc::Sender<Message>, msg: Message, slow: &tokio::sync::Notify) -> bool {
    match out.try_send(msg) {
        Ok(()) => true,
        Err(mpsc::error::TrySendError::Full(_)) => {
            slow.notify_one();
            false
        }
        Err(mpsc::error::TrySendError::Closed(_)) => false,
    }
}

/// What a spectators' room subscription watches: whether its player takes
/// a seat in the game.
struct SeatWatch {
    state: AppState,
    me: Me,
    game: GameId,
    rx: broadcast::Receiver<crate::hub::Published>,
}

impl SeatWatch {
    /// Whether a message on the game's topic may have seated someone: any
    /// change but a move (a join here, an update from another instance).
    fn may_seat(p: &crate::hub::Published) -> bool {
        #[derive(serde::Deserialize)]
        struct Head<'a> {
            #[serde(rename = "type", borrow)]
            kind: &'a str,
        }
        serde_json::from_slice::<Head>(p.as_bytes()).map_or(true, |h| h.kind != "move")
    }

    /// Whether the player holds a seat of the game, which goes on.
    async fn seated(&self) -> bool {
        match self.state.games.lock_for(&self.game, &self.me).await {
            Ok((_, lg)) => !lg.is_over() && OnlineGames::seat(&lg, &self.me).is_some(),
            Err(_) => false,
        }
    }
}

/// [`forward`] for a spectators' room: ends the subscription (telling the
/// page `unsubscribed`) once its player takes a seat while the game goes
/// on, checked at every change of the game on any instance.
async fn forward_to_spectator(
    mut rx: broadcast::Receiver<crate::hub::Published>,
    out: mpsc::Sender<Message>,
    topic: String,
    slow: Arc<tokio::sync::Notify>,
    mut watch: SeatWatch,
) {
    let mut watching = true;
    loop {
        let msg = tokio::select! {
            m = rx.recv() => match m {
                Ok(p) => Frame::text(p.text_for(None)),
                Err(broadcast::error::RecvError::Lagged(_)) => text(&ServerEvent::Resync {
                    topic: topic.clone(),
                }),
                Err(broadcast::error::RecvError::Closed) => break,
            },
            change = watch.rx.recv(), if watching => {
                let check = match change {
                    Ok(p) => SeatWatch::may_seat(&p),
                    Err(broadcast::error::RecvError::Lagged(_)) => true,
                    Err(broadcast::error::RecvError::Closed) => {
                        watching = false;
                        false
                    }
                };
                if !check || !watch.seated().await {
                    continue;
                }
                let _ = queue(&out, text(&ServerEvent::Unsubscribed { topic }), &slow);
                break;
            }
        };
        if !queue(&out, msg, &slow) {
            break;
        }
    }
}

/// Sends what the hub publishes on `topic` to the connection: the form of
/// a message for `audience` (a player's seat) where it has one.
async fn forward(
    mut rx: broadcast::Receiver<crate::hub::Published>,
    out: mpsc::Sender<Message>,
    topic: String,
    audience: Option<&'static str>,
    slow: Arc<tokio::sync::Notify>,
) {
    loop {
        let msg = match rx.recv().await {
            // The hub's texts are made from `String`s: always UTF-8.
            Ok(p) => Frame::text(p.text_for(audience)),
            Err(broadcast::error::RecvError::Lagged(_)) => text(&ServerEvent::Resync {
                topic: topic.clone(),
            }),
            Err(broadcast::error::RecvError::Closed) => break,
        };
        if !queue(&out, msg, &slow) {
            break;
        }
    }
}
