//! Load test of online play: starts a tensorchess server on 127.0.0.1 (or
//! uses one already running there), opens many online games at once over
//! WebSockets, two clients per game, and plays every game to its end with
//! the legal moves the server sends. Reports moves per second, the round
//! trip of a move (sent → acknowledged), the server's memory, and then
//! checks in the SQLite file that every acknowledged move is stored.
//!
//! It only ever connects to loopback, and it is bounded: a cap on games,
//! on the length of a game, and on the whole run's time.
//!
//! ```sh
//! cargo build --release
//! target/release/loadtest --games 500
//! ```

use clap::Parser;
use futures_util::{SinkExt, StreamExt};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde::de::IgnoredAny;
use serde::Deserialize;
use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tensorchess::child;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

const MAX_GAMES: usize = 5000;
const MAX_PLIES: usize = 1000;
const MAX_SECONDS: u64 = 3600;

#[derive(Parser, Debug)]
#[command(
    name = "loadtest",
    about = "Load test of tensorchess online play over WebSockets, on loopback only"
)]
struct Args {
    /// Games played at the same time (two WebSocket clients each).
    #[arg(long, default_value_t = 500)]
    games: usize,
    /// Game: tensor, chess, chessence, or mixed (the three in turn).
    #[arg(long, default_value = "tensor")]
    variant: String,
    /// Time control as BASE+INCREMENT in seconds, or "none".
    #[arg(long, default_value = "900+5")]
    clock: String,
    /// A game still on after this many plies is agreed drawn (offer, accept).
    #[arg(long, default_value_t = 200)]
    max_plies: usize,
    /// The whole run's time limit, in seconds.
    #[arg(long, default_value_t = 900)]
    timeout: u64,
    /// Use the server already listening here (a loopback address) instead of
    /// starting one; give its database with --db, and its process id with
    /// --server-pid for the memory figures.
    #[arg(long)]
    connect: Option<SocketAddr>,
    /// The server's SQLite file (default: a new temporary file).
    #[arg(long)]
    db: Option<PathBuf>,
    #[arg(long)]
    server_pid: Option<u32>,
    /// The tensorchess binary to start (default: next to this one).
    #[arg(long)]
    server_bin: Option<PathBuf>,
    /// Seed of the move choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Kill the server (SIGKILL, no warning) this many seconds into the
    /// games, then check that every move acknowledged before is stored.
    #[arg(long)]
    kill_after: Option<f64>,
    /// After the games, wait this many seconds and report the server's memory
    /// again (finished games leave its memory a minute after their end).
    #[arg(long, default_value_t = 0)]
    linger: u64,
    /// Requests in flight while setting up games.
    #[arg(long, default_value_t = 32)]
    setup_concurrency: usize,
}

type Error = Box<dyn std::error::Error + Send + Sync>;

/// The results of spawned tasks, in order, or the first error; `late` if the
/// deadline passes first.
async fn join_by<T>(
    deadline: Instant,
    tasks: Vec<tokio::task::JoinHandle<Result<T, Error>>>,
    late: &'static str,
) -> Result<Vec<T>, Error> {
    let mut out = Vec::with_capacity(tasks.len());
    for t in tasks {
        out.push(
            tokio::time::timeout_at(deadline.into(), t)
                .await
                .map_err(|_| late)???,
        );
    }
    Ok(out)
}

fn main() -> ExitCode {
    let args = Args::parse();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("loadtest: cannot start the runtime: {e}");
            return ExitCode::from(2);
        }
    };
    match runtime.block_on(run(args)) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("loadtest: {e}");
            ExitCode::from(2)
        }
    }
}

/// A directory removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> std::io::Result<TempDir> {
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let dir = std::env::temp_dir().join(format!("tc-loadtest-{}-{stamp}", std::process::id()));
        std::fs::create_dir_all(&dir)?;
        Ok(TempDir(dir))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The server under test, when this tool started it.
struct Server {
    child: Child,
    addr: SocketAddr,
    _dir: Option<TempDir>,
}

impl Server {
    fn start(bin: &Path, db: &Path) -> Result<Server, Error> {
        let mut child = Command::new(bin)
            .args(["serve", "--host", "127.0.0.1", "--port", "0", "--db"])
            .arg(db)
            .env("RUST_LOG", "warn")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", bin.display()))?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let mut lines = BufReader::new(stdout).lines();
        let addr = loop {
            let Some(line) = lines.next() else {
                return Err("the server stopped before saying where it listens".into());
            };
            let line = line?;
            if let Some(rest) = line.split("http://").nth(1) {
                let host = rest.split('/').next().unwrap_or("");
                break host.parse::<SocketAddr>()?;
            }
        };
        // Keep draining stdout so the server never blocks on it.
        std::thread::spawn(move || for _ in lines {});
        Ok(Server {
            child,
            addr,
            _dir: None,
        })
    }

    fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Stops the server the way Ctrl-C does (SIGTERM), and waits.
    fn stop(&mut self) {
        // SAFETY: kill(2) on our own child's pid has no memory effects.
        unsafe {
            libc::kill(self.child.id() as libc::pid_t, libc::SIGTERM);
        }
        child::wait_or_kill(
            &mut self.child,
            Duration::from_secs(20),
            Duration::from_millis(50),
        );
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        child::kill_if_running(&mut self.child);
    }
}

/// Resident memory of a process, in kB: (now, peak).
fn memory_kb(pid: u32) -> Option<(u64, u64)> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse::<u64>().ok())
    };
    Some((field("VmRSS:")?, field("VmHWM:")?))
}

/// CPU time a process has used (user + system), in seconds.
fn cpu_seconds(pid: u32) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name, which is in parentheses.
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    // SAFETY: sysconf has no memory effects.
    let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
    Some((utime + stime) / ticks.max(1.0))
}

/// A minimal HTTP/1.1 request (one per connection), answering the status,
/// the `Set-Cookie` values and the body.
async fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    cookie: Option<&str>,
    body: &str,
) -> Result<(u16, Vec<String>, String), Error> {
    let mut stream = TcpStream::connect(addr).await?;
    let mut req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n",
        body.len()
    );
    if let Some(c) = cookie {
        req.push_str(&format!("Cookie: {c}\r\n"));
    }
    req.push_str("\r\n");
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

fn unchunk(mut s: &str) -> String {
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
struct Created {
    id: String,
}

/// The parts of a game event a client needs (the rest is skipped).
#[derive(Deserialize)]
struct GameEvent {
    game: GameBody,
}

#[derive(Deserialize)]
struct GameBody {
    /// Updates carry only the new moves: `moves` starts at this ply.
    #[serde(default)]
    moves_from: usize,
    moves: Vec<IgnoredAny>,
    position: PositionBody,
    end: Option<EndBody>,
    online: Option<OnlineBody>,
}

#[derive(Deserialize)]
struct PositionBody {
    turn: String,
    legal: Vec<LegalBody>,
}

#[derive(Deserialize)]
struct LegalBody {
    uci: String,
    san: String,
}

#[derive(Deserialize)]
struct EndBody {
    reason: String,
}

#[derive(Deserialize)]
struct OnlineBody {
    draw_offer: Option<String>,
}

#[derive(Deserialize)]
struct Reply {
    req: Option<u64>,
    kind: Option<String>,
    message: Option<String>,
}

/// One game's setup: its id and its players' cookies (white, black).
struct Seats {
    id: String,
    white: String,
    black: String,
}

async fn setup_game(addr: SocketAddr, variant: &str, clock: &str) -> Result<Seats, Error> {
    let body = format!(r#"{{"variant":"{variant}","color":"white","clock":{clock}}}"#);
    let (status, cookies, text) = http(addr, "POST", "/api/online", None, &body).await?;
    if status != 201 {
        return Err(format!("creating a game: HTTP {status}: {text}").into());
    }
    let created: Created = serde_json::from_str(&text)?;
    let white = cookies.into_iter().next().ok_or("no seat cookie")?;
    let path = format!("/api/games/{}/join", created.id);
    let (status, cookies, text) = http(addr, "POST", &path, None, "{}").await?;
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

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

async fn open_socket(addr: SocketAddr, cookie: &str, id: &str) -> Result<Ws, Error> {
    let mut req = format!("ws://{addr}/api/ws").into_client_request()?;
    req.headers_mut().insert("Cookie", cookie.parse()?);
    let (mut ws, _) = tokio_tungstenite::connect_async(req).await?;
    let sub = format!(r#"{{"type":"subscribe","topic":"game:{id}"}}"#);
    ws.send(Message::text(sub)).await?;
    Ok(ws)
}

/// What the clients found, shared.
#[derive(Default)]
struct Tally {
    rtts_us: Vec<u64>,
    /// (game, ply, move) of every acknowledged move.
    acked: Vec<(String, usize, String)>,
    endings: HashMap<String, usize>,
    refused: HashMap<String, usize>,
    errors: Vec<String>,
}

/// Plays one side of one game until it ends (or the connection does); what
/// was acknowledged counts either way.
async fn play_side(
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
async fn play_loop(
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
fn choose<'a>(legal: &'a [LegalBody], rng: &mut SmallRng) -> Option<&'a LegalBody> {
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

fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)] as f64 / 1000.0
}

fn parse_clock(s: &str) -> Result<String, Error> {
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

/// Every acknowledged move must be in the database, at its ply.
fn verify(
    db: &Path,
    acked: &[(String, usize, String)],
    games: &[Seats],
    finished: bool,
) -> Result<(usize, Vec<String>), Error> {
    // Read-write: after a kill, opening recovers the write-ahead log.
    let conn = rusqlite::Connection::open(db)?;
    let mut stored: HashMap<(String, usize), String> = HashMap::new();
    let mut stmt = conn.prepare("SELECT game_id, ply, uci FROM moves")?;
    let rows = stmt.query_map([], |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, i64>(1)? as usize,
            r.get::<_, String>(2)?,
        ))
    })?;
    for row in rows {
        let (g, p, u) = row?;
        stored.insert((g, p), u);
    }
    let mut problems = Vec::new();
    for (g, p, u) in acked {
        match stored.get(&(g.clone(), *p)) {
            Some(s) if s == u => {}
            Some(s) => problems.push(format!("game {g} ply {p}: acknowledged {u}, stored {s}")),
            None => problems.push(format!("game {g} ply {p}: acknowledged {u}, not stored")),
        }
    }
    let mut unfinished = 0;
    let mut q = conn.prepare("SELECT result, end_reason FROM games WHERE id = ?1")?;
    for s in games.iter().filter(|_| finished) {
        let (result, reason): (String, Option<String>) =
            q.query_row([&s.id], |r| Ok((r.get(0)?, r.get(1)?)))?;
        if result == "*" && reason.is_none() {
            unfinished += 1;
        }
    }
    if unfinished > 0 {
        problems.push(format!("{unfinished} games have no stored result"));
    }
    Ok((stored.len(), problems))
}

async fn run(args: Args) -> Result<bool, Error> {
    if args.games == 0 || args.games > MAX_GAMES {
        return Err(format!("--games must be 1 to {MAX_GAMES}").into());
    }
    if args.max_plies == 0 || args.max_plies > MAX_PLIES {
        return Err(format!("--max-plies must be 1 to {MAX_PLIES}").into());
    }
    if args.timeout == 0 || args.timeout > MAX_SECONDS {
        return Err(format!("--timeout must be 1 to {MAX_SECONDS} seconds").into());
    }
    let clock = parse_clock(&args.clock)?;
    let variants: Vec<&'static str> = match args.variant.as_str() {
        "tensor" => vec!["tensor"],
        "chess" => vec!["chess"],
        "chessence" => vec!["chessence"],
        "mixed" => vec!["tensor", "chess", "chessence"],
        other => return Err(format!("unknown --variant {other}").into()),
    };
    let deadline = Instant::now() + Duration::from_secs(args.timeout);

    // The server.
    let mut server = None;
    let (addr, db, pid) = match args.connect {
        Some(addr) => {
            if !addr.ip().is_loopback() {
                return Err(format!("{addr} is not a loopback address: this tool only loads a server on this machine").into());
            }
            let db = args
                .db
                .clone()
                .ok_or("with --connect, give the server's database with --db")?;
            (addr, db, args.server_pid)
        }
        None => {
            let bin = match &args.server_bin {
                Some(b) => b.clone(),
                None => std::env::current_exe()?.with_file_name("tensorchess"),
            };
            let (dir, db) = match &args.db {
                Some(db) => (None, db.clone()),
                None => {
                    let dir = TempDir::new()?;
                    let db = dir.0.join("loadtest.sqlite3");
                    (Some(dir), db)
                }
            };
            let mut s = Server::start(&bin, &db)?;
            s._dir = dir;
            let out = (s.addr, db, Some(s.pid()));
            server = Some(s);
            out
        }
    };
    if !addr.ip().is_loopback() {
        return Err("the server is not on loopback".into());
    }
    let idle_rss = pid.and_then(memory_kb);
    println!(
        "server: http://{addr}/ (pid {}), database {}",
        pid.map_or("?".into(), |p| p.to_string()),
        db.display()
    );
    println!(
        "load: {} games at once ({} WebSocket clients), {}, clock {}, drawn by agreement at ply {}",
        args.games,
        args.games * 2,
        args.variant,
        args.clock,
        args.max_plies
    );

    // Create and join every game.
    let t_setup = Instant::now();
    let sem = Arc::new(tokio::sync::Semaphore::new(args.setup_concurrency.max(1)));
    let mut tasks = Vec::new();
    for i in 0..args.games {
        let (sem, clock) = (sem.clone(), clock.clone());
        let variant = variants[i % variants.len()];
        tasks.push(tokio::spawn(async move {
            let _permit = sem.acquire_owned().await?;
            setup_game(addr, variant, &clock).await
        }));
    }
    let seats = join_by(deadline, tasks, "timed out setting up").await?;
    let setup_s = t_setup.elapsed().as_secs_f64();

    // Two sockets per game, all subscribed before anyone moves.
    let t_connect = Instant::now();
    let mut tasks = Vec::new();
    for s in &seats {
        for (cookie, me) in [(s.white.clone(), "white"), (s.black.clone(), "black")] {
            let (id, sem) = (s.id.clone(), sem.clone());
            tasks.push(tokio::spawn(async move {
                let _permit = sem.acquire_owned().await?;
                Ok::<_, Error>((open_socket(addr, &cookie, &id).await?, id, me))
            }));
        }
    }
    let sockets = join_by(deadline, tasks, "timed out connecting").await?;
    let connect_s = t_connect.elapsed().as_secs_f64();
    println!(
        "setup: {} games created and joined in {setup_s:.1} s; {} sockets subscribed in {connect_s:.1} s",
        seats.len(),
        sockets.len()
    );

    // Play.
    let tally = Arc::new(Mutex::new(Tally::default()));
    let moves_done = Arc::new(AtomicU64::new(0));
    let t_play = Instant::now();
    let cpu_before = pid.and_then(cpu_seconds);
    let mut players = Vec::new();
    for (i, (ws, id, me)) in sockets.into_iter().enumerate() {
        let rng = SmallRng::seed_from_u64(args.seed.wrapping_mul(1_000_003).wrapping_add(i as u64));
        let (tally, moves_done) = (tally.clone(), moves_done.clone());
        let max_plies = args.max_plies;
        players.push(tokio::spawn(async move {
            let r = play_side(
                ws,
                id.clone(),
                me,
                max_plies,
                rng,
                tally.clone(),
                moves_done,
            )
            .await;
            if let Err(e) = r {
                tally
                    .lock()
                    .unwrap()
                    .errors
                    .push(format!("game {id}, {me}: {e}"));
            }
        }));
    }
    // Watch progress and the server's memory while the games run.
    let mut peak_rss = 0u64;
    let mut last_report = Instant::now();
    let mut killed = false;
    let watcher = {
        let moves_done = moves_done.clone();
        let players_left = Arc::new(AtomicU64::new(players.len() as u64));
        let handles: Vec<_> = players
            .into_iter()
            .map(|h| {
                let left = players_left.clone();
                tokio::spawn(async move {
                    let _ = h.await;
                    left.fetch_sub(1, Ordering::Relaxed);
                })
            })
            .collect();
        loop {
            if let Some((rss, _)) = pid.and_then(memory_kb) {
                peak_rss = peak_rss.max(rss);
            }
            let left = players_left.load(Ordering::Relaxed);
            if left == 0 {
                break;
            }
            if let (Some(after), Some(p), false) = (args.kill_after, pid, killed) {
                if t_play.elapsed().as_secs_f64() >= after {
                    // SAFETY: kill(2) has no memory effects.
                    unsafe {
                        libc::kill(p as libc::pid_t, libc::SIGKILL);
                    }
                    killed = true;
                    eprintln!(
                        "loadtest: killed the server (SIGKILL) after {} acknowledged moves",
                        moves_done.load(Ordering::Relaxed)
                    );
                }
            }
            if Instant::now() > deadline {
                for h in &handles {
                    h.abort();
                }
                eprintln!(
                    "loadtest: the time limit ran out with {} clients still playing",
                    left
                );
                break;
            }
            if last_report.elapsed() > Duration::from_secs(5) {
                last_report = Instant::now();
                let n = moves_done.load(Ordering::Relaxed);
                eprintln!(
                    "  {:>5.0} s: {n} moves, {left} clients playing, {:.0} moves/s",
                    t_play.elapsed().as_secs_f64(),
                    n as f64 / t_play.elapsed().as_secs_f64()
                );
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        handles
    };
    let play_s = t_play.elapsed().as_secs_f64();
    let timed_out = watcher.iter().any(|h| !h.is_finished());
    let end_rss = pid.and_then(memory_kb);
    let cpu_used = match (cpu_before, pid.and_then(cpu_seconds)) {
        (Some(a), Some(b)) => Some(b - a),
        _ => None,
    };

    let tally = std::mem::take(&mut *tally.lock().unwrap());
    let mut rtts = tally.rtts_us.clone();
    rtts.sort_unstable();
    let n = tally.acked.len();
    println!(
        "play: {n} moves acknowledged in {play_s:.1} s: {:.0} moves/s",
        n as f64 / play_s
    );
    println!(
        "round trip of a move (sent → acknowledged): p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        percentile(&rtts, 0.5),
        percentile(&rtts, 0.99),
        rtts.last().copied().unwrap_or(0) as f64 / 1000.0
    );
    if let Some(cpu) = cpu_used {
        println!(
            "server CPU: {cpu:.1} s for {n} moves ({:.0} µs a move, {:.0}% of one core over the run)",
            cpu * 1e6 / n.max(1) as f64,
            cpu * 100.0 / play_s
        );
    }
    let mut endings: Vec<_> = tally.endings.iter().collect();
    endings.sort();
    println!(
        "endings: {}",
        endings
            .iter()
            .map(|(k, v)| format!("{v} {k}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    if let (Some((idle, _)), Some((rss, hwm))) = (idle_rss, end_rss) {
        println!(
            "server memory (RSS): {} MB idle, {} MB peak while playing (VmHWM {} MB), {} MB at the end",
            idle / 1024,
            peak_rss / 1024,
            hwm / 1024,
            rss / 1024
        );
    }
    let mut refused: Vec<_> = tally.refused.iter().collect();
    refused.sort();
    println!(
        "refusals: {}",
        if refused.is_empty() {
            "none".to_string()
        } else {
            refused
                .iter()
                .map(|(k, v)| format!("{v} {k}"))
                .collect::<Vec<_>>()
                .join(", ")
        }
    );
    if killed {
        println!(
            "the server was killed: {} client connections broke off, as they must",
            tally.errors.len()
        );
    } else {
        for e in tally.errors.iter().take(10) {
            eprintln!("error: {e}");
        }
    }

    if args.linger > 0 {
        let linger = args.linger.min(MAX_SECONDS);
        eprintln!("waiting {linger} s for the finished games to leave the server's memory");
        tokio::time::sleep(Duration::from_secs(linger)).await;
        if let Some((rss, _)) = pid.and_then(memory_kb) {
            println!(
                "server memory (RSS) {linger} s after the games: {} MB",
                rss / 1024
            );
        }
    }

    // Stop the server (as Ctrl-C does), then read what it stored.
    if let Some(s) = server.as_mut() {
        s.stop();
    }
    let (stored, problems) = verify(&db, &tally.acked, &seats, !killed)?;
    if problems.is_empty() && killed {
        println!(
            "database: all {n} moves acknowledged before the kill are stored at their ply ({stored} move rows)"
        );
    } else if problems.is_empty() {
        println!(
            "database: all {n} acknowledged moves are stored at their ply ({stored} move rows); all {} games have their result",
            seats.len()
        );
    } else {
        println!("database: {} PROBLEMS", problems.len());
        for p in problems.iter().take(20) {
            println!("  {p}");
        }
    }
    Ok(problems.is_empty() && (killed || tally.errors.is_empty()) && !timed_out)
}
