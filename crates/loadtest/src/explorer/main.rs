//! The opening explorer at many stored games (issue 42): generates finished
//! online games straight into a server's SQLite file (random legal moves,
//! the first plies drawn from a few moves so that games share openings as
//! real ones do; speeds, ratings and results at random), and times the
//! explorer's query for positions along the generated lines against the
//! same answer by plain scan of the stored moves.
//!
//! `--db postgres://…` does the same on PostgreSQL (`pg.rs`).
//!
//! ```sh
//! cargo build --profile ci -p tensorchess -p tensorchess-loadtest
//! db=$(mktemp -d)/games.sqlite3
//! target/ci/tensorchess admin --db $db list-bans        # the schema
//! target/ci/explorer-bench generate --db $db --games 1000000
//! time target/ci/tensorchess admin --db $db explorer-rebuild
//! target/ci/explorer-bench query --db $db --queries 2000 --scans 5
//! ```
//!
//! The query is the store's own SQL (`tensorchess_store::explorer`), on
//! one connection as the server's reader; the plain scan finds the games
//! whose first moves are the line's and counts their next moves.

mod pg;

use clap::{Parser, Subcommand};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use rusqlite::{params, params_from_iter, Connection};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;
use tensorchess_rules::{with_game, ByColor, Color, EndReason, Outcome, VariantGame, VariantKind};
use tensorchess_store::explorer::{explore_values, moves_sql, top_games_sql};
use tensorchess_store::rows::{online_values, record_values, ONLINE_COLUMNS, RECORD_COLUMNS};
use tensorchess_store::{
    ClockSettings, Ending, ExplorerFilter, GameMode, GameRecord, OnlineRecord,
};

/// `explorer-bench`: generate games, or time queries.
#[derive(Parser)]
struct Args {
    #[command(subcommand)]
    action: Action,
}

#[derive(Subcommand)]
enum Action {
    /// Stores finished online games of random moves in an SQLite file
    /// whose schema a server made.
    Generate {
        /// The server's SQLite file, or its PostgreSQL database
        /// (`postgres://…`).
        #[arg(long)]
        db: String,
        /// How many games.
        #[arg(long, default_value_t = 100_000)]
        games: usize,
        /// Plies per game at most.
        #[arg(long, default_value_t = 60)]
        max_plies: usize,
        /// The generator's seed (the same seed, the same games).
        #[arg(long, default_value_t = 42)]
        seed: u64,
    },
    /// Times the explorer's query and the plain scan for positions along
    /// stored lines.
    Query {
        /// The server's SQLite file or PostgreSQL database (explorer
        /// rebuilt).
        #[arg(long)]
        db: String,
        /// Explorer queries.
        #[arg(long, default_value_t = 2000)]
        queries: usize,
        /// Plain scans (each reads every stored move: slow).
        #[arg(long, default_value_t = 5)]
        scans: usize,
        /// The sampler's seed.
        #[arg(long, default_value_t = 7)]
        seed: u64,
    },
}

fn is_pg(db: &str) -> bool {
    db.starts_with("postgres://") || db.starts_with("postgresql://")
}

fn main() -> ExitCode {
    let args = Args::parse();
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("explorer-bench: {e}");
            return ExitCode::from(2);
        }
    };
    let out = match args.action {
        Action::Generate {
            db,
            games,
            max_plies,
            seed,
        } if is_pg(&db) => runtime.block_on(pg::generate(&db, games, max_plies, seed)),
        Action::Generate {
            db,
            games,
            max_plies,
            seed,
        } => generate(&PathBuf::from(db), games, max_plies, seed),
        Action::Query {
            db,
            queries,
            scans,
            seed,
        } if is_pg(&db) => runtime.block_on(pg::query(&db, queries, scans, seed)),
        Action::Query {
            db,
            queries,
            scans,
            seed,
        } => query(&PathBuf::from(db), queries, scans, seed),
    };
    match out {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("explorer-bench: {e}");
            ExitCode::from(2)
        }
    }
}

fn hash(game: &VariantGame) -> u64 {
    with_game!(game, g => g.position().hash())
}

/// The index of the move chosen among `n` sorted ones: in the opening
/// mostly one of the first few (as real games follow a few main lines),
/// then any.
fn choose(rng: &mut SmallRng, n: usize, ply: usize) -> usize {
    if ply < 10 {
        let u: f64 = rng.random_range(f64::MIN_POSITIVE..1.0);
        ((-u.ln() * 1.2) as usize).min(n - 1)
    } else {
        rng.random_range(0..n)
    }
}

/// Games stored per transaction.
const PER_TX: usize = 5_000;

fn generate(db: &PathBuf, games: usize, max_plies: usize, seed: u64) -> Result<(), String> {
    let mut conn = Connection::open(db).map_err(|e| e.to_string())?;
    conn.pragma_update(None, "journal_mode", "WAL")
        .map_err(|e| e.to_string())?;
    let mut rng = SmallRng::seed_from_u64(seed);
    let started = Instant::now();
    let mut moves_stored = 0usize;
    for chunk in 0..games.div_ceil(PER_TX) {
        let tx = conn.transaction().map_err(|e| e.to_string())?;
        {
            let mut game_row = tx
                .prepare(&format!(
                    "INSERT INTO games ({RECORD_COLUMNS}) VALUES ({})",
                    (1..=15)
                        .map(|i| format!("?{i}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
                .map_err(|e| e.to_string())?;
            let n_online = ONLINE_COLUMNS.split(',').count();
            let mut online_row = tx
                .prepare(&format!(
                    "INSERT INTO online_games (game_id, {ONLINE_COLUMNS}) VALUES ({})",
                    (1..=n_online + 1)
                        .map(|i| format!("?{i}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
                .map_err(|e| e.to_string())?;
            let mut move_row = tx
                .prepare(
                    "INSERT INTO moves (game_id, ply, uci, san, played_at) \
                     VALUES (?1, ?2, ?3, ?4, ?5)",
                )
                .map_err(|e| e.to_string())?;
            for n in chunk * PER_TX..((chunk + 1) * PER_TX).min(games) {
                let (record, online, moves) = one_game(&mut rng, n, seed, max_plies);
                game_row
                    .execute(params_from_iter(
                        record_values(&record).into_iter().map(sql_value),
                    ))
                    .map_err(|e| e.to_string())?;
                let id = rusqlite::types::Value::Text(record.id.clone());
                let online = online_values(&online);
                online_row
                    .execute(params_from_iter(
                        std::iter::once(id).chain(online.into_iter().map(sql_value)),
                    ))
                    .map_err(|e| e.to_string())?;
                for (ply, (uci, san)) in moves.iter().enumerate() {
                    move_row
                        .execute(params![record.id, ply as i64, uci, san, record.created_at])
                        .map_err(|e| e.to_string())?;
                }
                moves_stored += moves.len();
            }
        }
        tx.commit().map_err(|e| e.to_string())?;
    }
    println!(
        "{games} games, {moves_stored} moves stored in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// A store value as rusqlite binds it (the store's own binding is behind
/// its `sqlite` feature, for the backend crate).
fn sql_value(v: tensorchess_store::rows::Value) -> rusqlite::types::Value {
    use rusqlite::types::Value as V;
    use tensorchess_store::rows::Value;
    match v {
        Value::Text(Some(s)) => V::Text(s),
        Value::Int(Some(i)) => V::Integer(i),
        Value::Int32(Some(i)) => V::Integer(i64::from(i)),
        Value::Float(Some(f)) => V::Real(f),
        Value::Bool(b) => V::Integer(i64::from(b)),
        _ => V::Null,
    }
}

type Generated = (GameRecord, OnlineRecord, Vec<(String, String)>);

fn one_game(rng: &mut SmallRng, n: usize, seed: u64, max_plies: usize) -> Generated {
    let variant = if n % 4 == 3 {
        VariantKind::Chess
    } else {
        VariantKind::Tensor
    };
    let mut game = VariantGame::new(variant);
    let mut moves = Vec::new();
    let plies = rng.random_range(10..=max_plies.max(10));
    while moves.len() < plies && game.outcome().is_none() {
        let mut legal: Vec<_> = game.legal_moves().iter().copied().collect();
        if legal.is_empty() {
            break;
        }
        legal.sort_by_cached_key(|m| game.move_string(*m));
        let m = legal[choose(rng, legal.len(), moves.len())];
        moves.push((game.move_string(m), game.san(m)));
        game.push(m);
    }
    let ending = match rng.random_range(0..10) {
        0..=2 => Ending::Outcome(Outcome::Draw {
            reason: EndReason::Agreement,
        }),
        3..=6 => Ending::Outcome(Outcome::Decisive {
            winner: Color::White,
            reason: EndReason::Resignation,
        }),
        _ => Ending::Outcome(Outcome::Decisive {
            winner: Color::Black,
            reason: EndReason::Resignation,
        }),
    };
    let rated = rng.random_range(0..3) > 0;
    let mut rating = || rated.then(|| rng.random_range(800..2700));
    let ratings = ByColor::new(rating(), rating());
    let (clock, days) = match rng.random_range(0..5) {
        0 => (Some((60_000, 0)), None),
        1 => (Some((180_000, 2_000)), None),
        2 => (Some((600_000, 0)), None),
        3 => (Some((1_800_000, 20_000)), None),
        _ => (None, Some(3)),
    };
    let at = 1_700_000_000_000 + n as i64 * 60_000;
    let record = GameRecord {
        id: format!("b{seed:x}g{n:08}"),
        variant,
        start_fen: variant.start_fen().to_string(),
        mode: GameMode::Online,
        human_color: None,
        level: None,
        white: format!("white{}", n % 5000),
        black: format!("black{}", n % 4999),
        owner: None,
        rated,
        ending: Some(ending),
        rev: moves.len() as i64 + 2,
        created_at: at,
        updated_at: at,
    };
    let online = OnlineRecord {
        players: ByColor::new(
            Some(format!("pw{}", n % 5000)),
            Some(format!("pb{}", n % 4999)),
        ),
        clock: clock.map(|(base_ms, increment_ms)| ClockSettings {
            base_ms,
            increment_ms,
        }),
        days,
        ratings,
        ..OnlineRecord::default()
    };
    (record, online, moves)
}

/// A position to ask about: a stored game's first `depth` moves.
struct Sample {
    variant: VariantKind,
    line: Vec<String>,
    hash: u64,
}

fn samples(conn: &Connection, count: usize, seed: u64) -> Result<Vec<Sample>, String> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let total: i64 = conn
        .query_row(
            "SELECT COUNT(*) FROM games WHERE mode = 'online'",
            [],
            |r| r.get(0),
        )
        .map_err(|e| e.to_string())?;
    let mut by_rowid = conn
        .prepare("SELECT id, variant FROM games WHERE rowid = ?1")
        .map_err(|e| e.to_string())?;
    let mut first = conn
        .prepare("SELECT uci FROM moves WHERE game_id = ?1 AND ply < ?2 ORDER BY ply")
        .map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    while out.len() < count {
        let rowid = rng.random_range(1..=total.max(1));
        let Ok((id, variant)) = by_rowid.query_row(params![rowid], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
        }) else {
            continue;
        };
        let variant: VariantKind = variant.parse().map_err(|e| format!("{e}"))?;
        let depth = rng.random_range(0..16i64);
        let line: Vec<String> = first
            .query_map(params![id, depth], |r| r.get(0))
            .map_err(|e| e.to_string())?
            .collect::<Result<_, _>>()
            .map_err(|e| e.to_string())?;
        let mut game = VariantGame::new(variant);
        for m in &line {
            game.push_str(m).map_err(|e| format!("{id}: {m}: {e}"))?;
        }
        out.push(Sample {
            variant,
            hash: hash(&game),
            line,
        });
    }
    Ok(out)
}

/// Percentiles of durations in ms: (p50, p99, max).
fn percentiles(mut ms: Vec<f64>) -> (f64, f64, f64) {
    ms.sort_by(f64::total_cmp);
    let at = |q: f64| ms[((ms.len() as f64 - 1.0) * q).round() as usize];
    (at(0.5), at(0.99), ms[ms.len() - 1])
}

fn query(db: &PathBuf, queries: usize, scans: usize, seed: u64) -> Result<(), String> {
    let conn = Connection::open(db).map_err(|e| e.to_string())?;
    let counted: i64 = conn
        .query_row("SELECT COUNT(*) FROM explorer_games", [], |r| r.get(0))
        .map_err(|e| e.to_string())?;
    let rows: i64 = conn
        .query_row("SELECT COUNT(*) FROM explorer_moves", [], |r| r.get(0))
        .map_err(|e| e.to_string())?;
    println!("{counted} games counted, {rows} explorer rows");
    let samples = samples(&conn, queries.max(scans), seed)?;
    let mark = |i: usize| format!("?{i}");
    let moves = moves_sql(mark);
    let top = top_games_sql(mark);
    let mut times = Vec::new();
    let mut moves_seen = 0usize;
    for s in samples.iter().take(queries) {
        let values: Vec<_> = explore_values(s.variant, s.hash, &ExplorerFilter::all())
            .into_iter()
            .map(sql_value)
            .collect();
        let t = Instant::now();
        let mut stmt = conn.prepare_cached(&moves).map_err(|e| e.to_string())?;
        let n = stmt
            .query_map(params_from_iter(values.iter()), |r| r.get::<_, String>(0))
            .map_err(|e| e.to_string())?
            .count();
        let mut stmt = conn.prepare_cached(&top).map_err(|e| e.to_string())?;
        let _ = stmt
            .query_map(params_from_iter(values.iter()), |r| r.get::<_, String>(0))
            .map_err(|e| e.to_string())?
            .count();
        times.push(t.elapsed().as_secs_f64() * 1000.0);
        moves_seen += n;
    }
    let (p50, p99, max) = percentiles(times);
    println!(
        "explorer query: {queries} positions, {:.1} moves each: p50 {p50:.2} ms, p99 {p99:.2} ms, max {max:.2} ms",
        moves_seen as f64 / queries.max(1) as f64
    );
    // The plain scan: the games whose first moves are the line's, and
    // their next moves counted by result.
    let mut times = Vec::new();
    for s in samples.iter().take(scans) {
        let depth = s.line.len() as i64;
        let t = Instant::now();
        let mut stmt = conn
            .prepare_cached(
                "SELECT m.uci, SUM(g.result = '1-0'), SUM(g.result = '1/2-1/2'), \
                 SUM(g.result = '0-1') FROM games g JOIN moves m ON m.game_id = g.id \
                 AND m.ply = ?2 WHERE g.mode = 'online' AND g.result <> '*' \
                 AND g.variant = ?1 AND COALESCE((SELECT group_concat(uci, ',') FROM \
                 (SELECT uci FROM moves p WHERE p.game_id = g.id AND p.ply < ?2 \
                 ORDER BY p.ply)), '') = ?3 GROUP BY m.uci",
            )
            .map_err(|e| e.to_string())?;
        let n = stmt
            .query_map(params![s.variant.name(), depth, s.line.join(",")], |r| {
                r.get::<_, String>(0)
            })
            .map_err(|e| e.to_string())?
            .count();
        scan_timed(&mut times, depth, n, t);
    }
    report_scans(scans, times);
    Ok(())
}

/// Notes one plain scan's time (since `started`) and prints it.
fn scan_timed(times: &mut Vec<f64>, depth: i64, moves: usize, started: Instant) {
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    times.push(ms);
    println!("  plain scan, {depth} plies deep: {moves} moves, {ms:.0} ms");
}

/// Prints the plain scans' p50 and max.
fn report_scans(scans: usize, times: Vec<f64>) {
    if !times.is_empty() {
        let (p50, _, max) = percentiles(times);
        println!("plain scan: {scans} positions: p50 {p50:.0} ms, max {max:.0} ms");
    }
}
