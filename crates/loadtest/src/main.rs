//! Load test of online play: starts tensorchess servers on 127.0.0.1 (or
//! uses ones already running there), opens many online games at once over
//! WebSockets, two clients per game, and plays every game to its end with
//! the legal moves the server sends. Reports moves per second, the round
//! trip of a move (sent → acknowledged), each server's memory and CPU time,
//! and then checks in the database (SQLite file or PostgreSQL) that every
//! acknowledged move is stored.
//!
//! With several instances on one PostgreSQL (`--instances N`, or
//! `--connect A,B`), a game's White plays on one instance and its Black on
//! the next, so every move crosses from one instance to the other; with
//! `--kill-after S` instance 0 is SIGKILLed mid-load and its clients
//! reconnect to another, resubscribe, and play on from the snapshot.
//! `--think MIN-MAX` paces the players like blitz players.
//!
//! It only ever connects to loopback (servers and database), and it is
//! bounded: a cap on games, on the length of a game, and on the whole run's
//! time; a game that hears nothing for `--stall` seconds is given up and
//! counted as failed. The exit status is 1 if any acknowledged move is
//! missing from the database or any game failed, 2 if the run could not be
//! made.
//!
//! ```sh
//! cargo build --release -p tensorchess -p tensorchess-loadtest
//! target/release/loadtest --games 500                     # one instance, SQLite
//! url=$(bash scripts/pg-cluster.sh start $(mktemp -d))    # a throwaway PostgreSQL
//!
//! # The benchmark: 500 games over 1 instance on SQLite, 1 and 2 on PostgreSQL.
//! # (a) paced like blitz: the p99 round trip of a move.
//! target/release/loadtest --games 500 --think 500-2000
//! target/release/loadtest --games 500 --think 500-2000 --db "$url"
//! target/release/loadtest --games 500 --think 500-2000 --db "$url" --instances 2
//! # (b) flat out: moves per second and p99.
//! target/release/loadtest --games 500
//! target/release/loadtest --games 500 --db "$url"
//! target/release/loadtest --games 500 --db "$url" --instances 2
//! # One instance SIGKILLed 5 s in; its clients go to the other.
//! target/release/loadtest --games 500 --db "$url" --instances 2 --kill-after 5
//! # The same with both players of a game on one instance (no move crosses
//! # instances until the kill): a baseline, and a test of the reconnections
//! # that does not need the instances to share live updates.
//! target/release/loadtest --games 500 --db "$url" --instances 2 --together --kill-after 5
//!
//! # An arena of 1,000 players (guests) over 10 minutes: the server's
//! # director pairs them, they play and are paired again until it ends.
//! target/release/loadtest --arena 1000 --arena-lead 20 --clock 180+2 \
//!     --think 500-2000 --max-plies 60 --timeout 900 --db "$url" [--instances 2]
//!
//! # An idle crowd (`--sockets N`, issue 43): N pages on one instance, each a
//! # WebSocket subscribed as the site's pages are and pinging as they do,
//! # from 127.0.0.2 on (5,000 a source address; see `idle.rs`). Alone: the
//! # server's memory and CPU per socket, held 60 s.
//! target/release/loadtest --games 0 --sockets 18000 --hold 60
//! # With paced games on the same instance: their round trips beside it.
//! target/release/loadtest --games 500 --think 500-2000 --sockets 17000
//!
//! # Servers started by hand: their addresses and pids, in the same order.
//! target/release/loadtest --connect 127.0.0.1:8080,127.0.0.1:8081 \
//!     --server-pid 1234,1235 --db "$url"
//! bash scripts/pg-cluster.sh stop DIR
//! ```
//!
//! A PostgreSQL database keeps the games of earlier runs; the check reads
//! only this run's games, so one database can serve several runs.

mod arena;
mod args;
mod idle;
mod instances;
mod link;
mod play;
mod report;
mod setup;
mod tally;
mod verify;
mod watch;

use clap::Parser;
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use args::Args;
use instances::{Cluster, Route};
use play::{parse_clock, Common, Player};

pub(crate) const MAX_GAMES: usize = 5000;
pub(crate) const MAX_PLIES: usize = 1000;
pub(crate) const MAX_SECONDS: u64 = 3600;
pub(crate) const MAX_INSTANCES: usize = 16;
/// Idle pages of `--sockets` (each a file on both sides: the file limits
/// bind long before this).
pub(crate) const MAX_SOCKETS: usize = 200_000;
/// The server's most players in a tournament.
pub(crate) const MAX_ARENA_PLAYERS: usize = 1000;

pub(crate) use tensorchess_loadtest::{db, http, now_ms, server, Error};

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

fn variants(v: &str) -> Result<Vec<&'static str>, Error> {
    Ok(match v {
        "tensor" => vec!["tensor"],
        "chess" => vec!["chess"],
        "chessence" => vec!["chessence"],
        "mixed" => vec!["tensor", "chess", "chessence"],
        other => return Err(format!("unknown --variant {other}").into()),
    })
}

/// A player's random stream, from the run's seed and the player's number
/// (`salt` apart for each use).
fn rng(seed: u64, player: usize, salt: u64) -> SmallRng {
    SmallRng::seed_from_u64(seed.wrapping_mul(1_000_003).wrapping_add(player as u64) ^ salt)
}

async fn run(args: Args) -> Result<bool, Error> {
    let servers = args.check()?;
    let clock = parse_clock(&args.clock)?;
    let variants = variants(&args.variant)?;
    let deadline = Instant::now() + Duration::from_secs(args.timeout);

    let mut cluster = Cluster::open(&args, servers)?;
    let route = Arc::new(Route::new(cluster.addrs()));
    if let Some(players) = args.arena {
        let spec = arena::ArenaSpec {
            players,
            minutes: args.arena_minutes,
            lead_s: args.arena_lead,
            variant: variants[0],
            clock,
            seed: args.seed,
            setup_concurrency: args.setup_concurrency,
        };
        return run_arena(&args, spec, cluster, route, deadline).await;
    }
    report::header(&args, &cluster);
    // The crowd first: the games' first-move timers start when they are set up.
    let crowd = match args.sockets {
        Some(pages) => Some(idle::open_measured(&args, &cluster, pages, deadline).await?),
        None => None,
    };
    if args.games == 0 {
        let kept = idle::close(crowd).await;
        cluster.stop();
        return Ok(kept);
    }

    // Create and join every game, then open all sockets before anyone moves.
    let t_setup = Instant::now();
    let conc = args.setup_concurrency;
    let seats = setup::create_games(
        &route,
        args.games,
        args.together,
        &variants,
        &clock,
        conc,
        deadline,
    )
    .await?;
    let setup_s = t_setup.elapsed().as_secs_f64();
    let t_connect = Instant::now();
    let sockets = setup::open_sockets(&route, &seats, args.together, conc, deadline).await?;
    println!(
        "setup: {} games created and joined in {setup_s:.1} s; {} sockets subscribed in {:.1} s",
        seats.len(),
        sockets.len(),
        t_connect.elapsed().as_secs_f64()
    );

    // Play.
    let common = Common::shared(&route, &args, deadline);
    common
        .live
        .players_left
        .store(sockets.len() as u64, Ordering::Relaxed);
    cluster.start_clocks();
    let mut players = Vec::new();
    for (i, (ws, side)) in sockets.into_iter().enumerate() {
        // The move choices' stream is the one this tool always used; the
        // pace has its own, so that thinking does not change the moves.
        let p = Player::new(
            side,
            common.clone(),
            rng(args.seed, i, 0),
            rng(args.seed, i, 0x7061_6365),
        );
        players.push(tokio::spawn(p.play(ws)));
    }
    let watched = watch::watch(&mut cluster, &route, &common, players, args.kill_after).await;
    cluster.sample_end();

    let tally = std::mem::take(&mut *common.tally.lock().unwrap());
    let killed = watched.killed.is_some();
    let single_kill = killed && cluster.instances.len() == 1;
    let failed = if single_kill {
        0
    } else {
        seats.len() - tally.ended.len()
    };
    let reconnects = common.live.reconnects.load(Ordering::Relaxed);
    report::play(&tally, &watched, &cluster, reconnects, seats.len(), failed);
    report::rtt_log(args.rtt_log.as_deref(), &tally);
    let crowd_kept = idle::close(crowd).await;

    if args.linger > 0 {
        let linger = args.linger.min(MAX_SECONDS);
        eprintln!("waiting {linger} s for the finished games to leave the servers' memory");
        tokio::time::sleep(Duration::from_secs(linger)).await;
        cluster.sample_linger();
        for (k, i) in cluster.instances.iter().enumerate() {
            if let Some(rss) = i.mem.linger {
                println!(
                    "instance {k} memory (RSS) {linger} s after the games: {} MB",
                    rss / 1024
                );
            }
        }
    }

    // Stop the servers (as Ctrl-C does), then read what they stored.
    cluster.stop();
    let ids: Vec<String> = seats.iter().map(|s| s.id.clone()).collect();
    let check = verify::verify(&cluster.db, &ids, &tally.acked, &tally.ended).await?;
    let kill = killed.then_some(!single_kill);
    report::database(&check, tally.acked.len(), tally.ended.len(), kill);
    let errors_ok = single_kill || tally.errors.is_empty();
    Ok(check.problems.is_empty() && errors_ok && failed == 0 && watched.cut == 0 && crowd_kept)
}

/// `--arena N`: the arena's players, from joining to its end (see
/// [`arena`]); then the same database check as the fixed games.
async fn run_arena(
    args: &Args,
    spec: arena::ArenaSpec,
    mut cluster: Cluster,
    route: Arc<Route>,
    deadline: Instant,
) -> Result<bool, Error> {
    report::instances(&cluster);
    println!(
        "load: an arena of {} players ({} instance(s), player i on instance i % n), {} minutes, {}, clock {}, drawn by agreement at ply {}, {}",
        spec.players,
        route.len(),
        spec.minutes,
        spec.variant,
        args.clock,
        args.max_plies,
        match args.think {
            Some(t) => format!("each player thinking {t} before each move"),
            None => "flat out (no thinking time)".into(),
        }
    );
    let t_setup = Instant::now();
    let id = arena::create(route.addrs[0], &spec).await?;
    let entrants = arena::join_all(&route.addrs, &id, &spec, deadline).await?;
    let joined_s = t_setup.elapsed().as_secs_f64();
    let sockets = arena::connect_all(
        &route.addrs,
        &id,
        entrants,
        spec.setup_concurrency,
        deadline,
    )
    .await?;
    println!(
        "setup: {} players joined in {joined_s:.1} s and subscribed in {:.1} s; the arena starts {} s after its creation",
        sockets.len(),
        t_setup.elapsed().as_secs_f64() - joined_s,
        spec.lead_s
    );
    let common = Common::shared(&route, args, deadline);
    let tally = Arc::new(Mutex::new(arena::ArenaTally::default()));
    cluster.start_clocks();
    let t_play = Instant::now();
    let mut tasks = Vec::new();
    for (i, (entrant, ws)) in sockets.into_iter().enumerate() {
        tasks.push(tokio::spawn(arena::attend(
            i,
            entrant,
            ws,
            common.clone(),
            tally.clone(),
            spec.seed,
        )));
    }
    let news = tokio::spawn(arena::watch_news(route.addrs[0], id.clone(), deadline));
    let mut last_report = Instant::now();
    while tasks.iter().any(|t| !t.is_finished()) {
        cluster.sample();
        if last_report.elapsed() > Duration::from_secs(10) {
            last_report = Instant::now();
            let n = common.live.moves.load(Ordering::Relaxed);
            let playing = common.live.players_left.load(Ordering::Relaxed);
            eprintln!(
                "  {:>5.0} s: {n} moves, {playing} players in a game",
                t_play.elapsed().as_secs_f64()
            );
        }
        if Instant::now() > deadline + Duration::from_secs(5) {
            for t in &tasks {
                t.abort();
            }
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let play_s = t_play.elapsed().as_secs_f64();
    for t in tasks {
        let _ = t.await;
    }
    cluster.sample_end();
    arena::report_waves(&route.addrs).await;
    let arena = std::mem::take(&mut *tally.lock().unwrap());
    let games = std::mem::take(&mut *common.tally.lock().unwrap());
    let watched = watch::Watched {
        play_s,
        cut: 0,
        killed: None,
    };
    let failed = arena.games.len().saturating_sub(games.ended.len());
    report::play(&games, &watched, &cluster, 0, arena.games.len(), failed);
    report::rtt_log(args.rtt_log.as_deref(), &games);
    arena::report(&arena, spec.players);
    match news.await {
        Ok(Ok(news)) => arena::report_news(&news),
        Ok(Err(e)) => println!("the arena's news could not be followed: {e}"),
        Err(e) => println!("the arena's news could not be followed: {e}"),
    }
    cluster.stop();
    let ids: Vec<String> = arena.games.iter().cloned().collect();
    let check = verify::verify(&cluster.db, &ids, &games.acked, &games.ended).await?;
    report::database(&check, games.acked.len(), games.ended.len(), None);
    Ok(check.problems.is_empty()
        && games.errors.is_empty()
        && arena.errors.is_empty()
        && failed == 0
        && arena.saw_finish == spec.players)
}
