//! `tensorchess bot`: plays on a server's Bot API with a UCI engine (ours
//! by default); see `crate::bot` and docs/bots.md.

use super::error::CliError;
use crate::bot::{run as run_bridge, BotConfig};
use clap::Args;
use tensorchess_rules::VariantKind;

/// The options of `tensorchess bot`.
#[derive(Args, Debug, Clone)]
pub struct BotArgs {
    /// The server: `http://host:port`, or `https://host[:port]` (its
    /// certificate checked against the web's root certificates).
    #[arg(long)]
    pub server: String,
    /// Trusts the certificates of this PEM file for an `https://` server
    /// (one with a certificate of its own) instead of the web's roots.
    #[arg(long)]
    pub ca_file: Option<std::path::PathBuf>,
    /// A personal API token of a bot account, with `bot:play` and
    /// `challenge:write`.
    #[arg(long)]
    pub token: String,
    /// The UCI engine's command and arguments, one string (`"stockfish"`);
    /// without it, this program's own engine (`tensorchess uci`).
    #[arg(long)]
    pub engine: Option<String>,
    /// The games it accepts challenges for, comma-separated.
    #[arg(long, default_value = "tensor,chess,chessence", value_delimiter = ',')]
    pub variants: Vec<VariantKind>,
    /// Accepts rated challenges too (casual only without it).
    #[arg(long)]
    pub accept_rated: bool,
    /// Games played at once; further challenges are declined ("later").
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub max_games: u32,
    /// Our engine's level, 1 to 6 (without --engine).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=6))]
    pub level: Option<u8>,
    /// Searches by nodes (`go nodes N`) instead of by the clocks (fast
    /// games for tests).
    #[arg(long)]
    pub nodes: Option<u64>,
}

/// Runs `tensorchess bot`.
pub fn run(args: &BotArgs) -> Result<(), CliError> {
    let engine = match &args.engine {
        Some(cmd) => {
            let words: Vec<String> = cmd.split_whitespace().map(str::to_string).collect();
            if words.is_empty() {
                return Err(CliError::new("--engine is empty"));
            }
            words
        }
        None => Vec::new(),
    };
    if args.engine.is_some() && args.level.is_some() {
        return Err(CliError::new(
            "--level sets our own engine's level: give it without --engine",
        ));
    }
    let config = BotConfig {
        server: args.server.clone(),
        ca_file: args.ca_file.clone(),
        token: args.token.clone(),
        engine,
        variants: args.variants.clone(),
        accept_rated: args.accept_rated,
        max_games: args.max_games as usize,
        level: args.level,
        nodes: args.nodes,
    };
    let _ = tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        .try_init();
    let runtime = tokio::runtime::Runtime::new()
        .map_err(|e| CliError::new(format!("cannot start the runtime: {e}")))?;
    runtime.block_on(async move {
        let (stop_tx, stop) = tokio::sync::watch::channel(false);
        tokio::spawn(async move {
            let _ = tokio::signal::ctrl_c().await;
            let _ = stop_tx.send(true);
        });
        run_bridge(config, stop).await.map_err(CliError::new)
    })
}
