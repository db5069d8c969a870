//! A minimal HTTP/1.1 client for loopback, and the parts of the server's
//! answers the load test reads.

use futures_util::SinkExt;
use serde::de::IgnoredAny;
use serde::Deserialize;
use std::net::SocketAddr;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

use crate::Error;

/// A minimal HTTP/1.1 request (one per connection), answering the status,
/// the `Set-Cookie` values and the body.
pub async fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    cookie: Option<&str>,
    body: &str,
) -> Result<(u16, Vec<String>, String), Error> {
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
) -> Result<(u16, Vec<String>, String), Error> {
    let cookie = cookie.map(|c| ("Cookie", c));
    let forwarded = forwarded_for.map(|f| ("X-Forwarded-For", f));
    let headers: Vec<(&str, &str)> = cookie.into_iter().chain(forwarded).collect();
    http_with(addr, method, path, &headers, body).await
}

/// The request line and headers of a JSON request (with `headers` added).
pub fn request_head(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body_len: usize,
) -> String {
    let mut req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {body_len}\r\n"
    );
    for (name, value) in headers {
        req.push_str(&format!("{name}: {value}\r\n"));
    }
    req.push_str("\r\n");
    req
}

/// [`http`] with any headers (`Authorization`, `X-Forwarded-For`…).
pub async fn http_with(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> Result<(u16, Vec<String>, String), Error> {
    let mut stream = TcpStream::connect(addr).await?;
    let mut req = request_head(addr, method, path, headers, body.len());
    req.push_str(body);
    stream.write_all(req.as_bytes()).await?;
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await?;
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, rest) = text
        .split_once("\r\n\r\n")
        .ok_or("a malformed HTTP answer")?;
    let mut lines = head.lines();
    let status: u16 = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|s| s.parse().ok())
        .ok_or("no HTTP status")?;
    let mut cookies = Vec::new();
    let mut chunked = false;
    for l in lines {
        if let Some((k, v)) = l.split_once(':') {
            let k = k.trim().to_ascii_lowercase();
            if k == "set-cookie" {
                cookies.push(v.trim().split(';').next().unwrap_or("").to_string());
            } else if k == "transfer-encoding" && v.to_ascii_lowercase().contains("chunked") {
                chunked = true;
            }
        }
    }
    let body = if chunked {
        unchunk(rest)
    } else {
        rest.to_string()
    };
    Ok((status, cookies, body))
}

pub fn unchunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        s = rest[n..].trim_start_matches("\r\n");
    }
    out
}

#[derive(Deserialize)]
pub struct Created {
    pub id: String,
}

/// The parts of a game event a client needs (the rest is skipped).
#[derive(Deserialize)]
pub struct GameEvent {
    /// `snapshot` (the whole game, on subscribing), `move`, `draw`, …
    #[serde(default)]
    pub event: String,
    pub game: GameBody,
}

#[derive(Deserialize)]
pub struct GameBody {
    /// `tensor`, `chess` or `chessence`.
    #[serde(default)]
    pub variant: String,
    /// Updates carry only the new moves: `moves` starts at this ply.
    #[serde(default)]
    pub moves_from: usize,
    pub moves: Vec<IgnoredAny>,
    pub position: PositionBody,
    pub end: Option<EndBody>,
    pub online: Option<OnlineBody>,
}

#[derive(Deserialize)]
pub struct PositionBody {
    pub turn: String,
    pub legal: Vec<LegalBody>,
}

#[derive(Deserialize)]
pub struct LegalBody {
    pub uci: String,
    pub san: String,
}

#[derive(Deserialize)]
pub struct EndBody {
    pub reason: String,
}

#[derive(Deserialize)]
pub struct OnlineBody {
    pub draw_offer: Option<String>,
}

/// The parts of a move event a client needs: the move and, for the side
/// to move only, its legal moves (their compact form is not read: the
/// player makes them from the position).
#[derive(Deserialize)]
pub struct MoveEvent {
    #[serde(rename = "move")]
    pub played: MoveBody,
    pub draw_offer: Option<String>,
    pub legal: Option<IgnoredAny>,
}

#[derive(Deserialize)]
pub struct MoveBody {
    pub ply: usize,
    pub fen: String,
}

#[derive(Deserialize)]
pub struct Reply {
    pub req: Option<u64>,
    pub kind: Option<String>,
    pub message: Option<String>,
}

/// One game's setup: its id and its players' cookies (white, black).
pub struct Seats {
    pub id: String,
    pub white: String,
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
