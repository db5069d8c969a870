//! Self-play that records training positions (`tensorchess datagen`).
//!
//! Each game starts from one of the game's shipped openings, picked by the
//! game's own generator (seeded by the seed and the game's number, so that
//! a game is the same whichever thread plays it), then a few random plies;
//! the engine then plays both sides at a fixed node count. A position is
//! kept when the side to move is not in check, the search's best move
//! captures nothing (and promotes nothing), and its score is no mate and
//! within [`MAX_SCORE`]. Clear wins are adjudicated as in `selfplay`.

use super::data::{DataError, DataWriter, GameRecord, GameResult, Sample};
use crate::matches::openings::{builtin, parse_openings};
use indicatif::{ProgressBar, ProgressStyle};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use tensorchess_engine::eval::Evaluate;
use tensorchess_engine::nnue::Network;
use tensorchess_engine::{Engine, Limits, NoHandler, Options};
use tensorchess_rules::{Color, Game, Move, MoveKind, Position};

/// Positions scored beyond this (centipawns) are not kept.
pub const MAX_SCORE: i32 = 2000;
/// A game is adjudicated once the score stays beyond this ...
const ADJUDICATE_SCORE: i32 = 1000;
/// ... for this many plies.
const ADJUDICATE_PLIES: u32 = 6;
/// Games longer than this are called drawn.
const MAX_PLIES: usize = 400;
/// Hash table of each thread's engine (MiB).
const HASH_MB: usize = 8;

/// How to generate.
#[derive(Clone, Debug)]
pub struct DatagenConfig {
    /// Games to have in the file (those there already are kept).
    pub games: usize,
    /// Nodes searched per move.
    pub nodes: u64,
    /// Random moves played at each game's start, for variety.
    pub random_plies: usize,
    /// Games played at once.
    pub threads: usize,
    /// The seed: game `i` of a seed is always the same game.
    pub seed: u64,
    /// Evaluate with a network (`network`, else the game's built-in one).
    pub use_nnue: bool,
    /// A network read from a file.
    pub network: Option<Arc<Network>>,
}

impl DatagenConfig {
    /// An engine that plays the games (one per thread).
    pub fn engine(&self) -> Engine {
        Engine::new(Options {
            hash_mb: HASH_MB,
            use_nnue: self.use_nnue,
            network: self.network.clone(),
            ..Options::default()
        })
    }
}

/// Whether `m` in `pos` captures or promotes nothing.
fn is_quiet<V: Evaluate>(pos: &Position<V>, m: Move) -> bool {
    match m.kind() {
        MoveKind::Normal => pos.piece_at(m.to()).is_none(),
        MoveKind::Castle | MoveKind::Propel | MoveKind::Drop => true,
        MoveKind::Promotion | MoveKind::EnPassant | MoveKind::BeastCapture => false,
    }
}

/// Plays game number `index`.
pub fn play_game<V: Evaluate>(
    engine: &mut Engine,
    openings: &[Position<V>],
    cfg: &DatagenConfig,
    index: u32,
) -> GameRecord {
    let mut rng =
        StdRng::seed_from_u64(cfg.seed ^ (index as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    engine.new_game();
    let start = openings[rng.random_range(0..openings.len())];
    let mut game = Game::<V>::from_position(start);
    for _ in 0..cfg.random_plies {
        let moves = game.position().legal_moves();
        if moves.is_empty() || game.outcome().is_some() {
            break;
        }
        game.push(moves[rng.random_range(0..moves.len())]);
    }
    let mut samples = Vec::new();
    let mut decided = 0;
    let mut last_sign = 0;
    let outcome = loop {
        if let Some(o) = game.outcome() {
            break o.winner();
        }
        if game.moves().len() >= MAX_PLIES {
            break None;
        }
        let pos = *game.position();
        let history = game.positions();
        let from = history
            .len()
            .saturating_sub(pos.halfmove_clock() as usize + 1);
        let r = engine.search(&history[from..], &Limits::nodes(cfg.nodes), &mut NoHandler);
        if r.best.is_null() {
            break None;
        }
        let white = match pos.turn() {
            Color::White => r.score.0,
            Color::Black => -r.score.0,
        };
        if !pos.is_check()
            && !r.score.is_mate()
            && white.abs() <= MAX_SCORE
            && is_quiet(&pos, r.best)
        {
            samples.push(Sample::of(&pos, white as i16));
        }
        let sign = (white > ADJUDICATE_SCORE) as i32 - (white < -ADJUDICATE_SCORE) as i32;
        decided = if sign != 0 && sign == last_sign {
            decided + 1
        } else {
            0
        };
        last_sign = sign;
        if decided >= ADJUDICATE_PLIES {
            break Some(if sign > 0 { Color::White } else { Color::Black });
        }
        game.push(r.best);
    };
    GameRecord {
        index,
        result: match outcome {
            Some(Color::White) => GameResult::WhiteWon,
            Some(Color::Black) => GameResult::BlackWon,
            None => GameResult::Draw,
        },
        samples,
    }
}

/// What a run did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct DatagenReport {
    /// Games found in the file already (not played again).
    pub resumed: usize,
    /// Games played now.
    pub games: usize,
    /// Positions recorded now.
    pub positions: usize,
}

/// Plays the games of `cfg` not yet in `out` on `cfg.threads` threads and appends them.
pub fn run<V: Evaluate>(
    cfg: &DatagenConfig,
    out: &Path,
    progress: bool,
) -> Result<DatagenReport, DataError> {
    let openings = parse_openings::<V>(builtin(V::KIND)).unwrap_or_else(|_| vec![Position::new()]);
    let (mut writer, done) = DataWriter::create_or_resume::<V>(out)?;
    let todo: Vec<u32> = (0..cfg.games as u32)
        .filter(|i| !done.contains(i))
        .collect();
    let mut report = DatagenReport {
        resumed: cfg.games - todo.len(),
        ..DatagenReport::default()
    };
    let bar = if progress {
        ProgressBar::new(cfg.games as u64)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games, {msg} [{elapsed} < {eta}]")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.set_position(report.resumed as u64);
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<GameRecord>();
    std::thread::scope(|scope| -> Result<(), DataError> {
        for _ in 0..cfg.threads.max(1) {
            let tx = tx.clone();
            let (next, todo, openings) = (&next, &todo, &openings);
            scope.spawn(move || {
                let mut engine = cfg.engine();
                while let Some(&index) = todo.get(next.fetch_add(1, Ordering::Relaxed)) {
                    if tx
                        .send(play_game::<V>(&mut engine, openings, cfg, index))
                        .is_err()
                    {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for game in rx {
            if let Err(e) = writer.write_game(&game) {
                // Stop the players, then report.
                next.store(usize::MAX / 2, Ordering::Relaxed);
                return Err(e);
            }
            report.games += 1;
            report.positions += game.samples.len();
            bar.inc(1);
            bar.set_message(format!("{} positions", report.positions));
        }
        Ok(())
    })?;
    bar.finish();
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::data::read_file;
    use tensorchess_rules::{Chessence, Tensor};

    #[test]
    fn games_are_recorded_quiet_and_resumable() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("d.data");
        let cfg = DatagenConfig {
            games: 2,
            nodes: 300,
            random_plies: 2,
            threads: 2,
            seed: 9,
            use_nnue: false,
            network: None,
        };
        let first = run::<Tensor>(&cfg, &path, false).unwrap();
        assert_eq!((first.resumed, first.games), (0, 2));
        assert!(first.positions > 0);
        let data = read_file::<Tensor>(&path).unwrap();
        let mut indices: Vec<u32> = data.games.iter().map(|g| g.index).collect();
        indices.sort_unstable();
        assert_eq!(indices, [0, 1]);
        for s in data.games.iter().flat_map(|g| &g.samples) {
            assert!(s.score.abs() as i32 <= MAX_SCORE);
        }
        // Asking for more plays only the new games.
        let more = run::<Tensor>(
            &DatagenConfig {
                games: 3,
                ..cfg.clone()
            },
            &path,
            false,
        )
        .unwrap();
        assert_eq!((more.resumed, more.games), (2, 1));
        assert_eq!(read_file::<Tensor>(&path).unwrap().games.len(), 3);
        // The same game number plays the same game.
        let mut engine = cfg.engine();
        let openings =
            parse_openings::<Tensor>(builtin(tensorchess_rules::VariantKind::Tensor)).unwrap();
        let again = play_game::<Tensor>(&mut engine, &openings, &cfg, 1);
        let stored = data.games.iter().find(|g| g.index == 1).unwrap();
        assert_eq!(again.samples.first(), stored.samples.first());
    }

    #[test]
    fn chessence_games_record_hands() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.data");
        let cfg = DatagenConfig {
            games: 1,
            nodes: 200,
            random_plies: 0,
            threads: 1,
            seed: 1,
            use_nnue: false,
            network: None,
        };
        run::<Chessence>(&cfg, &path, false).unwrap();
        let data = read_file::<Chessence>(&path).unwrap();
        assert!(data.games[0].samples.iter().any(|s| s.hands != [0, 0]));
    }

    #[test]
    fn the_network_can_score_the_positions() {
        let hand_made = DatagenConfig {
            games: 1,
            nodes: 300,
            random_plies: 2,
            threads: 1,
            seed: 3,
            use_nnue: false,
            network: None,
        };
        let nnue = DatagenConfig {
            use_nnue: true,
            ..hand_made.clone()
        };
        let openings =
            parse_openings::<Tensor>(builtin(tensorchess_rules::VariantKind::Tensor)).unwrap();
        let a = play_game::<Tensor>(&mut hand_made.engine(), &openings, &hand_made, 0);
        let b = play_game::<Tensor>(&mut nnue.engine(), &openings, &nnue, 0);
        assert!(nnue.engine().options.network_for::<Tensor>().is_some());
        // The same opening and random plies, played and scored by another
        // evaluation.
        assert!(!a.samples.is_empty() && !b.samples.is_empty());
        assert_ne!(a.samples, b.samples);
    }
}
