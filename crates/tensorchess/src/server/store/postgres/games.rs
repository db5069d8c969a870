//! Games, moves and online state in PostgreSQL: the row mapping and the
//! statements, each a function of a connection or of a transaction.

use super::super::columns::{color_text, ending_columns, parse_color, parse_ending, parse_variant};
use super::super::{
    ClockSettings, GameListQuery, GameMode, GameRecord, GameSummary, GameUpdate, MovesChange,
    OnlineRecord, RatingWrite, StoreError, StoredGame, StoredMove,
};
use deadpool_postgres::GenericClient;
use tokio_postgres::Row;

pub const RECORD_COLUMNS: &str = "id, variant, start_fen, mode, human_color, level, white, black, \
     result, end_reason, rev, created_at, updated_at, owner, rated";

/// A record's row; a value this program cannot read is reported, not guessed.
pub fn read_record(row: &Row) -> Result<Result<GameRecord, StoreError>, StoreError> {
    let id: String = row.try_get(0)?;
    let variant: String = row.try_get(1)?;
    let start_fen: String = row.try_get(2)?;
    let mode: String = row.try_get(3)?;
    let human: Option<String> = row.try_get(4)?;
    let level = row
        .try_get::<_, Option<i64>>(5)?
        .map(|l| l.clamp(1, 6) as u8);
    let (white, black): (String, String) = (row.try_get(6)?, row.try_get(7)?);
    let result: String = row.try_get(8)?;
    let reason: Option<String> = row.try_get(9)?;
    let (rev, created_at, updated_at) = (row.try_get(10)?, row.try_get(11)?, row.try_get(12)?);
    let owner: Option<String> = row.try_get(13)?;
    let rated: bool = row.try_get(14)?;
    let typed = || -> Result<GameRecord, StoreError> {
        Ok(GameRecord {
            variant: parse_variant(&id, &variant)?,
            ending: parse_ending(&id, &result, reason.as_deref())?,
            id: id.clone(),
            start_fen,
            mode: GameMode::parse(&mode).unwrap_or(GameMode::Local),
            human_color: human.as_deref().and_then(parse_color),
            level,
            white,
            black,
            owner,
            rated,
            rev,
            created_at,
            updated_at,
        })
    };
    Ok(typed())
}

pub const ONLINE_COLUMNS: &str = "white_seat, black_seat, clock_base_ms, clock_inc_ms, white_ms, \
     black_ms, turn_started_at, draw_offer, rematch_offer, rematch_of, rematch_id, white_player, \
     black_player, white_draw_ply, black_draw_ply, white_rating, black_rating, white_rating_diff, \
     black_rating_diff";

pub fn read_online(row: &Row) -> Result<OnlineRecord, StoreError> {
    let base: Option<i64> = row.try_get(2)?;
    let inc: Option<i64> = row.try_get(3)?;
    let color = |i: usize| -> Result<_, StoreError> {
        Ok(row
            .try_get::<_, Option<String>>(i)?
            .as_deref()
            .and_then(parse_color))
    };
    let ply = |i: usize| -> Result<Option<usize>, StoreError> {
        Ok(row.try_get::<_, Option<i64>>(i)?.map(|p| p.max(0) as usize))
    };
    Ok(OnlineRecord {
        white_seat: row.try_get(0)?,
        black_seat: row.try_get(1)?,
        clock: base.map(|base_ms| ClockSettings {
            base_ms,
            increment_ms: inc.unwrap_or(0),
        }),
        white_ms: row.try_get(4)?,
        black_ms: row.try_get(5)?,
        turn_started_at: row.try_get(6)?,
        draw_offer: color(7)?,
        rematch_offer: color(8)?,
        rematch_of: row.try_get(9)?,
        rematch_id: row.try_get(10)?,
        white_player: row.try_get(11)?,
        black_player: row.try_get(12)?,
        draw_offer_plies: [ply(13)?, ply(14)?],
        ratings: [row.try_get(15)?, row.try_get(16)?],
        rating_diffs: [row.try_get(17)?, row.try_get(18)?],
    })
}

async fn write_online(
    c: &impl GenericClient,
    id: &str,
    o: &OnlineRecord,
) -> Result<(), StoreError> {
    let stmt = c
        .prepare_cached(&format!(
            "INSERT INTO online_games (game_id, {ONLINE_COLUMNS}) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, \
             $17, $18, $19, $20) \
             ON CONFLICT (game_id) DO UPDATE SET white_seat = $2, black_seat = $3, \
             clock_base_ms = $4, clock_inc_ms = $5, white_ms = $6, black_ms = $7, \
             turn_started_at = $8, draw_offer = $9, rematch_offer = $10, rematch_of = $11, \
             rematch_id = $12, white_player = $13, black_player = $14, white_draw_ply = $15, \
             black_draw_ply = $16, white_rating = $17, black_rating = $18, \
             white_rating_diff = $19, black_rating_diff = $20"
        ))
        .await?;
    c.execute(
        &stmt,
        &[
            &id,
            &o.white_seat,
            &o.black_seat,
            &o.clock.map(|c| c.base_ms),
            &o.clock.map(|c| c.increment_ms),
            &o.white_ms,
            &o.black_ms,
            &o.turn_started_at,
            &o.draw_offer.map(color_text),
            &o.rematch_offer.map(color_text),
            &o.rematch_of,
            &o.rematch_id,
            &o.white_player,
            &o.black_player,
            &o.draw_offer_plies[0].map(|p| p as i64),
            &o.draw_offer_plies[1].map(|p| p as i64),
            &o.ratings[0],
            &o.ratings[1],
            &o.rating_diffs[0],
            &o.rating_diffs[1],
        ],
    )
    .await?;
    Ok(())
}

/// Writes a player's new rating if the stored one is still `before`.
async fn write_rating(c: &impl GenericClient, w: &RatingWrite) -> Result<(), StoreError> {
    let a = &w.after;
    let games = i64::from(a.games);
    let n = match &w.before {
        None => {
            let stmt = c
                .prepare_cached(
                    "INSERT INTO ratings (player_id, variant, rating, rd, volatility, games) \
                     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING",
                )
                .await?;
            c.execute(
                &stmt,
                &[
                    &w.player_id,
                    &w.variant.name(),
                    &a.rating,
                    &a.rd,
                    &a.volatility,
                    &games,
                ],
            )
            .await?
        }
        Some(b) => {
            let stmt = c
                .prepare_cached(
                    "UPDATE ratings SET rating = $3, rd = $4, volatility = $5, games = $6 \
                     WHERE player_id = $1 AND variant = $2 AND games = $7",
                )
                .await?;
            c.execute(
                &stmt,
                &[
                    &w.player_id,
                    &w.variant.name(),
                    &a.rating,
                    &a.rd,
                    &a.volatility,
                    &games,
                    &i64::from(b.games),
                ],
            )
            .await?
        }
    };
    if n == 0 {
        return Err(StoreError::Stale {
            id: format!("rating of {}", w.player_id),
            found: -1,
        });
    }
    Ok(())
}

/// Writes an update to revision `update.rev - 1` of a game. The UPDATE
/// takes the game's row lock, so the rest of the transaction (moves,
/// online state, ratings) is written by the one writer that got it.
pub async fn apply_update(
    c: &impl GenericClient,
    id: &str,
    update: &GameUpdate,
) -> Result<(), StoreError> {
    let (result, reason) = ending_columns(update.ending);
    let stmt = c
        .prepare_cached(
            "UPDATE games SET rev = $2::BIGINT, result = $3, end_reason = $4, updated_at = $5 \
             WHERE id = $1 AND rev = $2::BIGINT - 1",
        )
        .await?;
    let n = c
        .execute(
            &stmt,
            &[&id, &update.rev, &result, &reason, &update.updated_at],
        )
        .await?;
    if n == 0 {
        let found = c
            .query_opt("SELECT rev FROM games WHERE id = $1", &[&id])
            .await?;
        return Err(match found {
            None => StoreError::Conflict(format!("there is no game {id}")),
            Some(row) => StoreError::Stale {
                id: id.to_string(),
                found: row.try_get(0)?,
            },
        });
    }
    if let Some([white, black]) = &update.names {
        let stmt = c
            .prepare_cached("UPDATE games SET white = $2, black = $3 WHERE id = $1")
            .await?;
        c.execute(&stmt, &[&id, white, black]).await?;
    }
    if let Some(online) = &update.online {
        write_online(c, id, online).await?;
    }
    for w in &update.ratings {
        write_rating(c, w).await?;
    }
    Ok(())
}

const INSERT_MOVE: &str =
    "INSERT INTO moves (game_id, ply, uci, san, played_at) VALUES ($1, $2, $3, $4, $5)";

pub async fn insert_game(c: &impl GenericClient, game: &StoredGame) -> Result<(), StoreError> {
    let r = &game.record;
    let (result, reason) = ending_columns(r.ending);
    let stmt = c
        .prepare_cached(&format!(
            "INSERT INTO games ({RECORD_COLUMNS}) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)"
        ))
        .await?;
    c.execute(
        &stmt,
        &[
            &r.id,
            &r.variant.name(),
            &r.start_fen,
            &r.mode.as_str(),
            &r.human_color.map(color_text),
            &r.level.map(i64::from),
            &r.white,
            &r.black,
            &result,
            &reason,
            &r.rev,
            &r.created_at,
            &r.updated_at,
            &r.owner,
            &r.rated,
        ],
    )
    .await?;
    let ins = c.prepare_cached(INSERT_MOVE).await?;
    for m in &game.moves {
        c.execute(
            &ins,
            &[&r.id, &(m.ply as i64), &m.uci, &m.san, &r.created_at],
        )
        .await?;
    }
    if let Some(online) = &game.online {
        write_online(c, &r.id, online).await?;
    }
    Ok(())
}

async fn push_move(
    c: &impl GenericClient,
    id: &str,
    mv: &StoredMove,
    at: i64,
) -> Result<(), StoreError> {
    // The game's row is locked by this transaction: no other writer adds
    // moves meanwhile, so the count is the game's.
    let stmt = c
        .prepare_cached("SELECT COUNT(*) FROM moves WHERE game_id = $1")
        .await?;
    let count: i64 = c.query_one(&stmt, &[&id]).await?.try_get(0)?;
    if count as usize != mv.ply {
        return Err(StoreError::Conflict(format!(
            "game {id} has {count} moves stored, not {}",
            mv.ply
        )));
    }
    let ins = c.prepare_cached(INSERT_MOVE).await?;
    c.execute(&ins, &[&id, &(mv.ply as i64), &mv.uci, &mv.san, &at])
        .await?;
    Ok(())
}

pub async fn commit(
    c: &impl GenericClient,
    id: &str,
    moves: &MovesChange,
    update: &GameUpdate,
) -> Result<(), StoreError> {
    apply_update(c, id, update).await?;
    match moves {
        MovesChange::Keep => {}
        MovesChange::Push(mv) => push_move(c, id, mv, update.updated_at).await?,
        MovesChange::Truncate(keep) => {
            let stmt = c
                .prepare_cached("DELETE FROM moves WHERE game_id = $1 AND ply >= $2")
                .await?;
            c.execute(&stmt, &[&id, &(*keep as i64)]).await?;
        }
    }
    Ok(())
}

pub async fn load_game(c: &impl GenericClient, id: &str) -> Result<Option<StoredGame>, StoreError> {
    let stmt = c
        .prepare_cached(&format!("SELECT {RECORD_COLUMNS} FROM games WHERE id = $1"))
        .await?;
    let Some(row) = c.query_opt(&stmt, &[&id]).await? else {
        return Ok(None);
    };
    let record = read_record(&row)??;
    let stmt = c
        .prepare_cached("SELECT ply, uci, san FROM moves WHERE game_id = $1 ORDER BY ply")
        .await?;
    let moves = c
        .query(&stmt, &[&id])
        .await?
        .iter()
        .map(|row| {
            Ok(StoredMove {
                ply: row.try_get::<_, i64>(0)? as usize,
                uci: row.try_get(1)?,
                san: row.try_get(2)?,
            })
        })
        .collect::<Result<Vec<_>, StoreError>>()?;
    let stmt = c
        .prepare_cached(&format!(
            "SELECT {ONLINE_COLUMNS} FROM online_games WHERE game_id = $1"
        ))
        .await?;
    let online = match c.query_opt(&stmt, &[&id]).await? {
        Some(row) => Some(read_online(&row)?),
        None => None,
    };
    Ok(Some(StoredGame {
        record,
        moves,
        online,
    }))
}

/// Summaries from rows whose columns are the record's, then the move count.
fn summaries(rows: Vec<Row>) -> Result<Vec<GameSummary>, StoreError> {
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        let move_count = row.try_get::<_, i64>(15)? as usize;
        // A row this program cannot read is left out of the list (and
        // reported), rather than hiding every other game.
        match read_record(&row)? {
            Ok(record) => out.push(GameSummary { record, move_count }),
            Err(e) => tracing::error!("{e}"),
        }
    }
    Ok(out)
}

fn prefixed_columns() -> String {
    RECORD_COLUMNS
        .split(", ")
        .map(|c| format!("g.{c}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Ids compare byte by byte (`COLLATE "C"`), as in SQLite, whatever the
/// database's locale: the paging cursor relies on one order.
pub async fn list_games(
    c: &impl GenericClient,
    q: &GameListQuery,
) -> Result<Vec<GameSummary>, StoreError> {
    let (before_at, before_id) = q.before.clone().unwrap_or((i64::MAX, String::new()));
    let sql = format!(
        "SELECT {}, (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) \
         FROM games g \
         WHERE g.id IN (SELECT id FROM games WHERE owner = $1 \
                UNION SELECT game_id FROM online_games WHERE white_player = $1 \
                UNION SELECT game_id FROM online_games WHERE black_player = $1 \
                UNION SELECT id FROM games WHERE $2 AND owner IS NULL AND mode != 'online') \
           AND (g.updated_at < $3 OR (g.updated_at = $3 AND g.id COLLATE \"C\" < $4) OR $5) \
         ORDER BY g.updated_at DESC, g.id COLLATE \"C\" DESC LIMIT $6",
        prefixed_columns()
    );
    let stmt = c.prepare_cached(&sql).await?;
    let rows = c
        .query(
            &stmt,
            &[
                &q.player,
                &q.unowned,
                &before_at,
                &before_id,
                &q.before.is_none(),
                &(q.limit as i64),
            ],
        )
        .await?;
    summaries(rows)
}

pub async fn finished_online_games(
    c: &impl GenericClient,
    player: &str,
    limit: usize,
) -> Result<Vec<GameSummary>, StoreError> {
    let sql = format!(
        "SELECT {}, (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) \
         FROM games g JOIN online_games o ON o.game_id = g.id \
         WHERE (o.white_player = $1 OR o.black_player = $1) AND g.end_reason IS NOT NULL \
         ORDER BY g.updated_at DESC, g.id COLLATE \"C\" DESC LIMIT $2",
        prefixed_columns()
    );
    let stmt = c.prepare_cached(&sql).await?;
    summaries(c.query(&stmt, &[&player, &(limit as i64)]).await?)
}
