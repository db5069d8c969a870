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
//! hold it: a write the client does not take within the configured write
//! timeout closes the connection (`slow_sockets_dropped` in the health
//! counters), and meanwhile each topic keeps at most its hub's capacity of
//! messages for it (beyond that the page is told `resync`).
//!
//! One task serves a connection: it reads the client, writes what its
//! subscriptions hear (`http/subscriptions.rs`) and pings; nothing is queued for
//! a socket but in the topics themselves, and a socket's buffers are
//! small (see [`socket_options`]), since most pages sit idle.
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

use super::subscriptions::{may_seat, Heard, Held, Subscription, Subscriptions};
use crate::error::AppError;
use crate::identity::Me;
use crate::ids::GameId;
use crate::learning::analysis::{AnalyseRequest, RunningAnalysis};
use crate::metrics::{Gauge, Metrics};
use crate::ratelimit::TokenBucket;
use crate::requests::ClientMessage;
use crate::round::live::GameEvent;
use crate::round::online::OnlineGames;
use crate::store::{ChatRoom, GameMode};
use crate::topic::{HubTopic, Topic};
use crate::views::{ActionName, ServerEvent};
use crate::AppState;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use futures_util::{SinkExt, StreamExt};
use std::time::Duration;
use tokio::sync::{broadcast, mpsc};
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
/// The read buffer a socket keeps between messages: a client message
/// (a move, a subscription, a ping) fits, so it is read in one call; a
/// larger one grows the buffer for that message, and yawc gives the
/// growth back after it. An idle page holds no more than this.
const READ_BUFFER: usize = 512;
/// Topics one connection may follow.
const MAX_SUBSCRIPTIONS: usize = 32;
/// Events of a connection's analysis waiting to be written: the analysis
/// slows down for a slow reader rather than dropping it.
const ANALYSIS_QUEUE: usize = 4;
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

/// The sockets' settings: small buffers (tens of thousands of pages sit
/// idle most of the time: a buffer held between messages is held by each
/// of them), the read limits, and compression for clients that offer it.
///
/// The write buffer starts empty and, with no backpressure boundary,
/// yawc replaces it by an empty one once a message is written out: it
/// holds memory only while a message is being written. (tokio-util's
/// framing reserves read room before each read, so the read buffer is
/// never empty while the socket waits: `READ_BUFFER` instead.)
pub fn socket_options() -> Options {
    Options::default()
        .with_limits(MAX_READ_MESSAGE, MAX_READ_MESSAGE)
        .with_read_buffer_capacity(READ_BUFFER)
        .with_write_buffer_capacity(0)
        .with_backpressure_boundary(0)
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

/// What one connection keeps.
struct Conn {
    me: Me,
    bucket: TokenBucket,
    subscriptions: Subscriptions,
    /// The connection's live analysis (one at a time: a new one replaces it).
    analysis: Option<RunningAnalysis>,
    /// Where analyses send their events, made by the first one.
    analysis_out: Option<mpsc::Sender<ServerEvent>>,
    analysis_in: Option<mpsc::Receiver<ServerEvent>>,
}

/// The next event of the connection's analyses (never, before the first).
async fn analysis_event(rx: &mut Option<mpsc::Receiver<ServerEvent>>) -> Option<ServerEvent> {
    match rx {
        Some(rx) => rx.recv().await,
        None => std::future::pending().await,
    }
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
        let banned = ServerEvent::Banned {
            message: format!("You are banned from this server: {reason}"),
        };
        let _ = send_within(&mut sink, text(&banned), write_limit).await;
        let _ = send_within(&mut sink, close(), write_limit).await;
        return;
    }
    // The player counts as here while this connection lasts.
    let here = state.games.live.presence().player_here(&me.id);
    let mut signals = state.players.signals();
    let clock = state.games.config().clock.clone();
    let mut conn = Conn {
        me,
        bucket: TokenBucket::new(state.games.config().rate_limit, clock.now_ms()),
        subscriptions: Subscriptions::default(),
        analysis: None,
        analysis_out: None,
        analysis_in: None,
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
        // What to write, if anything, once the branch below is done.
        let replies: Vec<Message> = tokio::select! {
            incoming = stream.next() => {
                // The socket ends (`None`) on a protocol error, a message
                // over the limit, or invalid UTF-8 in a text.
                let Some(msg) = incoming else { break };
                last_heard = tokio::time::Instant::now();
                let replies = match msg.opcode() {
                    // Boxed: the handling of a message (snapshots, moves)
                    // is far larger than the waiting, and lives only while
                    // a message is handled.
                    OpCode::Text => match std::str::from_utf8(msg.payload()) {
                        Ok(t) => Box::pin(handle_text(t, &state, &mut conn)).await,
                        // The socket checks UTF-8 first; this is in case.
                        Err(_) => vec![error_event("A text message must be UTF-8".into())],
                    },
                    OpCode::Binary => vec![error_event(
                        "Binary messages are not understood: send JSON text".into(),
                    )],
                    OpCode::Close => break,
                    // Pings are answered by the socket itself.
                    OpCode::Ping | OpCode::Pong | OpCode::Continuation => Vec::new(),
                };
                replies.iter().map(text).collect()
            }
            (topic, audience, heard) = conn.subscriptions.next() => match heard {
                // The hub's texts are made from `String`s: always UTF-8.
                Heard::Message(Ok(p)) => vec![Frame::text(p.text_for(audience))],
                Heard::Message(Err(broadcast::error::RecvError::Lagged(_))) => {
                    vec![text(&ServerEvent::Resync { topic })]
                }
                Heard::Message(Err(broadcast::error::RecvError::Closed)) => Vec::new(),
                Heard::GameChanged(game, change) => {
                    let check = match change {
                        Ok(p) => may_seat(&p),
                        Err(_) => true,
                    };
                    // A spectator who takes a seat stops reading the
                    // spectators' room.
                    if check && Box::pin(seated(&state, &conn.me, &game)).await {
                        conn.subscriptions.remove(&topic);
                        vec![text(&ServerEvent::Unsubscribed { topic })]
                    } else {
                        Vec::new()
                    }
                }
            },
            Some(event) = analysis_event(&mut conn.analysis_in) => vec![text(&event)],
            signal = signals.recv() => {
                let ends = match &signal {
                    Ok(s) => s.closes(&conn.me.id, &conn.me.token_hash),
                    // Signals were missed: none can be checked, so the
                    // page reconnects and is identified afresh.
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        Some(ServerEvent::SessionEnded { message: "Please reconnect".to_string() })
                    }
                    Err(broadcast::error::RecvError::Closed) => None,
                };
                if let Some(event) = ends {
                    let _ = send_within(&mut sink, text(&event), write_limit).await;
                    let _ = send_within(&mut sink, close(), write_limit).await;
                    break;
                }
                Vec::new()
            }
            _ = ping.tick() => {
                if last_heard.elapsed() > IDLE_LIMIT {
                    let _ = send_within(&mut sink, close(), write_limit).await;
                    break;
                }
                if !send_within(&mut sink, Frame::ping(bytes::Bytes::new()), write_limit).await {
                    break;
                }
                Vec::new()
            }
            _ = shutdown.changed() => {
                let _ = send_within(&mut sink, close(), write_limit).await;
                break;
            }
        };
        for reply in replies {
            if !send_within(&mut sink, reply, write_limit).await {
                dropped_slow = true;
                break;
            }
        }
        if dropped_slow {
            break;
        }
    }
    if dropped_slow {
        Metrics::count(&state.metrics.slow_sockets_dropped);
        tracing::debug!(
            "a socket of {} was dropped: its client did not read",
            conn.me.id
        );
    }
    // Subscriptions go first: a seat's presence, a watcher's count.
    drop(conn.subscriptions);
    if let Some(analysis) = conn.analysis.take() {
        analysis.stop();
    }
    if here.leave() {
        state.lobby.player_left(&conn.me.id).await;
    }
}

fn error_event(message: String) -> ServerEvent {
    ServerEvent::Error { message }
}

fn error(message: String) -> Vec<ServerEvent> {
    vec![ServerEvent::Error { message }]
}

/// What to answer a client's text message (a subscription: `subscribed`
/// and the snapshot).
async fn handle_text(t: &str, state: &AppState, conn: &mut Conn) -> Vec<ServerEvent> {
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
        return vec![match msg.map(ClientMessage::action) {
            Ok(Ok((game, req, action))) => ServerEvent::Refused {
                req,
                game,
                action: action.name(),
                kind: crate::kind::Kind::RateLimited,
                message,
                reason: None,
            },
            _ => ServerEvent::Error { message },
        }];
    }
    let msg = match msg {
        Ok(m) => m,
        Err(e) => return error(format!("Malformed message: {e}")),
    };
    let msg = match msg.action() {
        Ok((game, req, action)) => {
            let name = action.name();
            return vec![match act(state, &game, &conn.me, action).await {
                Ok(done) => ServerEvent::Ack {
                    req,
                    game,
                    action: name,
                    rev: done.rev,
                    ply: done.ply,
                    rematch_id: done.rematch_id,
                },
                Err(e) => refused(req, game, name, e),
            }];
        }
        Err(other) => other,
    };
    match msg {
        ClientMessage::Ping => vec![ServerEvent::Pong],
        ClientMessage::Unsubscribe { topic } => {
            conn.subscriptions.remove(&topic);
            vec![ServerEvent::Unsubscribed { topic }]
        }
        ClientMessage::Subscribe { topic } => subscribe(topic, state, conn).await,
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
            let out = conn.analysis_out.get_or_insert_with(|| {
                let (tx, rx) = mpsc::channel(ANALYSIS_QUEUE);
                conn.analysis_in = Some(rx);
                tx
            });
            conn.analysis = Some(state.learning.analyses.start(
                &conn.me.requester(),
                now,
                req,
                out.clone(),
                previous,
            ));
            Vec::new()
        }
        ClientMessage::AnalyseStop { id } => {
            if let Some(a) = conn.analysis.as_ref().filter(|a| a.id == id) {
                a.stop();
            }
            Vec::new()
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

fn refused(req: Option<u64>, game: String, action: ActionName, e: AppError) -> ServerEvent {
    let reason = match &e {
        AppError::IllegalMove { reason, .. } => Some(reason.to_string()),
        _ => None,
    };
    if e.status().is_server_error() {
        tracing::error!("game {game}: {action:?}: {e}");
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

async fn subscribe(topic: String, state: &AppState, conn: &mut Conn) -> Vec<ServerEvent> {
    let Some(parsed) = Topic::parse(&topic) else {
        return error(format!(
            "Unknown topic '{}'",
            topic.chars().take(64).collect::<String>()
        ));
    };
    if !conn.subscriptions.contains(&topic) && conn.subscriptions.len() >= MAX_SUBSCRIPTIONS {
        return error(format!(
            "At most {MAX_SUBSCRIPTIONS} subscriptions per connection"
        ));
    }
    // Subscribe before taking the snapshot, so no change falls in between.
    // Each player follows their own challenges under the one topic name.
    let hub_topic = parsed.in_hub(&conn.me.id);
    let hub = state.games.hub();
    let rx = hub.subscribe(&hub_topic);
    // A spectator who takes a seat stops reading the spectators' room: its
    // game's changes are watched from before the snapshot's check.
    let seat_watch = match &parsed {
        Topic::Chat(id, ChatRoom::Spectators) => {
            Some((id.clone(), hub.subscribe(&HubTopic::Game(id.clone()))))
        }
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
            let member = seat.map(|c| hub.join_audience(&hub_topic, c));
            (seat, snapshot, member)
        }),
    };
    let (seat, snapshot, audience_member) = match snapshot {
        Ok(s) => s,
        Err(e) => return error(e.to_string()),
    };
    let id = match parsed {
        Topic::Game(id) => Some(id),
        _ => None,
    };
    let presence = state.games.live.presence();
    let held = Held {
        // The seat's place in its audience lasts as long as the subscription.
        member: audience_member,
        // A player counts as connected to their game while it lasts.
        here: match (seat, &id) {
            (Some(c), Some(id)) => Some(presence.enter(id, c)),
            _ => None,
        },
        // Anyone else on an online game's topic watches it: a spectator counted.
        watching: match &id {
            Some(id) if online_game && seat.is_none() => Some(presence.watch(id, &conn.me.id)),
            _ => None,
        },
    };
    let replies = vec![
        ServerEvent::Subscribed {
            topic: topic.clone(),
            seat,
        },
        snapshot,
    ];
    // Read from the next turn of the connection's loop on, after these
    // two are written: what was published since the subscription waits in
    // the receiver.
    conn.subscriptions
        .insert(Subscription::new(topic, rx, seat, seat_watch, held));
    replies
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

/// Whether `me` holds a seat of game `id`, which goes on.
async fn seated(state: &AppState, me: &Me, id: &GameId) -> bool {
    match state.games.lock_for(id, me).await {
        Ok((_, lg)) => !lg.is_over() && OnlineGames::seat(&lg, me).is_some(),
        Err(_) => false,
    }
}
