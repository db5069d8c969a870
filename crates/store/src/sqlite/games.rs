//! Games, moves and online state in SQLite: the row mapping and the
//! statements, each a function of a connection (run by the writer thread or
//! on the read connection).

use super::super::columns::{color_text, ending_columns, parse_color, parse_ending, parse_variant};
use super::super::{
    ClockSettings, GameListQuery, GameMode, GameRecord, GameSummary, GameUpdate, MovesChange,
    OnlineRecord, RatingWrite, StoreError, StoredGame, StoredMove,
};
use rusqlite::{params, Connection, OptionalExtension};

pub const RECORD_COLUMNS: &str = "id, variant, start_fen, mode, human_color, level, white, black, \
     result, end_reason, rev, created_at, updated_at, owner, rated";

/// A record's row; a value this program cannot read is reported, not guessed.
pub fn read_record(row: &rusqlite::Row<'_>) -> rusqlite::Result<Result<GameRecord, StoreError>> {
    let id: String = row.get(0)?;
    let variant: String = row.get(1)?;
    let start_fen: String = row.get(2)?;
    let mode: String = row.get(3)?;
    let human: Option<String> = row.get(4)?;
    let level = row.get::<_, Option<i64>>(5)?.map(|l| l.clamp(1, 6) as u8);
    let (white, black): (String, String) = (row.get(6)?, row.get(7)?);
    let result: String = row.get(8)?;
    let reason: Option<String> = row.get(9)?;
    let (rev, created_at, updated_at) = (row.get(10)?, row.get(11)?, row.get(12)?);
    let owner: Option<String> = row.get(13)?;
    let rated: bool = row.get::<_, i64>(14)? != 0;
    let typed = || -> Result<GameRecord, StoreError> {
        Ok(GameRecord {
            variant: parse_variant(&id, &variant)?,
            ending: parse_ending(&id, &result, reason.as_deref())?,
            id: id.clone(),
            start_fen: start_fen.clone(),
            mode: GameMode::parse(&mode).unwrap_or(GameMode::Local),
            human_color: human.as_deref().and_then(parse_color),
            level,
            white: white.clone(),
            black: black.clone(),
            owner: owner.clone(),
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

pub fn read_online(row: &rusqlite::Row<'_>) -> rusqlite::Result<OnlineRecord> {
    let base: Option<i64> = row.get(2)?;
    let inc: Option<i64> = row.get(3)?;
    let color = |i: usize| -> rusqlite::Result<_> {
        Ok(row
            .get::<_, Option<String>>(i)?
            .as_deref()
            .and_then(parse_color))
    };
    let ply = |i: usize| -> rusqlite::Result<Option<usize>> {
        Ok(row.get::<_, Option<i64>>(i)?.map(|p| p.max(0) as usize))
    };
    Ok(OnlineRecord {
        white_seat: row.get(0)?,
        black_seat: row.get(1)?,
        clock: base.map(|base_ms| ClockSettings {
            base_ms,
            increment_ms: inc.unwrap_or(0),
        }),
        white_ms: row.get(4)?,
        black_ms: row.get(5)?,
        turn_started_at: row.get(6)?,
        draw_offer: color(7)?,
        rematch_offer: color(8)?,
        rematch_of: row.get(9)?,
        rematch_id: row.get(10)?,
        white_player: row.get(11)?,
        black_player: row.get(12)?,
        draw_offer_plies: [ply(13)?, ply(14)?],
        ratings: [row.get(15)?, row.get(16)?],
        rating_diffs: [row.get(17)?, row.get(18)?],
    })
}

fn write_online(conn: &Connection, id: &str, o: &OnlineRecord) -> Result<(), StoreError> {
    conn.prepare_cached(&format!(
        "INSERT INTO online_games (game_id, {ONLINE_COLUMNS}) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, \
             ?17, ?18, ?19, ?20) \
             ON CONFLICT(game_id) DO UPDATE SET white_seat = ?2, black_seat = ?3, \
             clock_base_ms = ?4, clock_inc_ms = ?5, white_ms = ?6, black_ms = ?7, \
             turn_started_at = ?8, draw_offer = ?9, rematch_offer = ?10, rematch_of = ?11, \
             rematch_id = ?12, white_player = ?13, black_player = ?14, white_draw_ply = ?15, \
             black_draw_ply = ?16, white_rating = ?17, black_rating = ?18, \
             white_rating_diff = ?19, black_rating_diff = ?20"
    ))?
    .execute(params![
        id,
        o.white_seat,
        o.black_seat,
        o.clock.map(|c| c.base_ms),
        o.clock.map(|c| c.increment_ms),
        o.white_ms,
        o.black_ms,
        o.turn_started_at,
        o.draw_offer.map(color_text),
        o.rematch_offer.map(color_text),
        o.rematch_of,
        o.rematch_id,
        o.white_player,
        o.black_player,
        o.draw_offer_plies[0].map(|p| p as i64),
        o.draw_offer_plies[1].map(|p| p as i64),
        o.ratings[0],
        o.ratings[1],
        o.rating_diffs[0],
        o.rating_diffs[1],
    ])?;
    Ok(())
}

/// Writes a player's new rating if the stored one is still `before`.
fn write_rating(conn: &Connection, w: &RatingWrite) -> Result<(), StoreError> {
    let stale = || StoreError::Stale {
        id: format!("rating of {}", w.player_id),
        found: -1,
    };
    let a = &w.after;
    let n = match &w.before {
        None => conn
            .prepare_cached(
                "INSERT INTO ratings (player_id, variant, rating, rd, volatility, games) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT DO NOTHING",
            )?
            .execute(params![
                w.player_id,
                w.variant.name(),
                a.rating,
                a.rd,
                a.volatility,
                a.games
            ])?,
        Some(b) => conn
            .prepare_cached(
                "UPDATE ratings SET rating = ?3, rd = ?4, volatility = ?5, games = ?6 \
                 WHERE player_id = ?1 AND variant = ?2 AND games = ?7",
            )?
            .execute(params![
                w.player_id,
                w.variant.name(),
                a.rating,
                a.rd,
                a.volatility,
                a.games,
                b.games
            ])?,
    };
    if n == 0 {
        return Err(stale());
    }
    Ok(())
}

/// Writes an update to revision `update.rev - 1` of a game.
pub fn apply_update(conn: &Connection, id: &str, update: &GameUpdate) -> Result<(), StoreError> {
    let (result, reason) = ending_columns(update.ending);
    let n = conn
        .prepare_cached(
            "UPDATE games SET rev = ?2, result = ?3, end_reason = ?4, updated_at = ?5 \
             WHERE id = ?1 AND rev = ?2 - 1",
        )?
        .execute(params![id, update.rev, result, reason, update.updated_at])?;
    if n == 0 {
        let found: Option<i64> = conn
            .prepare_cached("SELECT rev FROM games WHERE id = ?1")?
            .query_row(params![id], |r| r.get(0))
            .optional()?;
        return Err(match found {
            None => StoreError::Conflict(format!("there is no game {id}")),
            Some(found) => StoreError::Stale {
                id: id.to_string(),
                found,
            },
        });
    }
    if let Some([white, black]) = &update.names {
        conn.prepare_cached("UPDATE games SET white = ?2, black = ?3 WHERE id = ?1")?
            .execute(params![id, white, black])?;
    }
    if let Some(online) = &update.online {
        write_online(conn, id, online)?;
    }
    for w in &update.ratings {
        write_rating(conn, w)?;
    }
    Ok(())
}

pub fn insert_game(conn: &Connection, game: &StoredGame) -> Result<(), StoreError> {
    let r = &game.record;
    let (result, reason) = ending_columns(r.ending);
    conn.prepare_cached(&format!(
        "INSERT INTO games ({RECORD_COLUMNS}) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)"
    ))?
    .execute(params![
        r.id,
        r.variant.name(),
        r.start_fen,
        r.mode.as_str(),
        r.human_color.map(color_text),
        r.level.map(i64::from),
        r.white,
        r.black,
        result,
        reason,
        r.rev,
        r.created_at,
        r.updated_at,
        r.owner,
        r.rated as i64
    ])?;
    let mut ins = conn.prepare_cached(
        "INSERT INTO moves (game_id, ply, uci, san, played_at) VALUES (?1, ?2, ?3, ?4, ?5)",
    )?;
    for m in &game.moves {
        ins.execute(params![r.id, m.ply as i64, m.uci, m.san, r.created_at])?;
    }
    if let Some(online) = &game.online {
        write_online(conn, &r.id, online)?;
    }
    Ok(())
}

pub fn push_move(conn: &Connection, id: &str, mv: &StoredMove, at: i64) -> Result<(), StoreError> {
    let count: i64 = conn
        .prepare_cached("SELECT COUNT(*) FROM moves WHERE game_id = ?1")?
        .query_row(params![id], |r| r.get(0))?;
    if count as usize != mv.ply {
        return Err(StoreError::Conflict(format!(
            "game {id} has {count} moves stored, not {}",
            mv.ply
        )));
    }
    conn.prepare_cached(
        "INSERT INTO moves (game_id, ply, uci, san, played_at) VALUES (?1, ?2, ?3, ?4, ?5)",
    )?
    .execute(params![id, mv.ply as i64, mv.uci, mv.san, at])?;
    Ok(())
}

pub fn commit(
    conn: &Connection,
    id: &str,
    moves: &MovesChange,
    update: &GameUpdate,
) -> Result<(), StoreError> {
    apply_update(conn, id, update)?;
    match moves {
        MovesChange::Keep => {}
        MovesChange::Push(mv) => push_move(conn, id, mv, update.updated_at)?,
        MovesChange::Truncate(keep) => {
            conn.prepare_cached("DELETE FROM moves WHERE game_id = ?1 AND ply >= ?2")?
                .execute(params![id, *keep as i64])?;
        }
    }
    Ok(())
}

pub fn load_game(conn: &Connection, id: &str) -> Result<Option<StoredGame>, StoreError> {
    let record = conn
        .prepare_cached(&format!("SELECT {RECORD_COLUMNS} FROM games WHERE id = ?1"))?
        .query_row(params![id], read_record)
        .optional()?;
    let Some(record) = record.transpose()? else {
        return Ok(None);
    };
    let moves = conn
        .prepare_cached("SELECT ply, uci, san FROM moves WHERE game_id = ?1 ORDER BY ply")?
        .query_map(params![id], |row| {
            Ok(StoredMove {
                ply: row.get::<_, i64>(0)? as usize,
                uci: row.get(1)?,
                san: row.get(2)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    let online = conn
        .prepare_cached(&format!(
            "SELECT {ONLINE_COLUMNS} FROM online_games WHERE game_id = ?1"
        ))?
        .query_row(params![id], read_online)
        .optional()?;
    Ok(Some(StoredGame {
        record,
        moves,
        online,
    }))
}

/// Summaries from a query whose columns are the record's, then the move count.
fn summaries(
    stmt: &mut rusqlite::CachedStatement<'_>,
    params: impl rusqlite::Params,
) -> Result<Vec<GameSummary>, StoreError> {
    let rows = stmt
        .query_map(params, |row| {
            Ok((read_record(row)?, row.get::<_, i64>(15)? as usize))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    // A row this program cannot read is left out of the list (and
    // reported), rather than hiding every other game.
    Ok(rows
        .into_iter()
        .filter_map(|(record, move_count)| match record {
            Ok(record) => Some(GameSummary { record, move_count }),
            Err(e) => {
                tracing::error!("{e}");
                None
            }
        })
        .collect())
}

fn prefixed_columns() -> String {
    RECORD_COLUMNS
        .split(", ")
        .map(|c| format!("g.{c}"))
        .collect::<Vec<_>>()
        .join(", ")
}

pub fn list_games(conn: &Connection, q: &GameListQuery) -> Result<Vec<GameSummary>, StoreError> {
    let (before_at, before_id) = q.before.clone().unwrap_or((i64::MAX, String::new()));
    let sql = format!(
        "SELECT {}, (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) \
         FROM games g \
         WHERE g.id IN (SELECT id FROM games WHERE owner = ?1 \
                UNION SELECT game_id FROM online_games WHERE white_player = ?1 \
                UNION SELECT game_id FROM online_games WHERE black_player = ?1) \
           AND (g.updated_at < ?2 OR (g.updated_at = ?2 AND g.id < ?3) OR ?4) \
         ORDER BY g.updated_at DESC, g.id DESC LIMIT ?5",
        prefixed_columns()
    );
    let mut stmt = conn.prepare_cached(&sql)?;
    summaries(
        &mut stmt,
        params![
            q.player,
            before_at,
            before_id,
            q.before.is_none(),
            q.limit as i64
        ],
    )
}

pub fn finished_online_games(
    conn: &Connection,
    player: &str,
    limit: usize,
) -> Result<Vec<GameSummary>, StoreError> {
    let sql = format!(
        "SELECT {}, (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) \
         FROM games g JOIN online_games o ON o.game_id = g.id \
         WHERE (o.white_player = ?1 OR o.black_player = ?1) AND g.end_reason IS NOT NULL \
         ORDER BY g.updated_at DESC, g.id DESC LIMIT ?2",
        prefixed_columns()
    );
    let mut stmt = conn.prepare_cached(&sql)?;
    summaries(&mut stmt, params![player, limit as i64])
}
