//! The same generation and timings on PostgreSQL (`--db postgres://…`,
//! a database whose schema a server made): the games inserted in
//! transactions of many games (each game's moves as arrays: `UNNEST`), the
//! explorer's query the store's own SQL with PostgreSQL's placeholders,
//! the plain scan with `string_agg`.

use super::{one_game, percentiles, report_scans, scan_timed, Sample, PER_TX};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::time::Instant;
use tensorchess_rules::{VariantGame, VariantKind};
use tensorchess_store::explorer::{explore_values, moves_sql, top_games_sql};
use tensorchess_store::rows::{
    online_values, record_values, Value, ONLINE_COLUMNS, RECORD_COLUMNS,
};
use tensorchess_store::ExplorerFilter;
use tokio_postgres::types::ToSql;
use tokio_postgres::{Client, NoTls};

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

async fn connect(url: &str) -> Result<Client, String> {
    let (client, connection) = tokio_postgres::connect(url, NoTls).await.map_err(err)?;
    tokio::spawn(async move {
        if let Err(e) = connection.await {
            eprintln!("explorer-bench: the connection ended: {e}");
        }
    });
    Ok(client)
}

fn marks(from: usize, n: usize) -> String {
    (from..from + n)
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn params(values: &[Value]) -> Vec<&(dyn ToSql + Sync)> {
    values.iter().map(|v| v as &(dyn ToSql + Sync)).collect()
}

/// Stores `games` generated games, as the SQLite generation does.
pub async fn generate(url: &str, games: usize, max_plies: usize, seed: u64) -> Result<(), String> {
    let mut client = connect(url).await?;
    let mut rng = SmallRng::seed_from_u64(seed);
    let started = Instant::now();
    let mut moves_stored = 0usize;
    let n_online = ONLINE_COLUMNS.split(',').count();
    for chunk in 0..games.div_ceil(PER_TX) {
        let tx = client.transaction().await.map_err(err)?;
        let game_row = tx
            .prepare(&format!(
                "INSERT INTO games ({RECORD_COLUMNS}) VALUES ({})",
                marks(1, 15)
            ))
            .await
            .map_err(err)?;
        let online_row = tx
            .prepare(&format!(
                "INSERT INTO online_games (game_id, {ONLINE_COLUMNS}) VALUES ({})",
                marks(1, n_online + 1)
            ))
            .await
            .map_err(err)?;
        let move_rows = tx
            .prepare(
                "INSERT INTO moves (game_id, ply, uci, san, played_at) \
                 SELECT * FROM UNNEST($1::text[], $2::int[], $3::text[], $4::text[], $5::bigint[])",
            )
            .await
            .map_err(err)?;
        let (mut ids, mut plies, mut ucis, mut sans, mut ats) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for n in chunk * PER_TX..((chunk + 1) * PER_TX).min(games) {
            let (record, online, moves) = one_game(&mut rng, n, seed, max_plies);
            tx.execute(&game_row, &params(&record_values(&record)))
                .await
                .map_err(err)?;
            let mut values = vec![Value::Text(Some(record.id.clone()))];
            values.extend(online_values(&online));
            tx.execute(&online_row, &params(&values))
                .await
                .map_err(err)?;
            for (ply, (uci, san)) in moves.into_iter().enumerate() {
                ids.push(record.id.clone());
                plies.push(ply as i32);
                ucis.push(uci);
                sans.push(san);
                ats.push(record.created_at);
                moves_stored += 1;
            }
        }
        tx.execute(&move_rows, &[&ids, &plies, &ucis, &sans, &ats])
            .await
            .map_err(err)?;
        tx.commit().await.map_err(err)?;
    }
    println!(
        "{games} games, {moves_stored} moves stored in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

async fn samples(client: &Client, count: usize, seed: u64) -> Result<Vec<Sample>, String> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let bounds = client
        .query_one(
            "SELECT MIN(id), MAX(id) FROM games WHERE mode = 'online'",
            &[],
        )
        .await
        .map_err(err)?;
    let (Some(first), Some(_)) = (
        bounds.get::<_, Option<String>>(0),
        bounds.get::<_, Option<String>>(1),
    ) else {
        return Err("no games stored".into());
    };
    let total: i64 = client
        .query_one("SELECT COUNT(*) FROM games WHERE mode = 'online'", &[])
        .await
        .map_err(err)?
        .get(0);
    // The generator's ids: a prefix, then the game's number in 8 digits.
    let prefix = &first[..first.len().saturating_sub(8)];
    let mut out = Vec::new();
    while out.len() < count {
        let id = format!("{prefix}{:08}", rng.random_range(0..total.max(1)));
        let Some(row) = client
            .query_opt("SELECT id, variant FROM games WHERE id = $1", &[&id])
            .await
            .map_err(err)?
        else {
            continue;
        };
        let variant: VariantKind = row
            .get::<_, String>(1)
            .parse()
            .map_err(|e| format!("{e}"))?;
        let depth = rng.random_range(0..16i64);
        let line: Vec<String> = client
            .query(
                "SELECT uci FROM moves WHERE game_id = $1 AND ply < $2 ORDER BY ply",
                &[&id, &depth],
            )
            .await
            .map_err(err)?
            .iter()
            .map(|r| r.get(0))
            .collect();
        let mut game = VariantGame::new(variant);
        for m in &line {
            game.push_str(m).map_err(|e| format!("{id}: {m}: {e}"))?;
        }
        out.push(Sample {
            variant,
            hash: super::hash(&game),
            line,
        });
    }
    Ok(out)
}

/// Times the explorer's query and the plain scan, as on SQLite.
pub async fn query(url: &str, queries: usize, scans: usize, seed: u64) -> Result<(), String> {
    let client = connect(url).await?;
    let counted: i64 = client
        .query_one("SELECT COUNT(*) FROM explorer_games", &[])
        .await
        .map_err(err)?
        .get(0);
    let rows: i64 = client
        .query_one("SELECT COUNT(*) FROM explorer_moves", &[])
        .await
        .map_err(err)?
        .get(0);
    println!("{counted} games counted, {rows} explorer rows");
    let samples = samples(&client, queries.max(scans), seed).await?;
    let mark = |i: usize| format!("${i}");
    let moves = client.prepare(&moves_sql(mark)).await.map_err(err)?;
    let top = client.prepare(&top_games_sql(mark)).await.map_err(err)?;
    let mut times = Vec::new();
    let mut moves_seen = 0usize;
    for s in samples.iter().take(queries) {
        let values = explore_values(s.variant, s.hash, &ExplorerFilter::all());
        let t = Instant::now();
        let n = client
            .query(&moves, &params(&values))
            .await
            .map_err(err)?
            .len();
        client.query(&top, &params(&values)).await.map_err(err)?;
        times.push(t.elapsed().as_secs_f64() * 1000.0);
        moves_seen += n;
    }
    let (p50, p99, max) = percentiles(times);
    println!(
        "explorer query: {queries} positions, {:.1} moves each: p50 {p50:.2} ms, p99 {p99:.2} ms, max {max:.2} ms",
        moves_seen as f64 / queries.max(1) as f64
    );
    let scan = client
        .prepare(
            "SELECT m.uci, COUNT(*) FILTER (WHERE g.result = '1-0'), \
             COUNT(*) FILTER (WHERE g.result = '1/2-1/2'), \
             COUNT(*) FILTER (WHERE g.result = '0-1') \
             FROM games g JOIN moves m ON m.game_id = g.id AND m.ply = $2 \
             WHERE g.mode = 'online' AND g.result <> '*' AND g.variant = $1 \
             AND COALESCE((SELECT string_agg(p.uci, ',' ORDER BY p.ply) FROM moves p \
             WHERE p.game_id = g.id AND p.ply < $2), '') = $3 GROUP BY m.uci",
        )
        .await
        .map_err(err)?;
    let mut times = Vec::new();
    for s in samples.iter().take(scans) {
        let depth = s.line.len() as i64;
        let t = Instant::now();
        let n = client
            .query(&scan, &[&s.variant.name(), &depth, &s.line.join(",")])
            .await
            .map_err(err)?
            .len();
        scan_timed(&mut times, depth, n, t);
    }
    report_scans(scans, times);
    Ok(())
}
