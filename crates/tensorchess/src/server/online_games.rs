//! Online games in the games service: creating one, taking the free seat,
//! the players' actions, the flag timer, and the server's background work
//! (heartbeat, resuming clocks after a restart, evicting idle games).
//!
//! Rules of play decided here (see `docs/online.md`):
//! - Moves are accepted once both seats are taken.
//! - The clocks start when both sides have made their first move: White's
//!   clock starts after Black's first move. The first two moves cost no time
//!   and earn no increment.
//! - Either player may abort the game (no result) before both sides have
//!   moved, or at any time while the second seat is free.
//! - A draw offer stands until the opponent accepts, declines, or moves
//!   (a move declines it); one offer per side per move.
//! - A flag loses, unless the opponent has only king and beasts left
//!   (nothing that can mate): then it is a draw.
//! - A rematch swaps colours and keeps the time control; either player
//!   offers it, the other accepts.

use super::anygame::{color_title, parse_variant, AnyGame};
use super::error::AppError;
use super::games::{new_id, now_ms, Ending, Games, LiveGame};
use super::online::{
    has_mating_material, new_token, parse_color, token_hash, Cookies, OnlineState,
};
use super::requests::{NewOnlineRequest, OnlineAction};
use super::store::{
    ClockSettings, GameMode, GameRecord, GameUpdate, OnlineRecord, StoredGame, StoredMove,
};
use super::views::{GameView, History};
use rand::Rng;
use std::sync::Arc;
use tensorchess_rules::{Color, EndReason, Outcome, VariantKind};
use tokio::sync::Mutex;

/// Longest time control offered: three hours a side.
pub const MAX_BASE_SECONDS: u32 = 3 * 3600;
/// Largest increment: three minutes a move.
pub const MAX_INCREMENT_SECONDS: u32 = 180;

/// What an action did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Acted {
    /// The event announced to the game's subscribers.
    pub event: &'static str,
    pub rev: i64,
    /// Moves in the game after the action.
    pub ply: usize,
    /// The rematch this action created (or found already created).
    pub rematch_id: Option<String>,
}

fn refused(kind: &'static str, message: impl Into<String>) -> AppError {
    AppError::refused(kind, message)
}

fn game_over() -> AppError {
    refused("game_over", "The game is over")
}

/// Hands freed memory back to the system after games left memory (glibc
/// keeps freed pages otherwise, and the process would look as large as at
/// its busiest moment).
fn give_back_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases free heap pages; no memory in use is touched.
    unsafe {
        libc::malloc_trim(0);
    }
}

impl Games {
    /// Creates an online game; returns it as its creator sees it, and the
    /// creator's seat token (for the cookie).
    pub async fn create_online(
        self: &Arc<Self>,
        req: NewOnlineRequest,
    ) -> Result<(GameView, String), AppError> {
        let kind = match req.variant.as_deref() {
            Some(v) => parse_variant(v)?,
            None => VariantKind::Tensor,
        };
        let color = match req.color.as_deref().unwrap_or("white") {
            "random" => {
                if rand::rng().random_bool(0.5) {
                    Color::White
                } else {
                    Color::Black
                }
            }
            c => parse_color(c).ok_or_else(|| {
                AppError::bad(format!(
                    "Unknown colour '{}': expected white, black or random",
                    c.chars().take(20).collect::<String>()
                ))
            })?,
        };
        let clock = match req.clock {
            None => None,
            Some(c) => {
                if c.base_seconds == 0 || c.base_seconds > MAX_BASE_SECONDS {
                    return Err(AppError::bad(format!(
                        "The clock's time must be 1 to {MAX_BASE_SECONDS} seconds"
                    )));
                }
                if c.increment_seconds > MAX_INCREMENT_SECONDS {
                    return Err(AppError::bad(format!(
                        "The increment must be 0 to {MAX_INCREMENT_SECONDS} seconds"
                    )));
                }
                Some(ClockSettings {
                    base_ms: c.base_seconds as i64 * 1000,
                    increment_ms: c.increment_seconds as i64 * 1000,
                })
            }
        };
        let game = AnyGame::new(kind, None)?;
        let token = new_token();
        let base = clock.map_or(0, |c| c.base_ms);
        let mut online = OnlineRecord {
            clock,
            white_ms: base,
            black_ms: base,
            ..OnlineRecord::default()
        };
        OnlineState::set_seat(&mut online, color, token_hash(&token));
        let now = now_ms();
        let record = GameRecord {
            id: new_id(),
            variant: kind.name().to_string(),
            start_fen: game.start_fen(),
            mode: GameMode::Online,
            human_color: None,
            level: None,
            white: "White".into(),
            black: "Black".into(),
            result: "*".into(),
            end_reason: None,
            rev: 1,
            created_at: now,
            updated_at: now,
        };
        self.store
            .create_game(&StoredGame {
                record: record.clone(),
                moves: Vec::new(),
                online: Some(online.clone()),
            })
            .await?;
        let lg = self.new_online_game(record, game, online);
        let arc = self.insert_live(lg);
        let lg = arc.lock().await;
        let mut view = lg.view();
        view.you = Some(color.name());
        Ok((view, token))
    }

    fn new_online_game(&self, record: GameRecord, game: AnyGame, online: OnlineRecord) -> LiveGame {
        LiveGame {
            history: History::default(),
            ending: None,
            search: None,
            online: Some(OnlineState {
                record: online,
                turn_origin: None,
                first_move_deadline: None,
                timer_gen: 0,
                timer: None,
                last_offer: [None, None],
                clock: self.config.clock.clone(),
                presence: self.presence.clone(),
            }),
            record,
            game,
        }
    }

    /// The game as the holder of `cookies` sees it (`you` is their seat).
    pub(crate) fn view_for_locked(&self, lg: &LiveGame, cookies: &Cookies) -> GameView {
        let mut view = lg.view();
        view.you = lg
            .online
            .as_ref()
            .and_then(|o| o.seat_of(&lg.record.id, cookies))
            .map(|s| s.color.name());
        view
    }

    /// The game as the holder of `cookies` sees it, and the seat token to
    /// set as this game's cookie when the seat came from the game it is a
    /// rematch of.
    pub async fn view_for(
        self: &Arc<Self>,
        id: &str,
        cookies: &Cookies,
    ) -> Result<(GameView, Option<String>), AppError> {
        let arc = self.get(id).await?;
        let lg = arc.lock().await;
        let claim = lg
            .online
            .as_ref()
            .and_then(|o| o.seat_of(&lg.record.id, cookies));
        let mut view = lg.view();
        view.you = claim.as_ref().map(|c| c.color.name());
        Ok((view, claim.filter(|c| c.inherited).map(|c| c.token)))
    }

    /// The seat `cookies` hold in game `id` (none for spectators and for
    /// games that are not online).
    pub async fn seat(
        self: &Arc<Self>,
        id: &str,
        cookies: &Cookies,
    ) -> Result<Option<Color>, AppError> {
        let arc = self.get(id).await?;
        let lg = arc.lock().await;
        Ok(lg
            .online
            .as_ref()
            .and_then(|o| o.seat_of(id, cookies))
            .map(|s| s.color))
    }

    /// Takes the free seat of an online game. Whoever already holds a seat
    /// keeps theirs. Returns the game as the new player sees it and the token
    /// to set as the seat cookie.
    pub async fn join(
        self: &Arc<Self>,
        id: &str,
        cookies: &Cookies,
    ) -> Result<(GameView, Option<String>), AppError> {
        let arc = self.get(id).await?;
        let mut lg = arc.lock().await;
        let Some(o) = lg.online.as_ref() else {
            return Err(refused("not_online", "This game is not played online"));
        };
        if let Some(claim) = o.seat_of(id, cookies) {
            let mut view = lg.view();
            view.you = Some(claim.color.name());
            return Ok((view, claim.inherited.then_some(claim.token)));
        }
        if lg.ending.is_some() {
            return Err(refused("game_over", "The game is over: you can watch it"));
        }
        let Some(color) = o.free_seat() else {
            return Err(refused(
                "seats_taken",
                "Both seats are taken: you are watching this game",
            ));
        };
        let token = new_token();
        let mut rec = o.record.clone();
        OnlineState::set_seat(&mut rec, color, token_hash(&token));
        self.store_online(&mut lg, None, rec).await?;
        self.start_first_move_wait(&mut lg, self.config.clock.now_ms());
        self.arm_timer(&arc, &mut lg);
        self.publish(&lg, "join");
        let mut view = lg.view();
        view.you = Some(color.name());
        Ok((view, Some(token)))
    }

    /// Does what a player asks, as the seat `cookies` hold.
    pub async fn act(
        self: &Arc<Self>,
        id: &str,
        cookies: &Cookies,
        action: OnlineAction,
    ) -> Result<Acted, AppError> {
        let arc = self.get(id).await?;
        let mut lg = arc.lock().await;
        self.act_locked(&arc, &mut lg, cookies, action).await
    }

    /// [`Games::act`] on a game already locked.
    pub(crate) async fn act_locked(
        self: &Arc<Self>,
        arc: &Arc<Mutex<LiveGame>>,
        lg: &mut LiveGame,
        cookies: &Cookies,
        action: OnlineAction,
    ) -> Result<Acted, AppError> {
        let id = lg.record.id.clone();
        let Some(o) = lg.online.as_ref() else {
            return Err(refused("not_online", "This game is not played online"));
        };
        let Some(seat) = o.seat_of(&id, cookies).map(|s| s.color) else {
            return Err(refused(
                "not_a_player",
                "You do not hold a seat in this game: you are watching it",
            ));
        };
        let now = self.config.clock.now_ms();
        let mut rematch_id = None;
        let event = match action {
            OnlineAction::Move { mv, ply } => {
                self.online_move(arc, lg, seat, &mv, ply, now).await?;
                "move"
            }
            OnlineAction::Resign => {
                self.check_playing(lg)?;
                let outcome = Outcome::Decisive {
                    winner: !seat,
                    reason: EndReason::Resignation,
                };
                self.end_online(lg, Ending::Decided(outcome), now).await?;
                "resign"
            }
            OnlineAction::OfferDraw => {
                self.check_playing(lg)?;
                let ply = lg.game.ply();
                let o = lg.online.as_ref().expect("online");
                match o.record.draw_offer.as_deref().and_then(parse_color) {
                    Some(c) if c == !seat => {
                        let outcome = Outcome::Draw {
                            reason: EndReason::Agreement,
                        };
                        self.end_online(lg, Ending::Decided(outcome), now).await?;
                        "draw"
                    }
                    Some(_) => {
                        return Err(refused(
                            "already_offered",
                            "Your draw offer is waiting for an answer",
                        ))
                    }
                    None if o.offered_at(seat) == Some(ply) => {
                        return Err(refused(
                            "too_soon",
                            "You already offered a draw at this move: play on first",
                        ))
                    }
                    None => {
                        let mut rec = o.record.clone();
                        rec.draw_offer = Some(seat.name().into());
                        self.store_online(lg, None, rec).await?;
                        lg.online.as_mut().expect("online").note_offer(seat, ply);
                        "draw_offer"
                    }
                }
            }
            OnlineAction::AcceptDraw | OnlineAction::DeclineDraw => {
                self.check_playing(lg)?;
                let o = lg.online.as_ref().expect("online");
                if o.record.draw_offer.as_deref() != Some((!seat).name()) {
                    return Err(refused("no_offer", "Your opponent has not offered a draw"));
                }
                if action == OnlineAction::AcceptDraw {
                    let outcome = Outcome::Draw {
                        reason: EndReason::Agreement,
                    };
                    self.end_online(lg, Ending::Decided(outcome), now).await?;
                    "draw"
                } else {
                    let mut rec = o.record.clone();
                    rec.draw_offer = None;
                    self.store_online(lg, None, rec).await?;
                    "draw_declined"
                }
            }
            OnlineAction::Abort => {
                if lg.ending.is_some() {
                    return Err(game_over());
                }
                let o = lg.online.as_ref().expect("online");
                if lg.game.ply() >= 2 && o.both_seated() {
                    return Err(refused(
                        "too_late",
                        "Both sides have moved: the game can no longer be aborted (resign or offer a draw)",
                    ));
                }
                self.end_online(lg, Ending::Aborted { no_show: None }, now)
                    .await?;
                "abort"
            }
            OnlineAction::Rematch => {
                if lg.ending.is_none() {
                    return Err(refused("not_over", "The game is not over yet"));
                }
                let o = lg.online.as_ref().expect("online");
                if let Some(next) = &o.record.rematch_id {
                    rematch_id = Some(next.clone());
                    "rematch"
                } else if !o.both_seated() {
                    return Err(refused(
                        "waiting",
                        "Nobody joined this game: there is nobody to play a rematch with",
                    ));
                } else {
                    match o.record.rematch_offer.as_deref().and_then(parse_color) {
                        Some(c) if c == !seat => {
                            rematch_id = Some(self.create_rematch(lg).await?);
                            "rematch"
                        }
                        Some(_) => {
                            return Err(refused(
                                "already_offered",
                                "Your rematch offer is waiting for an answer",
                            ))
                        }
                        None => {
                            let mut rec = o.record.clone();
                            rec.rematch_offer = Some(seat.name().into());
                            self.store_online(lg, None, rec).await?;
                            "rematch_offer"
                        }
                    }
                }
            }
            OnlineAction::DeclineRematch => {
                let o = lg.online.as_ref().expect("online");
                if lg.ending.is_none() || o.record.rematch_offer.as_deref() != Some((!seat).name())
                {
                    return Err(refused(
                        "no_offer",
                        "Your opponent has not offered a rematch",
                    ));
                }
                let mut rec = o.record.clone();
                rec.rematch_offer = None;
                self.store_online(lg, None, rec).await?;
                "rematch_declined"
            }
        };
        self.publish(lg, event);
        Ok(Acted {
            event,
            rev: lg.record.rev,
            ply: lg.game.ply(),
            rematch_id,
        })
    }

    /// The game is on: not over, and both seats are taken.
    fn check_playing(&self, lg: &LiveGame) -> Result<(), AppError> {
        if lg.ending.is_some() {
            return Err(game_over());
        }
        if !lg.online.as_ref().is_some_and(|o| o.both_seated()) {
            return Err(refused(
                "waiting",
                "Your opponent has not joined yet: send them the link (or abort the game)",
            ));
        }
        Ok(())
    }

    async fn online_move(
        self: &Arc<Self>,
        arc: &Arc<Mutex<LiveGame>>,
        lg: &mut LiveGame,
        seat: Color,
        text: &str,
        ply: usize,
        now: i64,
    ) -> Result<(), AppError> {
        self.check_playing(lg)?;
        if ply != lg.game.ply() {
            return Err(refused(
                "stale",
                format!(
                    "The game has moved on: your move was for ply {ply}, the game is at ply {}",
                    lg.game.ply()
                ),
            ));
        }
        let turn = lg.game.turn();
        if seat != turn {
            return Err(refused(
                "not_your_turn",
                format!("It is {}'s move, not yours", color_title(turn)),
            ));
        }
        let flagged = lg.online.as_ref().is_some_and(|o| {
            o.turn_origin.is_some() && o.remaining(turn, turn, now).is_some_and(|left| left <= 0)
        });
        if flagged {
            self.end_online(lg, Self::flag_ending(lg, turn), now)
                .await?;
            self.publish(lg, "flag");
            return Err(refused(
                "game_over",
                "Your time ran out before the move arrived: the game is over",
            ));
        }
        let m = lg.game.parse_move(text)?;
        let o = lg.online.as_ref().expect("online");
        let mut next = lg.game.clone();
        let entry = next.push(m);
        let ending = next.outcome().map(Ending::Rules);
        let mut rec = o.record.clone();
        if let (Some(clock), Some(left)) = (rec.clock, o.remaining(turn, turn, now)) {
            if o.turn_origin.is_some() {
                OnlineState::set_ms(&mut rec, turn, left + clock.increment_ms);
            }
        }
        let origin = (ending.is_none() && rec.clock.is_some() && next.ply() >= 2).then_some(now);
        rec.turn_started_at = origin;
        // A move declines the opponent's pending offer; the end clears any.
        if ending.is_some() || rec.draw_offer.as_deref() == Some((!turn).name()) {
            rec.draw_offer = None;
        }
        let (result, end_reason) = LiveGame::result_fields_of(ending.as_ref());
        let update = GameUpdate {
            rev: lg.record.rev + 1,
            result,
            end_reason,
            updated_at: now_ms().max(lg.record.updated_at),
            online: Some(rec),
        };
        let stored = StoredMove {
            ply: entry.ply,
            uci: entry.uci.clone(),
            san: entry.san.clone(),
        };
        self.store
            .append_move(&lg.record.id, &stored, &update)
            .await?;
        lg.game = next;
        lg.history.make_mut().push(entry);
        lg.ending = ending;
        lg.online.as_mut().expect("online").turn_origin = origin;
        lg.commit_update(update);
        self.start_first_move_wait(lg, now);
        self.arm_timer(arc, lg);
        Ok(())
    }

    /// Stores a new online record (and ending), bumping the revision.
    async fn store_online(
        &self,
        lg: &mut LiveGame,
        ending: Option<Ending>,
        rec: OnlineRecord,
    ) -> Result<(), AppError> {
        let ending = ending.or_else(|| lg.ending.clone());
        let (result, end_reason) = LiveGame::result_fields_of(ending.as_ref());
        let update = GameUpdate {
            rev: lg.record.rev + 1,
            result,
            end_reason,
            updated_at: now_ms().max(lg.record.updated_at),
            online: Some(rec),
        };
        self.store.update_game(&lg.record.id, &update).await?;
        lg.ending = ending;
        lg.commit_update(update);
        Ok(())
    }

    /// Ends an online game: the clocks stop, offers lapse, the timer goes.
    async fn end_online(
        &self,
        lg: &mut LiveGame,
        ending: Ending,
        now: i64,
    ) -> Result<(), AppError> {
        let o = lg.online.as_ref().expect("online");
        let rec = o.stopped_record(lg.game.turn(), now);
        self.store_online(lg, Some(ending), rec).await?;
        let o = lg.online.as_mut().expect("online");
        o.turn_origin = None;
        o.first_move_deadline = None;
        o.cancel_timer();
        Ok(())
    }

    /// How the game ends when `loser` has run out of time.
    fn flag_ending(lg: &LiveGame, loser: Color) -> Ending {
        let winner = !loser;
        let outcome = if has_mating_material(&lg.game.fen(), winner) {
            Outcome::Decisive {
                winner,
                reason: EndReason::Timeout,
            }
        } else {
            Outcome::Draw {
                reason: EndReason::Timeout,
            }
        };
        Ending::Decided(outcome)
    }

    /// Creates the rematch of a finished game: colours swapped, same clock,
    /// the same players' tokens. Returns its id.
    async fn create_rematch(self: &Arc<Self>, lg: &mut LiveGame) -> Result<String, AppError> {
        let o = lg.online.as_ref().expect("online");
        let kind = parse_variant(&lg.record.variant)?;
        let game = AnyGame::new(kind, Some(&lg.record.start_fen))?;
        let base = o.record.clock.map_or(0, |c| c.base_ms);
        let online = OnlineRecord {
            white_seat: o.record.black_seat.clone(),
            black_seat: o.record.white_seat.clone(),
            clock: o.record.clock,
            white_ms: base,
            black_ms: base,
            rematch_of: Some(lg.record.id.clone()),
            ..OnlineRecord::default()
        };
        let now = now_ms();
        let record = GameRecord {
            id: new_id(),
            created_at: now,
            updated_at: now,
            result: "*".into(),
            end_reason: None,
            rev: 1,
            ..lg.record.clone()
        };
        let mut previous = o.record.clone();
        previous.rematch_offer = None;
        previous.rematch_id = Some(record.id.clone());
        let (result, end_reason) = LiveGame::result_fields_of(lg.ending.as_ref());
        let update = GameUpdate {
            rev: lg.record.rev + 1,
            result,
            end_reason,
            updated_at: now.max(lg.record.updated_at),
            online: Some(previous),
        };
        let stored = StoredGame {
            record: record.clone(),
            moves: Vec::new(),
            online: Some(online.clone()),
        };
        self.store
            .create_rematch(&stored, &lg.record.id, &update)
            .await?;
        let id = record.id.clone();
        let mut new_game = self.new_online_game(record, game, online);
        self.start_first_move_wait(&mut new_game, self.config.clock.now_ms());
        let arc = self.insert_live(new_game);
        self.arm_timer(&arc, &mut *arc.lock().await);
        lg.commit_update(update);
        Ok(id)
    }

    /// Starts the wait for the side to move's first move from `now` when
    /// the game has a clock, both seats are taken and a side has yet to
    /// make its first move; otherwise there is no such wait.
    pub(crate) fn start_first_move_wait(&self, lg: &mut LiveGame, now: i64) {
        let waiting = lg.ending.is_none() && lg.game.ply() < 2;
        let wait = self.config.first_move_wait_ms;
        if let Some(o) = lg.online.as_mut() {
            let applies = waiting && o.record.clock.is_some() && o.both_seated();
            o.first_move_deadline = applies.then_some(now + wait);
        }
    }

    /// (Re)starts the timer of an online game with a clock: a task that
    /// sleeps until the side to move's time is up (or, before both sides
    /// have moved, until its time to make a first move is up), then ends the
    /// game on time (or aborts it) unless a move came first.
    pub(crate) fn arm_timer(self: &Arc<Self>, arc: &Arc<Mutex<LiveGame>>, lg: &mut LiveGame) {
        let ended = lg.ending.is_some();
        let turn = lg.game.turn();
        let Some(o) = lg.online.as_mut() else {
            return;
        };
        o.cancel_timer();
        if ended || o.record.clock.is_none() {
            return;
        }
        let mut deadline = match (o.turn_origin, o.first_move_deadline) {
            (Some(origin), _) => origin + OnlineState::stored_ms(&o.record, turn),
            (None, Some(deadline)) => deadline,
            (None, None) => return,
        };
        let gen = o.timer_gen;
        let games = Arc::downgrade(self);
        let arc = arc.clone();
        let clock = self.config.clock.clone();
        let mut stopping = self.stopping();
        let task = tokio::spawn(async move {
            loop {
                tokio::select! {
                    _ = clock.sleep_until(deadline) => {}
                    _ = stopping.wait_for(|s| *s) => return,
                }
                let Some(games) = games.upgrade() else {
                    return;
                };
                let mut lg = arc.lock().await;
                if lg.ending.is_some() || games.is_stopping() {
                    return;
                }
                let turn = lg.game.turn();
                let now = clock.now_ms();
                let Some(o) = lg.online.as_mut() else {
                    return;
                };
                if o.timer_gen != gen {
                    return;
                }
                // Due: the flag, or the abort for a first move not made.
                let due = match (o.turn_origin, o.first_move_deadline) {
                    (Some(_), _) => match o.remaining(turn, turn, now) {
                        Some(left) if left <= 0 => Some("flag"),
                        Some(left) => {
                            deadline = now + left;
                            None
                        }
                        None => return,
                    },
                    (None, Some(d)) if d <= now => Some("abort"),
                    (None, Some(d)) => {
                        deadline = d;
                        None
                    }
                    (None, None) => return,
                };
                let Some(event) = due else {
                    continue;
                };
                o.timer = None; // this task: the end must not abort it
                let ending = if event == "flag" {
                    Self::flag_ending(&lg, turn)
                } else {
                    Ending::Aborted {
                        no_show: Some(turn),
                    }
                };
                if let Err(e) = games.end_online(&mut lg, ending, now).await {
                    tracing::error!("game {}: the {event} was not stored: {e}", lg.record.id);
                    deadline = now + 1000;
                    continue;
                }
                games.publish(&lg, event);
                return;
            }
        });
        o.timer = Some(task.abort_handle());
    }

    /// Loads the online games whose clock runs, so that their flags fall
    /// even if nobody opens them (after a restart).
    pub async fn resume_clocks(self: &Arc<Self>) -> usize {
        let ids = match self.store.running_online_games().await {
            Ok(ids) => ids,
            Err(e) => {
                tracing::error!("cannot list the running online games: {e}");
                return 0;
            }
        };
        let mut n = 0;
        for id in ids {
            match self.get(&id).await {
                Ok(_) => n += 1,
                Err(e) => tracing::error!("game {id} could not be resumed: {e}"),
            }
        }
        n
    }

    /// Starts the server's background work: the run's registration and
    /// heartbeat, resuming running clocks, and evicting idle games. It stops
    /// with [`Games::shutdown`] or when the service is dropped.
    pub fn spawn_background(self: &Arc<Self>) {
        let games = Arc::downgrade(self);
        let clock = self.config.clock.clone();
        let beat_every = self.config.heartbeat_every_ms.max(1);
        let sweep_every = self.config.sweep_every_ms.max(1);
        let mut stopping = self.stopping();
        tokio::spawn(async move {
            if let Some(g) = games.upgrade() {
                if let Err(e) = g.heartbeat().await {
                    tracing::error!("heartbeat: {e}");
                }
                g.resume_clocks().await;
            }
            let now = clock.now_ms();
            let (mut next_beat, mut next_sweep) = (now + beat_every, now + sweep_every);
            loop {
                tokio::select! {
                    _ = clock.sleep_until(next_beat.min(next_sweep)) => {}
                    _ = stopping.wait_for(|s| *s) => return,
                }
                let Some(g) = games.upgrade() else {
                    return;
                };
                let now = clock.now_ms();
                if now >= next_beat {
                    if let Err(e) = g.heartbeat().await {
                        tracing::error!("heartbeat: {e}");
                    }
                    next_beat = now + beat_every;
                }
                if now >= next_sweep {
                    let gone = g.sweep();
                    if gone > 0 {
                        tracing::debug!("{gone} idle games left memory");
                        give_back_memory();
                    }
                    next_sweep = now + sweep_every;
                }
            }
        });
    }
}
