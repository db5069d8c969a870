//! A review as annotated PGN: `[%eval]` comments, NAGs on judged moves,
//! the better move as a variation after mistakes and blunders, and the
//! accuracies as tags.

use super::{Judgement, Review};
use tensorchess_rules::pgn::{PgnLine, PgnNode, PgnTree, game_tags};
use tensorchess_rules::{Color, VariantKind};

/// The tags a review writes itself, besides the game's usual ones.
const ACCURACY: [&str; 2] = ["WhiteAccuracy", "BlackAccuracy"];

impl Review {
    /// The reviewed game as PGN. `tags` are the game's own (from the PGN it
    /// was read from, say); `Result` is set to `result`, the `Variant` and
    /// `SetUp`/`FEN` tags come from the review, and `WhiteAccuracy` /
    /// `BlackAccuracy` (one decimal) are added. Written by the rules
    /// crate's PGN writer ([`PgnTree::to_pgn`]).
    pub fn to_pgn(&self, tags: &[(String, String)], result: &str) -> String {
        let kind: Option<VariantKind> = self.variant.parse().ok();
        let setup = kind
            .is_none_or(|k| k.start_fen() != self.start_fen)
            .then_some(self.start_fen.as_str());
        let theirs: Vec<(String, String)> = tags
            .iter()
            .filter(|(k, _)| !ACCURACY.iter().any(|a| a.eq_ignore_ascii_case(k)))
            .cloned()
            .collect();
        let mut all = game_tags(&theirs, result, kind, setup);
        for (name, side) in ACCURACY.into_iter().zip([&self.white, &self.black]) {
            if let Some(a) = side.accuracy {
                all.push((name.to_string(), format!("{a:.1}")));
            }
        }
        let moves = self
            .plies
            .iter()
            .map(|p| {
                let mut comment = String::new();
                if let Some(e) = p.eval {
                    comment.push_str(&format!("[%eval {}]", e.pgn()));
                }
                if let (Some(j), Some(b)) = (p.judgement, &p.better) {
                    comment.push_str(&format!(" {}. {} was best.", j.name(), b.san));
                }
                // The better move's line, after mistakes and blunders.
                let variation = p
                    .better
                    .as_ref()
                    .filter(|_| {
                        matches!(p.judgement, Some(Judgement::Mistake | Judgement::Blunder))
                    })
                    .map(|b| PgnLine {
                        comments: Vec::new(),
                        moves: b
                            .line_san
                            .iter()
                            .map(|s| PgnNode {
                                san: s.clone(),
                                ..PgnNode::default()
                            })
                            .collect(),
                    });
                PgnNode {
                    san: p.san.clone(),
                    nags: p.judgement.map(Judgement::nag).into_iter().collect(),
                    comments: Some(comment)
                        .filter(|c| !c.trim().is_empty())
                        .into_iter()
                        .collect(),
                    variations: variation.into_iter().collect(),
                }
            })
            .collect();
        let tree = PgnTree {
            tags: all,
            line: PgnLine {
                comments: Vec::new(),
                moves,
            },
            result: result.to_string(),
        };
        let first = if self.white_first {
            Color::White
        } else {
            Color::Black
        };
        tree.to_pgn(self.first_move_number, first)
    }
}
