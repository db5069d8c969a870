//! Tournaments in PostgreSQL.

use super::games::insert_game;
use super::row::{insert_row, mark, params};
use super::trust::lock_keys;
use crate::PgStore;
use async_trait::async_trait;
use deadpool_postgres::GenericClient;
use futures_util::future::join_all;
use tensorchess_rules::Color;
use tensorchess_store::prelude::*;
use tensorchess_store::rows::Value;
use tensorchess_store::tournament::{
    berserk_column, busy, bye_sql, create_scheduled_sql, entered_sql, entries_rev_sql,
    entry_values, game_ended_sql, games_query, join_sql, lease_sql, link_sql, link_values,
    read_bye, read_entry, read_game, read_tournament, seat_sql, tournament_values, ByeRecord,
    EntryRecord, TournamentGame, TournamentGameLink, TournamentRecord, TournamentState,
    BYES_SQL_SQLITE, ENDED_ONLY, ENTRY_COLUMNS, TOURNAMENT_COLUMNS,
};
use tensorchess_store::trust::{tournament_counts_sql, Cap, TournamentCaps};
use tensorchess_store::{StoreError, StoredGame};
use tokio_postgres::types::ToSql;

pub async fn create(c: &impl GenericClient, t: &TournamentRecord) -> Result<(), StoreError> {
    let values = tournament_values(t);
    insert_row(c, "tournaments", TOURNAMENT_COLUMNS, &values).await?;
    Ok(())
}

/// Counts and inserts in `c`'s transaction under advisory locks on the
/// creator and the address (two servers racing count one after the other).
pub async fn create_capped(
    c: &impl GenericClient,
    t: &TournamentRecord,
    client: Option<&str>,
    caps: &TournamentCaps,
) -> Result<Option<Cap>, StoreError> {
    let mut keys = vec![format!("tournaments by {}", t.created_by)];
    if let Some(client) = client {
        keys.push(format!("tournaments from {client}"));
    }
    lock_keys(c, &keys).await?;
    let stmt = c.prepare_cached(&tournament_counts_sql(mark)).await?;
    let row = c
        .query_one(&stmt, &[&t.created_by, &client, &caps.since])
        .await?;
    if let Some(cap) = caps.refusal(row.try_get(0)?, row.try_get(1)?) {
        return Ok(Some(cap));
    }
    create(c, t).await?;
    c.execute(
        "UPDATE tournaments SET client = $2 WHERE id = $1",
        &[&t.id, &client],
    )
    .await?;
    Ok(None)
}

pub async fn create_scheduled(
    c: &impl GenericClient,
    t: &TournamentRecord,
) -> Result<bool, StoreError> {
    let values = tournament_values(t);
    let stmt = c.prepare_cached(&create_scheduled_sql(mark)).await?;
    Ok(c.execute(&stmt, &params(&values)).await? == 1)
}

async fn select(
    c: &impl GenericClient,
    rest: &str,
    args: &[&(dyn ToSql + Sync)],
) -> Result<Vec<TournamentRecord>, StoreError> {
    let stmt = c
        .prepare_cached(&format!(
            "SELECT {TOURNAMENT_COLUMNS} FROM tournaments {rest}"
        ))
        .await?;
    c.query(&stmt, args)
        .await?
        .iter()
        .map(|row| read_tournament(row, 0))
        .collect()
}

pub async fn get(c: &impl GenericClient, id: &str) -> Result<Option<TournamentRecord>, StoreError> {
    Ok(select(c, "WHERE id = $1", &[&id]).await?.pop())
}

pub async fn in_state(
    c: &impl GenericClient,
    state: TournamentState,
    limit: usize,
) -> Result<Vec<TournamentRecord>, StoreError> {
    let order = match state {
        TournamentState::Finished => "starts_at DESC, id COLLATE \"C\"",
        _ => "starts_at, id COLLATE \"C\"",
    };
    let limit = limit as i64;
    select(
        c,
        &format!("WHERE state = $1 ORDER BY {order} LIMIT $2"),
        &[&state.as_str(), &limit],
    )
    .await
}

pub async fn created_since(
    c: &impl GenericClient,
    player: &str,
    since: i64,
) -> Result<usize, StoreError> {
    let row = c
        .query_one(
            "SELECT COUNT(*) FROM tournaments WHERE created_by = $1 AND created_at >= $2",
            &[&player, &since],
        )
        .await?;
    Ok(row.try_get::<_, i64>(0)?.max(0) as usize)
}

pub async fn set_state(
    c: &impl GenericClient,
    id: &str,
    from: TournamentState,
    to: TournamentState,
) -> Result<bool, StoreError> {
    let n = c
        .execute(
            "UPDATE tournaments SET state = $3 WHERE id = $1 AND state = $2",
            &[&id, &from.as_str(), &to.as_str()],
        )
        .await?;
    Ok(n == 1)
}

pub async fn join(
    c: &impl GenericClient,
    e: &EntryRecord,
    max_players: u32,
) -> Result<bool, StoreError> {
    let mut values = entry_values(e);
    values.push(Value::Int(Some(i64::from(max_players))));
    let stmt = c.prepare_cached(&join_sql(mark)).await?;
    Ok(c.execute(&stmt, &params(&values)).await? == 1)
}

pub async fn set_entry(
    c: &impl GenericClient,
    tournament: &str,
    player: &str,
    withdrawn: bool,
    paused: bool,
) -> Result<bool, StoreError> {
    let n = c
        .execute(
            "UPDATE tournament_entries SET withdrawn = $3, paused = $4 \
             WHERE tournament_id = $1 AND player = $2",
            &[&tournament, &player, &withdrawn, &paused],
        )
        .await?;
    Ok(n == 1)
}

pub async fn entries(
    c: &impl GenericClient,
    tournament: &str,
) -> Result<Vec<EntryRecord>, StoreError> {
    let stmt = c
        .prepare_cached(&format!(
            "SELECT {ENTRY_COLUMNS} FROM tournament_entries WHERE tournament_id = $1 \
             ORDER BY joined_at, player COLLATE \"C\""
        ))
        .await?;
    c.query(&stmt, &[&tournament])
        .await?
        .iter()
        .map(|row| read_entry(row, 0))
        .collect()
}

/// The seats, then the link: a player still playing breaks the seats'
/// unique index, a round's board taken twice the links' (both refusals:
/// [`StoreError::Conflict`], and the transaction goes).
pub async fn start_game(
    c: &impl GenericClient,
    link: &TournamentGameLink,
    game: &StoredGame,
) -> Result<(), StoreError> {
    let refused = |e: tokio_postgres::Error| {
        if e.code() == Some(&tokio_postgres::error::SqlState::UNIQUE_VIOLATION) {
            busy(link)
        } else {
            e.into()
        }
    };
    let seat = c.prepare_cached(&seat_sql(mark)).await?;
    for player in [&link.white, &link.black] {
        c.execute(&seat, &[&link.tournament_id, &link.game_id, player])
            .await
            .map_err(refused)?;
    }
    let stmt = c.prepare_cached(&link_sql(mark)).await?;
    c.execute(&stmt, &params(&link_values(link)))
        .await
        .map_err(refused)?;
    insert_game(c, game).await
}

/// The end of game `id` (ending as `ending`) in its tournament: see
/// [`tensorchess_store::tournament::game_ended_sql`].
pub async fn game_ended(
    c: &impl GenericClient,
    id: &str,
    ending: tensorchess_store::Ending,
) -> Result<(), StoreError> {
    let (seats, pause) = game_ended_sql(mark, ending);
    let stmt = c.prepare_cached(&seats).await?;
    if c.execute(&stmt, &[&id]).await? == 0 {
        return Ok(());
    }
    if let Some((sql, side)) = pause {
        let stmt = c.prepare_cached(&sql).await?;
        c.execute(&stmt, &[&id, &side]).await?;
    }
    Ok(())
}

pub async fn entered(
    c: &impl GenericClient,
    player: &str,
) -> Result<Vec<TournamentRecord>, StoreError> {
    let stmt = c.prepare_cached(&entered_sql(mark)).await?;
    c.query(&stmt, &[&player])
        .await?
        .iter()
        .map(|row| read_tournament(row, 0))
        .collect()
}

async fn games(
    c: &impl GenericClient,
    filter: &str,
    arg: &str,
) -> Result<Vec<TournamentGame>, StoreError> {
    let stmt = c.prepare_cached(&games_query(filter)).await?;
    c.query(&stmt, &[&arg])
        .await?
        .iter()
        .map(read_game)
        .collect()
}

pub async fn games_of(
    c: &impl GenericClient,
    tournament: &str,
) -> Result<Vec<TournamentGame>, StoreError> {
    games(c, "tg.tournament_id = $1", tournament).await
}

pub async fn games_among(
    c: &impl GenericClient,
    tournament: &str,
    ids: &[String],
    ended_only: bool,
) -> Result<Vec<TournamentGame>, StoreError> {
    let filter = format!(
        "tg.tournament_id = $1 AND tg.game_id = ANY($2){}",
        if ended_only { ENDED_ONLY } else { "" }
    );
    let stmt = c.prepare_cached(&games_query(&filter)).await?;
    c.query(&stmt, &[&tournament, &ids])
        .await?
        .iter()
        .map(read_game)
        .collect()
}

pub async fn entries_rev(
    c: &impl GenericClient,
    tournament: &str,
) -> Result<Option<i64>, StoreError> {
    let stmt = c.prepare_cached(&entries_rev_sql(mark)).await?;
    Ok(match c.query_opt(&stmt, &[&tournament]).await? {
        Some(row) => Some(row.try_get(0)?),
        None => None,
    })
}

pub async fn game(
    c: &impl GenericClient,
    game_id: &str,
) -> Result<Option<TournamentGame>, StoreError> {
    Ok(games(c, "tg.game_id = $1", game_id).await?.pop())
}

pub async fn berserk(
    c: &impl GenericClient,
    game_id: &str,
    color: Color,
) -> Result<bool, StoreError> {
    let column = berserk_column(color);
    let n = c
        .execute(
            &format!(
                "UPDATE tournament_games SET {column} = TRUE WHERE game_id = $1 AND NOT {column}"
            ),
            &[&game_id],
        )
        .await?;
    Ok(n == 1)
}

pub async fn lease(
    c: &impl GenericClient,
    tournament: &str,
    holder: &str,
    now: i64,
    until: i64,
) -> Result<bool, StoreError> {
    let stmt = c.prepare_cached(&lease_sql(mark)).await?;
    Ok(c.execute(&stmt, &[&tournament, &holder, &now, &until])
        .await?
        == 1)
}

pub async fn add_bye(c: &impl GenericClient, b: &ByeRecord) -> Result<bool, StoreError> {
    let stmt = c.prepare_cached(&bye_sql(mark)).await?;
    let (round, half) = (i64::from(b.round), i64::from(b.half_points));
    Ok(
        c.execute(&stmt, &[&b.tournament_id, &round, &b.player, &half])
            .await?
            == 1,
    )
}

pub async fn byes(c: &impl GenericClient, tournament: &str) -> Result<Vec<ByeRecord>, StoreError> {
    let stmt = c
        .prepare_cached(&BYES_SQL_SQLITE.replace("?1", "$1"))
        .await?;
    c.query(&stmt, &[&tournament])
        .await?
        .iter()
        .map(read_bye)
        .collect()
}

#[async_trait]
impl TournamentRepo for PgStore {
    async fn create_tournament(&self, t: &TournamentRecord) -> Result<(), StoreError> {
        create(&self.client().await?, t).await
    }

    async fn create_scheduled_tournament(&self, t: &TournamentRecord) -> Result<bool, StoreError> {
        create_scheduled(&self.client().await?, t).await
    }

    async fn tournament(&self, id: &str) -> Result<Option<TournamentRecord>, StoreError> {
        get(&self.client().await?, id).await
    }

    async fn tournaments_in(
        &self,
        state: TournamentState,
        limit: usize,
    ) -> Result<Vec<TournamentRecord>, StoreError> {
        in_state(&self.client().await?, state, limit).await
    }

    async fn create_tournament_capped(
        &self,
        t: &TournamentRecord,
        client: Option<&str>,
        caps: &tensorchess_store::trust::TournamentCaps,
    ) -> Result<Option<tensorchess_store::trust::Cap>, StoreError> {
        write_tx!(self, |tx| create_capped(&tx, t, client, caps).await?)
    }

    async fn tournaments_created_since(
        &self,
        player: &str,
        since: i64,
    ) -> Result<usize, StoreError> {
        created_since(&self.client().await?, player, since).await
    }

    async fn set_tournament_state(
        &self,
        id: &str,
        from: TournamentState,
        to: TournamentState,
    ) -> Result<bool, StoreError> {
        set_state(&self.client().await?, id, from, to).await
    }

    async fn join_tournament(
        &self,
        entry: &EntryRecord,
        max_players: u32,
    ) -> Result<bool, StoreError> {
        join(&self.client().await?, entry, max_players).await
    }

    async fn set_entry(
        &self,
        tournament_id: &str,
        player: &str,
        withdrawn: bool,
        paused: bool,
    ) -> Result<bool, StoreError> {
        set_entry(
            &self.client().await?,
            tournament_id,
            player,
            withdrawn,
            paused,
        )
        .await
    }

    async fn tournament_entries(
        &self,
        tournament_id: &str,
    ) -> Result<Vec<EntryRecord>, StoreError> {
        entries(&self.client().await?, tournament_id).await
    }

    async fn entered_tournaments(&self, player: &str) -> Result<Vec<TournamentRecord>, StoreError> {
        entered(&self.client().await?, player).await
    }

    async fn start_tournament_games(
        &self,
        boards: &[(TournamentGameLink, StoredGame)],
    ) -> Result<Vec<Result<(), String>>, StoreError> {
        if boards.is_empty() {
            return Ok(Vec::new());
        }
        let mut client = self.client().await?;
        // Every board's statements sent at once (a few round trips for
        // the wave, not a few a board): a refusal is rare, and then the
        // whole is rolled back and done again board by board.
        let tx = client.transaction().await?;
        let all = join_all(
            boards
                .iter()
                .map(|(link, game)| start_game(&tx, link, game)),
        )
        .await;
        if all.iter().all(Result::is_ok) {
            tx.commit().await?;
            return Ok(vec![Ok(()); boards.len()]);
        }
        tx.rollback().await?;
        let tx = client.transaction().await?;
        let mut out = Vec::with_capacity(boards.len());
        for (link, game) in boards {
            tx.batch_execute("SAVEPOINT board").await?;
            match start_game(&tx, link, game).await {
                Ok(()) => out.push(Ok(())),
                Err(StoreError::Conflict(why)) => {
                    tx.batch_execute("ROLLBACK TO SAVEPOINT board").await?;
                    out.push(Err(why));
                }
                Err(e) => return Err(e),
            }
            tx.batch_execute("RELEASE SAVEPOINT board").await?;
        }
        tx.commit().await?;
        Ok(out)
    }

    async fn tournament_games(
        &self,
        tournament_id: &str,
    ) -> Result<Vec<TournamentGame>, StoreError> {
        games_of(&self.client().await?, tournament_id).await
    }

    async fn tournament_game(&self, game_id: &str) -> Result<Option<TournamentGame>, StoreError> {
        game(&self.client().await?, game_id).await
    }

    async fn tournament_games_among(
        &self,
        tournament_id: &str,
        game_ids: &[String],
        ended_only: bool,
    ) -> Result<Vec<TournamentGame>, StoreError> {
        games_among(&self.client().await?, tournament_id, game_ids, ended_only).await
    }

    async fn tournament_entries_rev(&self, tournament_id: &str) -> Result<Option<i64>, StoreError> {
        entries_rev(&self.client().await?, tournament_id).await
    }

    async fn add_tournament_bye(&self, bye: &ByeRecord) -> Result<bool, StoreError> {
        add_bye(&self.client().await?, bye).await
    }

    async fn tournament_byes(&self, tournament_id: &str) -> Result<Vec<ByeRecord>, StoreError> {
        byes(&self.client().await?, tournament_id).await
    }

    async fn take_director_lease(
        &self,
        tournament_id: &str,
        holder: &str,
        now: i64,
        until: i64,
    ) -> Result<bool, StoreError> {
        lease(&self.client().await?, tournament_id, holder, now, until).await
    }
}
