//! `tensorchess match`: engine matches in any of the three games.

use super::error::CliError;
use super::game_args::VariantParser;
use crate::matches::openings::{builtin, generate, OpeningRecipe, SCORE_DEPTH};
use crate::matches::{
    run_match, Adjudication, Budget, DrawRule, EngineSpec, MatchConfig, ResignRule, Sprt,
    TimeControl,
};
use clap::Args;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tensorchess_rules::VariantKind;

/// The options of `match`, boxed so that the command enum stays small.
#[derive(Debug)]
pub struct MatchArgs(pub Box<MatchOptions>);

impl clap::FromArgMatches for MatchArgs {
    fn from_arg_matches(m: &clap::ArgMatches) -> Result<Self, clap::Error> {
        MatchOptions::from_arg_matches(m).map(|o| MatchArgs(Box::new(o)))
    }
    fn update_from_arg_matches(&mut self, m: &clap::ArgMatches) -> Result<(), clap::Error> {
        self.0.update_from_arg_matches(m)
    }
}

impl Args for MatchArgs {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        MatchOptions::augment_args(cmd)
    }
    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        MatchOptions::augment_args_for_update(cmd)
    }
}

/// The options of `tensorchess match`: the engines, games, limits,
/// adjudication and output of a match (or openings to make).
#[derive(Args, Debug)]
pub struct MatchOptions {
    /// The game.
    #[arg(long, default_value = "tensor", value_parser = VariantParser)]
    pub variant: VariantKind,
    /// An engine, given twice (the score is the first one's). In-process:
    /// e.g. `level=3`, `no=null_move`, `material2`, `weights=FILE`;
    /// a UCI engine: `cmd=/usr/games/stockfish,option.UCI_Elo=2000`.
    /// Per-engine limits: `tc=`, `movetime=`, `depth=`, `nodes=`. See docs/match.md.
    #[arg(long = "engine", short = 'e', value_name = "SPEC")]
    pub engines: Vec<String>,
    /// Time control in seconds: `10+0.1`, `60`, `40/60+0.5`.
    #[arg(long)]
    pub tc: Option<String>,
    /// Fixed time per move, in milliseconds.
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Fixed depth per move.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Fixed nodes per move.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Games to play (rounded up to even: each opening is played with both
    /// colours). Default: every opening twice, or 20000 with --sprt.
    #[arg(long)]
    pub games: Option<usize>,
    /// Opening positions (FEN/EPD lines); default: the shipped set of the game.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Append the games to this PGN file.
    #[arg(long)]
    pub pgn: Option<PathBuf>,
    /// Write the report as JSON to this file.
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// Stop early by SPRT: `elo0=0,elo1=5,alpha=0.05,beta=0.05`.
    #[arg(long)]
    pub sprt: Option<String>,
    /// Resign adjudication: `movecount=4,score=1000` (centipawns).
    #[arg(long)]
    pub resign: Option<String>,
    /// Draw adjudication: `movenumber=40,movecount=8,score=10`.
    #[arg(long)]
    pub draw: Option<String>,
    /// Draw after this many moves.
    #[arg(long)]
    pub max_moves: Option<u32>,
    /// No resign or draw adjudication (rule endings and forfeits only).
    #[arg(long)]
    pub no_adjudication: bool,
    /// Grace on the clock and on fixed move times before a loss on time, ms.
    #[arg(long, default_value_t = 200)]
    pub timemargin: u64,
    /// Longest wait for a move without a clock, seconds (then the game is forfeited).
    #[arg(long, default_value_t = 300)]
    pub hang_timeout: u64,
    /// The PGN Event tag.
    #[arg(long)]
    pub event: Option<String>,
    /// No progress bar and no line per game.
    #[arg(long)]
    pub quiet: bool,
    /// Instead of a match: print this many balanced openings (FEN lines).
    #[arg(long, value_name = "COUNT")]
    pub make_openings: Option<usize>,
    /// Openings: random plies from the start, `MIN-MAX`.
    #[arg(long)]
    pub opening_plies: Option<String>,
    /// Openings: search depth of the balance check.
    #[arg(long)]
    pub opening_depth: Option<u32>,
    /// Openings: largest |score| kept, centipawns.
    #[arg(long)]
    pub balance: Option<i32>,
    /// Openings: draw each move from those within this many centipawns of
    /// the best at 4 plies (-1: from all legal moves).
    #[arg(long, allow_hyphen_values = true)]
    pub slack: Option<i32>,
    /// Openings: random seed.
    #[arg(long)]
    pub seed: Option<u64>,
}

fn make_openings(args: &MatchOptions, kind: VariantKind, count: usize) -> Result<(), CliError> {
    let mut recipe = OpeningRecipe::default_for(kind, count);
    if let Some(p) = &args.opening_plies {
        let (a, b) = p.split_once('-').unwrap_or((p, p));
        let (a, b): (u32, u32) = match (a.trim().parse(), b.trim().parse()) {
            (Ok(a), Ok(b)) if a <= b && b <= 200 => (a, b),
            _ => {
                return Err(CliError::new(
                    "--opening-plies: expected MIN-MAX, e.g. 6-10",
                ))
            }
        };
        recipe.plies = a..=b;
    }
    if let Some(d) = args.opening_depth {
        recipe.depth = d.clamp(1, 30);
    }
    if let Some(b) = args.balance {
        recipe.balance = b.max(0);
    }
    if let Some(s) = args.seed {
        recipe.seed = s;
    }
    if let Some(s) = args.slack {
        recipe.slack = (s >= 0).then_some(s);
    }
    let slack = match recipe.slack {
        Some(s) => format!("within {s} cp of the best at {SCORE_DEPTH} plies"),
        None => "any legal move".to_string(),
    };
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "# {} openings for {}: {}-{} random plies ({slack}), kept when a depth-{} search scores within {} cp (seed {})",
        count,
        kind.title(),
        recipe.plies.start(),
        recipe.plies.end(),
        recipe.depth,
        recipe.balance,
        recipe.seed
    );
    let found = generate(kind, &recipe, |g| {
        let _ = writeln!(out, "{}", g.fen);
        let _ = out.flush();
    });
    if found.len() < count {
        return Err(CliError(format!(
            "found only {} openings; widen --balance or change --opening-plies",
            found.len()
        )));
    }
    Ok(())
}

/// The first Ctrl-C stops the match once the games in progress are over
/// (the report covers the games played); a second one quits at once.
fn interrupt_on_ctrl_c() -> Arc<AtomicBool> {
    let flag = Arc::new(AtomicBool::new(false));
    let set = flag.clone();
    std::thread::spawn(move || {
        let Ok(rt) = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
        else {
            return;
        };
        rt.block_on(async move {
            while tokio::signal::ctrl_c().await.is_ok() {
                if set.swap(true, Ordering::SeqCst) {
                    eprintln!("Stopped.");
                    std::process::exit(130);
                }
                eprintln!(
                    "Interrupted: the games in progress are played out, then the report (Ctrl-C again to quit now)"
                );
            }
        });
    });
    flag
}

/// Runs `tensorchess match`.
pub fn run(args: &MatchArgs) -> Result<(), CliError> {
    let args: &MatchOptions = &args.0;
    let kind = args.variant;
    if let Some(n) = args.make_openings {
        return make_openings(args, kind, n.max(1));
    }
    if args.engines.len() != 2 {
        return Err(CliError(format!(
            "give exactly two engines with --engine (found {})",
            args.engines.len()
        )));
    }
    let engines = [
        EngineSpec::parse(&args.engines[0]).map_err(CliError)?,
        EngineSpec::parse(&args.engines[1]).map_err(CliError)?,
    ];
    let budget = Budget {
        tc: args
            .tc
            .as_deref()
            .map(TimeControl::parse)
            .transpose()
            .map_err(CliError)?,
        movetime: args.movetime.map(|ms| Duration::from_millis(ms.max(1))),
        depth: args.depth.map(|d| d.clamp(1, 200)),
        nodes: args.nodes.map(|n| n.max(1)),
    };
    let openings = match &args.openings {
        Some(p) => std::fs::read_to_string(p)
            .map_err(|e| CliError(format!("cannot read {}: {e}", p.display())))?,
        None => builtin(kind).to_string(),
    };
    let sprt = args
        .sprt
        .as_deref()
        .map(Sprt::parse)
        .transpose()
        .map_err(CliError)?;
    let mut adjudication = Adjudication::default();
    if args.no_adjudication {
        adjudication.resign = None;
        adjudication.draw = None;
    }
    if let Some(r) = &args.resign {
        adjudication.resign = Some(ResignRule::parse(r).map_err(CliError)?);
    }
    if let Some(d) = &args.draw {
        adjudication.draw = Some(DrawRule::parse(d).map_err(CliError)?);
    }
    adjudication.max_moves = args.max_moves.filter(|m| *m > 0);
    let opening_count = openings
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .count()
        .max(1);
    let games = match (args.games, sprt) {
        (Some(g), _) => g.max(1),
        (None, Some(_)) => 20_000,
        (None, None) => 2 * opening_count,
    };
    let games = games + games % 2;
    let terminal = std::io::stderr().is_terminal();
    let cfg = MatchConfig {
        variant: kind,
        engines,
        budget,
        games,
        openings,
        concurrency: args.concurrency.clamp(1, 256),
        adjudication,
        time_margin: Duration::from_millis(args.timemargin),
        hang_timeout: Duration::from_secs(args.hang_timeout.max(1)),
        pgn: args.pgn.clone(),
        sprt,
        event: args
            .event
            .clone()
            .unwrap_or_else(|| format!("tensorchess match, {}", kind.title())),
        progress: !args.quiet && terminal,
        game_lines: !args.quiet,
        interrupt: Some(interrupt_on_ctrl_c()),
    };
    for (i, e) in cfg.engines.iter().enumerate() {
        if e.budget.unwrap_or(cfg.budget).is_empty() {
            return Err(CliError(format!(
                "engine {} has no limit: give --tc, --movetime, --depth or --nodes (or tc=/depth=... in its spec)",
                i + 1
            )));
        }
    }
    eprintln!(
        "{} games of {} between {} ({}) and {} ({}), concurrency {}",
        cfg.games,
        kind.title(),
        cfg.engines[0].default_name(),
        cfg.engines[0].budget.unwrap_or(cfg.budget),
        cfg.engines[1].default_name(),
        cfg.engines[1].budget.unwrap_or(cfg.budget),
        cfg.concurrency
    );
    let report = run_match(&cfg).map_err(CliError)?;
    let _ = write!(std::io::stdout().lock(), "{}", report.text());
    if let Some(p) = &args.json {
        let text = serde_json::to_string_pretty(&report)
            .map_err(|e| CliError(format!("cannot write the report: {e}")))?;
        std::fs::write(p, text)
            .map_err(|e| CliError(format!("cannot write {}: {e}", p.display())))?;
    }
    Ok(())
}
