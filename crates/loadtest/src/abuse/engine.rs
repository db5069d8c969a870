//! Throwaway guests flood the engine with full-strength games; an honest
//! player elsewhere times how long the engine takes to answer each of
//! their moves (move sent → the engine's reply stored and shown).

use super::{percentile, stranger};
use serde_json::Value;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tensorchess_loadtest::http::http_from;
use tensorchess_loadtest::Error;

/// The options of `abuse engine`.
#[derive(clap::Args, Debug)]
pub struct EngineArgs {
    /// Throwaway guests running engine games.
    #[arg(long, default_value_t = 40)]
    guests: usize,
    /// Every guest from one address (otherwise each has its own).
    #[arg(long)]
    one_address: bool,
    /// The level the guests play (6: full strength).
    #[arg(long, default_value_t = 6)]
    level: u8,
    /// How long the flood runs, in seconds; the honest player measures
    /// meanwhile.
    #[arg(long, default_value_t = 60)]
    seconds: u64,
    /// The honest player's thinking time between moves, in ms.
    #[arg(long, default_value_t = 1000)]
    honest_think: u64,
}

/// What the guests got done, and had refused.
#[derive(Default)]
struct Counts {
    engine_moves: AtomicU64,
    refused: AtomicU64,
}

/// A game view's plies, whether the engine thinks, and whether it is over.
fn state(view: &Value) -> (usize, bool, bool) {
    let plies = view["moves_from"].as_u64().unwrap_or(0) as usize
        + view["moves"].as_array().map_or(0, Vec::len);
    (
        plies,
        view["engine_thinking"].as_bool().unwrap_or(false),
        !view["end"].is_null(),
    )
}

/// A legal move of the view's position (the `n`th, round).
fn a_move(view: &Value, n: usize) -> Option<String> {
    let legal = view["position"]["legal"].as_array()?;
    if legal.is_empty() {
        return None;
    }
    legal[n % legal.len()]["uci"].as_str().map(str::to_string)
}

/// One player's engine games, one after another.
struct Player {
    addr: SocketAddr,
    from: String,
    level: u8,
    cookie: Option<String>,
}

impl Player {
    async fn call(&mut self, method: &str, path: &str, body: &str) -> Result<(u16, Value), Error> {
        let (status, cookies, text) = http_from(
            self.addr,
            method,
            path,
            self.cookie.as_deref(),
            body,
            Some(&self.from),
        )
        .await?;
        if let Some(c) = cookies.into_iter().find(|c| c.starts_with("tcid=")) {
            self.cookie = Some(c);
        }
        Ok((status, serde_json::from_str(&text).unwrap_or(Value::Null)))
    }

    /// A new game in which the player moves first; `None` when refused.
    async fn new_game(&mut self) -> Result<Option<Value>, Error> {
        let body = format!(
            r#"{{"variant":"tensor","mode":"engine","color":"white","level":{}}}"#,
            self.level
        );
        let (status, view) = self.call("POST", "/api/games", &body).await?;
        Ok((status == 201).then_some(view))
    }

    /// Plays a move and waits for the engine's reply: the time it took,
    /// or `None` when the move was refused (or the game ended).
    async fn move_and_wait(
        &mut self,
        view: &Value,
        n: usize,
    ) -> Result<(Option<Duration>, Value), Error> {
        let id = view["id"].as_str().unwrap_or_default().to_string();
        let Some(mv) = a_move(view, n) else {
            return Ok((None, view.clone()));
        };
        let (before, _, _) = state(view);
        let sent = Instant::now();
        let (status, after) = self
            .call(
                "POST",
                &format!("/api/games/{id}/moves"),
                &format!(r#"{{"move":"{mv}"}}"#),
            )
            .await?;
        if status != 200 {
            return Ok((None, view.clone()));
        }
        let mut latest = after;
        loop {
            let (plies, thinking, over) = state(&latest);
            if over || (!thinking && plies >= before + 2) {
                return Ok((Some(sent.elapsed()), latest));
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
            let (_, v) = self.call("GET", &format!("/api/games/{id}"), "").await?;
            if !v.is_null() {
                latest = v;
            }
        }
    }
}

async fn guest(
    addr: SocketAddr,
    from: String,
    level: u8,
    until: Instant,
    counts: Arc<Counts>,
) -> Result<(), Error> {
    let mut p = Player {
        addr,
        from,
        level,
        cookie: None,
    };
    let mut game = None;
    let mut n = 0;
    while Instant::now() < until {
        let view = match game.take() {
            Some(v) => v,
            None => match p.new_game().await? {
                Some(v) => v,
                None => {
                    counts.refused.fetch_add(1, Ordering::Relaxed);
                    tokio::time::sleep(Duration::from_millis(500)).await;
                    continue;
                }
            },
        };
        n += 1;
        let (took, after) = p.move_and_wait(&view, n).await?;
        match took {
            Some(_) => {
                counts.engine_moves.fetch_add(1, Ordering::Relaxed);
            }
            None => {
                counts.refused.fetch_add(1, Ordering::Relaxed);
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
        }
        if state(&after).2 {
            continue; // over: a new game next
        }
        game = Some(after);
    }
    Ok(())
}

/// `abuse engine`: throwaway guests flood the engine while an honest
/// player times its replies; prints what each side got.
pub async fn run(addr: SocketAddr, args: EngineArgs) -> Result<(), Error> {
    let until = Instant::now() + Duration::from_secs(args.seconds);
    let counts = Arc::new(Counts::default());
    let mut tasks = Vec::new();
    for i in 0..args.guests {
        let from = if args.one_address {
            stranger(0)
        } else {
            stranger(i)
        };
        tasks.push(tokio::spawn(guest(
            addr,
            from,
            args.level,
            until,
            counts.clone(),
        )));
    }
    // Let the flood build before measuring.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let mut honest = Player {
        addr,
        from: "198.51.100.1".into(),
        level: 1,
        cookie: None,
    };
    let mut times = Vec::new();
    let mut game = None;
    let mut n = 0;
    while Instant::now() < until {
        tokio::time::sleep(Duration::from_millis(args.honest_think)).await;
        let view = match game.take() {
            Some(v) => v,
            None => match honest.new_game().await? {
                Some(v) => v,
                None => return Err("the honest player's game was refused".into()),
            },
        };
        n += 1;
        let (took, after) = honest.move_and_wait(&view, n).await?;
        if let Some(t) = took {
            times.push(t.as_secs_f64());
        }
        if !state(&after).2 {
            game = Some(after);
        }
    }
    for t in tasks {
        let _ = t.await;
    }
    times.sort_by(|a, b| a.total_cmp(b));
    println!(
        "guests: {} {} at level {}; engine moves answered {}, refused {}",
        args.guests,
        if args.one_address {
            "from one address"
        } else {
            "from their own addresses"
        },
        args.level,
        counts.engine_moves.load(Ordering::Relaxed),
        counts.refused.load(Ordering::Relaxed),
    );
    println!(
        "honest level-1 engine replies: {} timed, p50 {:.2} s, p90 {:.2} s, max {:.2} s",
        times.len(),
        percentile(&times, 50.0),
        percentile(&times, 90.0),
        times.last().copied().unwrap_or(f64::NAN),
    );
    Ok(())
}
