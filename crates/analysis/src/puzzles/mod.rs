//! Puzzles: mined from engine games by lichess-puzzler's rules, stored in
//! lichess's puzzle CSV columns, shipped for Tensor Chess and Chessence.
//!
//! - [`mine_game`] finds the puzzles of one game (the rules are in
//!   [`mine`]'s documentation), [`mine_games`] runs it over many games on
//!   several threads;
//! - [`Puzzle`], [`read_csv`] and [`write_csv`] are the file format;
//! - [`check_puzzle`] and [`recheck_first_move`] check a record;
//! - [`shipped`] gives the puzzle files built into the binary.
//!
//! `docs/puzzles.md` has the recipe of the shipped files.

pub mod check;
mod csv;
mod evals;
pub mod mine;
pub mod themes;

pub use check::{check_puzzle, recheck_first_move, replay_puzzle};
pub use csv::{HEADER, Puzzle, PuzzleCsvError, read_csv, write_csv};
pub use evals::move_evals;
pub use mine::{INITIAL_DEVIATION, MIN_PLY, MineSettings, estimate_rating, mine_game, puzzle_id};

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use tensorchess_engine::eval::Evaluate;
use tensorchess_engine::{Engine, Options};
use tensorchess_rules::{Game, VariantKind};

/// The shipped puzzle file of a game, as text (`None` for orthodox chess,
/// which has lichess's own).
pub fn shipped_csv(kind: VariantKind) -> Option<&'static str> {
    match kind {
        VariantKind::Tensor => Some(include_str!("../../puzzles/tensor.csv")),
        VariantKind::Chessence => Some(include_str!("../../puzzles/chessence.csv")),
        VariantKind::Chess => None,
    }
}

/// The shipped puzzles of a game (empty for orthodox chess).
pub fn shipped(kind: VariantKind) -> Vec<Puzzle> {
    // The shipped files are checked by the tests: they always read.
    shipped_csv(kind)
        .and_then(|t| read_csv(t).ok())
        .unwrap_or_default()
}

/// A game to mine: its name in the puzzles' `GameUrl`, the game, and its
/// own evaluation after each move (White's view; see [`mine_game`]).
#[derive(Clone, Debug)]
pub struct MineInput<V: Evaluate> {
    /// The game's name (`FILE#N`), in each of its puzzles' `GameUrl`.
    pub source: String,
    /// The game, with its moves.
    pub game: Game<V>,
    /// The game's own evaluation after each move (White's view, from its
    /// `[%eval]` comments); `None` where it has none (the engine then
    /// scans the position).
    pub evals: Vec<Option<crate::review::Score>>,
}

/// Progress of [`mine_games`]: games done, games in all, puzzles found.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MineProgress {
    /// Games mined so far.
    pub games: usize,
    /// Games to mine.
    pub total: usize,
    /// Puzzles found so far.
    pub puzzles: usize,
}

/// Mines many games on `threads` threads (one engine each). `on_game` is called as each game is
/// done, in the order they finish, with that game's puzzles; setting
/// `stop` ends the run after the games in progress. Returns every puzzle,
/// in the order of the games.
pub fn mine_games<V: Evaluate>(
    games: &[MineInput<V>],
    settings: &MineSettings,
    threads: usize,
    stop: &AtomicBool,
    mut on_game: impl FnMut(MineProgress, &[Puzzle]),
) -> Vec<Puzzle> {
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<(usize, Vec<Puzzle>)>();
    let mut results: Vec<Option<Vec<Puzzle>>> = vec![None; games.len()];
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            let tx = tx.clone();
            let next = &next;
            scope.spawn(move || {
                let mut engine = Engine::new(Options {
                    hash_mb: 32,
                    // The shipped puzzles' recipe: the hand-made evaluation.
                    use_nnue: false,
                    ..Options::default()
                });
                loop {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(input) = games.get(i) else {
                        break;
                    };
                    let found = mine_game(
                        &mut engine,
                        &input.game,
                        settings,
                        &input.source,
                        &input.evals,
                    );
                    if tx.send((i, found)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut progress = MineProgress {
            games: 0,
            total: games.len(),
            puzzles: 0,
        };
        for (i, found) in rx {
            progress.games += 1;
            progress.puzzles += found.len();
            on_game(progress, &found);
            results[i] = Some(found);
        }
    });
    results.into_iter().flatten().flatten().collect()
}
