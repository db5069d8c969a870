//! The clocks' timers: the flag falls, or a side that does not make its
//! first move in time aborts the game, even when nobody sends anything.

use super::actions::flag_ending;
use super::OnlineGames;
use crate::error::AppError;
use crate::ids::GameId;
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
        let games = Arc::downgrade(self);
        let arc = arc.clone();
        let clock = self.live.config().clock.clone();
        let mut stopping = self.live.stopping();
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
                if lg.is_over() || games.live.is_stopping() {
                    return;
                }
                let turn = lg.turn();
                let now = clock.now_ms();
                let Some(o) = lg.online_mut() else {
                    return;
                };
                if o.timer_gen != gen {
                    return;
                }
                // Due: the flag, or the abort for a first move not made.
                let due = match (o.turn_origin, o.first_move_deadline) {
                    (Some(_), _) => match o.remaining(turn, turn, now) {
                        Some(left) if left <= 0 => Some(GameEvent::Flag),
                        Some(left) => {
                            deadline = now + left;
                            None
                        }
                        None => return,
                    },
                    (None, Some(d)) if d <= now => Some(GameEvent::Abort),
                    (None, Some(d)) => {
                        deadline = d;
                        None
                    }
                    (None, None) => return,
                };
                let Some(event) = due else {
                    continue;
                };
                o.forget_timer(); // this task: the end must not abort it
                let ending = if event == GameEvent::Flag {
                    flag_ending(lg.game(), turn)
                } else {
                    Ending::Aborted {
                        no_show: Some(turn),
                    }
                };
                match games.end(&mut lg, event, ending, now).await {
                    Ok(ended) => {
                        games.live.publish(&lg, ended.event());
                        return;
                    }
                    // Another server changed the game first: reading it
                    // again arms the timer its state needs.
                    Err(AppError::StaleGame(_)) => {
                        if let Err(e) = games.reload(&arc, &mut lg).await {
                            tracing::warn!("game {}: not read again: {e}", lg.id());
                        }
                        return;
                    }
                    Err(e) => {
                        tracing::error!(
                            "game {}: the {} was not stored: {e}",
                            lg.id(),
                            event.as_str()
                        );
                        deadline = now + 1000;
                    }
                }
            }
        });
        o.keep_timer(task.abort_handle());
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
