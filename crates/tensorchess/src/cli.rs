//! Command-line interface. Bad input exits with status 2 and one line on stderr.

use crate::commands::{self, error::CliError};
use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// The command line: a command, or `serve`'s options alone.
#[derive(Parser, Debug)]
#[command(
    name = "tensorchess",
    version,
    about = "Tensor Chess, orthodox chess and Chessence: web app, engine and tools",
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    /// The command given; none runs `serve`.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Options of `serve`, the default command.
    #[command(flatten)]
    pub serve: commands::serve::ServeArgs,
}

/// The commands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Start the web app (the default).
    Serve(commands::serve::ServeArgs),
    /// Count the leaves of the legal move tree.
    Perft(commands::perft::PerftArgs),
    /// List the legal moves of a position, sorted.
    Moves(commands::moves::MovesArgs),
    /// Play moves from a position and print the resulting FEN.
    Fen(commands::fen::FenArgs),
    /// Speak the UCI protocol on standard input and output.
    Uci,
    /// Search fixed positions to a fixed depth: a node-count signature and speed.
    Bench(commands::bench::BenchArgs),
    /// Play a match between two engines.
    Match(commands::matches::MatchArgs),
    /// Play engine games that record positions for tuning.
    Selfplay(commands::selfplay::SelfplayArgs),
    /// Self-play that records positions for training the evaluation network.
    Datagen(commands::datagen::DatagenArgs),
    /// Train an evaluation network on datagen files.
    Train(commands::train::TrainArgs),
    /// Fit the evaluation weights to self-play results.
    Tune(commands::tune::TuneArgs),
    /// Review a game: annotated PGN with evaluations, judgements and accuracies.
    Review(commands::review::ReviewArgs),
    /// Mine puzzles from engine games into a puzzle CSV file.
    Puzzles(commands::puzzles::PuzzlesArgs),
    /// The operator's tools: bans, accounts, ownerless games.
    Admin(commands::admin::AdminArgs),
    /// Play on a server's Bot API with a UCI engine (ours by default).
    Bot(commands::bot::BotArgs),
}

/// The binary's `main`: parses the command line and runs the command;
/// bad arguments or input exit with status 2 and one line on stderr.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(
                e.kind(),
                ErrorKind::DisplayHelp
                    | ErrorKind::DisplayVersion
                    | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            ) {
                let _ = e.print();
                return ExitCode::SUCCESS;
            }
            // One clear line: clap's first line names what was wrong.
            let text = e.render().to_string();
            let line = text.lines().next().unwrap_or("invalid arguments");
            eprintln!("{line}");
            return ExitCode::from(2);
        }
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// Runs the command the command line names.
pub fn run(cli: Cli) -> Result<(), CliError> {
    match cli.command {
        None => commands::serve::run(&cli.serve),
        Some(Command::Serve(args)) => commands::serve::run(&args),
        Some(Command::Perft(args)) => commands::perft::run(&args),
        Some(Command::Moves(args)) => commands::moves::run(&args),
        Some(Command::Fen(args)) => commands::fen::run(&args),
        Some(Command::Uci) => commands::uci::run(),
        Some(Command::Bench(args)) => commands::bench::run(&args),
        Some(Command::Match(args)) => commands::matches::run(&args),
        Some(Command::Selfplay(args)) => commands::selfplay::run(&args),
        Some(Command::Datagen(args)) => commands::datagen::run(&args),
        Some(Command::Train(args)) => commands::train::run(&args),
        Some(Command::Tune(args)) => commands::tune::run(&args),
        Some(Command::Review(args)) => commands::review::run(&args),
        Some(Command::Puzzles(args)) => commands::puzzles::run(&args),
        Some(Command::Admin(args)) => commands::admin::run(&args),
        Some(Command::Bot(args)) => commands::bot::run(&args),
    }
}
