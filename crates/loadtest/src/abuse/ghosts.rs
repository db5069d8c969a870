//! Ghosts in an arena: guests join a casual arena, each from an address of
//! its own, and never come (no page, no move). The tool counts the games
//! the arena made while it ran, the number a director pairing absent
//! players drives up (issue 38: 80 ghosts made 40 no-show games a minute).
//! With `--with-sockets` each ghost keeps a WebSocket open (connected, so
//! paired) and still never moves: the first-move rule's pause is what
//! bounds them then.

use super::stranger;
use futures_util::StreamExt;
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tensorchess_loadtest::http::http_from;
use tensorchess_loadtest::{now_ms, Error};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

/// The options of `abuse ghost-arena`.
#[derive(clap::Args, Debug)]
pub struct GhostArgs {
    /// Guests who join the arena and never come.
    #[arg(long, default_value_t = 80)]
    ghosts: usize,
    /// Minutes watched from the arena's start (the server's clock is the
    /// wall clock; a no-show game lasts the first-move minute).
    #[arg(long, default_value_t = 3)]
    minutes: u64,
    /// Seconds from the arena's creation to its start (everyone joins
    /// before).
    #[arg(long, default_value_t = 10)]
    lead_seconds: u64,
    /// Each ghost keeps a WebSocket open (connected to the site), and
    /// still never moves.
    #[arg(long)]
    with_sockets: bool,
}

/// The number of games in a tournament's PGN.
async fn games_of(addr: SocketAddr, id: &str) -> Result<usize, Error> {
    let path = format!("/api/tournaments/{id}/games");
    let (status, _, text) = http_from(addr, "GET", &path, None, "", None).await?;
    if status != 200 {
        return Err(format!("the arena's games: HTTP {status}: {text}").into());
    }
    Ok(text.matches("[Event ").count())
}

/// A ghost's open socket: connected, reading only what keeps it open.
async fn haunt(addr: SocketAddr, cookie: String, from: String) -> Result<(), Error> {
    let mut req = format!("ws://{addr}/api/ws").into_client_request()?;
    req.headers_mut().insert("Cookie", cookie.parse()?);
    req.headers_mut().insert("X-Forwarded-For", from.parse()?);
    let (mut ws, _) = tokio_tungstenite::connect_async(req).await?;
    while let Some(msg) = ws.next().await {
        msg?;
    }
    Ok(())
}

/// `abuse ghost-arena`: guests join an arena and never come; prints the
/// arena's games minute by minute.
pub async fn run(addr: SocketAddr, args: GhostArgs) -> Result<(), Error> {
    let minutes = args.minutes.max(1);
    // The arena outlasts the watch; 10 minutes at least.
    let length = (minutes + 1).clamp(10, 180);
    let starts_at = now_ms() + args.lead_seconds as i64 * 1_000;
    let body = format!(
        r#"{{"kind":"arena","name":"Ghost arena","variant":"tensor","clock":{{"base_seconds":180,"increment_seconds":2}},"rated":false,"starts_at":{starts_at},"minutes":{length},"max_players":{}}}"#,
        (args.ghosts + 1).clamp(2, 1000)
    );
    // The arena's maker: an address none of the ghosts has.
    let creator = stranger(0xFF_FFFE);
    let (status, _, text) = http_from(
        addr,
        "POST",
        "/api/tournaments",
        None,
        &body,
        Some(&creator),
    )
    .await?;
    if status != 201 {
        return Err(format!("making the arena: HTTP {status}: {text}").into());
    }
    let id = serde_json::from_str::<serde_json::Value>(&text)?["id"]
        .as_str()
        .ok_or("no arena id")?
        .to_string();
    let join = format!("/api/tournaments/{id}/join");
    let mut sockets = Vec::new();
    for i in 0..args.ghosts {
        let from = stranger(i);
        let (status, cookies, text) =
            http_from(addr, "POST", &join, None, "{}", Some(&from)).await?;
        if status != 200 {
            return Err(format!("ghost {i} joining: HTTP {status}: {text}").into());
        }
        if args.with_sockets {
            let cookie = cookies.into_iter().next().ok_or("no guest cookie")?;
            sockets.push(tokio::spawn(haunt(addr, cookie, from)));
        }
    }
    let start = Instant::now() + Duration::from_millis((starts_at - now_ms()).max(0) as u64);
    tokio::time::sleep_until(start.into()).await;
    println!(
        "{} ghosts{} joined arena {id}; it started; watching {minutes} min",
        args.ghosts,
        if args.with_sockets {
            " (each with a socket open)"
        } else {
            ""
        }
    );
    let mut last = 0;
    for minute in 1..=minutes {
        tokio::time::sleep_until((start + Duration::from_secs(60 * minute)).into()).await;
        let games = games_of(addr, &id).await?;
        println!(
            "minute {minute}: {games} games in all ({} this minute)",
            games - last
        );
        last = games;
    }
    for s in sockets {
        s.abort();
    }
    println!(
        "{} ghosts, {minutes} min of the arena: {last} games ({:.1} a minute)",
        args.ghosts,
        last as f64 / minutes as f64
    );
    Ok(())
}
