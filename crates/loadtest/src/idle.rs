//! `--sockets N`: a crowd of N idle pages on one instance, to measure what
//! an open page costs the server (memory and CPU per socket) and what the
//! crowd does to the paced games' round trips when both run together.
//!
//! Each page is a WebSocket to `/api/ws` (a guest: no cookie, so each is
//! its own player) subscribed as the site's pages subscribe (`api.js`'s
//! `Live`, one socket a page): every page follows `challenges` (the
//! header's bar); a home page adds `lobby` and the featured game, a game
//! page a game and its spectators' room, a tournament page the tournament
//! and its room, in turn. Like a page, it sends `{"type":"ping"}` every
//! 15 s (from a random moment, as pages open at different times), answers
//! the server's pings (the client library does), and subscribes again when
//! told `resync`. The games the crowd watches are its own, made without a
//! clock so that nothing happens in them; the tournament is an arena that
//! starts long after the run.
//!
//! One loopback source address gives about 28,000 ephemeral ports, so page
//! i binds its socket to 127.0.0.(2 + i / [`PER_SOURCE`]) before
//! connecting (Linux routes all of 127/8 to loopback). The server must
//! take many sockets from loopback: this tool starts it with
//! `--trusted-local` (for a load test only), which exempts loopback from
//! the per-address limits.

use futures_util::{SinkExt, StreamExt};
use rand::Rng;
use serde::Deserialize;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::net::TcpSocket;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

use crate::http::{http, setup_game};
use crate::instances::Cluster;
use crate::server::{cpu_seconds, memory_kb};
use crate::{rng, Error};

/// Pages per loopback source address: well inside one address's
/// ephemeral ports (32768–60999 by default).
pub(crate) const PER_SOURCE: usize = 5_000;
/// How often a page pings (`PING_EVERY` in `api.js`).
const PAGE_PING: Duration = Duration::from_secs(15);
/// Pages of each kind that watch one game (home and game pages): about
/// ten spectators a game. Every spectator's arrival is announced to all
/// of its game's subscribers (`presence`), so a crowd on one game would
/// make a message per pair of pages.
const WATCHERS_PER_GAME: usize = 5;
/// One try to connect and subscribe (a server that accepts but never
/// answers).
const CONNECT_FOR: Duration = Duration::from_secs(30);

/// What a page looks at, as the site's pages do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Page {
    /// The home page: the lobby and the featured game.
    Home,
    /// A game's page, as a spectator: the game and its spectators' room.
    Game,
    /// A tournament's page: its news and its room.
    Tournament,
}

impl Page {
    /// Page `i`'s kind: the three in turn.
    pub(crate) fn of(i: usize) -> Page {
        match i % 3 {
            0 => Page::Home,
            1 => Page::Game,
            _ => Page::Tournament,
        }
    }

    /// The topics page `i` of this kind follows, with the crowd's games
    /// and tournament (a home page's game stands for the featured one).
    pub(crate) fn topics(self, i: usize, games: &[String], tournament: &str) -> Vec<String> {
        let game = &games[(i / 3) % games.len()];
        let mut topics = vec!["challenges".to_string()];
        match self {
            Page::Home => {
                topics.push("lobby".into());
                topics.push(format!("game:{game}"));
            }
            Page::Game => {
                topics.push(format!("game:{game}"));
                topics.push(format!("chat:{game}:spectators"));
            }
            Page::Tournament => {
                topics.push(format!("tournament:{tournament}"));
                topics.push(format!("chat:{tournament}:tournament"));
            }
        }
        topics
    }
}

/// The loopback address page `i` connects from.
pub(crate) fn source_of(i: usize) -> IpAddr {
    // Host h of 127.0.0.1 on, skipping each .0 and .255 (and h 0, the
    // paced players' 127.0.0.1): far more pages than any run opens.
    let h = 1 + i / PER_SOURCE;
    IpAddr::V4(Ipv4Addr::new(127, 0, (h / 254) as u8, (h % 254) as u8 + 1))
}

/// What the crowd counts while it is open.
#[derive(Default)]
pub(crate) struct CrowdStats {
    /// Pages with every topic subscribed.
    pub(crate) ready: AtomicU64,
    pub(crate) pings: AtomicU64,
    pub(crate) messages: AtomicU64,
    pub(crate) resyncs: AtomicU64,
    /// Pages whose socket the server closed, or that broke, before the end.
    pub(crate) lost: AtomicU64,
    pub(crate) errors: Mutex<Vec<String>>,
}

/// The open crowd: its pages' tasks, told to close when the run is over.
pub(crate) struct Crowd {
    tasks: Vec<tokio::task::JoinHandle<()>>,
    stop: tokio::sync::watch::Sender<bool>,
    pub(crate) stats: Arc<CrowdStats>,
    pub(crate) pages: usize,
}

#[derive(Deserialize)]
struct Created {
    id: String,
}

#[derive(Deserialize)]
struct Head<'a> {
    #[serde(rename = "type", borrow)]
    kind: &'a str,
    #[serde(default, borrow)]
    topic: Option<&'a str>,
}

/// Raises this process's soft limit of open files to the hard one; the
/// limit now in force.
pub(crate) fn raise_files_limit() -> u64 {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit only read and write the struct given.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
            return 1024;
        }
        if limit.rlim_cur < limit.rlim_max {
            let wanted = libc::rlimit {
                rlim_cur: limit.rlim_max,
                rlim_max: limit.rlim_max,
            };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &wanted) == 0 {
                return limit.rlim_max;
            }
        }
    }
    limit.rlim_cur
}

/// The games the crowd watches (waiting for their first move, without a
/// clock) and its tournament (an arena starting in an hour).
pub(crate) async fn make_targets(
    addr: SocketAddr,
    pages: usize,
    concurrency: usize,
    deadline: Instant,
) -> Result<(Vec<String>, String), Error> {
    let n = pages.div_ceil(3 * WATCHERS_PER_GAME).max(1);
    let sem = Arc::new(tokio::sync::Semaphore::new(concurrency.max(1)));
    let mut tasks = Vec::with_capacity(n);
    for _ in 0..n {
        let sem = sem.clone();
        tasks.push(tokio::spawn(async move {
            let _permit = sem.acquire_owned().await?;
            Ok::<_, Error>(setup_game(addr, addr, "tensor", "null").await?.id)
        }));
    }
    let games = crate::join_by(deadline, tasks, "timed out making the crowd's games").await?;
    let starts_at = crate::now_ms() + 3_600_000;
    let body = format!(
        r#"{{"kind":"arena","name":"Idle crowd","variant":"tensor","clock":{{"base_seconds":180,"increment_seconds":2}},"rated":false,"starts_at":{starts_at},"minutes":10,"max_players":100}}"#
    );
    let (status, _, text) = http(addr, "POST", "/api/tournaments", None, &body).await?;
    if status != 201 {
        return Err(format!("creating the crowd's tournament: HTTP {status}: {text}").into());
    }
    Ok((games, serde_json::from_str::<Created>(&text)?.id))
}

type PageWs = tokio_tungstenite::WebSocketStream<tokio::net::TcpStream>;

/// A page's socket from its source address, subscribed to its topics.
async fn connect(server: SocketAddr, source: IpAddr, topics: &[String]) -> Result<PageWs, Error> {
    let socket = TcpSocket::new_v4()?;
    socket.bind(SocketAddr::new(source, 0))?;
    let stream = socket.connect(server).await?;
    stream.set_nodelay(true)?;
    let req = format!("ws://{server}/api/ws").into_client_request()?;
    let (mut ws, _) = tokio_tungstenite::client_async(req, stream).await?;
    for t in topics {
        let sub = format!(r#"{{"type":"subscribe","topic":"{t}"}}"#);
        ws.send(Message::text(sub)).await?;
    }
    Ok(ws)
}

impl Crowd {
    /// Opens `pages` pages on `server` watching `games` and `tournament`
    /// ([`make_targets`]), `concurrency` connecting at once, and returns
    /// once every one has all its topics subscribed.
    pub(crate) async fn open(
        server: SocketAddr,
        pages: usize,
        (games, tournament): (Vec<String>, String),
        concurrency: usize,
        seed: u64,
        deadline: Instant,
    ) -> Result<Crowd, Error> {
        let games = Arc::new(games);
        let stats = Arc::new(CrowdStats::default());
        let (stop, stopped) = tokio::sync::watch::channel(false);
        let sem = Arc::new(tokio::sync::Semaphore::new(concurrency.max(1)));
        let mut tasks = Vec::with_capacity(pages);
        for i in 0..pages {
            let topics = Page::of(i).topics(i, &games, &tournament);
            let (stats, stopped, sem) = (stats.clone(), stopped.clone(), sem.clone());
            tasks.push(tokio::spawn(async move {
                let ws = {
                    let Ok(_permit) = sem.acquire_owned().await else {
                        return;
                    };
                    let tried =
                        tokio::time::timeout(CONNECT_FOR, connect(server, source_of(i), &topics))
                            .await;
                    match tried {
                        Ok(Ok(ws)) => ws,
                        Ok(Err(e)) => return stats.fail(format!("page {i}: connecting: {e}")),
                        Err(_) => return stats.fail(format!("page {i}: no answer to connecting")),
                    }
                };
                live(i, ws, topics, stats, stopped, rng(seed, i, 0x6964_6c65)).await;
            }));
        }
        let crowd = Crowd {
            tasks,
            stop,
            stats,
            pages,
        };
        // Every page subscribed, or the first failure.
        loop {
            let s = &crowd.stats;
            if s.ready.load(Ordering::Relaxed) as usize == pages {
                return Ok(crowd);
            }
            if let Some(e) = s.errors.lock().unwrap().first() {
                return Err(format!("the idle crowd could not open: {e}").into());
            }
            if Instant::now() > deadline {
                return Err("timed out opening the idle crowd".into());
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Closes every page; the pages that were lost before.
    pub(crate) async fn close(self) -> u64 {
        let _ = self.stop.send(true);
        for t in self.tasks {
            let _ = tokio::time::timeout(Duration::from_secs(10), t).await;
        }
        self.stats.lost.load(Ordering::Relaxed)
    }
}

impl CrowdStats {
    fn fail(&self, e: String) {
        self.lost.fetch_add(1, Ordering::Relaxed);
        let mut errors = self.errors.lock().unwrap();
        if errors.len() < 100 {
            errors.push(e);
        }
    }
}

/// Page `i` until the run is over: reads and drops what it is sent,
/// pings as the page does, subscribes again after `resync`.
async fn live(
    i: usize,
    mut ws: PageWs,
    topics: Vec<String>,
    stats: Arc<CrowdStats>,
    mut stopped: tokio::sync::watch::Receiver<bool>,
    mut rng: rand::rngs::SmallRng,
) {
    let first = PAGE_PING.mul_f64(rng.random_range(0.0..1.0));
    let mut ping = tokio::time::interval_at(tokio::time::Instant::now() + first, PAGE_PING);
    let mut subscribed = 0;
    loop {
        tokio::select! {
            msg = ws.next() => {
                let text = match msg {
                    Some(Ok(Message::Text(t))) => t,
                    // Pings are answered by the library as it reads.
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    Some(Ok(Message::Close(_))) | None => {
                        return stats.fail(format!("page {i}: the server closed the socket"));
                    }
                    Some(Ok(_)) => continue,
                    Some(Err(e)) => return stats.fail(format!("page {i}: {e}")),
                };
                stats.messages.fetch_add(1, Ordering::Relaxed);
                let Ok(head) = serde_json::from_str::<Head>(&text) else { continue };
                match (head.kind, head.topic) {
                    ("subscribed", _) => {
                        subscribed += 1;
                        if subscribed == topics.len() {
                            stats.ready.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                    ("resync", Some(t)) => {
                        stats.resyncs.fetch_add(1, Ordering::Relaxed);
                        let sub = format!(r#"{{"type":"subscribe","topic":"{t}"}}"#);
                        if ws.send(Message::text(sub)).await.is_err() {
                            return stats.fail(format!("page {i}: resubscribing failed"));
                        }
                    }
                    ("error" | "banned" | "session_ended", _) => {
                        return stats.fail(format!("page {i}: {text}"));
                    }
                    _ => {}
                }
            }
            _ = ping.tick() => {
                if ws.send(Message::text(r#"{"type":"ping"}"#)).await.is_err() {
                    return stats.fail(format!("page {i}: pinging failed"));
                }
                stats.pings.fetch_add(1, Ordering::Relaxed);
            }
            _ = stopped.changed() => {
                let _ = ws.close(None).await;
                return;
            }
        }
    }
}

/// `--sockets N`: opens the crowd on instance 0 and holds it `--hold`
/// seconds, reporting the server's memory before and after (per socket)
/// and its CPU while the crowd connects and while it idles.
pub(crate) async fn open_measured(
    args: &crate::args::Args,
    cluster: &Cluster,
    pages: usize,
    deadline: Instant,
) -> Result<Crowd, Error> {
    let limit = raise_files_limit() as usize;
    let needed = pages + 2 * args.games + args.setup_concurrency + 64;
    if limit < needed {
        return Err(format!(
            "{pages} idle pages and {} players need about {needed} open files; this process may open {limit} (ulimit -n)",
            2 * args.games
        )
        .into());
    }
    let (addr, pid) = (cluster.instances[0].addr, cluster.instances[0].pid);
    let targets = make_targets(addr, pages, args.setup_concurrency, deadline).await?;
    let rss = || pid.and_then(memory_kb).map(|m| m.0);
    let cpu = || pid.and_then(cpu_seconds);
    let (rss0, cpu0, t0) = (rss(), cpu(), Instant::now());
    let crowd = Crowd::open(
        addr,
        pages,
        targets,
        args.setup_concurrency,
        args.seed,
        deadline,
    )
    .await?;
    let (cpu1, open_s) = (cpu(), t0.elapsed().as_secs_f64());
    println!(
        "idle crowd: {pages} pages subscribed in {open_s:.1} s from {} source address(es) (127.0.0.2 on)",
        pages.div_ceil(PER_SOURCE)
    );
    if let (Some(a), Some(b)) = (cpu0, cpu1) {
        println!(
            "  server CPU to connect and subscribe them: {:.1} s ({:.0} µs a page)",
            b - a,
            (b - a) * 1e6 / pages as f64
        );
    }
    tokio::time::sleep(Duration::from_secs(args.hold)).await;
    let (cpu2, rss2) = (cpu(), rss());
    if let (Some(a), Some(b)) = (cpu1, cpu2) {
        println!(
            "  server CPU while they idle for {} s: {:.2} s ({:.1}% of one core; {} pings sent by the pages in all)",
            args.hold,
            b - a,
            (b - a) * 100.0 / args.hold.max(1) as f64,
            crowd.stats.pings.load(Ordering::Relaxed)
        );
    }
    if let (Some(r0), Some(r2)) = (rss0, rss2) {
        println!(
            "  server memory (RSS): {} MB before, {} MB with the crowd: {:.1} KiB ({:.0} bytes) a socket",
            r0 / 1024,
            r2 / 1024,
            r2.saturating_sub(r0) as f64 / pages as f64,
            r2.saturating_sub(r0) as f64 * 1024.0 / pages as f64
        );
    }
    if let Some((connections, sockets, topics)) = health(addr).await {
        println!("  the server counts {sockets} sockets, {connections} HTTP connections, {topics} topics");
    }
    Ok(crowd)
}

/// Closes the crowd, if any, and says whether every page stayed connected
/// to the end (a page the server dropped is a failure of the run).
pub(crate) async fn close(crowd: Option<Crowd>) -> bool {
    let Some(crowd) = crowd else { return true };
    let (pages, stats) = (crowd.pages, crowd.stats.clone());
    let lost = crowd.close().await;
    println!(
        "idle crowd: {} of {pages} pages connected to the end; {} messages received, {} resyncs",
        pages as u64 - lost,
        stats.messages.load(Ordering::Relaxed),
        stats.resyncs.load(Ordering::Relaxed)
    );
    for e in stats.errors.lock().unwrap().iter().take(5) {
        println!("  {e}");
    }
    lost == 0
}

/// The server's socket counters (`GET /api/health`): connections, sockets,
/// topics.
pub(crate) async fn health(addr: SocketAddr) -> Option<(u64, u64, u64)> {
    let (status, _, text) = http(addr, "GET", "/api/health", None, "").await.ok()?;
    if status != 200 {
        return None;
    }
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    let n = |k: &str| v.get(k).and_then(serde_json::Value::as_u64);
    Some((n("connections")?, n("sockets")?, n("topics")?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_follow_what_the_site_s_pages_follow() {
        let games = vec!["g0".to_string(), "g1".to_string()];
        assert_eq!(
            Page::of(0).topics(0, &games, "t"),
            ["challenges", "lobby", "game:g0"]
        );
        assert_eq!(
            Page::of(3).topics(3, &games, "t"),
            ["challenges", "lobby", "game:g1"]
        );
        assert_eq!(
            Page::of(1).topics(1, &games, "t"),
            ["challenges", "game:g0", "chat:g0:spectators"]
        );
        assert_eq!(
            Page::of(2).topics(2, &games, "t"),
            ["challenges", "tournament:t", "chat:t:tournament"]
        );
        // The watchers spread over the crowd's games.
        assert_eq!(
            Page::of(4).topics(4, &games, "t"),
            ["challenges", "game:g1", "chat:g1:spectators"]
        );
        let kinds: Vec<Page> = (0..6).map(Page::of).collect();
        assert_eq!(kinds.iter().filter(|p| **p == Page::Home).count(), 2);
        assert_eq!(kinds.iter().filter(|p| **p == Page::Tournament).count(), 2);
    }

    #[test]
    fn pages_share_a_source_address_up_to_its_share_of_ports() {
        let first: IpAddr = "127.0.0.2".parse().unwrap();
        assert_eq!(source_of(0), first);
        assert_eq!(source_of(PER_SOURCE - 1), first);
        assert_eq!(
            source_of(PER_SOURCE),
            "127.0.0.3".parse::<IpAddr>().unwrap()
        );
        assert_eq!(
            source_of(18_000),
            "127.0.0.5".parse::<IpAddr>().unwrap(),
            "18,000 pages over four addresses"
        );
        // After 127.0.0.254 the next octet counts up; never .0 or .255.
        assert_eq!(
            source_of(252 * PER_SOURCE),
            "127.0.0.254".parse::<IpAddr>().unwrap()
        );
        assert_eq!(
            source_of(253 * PER_SOURCE),
            "127.0.1.1".parse::<IpAddr>().unwrap()
        );
        for i in (0..2_000_000).step_by(PER_SOURCE) {
            let IpAddr::V4(v4) = source_of(i) else {
                panic!()
            };
            assert!(
                v4.is_loopback() && !matches!(v4.octets()[3], 0 | 255),
                "{v4}"
            );
            assert_ne!(
                v4,
                Ipv4Addr::new(127, 0, 0, 1),
                "the paced players' address"
            );
        }
    }
}
