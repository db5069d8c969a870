//! Tournaments in SQLite.

use super::games::insert_game;
use super::row::{insert_row, mark};
use crate::SqliteStore;
use async_trait::async_trait;
use rusqlite::{params, params_from_iter, Connection};
use tensorchess_rules::Color;
use tensorchess_store::prelude::*;
use tensorchess_store::tournament::{
    berserk_column, busy, bye_sql, create_scheduled_sql, entered_sql, entries_rev_sql,
    entry_values, game_ended_sql, games_query, join_sql, lease_sql, link_sql, link_values,
    read_bye, read_entry, read_game, read_tournament, seat_sql, tournament_values, ByeRecord,
    EntryRecord, TournamentGame, TournamentGameLink, TournamentRecord, TournamentState,
    BYES_SQL_SQLITE, ENDED_ONLY, ENTRY_COLUMNS, TOURNAMENT_COLUMNS,
};
use tensorchess_store::trust::{tournament_counts_sql, Cap, TournamentCaps};
use tensorchess_store::{StoreError, StoredGame};

pub fn create(conn: &Connection, t: &TournamentRecord) -> Result<(), StoreError> {
    let values = tournament_values(t);
    insert_row(conn, "tournaments", TOURNAMENT_COLUMNS, values)?;
    Ok(())
}

/// Counts and inserts in one write (the writer thread's).
pub fn create_capped(
    conn: &Connection,
    t: &TournamentRecord,
    client: Option<&str>,
    caps: &TournamentCaps,
) -> Result<Option<Cap>, StoreError> {
    let (by_player, by_address): (i64, i64) = conn
        .prepare_cached(&tournament_counts_sql(mark))?
        .query_row(params![t.created_by, client, caps.since], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })?;
    if let Some(cap) = caps.refusal(by_player, by_address) {
        return Ok(Some(cap));
    }
    create(conn, t)?;
    conn.prepare_cached("UPDATE tournaments SET client = ?2 WHERE id = ?1")?
        .execute(params![t.id, client])?;
    Ok(None)
}

pub fn create_scheduled(conn: &Connection, t: &TournamentRecord) -> Result<bool, StoreError> {
    let n = conn
        .prepare_cached(&create_scheduled_sql(mark))?
        .execute(params_from_iter(tournament_values(t)))?;
    Ok(n == 1)
}

fn select(
    conn: &Connection,
    rest: &str,
    args: impl rusqlite::Params,
) -> Result<Vec<TournamentRecord>, StoreError> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {TOURNAMENT_COLUMNS} FROM tournaments {rest}"
    ))?;
    let mut rows = stmt.query(args)?;
    let mut out = Vec::new();
    while let Some(row) = rows.next()? {
        out.push(read_tournament(row, 0)?);
    }
    Ok(out)
}

pub fn get(conn: &Connection, id: &str) -> Result<Option<TournamentRecord>, StoreError> {
    Ok(select(conn, "WHERE id = ?1", params![id])?.pop())
}

pub fn in_state(
    conn: &Connection,
    state: TournamentState,
    limit: usize,
) -> Result<Vec<TournamentRecord>, StoreError> {
    let order = match state {
        TournamentState::Finished => "starts_at DESC, id",
        _ => "starts_at, id",
    };
    select(
        conn,
        &format!("WHERE state = ?1 ORDER BY {order} LIMIT ?2"),
        params![state.as_str(), limit as i64],
    )
}

pub fn created_since(conn: &Connection, player: &str, since: i64) -> Result<usize, StoreError> {
    let n: i64 = conn
        .prepare_cached(
            "SELECT COUNT(*) FROM tournaments WHERE created_by = ?1 AND created_at >= ?2",
        )?
        .query_row(params![player, since], |r| r.get(0))?;
    Ok(n.max(0) as usize)
}

pub fn set_state(
    conn: &Connection,
    id: &str,
    from: TournamentState,
    to: TournamentState,
) -> Result<bool, StoreError> {
    let n = conn
        .prepare_cached("UPDATE tournaments SET state = ?3 WHERE id = ?1 AND state = ?2")?
        .execute(params![id, from.as_str(), to.as_str()])?;
    Ok(n == 1)
}

pub fn join(conn: &Connection, e: &EntryRecord, max_players: u32) -> Result<bool, StoreError> {
    let mut values = entry_values(e);
    values.push(tensorchess_store::rows::Value::Int(Some(i64::from(
        max_players,
    ))));
    let n = conn
        .prepare_cached(&join_sql(mark))?
        .execute(params_from_iter(values))?;
    Ok(n == 1)
}

pub fn set_entry(
    conn: &Connection,
    tournament: &str,
    player: &str,
    withdrawn: bool,
    paused: bool,
) -> Result<bool, StoreError> {
    let n = conn
        .prepare_cached(
            "UPDATE tournament_entries SET withdrawn = ?3, paused = ?4 \
             WHERE tournament_id = ?1 AND player = ?2",
        )?
        .execute(params![tournament, player, withdrawn, paused])?;
    Ok(n == 1)
}

pub fn entries(conn: &Connection, tournament: &str) -> Result<Vec<EntryRecord>, StoreError> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {ENTRY_COLUMNS} FROM tournament_entries WHERE tournament_id = ?1 \
         ORDER BY joined_at, player"
    ))?;
    let mut rows = stmt.query(params![tournament])?;
    let mut out = Vec::new();
    while let Some(row) = rows.next()? {
        out.push(read_entry(row, 0)?);
    }
    Ok(out)
}

pub fn start_game(
    conn: &Connection,
    link: &TournamentGameLink,
    game: &StoredGame,
) -> Result<(), StoreError> {
    let refused = |e: rusqlite::Error| match e {
        rusqlite::Error::SqliteFailure(f, _)
            if f.code == rusqlite::ErrorCode::ConstraintViolation =>
        {
            busy(link)
        }
        e => e.into(),
    };
    // The seats first: a player still playing is the usual refusal.
    for player in [&link.white, &link.black] {
        conn.prepare_cached(&seat_sql(mark))
            .and_then(|mut s| s.execute(params![link.tournament_id, link.game_id, player]))
            .map_err(refused)?;
    }
    conn.prepare_cached(&link_sql(mark))
        .and_then(|mut s| s.execute(params_from_iter(link_values(link))))
        .map_err(refused)?;
    insert_game(conn, game)
}

/// Each board in its own savepoint: one refused leaves the others.
fn start_games(
    conn: &Connection,
    boards: &[(TournamentGameLink, StoredGame)],
) -> Result<Vec<Result<(), String>>, StoreError> {
    let exec = |sql: &str| conn.prepare_cached(sql).and_then(|mut s| s.execute([]));
    let mut out = Vec::with_capacity(boards.len());
    for (link, game) in boards {
        exec("SAVEPOINT board")?;
        match start_game(conn, link, game) {
            Ok(()) => out.push(Ok(())),
            Err(StoreError::Conflict(why)) => {
                exec("ROLLBACK TO board")?;
                out.push(Err(why));
            }
            Err(e) => return Err(e),
        }
        exec("RELEASE board")?;
    }
    Ok(out)
}

/// The end of game `id` (ending as `ending`) in its tournament: see
/// [`tensorchess_store::tournament::game_ended_sql`].
pub fn game_ended(
    conn: &Connection,
    id: &str,
    ending: tensorchess_store::Ending,
) -> Result<(), StoreError> {
    let (seats, pause) = game_ended_sql(mark, ending);
    if conn.prepare_cached(&seats)?.execute(params![id])? == 0 {
        return Ok(());
    }
    if let Some((sql, side)) = pause {
        conn.prepare_cached(&sql)?.execute(params![id, side])?;
    }
    Ok(())
}

pub fn entered(conn: &Connection, player: &str) -> Result<Vec<TournamentRecord>, StoreError> {
    let mut stmt = conn.prepare_cached(&entered_sql(mark))?;
    let mut rows = stmt.query(params![player])?;
    let mut out = Vec::new();
    while let Some(row) = rows.next()? {
        out.push(read_tournament(row, 0)?);
    }
    Ok(out)
}

fn games(
    conn: &Connection,
    filter: &str,
    args: impl rusqlite::Params,
) -> Result<Vec<TournamentGame>, StoreError> {
    let mut stmt = conn.prepare_cached(&games_query(filter))?;
    let mut rows = stmt.query(args)?;
    let mut out = Vec::new();
    while let Some(row) = rows.next()? {
        out.push(read_game(row)?);
    }
    Ok(out)
}

pub fn games_of(conn: &Connection, tournament: &str) -> Result<Vec<TournamentGame>, StoreError> {
    games(conn, "tg.tournament_id = ?1", params![tournament])
}

pub fn games_among(
    conn: &Connection,
    tournament: &str,
    ids: &[String],
    ended_only: bool,
) -> Result<Vec<TournamentGame>, StoreError> {
    // A statement's parameters are bounded: a few hundred ids at a time.
    const AT_ONCE: usize = 500;
    let mut out = Vec::new();
    for few in ids.chunks(AT_ONCE) {
        let marks: Vec<String> = (2..few.len() + 2).map(mark).collect();
        let filter = format!(
            "tg.tournament_id = ?1 AND tg.game_id IN ({}){}",
            marks.join(", "),
            if ended_only { ENDED_ONLY } else { "" }
        );
        let args = std::iter::once(tournament).chain(few.iter().map(String::as_str));
        out.extend(games(conn, &filter, params_from_iter(args))?);
    }
    out.sort_by(|a, b| {
        (a.link.created_at, &a.link.game_id).cmp(&(b.link.created_at, &b.link.game_id))
    });
    Ok(out)
}

pub fn entries_rev(conn: &Connection, tournament: &str) -> Result<Option<i64>, StoreError> {
    use rusqlite::OptionalExtension;
    Ok(conn
        .prepare_cached(&entries_rev_sql(mark))?
        .query_row(params![tournament], |row| row.get(0))
        .optional()?)
}

pub fn game(conn: &Connection, game_id: &str) -> Result<Option<TournamentGame>, StoreError> {
    Ok(games(conn, "tg.game_id = ?1", params![game_id])?.pop())
}

pub fn berserk(conn: &Connection, game_id: &str, color: Color) -> Result<bool, StoreError> {
    let column = berserk_column(color);
    let n = conn
        .prepare_cached(&format!(
            "UPDATE tournament_games SET {column} = 1 WHERE game_id = ?1 AND {column} = 0"
        ))?
        .execute(params![game_id])?;
    Ok(n == 1)
}

pub fn lease(
    conn: &Connection,
    tournament: &str,
    holder: &str,
    now: i64,
    until: i64,
) -> Result<bool, StoreError> {
    let n = conn
        .prepare_cached(&lease_sql(mark))?
        .execute(params![tournament, holder, now, until])?;
    Ok(n == 1)
}

pub fn add_bye(conn: &Connection, b: &ByeRecord) -> Result<bool, StoreError> {
    let n = conn.prepare_cached(&bye_sql(mark))?.execute(params![
        b.tournament_id,
        i64::from(b.round),
        b.player,
        i64::from(b.half_points)
    ])?;
    Ok(n == 1)
}

pub fn byes(conn: &Connection, tournament: &str) -> Result<Vec<ByeRecord>, StoreError> {
    let mut stmt = conn.prepare_cached(BYES_SQL_SQLITE)?;
    let mut rows = stmt.query(params![tournament])?;
    let mut out = Vec::new();
    while let Some(row) = rows.next()? {
        out.push(read_bye(row)?);
    }
    Ok(out)
}

#[async_trait]
impl TournamentRepo for SqliteStore {
    async fn create_tournament(&self, t: &TournamentRecord) -> Result<(), StoreError> {
        let t = t.clone();
        self.write(move |conn| create(conn, &t)).await
    }

    async fn create_scheduled_tournament(&self, t: &TournamentRecord) -> Result<bool, StoreError> {
        let t = t.clone();
        self.write(move |conn| create_scheduled(conn, &t)).await
    }

    async fn tournament(&self, id: &str) -> Result<Option<TournamentRecord>, StoreError> {
        let id = id.to_string();
        self.read(move |conn| get(conn, &id)).await
    }

    async fn tournaments_in(
        &self,
        state: TournamentState,
        limit: usize,
    ) -> Result<Vec<TournamentRecord>, StoreError> {
        self.read(move |conn| in_state(conn, state, limit)).await
    }

    async fn create_tournament_capped(
        &self,
        t: &TournamentRecord,
        client: Option<&str>,
        caps: &tensorchess_store::trust::TournamentCaps,
    ) -> Result<Option<tensorchess_store::trust::Cap>, StoreError> {
        let (t, client, caps) = (t.clone(), client.map(str::to_string), caps.clone());
        self.write(move |conn| create_capped(conn, &t, client.as_deref(), &caps))
            .await
    }

    async fn tournaments_created_since(
        &self,
        player: &str,
        since: i64,
    ) -> Result<usize, StoreError> {
        let player = player.to_string();
        self.read(move |conn| created_since(conn, &player, since))
            .await
    }

    async fn set_tournament_state(
        &self,
        id: &str,
        from: TournamentState,
        to: TournamentState,
    ) -> Result<bool, StoreError> {
        let id = id.to_string();
        self.write(move |conn| set_state(conn, &id, from, to)).await
    }

    async fn join_tournament(
        &self,
        entry: &EntryRecord,
        max_players: u32,
    ) -> Result<bool, StoreError> {
        let entry = entry.clone();
        self.write(move |conn| join(conn, &entry, max_players))
            .await
    }

    async fn set_entry(
        &self,
        tournament_id: &str,
        player: &str,
        withdrawn: bool,
        paused: bool,
    ) -> Result<bool, StoreError> {
        let (t, p) = (tournament_id.to_string(), player.to_string());
        self.write(move |conn| set_entry(conn, &t, &p, withdrawn, paused))
            .await
    }

    async fn tournament_entries(
        &self,
        tournament_id: &str,
    ) -> Result<Vec<EntryRecord>, StoreError> {
        let t = tournament_id.to_string();
        self.read(move |conn| entries(conn, &t)).await
    }

    async fn entered_tournaments(&self, player: &str) -> Result<Vec<TournamentRecord>, StoreError> {
        let p = player.to_string();
        self.read(move |conn| entered(conn, &p)).await
    }

    async fn start_tournament_games(
        &self,
        boards: &[(TournamentGameLink, StoredGame)],
    ) -> Result<Vec<Result<(), String>>, StoreError> {
        let boards = boards.to_vec();
        self.write(move |conn| start_games(conn, &boards)).await
    }

    async fn tournament_games(
        &self,
        tournament_id: &str,
    ) -> Result<Vec<TournamentGame>, StoreError> {
        let t = tournament_id.to_string();
        self.read(move |conn| games_of(conn, &t)).await
    }

    async fn tournament_game(&self, game_id: &str) -> Result<Option<TournamentGame>, StoreError> {
        let g = game_id.to_string();
        self.read(move |conn| game(conn, &g)).await
    }

    async fn tournament_games_among(
        &self,
        tournament_id: &str,
        game_ids: &[String],
        ended_only: bool,
    ) -> Result<Vec<TournamentGame>, StoreError> {
        let (t, ids) = (tournament_id.to_string(), game_ids.to_vec());
        self.read(move |conn| games_among(conn, &t, &ids, ended_only))
            .await
    }

    async fn tournament_entries_rev(&self, tournament_id: &str) -> Result<Option<i64>, StoreError> {
        let t = tournament_id.to_string();
        self.read(move |conn| entries_rev(conn, &t)).await
    }

    async fn add_tournament_bye(&self, bye: &ByeRecord) -> Result<bool, StoreError> {
        let bye = bye.clone();
        self.write(move |conn| add_bye(conn, &bye)).await
    }

    async fn tournament_byes(&self, tournament_id: &str) -> Result<Vec<ByeRecord>, StoreError> {
        let t = tournament_id.to_string();
        self.read(move |conn| byes(conn, &t)).await
    }

    async fn take_director_lease(
        &self,
        tournament_id: &str,
        holder: &str,
        now: i64,
        until: i64,
    ) -> Result<bool, StoreError> {
        let (t, h) = (tournament_id.to_string(), holder.to_string());
        self.write(move |conn| lease(conn, &t, &h, now, until))
            .await
    }
}
