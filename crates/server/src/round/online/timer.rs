//! The clocks' timers: the flag falls, or a side that does not make its
//! first move in time aborts the game, even when nobody sends anything.

use super::actions::flag_ending;
use super::OnlineGames;
use crate::error::AppError;
use crate::ids::GameId;
use crate::round::command::{Fired, Trigger};
use crate::round::live::GameEvent;
use crate::round::live::{LiveGame, SharedGame};
use crate::store::Ending;
use std::sync::Arc;

impl OnlineGames {
    /// (Re)starts the timer of an online game with a clock: a task that
    /// sleeps until the side to move's time is up (or, before both sides
    /// have moved, until its time to make a first move is up), then ends the
    /// game on time (or aborts it) unless a move came first.
    pub(crate) fn arm_timer(self: &Arc<Self>, arc: &SharedGame, lg: &mut LiveGame) {
        let ended = lg.is_over();
        let turn = lg.turn();
        let Some(o) = lg.online_mut() else {
            return;
        };
        o.cancel_timer();
        if ended || !o.record().timed() {
            return;
        }
        let mut deadline = match (o.turn_origin, o.first_move_deadline) {
            (Some(origin), _) => origin + o.record().ms[turn],
            (None, Some(deadline)) => deadline,
            (None, None) => return,
        };
        let gen = o.timer_gen;
        let round = self.round.clone();
        let arc = arc.clone();
        let clock = self.live.config().clock.clone();
        let mut stopping = self.live.stopping();
        let task = tokio::spawn(async move {
            loop {
                tokio::select! {
                    _ = clock.sleep_until(deadline) => {}
                    _ = stopping.wait_for(|s| *s) => return,
                }
                let Some(round) = round.upgrade() else {
                    return;
                };
                // Through the round, as a player's command: the flag (or
                // the abort) is committed, settled and announced there.
                match round.fire(&arc, Trigger::Clock { gen }).await {
                    Some(next) => deadline = next,
                    None => return,
                }
            }
        });
        o.keep_timer(task.abort_handle());
    }

    /// The online half of [`Games::fire`](crate::round::games::Games::fire)
    /// for a timer of generation `gen` come due: the flag of the side to
    /// move, or the abort of a first move not made, committed; or, not due
    /// yet (the clock was re-read), when to look again.
    pub(in crate::round) async fn on_clock(
        &self,
        lg: &mut LiveGame,
        gen: u64,
    ) -> Result<Fired, AppError> {
        if lg.is_over() || self.live.is_stopping() {
            return Ok(Fired::Nothing);
        }
        let turn = lg.turn();
        let now = self.live.now();
        let Some(o) = lg.online_mut() else {
            return Ok(Fired::Nothing);
        };
        if o.timer_gen != gen {
            return Ok(Fired::Nothing);
        }
        // Due: the flag, or the abort for a first move not made.
        let event = match (o.turn_origin, o.first_move_deadline) {
            (Some(_), _) => match o.remaining(turn, turn, now) {
                Some(left) if left <= 0 => GameEvent::Flag,
                Some(left) => return Ok(Fired::Again(now + left)),
                None => return Ok(Fired::Nothing),
            },
            (None, Some(d)) if d <= now => GameEvent::Abort,
            (None, Some(d)) => return Ok(Fired::Again(d)),
            (None, None) => return Ok(Fired::Nothing),
        };
        o.forget_timer(); // the firing task: the end must not abort it
        let ending = if event == GameEvent::Flag {
            flag_ending(lg.game(), turn)
        } else {
            Ending::Aborted {
                no_show: Some(turn),
            }
        };
        match self.end(lg, event, ending, now).await {
            Ok(ended) => Ok(Fired::Committed(ended)),
            // Stored later, or read again by the caller (another server
            // changed the game first).
            Err(AppError::StaleGame(e)) => Err(AppError::StaleGame(e)),
            Err(e) => {
                tracing::error!(
                    "game {}: the {} was not stored: {e}",
                    lg.id(),
                    event.as_str()
                );
                Ok(Fired::Again(now + 1000))
            }
        }
    }

    /// Loads the online games whose clock runs, so that their flags fall
    /// even if nobody opens them (after a restart). Returns how many.
    pub async fn resume_clocks(self: &Arc<Self>) -> usize {
        let ids = match self.live.store().running_online_games().await {
            Ok(ids) => ids,
            Err(e) => {
                tracing::error!("cannot list the running online games: {e}");
                return 0;
            }
        };
        let mut n = 0;
        for id in ids {
            match self.live.get(&GameId::stored(id.clone())).await {
                Ok((arc, fresh)) => {
                    if fresh {
                        let mut lg = arc.lock().await;
                        self.resume(&arc, &mut lg);
                    }
                    n += 1;
                }
                Err(e) => tracing::error!("game {id} could not be resumed: {e}"),
            }
        }
        n
    }
}
