//! Games, moves and online state in PostgreSQL: the statements, each a
//! function of a connection or of a transaction (the rows are mapped in
//! [`tensorchess_store::rows`]).

use super::row::{insert_row, mark, params};
use crate::bus::{send_notice, send_text};
use crate::PgStore;
use async_trait::async_trait;
use deadpool_postgres::GenericClient;
use tensorchess_store::columns::ending_columns;
use tensorchess_store::prelude::*;
use tensorchess_store::rows::{
    assignments, online_values, placeholders, prefixed_record_columns, read_online, read_record,
    read_summary, record_values, Value, ONLINE_COLUMNS, ONLINE_COLUMN_COUNT, RECORD_COLUMNS,
    RECORD_COLUMN_COUNT, SUMMARY_EXTRA_COLUMNS,
};
use tensorchess_store::{
    GameListQuery, GameSummary, GameUpdate, MovesChange, OnlineRecord, PuzzleRatingWrite,
    RatingWrite, StoreError, StoredGame, StoredMove,
};
use tensorchess_store::{Notice, RunRecord};
use tokio_postgres::types::ToSql;
use tokio_postgres::Row;

/// Replaces a game's online state (inserted, or every column updated).
async fn write_online(
    c: &impl GenericClient,
    id: &str,
    o: &OnlineRecord,
) -> Result<(), StoreError> {
    let stmt = c.prepare_cached(write_online_sql()).await?;
    let values: Vec<Value> = std::iter::once(Value::Text(Some(id.to_string())))
        .chain(online_values(o))
        .collect();
    c.execute(&stmt, &params(&values)).await?;
    Ok(())
}

/// Inserts or replaces a game's online state (`$1` the game's id): made
/// once, since every move's commit looks its prepared statement up by it.
fn write_online_sql() -> &'static str {
    static SQL: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    SQL.get_or_init(|| {
        format!(
            "INSERT INTO online_games (game_id, {ONLINE_COLUMNS}) VALUES ($1, {}) \
             ON CONFLICT (game_id) DO UPDATE SET {}",
            placeholders(mark, 2, ONLINE_COLUMN_COUNT),
            assignments(ONLINE_COLUMNS, mark, 2)
        )
    })
}

/// Writes a player's new rating if the stored one is still `before`.
async fn write_rating(c: &impl GenericClient, w: &RatingWrite) -> Result<(), StoreError> {
    let write = PuzzleRatingWrite {
        before: w.before,
        after: w.after,
    };
    super::learning::write_rating(
        c,
        "ratings",
        "player_id",
        &w.player_id,
        &w.pool.key(),
        &write,
    )
    .await
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
    if let Some(ending) = update.ending {
        super::tournaments::game_ended(c, id, ending).await?;
    }
    Ok(())
}

const INSERT_MOVE: &str =
    "INSERT INTO moves (game_id, ply, uci, san, played_at) VALUES ($1, $2, $3, $4, $5)";

/// Stores `game`, made from a seek or challenge (`what` `id`) that
/// `claimed` rows of the statement before found still open; a conflict
/// when none did (someone else took it, or it lapsed).
pub async fn insert_game_if_claimed(
    c: &impl GenericClient,
    claimed: u64,
    what: &str,
    id: &str,
    game: &StoredGame,
) -> Result<(), StoreError> {
    if claimed == 0 {
        return Err(StoreError::Conflict(format!(
            "the {what} {id} is no longer open"
        )));
    }
    insert_game(c, game).await
}

pub async fn insert_game(c: &impl GenericClient, game: &StoredGame) -> Result<(), StoreError> {
    let r = &game.record;
    let values = record_values(r);
    insert_row(c, "games", RECORD_COLUMNS, &values).await?;
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
/// row is locked by this transaction, so no other writer adds moves). The
/// moves of a game are plies 0, 1, … with no gap, so their count is the
/// last ply plus one: found in the primary key's index, where a count
/// would read every move of the game on each move.
const PUSH_MOVE: &str = "INSERT INTO moves (game_id, ply, uci, san, played_at) \
     SELECT $1, $2, $3, $4, $5 \
     WHERE COALESCE((SELECT MAX(ply) + 1 FROM moves WHERE game_id = $1), 0) = $2";

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
    let online = c.prepare_cached(write_online_sql()).await?;
    let push = c.prepare_cached(PUSH_MOVE).await?;
    let truncate = c.prepare_cached(TRUNCATE_MOVES).await?;
    let notify = c.prepare_cached("SELECT pg_notify($1, $2)").await?;
    let (result, reason) = ending_columns(update.ending);
    let online_values: Option<Vec<Value>> = update.online.as_ref().map(|o| {
        std::iter::once(Value::Text(Some(id.to_string())))
            .chain(online_values(o))
            .collect()
    });
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
            match &online_values {
                Some(values) => c.execute(&online, &params(values)).await.map(drop),
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
    if let Some(ending) = update.ending {
        // Rare (a game's end, and what follows it): its tournament seats
        // go with it, after the bump that holds the game's row.
        super::tournaments::game_ended(c, id, ending).await?;
    }
    if let Some(color) = update.berserk {
        // Rare too (an arena player's berserk): marked on the game's link.
        super::tournaments::berserk(c, id, color).await?;
    }
    Ok(true)
}

/// A game with its moves from ply `from` on and its online state, in one
/// statement (one snapshot, no transaction, one round trip): an instance
/// that follows a game another one runs reads it after every move.
pub async fn load_game(
    c: &impl GenericClient,
    id: &str,
    from: usize,
) -> Result<Option<StoredGame>, StoreError> {
    let columns = |prefix: &str, list: &str| {
        list.split(", ")
            .map(|c| format!("{prefix}.{c}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let sql = format!(
        "SELECT {}, o.game_id IS NOT NULL, {}, m.plies, m.ucis, m.sans \
         FROM games g LEFT JOIN online_games o ON o.game_id = g.id \
         LEFT JOIN LATERAL (SELECT array_agg(ply ORDER BY ply) AS plies, \
                array_agg(uci ORDER BY ply) AS ucis, array_agg(san ORDER BY ply) AS sans \
                FROM moves WHERE game_id = g.id AND ply >= $2) m ON true \
         WHERE g.id = $1",
        columns("g", RECORD_COLUMNS),
        columns("o", ONLINE_COLUMNS),
    );
    let statement = c.prepare_cached(&sql).await?;
    let Some(row) = c.query_opt(&statement, &[&id, &(from as i64)]).await? else {
        return Ok(None);
    };
    let record = read_record(&row, 0)?;
    let online_at = RECORD_COLUMN_COUNT + 1;
    let online = if row.try_get::<_, bool>(RECORD_COLUMN_COUNT)? {
        Some(read_online(&row, online_at)?)
    } else {
        None
    };
    let moves_at = online_at + ONLINE_COLUMN_COUNT;
    let plies: Vec<i64> = row.try_get::<_, Option<_>>(moves_at)?.unwrap_or_default();
    let ucis: Vec<String> = row
        .try_get::<_, Option<_>>(moves_at + 1)?
        .unwrap_or_default();
    let sans: Vec<String> = row
        .try_get::<_, Option<_>>(moves_at + 2)?
        .unwrap_or_default();
    let moves = plies
        .into_iter()
        .zip(ucis)
        .zip(sans)
        .map(|((ply, uci), san)| StoredMove {
            ply: ply.max(0) as usize,
            uci,
            san,
        })
        .collect();
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
        out.extend(read_summary(&row)?);
    }
    Ok(out)
}

/// Ids compare byte by byte (`COLLATE "C"`), as in SQLite, whatever the
/// database's locale: the paging cursor relies on one order.
pub async fn list_games(
    c: &impl GenericClient,
    q: &GameListQuery,
) -> Result<Vec<GameSummary>, StoreError> {
    let (before_at, before_id) = q.before.clone().unwrap_or((i64::MAX, String::new()));
    let sql = format!(
        "SELECT {}, {SUMMARY_EXTRA_COLUMNS} \
         FROM games g \
         WHERE g.id IN (SELECT id FROM games WHERE owner = $1 \
                UNION SELECT game_id FROM online_games WHERE white_player = $1 \
                UNION SELECT game_id FROM online_games WHERE black_player = $1) \
           AND (g.updated_at < $2 OR (g.updated_at = $2 AND g.id COLLATE \"C\" < $3) OR $4) \
         ORDER BY g.updated_at DESC, g.id COLLATE \"C\" DESC LIMIT $5",
        prefixed_record_columns()
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

/// [`GameStore::game_counts`](tensorchess_store::GameStore::game_counts).
pub async fn game_counts(
    c: &impl GenericClient,
    player: &str,
) -> Result<tensorchess_store::GameCounts, StoreError> {
    let stmt = c
        .prepare_cached(
            "SELECT COUNT(*)::BIGINT, \
         COALESCE(SUM(CASE WHEN g.rated THEN 1 ELSE 0 END), 0)::BIGINT, \
         COALESCE(SUM(CASE WHEN (g.result = '1-0' AND o.white_player = $1) OR (g.result = '0-1' AND o.black_player = $1) THEN 1 ELSE 0 END), 0)::BIGINT, \
         COALESCE(SUM(CASE WHEN (g.result = '0-1' AND o.white_player = $1) OR (g.result = '1-0' AND o.black_player = $1) THEN 1 ELSE 0 END), 0)::BIGINT, \
         COALESCE(SUM(CASE WHEN g.result = '1/2-1/2' THEN 1 ELSE 0 END), 0)::BIGINT, \
         COALESCE(SUM(CASE WHEN g.end_reason IS NULL THEN 1 ELSE 0 END), 0)::BIGINT \
         FROM games g JOIN online_games o ON o.game_id = g.id \
         WHERE o.white_player = $1 OR o.black_player = $1",
        )
        .await?;
    let row = c.query_one(&stmt, &[&player]).await?;
    let n = |i: usize| -> Result<u32, StoreError> {
        Ok(u32::try_from(row.try_get::<_, i64>(i)?).unwrap_or(u32::MAX))
    };
    Ok(tensorchess_store::GameCounts {
        all: n(0)?,
        rated: n(1)?,
        win: n(2)?,
        loss: n(3)?,
        draw: n(4)?,
        playing: n(5)?,
    })
}

/// [`GameRepo::search_games`](tensorchess_store::GameRepo::search_games).
pub async fn search_games(
    c: &impl GenericClient,
    q: &tensorchess_store::GameSearch,
) -> Result<Vec<(String, i64)>, StoreError> {
    let sql = if q.oldest_first {
        "SELECT g.id, g.created_at FROM games g JOIN online_games o ON o.game_id = g.id \
         WHERE (o.white_player = $1 OR o.black_player = $1) \
           AND ($2::TEXT IS NULL OR (o.white_player = $1 AND o.black_player = $2::TEXT) \
                OR (o.black_player = $1 AND o.white_player = $2::TEXT)) \
           AND ($3::BOOLEAN IS NULL OR g.rated = $3::BOOLEAN) \
           AND ($4::BIGINT IS NULL OR g.created_at >= $4::BIGINT) \
           AND ($5::BIGINT IS NULL OR g.created_at <= $5::BIGINT) \
           AND ($6::BOOLEAN = FALSE OR g.end_reason IS NOT NULL) \
           AND ($7::BIGINT IS NULL OR g.created_at > $7::BIGINT OR (g.created_at = $7::BIGINT AND g.id COLLATE \"C\" > $8 COLLATE \"C\")) \
           AND ($10::TEXT IS NULL OR EXISTS (SELECT 1 FROM explorer_positions p \
                WHERE p.variant = $10::TEXT AND p.hash = $11::BIGINT AND p.game_id = g.id)) \
           AND ($12::TEXT IS NULL OR g.variant = $12::TEXT) \
           AND ($13::TEXT IS NULL OR (o.white_player = $1 AND g.result = $13::TEXT) \
                OR (o.black_player = $1 AND g.result = $14::TEXT)) \
         ORDER BY g.created_at ASC, g.id COLLATE \"C\" ASC LIMIT $9"
    } else {
        "SELECT g.id, g.created_at FROM games g JOIN online_games o ON o.game_id = g.id \
         WHERE (o.white_player = $1 OR o.black_player = $1) \
           AND ($2::TEXT IS NULL OR (o.white_player = $1 AND o.black_player = $2::TEXT) \
                OR (o.black_player = $1 AND o.white_player = $2::TEXT)) \
           AND ($3::BOOLEAN IS NULL OR g.rated = $3::BOOLEAN) \
           AND ($4::BIGINT IS NULL OR g.created_at >= $4::BIGINT) \
           AND ($5::BIGINT IS NULL OR g.created_at <= $5::BIGINT) \
           AND ($6::BOOLEAN = FALSE OR g.end_reason IS NOT NULL) \
           AND ($7::BIGINT IS NULL OR g.created_at < $7::BIGINT OR (g.created_at = $7::BIGINT AND g.id COLLATE \"C\" < $8 COLLATE \"C\")) \
           AND ($10::TEXT IS NULL OR EXISTS (SELECT 1 FROM explorer_positions p \
                WHERE p.variant = $10::TEXT AND p.hash = $11::BIGINT AND p.game_id = g.id)) \
           AND ($12::TEXT IS NULL OR g.variant = $12::TEXT) \
           AND ($13::TEXT IS NULL OR (o.white_player = $1 AND g.result = $13::TEXT) \
                OR (o.black_player = $1 AND g.result = $14::TEXT)) \
         ORDER BY g.created_at DESC, g.id COLLATE \"C\" DESC LIMIT $9"
    };
    let (after_at, after_id) = match &q.after {
        Some((at, id)) => (Some(*at), Some(id.clone())),
        None => (None, None),
    };
    let stmt = c.prepare_cached(sql).await?;
    let limit = q.limit as i64;
    let variant = q.position.map(|(v, _)| v.name());
    let hash = q
        .position
        .map(|(_, h)| tensorchess_store::explorer::stored_hash(h));
    let only_variant = q.variant.map(|v| v.name());
    let as_white = q
        .end
        .map(|e| e.stored_result(tensorchess_rules::Color::White));
    let as_black = q
        .end
        .map(|e| e.stored_result(tensorchess_rules::Color::Black));
    let rows = c
        .query(
            &stmt,
            &[
                &q.player,
                &q.opponent,
                &q.rated,
                &q.since,
                &q.until,
                &q.finished,
                &after_at,
                &after_id,
                &limit,
                &variant,
                &hash,
                &only_variant,
                &as_white,
                &as_black,
            ],
        )
        .await?;
    rows.iter()
        .map(|r| Ok((r.try_get::<_, String>(0)?, r.try_get::<_, i64>(1)?)))
        .collect()
}

pub async fn finished_online_games(
    c: &impl GenericClient,
    player: &str,
    limit: usize,
) -> Result<Vec<GameSummary>, StoreError> {
    let sql = format!(
        "SELECT {}, {SUMMARY_EXTRA_COLUMNS} \
         FROM games g JOIN online_games o ON o.game_id = g.id \
         WHERE (o.white_player = $1 OR o.black_player = $1) AND g.end_reason IS NOT NULL \
         ORDER BY g.updated_at DESC, g.id COLLATE \"C\" DESC LIMIT $2",
        prefixed_record_columns()
    );
    let stmt = c.prepare_cached(&sql).await?;
    summaries(c.query(&stmt, &[&player, &(limit as i64)]).await?)
}

#[async_trait]
impl GameRepo for PgStore {
    async fn create_game(&self, game: &StoredGame) -> Result<(), StoreError> {
        write_tx!(self, |tx| insert_game(&tx, game).await?)
    }

    async fn load_game_from(
        &self,
        id: &str,
        from: usize,
    ) -> Result<Option<StoredGame>, StoreError> {
        // One statement, so one snapshot: the revision goes with the
        // moves it counts.
        load_game(&self.client().await?, id, from).await
    }

    async fn list_games(&self, query: &GameListQuery) -> Result<Vec<GameSummary>, StoreError> {
        list_games(&self.client().await?, query).await
    }

    async fn game_counts(&self, player: &str) -> Result<tensorchess_store::GameCounts, StoreError> {
        game_counts(&self.client().await?, player).await
    }

    async fn search_games(
        &self,
        search: &tensorchess_store::GameSearch,
    ) -> Result<Vec<(String, i64)>, StoreError> {
        search_games(&self.client().await?, search).await
    }

    async fn finished_online_games(
        &self,
        player: &str,
        limit: usize,
    ) -> Result<Vec<GameSummary>, StoreError> {
        finished_online_games(&self.client().await?, player, limit).await
    }

    async fn commit(
        &self,
        id: &str,
        moves: &MovesChange,
        update: &GameUpdate,
    ) -> Result<(), StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        let notice = self.game_notice(id, moves, update);
        if commit(&tx, id, moves, update, (&self.channel, &notice)).await? {
            tx.commit().await?;
            return Ok(());
        }
        tx.rollback().await?;
        Err(not_bumped(&client, id).await)
    }

    async fn create_rematch(
        &self,
        game: &StoredGame,
        previous: &str,
        update: &GameUpdate,
    ) -> Result<(), StoreError> {
        write_tx!(self, |tx| {
            apply_update(&tx, previous, update).await?;
            insert_game(&tx, game).await?;
            let notice = self.game_notice(previous, &MovesChange::Keep, update);
            send_text(&tx, &self.channel, &notice).await?
        })
    }

    async fn adopt_unowned(&self, owner: &str) -> Result<Vec<String>, StoreError> {
        let c = self.client().await?;
        let rows = c
            .query(
                "UPDATE games SET owner = $1, rev = rev + 1 \
                 WHERE owner IS NULL AND mode != 'online' RETURNING id",
                &[&owner],
            )
            .await?;
        Ok(rows
            .iter()
            .map(|r| r.try_get::<_, String>(0))
            .collect::<Result<Vec<_>, _>>()?)
    }

    async fn delete_game(&self, id: &str) -> Result<bool, StoreError> {
        // Moves and online state go with it (ON DELETE CASCADE).
        let c = self.client().await?;
        let gone = c.execute("DELETE FROM games WHERE id = $1", &[&id]).await? > 0;
        if gone {
            let notice = Notice::Deleted { id: id.to_string() };
            send_notice(&c, &self.channel, &notice).await?;
        }
        Ok(gone)
    }

    async fn running_online_games(&self) -> Result<Vec<String>, StoreError> {
        let c = self.client().await?;
        let rows = c
            .query(
                "SELECT o.game_id FROM online_games o JOIN games g ON g.id = o.game_id \
                 WHERE o.turn_started_at IS NOT NULL AND g.result = '*' AND g.end_reason IS NULL \
                 ORDER BY o.game_id",
                &[],
            )
            .await?;
        rows.iter()
            .map(|r| Ok(r.try_get(0)?))
            .collect::<Result<_, StoreError>>()
    }

    async fn running_correspondence_games(&self, player: &str) -> Result<Vec<String>, StoreError> {
        let c = self.client().await?;
        let rows = c
            .query(
                "SELECT o.game_id FROM online_games o JOIN games g ON g.id = o.game_id \
                 WHERE o.days_per_move IS NOT NULL AND (o.white_player = $1 OR o.black_player = $1) \
                 AND g.result = '*' AND g.end_reason IS NULL ORDER BY g.updated_at, o.game_id",
                &[&player],
            )
            .await?;
        rows.iter()
            .map(|r| Ok(r.try_get(0)?))
            .collect::<Result<_, StoreError>>()
    }

    async fn start_run(&self, boot_ms: i64) -> Result<i64, StoreError> {
        let c = self.client().await?;
        let row = c
            .query_one(
                "INSERT INTO server_runs (boot_ms, last_seen_ms) VALUES ($1, $1) RETURNING id",
                &[&boot_ms],
            )
            .await?;
        Ok(row.try_get(0)?)
    }

    async fn heartbeat(&self, run: i64, now_ms: i64) -> Result<(), StoreError> {
        let c = self.client().await?;
        let stmt = c
            .prepare_cached(
                "UPDATE server_runs SET last_seen_ms = GREATEST(last_seen_ms, $2) WHERE id = $1",
            )
            .await?;
        c.execute(&stmt, &[&run, &now_ms]).await?;
        Ok(())
    }

    async fn runs_since(&self, since_ms: i64) -> Result<Vec<RunRecord>, StoreError> {
        let c = self.client().await?;
        let rows = c
            .query(
                "SELECT id, boot_ms, last_seen_ms FROM server_runs WHERE last_seen_ms > $1 \
                 ORDER BY id",
                &[&since_ms],
            )
            .await?;
        rows.iter()
            .map(|r| {
                Ok(RunRecord {
                    id: r.try_get(0)?,
                    boot_ms: r.try_get(1)?,
                    last_seen_ms: r.try_get(2)?,
                })
            })
            .collect()
    }
}
