//! Game review: every position of a game analysed, each move judged
//! (inaccuracy, mistake, blunder) with the engine's better move, and each
//! side's accuracy, after lichess's definitions ([`maths`]); printed as
//! annotated PGN ([`Review::to_pgn`]) and serialisable (the server stores
//! a review with its game as JSON).
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use tensorchess_analysis::review::{review_game, Budget, ReviewSettings};
//! use tensorchess_rules::{Chess, Game};
//! let mut game = Game::<Chess>::new();
//! for m in ["e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"] {
//!     game.push_str(m).unwrap();
//! }
//! let settings = ReviewSettings { budget: Budget::Nodes(5_000), ..ReviewSettings::default() };
//! let review = review_game(&game, &settings, &mut |_| {}, &AtomicBool::new(false)).unwrap();
//! assert_eq!(review.plies.len(), 7);
//! assert!(review.plies[5].judgement.is_some()); // 3... Nf6?? allows mate
//! assert!(review.to_pgn(&[], "1-0").contains("[WhiteAccuracy \""));
//! ```

mod annotate;
pub mod maths;

pub use maths::{
    Judgement, Score, cp_win_chances, game_accuracy, judge, move_accuracy, win_chances, win_percent,
};

use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tensorchess_engine::eval::Evaluate;
use tensorchess_engine::{Engine, Eval, Limits, Options, SearchHandler};
use tensorchess_rules::{Color, Game, Move, Position, san};
use tensorchess_rules::{VariantGame, with_game};

/// The analysis budget of each position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "lowercase")]
#[ts(rename = "ReviewBudget")]
pub enum Budget {
    /// Nodes per position.
    Nodes(u64),
    /// Milliseconds per position.
    Movetime(u64),
}

impl Budget {
    fn limits(self) -> Limits {
        match self {
            Budget::Nodes(n) => Limits::nodes(n.max(1)),
            Budget::Movetime(ms) => Limits::movetime(Duration::from_millis(ms.max(1))),
        }
    }
}

/// How to review.
#[derive(Clone, Debug)]
pub struct ReviewSettings {
    /// How long each position is searched (200,000 nodes by default).
    pub budget: Budget,
    /// Lines searched per position (2 by default: the second line shows
    /// what else the mover had).
    pub multipv: usize,
    /// Plies of the better move's line kept.
    pub line_plies: usize,
    /// Hash of the engine [`review_game`] makes, in MiB.
    pub hash_mb: usize,
}

impl Default for ReviewSettings {
    fn default() -> Self {
        ReviewSettings {
            budget: Budget::Nodes(200_000),
            multipv: 2,
            line_plies: 6,
            hash_mb: 32,
        }
    }
}

/// Progress of a review: positions analysed of all.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct ReviewProgress {
    /// Positions analysed so far.
    pub done: usize,
    /// Positions to analyse: the start and one after each move.
    pub total: usize,
}

/// Why a review did not finish.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReviewError {
    /// The stop flag was set before every position was analysed.
    #[error("the review was stopped")]
    Stopped,
}

/// A side, for JSON.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "lowercase")]
#[ts(rename = "ReviewSide")]
pub enum Side {
    /// White, `"white"` in JSON.
    White,
    /// Black, `"black"` in JSON.
    Black,
}

impl From<Color> for Side {
    fn from(c: Color) -> Side {
        match c {
            Color::White => Side::White,
            Color::Black => Side::Black,
        }
    }
}

/// The engine's better move in the position before a judged move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct BetterMove {
    /// RULES 4.2 move string.
    pub uci: String,
    /// The better move in SAN.
    pub san: String,
    /// The engine's line from that position, starting with the better move,
    /// in SAN (at most [`ReviewSettings::line_plies`] moves).
    pub line_san: Vec<String>,
    /// The same line as move strings.
    pub line_uci: Vec<String>,
    /// Its evaluation, from White's view.
    pub eval: Score,
}

/// One move of the game, reviewed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct PlyReview {
    /// 1 for the game's first move.
    pub ply: usize,
    /// The side that played it.
    pub mover: Side,
    /// The move string (RULES 4.2).
    pub uci: String,
    /// The move in SAN.
    pub san: String,
    /// Evaluation after the move, from White's view; `None` when the move
    /// ended the game with a win (there is nothing left to evaluate).
    pub eval: Option<Score>,
    /// The mover's winning chances before the move, in [−1, 1].
    pub win_before: f64,
    /// The mover's winning chances after the move, in [−1, 1].
    pub win_after: f64,
    /// This move's accuracy, 0–100.
    pub accuracy: f64,
    /// How bad the move was; `None` for a good enough move (or one the
    /// engine had no other move to compare with).
    pub judgement: Option<Judgement>,
    /// For judged moves: what the engine preferred.
    pub better: Option<BetterMove>,
}

/// One side's summary.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct SideSummary {
    /// Game accuracy, 0–100 (`None` without moves).
    pub accuracy: Option<f64>,
    /// Moves judged [`Judgement::Inaccuracy`].
    pub inaccuracies: usize,
    /// Moves judged [`Judgement::Mistake`].
    pub mistakes: usize,
    /// Moves judged [`Judgement::Blunder`].
    pub blunders: usize,
}

/// A reviewed game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct Review {
    /// `tensor`, `chess` or `chessence`.
    pub variant: String,
    /// The position the game started from.
    pub start_fen: String,
    /// The move number of the first move (for printing).
    pub first_move_number: u32,
    /// White made the first move (false when the game starts with Black
    /// to move).
    pub white_first: bool,
    /// How long each position was searched.
    pub budget: Budget,
    /// Evaluation of the start position, from White's view.
    pub start_eval: Option<Score>,
    /// Every move, in order.
    pub plies: Vec<PlyReview>,
    /// White's accuracy and errors.
    pub white: SideSummary,
    /// Black's accuracy and errors.
    pub black: SideSummary,
}

/// A search handler that stops when the flag is set.
struct StopFlag<'a>(&'a AtomicBool);

impl SearchHandler for StopFlag<'_> {
    fn should_stop(&mut self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// What the engine said of one position.
#[derive(Clone, Debug)]
enum Verdict {
    /// Side to move's score and the lines, best first.
    Searched {
        score: Score,
        lines: Vec<(Vec<Move>, Eval)>,
    },
    /// The game is over: won by the side that just moved, or drawn.
    Over(Option<Color>),
}

impl Verdict {
    /// The score from the side to move's view (a lost end is "mated").
    fn score(&self, to_move: Color) -> Score {
        match self {
            Verdict::Searched { score, .. } => *score,
            Verdict::Over(Some(w)) if *w == to_move => Score::Mate(1),
            Verdict::Over(Some(_)) => Score::Mate(-1),
            Verdict::Over(None) => Score::Cp(0),
        }
    }
}

/// Reviews a game with an engine of its own (see [`review_game_with`]).
pub fn review_game<V: Evaluate>(
    game: &Game<V>,
    settings: &ReviewSettings,
    progress: &mut dyn FnMut(ReviewProgress),
    stop: &AtomicBool,
) -> Result<Review, ReviewError> {
    let mut engine = Engine::new(Options {
        hash_mb: settings.hash_mb,
        ..Options::default()
    });
    review_game_with(&mut engine, game, settings, progress, stop)
}

/// Reviews a game of any variant chosen at run time.
pub fn review_any_game(
    engine: &mut Engine,
    game: &VariantGame,
    settings: &ReviewSettings,
    progress: &mut dyn FnMut(ReviewProgress),
    stop: &AtomicBool,
) -> Result<Review, ReviewError> {
    with_game!(game, g => review_game_with(engine, g, settings, progress, stop))
}

/// Reviews a game with the given engine: each position is searched once
/// (MultiPV `settings.multipv`), from the last to the first so that what
/// the engine learns of the end helps it judge the moves before. `progress`
/// is called after each position; setting `stop` ends the review at once
/// with [`ReviewError::Stopped`]. The hand-made evaluation judges (the
/// marks' thresholds in winning chances were fitted on its scale; a
/// network's scores run steeper in lopsided positions). The engine's
/// MultiPV and evaluation are restored after.
pub fn review_game_with<V: Evaluate>(
    engine: &mut Engine,
    game: &Game<V>,
    settings: &ReviewSettings,
    progress: &mut dyn FnMut(ReviewProgress),
    stop: &AtomicBool,
) -> Result<Review, ReviewError> {
    let positions = game.positions();
    let total = positions.len();
    let saved_multipv = engine.options.multipv;
    let saved_nnue = engine.options.use_nnue;
    engine.options.multipv = settings.multipv.max(1);
    engine.options.use_nnue = false;
    engine.new_game();
    let limits = settings.budget.limits();
    let mut verdicts: Vec<Option<Verdict>> = vec![None; total];
    let mut result = Ok(());
    for i in (0..total).rev() {
        if stop.load(Ordering::Relaxed) {
            result = Err(ReviewError::Stopped);
            break;
        }
        let prefix = &positions[..=i];
        verdicts[i] = Some(judge_position(engine, game, prefix, &limits, stop));
        if stop.load(Ordering::Relaxed) {
            result = Err(ReviewError::Stopped);
            break;
        }
        progress(ReviewProgress {
            done: total - i,
            total,
        });
    }
    engine.options.multipv = saved_multipv;
    engine.options.use_nnue = saved_nnue;
    result?;
    let verdicts: Vec<Verdict> = verdicts.into_iter().flatten().collect();
    Ok(build(game, &verdicts, settings))
}

/// Searches the last position of `prefix`, or says how the game ended there.
fn judge_position<V: Evaluate>(
    engine: &mut Engine,
    game: &Game<V>,
    prefix: &[Position<V>],
    limits: &Limits,
    stop: &AtomicBool,
) -> Verdict {
    let pos = prefix[prefix.len() - 1];
    // Only the last position can end the game: the game went on from the others.
    if prefix.len() == game.positions().len()
        && let Some(o) = game.outcome()
    {
        return Verdict::Over(o.winner());
    }
    let start = prefix
        .len()
        .saturating_sub(pos.halfmove_clock() as usize + 1);
    let r = engine.search(&prefix[start..], limits, &mut StopFlag(stop));
    let lines = if r.lines.is_empty() {
        vec![(vec![r.best], r.score)]
    } else {
        r.lines
    };
    Verdict::Searched {
        score: Score::from_eval(lines[0].1),
        lines,
    }
}

fn white_view(s: Score, to_move: Color) -> Score {
    match to_move {
        Color::White => s,
        Color::Black => s.flip(),
    }
}

/// Turns the verdicts of every position into the review.
fn build<V: Evaluate>(game: &Game<V>, verdicts: &[Verdict], settings: &ReviewSettings) -> Review {
    let positions = game.positions();
    let start = game.start();
    let mut plies = Vec::with_capacity(game.moves().len());
    let mut summary = [SideSummary::default(), SideSummary::default()];
    let win_percents: Vec<f64> = positions
        .iter()
        .zip(verdicts)
        .map(|(p, v)| win_percent(white_view(v.score(p.turn()), p.turn())))
        .collect();
    for (i, &m) in game.moves().iter().enumerate() {
        let pos = &positions[i];
        let mover = pos.turn();
        let before = verdicts[i].score(mover);
        let after_pos = &positions[i + 1];
        let after = verdicts[i + 1].score(after_pos.turn()).flip();
        let eval = match &verdicts[i + 1] {
            Verdict::Over(Some(_)) => None,
            v => Some(white_view(v.score(after_pos.turn()), after_pos.turn())),
        };
        let wp = |p: f64, c: Color| if c == Color::White { p } else { 100.0 - p };
        let accuracy = move_accuracy(wp(win_percents[i], mover), wp(win_percents[i + 1], mover));
        let (judgement, better) = match &verdicts[i] {
            // Judged only when the engine had another move in mind (lichess's hasVariation).
            Verdict::Searched { lines, .. } if lines[0].0.first().is_some_and(|&b| b != m) => {
                let j = judge(before, after);
                let better = j.map(|_| better_move(pos, &lines[0], settings.line_plies));
                (j, better)
            }
            _ => (None, None),
        };
        let side = &mut summary[mover.index()];
        match judgement {
            Some(Judgement::Inaccuracy) => side.inaccuracies += 1,
            Some(Judgement::Mistake) => side.mistakes += 1,
            Some(Judgement::Blunder) => side.blunders += 1,
            None => {}
        }
        plies.push(PlyReview {
            ply: i + 1,
            mover: mover.into(),
            uci: pos.move_string(m),
            san: san::san(pos, m),
            eval,
            win_before: win_chances(before),
            win_after: win_chances(after),
            accuracy,
            judgement,
            better,
        });
    }
    let (white, black) = game_accuracy(&win_percents, start.turn() == Color::White);
    summary[0].accuracy = white;
    summary[1].accuracy = black;
    let [white, black] = summary;
    Review {
        variant: V::KIND.name().to_string(),
        start_fen: start.fen(),
        first_move_number: start.fullmoves(),
        white_first: start.turn() == Color::White,
        budget: settings.budget,
        start_eval: verdicts
            .first()
            .map(|v| white_view(v.score(start.turn()), start.turn())),
        plies,
        white,
        black,
    }
}

/// The engine's line as a better move: its first moves, in SAN and as move strings.
fn better_move<V: Evaluate>(
    pos: &Position<V>,
    line: &(Vec<Move>, Eval),
    plies: usize,
) -> BetterMove {
    let mut p = *pos;
    let mut line_san = Vec::new();
    let mut line_uci = Vec::new();
    for &m in line.0.iter().take(plies.max(1)) {
        if !p.is_legal(m) {
            break;
        }
        line_san.push(san::san(&p, m));
        line_uci.push(p.move_string(m));
        p = p.play(m);
    }
    BetterMove {
        uci: line_uci.first().cloned().unwrap_or_default(),
        san: line_san.first().cloned().unwrap_or_default(),
        line_san,
        line_uci,
        eval: white_view(Score::from_eval(line.1), pos.turn()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tensorchess_rules::Tensor;

    #[test]
    fn the_marks_are_the_hand_made_evaluations_whatever_the_engine_evaluates_with() {
        let mut game = Game::<Tensor>::new();
        for m in ["e4", "e5", "d4", "exd4", "h3"] {
            game.push_str(m).unwrap();
        }
        let settings = ReviewSettings {
            budget: Budget::Nodes(3000),
            ..ReviewSettings::default()
        };
        let stop = AtomicBool::new(false);
        let mut reviews = Vec::new();
        for use_nnue in [true, false] {
            let mut engine = Engine::new(Options {
                use_nnue,
                multipv: 3,
                ..Options::default()
            });
            reviews
                .push(review_game_with(&mut engine, &game, &settings, &mut |_| {}, &stop).unwrap());
            // The engine's own settings come back as they were.
            assert_eq!(engine.options.use_nnue, use_nnue);
            assert_eq!(engine.options.multipv, 3);
        }
        assert_eq!(reviews[0], reviews[1]);
    }
}
