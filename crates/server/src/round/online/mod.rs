//! The online service: games of two people on their own devices. Creating
//! one, taking the free seat ([`seats`]), the players' actions
//! (`actions`), and the clocks' timers (`timer`).
//!
//! Rules of play decided here (see `docs/online.md`):
//! - Moves are accepted once both seats are taken.
//! - The clocks start when both sides have made their first move: White's
//!   clock starts after Black's first move. The first two moves cost no time
//!   and earn no increment.
//! - Either player may abort the game (no result) before both sides have
//!   moved, or at any time while the second seat is free; never a
//!   tournament's game (`OnlineRecord::no_abort`): resigning takes its
//!   place, and a first move not made loses it (`docs/tournaments.md`).
//! - A draw offer stands until the opponent accepts, declines, or moves
//!   (a move declines it); one offer per side per move.
//! - A flag loses, unless the opponent has only king and beasts left
//!   (nothing that can mate): then it is a draw.
//! - A rematch swaps colours and keeps the time control; either player
//!   offers it, the other accepts.

mod actions;
mod berserk;
pub mod pairing;
pub mod seats;
pub mod started;
mod timer;
pub mod timing;

use crate::identity::Me;

use crate::error::AppError;
use crate::game_views::new_game;
use crate::ids::new_id;
use crate::kind::Kind;
use crate::requests::{ColorChoice, NewOnlineRequest};
use crate::round::command::Step;
use crate::round::live::GameEvent;
use crate::round::live::{
    Change, EndingEdit, LiveGame, LiveGames, MovesEdit, OnlineEdit, SharedGame,
};
use crate::store::{ClockSettings, GameMode, GameRecord, OnlineRecord, StoreError, StoredGame};
use crate::views::GameView;
use seats::seat_of;
use std::sync::Arc;
use tensorchess_rules::{ByColor, Color, VariantGame, VariantKind};
use timing::Timing;

/// Longest time control offered: three hours a side.
pub const MAX_BASE_SECONDS: u32 = 3 * 3600;
/// Largest increment: three minutes a move.
pub const MAX_INCREMENT_SECONDS: u32 = 180;
/// How long a player of a game with a real-time clock must have left it
/// before their opponent may claim the win (lichess's `claimWinInSeconds`
/// counts it down on the Bot and Board APIs' game streams).
pub const CLAIM_WIN_AFTER_MS: i64 = 30_000;

fn refused(kind: Kind, message: impl Into<String>) -> AppError {
    AppError::refused(kind, message)
}

/// What a new game is made from, taken in the same write as the game is
/// stored: one seek or challenge never makes two games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin<'a> {
    /// A game made directly (a friend's link, a rematch).
    Direct,
    /// The lobby's seek with this id.
    Seek(&'a str),
    /// The challenge with this id.
    Challenge(&'a str),
}

/// A board of a tournament's wave or round, to start as a game.
#[derive(Clone, Debug)]
pub struct TournamentBoard {
    /// Its link to the tournament (its players; the game's id is given
    /// when it is made).
    pub link: crate::store::TournamentGameLink,
    /// The names shown, White's first.
    pub names: [String; 2],
    /// The players' ratings when it is rated.
    pub rated: Option<[i32; 2]>,
}

/// The service behind online games.
pub struct OnlineGames {
    live: Arc<LiveGames>,
    /// The round its timers fire through.
    round: std::sync::Weak<crate::round::games::Games>,
}

impl OnlineGames {
    /// The service over `live`, its timers firing through `round`.
    pub fn new(
        live: Arc<LiveGames>,
        round: std::sync::Weak<crate::round::games::Games>,
    ) -> OnlineGames {
        OnlineGames { live, round }
    }

    /// Resumes what runs for a game just loaded: the flag timer (which
    /// also ends the wait for a first move).
    pub fn resume(self: &Arc<Self>, arc: &SharedGame, lg: &mut LiveGame) {
        if lg.online().is_some_and(|o| !o.has_timer()) {
            self.arm_timer(arc, lg);
        }
    }

    /// Re-arms the flag timer of a game that changed (a move, a seat, an
    /// end, a state read again).
    pub fn resume_after_change(self: &Arc<Self>, arc: &SharedGame, lg: &mut LiveGame) {
        self.arm_timer(arc, lg);
    }

    /// Reads the game again if another server changed it, and re-arms its
    /// flag timer for the new turn. Returns whether it was newer.
    pub async fn reload(
        self: &Arc<Self>,
        arc: &SharedGame,
        lg: &mut LiveGame,
    ) -> Result<bool, AppError> {
        let newer = self.live.reload(lg).await?;
        if newer {
            self.arm_timer(arc, lg);
        }
        Ok(newer)
    }

    /// Another server's plain move (see [`LiveGames::play_step`]); false
    /// when it does not follow on from what is held.
    pub async fn play_step(
        self: &Arc<Self>,
        arc: &SharedGame,
        lg: &mut LiveGame,
        rev: i64,
        step: crate::store::GameStep,
    ) -> Result<bool, AppError> {
        let played = self.live.play_step(lg, rev, step).await?;
        if played {
            self.arm_timer(arc, lg);
        }
        Ok(played)
    }

    /// Parses a time control of a request.
    pub fn clock_settings(
        clock: Option<crate::requests::ClockRequest>,
    ) -> Result<Option<ClockSettings>, AppError> {
        let Some(c) = clock else {
            return Ok(None);
        };
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
        Ok(Some(ClockSettings {
            base_ms: c.base_seconds as i64 * 1000,
            increment_ms: c.increment_seconds as i64 * 1000,
        }))
    }

    /// A new online game, stored and in memory, with its seats given to
    /// `players` (White's first; `None`: free) under `names`; `rated` holds
    /// the players' ratings when it is rated; `origin` is the seek or
    /// challenge it comes from (taken in the same write).
    pub async fn start(
        self: &Arc<Self>,
        kind: VariantKind,
        timing: Timing,
        players: [Option<String>; 2],
        names: [String; 2],
        rated: Option<[i32; 2]>,
        origin: Origin<'_>,
    ) -> Result<SharedGame, AppError> {
        let (stored, game) = self.new_stored(kind, timing, players, names, rated, false)?;
        let store = self.live.store();
        let gone = |what: &'static str| {
            move |e| match e {
                StoreError::Conflict(_) => AppError::NotFound(format!(
                    "That {what} is no longer open: someone else took it, or it lapsed"
                )),
                other => other.into(),
            }
        };
        match origin {
            // The seek goes and the game comes in one write.
            Origin::Seek(seek) => store
                .accept_seek(seek, self.live.now(), &stored)
                .await
                .map_err(gone("seek"))?,
            Origin::Challenge(id) => store
                .accept_challenge(id, self.live.now(), &stored)
                .await
                .map_err(gone("challenge"))?,
            Origin::Direct => store.create_game(&stored).await?,
        }
        Ok(self.go_live(stored, game).await)
    }

    /// A tournament's new games (a wave, a round), each linked to it as
    /// its board says, stored in one write: for each board its stored
    /// link (the game's id filled in), or, where the store refused it (a
    /// player still plays a game of the tournament, or already has a
    /// board in the round), the reason; the others start.
    pub async fn start_tournament_games(
        self: &Arc<Self>,
        kind: VariantKind,
        timing: Timing,
        boards: Vec<TournamentBoard>,
    ) -> Result<Vec<Result<crate::store::TournamentGameLink, String>>, AppError> {
        let mut rows = Vec::with_capacity(boards.len());
        let mut positions = Vec::with_capacity(boards.len());
        for b in boards {
            let players = [Some(b.link.white.clone()), Some(b.link.black.clone())];
            // A tournament's game counts: no abort (docs/tournaments.md).
            let (stored, game) = self.new_stored(kind, timing, players, b.names, b.rated, true)?;
            let link = crate::store::TournamentGameLink {
                game_id: stored.record.id.clone(),
                ..b.link
            };
            rows.push((link, stored));
            positions.push(game);
        }
        let answers = self.live.store().start_tournament_games(&rows).await?;
        let mut out = Vec::with_capacity(rows.len());
        for (((link, stored), game), answer) in rows.into_iter().zip(positions).zip(answers) {
            out.push(match answer {
                Ok(()) => {
                    self.go_live(stored, game).await;
                    Ok(link)
                }
                Err(why) => Err(why),
            });
        }
        Ok(out)
    }

    /// A new game's stored form and its position.
    fn new_stored(
        &self,
        kind: VariantKind,
        timing: Timing,
        players: [Option<String>; 2],
        names: [String; 2],
        rated: Option<[i32; 2]>,
        no_abort: bool,
    ) -> Result<(StoredGame, VariantGame), AppError> {
        let game = new_game(kind, None)?;
        let online = OnlineRecord {
            players: ByColor::from_array(players),
            ratings: ByColor::from_array(rated.map_or([None, None], |r| r.map(Some))),
            no_abort,
            ..timing.record()
        };
        let now = self.live.now();
        let [white, black] = names;
        let record = GameRecord {
            id: new_id(),
            variant: kind,
            start_fen: game.start_fen(),
            mode: GameMode::Online,
            human_color: None,
            level: None,
            white,
            black,
            owner: None,
            rated: rated.is_some(),
            ending: None,
            rev: 1,
            created_at: now,
            updated_at: now,
        };
        let stored = StoredGame {
            record,
            moves: Vec::new(),
            online: Some(online),
        };
        Ok((stored, game))
    }

    /// A stored new game taken into memory: its flag timer armed and its
    /// players told.
    async fn go_live(self: &Arc<Self>, stored: StoredGame, game: VariantGame) -> SharedGame {
        let arc = self
            .live
            .insert(LiveGame::new(stored.record, game, stored.online));
        {
            let mut lg = arc.lock().await;
            self.arm_timer(&arc, &mut lg);
            started::game_started(&self.live, &lg).await;
        }
        arc
    }

    /// Creates an online game to play a friend, who joins by its link;
    /// returns it as its creator sees it.
    pub async fn create(
        self: &Arc<Self>,
        req: NewOnlineRequest,
        me: &Me,
        my_name: String,
    ) -> Result<GameView, AppError> {
        let kind = req.variant.unwrap_or_default();
        let color = req.color.unwrap_or(ColorChoice::WHITE).draw();
        let clock = Self::clock_settings(req.clock)?;
        let (players, names) = match color {
            Color::White => ([Some(me.id.to_string()), None], [my_name, "Black".into()]),
            Color::Black => ([None, Some(me.id.to_string())], ["White".into(), my_name]),
        };
        let arc = self
            .start(
                kind,
                clock.map_or(Timing::Untimed, Timing::Clock),
                players,
                names,
                None,
                Origin::Direct,
            )
            .await?;
        let lg = arc.lock().await;
        Ok(self.view_for(&lg, me))
    }

    /// The game as `me` sees it (`you` is their seat).
    pub fn view_for(&self, lg: &LiveGame, me: &Me) -> GameView {
        let mut view = self.live.view(lg);
        view.you = Self::seat(lg, me);
        view
    }

    /// The seat `me` holds in the game (none for spectators and for games
    /// that are not online).
    pub fn seat(lg: &LiveGame, me: &Me) -> Option<Color> {
        lg.online().and_then(|o| seat_of(o, lg.id(), me))
    }

    /// Takes the free seat of an online game for `me` (named `name`).
    /// Whoever already holds a seat keeps theirs.
    pub(crate) async fn join(
        &self,
        lg: &mut LiveGame,
        me: &Me,
        name: String,
    ) -> Result<Step, AppError> {
        let o = actions::online_of(lg)?;
        if seat_of(o, lg.id(), me).is_some() {
            return Ok(Step::unchanged());
        }
        if lg.is_over() {
            return Err(refused(
                Kind::GameOver,
                "The game is over: you can watch it",
            ));
        }
        let Some(color) = o.free_seat() else {
            return Err(refused(
                Kind::SeatsTaken,
                "Both seats are taken: you are watching this game",
            ));
        };
        let mut record = o.record().clone();
        record.players[color] = Some(me.id.to_string());
        let turn_origin = o.turn_origin;
        let now = self.live.now();
        let deadline = self.live.first_move_deadline(&record, lg.ply(), false, now);
        let mut names = [lg.record().white.clone(), lg.record().black.clone()];
        names[color.index()] = name;
        let change = Change {
            event: GameEvent::Join,
            moves: MovesEdit::Keep,
            ending: EndingEdit::Keep,
            online: Some(OnlineEdit {
                record,
                turn_origin,
                first_move_deadline: deadline,
            }),
            names: Some(names),
        };
        let committed = self.live.commit(lg, change).await?;
        started::game_started(&self.live, lg).await;
        Ok(Step::done(committed))
    }
}
