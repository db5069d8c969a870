//! Games, moves and online state in PostgreSQL: the row mapping and the
//! statements, each a function of a connection or of a transaction.

use super::super::columns::{color_text, ending_columns, parse_color, parse_ending, parse_variant};
use super::super::{
    ClockSettings, GameListQuery, GameMode, GameRecord, GameSummary, GameUpdate, MovesChange,
    OnlineRecord, RatingWrite, StoreError, StoredGame, StoredMove,
};
use deadpool_postgres::GenericClient;
use tokio_postgres::types::ToSql;
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

/// Inserts or replaces a game's online state (`$1` the game's id).
fn write_online_sql() -> String {
    format!(
        "INSERT INTO online_games (game_id, {ONLINE_COLUMNS}) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, \
         $17, $18, $19, $20) \
         ON CONFLICT (game_id) DO UPDATE SET white_seat = $2, black_seat = $3, \
         clock_base_ms = $4, clock_inc_ms = $5, white_ms = $6, black_ms = $7, \
         turn_started_at = $8, draw_offer = $9, rematch_offer = $10, rematch_of = $11, \
         rematch_id = $12, white_player = $13, black_player = $14, white_draw_ply = $15, \
         black_draw_ply = $16, white_rating = $17, black_rating = $18, \
         white_rating_diff = $19, black_rating_diff = $20"
    )
}

/// An online record's row: the values that are not columns as they are.
struct OnlineColumns<'a> {
    id: &'a str,
    o: &'a OnlineRecord,
    base: Option<i64>,
    inc: Option<i64>,
    draw_offer: Option<&'static str>,
    rematch_offer: Option<&'static str>,
    draw_plies: [Option<i64>; 2],
}

impl<'a> OnlineColumns<'a> {
    fn of(id: &'a str, o: &'a OnlineRecord) -> OnlineColumns<'a> {
        OnlineColumns {
            id,
            o,
            base: o.clock.map(|c| c.base_ms),
            inc: o.clock.map(|c| c.increment_ms),
            draw_offer: o.draw_offer.map(color_text),
            rematch_offer: o.rematch_offer.map(color_text),
            draw_plies: o.draw_offer_plies.map(|p| p.map(|p| p as i64)),
        }
    }

    /// The parameters of [`write_online_sql`].
    fn params(&self) -> [&(dyn ToSql + Sync); 20] {
        let o = self.o;
        [
            &self.id,
            &o.white_seat,
            &o.black_seat,
            &self.base,
            &self.inc,
            &o.white_ms,
            &o.black_ms,
            &o.turn_started_at,
            &self.draw_offer,
            &self.rematch_offer,
            &o.rematch_of,
            &o.rematch_id,
            &o.white_player,
            &o.black_player,
            &self.draw_plies[0],
            &self.draw_plies[1],
            &o.ratings[0],
            &o.ratings[1],
            &o.rating_diffs[0],
            &o.rating_diffs[1],
        ]
    }
}

async fn write_online(
    c: &impl GenericClient,
    id: &str,
    o: &OnlineRecord,
) -> Result<(), StoreError> {
    let stmt = c.prepare_cached(&write_online_sql()).await?;
    c.execute(&stmt, &OnlineColumns::of(id, o).params()).await?;
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

/// Moves a game from revision `$2 - 1` to `$2`: no row changed means
/// another writer got there first.
const BUMP_REVISION: &str =
    "UPDATE games SET rev = $2::BIGINT, result = $3, end_reason = $4, updated_at = $5 \
     WHERE id = $1 AND rev = $2::BIGINT - 1";

const SET_NAMES: &str = "UPDATE games SET white = $2, black = $3 WHERE id = $1";

/// Why a game's revision did not move on: it is stored at another
/// revision ([`StoreError::Stale`]), or not at all. Asked outside the
/// failed transaction.
pub async fn not_bumped(c: &impl GenericClient, id: &str) -> StoreError {
    let found = match c
        .query_opt("SELECT rev FROM games WHERE id = $1", &[&id])
        .await
    {
        Ok(found) => found,
        Err(e) => return e.into(),
    };
    match found.map(|row| row.try_get(0)) {
        None => StoreError::Conflict(format!("there is no game {id}")),
        Some(Ok(found)) => StoreError::Stale {
            id: id.to_string(),
            found,
        },
        Some(Err(e)) => e.into(),
    }
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
    let stmt = c.prepare_cached(BUMP_REVISION).await?;
    let n = c
        .execute(
            &stmt,
            &[&id, &update.rev, &result, &reason, &update.updated_at],
        )
        .await?;
    if n == 0 {
        return Err(not_bumped(c, id).await);
    }
    if let Some([white, black]) = &update.names {
        let stmt = c.prepare_cached(SET_NAMES).await?;
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

/// The next move, if the game has exactly `$2` moves stored (the game's
/// row is locked by this transaction, so no other writer adds moves).
const PUSH_MOVE: &str = "INSERT INTO moves (game_id, ply, uci, san, played_at) \
     SELECT $1, $2, $3, $4, $5 WHERE (SELECT COUNT(*) FROM moves WHERE game_id = $1) = $2";

const TRUNCATE_MOVES: &str = "DELETE FROM moves WHERE game_id = $1 AND ply >= $2";

/// Writes a change to revision `update.rev - 1` of a game, with `notice`
/// for the other servers, in the open transaction `c`. Every statement is
/// sent at once and the answers read after (one round trip instead of
/// one a statement): `Ok(false)` when the revision did not match (then
/// whatever the other statements did is to be rolled back, and their
/// errors are theirs, not the cause).
pub async fn commit(
    c: &impl GenericClient,
    id: &str,
    moves: &MovesChange,
    update: &GameUpdate,
    (channel, notice): (&str, &str),
) -> Result<bool, StoreError> {
    // Prepared first (each once a connection), so that nothing below waits
    // for a round trip of its own and the statements go in this order.
    let bump = c.prepare_cached(BUMP_REVISION).await?;
    let names = c.prepare_cached(SET_NAMES).await?;
    let online = c.prepare_cached(&write_online_sql()).await?;
    let push = c.prepare_cached(PUSH_MOVE).await?;
    let truncate = c.prepare_cached(TRUNCATE_MOVES).await?;
    let notify = c.prepare_cached("SELECT pg_notify($1, $2)").await?;
    let (result, reason) = ending_columns(update.ending);
    let online_columns = update.online.as_ref().map(|o| OnlineColumns::of(id, o));
    let bump_params: [&(dyn ToSql + Sync); 5] =
        [&id, &update.rev, &result, &reason, &update.updated_at];
    let notify_params: [&(dyn ToSql + Sync); 2] = [&channel, &notice];
    let (bumped, named, written, moved, ratings, noticed) = tokio::join!(
        c.execute(&bump, &bump_params),
        async {
            match &update.names {
                Some([white, black]) => c.execute(&names, &[&id, white, black]).await.map(drop),
                None => Ok(()),
            }
        },
        async {
            match &online_columns {
                Some(columns) => c.execute(&online, &columns.params()).await.map(drop),
                None => Ok(()),
            }
        },
        async {
            match moves {
                MovesChange::Keep => Ok(1),
                MovesChange::Push(mv) => {
                    let ply = mv.ply as i64;
                    c.execute(&push, &[&id, &ply, &mv.uci, &mv.san, &update.updated_at])
                        .await
                }
                MovesChange::Truncate(keep) => c
                    .execute(&truncate, &[&id, &(*keep as i64)])
                    .await
                    .map(|_| 1),
            }
        },
        async {
            // Rare (a rated game's end): one after the other.
            for w in &update.ratings {
                write_rating(c, w).await?;
            }
            Ok::<_, StoreError>(())
        },
        c.execute(&notify, &notify_params),
    );
    if bumped? == 0 {
        return Ok(false);
    }
    named?;
    written?;
    if moved? == 0 {
        let MovesChange::Push(mv) = moves else {
            unreachable!("only a push can insert nothing");
        };
        return Err(StoreError::Conflict(format!(
            "game {id} does not have {} moves stored",
            mv.ply
        )));
    }
    ratings?;
    noticed?;
    Ok(true)
}

/// A game with its moves and online state; the three are asked at once
/// (one round trip), in the caller's snapshot.
pub async fn load_game(c: &impl GenericClient, id: &str) -> Result<Option<StoredGame>, StoreError> {
    let record = c
        .prepare_cached(&format!("SELECT {RECORD_COLUMNS} FROM games WHERE id = $1"))
        .await?;
    let moves = c
        .prepare_cached("SELECT ply, uci, san FROM moves WHERE game_id = $1 ORDER BY ply")
        .await?;
    let online = c
        .prepare_cached(&format!(
            "SELECT {ONLINE_COLUMNS} FROM online_games WHERE game_id = $1"
        ))
        .await?;
    let key: [&(dyn ToSql + Sync); 1] = [&id];
    let (record, moves, online) = tokio::join!(
        c.query_opt(&record, &key),
        c.query(&moves, &key),
        c.query_opt(&online, &key)
    );
    let Some(row) = record? else {
        return Ok(None);
    };
    let record = read_record(&row)??;
    let moves = moves?
        .iter()
        .map(|row| {
            Ok(StoredMove {
                ply: row.try_get::<_, i64>(0)? as usize,
                uci: row.try_get(1)?,
                san: row.try_get(2)?,
            })
        })
        .collect::<Result<Vec<_>, StoreError>>()?;
    let online = match online? {
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
                UNION SELECT game_id FROM online_games WHERE black_player = $1) \
           AND (g.updated_at < $2 OR (g.updated_at = $2 AND g.id COLLATE \"C\" < $3) OR $4) \
         ORDER BY g.updated_at DESC, g.id COLLATE \"C\" DESC LIMIT $5",
        prefixed_columns()
    );
    let stmt = c.prepare_cached(&sql).await?;
    let rows = c
        .query(
            &stmt,
            &[
                &q.player,
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
