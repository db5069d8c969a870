//! Learning in PostgreSQL (migration 4): game reviews, puzzle ratings and
//! tries, lesson progress; the same statements as SQLite's.

use crate::PgStore;
use async_trait::async_trait;
use deadpool_postgres::GenericClient;
use tensorchess_rules::VariantKind;
use tensorchess_store::learning::{
    read_attempt, read_lesson, read_review, ATTEMPT_COLUMNS, LESSON_COLUMNS, REVIEW_COLUMNS,
};
use tensorchess_store::player::read_rating;
use tensorchess_store::prelude::*;
use tensorchess_store::{
    LessonRecord, PuzzleAttemptRecord, PuzzleRatingWrite, PuzzleResultWrite, RatingRecord,
    ReviewRecord, StoreError, MAX_PUZZLE_ATTEMPTS,
};

pub async fn review(c: &impl GenericClient, id: &str) -> Result<Option<ReviewRecord>, StoreError> {
    c.query_opt(
        &format!("SELECT {REVIEW_COLUMNS} FROM game_reviews WHERE game_id = $1"),
        &[&id],
    )
    .await?
    .as_ref()
    .map(read_review)
    .transpose()
}

pub async fn save_review(c: &impl GenericClient, review: &ReviewRecord) -> Result<(), StoreError> {
    if c.query_opt("SELECT 1 FROM games WHERE id = $1", &[&review.game_id])
        .await?
        .is_none()
    {
        return Err(StoreError::Conflict(format!(
            "there is no game {} to store a review of",
            review.game_id
        )));
    }
    c.execute(
        "INSERT INTO game_reviews (game_id, review, created_at) VALUES ($1, $2, $3) \
         ON CONFLICT (game_id) DO UPDATE SET review = EXCLUDED.review, created_at = EXCLUDED.created_at",
        &[&review.game_id, &review.review_json, &review.created_at],
    )
    .await?;
    Ok(())
}

pub async fn puzzle_player_rating(
    c: &impl GenericClient,
    player: &str,
    variant: VariantKind,
) -> Result<Option<RatingRecord>, StoreError> {
    let row = c
        .query_opt(
            "SELECT rating, rd, volatility, games FROM puzzle_player_ratings \
             WHERE player_id = $1 AND variant = $2",
            &[&player, &variant.name()],
        )
        .await?;
    row.map(|r| read_rating(&r, 0)).transpose()
}

pub async fn puzzle_ratings(
    c: &impl GenericClient,
    variant: VariantKind,
) -> Result<Vec<(String, RatingRecord)>, StoreError> {
    let rows = c
        .query(
            "SELECT puzzle_id, rating, rd, volatility, games FROM puzzle_ratings WHERE variant = $1",
            &[&variant.name()],
        )
        .await?;
    rows.iter()
        .map(|r| Ok((r.try_get::<_, String>(0)?, read_rating(r, 1)?)))
        .collect()
}

pub async fn recent_puzzle_attempts(
    c: &impl GenericClient,
    player: &str,
    variant: VariantKind,
    limit: usize,
) -> Result<Vec<PuzzleAttemptRecord>, StoreError> {
    let rows = c
        .query(
            &format!(
                "SELECT {ATTEMPT_COLUMNS} FROM puzzle_attempts \
                 WHERE player_id = $1 AND variant = $2 \
                 ORDER BY played_at DESC, puzzle_id LIMIT $3"
            ),
            &[&player, &variant.name(), &(limit as i64)],
        )
        .await?;
    rows.iter().map(read_attempt).collect()
}

/// Writes the rating of `id` in `table` (keyed by `key` and the variant)
/// if the stored one is still `w.before` (see SQLite's); a rating changed
/// meanwhile is [`StoreError::Stale`].
pub(super) async fn write_rating(
    c: &impl GenericClient,
    table: &str,
    key: &str,
    id: &str,
    variant: &str,
    w: &PuzzleRatingWrite,
) -> Result<(), StoreError> {
    let a = &w.after;
    let games = a.games as i64;
    let n = match &w.before {
        None => {
            c.execute(
                &format!(
                    "INSERT INTO {table} ({key}, variant, rating, rd, volatility, games) \
                     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING"
                ),
                &[&id, &variant, &a.rating, &a.rd, &a.volatility, &games],
            )
            .await?
        }
        Some(b) => {
            c.execute(
                &format!(
                    "UPDATE {table} SET rating = $3, rd = $4, volatility = $5, games = $6 \
                     WHERE {key} = $1 AND variant = $2 AND games = $7"
                ),
                &[
                    &id,
                    &variant,
                    &a.rating,
                    &a.rd,
                    &a.volatility,
                    &games,
                    &(b.games as i64),
                ],
            )
            .await?
        }
    };
    if n == 0 {
        return Err(StoreError::Stale {
            id: format!("{table} of {id}"),
            found: -1,
        });
    }
    Ok(())
}

pub async fn record_puzzle_attempt(
    c: &impl GenericClient,
    w: &PuzzleResultWrite,
) -> Result<(), StoreError> {
    let a = &w.attempt;
    let variant = a.variant.name();
    if let Some(p) = &w.player {
        write_rating(
            c,
            "puzzle_player_ratings",
            "player_id",
            &a.player_id,
            variant,
            p,
        )
        .await?;
    }
    if let Some(p) = &w.puzzle {
        write_rating(c, "puzzle_ratings", "puzzle_id", &a.puzzle_id, variant, p).await?;
    }
    let first = c
        .execute(
            "INSERT INTO puzzles_tried (player_id, puzzle_id) VALUES ($1, $2) ON CONFLICT DO NOTHING",
            &[&a.player_id, &a.puzzle_id],
        )
        .await?
        > 0;
    if a.rated && !first {
        // Another tab's try came first: this one is a repeat.
        return Err(StoreError::Stale {
            id: a.puzzle_id.clone(),
            found: 0,
        });
    }
    c.execute(
        "INSERT INTO puzzle_attempts (player_id, puzzle_id, variant, solved, rated, rating_diff, \
         played_at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
        &[
            &a.player_id,
            &a.puzzle_id,
            &variant,
            &a.solved,
            &a.rated,
            &a.rating_diff,
            &a.played_at,
        ],
    )
    .await?;
    c.execute(
        "DELETE FROM puzzle_attempts WHERE player_id = $1 AND variant = $2 AND played_at < \
         (SELECT played_at FROM puzzle_attempts WHERE player_id = $1 AND variant = $2 \
          ORDER BY played_at DESC LIMIT 1 OFFSET $3)",
        &[&a.player_id, &variant, &(MAX_PUZZLE_ATTEMPTS as i64 - 1)],
    )
    .await?;
    Ok(())
}

pub async fn lesson_progress(
    c: &impl GenericClient,
    player: &str,
) -> Result<Vec<LessonRecord>, StoreError> {
    let rows = c
        .query(
            &format!(
                "SELECT {LESSON_COLUMNS} FROM lesson_progress \
             WHERE player_id = $1 ORDER BY level_id"
            ),
            &[&player],
        )
        .await?;
    rows.iter().map(read_lesson).collect()
}

/// Keeps the better of the stored result and `r`: more stars, then fewer moves.
pub async fn save_lesson_result(
    c: &impl GenericClient,
    r: &LessonRecord,
) -> Result<(), StoreError> {
    c.execute(
        "INSERT INTO lesson_progress (player_id, level_id, stars, moves, completed_at) \
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (player_id, level_id) DO UPDATE SET \
         stars = EXCLUDED.stars, moves = EXCLUDED.moves, completed_at = EXCLUDED.completed_at \
         WHERE EXCLUDED.stars > lesson_progress.stars \
            OR (EXCLUDED.stars = lesson_progress.stars AND EXCLUDED.moves < lesson_progress.moves)",
        &[
            &r.player_id,
            &r.level_id,
            &(r.stars as i64),
            &(r.moves as i64),
            &r.completed_at,
        ],
    )
    .await?;
    Ok(())
}

pub async fn merge_learning(
    c: &impl GenericClient,
    from: &str,
    into: &str,
) -> Result<(), StoreError> {
    if from == into {
        return Ok(());
    }
    for mut level in lesson_progress(c, from).await? {
        level.player_id = into.to_string();
        save_lesson_result(c, &level).await?;
    }
    c.execute("DELETE FROM lesson_progress WHERE player_id = $1", &[&from])
        .await?;
    c.execute(
        "UPDATE puzzle_attempts SET player_id = $2 WHERE player_id = $1",
        &[&from, &into],
    )
    .await?;
    c.execute(
        "INSERT INTO puzzles_tried (player_id, puzzle_id) \
         SELECT $2, puzzle_id FROM puzzles_tried WHERE player_id = $1 ON CONFLICT DO NOTHING",
        &[&from, &into],
    )
    .await?;
    c.execute("DELETE FROM puzzles_tried WHERE player_id = $1", &[&from])
        .await?;
    c.execute(
        "UPDATE puzzle_player_ratings SET player_id = $2 WHERE player_id = $1 AND variant NOT IN \
         (SELECT variant FROM puzzle_player_ratings WHERE player_id = $2)",
        &[&from, &into],
    )
    .await?;
    c.execute(
        "DELETE FROM puzzle_player_ratings WHERE player_id = $1",
        &[&from],
    )
    .await?;
    Ok(())
}

/// Whether `player` ever tried puzzle `puzzle` (counted since tries were
/// remembered for good, and in the latest tries kept from before).
pub async fn puzzle_attempted(
    c: &impl GenericClient,
    player: &str,
    puzzle: &str,
) -> Result<bool, StoreError> {
    let stmt = c
        .prepare_cached(
            "SELECT EXISTS (SELECT 1 FROM puzzles_tried WHERE player_id = $1 AND puzzle_id = $2) \
             OR EXISTS (SELECT 1 FROM puzzle_attempts WHERE player_id = $1 AND puzzle_id = $2)",
        )
        .await?;
    Ok(c.query_one(&stmt, &[&player, &puzzle]).await?.try_get(0)?)
}

#[async_trait]
impl LearningRepo for PgStore {
    async fn review(&self, game_id: &str) -> Result<Option<ReviewRecord>, StoreError> {
        review(&self.client().await?, game_id).await
    }

    async fn save_review(&self, review: &ReviewRecord) -> Result<(), StoreError> {
        write_tx!(self, |tx| save_review(&tx, review).await?)
    }

    async fn puzzle_player_rating(
        &self,
        player: &str,
        variant: VariantKind,
    ) -> Result<Option<RatingRecord>, StoreError> {
        puzzle_player_rating(&self.client().await?, player, variant).await
    }

    async fn puzzle_ratings(
        &self,
        variant: VariantKind,
    ) -> Result<Vec<(String, RatingRecord)>, StoreError> {
        puzzle_ratings(&self.client().await?, variant).await
    }

    async fn puzzle_attempted(&self, player: &str, puzzle: &str) -> Result<bool, StoreError> {
        puzzle_attempted(&self.client().await?, player, puzzle).await
    }

    async fn recent_puzzle_attempts(
        &self,
        player: &str,
        variant: VariantKind,
        limit: usize,
    ) -> Result<Vec<PuzzleAttemptRecord>, StoreError> {
        recent_puzzle_attempts(&self.client().await?, player, variant, limit).await
    }

    async fn record_puzzle_attempt(&self, write: &PuzzleResultWrite) -> Result<(), StoreError> {
        write_tx!(self, |tx| record_puzzle_attempt(&tx, write).await?)
    }

    async fn lesson_progress(&self, player: &str) -> Result<Vec<LessonRecord>, StoreError> {
        lesson_progress(&self.client().await?, player).await
    }

    async fn save_lesson_result(&self, result: &LessonRecord) -> Result<(), StoreError> {
        save_lesson_result(&self.client().await?, result).await
    }

    async fn merge_learning(&self, from: &str, into: &str) -> Result<(), StoreError> {
        write_tx!(self, |tx| merge_learning(&tx, from, into).await?)
    }
}
