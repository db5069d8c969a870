//! What the players of an online game do: moves, resignation, draw and
//! rematch offers and their answers, abort. Each action is checked against
//! the seat and the game's state, then committed in one step.

use super::seats::seat_of;
use super::{refused, OnlineGames};
use crate::error::AppError;
use crate::game_views::{color_title, new_game, GameViews, VariantGame};
use crate::ids::new_id;
use crate::kind::Kind;
use crate::live::GameEvent;
use crate::live::{
    now_ms, Change, EndingEdit, LiveGame, MovesEdit, Offer, Offered, OnlineEdit, SharedGame,
};
use crate::players::Me;
use crate::requests::OnlineAction;
use crate::store::{Ending, GameRecord, OnlineRecord, StoredGame};
use std::sync::Arc;
use tensorchess_rules::{ByColor, Color, EndReason, Outcome};

/// What an action did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Acted {
    /// The event announced to the game's subscribers.
    pub event: GameEvent,
    pub rev: i64,
    /// Moves in the game after the action.
    pub ply: usize,
    /// The rematch this action created (or found already created).
    pub rematch_id: Option<String>,
}

fn game_over() -> AppError {
    refused(Kind::GameOver, "The game is over")
}

fn time_ran_out() -> AppError {
    refused(
        Kind::GameOver,
        "Your time ran out before the move arrived: the game is over",
    )
}

/// An online edit that keeps the clock state as it is.
fn keep_clock(lg: &LiveGame, record: OnlineRecord) -> OnlineEdit {
    let o = lg.online().expect("an online game");
    OnlineEdit {
        record,
        turn_origin: o.turn_origin,
        first_move_deadline: o.first_move_deadline,
    }
}

/// A change of the online record alone (a seat, an offer).
fn record_change(event: GameEvent, lg: &LiveGame, record: OnlineRecord) -> Change {
    Change {
        event,
        moves: MovesEdit::Keep,
        ending: EndingEdit::Keep,
        online: Some(keep_clock(lg, record)),
        names: None,
    }
}

/// How the game ends when `loser` has run out of time: a loss, unless the
/// opponent has nothing that could mate.
pub(super) fn flag_ending(game: &VariantGame, loser: Color) -> Ending {
    let winner = !loser;
    Ending::Outcome(if game.has_mating_material(winner) {
        Outcome::Decisive {
            winner,
            reason: EndReason::Timeout,
        }
    } else {
        Outcome::Draw {
            reason: EndReason::Timeout,
        }
    })
}

impl OnlineGames {
    /// Does what a player asks, as the seat `me` holds. Should another
    /// server have changed the game first, it is read again and the action
    /// judged once more against what was stored (a move for a ply already
    /// played is then `stale`).
    pub async fn act(
        self: &Arc<Self>,
        arc: &SharedGame,
        lg: &mut LiveGame,
        me: &Me,
        action: OnlineAction,
    ) -> Result<Acted, AppError> {
        let shared = self.live.store().shared();
        // A move for a later ply than memory has: another server made the
        // move before it, and its notice has not come yet.
        if let OnlineAction::Move { ply, .. } = &action {
            if *ply > lg.ply() && shared {
                self.live.reload(arc, lg).await?;
            }
        }
        match self.act_once(arc, lg, me, action.clone()).await {
            Err(AppError::StaleGame(_)) => self.act_once(arc, lg, me, action).await,
            // Refused on what memory holds, which may be behind the store
            // (a seat taken or an offer made on another server whose notice
            // has not come yet): judged again only if the store is newer.
            Err(refusal @ AppError::Refused { .. }) if shared => {
                if self.live.reload(arc, lg).await? {
                    self.act_once(arc, lg, me, action).await
                } else {
                    Err(refusal)
                }
            }
            done => done,
        }
    }

    async fn act_once(
        self: &Arc<Self>,
        arc: &SharedGame,
        lg: &mut LiveGame,
        me: &Me,
        action: OnlineAction,
    ) -> Result<Acted, AppError> {
        let Some(o) = lg.online() else {
            return Err(refused(Kind::NotOnline, "This game is not played online"));
        };
        let Some(seat) = seat_of(o, lg.id(), me) else {
            return Err(refused(
                Kind::NotAPlayer,
                "You do not hold a seat in this game: you are watching it",
            ));
        };
        let now = self.live.now();
        let mut rematch_id = None;
        let event = match action {
            OnlineAction::Move { mv, ply } => {
                self.online_move(arc, lg, seat, &mv, ply, now).await?;
                GameEvent::Move
            }
            OnlineAction::Resign => {
                self.check_playing(lg)?;
                let outcome = Outcome::Decisive {
                    winner: !seat,
                    reason: EndReason::Resignation,
                };
                self.end(lg, GameEvent::Resign, Ending::Outcome(outcome), now)
                    .await?;
                GameEvent::Resign
            }
            OnlineAction::OfferDraw => self.offer_draw(lg, seat, now).await?,
            OnlineAction::AcceptDraw | OnlineAction::DeclineDraw => {
                self.check_playing(lg)?;
                let o = lg.online().expect("online");
                let answered = o.draw_offer().answer(seat, "draw")?;
                if action == OnlineAction::AcceptDraw {
                    let draw = Outcome::Draw {
                        reason: EndReason::Agreement,
                    };
                    self.end(lg, GameEvent::Draw, Ending::Outcome(draw), now)
                        .await?;
                    GameEvent::Draw
                } else {
                    let mut record = o.record().clone();
                    record.draw_offer = answered.0;
                    let change = record_change(GameEvent::DrawDeclined, lg, record);
                    self.live.commit(lg, change).await?;
                    GameEvent::DrawDeclined
                }
            }
            OnlineAction::Abort => {
                if lg.is_over() {
                    return Err(game_over());
                }
                let o = lg.online().expect("online");
                if lg.ply() >= 2 && o.both_seated() {
                    return Err(refused(
                        Kind::TooLate,
                        "Both sides have moved: the game can no longer be aborted (resign or offer a draw)",
                    ));
                }
                self.end(lg, GameEvent::Abort, Ending::Aborted { no_show: None }, now)
                    .await?;
                GameEvent::Abort
            }
            OnlineAction::Rematch => {
                let (event, id) = self.rematch(lg, seat).await?;
                rematch_id = id;
                event
            }
            OnlineAction::DeclineRematch => {
                let o = lg.online().expect("online");
                if !lg.is_over() {
                    return Err(refused(
                        Kind::NoOffer,
                        "Your opponent has not offered a rematch",
                    ));
                }
                let answered = o.rematch_offer().answer(seat, "rematch")?;
                let mut record = o.record().clone();
                record.rematch_offer = answered.0;
                let change = record_change(GameEvent::RematchDeclined, lg, record);
                self.live.commit(lg, change).await?;
                GameEvent::RematchDeclined
            }
        };
        Ok(Acted {
            event,
            rev: lg.rev(),
            ply: lg.ply(),
            rematch_id,
        })
    }

    /// The game is on: not over, and both seats are taken.
    fn check_playing(&self, lg: &LiveGame) -> Result<(), AppError> {
        if lg.is_over() {
            return Err(game_over());
        }
        if !lg.online().is_some_and(|o| o.both_seated()) {
            return Err(refused(
                Kind::Waiting,
                "Your opponent has not joined yet: send them the link (or abort the game)",
            ));
        }
        Ok(())
    }

    async fn online_move(
        self: &Arc<Self>,
        arc: &SharedGame,
        lg: &mut LiveGame,
        seat: Color,
        text: &str,
        ply: usize,
        now: i64,
    ) -> Result<(), AppError> {
        // The flag fell on the mover while the move was on its way (found
        // by the timer or by this check, whichever came first).
        let on_time = |e| matches!(e, Ending::Outcome(o) if o.reason() == EndReason::Timeout);
        if lg.ending().is_some_and(on_time) && lg.turn() == seat && ply == lg.ply() {
            return Err(time_ran_out());
        }
        self.check_playing(lg)?;
        if ply != lg.ply() {
            return Err(refused(
                Kind::Stale,
                format!(
                    "The game has moved on: your move was for ply {ply}, the game is at ply {}",
                    lg.ply()
                ),
            ));
        }
        let turn = lg.turn();
        if seat != turn {
            return Err(refused(
                Kind::NotYourTurn,
                format!("It is {}'s move, not yours", color_title(turn)),
            ));
        }
        let o = lg.online().expect("online");
        if o.flag_fallen(turn, now) {
            let ending = flag_ending(lg.game(), turn);
            self.end(lg, GameEvent::Flag, ending, now).await?;
            return Err(time_ran_out());
        }
        let m = lg.game().parse_player_move(text)?;
        let mut record = o.record().clone();
        if let (Some(clock), Some(left)) = (record.clock, o.remaining(turn, turn, now)) {
            if o.turn_origin.is_some() {
                record.ms[turn] = left + clock.increment_ms;
            }
        }
        // The clocks run once both sides have moved (the end stops them).
        let plies = lg.ply() + 1;
        let origin = (record.clock.is_some() && plies >= 2).then_some(now);
        record.turn_started_at = origin;
        // A move declines the opponent's pending offer.
        record.draw_offer = Offer(record.draw_offer).after_move_by(turn).0;
        let deadline = self.first_move_wait(&record, plies, false, now);
        let change = Change {
            event: GameEvent::Move,
            moves: MovesEdit::Play(m),
            ending: EndingEdit::ByRules,
            online: Some(OnlineEdit {
                record,
                turn_origin: origin,
                first_move_deadline: deadline,
            }),
            names: None,
        };
        self.live
            .commit_then(lg, change, |lg| self.arm_timer(arc, lg))
            .await
    }

    async fn offer_draw(
        &self,
        lg: &mut LiveGame,
        seat: Color,
        now: i64,
    ) -> Result<GameEvent, AppError> {
        self.check_playing(lg)?;
        let ply = lg.ply();
        let o = lg.online().expect("online");
        if o.draw_offer().0.is_none() && o.draw_offered_at(seat) == Some(ply) {
            return Err(refused(
                Kind::TooSoon,
                "You already offered a draw at this move: play on first",
            ));
        }
        match o.draw_offer().make(seat, "draw")? {
            (Offered::Agreed, _) => {
                let draw = Outcome::Draw {
                    reason: EndReason::Agreement,
                };
                self.end(lg, GameEvent::Draw, Ending::Outcome(draw), now)
                    .await?;
                Ok(GameEvent::Draw)
            }
            (Offered::Pending, offer) => {
                let mut record = o.record().clone();
                record.draw_offer = offer.0;
                record.draw_offer_plies[seat] = Some(ply);
                let change = record_change(GameEvent::DrawOffer, lg, record);
                self.live.commit(lg, change).await?;
                Ok(GameEvent::DrawOffer)
            }
        }
    }

    /// Ends an online game at `now`: the clocks stop (the side to move is
    /// charged its time so far), offers lapse, the timer goes.
    pub(super) async fn end(
        &self,
        lg: &mut LiveGame,
        event: GameEvent,
        ending: Ending,
        now: i64,
    ) -> Result<(), AppError> {
        let o = lg.online().expect("online");
        let record = o.stopped_record(lg.turn(), now);
        let change = Change {
            event,
            moves: MovesEdit::Keep,
            ending: EndingEdit::To(ending),
            online: Some(OnlineEdit {
                record,
                turn_origin: None,
                first_move_deadline: None,
            }),
            names: None,
        };
        self.live.commit(lg, change).await
    }

    /// A rematch offer, or its acceptance (which creates the rematch).
    async fn rematch(
        self: &Arc<Self>,
        lg: &mut LiveGame,
        seat: Color,
    ) -> Result<(GameEvent, Option<String>), AppError> {
        if !lg.is_over() {
            return Err(refused(Kind::NotOver, "The game is not over yet"));
        }
        let o = lg.online().expect("online");
        if let Some(next) = &o.record().rematch_id {
            return Ok((GameEvent::Rematch, Some(next.clone())));
        }
        if !o.both_seated() {
            return Err(refused(
                Kind::Waiting,
                "Nobody joined this game: there is nobody to play a rematch with",
            ));
        }
        match o.rematch_offer().make(seat, "rematch")? {
            (Offered::Agreed, _) => Ok((GameEvent::Rematch, Some(self.create_rematch(lg).await?))),
            (Offered::Pending, offer) => {
                let mut record = o.record().clone();
                record.rematch_offer = offer.0;
                let change = record_change(GameEvent::RematchOffer, lg, record);
                self.live.commit(lg, change).await?;
                Ok((GameEvent::RematchOffer, None))
            }
        }
    }

    /// Creates the rematch of a finished game: colours swapped, same clock,
    /// the same players' tokens. Returns its id.
    async fn create_rematch(self: &Arc<Self>, lg: &mut LiveGame) -> Result<String, AppError> {
        let o = lg.online().expect("online");
        let game = new_game(lg.record().variant, Some(&lg.record().start_fen))?;
        let base = o.record().clock.map_or(0, |c| c.base_ms);
        let online = OnlineRecord {
            // Colours swapped.
            players: ByColor::new(
                o.record().players.black.clone(),
                o.record().players.white.clone(),
            ),
            seats: ByColor::new(
                o.record().seats.black.clone(),
                o.record().seats.white.clone(),
            ),
            clock: o.record().clock,
            ms: ByColor::new(base, base),
            rematch_of: Some(lg.id().to_string()),
            ..OnlineRecord::default()
        };
        // The rematch of a rated game is rated too, from today's ratings.
        let mut online = online;
        if lg.record().rated {
            if let (Some(w), Some(b)) = (online.players.white.clone(), online.players.black.clone())
            {
                let variant = lg.record().variant;
                online.ratings = ByColor::new(
                    Some(self.live.rating_of(&w, variant).await?.rating.round() as i32),
                    Some(self.live.rating_of(&b, variant).await?.rating.round() as i32),
                );
            }
        }
        let now = now_ms();
        let record = GameRecord {
            id: new_id(),
            created_at: now,
            updated_at: now,
            ending: None,
            rev: 1,
            white: lg.record().black.clone(),
            black: lg.record().white.clone(),
            ..lg.record().clone()
        };
        let mut previous = o.record().clone();
        previous.rematch_offer = None;
        previous.rematch_id = Some(record.id.clone());
        let stored = StoredGame {
            record: record.clone(),
            moves: Vec::new(),
            online: Some(online.clone()),
        };
        // The old game learns of its rematch in the same transaction.
        let change = record_change(GameEvent::Rematch, lg, previous);
        self.live.commit_creating(lg, change, &stored).await?;
        let id = record.id.clone();
        let mut new_game = LiveGame::new(record, game, Some(online));
        let deadline = new_game
            .online()
            .and_then(|o| self.first_move_wait(o.record(), 0, false, self.live.now()));
        if let Some(o) = new_game.online_mut() {
            o.first_move_deadline = deadline;
        }
        let arc = self.live.insert(new_game);
        let mut g = arc.lock().await;
        self.arm_timer(&arc, &mut g);
        Ok(id)
    }
}
