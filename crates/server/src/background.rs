//! The server's background work, started in one place
//! ([`AppState::start`](crate::AppState::start)), never as a side effect
//! of building the state. Each service owns its periodic work (a method
//! this module calls on the service's own period, on the server's clock);
//! this module owns only the order at start and the loops:
//!
//! 1. the account events' starting point is read;
//! 2. with a shared database, the instances' bus is heard before anything
//!    is loaded (`cluster::follow`);
//! 3. the run's heartbeat, and the running online games' clocks resumed;
//! 4. then, each on its period: account events polled (players), the
//!    schedule of tournaments and the director (tournaments), the
//!    heartbeat with the instances' presence (round), a crowd's spectator
//!    counts (round), idle games evicted (round), lapsed seeks and
//!    challenges swept (lobby, challenges);
//! 5. the explorer counts the games that end here and evaluates what it is
//!    asked about, from the start.
//!
//! Every loop holds its service weakly and stops with the server.

use crate::clock::Clock;
use crate::store::Notice;
use crate::AppState;
use std::future::Future;
use std::sync::{Arc, Weak};
use tokio::sync::watch;

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

/// Runs `work` on service `of` every `period` ms from `first` (ms, on
/// `clock`), until the service is gone or the server stops.
fn every<T, F, Fut>(
    clock: Arc<dyn Clock>,
    mut stopping: watch::Receiver<bool>,
    of: Weak<T>,
    (first, period): (i64, i64),
    work: F,
) where
    T: Send + Sync + 'static,
    F: Fn(Arc<T>, i64) -> Fut + Send + 'static,
    Fut: Future<Output = ()> + Send,
{
    let period = period.max(1);
    tokio::spawn(async move {
        let mut next = first;
        loop {
            tokio::select! {
                _ = clock.sleep_until(next) => {}
                _ = stopping.wait_for(|s| *s) => return,
            }
            let Some(service) = of.upgrade() else {
                return;
            };
            let now = clock.now_ms();
            work(service, now).await;
            next = now.saturating_add(period);
        }
    });
}

/// Starts the server's background work (see the module). Call once,
/// inside a Tokio runtime.
pub fn start(state: &AppState) {
    let config = state.games.config();
    let clock = config.clock.clone();
    let live = Arc::downgrade(&state.games.live);
    let online = Arc::downgrade(&state.games.online);
    let players = Arc::downgrade(&state.players);
    let lobby = Arc::downgrade(&state.lobby);
    let challenges = Arc::downgrade(&state.challenges);
    let tournaments = Arc::downgrade(&state.tournaments);
    let stopping = state.games.live.stopping();
    // The explorer hears of the games that end here from now on, and
    // evaluates the positions it is asked about.
    let (ended, ended_rx) = tokio::sync::mpsc::channel(crate::round::live::ENDED_QUEUE);
    state.games.live.on_ended(ended);
    state
        .explorer
        .start(ended_rx, clock.clone(), stopping.clone());
    let beat_every = config.heartbeat_every_ms.max(1);
    let periods = (
        config.account_poll_every_ms,
        config.director_every_ms,
        config.schedule_every_ms,
        config.sweep_every_ms,
    );
    tokio::spawn(async move {
        if let Some(players) = players.upgrade() {
            if let Err(e) = players.start_events().await {
                tracing::error!("account events: {e}");
            }
        }
        if let Some(l) = live.upgrade() {
            // Other servers may share the database: hear them before
            // loading anything.
            let store = l.store().clone();
            if store.shared() {
                l.cluster().start_sending(store.clone());
                match store.listen().await {
                    Ok(Some(notices)) => {
                        tokio::spawn(crate::cluster::follow(
                            live.clone(),
                            online.clone(),
                            lobby.clone(),
                            players.clone(),
                            tournaments.clone(),
                            notices,
                            stopping.clone(),
                        ));
                    }
                    Ok(None) => {}
                    Err(e) => tracing::error!("cannot listen to the other servers: {e}"),
                }
            }
        }
        if let (Some(l), Some(online)) = (live.upgrade(), online.upgrade()) {
            if let Err(e) = l.heartbeat().await {
                tracing::error!("heartbeat: {e}");
            }
            online.resume_clocks().await;
        }
        let now = clock.now_ms();
        let (poll_every, direct_every, schedule_every, sweep_every) = periods;
        let run = |first_and_period| (clock.clone(), stopping.clone(), first_and_period);
        // Account events (a logout elsewhere, an operator's ban) also come
        // by notice on PostgreSQL; polling covers a lost notice and SQLite.
        let (c, s, at) = run((now + poll_every, poll_every));
        every(c, s, players, at, |players, _| async move {
            players.catch_up().await;
        });
        // The schedule is looked at once at start, so that a server
        // started (or restarted) lists what is due at once.
        let scheduling = tournaments
            .upgrade()
            .is_some_and(|t| !t.schedule().is_empty());
        if scheduling {
            let (c, s, at) = run((now, schedule_every));
            every(c, s, tournaments.clone(), at, |t, now| async move {
                if let Err(e) = t.create_scheduled(now).await {
                    tracing::warn!("scheduled tournaments not made: {e}");
                }
            });
        }
        // Tournaments start, pair and finish on the clock.
        let (c, s, at) = run((now.saturating_add(direct_every), direct_every));
        every(c, s, tournaments, at, |t, _| async move {
            t.tick().await;
        });
        let (c, s, at) = run((now + beat_every, beat_every));
        every(c, s, live.clone(), at, move |l, now| async move {
            if let Err(e) = l.heartbeat().await {
                tracing::error!("heartbeat: {e}");
            }
            let cluster = l.cluster();
            if cluster.is_shared() {
                let from = cluster.instance().to_string();
                cluster.send(Notice::Alive { from });
                l.presence()
                    .expire(now.saturating_sub(beat_every.saturating_mul(3)));
            }
        });
        // A crowd's spectator counts, told once a second.
        let told_every = crate::presence::SPECTATORS_TOLD_EVERY_MS;
        let (c, s, at) = run((now + told_every, told_every));
        every(c, s, live.clone(), at, |l, _| async move {
            l.presence().tell_spectators();
        });
        let (c, s, at) = run((now + sweep_every, sweep_every));
        every(c, s, live, at, |l, _| async move {
            let gone = l.sweep();
            if gone > 0 {
                tracing::debug!("{gone} idle games left memory");
                give_back_memory();
            }
        });
        let (c, s, at) = run((now + sweep_every, sweep_every));
        every(c, s, lobby, at, |lobby, _| async move {
            lobby.sweep().await;
        });
        let (c, s, at) = run((now + sweep_every, sweep_every));
        every(c, s, challenges, at, |challenges, _| async move {
            challenges.sweep().await;
        });
    });
}
