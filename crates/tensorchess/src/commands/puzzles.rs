//! `tensorchess puzzles`: mine puzzles from engine games (PGN, e.g. from
//! `tensorchess selfplay --pgn`) into a lichess-style puzzle CSV file, or
//! recheck a puzzle file with deeper searches.

use super::error::CliError;
use super::game_args::VariantParser;
use crate::puzzles::{self, MineInput, MineSettings, Puzzle};
use crate::review::Score;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::HashSet;
use std::io::Write;
use std::sync::atomic::AtomicBool;
use tensorchess_engine::eval::Evaluate;
use tensorchess_rules::pgn::{parse_pgn, replay, PgnGame, MAX_PGN_LEN};
use tensorchess_rules::{with_variant, VariantKind};

/// The options of `tensorchess puzzles`.
#[derive(Args, Debug)]
pub struct PuzzlesArgs {
    /// Game: tensor, chess or chessence (default: the first game's Variant tag).
    #[arg(long, value_parser = VariantParser)]
    pub variant: Option<VariantKind>,
    /// PGN file of games to mine (repeatable); games of another variant are skipped.
    #[arg(long = "games", required_unless_present = "recheck")]
    pub games: Vec<String>,
    /// Instead of mining: keep the puzzles of this file whose moves replay,
    /// whose themes hold and whose first solver move is still the only good
    /// one at `--nodes`, and write them to `--out` (replaced).
    #[arg(long, conflicts_with = "games")]
    pub recheck: Option<String>,
    /// Puzzle CSV file; mined puzzles are appended (its header is written when it is new).
    #[arg(long)]
    pub out: String,
    /// Nodes per search while finding a solution (MultiPV 2).
    #[arg(long, default_value_t = MineSettings::default().nodes)]
    pub nodes: u64,
    /// Nodes per position of the quick scan of each game.
    #[arg(long, default_value_t = MineSettings::default().scan_nodes)]
    pub scan_nodes: u64,
    /// Nodes of the deeper check of the first solver move.
    #[arg(long, default_value_t = MineSettings::default().verify_nodes)]
    pub verify_nodes: u64,
    /// Winning-chance gap by which a solver move must beat the second best.
    #[arg(long, default_value_t = MineSettings::default().gap)]
    pub gap: f64,
    /// Most puzzles taken from one game.
    #[arg(long, default_value_t = MineSettings::default().max_per_game)]
    pub max_per_game: usize,
    /// Earliest ply of a game at which a puzzle may start (the ply of the
    /// opponent's move that sets it).
    #[arg(long, default_value_t = MineSettings::default().min_ply)]
    pub min_ply: usize,
    /// Mine no mates, only advantage puzzles (mate candidates are skipped).
    #[arg(long)]
    pub no_mates: bool,
    /// Games mined at once (one engine thread each).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
}

/// A game read: its source name (`FILE#N`), the game, and its `[%eval]`s.
type ReadGame = (String, PgnGame, Vec<Option<Score>>);

/// Reads every game of the PGN files.
fn read_games(paths: &[String]) -> Result<Vec<ReadGame>, CliError> {
    let mut out = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(path)
            .map_err(|e| CliError(format!("cannot read {path}: {e}")))?;
        let name = std::path::Path::new(path)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| path.clone());
        let mut games = Vec::new();
        for piece in split_games(&text) {
            if piece.len() > MAX_PGN_LEN {
                return Err(CliError(format!("{path}: a game is larger than 4 MiB")));
            }
            let parsed = parse_pgn(piece).map_err(|e| CliError(format!("{path}: {e}")))?;
            // The evaluations are read where a piece is one game.
            let evals = if parsed.len() == 1 {
                puzzles::move_evals(piece)
            } else {
                Vec::new()
            };
            games.extend(parsed.into_iter().map(|g| (g, evals.clone())));
        }
        for (i, (g, evals)) in games.into_iter().enumerate() {
            out.push((format!("{name}#{}", i + 1), g, evals));
        }
    }
    Ok(out)
}

/// Cuts PGN text into games at each `[Event` tag.
fn split_games(text: &str) -> Vec<&str> {
    let mut pieces = Vec::new();
    let mut start = 0;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        if line.starts_with("[Event ") && !text[start..offset].trim().is_empty() {
            pieces.push(&text[start..offset]);
            start = offset;
        }
        offset += line.len();
    }
    pieces.push(&text[start..]);
    pieces
}

struct Run<'a> {
    args: &'a PuzzlesArgs,
    games: Vec<ReadGame>,
    kind: VariantKind,
}

impl Run<'_> {
    fn run<V: Evaluate>(self) -> Result<(), CliError> {
        let a = self.args;
        let mut games: Vec<MineInput<V>> = Vec::new();
        let mut skipped = 0;
        for (source, pgn, evals) in &self.games {
            let kind = match pgn.tag("Variant") {
                Some(_) => pgn
                    .variant()
                    .map_err(|e| CliError(format!("{source}: {e}")))?,
                None => VariantKind::Chess,
            };
            if kind != self.kind {
                skipped += 1;
                continue;
            }
            let game = replay::<V>(pgn).map_err(|e| CliError(format!("{source}: {e}")))?;
            games.push(MineInput {
                source: source.clone(),
                game,
                evals: evals.clone(),
            });
        }
        if skipped > 0 {
            eprintln!("skipped {skipped} games that are not {}", self.kind.title());
        }
        let settings = MineSettings {
            scan_nodes: a.scan_nodes,
            nodes: a.nodes,
            verify_nodes: a.verify_nodes,
            gap: a.gap,
            max_per_game: a.max_per_game,
            min_ply: a.min_ply,
            mates: !a.no_mates,
            ..MineSettings::default()
        };
        let existing = std::fs::read_to_string(&a.out).unwrap_or_default();
        let mut known: HashSet<String> = puzzles::read_csv(&existing)
            .map_err(|e| CliError(format!("{}: {e}", a.out)))?
            .into_iter()
            .map(|p| p.id)
            .collect();
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&a.out)
            .map_err(|e| CliError(format!("cannot open {}: {e}", a.out)))?;
        if existing.trim().is_empty() {
            writeln!(file, "{}", puzzles::HEADER)
                .map_err(|e| CliError(format!("cannot write {}: {e}", a.out)))?;
        }
        let bar = ProgressBar::new(games.len() as u64);
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} games, {msg} [{elapsed} < {eta}]")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        let stop = AtomicBool::new(false);
        let mut written = 0;
        let mut error = None;
        puzzles::mine_games(&games, &settings, a.threads, &stop, |progress, found| {
            for p in found {
                let mut p: Puzzle = p.clone();
                // A clash of two different puzzles' ids: salt until free.
                let mut salt = 1;
                while known.contains(&p.id) {
                    p.id = puzzles::puzzle_id(&p.fen, &p.moves, salt);
                    salt += 1;
                }
                known.insert(p.id.clone());
                if let Err(e) = writeln!(file, "{}", p.to_csv()) {
                    error.get_or_insert(e);
                }
                written += 1;
            }
            let _ = file.flush();
            bar.set_position(progress.games as u64);
            bar.set_message(format!("{} puzzles", progress.puzzles));
        });
        bar.finish_and_clear();
        if let Some(e) = error {
            return Err(CliError(format!("cannot write {}: {e}", a.out)));
        }
        eprintln!(
            "{written} puzzles from {} games written to {}",
            games.len(),
            a.out
        );
        Ok(())
    }
}

struct Recheck<'a> {
    args: &'a PuzzlesArgs,
    puzzles: Vec<Puzzle>,
}

impl Recheck<'_> {
    fn run<V: Evaluate>(self) -> Result<(), CliError> {
        let a = self.args;
        let threads = a.threads.max(1);
        let chunk = self.puzzles.len().div_ceil(threads).max(1);
        let kept: Vec<Vec<Puzzle>> = std::thread::scope(|scope| {
            let handles: Vec<_> = self
                .puzzles
                .chunks(chunk)
                .map(|part| {
                    scope.spawn(move || {
                        part.iter()
                            .filter(|p| {
                                let r = puzzles::check_puzzle::<V>(p).and_then(|_| {
                                    puzzles::recheck_first_move::<V>(p, a.nodes, a.gap)
                                });
                                match r {
                                    Ok(()) => true,
                                    Err(e) => {
                                        eprintln!("dropped {e}");
                                        false
                                    }
                                }
                            })
                            .cloned()
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_default())
                .collect()
        });
        let kept: Vec<Puzzle> = kept.into_iter().flatten().collect();
        std::fs::write(&a.out, puzzles::write_csv(&kept))
            .map_err(|e| CliError(format!("cannot write {}: {e}", a.out)))?;
        eprintln!(
            "kept {} of {} puzzles in {}",
            kept.len(),
            self.puzzles.len(),
            a.out
        );
        Ok(())
    }
}

/// Runs `tensorchess puzzles`.
pub fn run(args: &PuzzlesArgs) -> Result<(), CliError> {
    if let Some(path) = &args.recheck {
        let text = std::fs::read_to_string(path)
            .map_err(|e| CliError(format!("cannot read {path}: {e}")))?;
        let puzzles = puzzles::read_csv(&text).map_err(|e| CliError(format!("{path}: {e}")))?;
        let kind = args.variant.unwrap_or_default();
        let job = Recheck { args, puzzles };
        return with_variant!(kind, V => job.run::<V>());
    }
    let games = read_games(&args.games)?;
    let kind = match args.variant {
        Some(k) => k,
        None => match games.first() {
            Some((source, g, _)) => match g.tag("Variant") {
                Some(_) => g
                    .variant()
                    .map_err(|e| CliError(format!("{source}: {e}")))?,
                None => VariantKind::Chess,
            },
            None => return Err(CliError("the PGN files hold no game".into())),
        },
    };
    let job = Run { args, games, kind };
    with_variant!(kind, V => job.run::<V>())
}

#[cfg(test)]
mod tests {
    use super::split_games;

    #[test]
    fn files_are_cut_into_games() {
        let text = "[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. d4 *\n";
        assert_eq!(
            split_games(text),
            vec!["[Event \"a\"]\n\n1. e4 *\n\n", "[Event \"b\"]\n\n1. d4 *\n"]
        );
        assert_eq!(split_games("1. e4 *"), vec!["1. e4 *"]);
    }
}
