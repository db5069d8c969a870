//! `tensorchess bot`: a bridge between a server's Bot API and a UCI engine
//! (ours by default). It follows the account's event stream, accepts the
//! challenges that fit (and declines the others with a reason), and plays
//! each game from its game stream, asking the engine for a move on its
//! turn. A dropped stream or a restarted server is met by reconnecting
//! (with a growing pause); a game's stream starts with the whole game
//! again, so no game is lost. See docs/bots.md.

pub mod http;
pub mod tls;

use crate::matches::client::UciClient;
use http::{HttpError, Server};
use serde_json::{json, Value};
use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tensorchess_rules::VariantKind;
use tokio::sync::watch;
use tokio::task::JoinSet;

/// A stream that says nothing for this long (not even its keep-alive,
/// every 7 s) is taken for dropped.
const SILENCE: Duration = Duration::from_secs(20);
/// The longest pause between reconnections.
const MAX_BACKOFF: Duration = Duration::from_secs(30);

/// What the bridge does.
#[derive(Clone, Debug)]
pub struct BotConfig {
    /// The server, `http://host:port` or `https://host`.
    pub server: String,
    /// Certificates (PEM) an `https://` server's must chain to, instead of
    /// the web's roots.
    pub ca_file: Option<std::path::PathBuf>,
    /// A token of a bot account with `bot:play` (and `challenge:write`).
    pub token: String,
    /// The engine's command and arguments; empty: `tensorchess uci`.
    pub engine: Vec<String>,
    /// The games it accepts challenges for.
    pub variants: Vec<VariantKind>,
    /// Accepts rated challenges too.
    pub accept_rated: bool,
    /// Games played at once (further challenges are declined).
    pub max_games: usize,
    /// Our engine's level (its `Skill Level`), when it is ours.
    pub level: Option<u8>,
    /// Searches by nodes (`go nodes N`) instead of by the clocks.
    pub nodes: Option<u64>,
}

/// The account the token belongs to.
#[derive(Clone, Debug)]
struct Account {
    id: String,
    username: String,
}

/// Why a challenge is declined (lichess's reason keys), or `None` to
/// accept it.
pub fn decline_reason(
    config: &BotConfig,
    challenge: &Value,
    playing: usize,
) -> Option<&'static str> {
    let variant = challenge["variant"]["key"]
        .as_str()
        .and_then(|v| v.parse::<VariantKind>().ok());
    if !variant.is_some_and(|v| config.variants.contains(&v)) {
        return Some("variant");
    }
    if challenge["rated"] == true && !config.accept_rated {
        return Some("casual");
    }
    if challenge["timeControl"]["type"] != "clock" {
        return Some("timeControl");
    }
    if playing >= config.max_games {
        return Some("later");
    }
    None
}

/// Runs the bridge until `stop` becomes true.
pub async fn run(config: BotConfig, mut stop: watch::Receiver<bool>) -> Result<(), String> {
    let server = Server::with_ca(&config.server, &config.token, config.ca_file.as_deref())?;
    let account = loop {
        match server.get("/api/account").await {
            Ok(v) => {
                if v["title"] != "BOT" {
                    tracing::warn!(
                        "{} is not a bot account: upgrade it (POST /api/bot/account/upgrade)",
                        v["username"]
                    );
                }
                break Account {
                    id: v["id"].as_str().unwrap_or_default().to_string(),
                    username: v["username"].as_str().unwrap_or_default().to_string(),
                };
            }
            Err(HttpError::Status { status, body }) => {
                return Err(format!("the server refused the token ({status}): {body}"))
            }
            Err(e) => {
                tracing::warn!("the server cannot be reached yet: {e}");
                tokio::select! {
                    _ = tokio::time::sleep(Duration::from_secs(1)) => {}
                    _ = stop.wait_for(|s| *s) => return Ok(()),
                }
            }
        }
    };
    tracing::info!("playing as {}", account.username);
    let config = Arc::new(config);
    let playing: Arc<Mutex<HashSet<String>>> = Arc::default();
    let mut games = JoinSet::new();
    let mut backoff = Duration::from_millis(250);
    loop {
        let ended = tokio::select! {
            r = follow_events(&server, &config, &account, &playing, &mut games) => r,
            _ = stop.wait_for(|s| *s) => return Ok(()),
        };
        match ended {
            Ok(()) => backoff = Duration::from_millis(250),
            Err(e) => tracing::warn!("the event stream dropped: {e}"),
        }
        tokio::select! {
            _ = tokio::time::sleep(backoff) => {}
            _ = stop.wait_for(|s| *s) => return Ok(()),
        }
        backoff = (backoff * 2).min(MAX_BACKOFF);
        // Finished game tasks are reaped.
        while games.try_join_next().is_some() {}
    }
}

/// Follows the event stream until it ends or drops.
async fn follow_events(
    server: &Server,
    config: &Arc<BotConfig>,
    account: &Account,
    playing: &Arc<Mutex<HashSet<String>>>,
    games: &mut JoinSet<()>,
) -> Result<(), HttpError> {
    let mut lines = server.stream("/api/stream/event").await?;
    tracing::info!("following the event stream");
    loop {
        let line = tokio::time::timeout(SILENCE, lines.next())
            .await
            .map_err(|_| HttpError::Io("the event stream went silent".into()))??;
        let Some(line) = line else {
            return Ok(());
        };
        if line.is_empty() {
            continue;
        }
        let Ok(v) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        match v["type"].as_str() {
            Some("challenge") => {
                let c = &v["challenge"];
                if c["destUser"]["id"].as_str() != Some(account.id.as_str()) {
                    continue; // one of ours, made elsewhere
                }
                let id = c["id"].as_str().unwrap_or_default();
                let count = playing.lock().unwrap_or_else(|e| e.into_inner()).len();
                let answer = match decline_reason(config, c, count) {
                    None => {
                        tracing::info!("accepting challenge {id}");
                        server
                            .post(&format!("/api/challenge/{id}/accept"), None)
                            .await
                    }
                    Some(reason) => {
                        tracing::info!("declining challenge {id}: {reason}");
                        server
                            .post(
                                &format!("/api/challenge/{id}/decline"),
                                Some(&json!({ "reason": reason })),
                            )
                            .await
                    }
                };
                if let Err(e) = answer {
                    tracing::warn!("challenge {id}: {e}");
                }
            }
            Some("gameStart") => {
                let Some(id) = v["game"]["id"].as_str().map(str::to_string) else {
                    continue;
                };
                if !playing
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .insert(id.clone())
                {
                    continue; // played already
                }
                let (server, config, account, playing) = (
                    server.clone(),
                    config.clone(),
                    account.clone(),
                    playing.clone(),
                );
                games.spawn(async move {
                    play(&server, &config, &account, &id).await;
                    playing
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .remove(&id);
                });
            }
            _ => {}
        }
    }
}

/// A game being played: what its stream said, and the engine.
struct Game {
    id: String,
    /// `position startpos` or `position fen F`.
    start: String,
    /// Our colour: White moves on even plies (from the start position).
    white: bool,
    /// Whether White moved first (the start position's side to move).
    white_first: bool,
    engine: Arc<Mutex<UciClient>>,
    /// The moves we last moved after (not to move twice for one position).
    moved_after: Option<String>,
}

/// Plays game `id` to its end, reconnecting to its stream as needed.
async fn play(server: &Server, config: &BotConfig, account: &Account, id: &str) {
    let mut game: Option<Game> = None;
    let mut backoff = Duration::from_millis(250);
    loop {
        match follow_game(server, config, account, id, &mut game).await {
            Ok(true) => break,
            Ok(false) => {}
            Err(HttpError::Status { status, body }) if status != 429 && status < 500 => {
                tracing::warn!("game {id}: {status} {body}");
                break;
            }
            Err(e) => tracing::warn!("game {id}: the stream dropped: {e}"),
        }
        tokio::time::sleep(backoff).await;
        backoff = (backoff * 2).min(MAX_BACKOFF);
    }
    tracing::info!("game {id} is over");
    if let Some(g) = game {
        let engine = g.engine;
        let _ = tokio::task::spawn_blocking(move || {
            if let Ok(m) = Arc::try_unwrap(engine) {
                m.into_inner().unwrap_or_else(|e| e.into_inner()).quit();
            }
        })
        .await;
    }
}

/// Follows a game's stream; `true` once the game is over.
async fn follow_game(
    server: &Server,
    config: &BotConfig,
    account: &Account,
    id: &str,
    game: &mut Option<Game>,
) -> Result<bool, HttpError> {
    let mut lines = server.stream(&format!("/api/bot/game/stream/{id}")).await?;
    loop {
        let line = tokio::time::timeout(SILENCE, lines.next())
            .await
            .map_err(|_| HttpError::Io("the game stream went silent".into()))??;
        let Some(line) = line else {
            // Ended before its last state came: the server went away
            // (else the end was seen): read it again.
            return Ok(false);
        };
        if line.is_empty() {
            continue;
        }
        let Ok(v) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        let state = match v["type"].as_str() {
            Some("gameFull") => {
                if game.is_none() {
                    *game = Some(
                        start_game(config, account, &v)
                            .await
                            .map_err(HttpError::Io)?,
                    );
                }
                v["state"].clone()
            }
            Some("gameState") => v,
            _ => continue,
        };
        let Some(g) = game.as_mut() else {
            continue;
        };
        if state["status"] != "started" {
            return Ok(true);
        }
        turn(server, config, g, &state).await;
    }
}

/// Starts the engine for a game from its `gameFull`.
async fn start_game(config: &BotConfig, account: &Account, full: &Value) -> Result<Game, String> {
    let variant: VariantKind = full["variant"]["key"]
        .as_str()
        .unwrap_or("tensor")
        .parse()
        .map_err(|e| format!("{e}"))?;
    let white = full["white"]["id"].as_str() == Some(account.id.as_str());
    let initial = full["initialFen"].as_str().unwrap_or("startpos");
    let (start, white_first) = if initial == "startpos" {
        ("position startpos".to_string(), true)
    } else {
        (
            format!("position fen {initial}"),
            initial.split_whitespace().nth(1) != Some("b"),
        )
    };
    let (command, ours) = if config.engine.is_empty() {
        let exe = std::env::current_exe().map_err(|e| format!("where am I? {e}"))?;
        (vec![exe.display().to_string(), "uci".to_string()], true)
    } else {
        (config.engine.clone(), false)
    };
    let level = config.level;
    let engine = tokio::task::spawn_blocking(move || {
        let mut engine = UciClient::start(&command, None).map_err(|e| e.to_string())?;
        let mut options = Vec::new();
        if let (true, Some(level)) = (ours, level) {
            options.push(("Skill Level".to_string(), level.to_string()));
        }
        engine
            .configure(variant, &options)
            .map_err(|e| e.to_string())?;
        engine.new_game().map_err(|e| e.to_string())?;
        Ok::<_, String>(engine)
    })
    .await
    .map_err(|e| e.to_string())??;
    Ok(Game {
        id: full["id"].as_str().unwrap_or_default().to_string(),
        start,
        white,
        white_first,
        engine: Arc::new(Mutex::new(engine)),
        moved_after: None,
    })
}

/// A move string as a path segment: a propel's `>` (and anything else
/// outside letters, digits and `-._~@`) percent-encoded.
pub fn path_segment(text: &str) -> String {
    let mut out = String::new();
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~@".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// On our turn, asks the engine and plays its move.
async fn turn(server: &Server, config: &BotConfig, g: &mut Game, state: &Value) {
    let moves = state["moves"].as_str().unwrap_or("").to_string();
    let plies = moves.split_whitespace().count();
    let white_to_move = plies.is_multiple_of(2) == g.white_first;
    if white_to_move != g.white || g.moved_after.as_deref() == Some(moves.as_str()) {
        return;
    }
    let position = if moves.is_empty() {
        g.start.clone()
    } else {
        format!("{} moves {moves}", g.start)
    };
    let ms = |k: &str| state[k].as_i64().unwrap_or(0).max(0);
    let go = match config.nodes {
        Some(n) => format!("go nodes {n}"),
        None => format!(
            "go wtime {} btime {} winc {} binc {}",
            ms("wtime"),
            ms("btime"),
            ms("winc"),
            ms("binc")
        ),
    };
    let mine = if g.white { ms("wtime") } else { ms("btime") };
    let timeout = Duration::from_millis((mine as u64).min(600_000)) + Duration::from_secs(10);
    let engine = g.engine.clone();
    let answer = tokio::task::spawn_blocking(move || {
        engine
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .think(&position, &go, timeout)
    })
    .await;
    let best = match answer {
        Ok(Ok(a)) if !a.bestmove.is_empty() && a.bestmove != "(none)" => a.bestmove,
        Ok(Ok(_)) => return,
        Ok(Err(e)) => {
            tracing::warn!("game {}: the engine failed: {e}", g.id);
            return;
        }
        Err(e) => {
            tracing::warn!("game {}: {e}", g.id);
            return;
        }
    };
    match server
        .post(
            &format!("/api/bot/game/{}/move/{}", g.id, path_segment(&best)),
            None,
        )
        .await
    {
        Ok(_) => g.moved_after = Some(moves),
        Err(e) => tracing::warn!("game {}: the move {best} was refused: {e}", g.id),
    }
}
