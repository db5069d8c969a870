//! Parsing `go`.

use std::time::Duration;
use tensorchess_engine::Limits;

/// A parsed `go` command.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// The search's limits (clocks, depth, nodes, mate, movetime, infinite).
    pub limits: Limits,
    /// `go ponder`: think on the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
    /// `go perft N` (an extension): count leaves instead of searching.
    pub perft: Option<u32>,
    /// `searchmoves ...`, as given.
    pub searchmoves: Vec<String>,
    /// Parts that could not be read, for an `info string`.
    pub problems: Vec<String>,
}

const KEYWORDS: [&str; 14] = [
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
    "go",
];

/// Parses the tokens after `go`. Never fails: what cannot be read is listed
/// in [`Go::problems`] and skipped.
pub fn parse_go(rest: &str) -> Go {
    let tokens: Vec<&str> = rest.split_whitespace().collect();
    let mut go = Go::default();
    let mut i = 0;
    // Clocks may be negative (a GUI's way of saying "flagged"): read as 0.
    let ms = |v: i64| Duration::from_millis(v.max(0) as u64);
    while i < tokens.len() {
        let key = tokens[i].to_ascii_lowercase();
        i += 1;
        let mut number = |go: &mut Go| -> Option<i64> {
            let t = tokens.get(i).copied();
            match t.and_then(|t| t.parse::<i64>().ok()) {
                Some(n) => {
                    i += 1;
                    Some(n)
                }
                None => {
                    go.problems.push(format!(
                        "'{key}' needs a number, found '{}'",
                        t.unwrap_or("nothing")
                    ));
                    // Skip a non-keyword token that was meant as the value.
                    if t.is_some_and(|t| !KEYWORDS.contains(&t.to_ascii_lowercase().as_str())) {
                        i += 1;
                    }
                    None
                }
            }
        };
        match key.as_str() {
            "wtime" => go.limits.time[0] = number(&mut go).map(ms),
            "btime" => go.limits.time[1] = number(&mut go).map(ms),
            "winc" => go.limits.inc[0] = number(&mut go).map(ms),
            "binc" => go.limits.inc[1] = number(&mut go).map(ms),
            "movestogo" => {
                go.limits.movestogo = number(&mut go).filter(|n| *n > 0).map(|n| n as u32)
            }
            "movetime" => go.limits.movetime = number(&mut go).map(ms),
            "depth" => {
                go.limits.depth = number(&mut go).map(|n| n.clamp(1, 200) as u32);
            }
            "nodes" => go.limits.nodes = number(&mut go).map(|n| n.max(1) as u64),
            "mate" => go.limits.mate = number(&mut go).map(|n| n.clamp(1, 100) as u32),
            "perft" => go.perft = number(&mut go).map(|n| n.clamp(0, 20) as u32),
            "infinite" => go.limits.infinite = true,
            "ponder" => go.ponder = true,
            "searchmoves" => {
                while i < tokens.len()
                    && !KEYWORDS.contains(&tokens[i].to_ascii_lowercase().as_str())
                {
                    go.searchmoves.push(tokens[i].to_string());
                    i += 1;
                }
            }
            other => go.problems.push(format!("unknown token '{other}'")),
        }
    }
    go
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_and_limits() {
        let g = parse_go("wtime 60000 btime 50000 winc 1000 binc 500 movestogo 20");
        assert_eq!(
            g.limits.time,
            [Some(Duration::from_secs(60)), Some(Duration::from_secs(50))]
        );
        assert_eq!(
            g.limits.inc,
            [
                Some(Duration::from_secs(1)),
                Some(Duration::from_millis(500))
            ]
        );
        assert_eq!(g.limits.movestogo, Some(20));
        assert!(g.problems.is_empty());
        let g = parse_go("depth 7 nodes 1000 movetime 250 mate 3 infinite ponder");
        assert_eq!(g.limits.depth, Some(7));
        assert_eq!(g.limits.nodes, Some(1000));
        assert_eq!(g.limits.movetime, Some(Duration::from_millis(250)));
        assert_eq!(g.limits.mate, Some(3));
        assert!(g.limits.infinite && g.ponder);
    }

    #[test]
    fn bad_parts_are_reported_and_skipped() {
        let g = parse_go("depth x nodes 500 wtime -20 bogus");
        assert_eq!(g.limits.depth, None);
        assert_eq!(g.limits.nodes, Some(500));
        assert_eq!(g.limits.time[0], Some(Duration::ZERO));
        assert_eq!(g.problems.len(), 2, "{:?}", g.problems);
        let g = parse_go("depth");
        assert_eq!(g.problems.len(), 1);
        let g = parse_go("searchmoves e2e4 d2d4 depth 3");
        assert_eq!(g.searchmoves, vec!["e2e4", "d2d4"]);
        assert_eq!(g.limits.depth, Some(3));
    }
}
