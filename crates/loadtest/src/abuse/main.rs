//! The strangers of the hardening benchmarks (`BENCHMARKS.md`), on
//! loopback against a server this tool starts (behind a "proxy" on
//! 127.0.0.1: `--trusted-proxy 127.0.0.1`, each stranger naming its own
//! address in `X-Forwarded-For`), or against one given with `--connect`.
//!
//! - `abuse engine`: throwaway guests run engine games at full strength
//!   as fast as the engine answers, while one honest player at level 1
//!   times the engine's replies to their moves.
//! - `abuse lobby`: lobby pages count the bytes they are sent while
//!   strangers post and cancel seeks.
//! - `abuse tokens`: one account's tokens all at once from one address.
//! - `abuse streams`: one account holds event streams open until refused.
//! - `abuse ghost-arena`: guests join an arena and never come; the arena's
//!   games are counted minute by minute.
//! - `abuse inbox`: fresh guests from a few addresses challenge one
//!   account at once; then an account it follows and a stranger from
//!   another address must still reach it.
//!
//! ```sh
//! cargo build --release -p tensorchess -p tensorchess-loadtest
//! target/release/abuse engine --guests 40 --seconds 60
//! target/release/abuse engine --guests 40 --one-address --seconds 60
//! target/release/abuse lobby --pages 20 --seeks 200
//! target/release/abuse tokens --tokens 8 --seconds 5
//! target/release/abuse streams --streams 1000
//! target/release/abuse ghost-arena --ghosts 80 --minutes 3
//! target/release/abuse inbox --guests 60 --addresses 2
//! ```

mod engine;
mod ghosts;
mod inbox;
mod lobby;
mod tokens;

use clap::{Parser, Subcommand};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use tensorchess_loadtest::db::DbTarget;
use tensorchess_loadtest::server::{Server, TempDir};
use tensorchess_loadtest::Error;

#[derive(Parser, Debug)]
#[command(
    name = "abuse",
    about = "Strangers against a tensorchess server (benchmarks)"
)]
struct Args {
    #[command(subcommand)]
    scenario: Scenario,
    /// A server already running on loopback (started with
    /// `--trusted-proxy 127.0.0.1`); otherwise one is started.
    #[arg(long, global = true)]
    connect: Option<SocketAddr>,
    /// The binary to start (default: next to this one).
    #[arg(long, global = true)]
    server_bin: Option<PathBuf>,
    /// Start the server without `--trusted-proxy` (a version from before
    /// it, measured side by side: it reads no forwarded addresses).
    #[arg(long, global = true)]
    plain: bool,
}

#[derive(Subcommand, Debug)]
enum Scenario {
    /// Guests flood the engine; an honest player times its replies.
    Engine(engine::EngineArgs),
    /// Lobby pages count bytes while seeks come and go.
    Lobby(lobby::LobbyArgs),
    /// One account's tokens flood the programs' routes from one address.
    Tokens(tokens::TokenArgs),
    /// One account opens event streams until refused.
    Streams(tokens::StreamArgs),
    /// Guests join an arena and never come: the games it makes.
    GhostArena(ghosts::GhostArgs),
    /// Fresh guests flood one account's challenges; friends must still
    /// reach it.
    Inbox(inbox::InboxArgs),
}

fn main() -> ExitCode {
    let args = Args::parse();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("abuse: cannot start the runtime: {e}");
            return ExitCode::from(2);
        }
    };
    match runtime.block_on(run(args)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("abuse: {e}");
            ExitCode::from(2)
        }
    }
}

async fn run(args: Args) -> Result<(), Error> {
    // The server, started here behind a trusted "proxy" on loopback.
    let mut started = None;
    let _dir;
    let addr = match args.connect {
        Some(addr) if addr.ip().is_loopback() => addr,
        Some(addr) => return Err(format!("{addr} is not on loopback").into()),
        None => {
            let bin = match args.server_bin {
                Some(b) => b,
                None => std::env::current_exe()?
                    .parent()
                    .ok_or("no directory for the server binary")?
                    .join("tensorchess"),
            };
            let dir = TempDir::new()?;
            let db = DbTarget::sqlite(&dir.0.join("abuse.sqlite3"));
            let options: &[&str] = if args.plain {
                &[]
            } else {
                &["--trusted-proxy", "127.0.0.1"]
            };
            let server = Server::start_with(&bin, &db, options)?;
            let addr = server.addr;
            started = Some(server);
            _dir = dir;
            addr
        }
    };
    let pid = started.as_ref().map(Server::pid);
    let result = match args.scenario {
        Scenario::Engine(a) => engine::run(addr, a).await,
        Scenario::Lobby(a) => lobby::run(addr, a).await,
        Scenario::Tokens(a) => tokens::run_tokens(addr, a).await,
        Scenario::Streams(a) => tokens::run_streams(addr, pid, a).await,
        Scenario::GhostArena(a) => ghosts::run(addr, a).await,
        Scenario::Inbox(a) => inbox::run(addr, a).await,
    };
    if let Some(mut s) = started {
        s.stop();
    }
    result
}

/// The address stranger `i` says it comes from (`X-Forwarded-For`).
fn stranger(i: usize) -> String {
    format!("10.{}.{}.{}", (i >> 16) & 255, (i >> 8) & 255, i & 255)
}

/// Percentile `p` (0–100) of sorted values.
fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((p / 100.0) * (sorted.len() - 1) as f64).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}
