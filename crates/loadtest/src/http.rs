//! The load tools' HTTP client (reqwest, on loopback), and the parts of
//! the server's answers the load test reads.
//!
//! Every request opens a connection of its own and closes it after the
//! answer (`Connection: close`, no idle connection kept in reqwest's
//! pool), as the tools' hand-written client did before: a request's time
//! includes connecting, and the server sees one connection per request,
//! as from as many strangers; reusing connections would make both look
//! better than a crowd of clients makes them.

use futures_util::SinkExt;
use serde::de::IgnoredAny;
use serde::Deserialize;
use std::net::SocketAddr;
use std::sync::{Arc, OnceLock};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

use crate::Error;

/// The one client of a run (cheap to clone: clones share it).
pub fn client() -> &'static reqwest::Client {
    static CLIENT: OnceLock<reqwest::Client> = OnceLock::new();
    CLIENT.get_or_init(|| {
        // No TLS is spoken on loopback, but reqwest's TLS is compiled in
        // (the workspace's features): it gets a configuration trusting
        // nothing, with ring's cryptography, rather than look for a
        // process-wide one.
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let tls = rustls::ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .expect("ring supports TLS 1.2 and 1.3")
            .with_root_certificates(rustls::RootCertStore::empty())
            .with_no_client_auth();
        let mut headers = reqwest::header::HeaderMap::new();
        headers.insert(
            reqwest::header::CONNECTION,
            reqwest::header::HeaderValue::from_static("close"),
        );
        reqwest::Client::builder()
            .tls_backend_preconfigured(tls)
            .http1_only()
            .no_proxy()
            .pool_max_idle_per_host(0)
            .default_headers(headers)
            .build()
            .expect("an HTTP client without TLS roots or proxies builds")
    })
}

/// What a request answered: its status, the `name=value` of each cookie
/// it set (`Set-Cookie`), and its body.
pub type Answer = (u16, Vec<String>, String);

/// An HTTP request to the server at `addr` (a connection of its own),
/// answering the status, the `Set-Cookie` values and the body.
pub async fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    cookie: Option<&str>,
    body: &str,
) -> Result<Answer, Error> {
    http_from(addr, method, path, cookie, body, None).await
}

/// [`http`] as if through a proxy that names the client `forwarded_for`
/// (the server believes it only with `--trusted-proxy 127.0.0.1`).
pub async fn http_from(
    addr: SocketAddr,
    method: &str,
    path: &str,
    cookie: Option<&str>,
    body: &str,
    forwarded_for: Option<&str>,
) -> Result<Answer, Error> {
    let cookie = cookie.map(|c| ("Cookie", c));
    let forwarded = forwarded_for.map(|f| ("X-Forwarded-For", f));
    let headers: Vec<(&str, &str)> = cookie.into_iter().chain(forwarded).collect();
    http_with(addr, method, path, &headers, body).await
}

/// A JSON request (with `headers` added) to the server at `addr`, ready to
/// send.
pub fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> Result<reqwest::RequestBuilder, Error> {
    let method = reqwest::Method::from_bytes(method.as_bytes())?;
    let mut req = client()
        .request(method, format!("http://{addr}{path}"))
        .header(reqwest::header::CONTENT_TYPE, "application/json")
        .body(body.to_string());
    for (name, value) in headers {
        req = req.header(*name, *value);
    }
    Ok(req)
}

/// [`http`] with any headers (`Authorization`, `X-Forwarded-For`…).
pub async fn http_with(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> Result<Answer, Error> {
    let answer = request(addr, method, path, headers, body)?.send().await?;
    let status = answer.status().as_u16();
    let cookies = answer
        .headers()
        .get_all(reqwest::header::SET_COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .map(|v| v.split(';').next().unwrap_or("").trim().to_string())
        .collect();
    Ok((status, cookies, answer.text().await?))
}

/// The answer to creating a game: its id (the rest is skipped).
#[derive(Deserialize)]
pub struct Created {
    /// The game's id.
    pub id: String,
}

/// The parts of a game event a client needs (the rest is skipped).
#[derive(Deserialize)]
pub struct GameEvent {
    /// `snapshot` (the whole game, on subscribing), `move`, `draw`, …
    #[serde(default)]
    pub event: String,
    /// The game as the event shows it.
    pub game: GameBody,
}

/// A game as a client reads it: its moves (counted, not read), position,
/// end and online state.
#[derive(Deserialize)]
pub struct GameBody {
    /// `tensor`, `chess` or `chessence`.
    #[serde(default)]
    pub variant: String,
    /// Updates carry only the new moves: `moves` starts at this ply.
    #[serde(default)]
    pub moves_from: usize,
    /// The moves from `moves_from` on (only their number is used).
    pub moves: Vec<IgnoredAny>,
    /// The position now.
    pub position: PositionBody,
    /// How the game ended; `None` while it goes on.
    pub end: Option<EndBody>,
    /// The online state (seats, clocks, offers); `None` for a local game.
    pub online: Option<OnlineBody>,
}

/// The position part of a game: whose turn and the moves allowed.
#[derive(Deserialize)]
pub struct PositionBody {
    /// `white` or `black`.
    pub turn: String,
    /// The side to move's legal moves.
    pub legal: Vec<LegalBody>,
}

/// One legal move.
#[derive(Deserialize)]
pub struct LegalBody {
    /// As a move string (what a client sends).
    pub uci: String,
    /// In SAN.
    pub san: String,
}

/// How a game ended.
#[derive(Deserialize)]
pub struct EndBody {
    /// `checkmate`, `resignation`, `timeout`, `aborted`, …
    pub reason: String,
}

/// What the load test reads of a game's online state.
#[derive(Deserialize)]
pub struct OnlineBody {
    /// The colour offering a draw, if one does.
    pub draw_offer: Option<String>,
}

/// The parts of a move event a client needs: the move and, for the side
/// to move only, its legal moves (their compact form is not read: the
/// player makes them from the position).
#[derive(Deserialize)]
pub struct MoveEvent {
    /// The move played.
    #[serde(rename = "move")]
    pub played: MoveBody,
    /// The colour offering a draw after it, if one does.
    pub draw_offer: Option<String>,
    /// Present for the side to move (its legal moves, not read).
    pub legal: Option<IgnoredAny>,
}

/// A move as an event carries it.
#[derive(Deserialize)]
pub struct MoveBody {
    /// Its ply (0 for White's first move).
    pub ply: usize,
    /// The position after it.
    pub fen: String,
}

/// The server's answer to a socket action (an acknowledgement or a
/// refusal).
#[derive(Deserialize)]
pub struct Reply {
    /// The action's `req` number, echoed.
    pub req: Option<u64>,
    /// A refusal's kind (`not_your_turn`, `rate_limited`, …).
    pub kind: Option<String>,
    /// A refusal's message.
    pub message: Option<String>,
}

/// One game's setup: its id and its players' cookies (white, black).
pub struct Seats {
    /// The game's id.
    pub id: String,
    /// White's cookie (`name=value`).
    pub white: String,
    /// Black's cookie (`name=value`).
    pub black: String,
}

/// Creates an online game on instance `create` (the creator plays White)
/// and takes its other seat through instance `join`, as two players on two
/// instances would.
pub async fn setup_game(
    create: SocketAddr,
    join: SocketAddr,
    variant: &str,
    clock: &str,
) -> Result<Seats, Error> {
    let body = format!(r#"{{"variant":"{variant}","color":"white","clock":{clock}}}"#);
    let (status, cookies, text) = http(create, "POST", "/api/online", None, &body).await?;
    if status != 201 {
        return Err(format!("creating a game: HTTP {status}: {text}").into());
    }
    let created: Created = serde_json::from_str(&text)?;
    let white = cookies.into_iter().next().ok_or("no seat cookie")?;
    let path = format!("/api/games/{}/join", created.id);
    let (status, cookies, text) = http(join, "POST", &path, None, "{}").await?;
    if status != 200 {
        return Err(format!("joining a game: HTTP {status}: {text}").into());
    }
    let black = cookies.into_iter().next().ok_or("no seat cookie")?;
    Ok(Seats {
        id: created.id,
        white,
        black,
    })
}

/// A client's WebSocket to the server.
pub type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

/// A WebSocket to `addr` with the player's cookie, subscribed to the game
/// (the server answers with its snapshot).
pub async fn open_socket(addr: SocketAddr, cookie: &str, id: &str) -> Result<Ws, Error> {
    let mut req = format!("ws://{addr}/api/ws").into_client_request()?;
    req.headers_mut().insert("Cookie", cookie.parse()?);
    let (mut ws, _) = tokio_tungstenite::connect_async(req).await?;
    let sub = format!(r#"{{"type":"subscribe","topic":"game:{id}"}}"#);
    ws.send(Message::text(sub)).await?;
    Ok(ws)
}
