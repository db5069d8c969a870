//! `GET /api/stream/event`: what happens to a player's challenges and
//! games, as lichess's event stream says it (`challenge`,
//! `challengeCanceled`, `challengeDeclined`, `gameStart`, `gameFinish`),
//! what is current first, and an empty line every [`KEEP_ALIVE_MS`].

use super::game::game_event;
use super::lichess::GameStatus;
use super::lines::{self, LineStream, Lines};
use super::shapes::{ChallengeNews, EventLine, GameEventShape, LichessChallenge};
use super::{Bots, KEEP_ALIVE_MS};
use crate::error::AppError;
use crate::identity::Me;
use crate::ids::GameId;
use crate::round::games::Games;
use crate::store::{GameListQuery, GameMode};
use crate::topic::HubTopic;
use crate::views::challenge::ChallengeView;
use crate::views::ServerEvent;
use std::collections::HashSet;
use std::sync::Arc;
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::mpsc;

/// Ongoing games looked at when the stream opens.
const ONGOING: usize = 100;

/// Watches one game of the player's until it ends, then sends its
/// `gameFinish` into `finished`.
fn watch_game(
    games: Arc<Games>,
    bots: Arc<Bots>,
    me: Me,
    id: String,
    finished: mpsc::Sender<EventLine>,
) {
    tokio::spawn(async move {
        let mut rx = games.hub().subscribe(&HubTopic::game(&id));
        // Ended before the subscription?
        let mut check = true;
        loop {
            if check {
                if let Ok(Some(game)) =
                    game_event(&games, &bots, &me, &GameId::stored(id.clone())).await
                {
                    if game.status.name != GameStatus::Started {
                        let _ = finished
                            .send(EventLine::GameFinish {
                                game: Box::new(game),
                            })
                            .await;
                        return;
                    }
                }
            }
            check = tokio::select! {
                m = rx.recv() => match m {
                    Ok(published) => matches!(
                        published.event(),
                        ServerEvent::Game { game, .. } if game.end.is_some()
                    ),
                    Err(RecvError::Lagged(_)) => true,
                    Err(RecvError::Closed) => return,
                },
                _ = finished.closed() => return,
            };
        }
    });
}

/// The player's online games in progress, with a seat of theirs.
async fn ongoing(games: &Games, me: &Me) -> Result<Vec<String>, AppError> {
    let list = games
        .live
        .store()
        .list_games(&GameListQuery {
            player: me.id.to_string(),
            limit: ONGOING,
            before: None,
        })
        .await?;
    Ok(list
        .into_iter()
        .filter(|g| g.record.mode == GameMode::Online && g.record.ending.is_none())
        .map(|g| g.record.id)
        .collect())
}

/// `me`'s games in progress as `gameStart` shows them (lichess's
/// `GET /api/account/playing`), newest first.
pub async fn now_playing(
    games: &Games,
    bots: &Bots,
    me: &Me,
) -> Result<Vec<GameEventShape>, AppError> {
    let mut out = Vec::new();
    for id in ongoing(games, me).await? {
        if let Some(game) = game_event(games, bots, me, &GameId::stored(id)).await? {
            out.push(game);
        }
    }
    Ok(out)
}

/// An event stream's subscriptions, taken before what is current is
/// read, so that nothing made meanwhile is missed.
pub struct EventSubscription {
    me: Me,
    challenges: tokio::sync::broadcast::Receiver<crate::hub::Published>,
    started: tokio::sync::broadcast::Receiver<crate::hub::Published>,
}

/// Subscribes `me`'s event stream to their challenges and games.
pub fn subscribe_events(games: &Games, me: Me) -> EventSubscription {
    let hub = games.live.hub();
    EventSubscription {
        challenges: hub.subscribe(&HubTopic::challenges_of(&me.id)),
        started: hub.subscribe(&HubTopic::started_of(&me.id)),
        me,
    }
}

/// `GET /api/stream/event` for the subscription's player, `incoming` the
/// challenges they have received, read after subscribing.
pub async fn event_stream(
    games: Arc<Games>,
    bots: Arc<Bots>,
    subscription: EventSubscription,
    incoming: Vec<ChallengeView>,
) -> Result<LineStream, AppError> {
    let live = games.live.clone();
    let EventSubscription {
        me,
        challenges: mut rx,
        started: mut started_rx,
    } = subscription;
    let here = live.presence().player_here(&me.id);
    let playing = ongoing(&games, &me).await?;
    let (lines, stream) = lines::channel(live.config().ws_write_timeout);
    tokio::spawn(async move {
        let _here = here;
        let (finished_tx, mut finished_rx) = mpsc::channel::<EventLine>(64);
        // Each game's start is sent once, however it was heard of (the
        // list on opening, a start announced, a challenge accepted).
        let mut told: HashSet<String> = HashSet::new();
        let mut start = |id: String| {
            let (games, bots, me, tx) =
                (games.clone(), bots.clone(), me.clone(), finished_tx.clone());
            let first = told.insert(id.clone());
            async move {
                if !first {
                    return None;
                }
                let line = match game_event(&games, &bots, &me, &GameId::stored(id.clone())).await {
                    Ok(Some(game)) => Some(EventLine::GameStart {
                        game: Box::new(game),
                    }),
                    _ => None,
                };
                watch_game(games, bots, me, id, tx);
                line
            }
        };
        for id in playing {
            if let Some(line) = start(id).await {
                if !lines.send(&line).await {
                    return;
                }
            }
        }
        for c in &incoming {
            let line = EventLine::Challenge {
                challenge: Box::new(LichessChallenge::from(c)),
            };
            if !lines.send(&line).await {
                return;
            }
        }
        let clock = live.config().clock.clone();
        let mut stopping = live.stopping();
        let mut alive_at = clock.now_ms() + KEEP_ALIVE_MS;
        loop {
            let next = tokio::select! {
                m = rx.recv() => match m {
                    Ok(published) => match ChallengeNews::of(published.event()) {
                        Some(ChallengeNews::Line(line)) => Some(Ok(line)),
                        Some(ChallengeNews::Started(game)) => Some(Err(game)),
                        None => None,
                    },
                    Err(RecvError::Lagged(_)) => None,
                    Err(RecvError::Closed) => return,
                },
                m = started_rx.recv() => match m {
                    Ok(published) => match published.event() {
                        ServerEvent::GameStarted { game } => Some(Err(game.clone())),
                        _ => None,
                    },
                    Err(RecvError::Lagged(_)) => None,
                    Err(RecvError::Closed) => return,
                },
                Some(line) = finished_rx.recv() => Some(Ok(line)),
                _ = clock.sleep_until(alive_at) => {
                    alive_at = clock.now_ms() + KEEP_ALIVE_MS;
                    if !lines.keep_alive().await { return; }
                    None
                }
                _ = async { let _ = stopping.wait_for(|s| *s).await; } => return,
                _ = lines.closed() => return,
            };
            let line = match next {
                Some(Ok(line)) => Some(line),
                Some(Err(game)) => start(game).await,
                None => None,
            };
            if let Some(line) = line {
                if !send(&lines, &line).await {
                    return;
                }
            }
        }
    });
    Ok(stream)
}

async fn send(lines: &Lines, line: &EventLine) -> bool {
    lines.send(line).await
}
