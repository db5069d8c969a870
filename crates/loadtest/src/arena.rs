//! `--arena N`: an arena of N players instead of fixed games. One player
//! creates a casual arena starting a little later; every player joins it
//! as a guest over HTTP (player i on instance i % n), keeps one WebSocket
//! subscribed to the tournament's topic and its own (`challenges`) as its
//! page does, and when a pairing names it (on its own topic; before, on the
//! tournament's), subscribes to that game and plays it to its end with
//! the same [`Player`] as the fixed games, then waits for the next pairing,
//! until the arena finishes. Besides the moves' round trips it measures how
//! long a player waits from the end of a game to its next pairing, and
//! reads each instance's pairing waves (`GET /api/health`).

use crate::now_ms;
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use std::collections::HashSet;
use std::net::SocketAddr;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Instant;
use tokio::time::sleep_until;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

use crate::http::{http, Ws};
use crate::play::{Common, Player, Side};
use crate::tally::percentile;
use crate::{rng, Error};

/// The arena's settings, from the command line.
pub(crate) struct ArenaSpec {
    pub(crate) players: usize,
    pub(crate) minutes: u32,
    /// Seconds from the arena's creation to its start (everyone joins
    /// before).
    pub(crate) lead_s: u64,
    pub(crate) variant: &'static str,
    /// The clock as the server's JSON (`{"base_seconds":…}`).
    pub(crate) clock: String,
    pub(crate) seed: u64,
    pub(crate) setup_concurrency: usize,
}

/// What the arena's players found besides the games' tally.
#[derive(Default)]
pub(crate) struct ArenaTally {
    /// From the end of a game (as its player saw it) to the pairing of the
    /// next, in µs.
    pub(crate) repaired_us: Vec<u64>,
    /// Every game played.
    pub(crate) games: HashSet<String>,
    /// Players who saw the arena finish.
    pub(crate) saw_finish: usize,
    pub(crate) errors: Vec<String>,
}

#[derive(Deserialize)]
struct Created {
    id: String,
}

#[derive(Deserialize)]
struct MeBody {
    id: String,
}

#[derive(Deserialize)]
struct PairingsEvent {
    pairings: Vec<PairingBody>,
}

#[derive(Deserialize)]
struct PairingBody {
    game: String,
    white: PlayerBody,
    black: PlayerBody,
}

/// A player of a pairing: their id (as the server tells it since the
/// pairings were made short), or the whole player with it (before).
#[derive(Deserialize)]
#[serde(untagged)]
enum PlayerBody {
    Id(String),
    Whole { id: String },
}

impl PlayerBody {
    fn id(&self) -> &str {
        match self {
            PlayerBody::Id(id) | PlayerBody::Whole { id } => id,
        }
    }
}

#[derive(Deserialize)]
struct TournamentEvent {
    event: String,
}

/// Creates the arena on instance 0; its id.
pub(crate) async fn create(addr: SocketAddr, spec: &ArenaSpec) -> Result<String, Error> {
    let starts_at = now_ms() + spec.lead_s as i64 * 1000;
    let body = format!(
        r#"{{"kind":"arena","name":"Load arena","variant":"{}","clock":{},"rated":false,"starts_at":{starts_at},"minutes":{},"max_players":{}}}"#,
        spec.variant, spec.clock, spec.minutes, spec.players
    );
    let (status, _, text) = http(addr, "POST", "/api/tournaments", None, &body).await?;
    if status != 201 {
        return Err(format!("creating the arena: HTTP {status}: {text}").into());
    }
    Ok(serde_json::from_str::<Created>(&text)?.id)
}

/// A player in the arena: its cookie and player id, and its instance.
pub(crate) struct Entrant {
    cookie: String,
    id: String,
    instance: usize,
}

/// Joins `spec.players` guests, player i through instance i % n.
pub(crate) async fn join_all(
    addrs: &[SocketAddr],
    tournament: &str,
    spec: &ArenaSpec,
    deadline: Instant,
) -> Result<Vec<Entrant>, Error> {
    let sem = Arc::new(tokio::sync::Semaphore::new(spec.setup_concurrency.max(1)));
    let mut tasks = Vec::new();
    for i in 0..spec.players {
        let instance = i % addrs.len();
        let (addr, sem) = (addrs[instance], sem.clone());
        let path = format!("/api/tournaments/{tournament}/join");
        tasks.push(tokio::spawn(async move {
            let _permit = sem.acquire_owned().await?;
            let (status, cookies, text) = http(addr, "POST", &path, None, "{}").await?;
            if status != 200 {
                return Err(format!("joining the arena: HTTP {status}: {text}").into());
            }
            let cookie = cookies.into_iter().next().ok_or("no identity cookie")?;
            let (status, _, text) = http(addr, "GET", "/api/me", Some(&cookie), "").await?;
            if status != 200 {
                return Err(format!("GET /api/me: HTTP {status}: {text}").into());
            }
            let id = serde_json::from_str::<MeBody>(&text)?.id;
            Ok::<_, Error>(Entrant {
                cookie,
                id,
                instance,
            })
        }));
    }
    crate::join_by(deadline, tasks, "timed out joining the arena").await
}

/// A socket on `addr` as `cookie`, subscribed to the tournament's topic.
async fn open_tournament_socket(
    addr: SocketAddr,
    cookie: &str,
    tournament: &str,
) -> Result<Ws, Error> {
    let mut req = format!("ws://{addr}/api/ws").into_client_request()?;
    req.headers_mut().insert("Cookie", cookie.parse()?);
    let (mut ws, _) = tokio_tungstenite::connect_async(req).await?;
    let sub = format!(r#"{{"type":"subscribe","topic":"tournament:{tournament}"}}"#);
    ws.send(Message::text(sub)).await?;
    // As every page: the player's own topic, where their pairings come.
    ws.send(Message::text(
        r#"{"type":"subscribe","topic":"challenges"}"#,
    ))
    .await?;
    Ok(ws)
}

/// Opens every entrant's tournament socket.
pub(crate) async fn connect_all(
    addrs: &[SocketAddr],
    tournament: &str,
    entrants: Vec<Entrant>,
    setup_concurrency: usize,
    deadline: Instant,
) -> Result<Vec<(Entrant, Ws)>, Error> {
    let sem = Arc::new(tokio::sync::Semaphore::new(setup_concurrency.max(1)));
    let mut tasks = Vec::new();
    for e in entrants {
        let (addr, sem, t) = (addrs[e.instance], sem.clone(), tournament.to_string());
        tasks.push(tokio::spawn(async move {
            let _permit = sem.acquire_owned().await?;
            let ws = open_tournament_socket(addr, &e.cookie, &t).await?;
            Ok::<_, Error>((e, ws))
        }));
    }
    crate::join_by(deadline, tasks, "timed out connecting the arena's players").await
}

/// One entrant until the arena finishes (or the run's deadline): waits for
/// a pairing that names it, plays that game, and waits again.
pub(crate) async fn attend(
    number: usize,
    entrant: Entrant,
    mut ws: Ws,
    common: Arc<Common>,
    arena: Arc<Mutex<ArenaTally>>,
    seed: u64,
) {
    let mut move_rng = rng(seed, number, 0);
    let mut pace = rng(seed, number, 0x7061_6365);
    let mut ended_at: Option<Instant> = None;
    let mut repaired = Vec::new();
    let mut games = Vec::new();
    let mut finished = false;
    let mut error = None;
    loop {
        let msg = tokio::select! {
            m = ws.next() => m,
            _ = sleep_until(common.deadline.into()) => {
                error = Some("the time limit ran out before the arena finished".to_string());
                break;
            }
        };
        let text = match msg {
            Some(Ok(Message::Text(t))) => t,
            Some(Ok(Message::Close(_))) | None => {
                error = Some("the server closed the tournament's socket".into());
                break;
            }
            Some(Ok(_)) => continue,
            Some(Err(e)) => {
                error = Some(format!("the tournament's socket broke: {e}"));
                break;
            }
        };
        let text = text.as_str();
        if message_type(text).as_deref() == Some("tournament_pairings") {
            let ev: PairingsEvent = match serde_json::from_str(text) {
                Ok(ev) => ev,
                Err(e) => {
                    error = Some(format!("a pairings event: {e}"));
                    break;
                }
            };
            let mine = ev.pairings.into_iter().find_map(|p| {
                if p.white.id() == entrant.id {
                    Some((p.game, "white"))
                } else if p.black.id() == entrant.id {
                    Some((p.game, "black"))
                } else {
                    None
                }
            });
            let Some((game, me)) = mine else { continue };
            if let Some(at) = ended_at.take() {
                repaired.push(at.elapsed().as_micros() as u64);
            }
            let sub = format!(r#"{{"type":"subscribe","topic":"game:{game}"}}"#);
            if let Err(e) = ws.send(Message::text(sub)).await {
                error = Some(format!("subscribing to game {game}: {e}"));
                break;
            }
            common.live.players_left.fetch_add(1, Ordering::Relaxed);
            let side = Side {
                game: game.clone(),
                me,
                cookie: entrant.cookie.clone(),
                instance: entrant.instance,
            };
            let player = Player::new(side, common.clone(), move_rng.clone(), pace.clone());
            // The streams move on, so that the next game is not this one again.
            let _ = (
                rand::Rng::random::<u64>(&mut move_rng),
                rand::Rng::random::<u64>(&mut pace),
            );
            player.play_on(&mut ws).await;
            ended_at = Some(Instant::now());
            let unsub = format!(r#"{{"type":"unsubscribe","topic":"game:{game}"}}"#);
            let _ = ws.send(Message::text(unsub)).await;
            games.push(game);
        } else if message_type(text).as_deref() == Some("tournament") {
            if let Ok(ev) = serde_json::from_str::<TournamentEvent>(text) {
                if ev.event == "finished" {
                    finished = true;
                    break;
                }
            }
        }
    }
    let _ = ws.close(None).await;
    let mut t = arena.lock().unwrap();
    t.repaired_us.append(&mut repaired);
    t.games.extend(games);
    t.saw_finish += usize::from(finished);
    if let Some(e) = error {
        t.errors.push(format!("arena player {number}: {e}"));
    }
}

/// A message's `type`: read from its start when it comes first (as the
/// server writes its own messages), else from the whole message (one
/// relayed from another instance has its keys in another order).
fn message_type(text: &str) -> Option<String> {
    if let Some(rest) = text.strip_prefix(r#"{"type":""#) {
        return rest.split('"').next().map(str::to_string);
    }
    #[derive(Deserialize)]
    struct Typed {
        #[serde(rename = "type")]
        kind: String,
    }
    serde_json::from_str::<Typed>(text).ok().map(|t| t.kind)
}

#[derive(Deserialize)]
struct Health {
    #[serde(default)]
    arena_waves: u64,
    #[serde(default)]
    arena_recent_waves: Vec<Wave>,
}

#[derive(Deserialize, Clone, Copy)]
struct Wave {
    waiting: usize,
    boards: usize,
    pair_us: u64,
    start_us: u64,
}

/// Prints each instance's pairing waves, as `GET /api/health` tells them.
pub(crate) async fn report_waves(addrs: &[SocketAddr]) {
    for (k, addr) in addrs.iter().enumerate() {
        let health = match http(*addr, "GET", "/api/health", None, "").await {
            Ok((200, _, text)) => serde_json::from_str::<Health>(&text).ok(),
            _ => None,
        };
        let Some(h) = health else {
            println!("instance {k}: its pairing waves could not be read");
            continue;
        };
        let waves = &h.arena_recent_waves;
        if waves.is_empty() {
            println!("instance {k}: directed no pairing wave");
            continue;
        }
        let sorted = |f: fn(&Wave) -> u64| {
            let mut v: Vec<u64> = waves.iter().map(f).collect();
            v.sort_unstable();
            v
        };
        let (pair, start) = (sorted(|w| w.pair_us), sorted(|w| w.start_us));
        let boards: usize = waves.iter().map(|w| w.boards).sum();
        let say = |w: &Wave| {
            format!(
                "{} waiting, {} games, paired in {:.1} ms, started in {:.1} ms",
                w.waiting,
                w.boards,
                w.pair_us as f64 / 1000.0,
                w.start_us as f64 / 1000.0
            )
        };
        let largest = waves
            .iter()
            .max_by_key(|w| w.waiting)
            .copied()
            .unwrap_or(waves[0]);
        let slowest = waves
            .iter()
            .max_by_key(|w| w.pair_us + w.start_us)
            .copied()
            .unwrap_or(waves[0]);
        let mut sizes: Vec<u64> = waves.iter().map(|w| w.waiting as u64).collect();
        sizes.sort_unstable();
        println!(
            "instance {k}: {} pairing waves ({} read), {boards} games started; waiting per wave p50 {}, max {}",
            h.arena_waves,
            waves.len(),
            sizes[sizes.len() / 2],
            sizes[sizes.len() - 1],
        );
        println!(
            "instance {k}: the first wave: {}; the largest: {}; the slowest: {}",
            say(&waves[0]),
            say(&largest),
            say(&slowest)
        );
        println!(
            "instance {k}: per wave, pairing (reading the arena, choosing pairs) p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms; starting its games p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
            percentile(&pair, 0.5),
            percentile(&pair, 0.99),
            percentile(&pair, 1.0),
            percentile(&start, 0.5),
            percentile(&start, 0.99),
            percentile(&start, 1.0),
        );
    }
}

/// What one page following the arena's topic received: each message's
/// size by kind (`tournament/standings`, `tournament_pairings`…).
#[derive(Default)]
pub(crate) struct NewsTally {
    sizes: std::collections::BTreeMap<String, Vec<u64>>,
    seconds: f64,
}

/// Follows the arena's topic as a spectator's page does (a guest on
/// `addr`) until it finishes or the deadline, counting what it is told.
pub(crate) async fn watch_news(
    addr: SocketAddr,
    tournament: String,
    deadline: Instant,
) -> Result<NewsTally, Error> {
    let (status, cookies, text) = http(addr, "GET", "/api/me", None, "").await?;
    let cookie = cookies
        .into_iter()
        .next()
        .ok_or_else(|| format!("a spectator's identity: HTTP {status}: {text}"))?;
    let mut ws = open_tournament_socket(addr, &cookie, &tournament).await?;
    let mut tally = NewsTally::default();
    let began = Instant::now();
    loop {
        let msg = tokio::select! {
            m = ws.next() => m,
            _ = sleep_until(deadline.into()) => break,
        };
        let text = match msg {
            Some(Ok(Message::Text(t))) => t,
            Some(Ok(_)) => continue,
            Some(Err(_)) | None => break,
        };
        let text = text.as_str();
        let mut kind = message_type(text).unwrap_or_default();
        if kind == "tournament" {
            let event = serde_json::from_str::<TournamentEvent>(text)?.event;
            let finished = event == "finished";
            kind = format!("tournament/{event}");
            tally.sizes.entry(kind).or_default().push(text.len() as u64);
            if finished {
                break;
            }
            continue;
        }
        tally.sizes.entry(kind).or_default().push(text.len() as u64);
    }
    tally.seconds = began.elapsed().as_secs_f64();
    let _ = ws.close(None).await;
    Ok(tally)
}

/// Prints what a page following the arena was told.
pub(crate) fn report_news(t: &NewsTally) {
    println!(
        "a page following the arena, over {:.0} s (bytes as sent, before any compression):",
        t.seconds
    );
    for (kind, sizes) in &t.sizes {
        let mut sizes = sizes.clone();
        sizes.sort_unstable();
        let total: u64 = sizes.iter().sum();
        println!(
            "  {kind}: {} messages, mean {} B, p50 {} B, max {} B; {:.1} KiB/s",
            sizes.len(),
            total / sizes.len().max(1) as u64,
            sizes[sizes.len() / 2],
            sizes[sizes.len() - 1],
            total as f64 / 1024.0 / t.seconds.max(1.0)
        );
    }
}

/// Prints what the players saw of the arena.
pub(crate) fn report(t: &ArenaTally, players: usize) {
    let mut w = t.repaired_us.clone();
    w.sort_unstable();
    println!(
        "arena: {} games played; {} of {players} players saw it finish",
        t.games.len(),
        t.saw_finish
    );
    println!(
        "from a game's end to the next pairing (the director looks every 2 s): p50 {:.0} ms, p99 {:.0} ms, max {:.0} ms over {} pairings",
        percentile(&w, 0.5),
        percentile(&w, 0.99),
        percentile(&w, 1.0),
        w.len()
    );
    for e in t.errors.iter().take(10) {
        println!("  {e}");
    }
}

#[cfg(test)]
mod tests {
    use super::message_type;

    #[test]
    fn a_messages_type_wherever_its_key_is() {
        assert_eq!(
            message_type(r#"{"type":"tournament","event":"x"}"#).as_deref(),
            Some("tournament")
        );
        assert_eq!(
            message_type(r#"{"pairings":[],"topic":"tournament:t","type":"tournament_pairings"}"#)
                .as_deref(),
            Some("tournament_pairings")
        );
        assert_eq!(message_type(r#"{"topic":"t"}"#), None);
    }
}
