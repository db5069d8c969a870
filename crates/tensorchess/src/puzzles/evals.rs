//! The `[%eval]` comments of a PGN game's main line (as `selfplay --pgn`
//! and lichess write them): the miner uses them instead of searching every
//! position itself, as lichess-puzzler uses the games' own evaluations.

use crate::review::Score;

/// For each main-line move of the one game in `text`, the evaluation in the
/// comment after it (White's view), if any.
///
/// ```
/// use tensorchess::puzzles::move_evals;
/// use tensorchess::review::Score;
/// let e = move_evals("[Event \"x\"]\n\n1. e4 { [%eval 0.35] } e5 (1... c5 { [%eval 1.0] }) 2. Qh5 { [%eval #-3] } *");
/// assert_eq!(e, vec![Some(Score::Cp(35)), None, Some(Score::Mate(-3))]);
/// ```
pub fn move_evals(text: &str) -> Vec<Option<Score>> {
    let mut out: Vec<Option<Score>> = Vec::new();
    let mut chars = text.chars().peekable();
    let mut depth = 0usize;
    while let Some(c) = chars.next() {
        match c {
            '[' if depth == 0 && out.is_empty() => {
                // A tag: skip to its end (quoted values may hold ']').
                let mut quoted = false;
                for c in chars.by_ref() {
                    match c {
                        '"' => quoted = !quoted,
                        ']' if !quoted => break,
                        _ => {}
                    }
                }
            }
            '{' => {
                let comment: String = chars.by_ref().take_while(|&c| c != '}').collect();
                if depth == 0 {
                    if let (Some(last), Some(e)) = (out.last_mut(), parse_eval(&comment)) {
                        *last = Some(e);
                    }
                }
            }
            ';' => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            c if c.is_whitespace() => {}
            c => {
                let mut tok = String::from(c);
                while let Some(&n) = chars.peek() {
                    if n.is_whitespace() || "{}();[".contains(n) {
                        break;
                    }
                    tok.push(n);
                    chars.next();
                }
                if depth > 0 || is_not_a_move(&tok) {
                    continue;
                }
                out.push(None);
            }
        }
    }
    out
}

/// Move numbers, results and NAGs.
fn is_not_a_move(tok: &str) -> bool {
    let t = tok.trim_start_matches(|c: char| c.is_ascii_digit());
    let numbered = t.len() < tok.len() && t.starts_with('.');
    let rest = if numbered {
        t.trim_start_matches('.')
    } else {
        tok
    };
    rest.is_empty() || tok.starts_with('$') || matches!(tok, "1-0" | "0-1" | "1/2-1/2" | "*")
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
