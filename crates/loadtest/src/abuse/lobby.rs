//! Lobby pages count what they are sent while strangers post seeks and
//! then cancel them: bytes per page per change of the lobby.

use super::stranger;
use futures_util::{SinkExt, StreamExt};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tensorchess_loadtest::http::http_from;
use tensorchess_loadtest::Error;
use tokio_tungstenite::tungstenite::Message;

/// The options of `abuse lobby`.
#[derive(clap::Args, Debug)]
pub struct LobbyArgs {
    /// Lobby pages watching.
    #[arg(long, default_value_t = 20)]
    pages: usize,
    /// Seeks posted (each by a stranger of its own), then cancelled.
    #[arg(long, default_value_t = 200)]
    seeks: usize,
}

/// What one page was sent after the lobby's first list.
#[derive(Default)]
struct Heard {
    bytes: AtomicU64,
    messages: AtomicU64,
}

async fn page(
    addr: SocketAddr,
    heard: Arc<Heard>,
    ready: tokio::sync::oneshot::Sender<()>,
) -> Result<(), Error> {
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/api/ws")).await?;
    ws.send(Message::text(r#"{"type":"subscribe","topic":"lobby"}"#))
        .await?;
    let mut ready = Some(ready);
    while let Some(msg) = ws.next().await {
        let Message::Text(t) = msg? else {
            continue;
        };
        let v: serde_json::Value = serde_json::from_str(t.as_str()).unwrap_or_default();
        if ready.is_some() {
            // The first list, on subscribing: not a change.
            if v["type"] == "lobby" {
                if let Some(r) = ready.take() {
                    let _ = r.send(());
                }
            }
            continue;
        }
        if matches!(
            v["type"].as_str(),
            Some("lobby" | "seek_added" | "seek_removed")
        ) {
            heard.bytes.fetch_add(t.len() as u64, Ordering::Relaxed);
            heard.messages.fetch_add(1, Ordering::Relaxed);
        }
    }
    Ok(())
}

/// `abuse lobby`: lobby pages count the bytes they are sent while
/// strangers post and cancel seeks.
pub async fn run(addr: SocketAddr, args: LobbyArgs) -> Result<(), Error> {
    let mut heard = Vec::new();
    let mut pages = Vec::new();
    for _ in 0..args.pages {
        let h = Arc::new(Heard::default());
        let (tx, rx) = tokio::sync::oneshot::channel();
        pages.push(tokio::spawn(page(addr, h.clone(), tx)));
        rx.await.map_err(|_| "a lobby page did not get the list")?;
        heard.push(h);
    }
    // Each stranger posts one seek; then each cancels it.
    let mut posted = Vec::new();
    let body = r#"{"variant":"tensor","clock":{"base_seconds":180,"increment_seconds":2}}"#;
    for i in 0..args.seeks {
        let from = stranger(i);
        let (status, cookies, text) =
            http_from(addr, "POST", "/api/seeks", None, body, Some(&from)).await?;
        if status != 201 {
            return Err(format!("seek {i}: HTTP {status}: {text}").into());
        }
        let id = serde_json::from_str::<serde_json::Value>(&text)?["id"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        posted.push((from, cookies.into_iter().next().unwrap_or_default(), id));
    }
    for (from, cookie, id) in &posted {
        let path = format!("/api/seeks/{id}");
        let (status, _, text) =
            http_from(addr, "DELETE", &path, Some(cookie), "", Some(from)).await?;
        // A seek may have lapsed meanwhile (its creator has no page open).
        if status != 204 && status != 404 {
            return Err(format!("cancelling {id}: HTTP {status}: {text}").into());
        }
    }
    let changes = 2 * args.seeks as u64;
    // Wait until every page has heard every change (or 30 s).
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(30)
        && heard
            .iter()
            .any(|h| h.messages.load(Ordering::Relaxed) < changes)
    {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    for p in pages {
        p.abort();
    }
    let total: u64 = heard.iter().map(|h| h.bytes.load(Ordering::Relaxed)).sum();
    let messages: u64 = heard
        .iter()
        .map(|h| h.messages.load(Ordering::Relaxed))
        .sum();
    let per_page_change = total as f64 / (args.pages as f64 * changes as f64);
    println!(
        "{} pages, {} seeks posted and cancelled ({changes} changes): {messages} messages, \
         {total} bytes in all, {per_page_change:.0} bytes per page per change",
        args.pages, args.seeks
    );
    Ok(())
}
