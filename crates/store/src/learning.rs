//! Learning: game reviews, puzzle tries and ratings, lesson progress;
//! [`LearningRepo`] stores them.

use crate::columns::parse_variant;
use crate::rows::Row;
use crate::{RatingRecord, StoreError};
use async_trait::async_trait;
use tensorchess_rules::VariantKind;

/// Puzzle tries kept per player and game (enough to avoid repeats).
pub const MAX_PUZZLE_ATTEMPTS: usize = 1000;

/// A game's stored review (the review library's `Review`, as JSON).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReviewRecord {
    /// The game reviewed.
    pub game_id: String,
    /// `tensorchess::review::Review`, serialised.
    pub review_json: String,
    /// Milliseconds since the Unix epoch.
    pub created_at: i64,
}

/// One try at a puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleAttemptRecord {
    /// The player who tried.
    pub player_id: String,
    /// The puzzle's id in the shipped puzzle set.
    pub puzzle_id: String,
    /// The puzzle's game.
    pub variant: VariantKind,
    /// The player found the whole solution.
    pub solved: bool,
    /// The try changed the ratings (a first try; streaks and repeats do not).
    pub rated: bool,
    /// How the player's rating changed (rounded), when rated.
    pub rating_diff: Option<i32>,
    /// When the try ended, in milliseconds since the Unix epoch.
    pub played_at: i64,
}

/// A new puzzle rating (of a player or of a puzzle), written only if the
/// stored one is still `before` (`None`: none stored yet).
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleRatingWrite {
    /// The rating the new one was computed from.
    pub before: Option<RatingRecord>,
    /// The new rating.
    pub after: RatingRecord,
}

/// A try at a puzzle with the rating changes it makes, written together:
/// one rating period for the player and one for the puzzle.
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleResultWrite {
    /// The try.
    pub attempt: PuzzleAttemptRecord,
    /// The player's new puzzle rating in the attempt's game (rated tries).
    pub player: Option<PuzzleRatingWrite>,
    /// The puzzle's new rating (rated tries).
    pub puzzle: Option<PuzzleRatingWrite>,
}

/// A lesson level a player completed, with their best result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LessonRecord {
    /// The player who completed the level.
    pub player_id: String,
    /// The level's id in the lesson data (`beast-step-1`).
    pub level_id: String,
    /// 1 to 3.
    pub stars: u8,
    /// The fewest moves the level took.
    pub moves: u32,
    /// When the level was completed (its best result), in milliseconds since the Unix epoch.
    pub completed_at: i64,
}

/// A review's columns, in [`read_review`]'s order.
pub const REVIEW_COLUMNS: &str = "game_id, review, created_at";

/// A review from [`REVIEW_COLUMNS`].
pub fn read_review(row: &impl Row) -> Result<ReviewRecord, StoreError> {
    Ok(ReviewRecord {
        game_id: row.text_nn(0)?,
        review_json: row.text_nn(1)?,
        created_at: row.int_nn(2)?,
    })
}

/// A puzzle try's columns, in [`read_attempt`]'s order.
pub const ATTEMPT_COLUMNS: &str =
    "player_id, puzzle_id, variant, solved, rated, rating_diff, played_at";

/// A puzzle try from [`ATTEMPT_COLUMNS`]; a game this program does not
/// know is reported, naming the puzzle.
pub fn read_attempt(row: &impl Row) -> Result<PuzzleAttemptRecord, StoreError> {
    let puzzle_id = row.text_nn(1)?;
    Ok(PuzzleAttemptRecord {
        variant: parse_variant(&puzzle_id, &row.text_nn(2)?)?,
        player_id: row.text_nn(0)?,
        puzzle_id,
        solved: row.boolean(3)?,
        rated: row.boolean(4)?,
        rating_diff: row.int32(5)?,
        played_at: row.int_nn(6)?,
    })
}

/// A lesson result's columns, in [`read_lesson`]'s order.
pub const LESSON_COLUMNS: &str = "player_id, level_id, stars, moves, completed_at";

/// A lesson result from [`LESSON_COLUMNS`].
pub fn read_lesson(row: &impl Row) -> Result<LessonRecord, StoreError> {
    Ok(LessonRecord {
        player_id: row.text_nn(0)?,
        level_id: row.text_nn(1)?,
        stars: row.int_nn(2)?.clamp(0, 3) as u8,
        moves: row.int_nn(3)?.clamp(0, i64::from(u32::MAX)) as u32,
        completed_at: row.int_nn(4)?,
    })
}

/// Storage for reviews, puzzle tries and ratings, and lesson progress.
/// Each method is one atomic, durable write or one read.
#[async_trait]
pub trait LearningRepo: Send + Sync + 'static {
    /// A game's stored review.
    async fn review(&self, game_id: &str) -> Result<Option<ReviewRecord>, StoreError>;
    /// Stores a game's review, replacing one stored before; goes with the
    /// game when it is deleted. [`StoreError::Conflict`] if there is no such game.
    async fn save_review(&self, review: &ReviewRecord) -> Result<(), StoreError>;
    /// A player's puzzle rating in a game (`None`: no rated try yet).
    async fn puzzle_player_rating(
        &self,
        player: &str,
        variant: VariantKind,
    ) -> Result<Option<RatingRecord>, StoreError>;
    /// The ratings of a game's puzzles that have been tried, by puzzle id
    /// (the others keep their shipped estimate).
    async fn puzzle_ratings(
        &self,
        variant: VariantKind,
    ) -> Result<Vec<(String, RatingRecord)>, StoreError>;
    /// Whether `player` ever tried puzzle `puzzle`.
    async fn puzzle_attempted(&self, player: &str, puzzle: &str) -> Result<bool, StoreError>;
    /// A player's latest tries in a game, newest first, at most `limit`.
    async fn recent_puzzle_attempts(
        &self,
        player: &str,
        variant: VariantKind,
        limit: usize,
    ) -> Result<Vec<PuzzleAttemptRecord>, StoreError>;
    /// Records a try and its rating changes together; fails with
    /// [`StoreError::Stale`] (and changes nothing) if either rating is no
    /// longer the write's `before`, or if the try is rated and the player
    /// had tried the puzzle. Keeps at most [`MAX_PUZZLE_ATTEMPTS`] tries per
    /// player and game (the oldest go), and which puzzles each player ever
    /// tried.
    async fn record_puzzle_attempt(&self, write: &PuzzleResultWrite) -> Result<(), StoreError>;
    /// The lesson levels a player has completed.
    async fn lesson_progress(&self, player: &str) -> Result<Vec<LessonRecord>, StoreError>;
    /// Records a completed level, keeping the player's best (most stars,
    /// then fewest moves) when the level was completed before.
    async fn save_lesson_result(&self, result: &LessonRecord) -> Result<(), StoreError>;
    /// Gives `into` what `from` learnt (a guest logging in): their lesson
    /// results (the better of the two per level), their puzzle tries, and
    /// their puzzle ratings in the games where `into` has none.
    async fn merge_learning(&self, from: &str, into: &str) -> Result<(), StoreError>;
}
