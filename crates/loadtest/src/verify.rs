//! After the run: every acknowledged move must be in the database.

use std::collections::HashMap;
use std::path::Path;

use crate::http::Seats;
use crate::Error;

/// Every acknowledged move must be in the database, at its ply.
pub(crate) fn verify(
    db: &Path,
    acked: &[(String, usize, String)],
    games: &[Seats],
    finished: bool,
) -> Result<(usize, Vec<String>), Error> {
    // Read-write: after a kill, opening recovers the write-ahead log.
    let conn = rusqlite::Connection::open(db)?;
    let mut stored: HashMap<(String, usize), String> = HashMap::new();
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
        stored.insert((g, p), u);
    }
    let mut problems = Vec::new();
    for (g, p, u) in acked {
        match stored.get(&(g.clone(), *p)) {
            Some(s) if s == u => {}
            Some(s) => problems.push(format!("game {g} ply {p}: acknowledged {u}, stored {s}")),
            None => problems.push(format!("game {g} ply {p}: acknowledged {u}, not stored")),
        }
    }
    let mut unfinished = 0;
    let mut q = conn.prepare("SELECT result, end_reason FROM games WHERE id = ?1")?;
    for s in games.iter().filter(|_| finished) {
        let (result, reason): (String, Option<String>) =
            q.query_row([&s.id], |r| Ok((r.get(0)?, r.get(1)?)))?;
        if result == "*" && reason.is_none() {
            unfinished += 1;
        }
    }
    if unfinished > 0 {
        problems.push(format!("{unfinished} games have no stored result"));
    }
    Ok((stored.len(), problems))
}
