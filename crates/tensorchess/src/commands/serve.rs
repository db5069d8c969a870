//! `tensorchess serve` (the default command): the web app.

use super::error::CliError;
use crate::server::client::{Proxies, ProxyNet};
use crate::server::store::Database;
use crate::server::tournaments::schedule::Schedule;
use crate::server::{self, AppState};
use clap::Args;
use std::path::PathBuf;

/// The options of `tensorchess serve`.
#[derive(Args, Debug, Clone)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Port to listen on (0 picks a free one).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Where games are kept: an SQLite file (created on first run) or a
    /// PostgreSQL URL, `postgres://user@host:port/db`, that several
    /// instances may share.
    #[arg(long, default_value = "tensorchess.sqlite3")]
    pub db: Database,
    /// A host name the server answers for (repeatable), besides the
    /// loopback names and `--host`: the name players use to reach it.
    #[arg(long = "allowed-host", value_name = "NAME")]
    pub allowed_hosts: Vec<String>,
    /// A reverse proxy whose `X-Forwarded-For` and `X-Real-IP` are
    /// believed (repeatable; an address or a network: `127.0.0.1`,
    /// `10.0.0.0/8`). The client is then the nearest hop that is not a
    /// trusted proxy; without it those headers are ignored.
    #[arg(long = "trusted-proxy", value_name = "ADDR")]
    pub trusted_proxies: Vec<ProxyNet>,
    /// Clients on this machine (loopback) are not held to per-address
    /// limits: for a load test on one machine. Never with a proxy on this
    /// machine, whose visitors would all be exempt.
    #[arg(long)]
    pub trusted_local: bool,
    /// The tournaments the server makes by itself, from a JSON file (see
    /// docs/tournaments.md); without it, an hourly Tensor Chess 3+2 arena
    /// and a daily Tensor Chess 5+3 Swiss of 7 rounds. Instances sharing a
    /// database make each occurrence once.
    #[arg(long, value_name = "FILE", conflicts_with = "no_schedule")]
    pub schedule: Option<PathBuf>,
    /// Make no scheduled tournaments.
    #[arg(long)]
    pub no_schedule: bool,
    /// How long each side of an online game with a clock has for its first
    /// move, in seconds (then the game is aborted; in a tournament, lost).
    #[arg(long, value_name = "SECONDS", default_value_t = 60,
          value_parser = clap::value_parser!(u32).range(2..=600))]
    pub first_move_seconds: u32,
    /// Threads that run the server's work (default: twice the CPUs). More
    /// threads than cores keep the server's share of the CPU where the
    /// database and other programs run on the same machine: beside a
    /// 1,000-player arena, the other games' slowest moves came back
    /// sooner with four threads than with two on two cores
    /// (BENCHMARKS.md, December 7).
    #[arg(long, value_name = "N",
          value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub workers: Option<u16>,
}

/// The server's threads when `--workers` is not given: twice the CPUs.
pub fn default_workers() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from) * 2
}

impl Default for ServeArgs {
    fn default() -> Self {
        ServeArgs {
            host: "127.0.0.1".into(),
            port: 8080,
            db: Database::Sqlite(PathBuf::from("tensorchess.sqlite3")),
            allowed_hosts: Vec::new(),
            trusted_proxies: Vec::new(),
            trusted_local: false,
            schedule: None,
            no_schedule: false,
            first_move_seconds: 60,
            workers: None,
        }
    }
}

/// Runs `tensorchess serve`.
pub fn run(args: &ServeArgs) -> Result<(), CliError> {
    let _ = tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        .try_init();
    let workers = args.workers.map_or_else(default_workers, usize::from);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(workers)
        .enable_all()
        .build()
        .map_err(|e| CliError::new(format!("cannot start the async runtime: {e}")))?;
    runtime.block_on(serve(args))
}

async fn serve(args: &ServeArgs) -> Result<(), CliError> {
    let mut allowed = server::http::limits::default_hosts(&args.host);
    allowed.extend(
        args.allowed_hosts
            .iter()
            .map(|h| server::http::limits::host_name(h)),
    );
    // A descriptor per connection: the connection cap (derived from the
    // limit, in the default configuration) is set after raising it.
    let files = server::http::listener::raise_open_files_limit();
    tracing::debug!("open files limit: {files}");
    let proxies = Proxies::new(args.trusted_proxies.iter().copied(), args.trusted_local);
    if args.trusted_local && proxies.is_trusted(std::net::IpAddr::from([127, 0, 0, 1])) {
        return Err(CliError::new(
            "--trusted-local with a proxy on this machine would exempt every visitor from the per-address limits: use one or the other",
        ));
    }
    let schedule = schedule_of(args)?;
    let scheduled = schedule.entries.len();
    let config = server::ServerConfig {
        allowed_hosts: allowed,
        proxies,
        first_move_wait_ms: i64::from(args.first_move_seconds) * 1000,
        ..server::ServerConfig::default()
    };
    let state = AppState::connect(&args.db, config)
        .await
        .map_err(|e| CliError::new(format!("cannot open the database {}: {e}", args.db)))?;
    state.tournaments.set_schedule(schedule);
    state.start();
    let addr = format!("{}:{}", args.host, args.port);
    let listener = tokio::net::TcpListener::bind(&addr)
        .await
        .map_err(|e| CliError::new(format!("cannot listen on {addr}: {e} (try another --port)")))?;
    let local = listener
        .local_addr()
        .map_err(|e| CliError::new(format!("cannot read the listening address: {e}")))?;
    let shown = if local.ip().is_unspecified() {
        format!("localhost:{}", local.port())
    } else {
        local.to_string()
    };
    println!("tensorchess is running: open http://{shown}/ in your browser");
    println!("games are kept in {}", args.db);
    if scheduled > 0 {
        println!("{scheduled} recurring tournaments are scheduled (--no-schedule for none)");
    }
    println!("press Ctrl-C to stop");
    server::serve(listener, state, shutdown_signal())
        .await
        .map_err(|e| CliError::new(format!("the server stopped: {e}")))
}

/// The schedule asked for: checked before anything starts, so that a bad
/// file stops the server with a message naming the entry at fault.
fn schedule_of(args: &ServeArgs) -> Result<Schedule, CliError> {
    if args.no_schedule {
        return Ok(Schedule::none());
    }
    match &args.schedule {
        Some(path) => Schedule::read(path)
            .map_err(|e| CliError::new(format!("the schedule {} is refused: {e}", path.display()))),
        None => Ok(Schedule::defaults()),
    }
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
    eprintln!("stopping: finishing requests in flight");
}
