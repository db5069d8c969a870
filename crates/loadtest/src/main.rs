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

mod http;
mod play;
mod server;
mod verify;

use clap::Parser;
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use http::{open_socket, setup_game};
use play::{parse_clock, percentile, play_side, Tally};
use server::{cpu_seconds, memory_kb, Server, TempDir};
use verify::verify;

pub(crate) const MAX_GAMES: usize = 5000;
pub(crate) const MAX_PLIES: usize = 1000;
pub(crate) const MAX_SECONDS: u64 = 3600;

#[derive(Parser, Debug)]
#[command(
    name = "loadtest",
    about = "Load test of tensorchess online play over WebSockets, on loopback only"
)]
pub(crate) struct Args {
    /// Games played at the same time (two WebSocket clients each).
    #[arg(long, default_value_t = 500)]
    pub(crate) games: usize,
    /// Game: tensor, chess, chessence, or mixed (the three in turn).
    #[arg(long, default_value = "tensor")]
    pub(crate) variant: String,
    /// Time control as BASE+INCREMENT in seconds, or "none".
    #[arg(long, default_value = "900+5")]
    pub(crate) clock: String,
    /// A game still on after this many plies is agreed drawn (offer, accept).
    #[arg(long, default_value_t = 200)]
    pub(crate) max_plies: usize,
    /// The whole run's time limit, in seconds.
    #[arg(long, default_value_t = 900)]
    pub(crate) timeout: u64,
    /// Use the server already listening here (a loopback address) instead of
    /// starting one; give its database with --db, and its process id with
    /// --server-pid for the memory figures.
    #[arg(long)]
    pub(crate) connect: Option<SocketAddr>,
    /// The server's SQLite file (default: a new temporary file).
    #[arg(long)]
    pub(crate) db: Option<PathBuf>,
    #[arg(long)]
    pub(crate) server_pid: Option<u32>,
    /// The tensorchess binary to start (default: next to this one).
    #[arg(long)]
    pub(crate) server_bin: Option<PathBuf>,
    /// Seed of the move choices.
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// Kill the server (SIGKILL, no warning) this many seconds into the
    /// games, then check that every move acknowledged before is stored.
    #[arg(long)]
    pub(crate) kill_after: Option<f64>,
    /// After the games, wait this many seconds and report the server's memory
    /// again (finished games leave its memory a minute after their end).
    #[arg(long, default_value_t = 0)]
    pub(crate) linger: u64,
    /// Requests in flight while setting up games.
    #[arg(long, default_value_t = 32)]
    pub(crate) setup_concurrency: usize,
}

pub(crate) type Error = Box<dyn std::error::Error + Send + Sync>;

/// The results of spawned tasks, in order, or the first error; `late` if the
/// deadline passes first.
pub(crate) async fn join_by<T>(
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

pub(crate) fn main() -> ExitCode {
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
