//! The online service: games of two people on their own devices. Creating
//! one, taking the free seat ([`seats`]), the players' actions
//! ([`actions`]), and the clocks' timers ([`timer`]).
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

mod actions;
pub mod seats;
mod timer;

pub use actions::Acted;
pub use seats::Cookies;

use super::anygame::{parse_variant, AnyGame};
use super::error::AppError;
use super::ids::new_id;
use super::live::{
    now_ms, Change, EndingEdit, LiveGame, LiveGames, MovesEdit, OnlineEdit, OnlineState, SharedGame,
};
use super::requests::NewOnlineRequest;
use super::store::{ClockSettings, GameMode, GameRecord, OnlineRecord, StoredGame};
use super::views::GameView;
use rand::Rng;
use seats::{new_token, seat_of, token_hash};
use std::sync::Arc;
use tensorchess_rules::{Color, VariantKind};

/// Longest time control offered: three hours a side.
pub const MAX_BASE_SECONDS: u32 = 3 * 3600;
/// Largest increment: three minutes a move.
pub const MAX_INCREMENT_SECONDS: u32 = 180;

fn refused(kind: &'static str, message: impl Into<String>) -> AppError {
    AppError::refused(kind, message)
}

/// The service behind online games.
pub struct OnlineGames {
    live: Arc<LiveGames>,
}

impl OnlineGames {
    pub fn new(live: Arc<LiveGames>) -> OnlineGames {
        OnlineGames { live }
    }

    /// Resumes what runs for a game just loaded: the wait for a first move
    /// and the flag timer.
    pub fn resume(self: &Arc<Self>, arc: &SharedGame, lg: &mut LiveGame) {
        if lg.online().is_none() {
            return;
        }
        let deadline = lg.online().and_then(|o| {
            self.first_move_wait(o.record(), lg.ply(), lg.is_over(), self.live.now())
        });
        if let Some(o) = lg.online_mut() {
            o.first_move_deadline = deadline;
        }
        if lg.online().is_some_and(|o| !o.has_timer()) {
            self.arm_timer(arc, lg);
        }
    }

    /// Creates an online game; returns it as its creator sees it, and the
    /// creator's seat token (for the cookie).
    pub async fn create(
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
            "white" => Color::White,
            "black" => Color::Black,
            c => {
                return Err(AppError::bad(format!(
                    "Unknown colour '{}': expected white, black or random",
                    c.chars().take(20).collect::<String>()
                )))
            }
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
            variant: kind,
            start_fen: game.start_fen(),
            mode: GameMode::Online,
            human_color: None,
            level: None,
            white: "White".into(),
            black: "Black".into(),
            ending: None,
            rev: 1,
            created_at: now,
            updated_at: now,
        };
        self.live
            .store()
            .create_game(&StoredGame {
                record: record.clone(),
                moves: Vec::new(),
                online: Some(online.clone()),
            })
            .await?;
        let arc = self.live.insert(LiveGame::new(record, game, Some(online)));
        let lg = arc.lock().await;
        let mut view = self.live.view(&lg);
        view.you = Some(color.name());
        Ok((view, token))
    }

    /// The game as the holder of `cookies` sees it (`you` is their seat).
    pub fn view_for(&self, lg: &LiveGame, cookies: &Cookies) -> GameView {
        let mut view = self.live.view(lg);
        view.you = Self::seat(lg, cookies).map(Color::name);
        view
    }

    /// The seat `cookies` hold in the game (none for spectators and for
    /// games that are not online).
    pub fn seat(lg: &LiveGame, cookies: &Cookies) -> Option<Color> {
        lg.online()
            .and_then(|o| seat_of(o, lg.id(), cookies))
            .map(|s| s.color)
    }

    /// The game as the holder of `cookies` sees it, and the seat token to
    /// set as this game's cookie when the seat came from the game it is a
    /// rematch of.
    pub fn view_and_inherited_seat(
        &self,
        lg: &LiveGame,
        cookies: &Cookies,
    ) -> (GameView, Option<String>) {
        let claim = lg.online().and_then(|o| seat_of(o, lg.id(), cookies));
        let mut view = self.live.view(lg);
        view.you = claim.as_ref().map(|c| c.color.name());
        (view, claim.filter(|c| c.inherited).map(|c| c.token))
    }

    /// Takes the free seat of an online game. Whoever already holds a seat
    /// keeps theirs. Returns the game as the new player sees it and the token
    /// to set as the seat cookie.
    pub async fn join(
        self: &Arc<Self>,
        arc: &SharedGame,
        cookies: &Cookies,
    ) -> Result<(GameView, Option<String>), AppError> {
        let mut lg = arc.lock().await;
        let Some(o) = lg.online() else {
            return Err(refused("not_online", "This game is not played online"));
        };
        if let Some(claim) = seat_of(o, lg.id(), cookies) {
            let mut view = self.live.view(&lg);
            view.you = Some(claim.color.name());
            return Ok((view, claim.inherited.then_some(claim.token)));
        }
        if lg.is_over() {
            return Err(refused("game_over", "The game is over: you can watch it"));
        }
        let Some(color) = o.free_seat() else {
            return Err(refused(
                "seats_taken",
                "Both seats are taken: you are watching this game",
            ));
        };
        let token = new_token();
        let mut record = o.record().clone();
        OnlineState::set_seat(&mut record, color, token_hash(&token));
        let turn_origin = o.turn_origin;
        let now = self.live.now();
        let deadline = self.first_move_wait(&record, lg.ply(), false, now);
        let change = Change {
            event: "join",
            moves: MovesEdit::Keep,
            ending: EndingEdit::Keep,
            online: Some(OnlineEdit {
                record,
                turn_origin,
                first_move_deadline: deadline,
            }),
        };
        self.live
            .commit_then(&mut lg, change, |lg| self.arm_timer(arc, lg))
            .await?;
        let mut view = self.live.view(&lg);
        view.you = Some(color.name());
        Ok((view, Some(token)))
    }
}
