//! One player: a WebSocket client playing one side of one game to its end.
//!
//! It answers every update in which it is to move with a legal move the
//! server listed (after thinking, with `--think`), offers a draw at the ply
//! cap and accepts the other side's offer. It measures each move's round
//! trip from sending to the acknowledgement, so thinking is not in it. When
//! its connection breaks and there are other instances, it reconnects to a
//! live one ([`crate::link`]) and takes the snapshot the server sends on
//! subscribing as the truth: a move in flight at the break may or may not
//! have been stored, and only the snapshot says which. It gives a game up
//! when nothing about it is heard for `--stall` seconds, and stops at the
//! run's deadline, so a run never hangs on a server that stopped answering.

use futures_util::{SinkExt, StreamExt};
use rand::rngs::SmallRng;
use rand::Rng;
use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::time::sleep_until;
use tokio_tungstenite::tungstenite::Message;

use crate::args::Think;
use crate::http::{GameEvent, LegalBody, MoveEvent, Reply, Ws};
use crate::instances::Route;
use crate::tally::{Acked, Live, Tally};
use crate::Error;
use tensorchess_rules::{VariantGame, VariantKind};

/// What every player shares.
pub(crate) struct Common {
    pub(crate) route: Arc<Route>,
    pub(crate) tally: Mutex<Tally>,
    pub(crate) live: Live,
    pub(crate) max_plies: usize,
    pub(crate) think: Option<Think>,
    pub(crate) stall: Duration,
    pub(crate) deadline: Instant,
}

impl Common {
    /// What the players of a run share, from its command line.
    pub(crate) fn shared(
        route: &Arc<Route>,
        args: &crate::args::Args,
        deadline: Instant,
    ) -> Arc<Common> {
        Arc::new(Common {
            route: route.clone(),
            tally: Mutex::new(Tally::default()),
            live: Live::default(),
            max_plies: args.max_plies,
            think: args.think,
            stall: Duration::from_secs(args.stall),
            deadline,
        })
    }
}

/// Which side of which game, with which seat cookie, starting on which
/// instance.
pub(crate) struct Side {
    pub(crate) game: String,
    pub(crate) me: &'static str,
    pub(crate) cookie: String,
    pub(crate) instance: usize,
}

/// Request numbers of the draw messages (moves use their ply).
const REQ_ACCEPT: u64 = 1_000_000;
const REQ_OFFER: u64 = 1_000_001;

/// Why a step of the loop could not go on.
pub(crate) enum Fault {
    /// The connection broke: reconnect if there is somewhere to go.
    Lost(String),
    /// Anything else ends this player.
    Fatal(Error),
}

impl From<Error> for Fault {
    fn from(e: Error) -> Fault {
        Fault::Fatal(e)
    }
}

impl From<serde_json::Error> for Fault {
    fn from(e: serde_json::Error) -> Fault {
        Fault::Fatal(e.into())
    }
}

/// The move sent last, until the next one.
struct Sent {
    ply: usize,
    at: Instant,
    uci: String,
    acked: bool,
    /// Why the server refused it, if it did.
    refused: Option<String>,
}

/// A move chosen and waiting for the end of its thinking time.
struct Pending {
    due: Instant,
    ply: usize,
    uci: String,
}

/// One player's state and findings (merged into the tally at its end).
pub(crate) struct Player {
    pub(crate) side: Side,
    pub(crate) c: Arc<Common>,
    rng: SmallRng,
    /// Thinking times and reconnection jitter: apart from the move choices,
    /// so that a paced run plays the same moves as a flat-out one.
    pub(crate) pace: SmallRng,
    sent: Option<Sent>,
    pending: Option<Pending>,
    /// Messages not answered yet, by request number (resent when rate limited).
    unanswered: HashMap<u64, String>,
    offered: bool,
    accepted: bool,
    /// The game's ply as last heard (for messages).
    ply: Option<usize>,
    /// The game's variant, from the first snapshot.
    variant: Option<VariantKind>,
    /// The ply of a move in flight when the connection broke, until the
    /// next snapshot says whether it was stored.
    pub(crate) in_doubt: Option<usize>,
    pub(crate) reconnects: usize,
    rtts: Vec<u64>,
    sent_ms: Vec<u64>,
    acked: Vec<Acked>,
    ending: Option<String>,
    refused: HashMap<String, usize>,
    errors: Vec<String>,
    in_doubt_stored: usize,
    in_doubt_lost: usize,
}

impl Player {
    pub(crate) fn new(side: Side, c: Arc<Common>, rng: SmallRng, pace: SmallRng) -> Player {
        Player {
            side,
            c,
            rng,
            pace,
            sent: None,
            pending: None,
            unanswered: HashMap::new(),
            offered: false,
            variant: None,
            accepted: false,
            ply: None,
            in_doubt: None,
            reconnects: 0,
            rtts: Vec::new(),
            sent_ms: Vec::new(),
            acked: Vec::new(),
            ending: None,
            refused: HashMap::new(),
            errors: Vec::new(),
            in_doubt_stored: 0,
            in_doubt_lost: 0,
        }
    }

    /// Plays until the game ends (or cannot go on), then adds what it found
    /// to the tally; what was acknowledged counts either way.
    pub(crate) async fn play(self, mut ws: Ws) {
        self.play_on(&mut ws).await;
        let _ = ws.close(None).await;
    }

    /// [`Player::play`] on a socket that stays open for what follows (an
    /// arena player's next game); the socket may be a new one when the old
    /// one broke and another instance took the player back.
    pub(crate) async fn play_on(mut self, ws: &mut Ws) -> Option<String> {
        if let Err(e) = self.run(ws).await {
            let (id, me) = (&self.side.game, self.side.me);
            self.errors.push(format!("game {id}, {me}: {e}"));
        }
        self.c.live.players_left.fetch_sub(1, Ordering::Relaxed);
        let ending = self.ending.clone();
        let mut t = self.c.tally.lock().unwrap();
        t.rtts_us.append(&mut self.rtts);
        t.sent_ms.append(&mut self.sent_ms);
        t.acked.append(&mut self.acked);
        if let Some(reason) = self.ending.take() {
            // Both players see the end: count it once.
            if t.ended.insert(self.side.game.clone()) {
                *t.endings.entry(reason).or_default() += 1;
            }
        }
        for (k, n) in self.refused.drain() {
            *t.refused.entry(k).or_default() += n;
        }
        t.errors.append(&mut self.errors);
        t.in_doubt_stored += self.in_doubt_stored;
        t.in_doubt_lost += self.in_doubt_lost;
        ending
    }

    async fn run(&mut self, ws: &mut Ws) -> Result<(), Error> {
        let mut heard = Instant::now();
        loop {
            let due = self.pending.as_ref().map(|p| p.due);
            let stall_at = due.map_or(heard, |d| d.max(heard)) + self.c.stall;
            let step = tokio::select! {
                m = ws.next() => match m {
                    Some(Ok(Message::Text(t))) => {
                        heard = Instant::now();
                        self.on_text(ws, t.as_str()).await
                    }
                    Some(Ok(Message::Close(_))) => Err(Fault::Lost("the server closed the connection".into())),
                    Some(Ok(_)) => Ok(false),
                    Some(Err(e)) => Err(Fault::Lost(e.to_string())),
                    None => Err(Fault::Lost("the connection ended".into())),
                },
                _ = sleep_until(due.unwrap_or(heard).into()), if due.is_some() => {
                    heard = Instant::now();
                    self.send_pending(ws).await.map(|_| false)
                }
                _ = sleep_until(stall_at.into()) => {
                    return Err(format!(
                        "stalled: nothing heard about the game for {} s at ply {} ({})",
                        self.c.stall.as_secs(),
                        self.ply_hint(),
                        self.waiting_for()
                    ).into());
                }
                _ = sleep_until(self.c.deadline.into()) => {
                    return Err(format!("the time limit ran out at ply {}", self.ply_hint()).into());
                }
            };
            match step {
                Ok(true) => break,
                Ok(false) => {}
                Err(Fault::Fatal(e)) => return Err(e),
                Err(Fault::Lost(why)) => {
                    *ws = self.reconnect(why).await?;
                    heard = Instant::now();
                }
            }
        }
        Ok(())
    }

    fn ply_hint(&self) -> String {
        self.ply.map_or("?".into(), |p| p.to_string())
    }

    fn waiting_for(&self) -> String {
        match &self.sent {
            Some(Sent {
                refused: Some(kind),
                ..
            }) => format!("its move was refused: {kind}"),
            Some(s) if !s.acked => "waiting for the acknowledgement of its move".into(),
            _ => "waiting for the other side's move".into(),
        }
    }

    /// Handles one message; true when the game is over.
    async fn on_text(&mut self, ws: &mut Ws, text: &str) -> Result<bool, Fault> {
        let (id, me) = (self.side.game.clone(), self.side.me);
        if text.starts_with(r#"{"type":"game""#) {
            let ev: GameEvent = serde_json::from_str(text)?;
            return self.on_game(ws, ev).await;
        } else if text.starts_with(r#"{"type":"move""#) {
            let ev: MoveEvent = serde_json::from_str(text)?;
            self.on_move(ws, ev).await?;
        } else if text.starts_with(r#"{"type":"ack""#) {
            let r: Reply = serde_json::from_str(text)?;
            if let Some(req) = r.req {
                self.unanswered.remove(&req);
            }
            if let (Some(s), Some(got)) = (self.sent.as_mut(), r.req) {
                if s.ply as u64 == got && !s.acked {
                    s.acked = true;
                    let rtt = s.at.elapsed();
                    self.rtts.push(rtt.as_micros() as u64);
                    self.sent_ms
                        .push((crate::now_ms() - rtt.as_millis() as i64).max(0) as u64);
                    self.acked.push((id, s.ply, s.uci.clone()));
                    self.c.live.moves.fetch_add(1, Ordering::Relaxed);
                }
            }
        } else if text.starts_with(r#"{"type":"refused""#) {
            let r: Reply = serde_json::from_str(text)?;
            let kind = r.kind.clone().unwrap_or_default();
            *self.refused.entry(kind.clone()).or_default() += 1;
            let again = r
                .req
                .and_then(|req| self.unanswered.get(&req).map(|m| (req, m.clone())));
            if let Some(s) = self.sent.as_mut().filter(|s| r.req == Some(s.ply as u64)) {
                if kind != "rate_limited" {
                    s.refused = Some(kind.clone());
                }
            }
            if kind == "rate_limited" {
                // Back off and send the same message again.
                if let Some((req, m)) = again {
                    tokio::time::sleep(Duration::from_millis(200)).await;
                    if let Some(s) = self.sent.as_mut().filter(|s| s.ply as u64 == req) {
                        s.at = Instant::now();
                    }
                    send(ws, m).await?;
                }
            } else if kind != "game_over" && kind != "stale" {
                // A stale move is reported in the refusal counts; the game
                // then stalls, and says so, unless an update follows.
                self.errors.push(format!(
                    "game {id}, {me}: refused {kind}: {}",
                    r.message.unwrap_or_default()
                ));
            }
        } else if text.starts_with(r#"{"type":"error""#) {
            self.errors.push(format!("game {id}, {me}: {text}"));
        } else if text.starts_with(r#"{"type":"resync""#) {
            send(ws, subscribe(&id)).await?;
        }
        Ok(false)
    }

    /// A snapshot or an update of the whole game: move if it is this
    /// side's turn.
    async fn on_game(&mut self, ws: &mut Ws, ev: GameEvent) -> Result<bool, Fault> {
        let g = ev.game;
        let ply = g.moves_from + g.moves.len();
        if !g.variant.is_empty() {
            self.variant = g.variant.parse().ok();
        }
        if let Some(p) = self.in_doubt.take_if(|_| ev.event == "snapshot") {
            // The snapshot after reconnecting: a move in flight at the
            // break was stored if the game went past its ply.
            if ply > p {
                self.in_doubt_stored += 1;
            } else {
                self.in_doubt_lost += 1;
            }
        }
        if let Some(end) = g.end {
            self.ply = Some(ply);
            self.ending = Some(end.reason);
            return Ok(true);
        }
        let offer = g.online.and_then(|o| o.draw_offer);
        let legal = (g.position.turn == self.side.me).then_some(g.position.legal);
        self.on_state(ws, ply, offer.as_deref(), legal).await?;
        Ok(false)
    }

    /// The event of one move (the game goes on): the legal moves come
    /// only to the side to move, in a compact form without SAN, so the
    /// player reads them from the position after the move with the rules
    /// crate (the choice wants to know mates and captures).
    async fn on_move(&mut self, ws: &mut Ws, ev: MoveEvent) -> Result<(), Fault> {
        let ply = ev.played.ply + 1;
        let legal = match (ev.legal, self.variant) {
            (Some(_), Some(kind)) => Some(legal_of(kind, &ev.played.fen)?),
            (Some(_), None) => {
                return Err(Fault::Fatal("a move event before any snapshot".into()));
            }
            (None, _) => None,
        };
        self.on_state(ws, ply, ev.draw_offer.as_deref(), legal)
            .await
    }

    /// Where the game stands at `ply`: answer an offer, offer a draw at the
    /// cap, or choose a move when `legal` says it is this side's turn.
    async fn on_state(
        &mut self,
        ws: &mut Ws,
        ply: usize,
        offer: Option<&str>,
        legal: Option<Vec<LegalBody>>,
    ) -> Result<(), Fault> {
        let (id, me) = (self.side.game.clone(), self.side.me);
        self.ply = Some(ply);
        if self.pending.as_ref().is_some_and(|p| p.ply != ply) {
            self.pending = None;
        }
        if offer == Some(me) {
            self.offered = true;
        }
        if offer.is_some_and(|c| c != me) && !self.accepted {
            self.accepted = true;
            let m = format!(r#"{{"type":"accept_draw","game":"{id}","req":{REQ_ACCEPT}}}"#);
            self.unanswered.insert(REQ_ACCEPT, m.clone());
            return send(ws, m).await;
        }
        let Some(legal) = legal else {
            return Ok(());
        };
        if self.sent.as_ref().is_some_and(|s| s.ply == ply) || self.pending.is_some() {
            return Ok(());
        }
        if ply >= self.c.max_plies {
            if !self.offered {
                self.offered = true;
                let m = format!(r#"{{"type":"offer_draw","game":"{id}","req":{REQ_OFFER}}}"#);
                self.unanswered.insert(REQ_OFFER, m.clone());
                send(ws, m).await?;
            }
            return Ok(());
        }
        let Some(choice) = choose(&legal, &mut self.rng) else {
            return Ok(());
        };
        let uci = choice.uci.clone();
        let think = self.c.think.map(|t| t.draw(&mut self.pace));
        self.pending = Some(Pending {
            due: Instant::now() + think.unwrap_or_default(),
            ply,
            uci,
        });
        if think.is_none() {
            self.send_pending(ws).await?;
        }
        Ok(())
    }

    /// Sends the move chosen, its round trip starting now.
    async fn send_pending(&mut self, ws: &mut Ws) -> Result<(), Fault> {
        let Some(p) = self.pending.take() else {
            return Ok(());
        };
        let (id, ply, uci) = (&self.side.game, p.ply, &p.uci);
        let m =
            format!(r#"{{"type":"move","game":"{id}","move":"{uci}","ply":{ply},"req":{ply}}}"#);
        self.unanswered.insert(ply as u64, m.clone());
        self.sent = Some(Sent {
            ply,
            at: Instant::now(),
            uci: p.uci,
            acked: false,
            refused: None,
        });
        send(ws, m).await
    }

    /// Forgets what the broken connection was doing: the snapshot on the
    /// new one says where the game stands.
    pub(crate) fn forget_connection(&mut self) {
        // A refused move is not in doubt: it was not stored.
        if let Some(s) = self.sent.take().filter(|s| !s.acked && s.refused.is_none()) {
            self.in_doubt = Some(s.ply);
        }
        self.pending = None;
        self.unanswered.clear();
        self.offered = false;
        self.accepted = false;
    }
}

pub(crate) fn subscribe(id: &str) -> String {
    format!(r#"{{"type":"subscribe","topic":"game:{id}"}}"#)
}

async fn send(ws: &mut Ws, m: String) -> Result<(), Fault> {
    ws.send(Message::text(m))
        .await
        .map_err(|e| Fault::Lost(e.to_string()))
}

/// The legal moves of the position `fen` of game `kind`, with their SAN.
fn legal_of(kind: VariantKind, fen: &str) -> Result<Vec<LegalBody>, Fault> {
    let game = VariantGame::from_fen(kind, fen)
        .map_err(|e| Fault::Fatal(format!("a move event's position {fen}: {e}").into()))?;
    Ok(game
        .legal_moves()
        .iter()
        .map(|&m| LegalBody {
            uci: game.move_string(m),
            san: game.san(m),
        })
        .collect())
}

/// A simple policy: mate if possible, often a capture, else any move.
pub(crate) fn choose<'a>(legal: &'a [LegalBody], rng: &mut SmallRng) -> Option<&'a LegalBody> {
    if legal.is_empty() {
        return None;
    }
    if let Some(m) = legal.iter().find(|m| m.san.ends_with('#')) {
        return Some(m);
    }
    let captures: Vec<&LegalBody> = legal.iter().filter(|m| m.san.contains('x')).collect();
    if !captures.is_empty() && rng.random_bool(0.6) {
        return Some(captures[rng.random_range(0..captures.len())]);
    }
    Some(&legal[rng.random_range(0..legal.len())])
}

pub(crate) fn parse_clock(s: &str) -> Result<String, Error> {
    if s == "none" {
        return Ok("null".into());
    }
    let (base, inc) = s.split_once('+').unwrap_or((s, "0"));
    let base: u32 = base
        .trim()
        .parse()
        .map_err(|_| format!("bad --clock {s}"))?;
    let inc: u32 = inc.trim().parse().map_err(|_| format!("bad --clock {s}"))?;
    Ok(format!(
        r#"{{"base_seconds":{base},"increment_seconds":{inc}}}"#
    ))
}
