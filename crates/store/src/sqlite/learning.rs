//! Learning in SQLite (migration 4): game reviews, puzzle ratings and
//! tries, lesson progress. Plain SQL only, as the other backends write it.

use super::super::columns::parse_variant;
use super::super::{
    LessonRecord, PuzzleAttemptRecord, PuzzleResultWrite, RatingRecord, ReviewRecord, StoreError,
    MAX_PUZZLE_ATTEMPTS,
};
use rusqlite::{params, Connection, OptionalExtension};
use tensorchess_rules::VariantKind;

pub fn review(conn: &Connection, game_id: &str) -> Result<Option<ReviewRecord>, StoreError> {
    Ok(conn
        .prepare_cached("SELECT game_id, review, created_at FROM game_reviews WHERE game_id = ?1")?
        .query_row(params![game_id], |r| {
            Ok(ReviewRecord {
                game_id: r.get(0)?,
                review_json: r.get(1)?,
                created_at: r.get(2)?,
            })
        })
        .optional()?)
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

fn read_rating(r: &rusqlite::Row<'_>, at: usize) -> rusqlite::Result<RatingRecord> {
    Ok(RatingRecord {
        rating: r.get(at)?,
        rd: r.get(at + 1)?,
        volatility: r.get(at + 2)?,
        games: r.get(at + 3)?,
    })
}

pub fn puzzle_player_rating(
    conn: &Connection,
    player: &str,
    variant: VariantKind,
) -> Result<Option<RatingRecord>, StoreError> {
    Ok(conn
        .prepare_cached(
            "SELECT rating, rd, volatility, games FROM puzzle_player_ratings \
             WHERE player_id = ?1 AND variant = ?2",
        )?
        .query_row(params![player, variant.name()], |r| read_rating(r, 0))
        .optional()?)
}

pub fn puzzle_ratings(
    conn: &Connection,
    variant: VariantKind,
) -> Result<Vec<(String, RatingRecord)>, StoreError> {
    let rows = conn
        .prepare_cached(
            "SELECT puzzle_id, rating, rd, volatility, games FROM puzzle_ratings WHERE variant = ?1",
        )?
        .query_map(params![variant.name()], |r| {
            Ok((r.get::<_, String>(0)?, read_rating(r, 1)?))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}

pub fn recent_puzzle_attempts(
    conn: &Connection,
    player: &str,
    variant: VariantKind,
    limit: usize,
) -> Result<Vec<PuzzleAttemptRecord>, StoreError> {
    let rows = conn
        .prepare_cached(
            "SELECT player_id, puzzle_id, variant, solved, rated, rating_diff, played_at \
             FROM puzzle_attempts WHERE player_id = ?1 AND variant = ?2 \
             ORDER BY played_at DESC, puzzle_id LIMIT ?3",
        )?
        .query_map(params![player, variant.name(), limit as i64], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, i64>(3)? != 0,
                r.get::<_, i64>(4)? != 0,
                r.get::<_, Option<i32>>(5)?,
                r.get::<_, i64>(6)?,
            ))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    rows.into_iter()
        .map(
            |(player_id, puzzle_id, variant, solved, rated, rating_diff, played_at)| {
                Ok(PuzzleAttemptRecord {
                    variant: parse_variant(&puzzle_id, &variant)?,
                    player_id,
                    puzzle_id,
                    solved,
                    rated,
                    rating_diff,
                    played_at,
                })
            },
        )
        .collect()
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
    let rows = conn
        .prepare_cached(
            "SELECT player_id, level_id, stars, moves, completed_at FROM lesson_progress \
             WHERE player_id = ?1 ORDER BY level_id",
        )?
        .query_map(params![player], |r| {
            Ok(LessonRecord {
                player_id: r.get(0)?,
                level_id: r.get(1)?,
                stars: r.get::<_, i64>(2)?.clamp(0, 3) as u8,
                moves: r.get::<_, i64>(3)?.max(0) as u32,
                completed_at: r.get(4)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}

/// Whether `a` is a better result than `b`: more stars, then fewer moves.
fn better(a: &LessonRecord, b: &LessonRecord) -> bool {
    (a.stars, std::cmp::Reverse(a.moves)) > (b.stars, std::cmp::Reverse(b.moves))
}

pub fn save_lesson_result(conn: &Connection, result: &LessonRecord) -> Result<(), StoreError> {
    let old = conn
        .prepare_cached(
            "SELECT player_id, level_id, stars, moves, completed_at FROM lesson_progress \
             WHERE player_id = ?1 AND level_id = ?2",
        )?
        .query_row(params![result.player_id, result.level_id], |r| {
            Ok(LessonRecord {
                player_id: r.get(0)?,
                level_id: r.get(1)?,
                stars: r.get::<_, i64>(2)?.clamp(0, 3) as u8,
                moves: r.get::<_, i64>(3)?.max(0) as u32,
                completed_at: r.get(4)?,
            })
        })
        .optional()?;
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
