//! Learning in SQLite (migration 4): game reviews, puzzle ratings and
//! tries, lesson progress. Plain SQL only, as the other backends write it.

use crate::row::{all, one};
use crate::SqliteStore;
use async_trait::async_trait;
use rusqlite::{params, Connection, OptionalExtension};
use tensorchess_rules::VariantKind;
use tensorchess_store::learning::{
    read_attempt, read_lesson, read_review, ATTEMPT_COLUMNS, LESSON_COLUMNS, REVIEW_COLUMNS,
};
use tensorchess_store::player::{read_rating, RATING_COLUMNS};
use tensorchess_store::prelude::*;
use tensorchess_store::rows::Row as _;
use tensorchess_store::{
    LessonRecord, PuzzleAttemptRecord, PuzzleResultWrite, RatingRecord, ReviewRecord, StoreError,
    MAX_PUZZLE_ATTEMPTS,
};

pub fn review(conn: &Connection, game_id: &str) -> Result<Option<ReviewRecord>, StoreError> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {REVIEW_COLUMNS} FROM game_reviews WHERE game_id = ?1"
    ))?;
    one(&mut stmt, params![game_id], |r| read_review(r))
}

pub fn save_review(conn: &Connection, review: &ReviewRecord) -> Result<(), StoreError> {
    let exists = conn
        .prepare_cached("SELECT 1 FROM games WHERE id = ?1")?
        .query_row(params![review.game_id], |_| Ok(()))
        .optional()?
        .is_some();
    if !exists {
        return Err(StoreError::Conflict(format!(
            "there is no game {} to store a review of",
            review.game_id
        )));
    }
    conn.prepare_cached("DELETE FROM game_reviews WHERE game_id = ?1")?
        .execute(params![review.game_id])?;
    conn.prepare_cached(
        "INSERT INTO game_reviews (game_id, review, created_at) VALUES (?1, ?2, ?3)",
    )?
    .execute(params![
        review.game_id,
        review.review_json,
        review.created_at
    ])?;
    Ok(())
}

pub fn puzzle_player_rating(
    conn: &Connection,
    player: &str,
    variant: VariantKind,
) -> Result<Option<RatingRecord>, StoreError> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {RATING_COLUMNS} FROM puzzle_player_ratings WHERE player_id = ?1 AND variant = ?2"
    ))?;
    one(&mut stmt, params![player, variant.name()], |r| {
        read_rating(r, 0)
    })
}

pub fn puzzle_ratings(
    conn: &Connection,
    variant: VariantKind,
) -> Result<Vec<(String, RatingRecord)>, StoreError> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT puzzle_id, {RATING_COLUMNS} FROM puzzle_ratings WHERE variant = ?1"
    ))?;
    all(&mut stmt, params![variant.name()], |r| {
        Ok((r.text_nn(0)?, read_rating(r, 1)?))
    })
}

pub fn recent_puzzle_attempts(
    conn: &Connection,
    player: &str,
    variant: VariantKind,
    limit: usize,
) -> Result<Vec<PuzzleAttemptRecord>, StoreError> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {ATTEMPT_COLUMNS} FROM puzzle_attempts WHERE player_id = ?1 AND variant = ?2 \
         ORDER BY played_at DESC, puzzle_id LIMIT ?3"
    ))?;
    all(
        &mut stmt,
        params![player, variant.name(), limit as i64],
        |r| read_attempt(r),
    )
}

/// Writes a rating if the stored one is still `before`: `insert` when
/// none was stored, `update` (whose last parameter is the old `games`)
/// otherwise; `key` are the row's key values (`?1`, `?2`). A rating
/// changed meanwhile is [`StoreError::Stale`], named `what`.
pub(super) fn write_rating(
    conn: &Connection,
    insert: &str,
    update: &str,
    key: [&str; 2],
    before: Option<&RatingRecord>,
    after: &RatingRecord,
    what: String,
) -> Result<(), StoreError> {
    let a = after;
    let n = match before {
        None => conn.prepare_cached(insert)?.execute(params![
            key[0],
            key[1],
            a.rating,
            a.rd,
            a.volatility,
            a.games
        ])?,
        Some(b) => conn.prepare_cached(update)?.execute(params![
            key[0],
            key[1],
            a.rating,
            a.rd,
            a.volatility,
            a.games,
            b.games
        ])?,
    };
    if n == 0 {
        return Err(StoreError::Stale {
            id: what,
            found: -1,
        });
    }
    Ok(())
}

pub fn record_puzzle_attempt(conn: &Connection, w: &PuzzleResultWrite) -> Result<(), StoreError> {
    let a = &w.attempt;
    let variant = a.variant.name();
    if let Some(player) = &w.player {
        write_rating(
            conn,
            "INSERT INTO puzzle_player_ratings (player_id, variant, rating, rd, volatility, games) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT DO NOTHING",
            "UPDATE puzzle_player_ratings SET rating = ?3, rd = ?4, volatility = ?5, games = ?6 \
             WHERE player_id = ?1 AND variant = ?2 AND games = ?7",
            [&a.player_id, variant],
            player.before.as_ref(),
            &player.after,
            format!("puzzle rating of {}", a.player_id),
        )?;
    }
    if let Some(puzzle) = &w.puzzle {
        write_rating(
            conn,
            "INSERT INTO puzzle_ratings (puzzle_id, variant, rating, rd, volatility, games) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT DO NOTHING",
            "UPDATE puzzle_ratings SET rating = ?3, rd = ?4, volatility = ?5, games = ?6 \
             WHERE puzzle_id = ?1 AND variant = ?2 AND games = ?7",
            [&a.puzzle_id, variant],
            puzzle.before.as_ref(),
            &puzzle.after,
            format!("rating of puzzle {}", a.puzzle_id),
        )?;
    }
    let first = conn
        .prepare_cached(
            "INSERT INTO puzzles_tried (player_id, puzzle_id) VALUES (?1, ?2) ON CONFLICT DO NOTHING",
        )?
        .execute(params![a.player_id, a.puzzle_id])?
        > 0;
    if a.rated && !first {
        // Another tab's try came first: this one is a repeat.
        return Err(StoreError::Stale {
            id: a.puzzle_id.clone(),
            found: 0,
        });
    }
    conn.prepare_cached(
        "INSERT INTO puzzle_attempts (player_id, puzzle_id, variant, solved, rated, rating_diff, \
         played_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?
    .execute(params![
        a.player_id,
        a.puzzle_id,
        variant,
        a.solved as i64,
        a.rated as i64,
        a.rating_diff,
        a.played_at
    ])?;
    // Only the latest tries are kept: they are what "not one they just did"
    // needs, and a player's history cannot grow without end.
    conn.prepare_cached(
        "DELETE FROM puzzle_attempts WHERE player_id = ?1 AND variant = ?2 AND played_at < \
         (SELECT played_at FROM puzzle_attempts WHERE player_id = ?1 AND variant = ?2 \
          ORDER BY played_at DESC LIMIT 1 OFFSET ?3)",
    )?
    .execute(params![
        a.player_id,
        variant,
        MAX_PUZZLE_ATTEMPTS as i64 - 1
    ])?;
    Ok(())
}

pub fn lesson_progress(conn: &Connection, player: &str) -> Result<Vec<LessonRecord>, StoreError> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {LESSON_COLUMNS} FROM lesson_progress WHERE player_id = ?1 ORDER BY level_id"
    ))?;
    all(&mut stmt, params![player], |r| read_lesson(r))
}

/// Whether `a` is a better result than `b`: more stars, then fewer moves.
fn better(a: &LessonRecord, b: &LessonRecord) -> bool {
    (a.stars, std::cmp::Reverse(a.moves)) > (b.stars, std::cmp::Reverse(b.moves))
}

pub fn save_lesson_result(conn: &Connection, result: &LessonRecord) -> Result<(), StoreError> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {LESSON_COLUMNS} FROM lesson_progress WHERE player_id = ?1 AND level_id = ?2"
    ))?;
    let old = one(&mut stmt, params![result.player_id, result.level_id], |r| {
        read_lesson(r)
    })?;
    match old {
        Some(old) if !better(result, &old) => Ok(()),
        Some(_) => {
            conn.prepare_cached(
                "UPDATE lesson_progress SET stars = ?3, moves = ?4, completed_at = ?5 \
                 WHERE player_id = ?1 AND level_id = ?2",
            )?
            .execute(params![
                result.player_id,
                result.level_id,
                result.stars as i64,
                result.moves as i64,
                result.completed_at
            ])?;
            Ok(())
        }
        None => {
            conn.prepare_cached(
                "INSERT INTO lesson_progress (player_id, level_id, stars, moves, completed_at) \
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )?
            .execute(params![
                result.player_id,
                result.level_id,
                result.stars as i64,
                result.moves as i64,
                result.completed_at
            ])?;
            Ok(())
        }
    }
}

pub fn merge_learning(conn: &Connection, from: &str, into: &str) -> Result<(), StoreError> {
    if from == into {
        return Ok(());
    }
    for mut level in lesson_progress(conn, from)? {
        level.player_id = into.to_string();
        save_lesson_result(conn, &level)?;
    }
    conn.prepare_cached("DELETE FROM lesson_progress WHERE player_id = ?1")?
        .execute(params![from])?;
    conn.prepare_cached("UPDATE puzzle_attempts SET player_id = ?2 WHERE player_id = ?1")?
        .execute(params![from, into])?;
    conn.prepare_cached(
        "INSERT INTO puzzles_tried (player_id, puzzle_id) \
         SELECT ?2, puzzle_id FROM puzzles_tried WHERE player_id = ?1 ON CONFLICT DO NOTHING",
    )?
    .execute(params![from, into])?;
    conn.prepare_cached("DELETE FROM puzzles_tried WHERE player_id = ?1")?
        .execute(params![from])?;
    // A rating the account has wins; the guest's is kept where it has none.
    conn.prepare_cached(
        "UPDATE puzzle_player_ratings SET player_id = ?2 WHERE player_id = ?1 AND variant NOT IN \
         (SELECT variant FROM puzzle_player_ratings WHERE player_id = ?2)",
    )?
    .execute(params![from, into])?;
    conn.prepare_cached("DELETE FROM puzzle_player_ratings WHERE player_id = ?1")?
        .execute(params![from])?;
    Ok(())
}

/// Whether `player` ever tried puzzle `puzzle` (counted since tries were
/// remembered for good, and in the latest tries kept from before).
pub fn puzzle_attempted(conn: &Connection, player: &str, puzzle: &str) -> Result<bool, StoreError> {
    Ok(conn
        .prepare_cached(
            "SELECT EXISTS (SELECT 1 FROM puzzles_tried WHERE player_id = ?1 AND puzzle_id = ?2) \
             OR EXISTS (SELECT 1 FROM puzzle_attempts WHERE player_id = ?1 AND puzzle_id = ?2)",
        )?
        .query_row(params![player, puzzle], |r| r.get(0))?)
}

#[async_trait]
impl LearningRepo for SqliteStore {
    async fn review(&self, game_id: &str) -> Result<Option<ReviewRecord>, StoreError> {
        let game_id = game_id.to_string();
        self.read(move |conn| review(conn, &game_id)).await
    }

    async fn save_review(&self, review: &ReviewRecord) -> Result<(), StoreError> {
        let review = review.clone();
        self.write(move |conn| save_review(conn, &review)).await
    }

    async fn puzzle_player_rating(
        &self,
        player: &str,
        variant: VariantKind,
    ) -> Result<Option<RatingRecord>, StoreError> {
        let player = player.to_string();
        self.read(move |conn| puzzle_player_rating(conn, &player, variant))
            .await
    }

    async fn puzzle_ratings(
        &self,
        variant: VariantKind,
    ) -> Result<Vec<(String, RatingRecord)>, StoreError> {
        self.read(move |conn| puzzle_ratings(conn, variant)).await
    }

    async fn puzzle_attempted(&self, player: &str, puzzle: &str) -> Result<bool, StoreError> {
        let (player, puzzle) = (player.to_string(), puzzle.to_string());
        self.read(move |conn| puzzle_attempted(conn, &player, &puzzle))
            .await
    }

    async fn recent_puzzle_attempts(
        &self,
        player: &str,
        variant: VariantKind,
        limit: usize,
    ) -> Result<Vec<PuzzleAttemptRecord>, StoreError> {
        let player = player.to_string();
        self.read(move |conn| recent_puzzle_attempts(conn, &player, variant, limit))
            .await
    }

    async fn record_puzzle_attempt(&self, write: &PuzzleResultWrite) -> Result<(), StoreError> {
        let write = write.clone();
        self.write(move |conn| record_puzzle_attempt(conn, &write))
            .await
    }

    async fn lesson_progress(&self, player: &str) -> Result<Vec<LessonRecord>, StoreError> {
        let player = player.to_string();
        self.read(move |conn| lesson_progress(conn, &player)).await
    }

    async fn save_lesson_result(&self, result: &LessonRecord) -> Result<(), StoreError> {
        let result = result.clone();
        self.write(move |conn| save_lesson_result(conn, &result))
            .await
    }

    async fn merge_learning(&self, from: &str, into: &str) -> Result<(), StoreError> {
        let (from, into) = (from.to_string(), into.to_string());
        self.write(move |conn| merge_learning(conn, &from, &into))
            .await
    }
}
