//! What the players of an online game do: moves, resignation, draw and
//! rematch offers and their answers, abort. Each action is checked against
//! the seat and the game's state, then committed in one step.

use super::seats::seat_of;
use super::timing::Timing;
use super::{refused, OnlineGames};
use crate::error::AppError;
use crate::game_views::{color_title, new_game, GameViews, VariantGame};
use crate::identity::Me;
use crate::ids::new_id;
use crate::kind::Kind;
use crate::round::command::{Command, Step};
use crate::round::live::{
    Change, Committed, EndingEdit, GameEvent, LiveGame, MovesEdit, Offer, Offered, OnlineEdit,
    OnlineState,
};
use crate::store::{Ending, GameRecord, OnlineRecord, StoredGame};
use std::sync::Arc;
use tensorchess_rules::{ByColor, Color, EndReason, Outcome};

fn game_over() -> AppError {
    refused(Kind::GameOver, "The game is over")
}

fn time_ran_out() -> AppError {
    refused(
        Kind::GameOver,
        "Your time ran out before the move arrived: the game is over",
    )
}

/// The online state of a game that must be online.
pub(super) fn online_of(lg: &LiveGame) -> Result<&OnlineState, AppError> {
    lg.online()
        .ok_or_else(|| refused(Kind::NotOnline, "This game is not played online"))
}

/// An online edit that keeps the clock state as it is.
fn keep_clock(o: &OnlineState, record: OnlineRecord) -> OnlineEdit {
    OnlineEdit {
        record,
        turn_origin: o.turn_origin,
        first_move_deadline: o.first_move_deadline,
    }
}

/// A change of the online record alone (a seat, an offer).
fn record_change(event: GameEvent, o: &OnlineState, record: OnlineRecord) -> Change {
    Change {
        event,
        moves: MovesEdit::Keep,
        ending: EndingEdit::Keep,
        online: Some(keep_clock(o, record)),
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

/// Since when the opponent of `seat` has left game `id`.
fn claim_since(games: &OnlineGames, id: &str, seat: Color) -> Option<i64> {
    games.live.presence().gone_since(id, !seat)
}

impl OnlineGames {
    /// The online half of [`Games::act`](crate::round::games::Games::act): does
    /// what a player asks, as the seat `me` holds, and commits it. What
    /// runs after it (the flag timer) and its announcement are the
    /// caller's.
    pub(crate) async fn apply(
        self: &Arc<Self>,
        lg: &mut LiveGame,
        me: &Me,
        command: &Command,
    ) -> Result<Step, AppError> {
        match command {
            Command::Move { ply: None, .. } => {
                return Err(AppError::bad(
                    "A move in an online game must say at which ply it is played (\"ply\")",
                ))
            }
            Command::Takeback => {
                return Err(refused(
                    Kind::NotAllowed,
                    "There are no takebacks in online games",
                ))
            }
            Command::AgreeDraw { .. } => {
                return Err(refused(
                    Kind::NotAllowed,
                    "In an online game, offer a draw with the offer_draw action",
                ))
            }
            Command::Delete => return Err(AppError::Conflict(
                "Online games are kept: both players and their spectators may come back to them"
                    .into(),
            )),
            Command::Join { name } => return self.join(lg, me, name.clone()).await,
            _ => {}
        }
        let o = online_of(lg)?;
        let Some(seat) = seat_of(o, lg.id(), me) else {
            return Err(refused(
                Kind::NotAPlayer,
                "You do not hold a seat in this game: you are watching it",
            ));
        };
        // Any request of a player for their game shows them there.
        self.live.presence().seat_active(lg.id(), seat);
        let now = self.live.now();
        let committed = match command {
            Command::Move { mv, ply: Some(ply) } => {
                return self.online_move(lg, seat, mv, *ply, now).await
            }
            Command::Resign => {
                self.check_playing(lg)?;
                let outcome = Outcome::Decisive {
                    winner: !seat,
                    reason: EndReason::Resignation,
                };
                self.end(lg, GameEvent::Resign, Ending::Outcome(outcome), now)
                    .await?
            }
            Command::OfferDraw => self.offer_draw(lg, seat, now).await?,
            Command::AcceptDraw | Command::DeclineDraw => {
                self.check_playing(lg)?;
                let o = online_of(lg)?;
                let answered = o.draw_offer().answer(seat, "draw")?;
                if *command == Command::AcceptDraw {
                    let draw = Outcome::Draw {
                        reason: EndReason::Agreement,
                    };
                    self.end(lg, GameEvent::Draw, Ending::Outcome(draw), now)
                        .await?
                } else {
                    let mut record = o.record().clone();
                    record.draw_offer = answered.0;
                    let change = record_change(GameEvent::DrawDeclined, o, record);
                    self.live.commit(lg, change).await?
                }
            }
            Command::Abort => {
                if lg.is_over() {
                    return Err(game_over());
                }
                let o = online_of(lg)?;
                if o.record().no_abort {
                    return Err(refused(
                        Kind::NotAllowed,
                        "A tournament game cannot be aborted: resign it (a first move not made in time loses it too)",
                    ));
                }
                if lg.ply() >= 2 && o.both_seated() {
                    return Err(refused(
                        Kind::TooLate,
                        "Both sides have moved: the game can no longer be aborted (resign or offer a draw)",
                    ));
                }
                self.end(lg, GameEvent::Abort, Ending::Aborted { no_show: None }, now)
                    .await?
            }
            Command::ClaimVictory => self.claim_victory(lg, seat, now).await?,
            Command::Berserk => self.berserk(lg, seat).await?,
            Command::Rematch => return self.rematch(lg, seat).await,
            Command::DeclineRematch => {
                let o = online_of(lg)?;
                if !lg.is_over() {
                    return Err(refused(
                        Kind::NoOffer,
                        "Your opponent has not offered a rematch",
                    ));
                }
                let answered = o.rematch_offer().answer(seat, "rematch")?;
                let mut record = o.record().clone();
                record.rematch_offer = answered.0;
                let change = record_change(GameEvent::RematchDeclined, o, record);
                self.live.commit(lg, change).await?
            }
            // Answered before the seat was looked for.
            Command::Move { ply: None, .. }
            | Command::Takeback
            | Command::AgreeDraw { .. }
            | Command::Delete
            | Command::Join { .. } => return Ok(Step::unchanged()),
        };
        Ok(Step::done(committed))
    }

    /// `seat` wins a game its opponent left: one with a real-time clock,
    /// once both sides have moved (before, it is aborted), when the
    /// opponent has been gone [`CLAIM_WIN_AFTER_MS`](super::CLAIM_WIN_AFTER_MS).
    async fn claim_victory(
        &self,
        lg: &mut LiveGame,
        seat: Color,
        now: i64,
    ) -> Result<Committed, AppError> {
        self.check_playing(lg)?;
        let o = online_of(lg)?;
        if Timing::of_record(o.record()).clock().is_none() {
            return Err(refused(
                Kind::NotAllowed,
                "Only a game with a real-time clock is won by leaving it: without one, your opponent may take their time",
            ));
        }
        if lg.ply() < 2 {
            return Err(refused(
                Kind::NotAllowed,
                "Both sides have not moved yet: abort the game instead",
            ));
        }
        // Only the absent side's clock running makes their absence cost.
        if lg.turn() == seat {
            return Err(refused(
                Kind::NotAllowed,
                "It is your move: the win is claimed only while your opponent's clock runs",
            ));
        }
        let Some(since) = claim_since(self, lg.id(), seat) else {
            return Err(refused(
                Kind::NotAllowed,
                "Your opponent has not left the game",
            ));
        };
        let at = since + super::CLAIM_WIN_AFTER_MS;
        if now < at {
            return Err(refused(
                Kind::TooEarly,
                format!(
                    "Your opponent left only now: you may claim the win in {} s",
                    (at - now + 999) / 1000
                ),
            ));
        }
        let outcome = Outcome::Decisive {
            winner: seat,
            reason: EndReason::Abandoned,
        };
        self.end(lg, GameEvent::ClaimVictory, Ending::Outcome(outcome), now)
            .await
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
        &self,
        lg: &mut LiveGame,
        seat: Color,
        text: &str,
        ply: usize,
        now: i64,
    ) -> Result<Step, AppError> {
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
        let o = online_of(lg)?;
        if o.flag_fallen(turn, now) {
            let ending = flag_ending(lg.game(), turn);
            let flagged = self.end(lg, GameEvent::Flag, ending, now).await?;
            // The flag is announced although the move is refused.
            return Ok(Step {
                refusal: Some(time_ran_out()),
                ..Step::done(flagged)
            });
        }
        let m = lg.game().parse_player_move(text)?;
        let mut record = o.record().clone();
        let running = o.turn_origin.and(o.remaining(turn, turn, now));
        record.ms[turn] = if record.berserked[turn] {
            // A berserker earns no increment.
            running.unwrap_or(record.ms[turn])
        } else {
            Timing::of_record(&record).after_move(running, record.ms[turn])
        };
        // The clocks run once both sides have moved (the end stops them).
        let plies = lg.ply() + 1;
        let origin = (record.timed() && plies >= 2).then_some(now);
        record.turn_started_at = origin;
        // A move declines the opponent's pending offer.
        record.draw_offer = Offer(record.draw_offer).after_move_by(turn).0;
        let deadline = self.live.first_move_deadline(&record, plies, false, now);
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
        self.live.commit(lg, change).await.map(Step::done)
    }

    async fn offer_draw(
        &self,
        lg: &mut LiveGame,
        seat: Color,
        now: i64,
    ) -> Result<Committed, AppError> {
        self.check_playing(lg)?;
        let ply = lg.ply();
        let o = online_of(lg)?;
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
                    .await
            }
            (Offered::Pending, offer) => {
                let mut record = o.record().clone();
                record.draw_offer = offer.0;
                record.draw_offer_plies[seat] = Some(ply);
                let change = record_change(GameEvent::DrawOffer, o, record);
                self.live.commit(lg, change).await
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
    ) -> Result<Committed, AppError> {
        let o = online_of(lg)?;
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
    async fn rematch(self: &Arc<Self>, lg: &mut LiveGame, seat: Color) -> Result<Step, AppError> {
        if !lg.is_over() {
            return Err(refused(Kind::NotOver, "The game is not over yet"));
        }
        let o = online_of(lg)?;
        if let Some(next) = &o.record().rematch_id {
            return Ok(Step {
                committed: None,
                rematch_id: Some(next.clone()),
                refusal: None,
            });
        }
        if !o.both_seated() {
            return Err(refused(
                Kind::Waiting,
                "Nobody joined this game: there is nobody to play a rematch with",
            ));
        }
        match o.rematch_offer().make(seat, "rematch")? {
            (Offered::Agreed, _) => self.create_rematch(lg).await,
            (Offered::Pending, offer) => {
                let mut record = o.record().clone();
                record.rematch_offer = offer.0;
                let change = record_change(GameEvent::RematchOffer, o, record);
                Ok(Step::done(self.live.commit(lg, change).await?))
            }
        }
    }

    /// Creates the rematch of a finished game: colours swapped, same clock,
    /// the same players' tokens.
    async fn create_rematch(self: &Arc<Self>, lg: &mut LiveGame) -> Result<Step, AppError> {
        let o = online_of(lg)?;
        let game = new_game(lg.record().variant, Some(&lg.record().start_fen))?;
        let timing = Timing::of_record(o.record());
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
            rematch_of: Some(lg.id().to_string()),
            ..timing.record()
        };
        // The rematch of a rated game is rated too, from today's ratings.
        let mut online = online;
        if lg.record().rated {
            if let (Some(w), Some(b)) = (online.players.white.clone(), online.players.black.clone())
            {
                let pool = online.rating_pool(lg.record().variant);
                online.ratings = ByColor::new(
                    Some(self.live.rating_of(&w, pool).await?.rating.round() as i32),
                    Some(self.live.rating_of(&b, pool).await?.rating.round() as i32),
                );
            }
        }
        let now = self.live.now();
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
        let change = record_change(GameEvent::Rematch, o, previous);
        let committed = self.live.commit_creating(lg, change, &stored).await?;
        let id = record.id.clone();
        let arc = self.live.insert(LiveGame::new(record, game, Some(online)));
        let mut g = arc.lock().await;
        self.arm_timer(&arc, &mut g);
        super::started::game_started(&self.live, &g).await;
        Ok(Step {
            committed: Some(committed),
            rematch_id: Some(id),
            refusal: None,
        })
    }
}
