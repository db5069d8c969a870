//! `GET /api/puzzles/…` and a try's result.

use crate::learning::puzzles::{PuzzleOffer, PuzzleTry, ThemeCounts};
use crate::store::RatingRecord;
use serde::Serialize;

/// A rating as the puzzle pages show it.
#[derive(Serialize, Clone, Copy, Debug, PartialEq, ts_rs::TS)]
pub struct PuzzleRatingView {
    /// Rounded.
    pub rating: i32,
    /// The rating deviation, rounded.
    pub rd: i32,
    /// Rated tries.
    pub games: u32,
    /// Still uncertain (a deviation above 110, as lichess's puzzles).
    pub provisional: bool,
}

impl From<&RatingRecord> for PuzzleRatingView {
    fn from(r: &RatingRecord) -> PuzzleRatingView {
        PuzzleRatingView {
            rating: r.rating.round() as i32,
            rd: r.rd.round() as i32,
            games: r.games,
            provisional: r.rd > crate::rating::PROVISIONAL_RD,
        }
    }
}

/// A puzzle to solve.
#[derive(Serialize, Clone, Debug, PartialEq, ts_rs::TS)]
pub struct PuzzleView {
    /// The puzzle's id (`GET /api/puzzles/{id}`).
    pub id: String,
    /// The game's name: `tensor`, `chess` or `chessence`.
    pub variant: tensorchess_rules::VariantKind,
    /// The position before the opponent's move.
    pub fen: String,
    /// The opponent's move, then the solution (solver, opponent, …).
    pub moves: Vec<String>,
    /// The side the player solves for.
    pub color: tensorchess_rules::Color,
    /// What the solution does (`mateIn2`, `ricochet`, ...).
    pub themes: Vec<String>,
    /// The puzzle's own rating.
    pub rating: PuzzleRatingView,
    /// The asker's puzzle rating in this game.
    pub player: PuzzleRatingView,
}

impl From<PuzzleOffer> for PuzzleView {
    fn from(o: PuzzleOffer) -> PuzzleView {
        PuzzleView {
            id: o.puzzle.id.clone(),
            variant: o.kind,
            fen: o.puzzle.fen.clone(),
            moves: o.puzzle.moves.clone(),
            color: o.solver(),
            themes: o.puzzle.themes.clone(),
            rating: (&o.rating).into(),
            player: (&o.player).into(),
        }
    }
}

/// What a try changed.
#[derive(Serialize, Clone, Debug, PartialEq, ts_rs::TS)]
pub struct PuzzleResultView {
    /// The puzzle's id.
    pub id: String,
    /// The player found the solution.
    pub solved: bool,
    /// The ratings changed (a first try outside a streak).
    pub rated: bool,
    /// The player's puzzle rating after the try.
    pub player: PuzzleRatingView,
    /// How the player's rating changed (rounded; 0 when not rated).
    pub player_diff: i32,
    /// The puzzle's rating after the try.
    pub puzzle: PuzzleRatingView,
}

impl From<PuzzleTry> for PuzzleResultView {
    fn from(t: PuzzleTry) -> PuzzleResultView {
        PuzzleResultView {
            player: (&t.player).into(),
            puzzle: (&t.puzzle).into(),
            id: t.id,
            solved: t.solved,
            rated: t.rated,
            player_diff: t.player_diff,
        }
    }
}

/// A theme and how many puzzles have it.
#[derive(Serialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct ThemeView {
    /// The theme (`mateIn2`, `ricochet`, ...).
    pub name: String,
    /// Puzzles of the game with it.
    pub count: usize,
}

/// `GET /api/puzzles/themes`.
#[derive(Serialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct ThemesView {
    /// The game's name: `tensor`, `chess` or `chessence`.
    pub variant: tensorchess_rules::VariantKind,
    /// The game's puzzles, in all.
    pub count: usize,
    /// Most common first.
    pub themes: Vec<ThemeView>,
}

impl From<ThemeCounts> for ThemesView {
    fn from(t: ThemeCounts) -> ThemesView {
        ThemesView {
            variant: t.kind,
            count: t.count,
            themes: t
                .themes
                .into_iter()
                .map(|(name, count)| ThemeView { name, count })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tensorchess_rules::VariantKind;

    #[test]
    fn a_rating_is_provisional_above_a_deviation_of_110() {
        let r = |rd| RatingRecord {
            rating: 1499.6,
            rd,
            volatility: 0.09,
            games: 1,
        };
        let sure = PuzzleRatingView::from(&r(110.0));
        assert_eq!((sure.rating, sure.rd, sure.provisional), (1500, 110, false));
        assert!(PuzzleRatingView::from(&r(110.4)).provisional);
    }

    #[test]
    fn themes_keep_the_services_order() {
        let view = ThemesView::from(ThemeCounts {
            kind: VariantKind::Tensor,
            count: 7,
            themes: vec![("ricochet".into(), 5), ("fork".into(), 2)],
        });
        assert_eq!(view.variant, VariantKind::Tensor);
        assert_eq!(view.count, 7);
        let names: Vec<&str> = view.themes.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["ricochet", "fork"]);
    }
}
