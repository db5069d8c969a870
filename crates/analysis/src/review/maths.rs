//! The numbers of a game review: winning chances, judgements and accuracy,
//! after lichess's definitions (read in lichess's source, written anew here):
//!
//! - winning chances: scalachess `core/src/main/scala/eval.scala`,
//!   `WinPercent.winningChances` (multiplier −0.00368208, lila PR #11148);
//! - judgements: lila `modules/tree/src/main/Advice.scala` (`CpAdvice`'s
//!   0.1 / 0.2 / 0.3 drops, `MateAdvice`'s ±700 / ±999 cp thresholds), and
//!   lila `modules/tree/src/main/Analysis.scala` (a move is judged only when
//!   the engine had another move in mind: `info.hasVariation`);
//! - accuracy: lila `modules/analyse/src/main/AccuracyPercent.scala`
//!   (`fromWinPercents`, `gameAccuracy`) with scalalib `Maths.scala`
//!   (population standard deviation, `weightedMean`, `harmonicMean` with
//!   each value at least 1).

use serde::{Deserialize, Serialize};
use tensorchess_engine::Eval;

/// An evaluation from one side's view: centipawns, or mate in N moves
/// (negative: being mated).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "lowercase")]
#[ts(rename = "ReviewScore")]
pub enum Score {
    /// Centipawns (100 is a pawn), positive when the side is better.
    Cp(i32),
    /// Mate in this many moves: positive when the side mates, negative
    /// when it is mated.
    Mate(i32),
}

impl Score {
    /// The engine's score (side to move's view) as a [`Score`].
    pub fn from_eval(e: Eval) -> Score {
        match e.mate_moves() {
            Some(m) => Score::Mate(m),
            None => Score::Cp(e.0),
        }
    }

    /// The same score from the other side's view.
    pub fn flip(self) -> Score {
        match self {
            Score::Cp(c) => Score::Cp(-c),
            Score::Mate(m) => Score::Mate(-m),
        }
    }

    /// The centipawns; `None` for a mate.
    pub fn cp(self) -> Option<i32> {
        match self {
            Score::Cp(c) => Some(c),
            Score::Mate(_) => None,
        }
    }

    /// The moves to mate; `None` for a centipawn score.
    pub fn mate(self) -> Option<i32> {
        match self {
            Score::Mate(m) => Some(m),
            Score::Cp(_) => None,
        }
    }

    /// PGN `%eval` form: pawns with two decimals, or `#N` / `#-N`.
    ///
    /// ```
    /// use tensorchess_analysis::review::Score;
    /// assert_eq!(Score::Cp(35).pgn(), "0.35");
    /// assert_eq!(Score::Cp(-120).pgn(), "-1.20");
    /// assert_eq!(Score::Mate(-3).pgn(), "#-3");
    /// ```
    pub fn pgn(self) -> String {
        match self {
            Score::Cp(c) => {
                let sign = if c < 0 { "-" } else { "" };
                let a = c.unsigned_abs();
                format!("{sign}{}.{:02}", a / 100, a % 100)
            }
            Score::Mate(m) => format!("#{m}"),
        }
    }
}

/// lichess's multiplier of centipawns in the winning-chances logistic.
const WIN_MULTIPLIER: f64 = 0.003_682_08;

/// Winning chances of a centipawn score, in [−1, 1]: 2/(1+e^(−0.00368208·cp)) − 1.
pub fn cp_win_chances(cp: f64) -> f64 {
    (2.0 / (1.0 + (-WIN_MULTIPLIER * cp).exp()) - 1.0).clamp(-1.0, 1.0)
}

/// Winning chances of a score for the side it is from: mates count as ±1.
pub fn win_chances(s: Score) -> f64 {
    match s {
        Score::Cp(c) => cp_win_chances(c as f64),
        Score::Mate(m) if m > 0 => 1.0,
        Score::Mate(_) => -1.0,
    }
}

/// lichess's win percent, in [0, 100], of a score for the side it is from:
/// centipawns capped at ±1000 and mates counted as ±1000 (the accuracy formulas use it).
pub fn win_percent(s: Score) -> f64 {
    let cp = match s {
        Score::Cp(c) => c.clamp(-1000, 1000),
        Score::Mate(m) if m > 0 => 1000,
        Score::Mate(_) => -1000,
    };
    50.0 + 50.0 * cp_win_chances(cp as f64)
}

/// How bad a move was.
#[derive(
    Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, ts_rs::TS,
)]
#[serde(rename_all = "lowercase")]
pub enum Judgement {
    /// `?!`: winning chances down by 0.1 to 0.2, or a mate let in or let
    /// go in an already decided game (see [`judge`]).
    Inaccuracy,
    /// `?`: winning chances down by 0.2 to 0.3, or a mate let in or let go
    /// in a nearly decided game.
    Mistake,
    /// `??`: winning chances down by 0.3 or more, or a mate let in or let
    /// go in an open game.
    Blunder,
}

impl Judgement {
    /// The PGN numeric annotation glyph: `$6` (?!), `$2` (?), `$4` (??).
    pub fn nag(self) -> u8 {
        match self {
            Judgement::Inaccuracy => 6,
            Judgement::Mistake => 2,
            Judgement::Blunder => 4,
        }
    }

    /// A word for people.
    pub fn name(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "Inaccuracy",
            Judgement::Mistake => "Mistake",
            Judgement::Blunder => "Blunder",
        }
    }
}

/// Judges a move from the mover's view, given the evaluation before it and
/// after it (both from the mover's view).
///
/// Centipawns to centipawns: a drop of the winning chances by at least 0.3 is
/// a blunder, 0.2 a mistake, 0.1 an inaccuracy. Otherwise mates decide, and
/// a move that was lost or won already is judged more mildly:
/// - a move that lets the opponent mate (centipawns before, being mated
///   after) is an inaccuracy when the mover stood below −999 cp anyway, a
///   mistake below −700, else a blunder;
/// - a move that lets a mate of one's own go (mating before; centipawns or
///   being mated after) is an inaccuracy when the mover still stands above
///   999 cp, a mistake above 700, else a blunder;
/// - a longer mate, or mate to mate of one side, is not judged.
///
/// ```
/// use tensorchess_analysis::review::{judge, Judgement, Score};
/// assert_eq!(judge(Score::Cp(0), Score::Cp(-300)), Some(Judgement::Blunder));
/// assert_eq!(judge(Score::Cp(0), Score::Cp(-20)), None);
/// assert_eq!(judge(Score::Cp(-1200), Score::Mate(-2)), Some(Judgement::Inaccuracy));
/// ```
pub fn judge(before: Score, after: Score) -> Option<Judgement> {
    match (before, after) {
        (Score::Cp(b), Score::Cp(a)) => {
            let drop = cp_win_chances(b as f64) - cp_win_chances(a as f64);
            if drop >= 0.3 {
                Some(Judgement::Blunder)
            } else if drop >= 0.2 {
                Some(Judgement::Mistake)
            } else if drop >= 0.1 {
                Some(Judgement::Inaccuracy)
            } else {
                None
            }
        }
        (Score::Cp(b), Score::Mate(a)) if a < 0 => Some(if b < -999 {
            Judgement::Inaccuracy
        } else if b < -700 {
            Judgement::Mistake
        } else {
            Judgement::Blunder
        }),
        (Score::Mate(b), after) if b > 0 && after.mate().is_none_or(|a| a < 0) => {
            // Being mated after counts as no centipawns at all (0).
            let a = after.cp().unwrap_or(0);
            Some(if a > 999 {
                Judgement::Inaccuracy
            } else if a > 700 {
                Judgement::Mistake
            } else {
                Judgement::Blunder
            })
        }
        _ => None,
    }
}

/// The accuracy of one move, in [0, 100], from the mover's win percent
/// before and after it (lichess's fitted curve 103.1668·e^(−0.04354·drop) − 3.1669,
/// plus 1 for the analysis' own uncertainty).
///
/// ```
/// use tensorchess_analysis::review::move_accuracy;
/// assert_eq!(move_accuracy(50.0, 60.0), 100.0);
/// assert!((move_accuracy(50.0, 40.0) - 64.58).abs() < 0.01);
/// ```
pub fn move_accuracy(win_before: f64, win_after: f64) -> f64 {
    if win_after >= win_before {
        return 100.0;
    }
    let drop = win_before - win_after;
    let raw =
        103.166_810_071_164_9 * (-0.043_544_153_867_539_51 * drop).exp() - 3.166_924_740_191_411;
    (raw + 1.0).clamp(0.0, 100.0)
}

/// Each side's accuracy over a game, as lichess computes it: the mean of a
/// volatility-weighted mean and a harmonic mean of the move accuracies.
///
/// `win_percents[i]` is White's win percent in the position before ply `i`
/// (so it holds one more entry than there are plies: the last is after the
/// last move); `white_first` says whether White made the first move.
/// Each move is weighted by the standard deviation (population, clamped to
/// [0.5, 12]) of White's win percent over a window of
/// `clamp(plies / 10, 2, 8)` positions (the first windows repeat the opening
/// one, so there is one window per move). `None` for a side without moves.
///
/// ```
/// use tensorchess_analysis::review::game_accuracy;
/// let (w, b) = game_accuracy(&[55.0, 55.0, 55.0], true);
/// assert_eq!((w, b), (Some(100.0), Some(100.0)));
/// ```
pub fn game_accuracy(win_percents: &[f64], white_first: bool) -> (Option<f64>, Option<f64>) {
    let plies = win_percents.len().saturating_sub(1);
    if plies == 0 {
        return (None, None);
    }
    let window = (plies / 10).clamp(2, 8);
    let window = window.min(win_percents.len());
    let mut windows: Vec<&[f64]> = Vec::with_capacity(plies);
    for _ in 0..window.saturating_sub(2) {
        windows.push(&win_percents[..window]);
    }
    windows.extend(win_percents.windows(window));
    let weights: Vec<f64> = windows
        .iter()
        .map(|w| std_dev(w).clamp(0.5, 12.0))
        .collect();
    // [weighted sum, weight sum, reciprocal sum, count] for White and Black.
    let mut acc = [[0.0f64; 4]; 2];
    for i in 0..plies {
        let white_moves = (i % 2 == 0) == white_first;
        let (before, after) = if white_moves {
            (win_percents[i], win_percents[i + 1])
        } else {
            (100.0 - win_percents[i], 100.0 - win_percents[i + 1])
        };
        let a = move_accuracy(before, after);
        let w = weights.get(i).copied().unwrap_or(0.5);
        let side = &mut acc[usize::from(!white_moves)];
        side[0] += a * w;
        side[1] += w;
        side[2] += 1.0 / a.max(1.0);
        side[3] += 1.0;
    }
    let side = |s: [f64; 4]| {
        (s[3] > 0.0 && s[1] > 0.0).then(|| {
            let weighted = s[0] / s[1];
            let harmonic = s[3] / s[2];
            (weighted + harmonic) / 2.0
        })
    };
    (side(acc[0]), side(acc[1]))
}

fn std_dev(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn win_chances_by_hand() {
        // 2/(1+e^(-0.368208)) - 1 = 2/(1+0.691978) - 1 = 0.182052
        assert!((cp_win_chances(100.0) - 0.182052).abs() < 1e-5);
        assert!((cp_win_chances(-100.0) + 0.182052).abs() < 1e-5);
        assert_eq!(cp_win_chances(0.0), 0.0);
        assert_eq!(win_chances(Score::Mate(2)), 1.0);
        assert_eq!(win_chances(Score::Mate(-1)), -1.0);
        // win percent caps at 1000 cp: 50 + 50 * (2/(1+e^-3.68208) - 1) = 97.5447
        assert!((win_percent(Score::Cp(5000)) - 97.5447).abs() < 1e-3);
        assert_eq!(win_percent(Score::Mate(3)), win_percent(Score::Cp(1000)));
    }

    #[test]
    fn judgements_by_hand() {
        // From 0: wc(-50) = -0.0918, wc(-60) = -0.1100, wc(-110) = -0.1998, wc(-115) = -0.2086.
        assert_eq!(judge(Score::Cp(0), Score::Cp(-50)), None);
        assert_eq!(
            judge(Score::Cp(0), Score::Cp(-60)),
            Some(Judgement::Inaccuracy)
        );
        assert_eq!(
            judge(Score::Cp(0), Score::Cp(-110)),
            Some(Judgement::Inaccuracy)
        );
        assert_eq!(
            judge(Score::Cp(0), Score::Cp(-115)),
            Some(Judgement::Mistake)
        );
        // wc(-170) = -0.3031: a blunder.
        assert_eq!(
            judge(Score::Cp(0), Score::Cp(-170)),
            Some(Judgement::Blunder)
        );
        // Far ahead, the same centipawn loss costs little winning chance.
        assert_eq!(judge(Score::Cp(900), Score::Cp(700)), None);
        // Mates.
        assert_eq!(
            judge(Score::Cp(100), Score::Mate(-3)),
            Some(Judgement::Blunder)
        );
        assert_eq!(
            judge(Score::Cp(-800), Score::Mate(-3)),
            Some(Judgement::Mistake)
        );
        assert_eq!(
            judge(Score::Mate(2), Score::Cp(1200)),
            Some(Judgement::Inaccuracy)
        );
        assert_eq!(
            judge(Score::Mate(2), Score::Cp(800)),
            Some(Judgement::Mistake)
        );
        assert_eq!(
            judge(Score::Mate(2), Score::Cp(100)),
            Some(Judgement::Blunder)
        );
        assert_eq!(
            judge(Score::Mate(2), Score::Mate(-4)),
            Some(Judgement::Blunder)
        );
        assert_eq!(judge(Score::Mate(2), Score::Mate(5)), None);
        assert_eq!(judge(Score::Mate(-5), Score::Mate(-1)), None);
        assert_eq!(judge(Score::Cp(300), Score::Mate(2)), None);
    }

    #[test]
    fn move_accuracy_by_hand() {
        // Drop 10: 103.16681 * e^-0.4354415 - 3.16692 + 1 = 103.16681 * 0.646951 - 2.16692 = 64.5798.
        assert!((move_accuracy(60.0, 50.0) - 64.5798).abs() < 1e-3);
        // No drop: 103.16681 - 3.16692 + 1 = 100.99989, capped at 100.
        assert_eq!(move_accuracy(50.0, 50.0), 100.0);
        // Drop 100 (won to lost): 103.16681 * e^-4.354415 - 2.16692 = 1.3255 - 2.1669 < 0 => 0.
        assert_eq!(move_accuracy(100.0, 0.0), 0.0);
    }

    #[test]
    fn game_accuracy_by_hand() {
        // Four plies, window 2. White's win percents: 50, 50, 40, 40, 40.
        // Windows: [50,50] [50,40] [40,40] [40,40] -> sd 0, 5, 0, 0 -> weights 0.5, 5, 0.5, 0.5.
        // Ply 0 (White) 50->50: 100. Ply 1 (Black) 50->60 for Black: 100.
        // Ply 2 (White) 40->40: 100. Ply 3 (Black) 60->60: 100.
        let (w, b) = game_accuracy(&[50.0, 50.0, 40.0, 40.0, 40.0], true);
        assert_eq!((w, b), (Some(100.0), Some(100.0)));
        // White drops 60 -> 50 on ply 2: accuracy 64.5798 with weight sd([60,50]) = 5.
        // White: weighted (100*0.5 + 64.5798*5)/5.5 = 67.800, harmonic 2/(1/100+1/64.5798) = 78.478;
        // mean 73.139.
        let (w, b) = game_accuracy(&[60.0, 60.0, 60.0, 50.0, 50.0], true);
        let w = w.unwrap();
        assert!((w - 73.139).abs() < 0.01, "{w}");
        assert_eq!(b, Some(100.0));
    }
}
