//! After the run: every acknowledged move must be in the database at its
//! ply, and every game a client saw end must have its result stored. The
//! database is read directly (SQLite file, or PostgreSQL with
//! tokio-postgres), not through a server, so that a server's answer cannot
//! stand in for what is on disk.

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::str::FromStr;

use crate::db::DbTarget;
use crate::tally::Acked;
use crate::Error;

/// What the database holds for the run's games.
#[derive(Default)]
pub(crate) struct Stored {
    /// (game, ply) → move.
    pub(crate) moves: HashMap<(String, usize), String>,
    /// game → (result, end reason).
    pub(crate) games: HashMap<String, (String, Option<String>)>,
}

/// What the check found.
pub(crate) struct Check {
    /// Move rows of the run's games.
    pub(crate) rows: usize,
    pub(crate) problems: Vec<String>,
}

/// Reads the run's games from the database and checks them.
pub(crate) async fn verify(
    db: &DbTarget,
    ids: &[String],
    acked: &[Acked],
    ended: &HashSet<String>,
) -> Result<Check, Error> {
    let stored = match db {
        DbTarget::Sqlite(path) => {
            let path = path.clone();
            let ids = ids.to_vec();
            tokio::task::spawn_blocking(move || read_sqlite(&path, &ids)).await??
        }
        DbTarget::Postgres(url) => read_postgres(url, ids).await?,
    };
    Ok(Check {
        rows: stored.moves.len(),
        problems: problems(&stored, ids, acked, ended),
    })
}

/// The differences between what the clients were told and what is stored.
pub(crate) fn problems(
    stored: &Stored,
    ids: &[String],
    acked: &[Acked],
    ended: &HashSet<String>,
) -> Vec<String> {
    let mut out = Vec::new();
    for (g, p, u) in acked {
        match stored.moves.get(&(g.clone(), *p)) {
            Some(s) if s == u => {}
            Some(s) => out.push(format!("game {g} ply {p}: acknowledged {u}, stored {s}")),
            None => out.push(format!("game {g} ply {p}: acknowledged {u}, not stored")),
        }
    }
    let missing = ids
        .iter()
        .filter(|g| !stored.games.contains_key(*g))
        .count();
    if missing > 0 {
        out.push(format!("{missing} games are not in the database at all"));
    }
    let unfinished = ended
        .iter()
        .filter(|g| {
            stored
                .games
                .get(*g)
                .is_some_and(|(result, reason)| result == "*" && reason.is_none())
        })
        .count();
    if unfinished > 0 {
        out.push(format!(
            "{unfinished} games that the clients saw end have no stored result"
        ));
    }
    out
}

fn read_sqlite(db: &Path, ids: &[String]) -> Result<Stored, Error> {
    // Read-write: after a kill, opening recovers the write-ahead log.
    let conn = rusqlite::Connection::open(db)?;
    let wanted: HashSet<&str> = ids.iter().map(String::as_str).collect();
    let mut out = Stored::default();
    let mut stmt = conn.prepare("SELECT game_id, ply, uci FROM moves")?;
    let rows = stmt.query_map([], |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, i64>(1)? as usize,
            r.get::<_, String>(2)?,
        ))
    })?;
    for row in rows {
        let (g, p, u) = row?;
        if wanted.contains(g.as_str()) {
            out.moves.insert((g, p), u);
        }
    }
    let mut stmt = conn.prepare("SELECT id, result, end_reason FROM games")?;
    let rows = stmt.query_map([], |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, Option<String>>(2)?,
        ))
    })?;
    for row in rows {
        let (g, result, reason) = row?;
        if wanted.contains(g.as_str()) {
            out.games.insert(g, (result, reason));
        }
    }
    Ok(out)
}

async fn read_postgres(url: &str, ids: &[String]) -> Result<Stored, Error> {
    // The URL was checked to be on loopback (or a Unix socket) when parsed.
    let config = tokio_postgres::Config::from_str(url)?;
    let (client, conn) = config.connect(tokio_postgres::NoTls).await?;
    let task = tokio::spawn(conn);
    let mut out = Stored::default();
    let ids = ids.to_vec();
    for row in client
        .query(
            "SELECT game_id, ply, uci FROM moves WHERE game_id = ANY($1)",
            &[&ids],
        )
        .await?
    {
        let ply: i64 = row.get(1);
        out.moves.insert((row.get(0), ply as usize), row.get(2));
    }
    for row in client
        .query(
            "SELECT id, result, end_reason FROM games WHERE id = ANY($1)",
            &[&ids],
        )
        .await?
    {
        out.games.insert(row.get(0), (row.get(1), row.get(2)));
    }
    drop(client);
    let _ = task.await;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_acknowledged_move_must_be_stored_and_every_ended_game_finished() {
        let mut s = Stored::default();
        s.moves.insert(("a".into(), 0), "e2e4".into());
        s.moves.insert(("a".into(), 1), "e7e5".into());
        s.games
            .insert("a".into(), ("1-0".into(), Some("checkmate".into())));
        s.games.insert("b".into(), ("*".into(), None));
        let ids = vec!["a".to_string(), "b".to_string()];
        let acked = vec![("a".to_string(), 0, "e2e4".to_string())];
        let ended: HashSet<String> = ["a".to_string()].into();
        assert!(problems(&s, &ids, &acked, &ended).is_empty());
        let acked = vec![
            ("a".to_string(), 1, "d7d5".to_string()),
            ("b".to_string(), 0, "e2e4".to_string()),
        ];
        let ended: HashSet<String> = ["a".to_string(), "b".to_string()].into();
        let p = problems(&s, &ids, &acked, &ended);
        assert_eq!(p.len(), 3, "{p:?}");
        assert!(p[0].contains("stored e7e5"));
        assert!(p[1].contains("not stored"));
        assert!(p[2].contains("1 games"));
        let ids = vec!["a".to_string(), "c".to_string()];
        let p = problems(&s, &ids, &[], &HashSet::new());
        assert_eq!(
            p,
            vec!["1 games are not in the database at all".to_string()]
        );
    }
}
