//! The other servers' notices, acted on: games read again, the lobby sent
//! again, pairings passed on, presence counted.

use crate::lobby::{Lobby, LOBBY_TOPIC};
use crate::players::Players;
use crate::round::live::LiveGames;
use crate::round::online::OnlineGames;
use crate::store::{GameStep, Notice, StoreNotice};
use crate::topic::HubTopic;
use crate::tournaments::Tournaments;
use crate::views::ServerEvent;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Weak};
use tokio::sync::{mpsc, watch};

/// Acts on the notices of the servers sharing the database until this
/// one stops (or its state is dropped).
pub async fn follow(
    live: Weak<LiveGames>,
    online: Weak<OnlineGames>,
    lobby: Weak<Lobby>,
    players: Weak<Players>,
    tournaments: Weak<Tournaments>,
    mut notices: mpsc::UnboundedReceiver<StoreNotice>,
    mut stopping: watch::Receiver<bool>,
) {
    loop {
        let notice = tokio::select! {
            n = notices.recv() => n,
            _ = stopping.wait_for(|s| *s) => return,
        };
        let (Some(notice), Some(live)) = (notice, live.upgrade()) else {
            return;
        };
        match notice {
            StoreNotice::Listening => resync(&live, &online, &lobby, &players),
            StoreNotice::Text(text) => match Notice::parse(&text) {
                Some(Notice::Account { .. }) => catch_up(&players),
                Some(n) if n.from() != Some(live.cluster().instance()) => {
                    act_on(&live, &online, &lobby, &tournaments, n)
                }
                Some(_) => {} // this server's own
                None => tracing::debug!("a notice not understood: {text:?}"),
            },
        }
    }
}

/// Reads the account events not yet acted on (a logout, a ban).
fn catch_up(players: &Weak<Players>) {
    if let Some(players) = players.upgrade() {
        tokio::spawn(async move { players.catch_up().await });
    }
}

/// The listener (re)connected: whatever was missed is read again.
fn resync(
    live: &Arc<LiveGames>,
    online: &Weak<OnlineGames>,
    lobby: &Weak<Lobby>,
    players: &Weak<Players>,
) {
    catch_up(players);
    for id in live.cached_ids() {
        tokio::spawn(sync(live.clone(), online.clone(), id, None, None));
    }
    if let Some(lobby) = lobby.upgrade() {
        tokio::spawn(async move { lobby.announce_all().await });
    }
    let me = live.cluster().instance().to_string();
    live.cluster().send(Notice::Hello { from: me });
    live.cluster().mark_listening();
}

/// Another server committed game `id` at `rev` (`None`: maybe, the
/// notices were interrupted): if it is in memory here and older, plays on
/// the notice's move when it was one plain move on the revision held, or
/// else reads it again; and re-arms its timer.
async fn sync(
    live: Arc<LiveGames>,
    online: Weak<OnlineGames>,
    id: String,
    rev: Option<i64>,
    step: Option<Box<GameStep>>,
) {
    let (Some(arc), Some(online)) = (live.cached(&id), online.upgrade()) else {
        return;
    };
    let mut lg = arc.lock().await;
    if rev.is_some_and(|rev| rev <= lg.rev()) {
        return;
    }
    if let (Some(rev), Some(step)) = (rev, step) {
        match online.play_step(&arc, &mut lg, rev, *step).await {
            Ok(true) => {
                live.cluster().played_on.fetch_add(1, Ordering::Relaxed);
                return;
            }
            Ok(false) => {}
            Err(e) => tracing::debug!("game {id}: the notice's move not played on: {e}"),
        }
    }
    live.cluster().read_again.fetch_add(1, Ordering::Relaxed);
    if let Err(e) = online.reload(&arc, &mut lg).await {
        tracing::warn!("game {id} could not be read again: {e}");
    }
}

fn act_on(
    live: &Arc<LiveGames>,
    online: &Weak<OnlineGames>,
    lobby: &Weak<Lobby>,
    tournaments: &Weak<Tournaments>,
    notice: Notice,
) {
    let now = live.now();
    let presence = live.presence();
    match notice {
        // Reading a game again takes a query: games are read side by side.
        Notice::Game { id, rev, step, .. } => {
            tokio::spawn(sync(live.clone(), online.clone(), id, Some(rev), step));
        }
        Notice::Deleted { id } => {
            live.remove(&id);
        }
        Notice::Account { .. } => {} // read by `follow`
        Notice::SeekAdded { text, .. } => {
            if let Some(lobby) = lobby.upgrade() {
                lobby.announce_added_elsewhere(text);
            }
        }
        Notice::SeeksRemoved { ids, .. } => {
            if let Some(lobby) = lobby.upgrade() {
                lobby.announce_removed(ids);
            }
        }
        Notice::Paired {
            seek,
            game,
            players,
            ..
        } => {
            live.hub().publish(
                &HubTopic::Lobby,
                ServerEvent::Paired {
                    topic: LOBBY_TOPIC.to_string(),
                    seek,
                    game,
                    players,
                },
            );
        }
        // Read back as the event it was (the server's own readers, the
        // programs' streams, read events); the pages get the same text.
        Notice::Relay { topic, text, .. } => {
            match (
                HubTopic::parse(&topic),
                serde_json::from_str::<ServerEvent>(&text),
            ) {
                (Some(hub_topic), Ok(event)) => {
                    live.hub().publish_serialized(&hub_topic, event, text);
                }
                (None, _) => tracing::warn!("an event was relayed for no topic: {topic:?}"),
                (_, Err(e)) => {
                    tracing::warn!("an event relayed for {topic} could not be read: {e}")
                }
            }
        }
        Notice::Tournament { id, event, .. } => {
            if let Some(tournaments) = tournaments.upgrade() {
                tokio::spawn(async move { tournaments.tell_here(&id, event).await });
            }
        }
        Notice::Pairings { id, games, .. } => {
            if let Some(tournaments) = tournaments.upgrade() {
                tournaments.tell_players(&id, &games);
            }
        }
        Notice::Here { from, changes } => presence.remote_changes(&from, &changes, now),
        Notice::Hello { from } => {
            presence.heard(&from, now);
            presence.tell_all();
        }
        Notice::Alive { from } => presence.heard(&from, now),
        Notice::Bye { from } => presence.forget(&from),
    }
}
