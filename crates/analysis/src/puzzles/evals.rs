//! The `[%eval]` comments of a PGN game's main line (as `selfplay --pgn`
//! and lichess write them): the miner uses them instead of searching every
//! position itself, as lichess-puzzler uses the games' own evaluations.

use crate::review::Score;

/// For each main-line move of the one game in `text`, the evaluation in the
/// comment after it (White's view), if any.
///
/// ```
/// use tensorchess_analysis::puzzles::move_evals;
/// use tensorchess_analysis::review::Score;
/// let e = move_evals("[Event \"x\"]\n\n1. e4 { [%eval 0.35] } e5 (1... c5 { [%eval 1.0] }) 2. Qh5 { [%eval #-3] } *");
/// assert_eq!(e, vec![Some(Score::Cp(35)), None, Some(Score::Mate(-3))]);
/// ```
pub fn move_evals(text: &str) -> Vec<Option<Score>> {
    // A text the rules' reader refuses has no evaluations to offer: the
    // miner then searches its positions itself.
    let Ok(games) = tensorchess_rules::pgn::parse_pgn_tree(text) else {
        return Vec::new();
    };
    let Some(game) = games.into_iter().next() else {
        return Vec::new();
    };
    game.line
        .moves
        .iter()
        // The last comment with an evaluation counts, as a reader of the
        // PGN would take it.
        .map(|m| m.comments.iter().rev().find_map(|c| parse_eval(c)))
        .collect()
}

/// `[%eval 0.35]` or `[%eval #-3]` in a comment.
fn parse_eval(comment: &str) -> Option<Score> {
    let rest = &comment[comment.find("[%eval")? + 6..];
    let value = rest.trim_start().split([']', ' ', ',']).next()?;
    match value.strip_prefix('#') {
        Some(m) => m.parse().ok().map(Score::Mate),
        None => value
            .parse::<f64>()
            .ok()
            .filter(|p| p.is_finite() && p.abs() < 1000.0)
            .map(|p| Score::Cp((p * 100.0).round() as i32)),
    }
}
