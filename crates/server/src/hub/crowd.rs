//! A crowded topic: a tournament's news, which every page of a large
//! arena follows, or the lobby's. Its subscribers are split among
//! [`SHARDS`] channels, and one task a topic hands each message to them
//! shard by shard, yielding to the runtime between shards. A message to a
//! thousand pages wakes a thousand socket tasks; sent to all at once, they
//! all queue ahead of whatever arrives meanwhile (another game's move then
//! waits for every one of them: BENCHMARKS.md, "Scale II"); sent a shard at
//! a time, a move waits for one shard's sockets at most. The task delivers
//! the topic's messages in the order they were published, each to every
//! shard.

use super::Published;
use std::sync::Arc;
use tokio::sync::{broadcast, mpsc};

/// Channels a crowded topic's subscribers are split among.
pub(super) const SHARDS: usize = 16;

/// A crowded topic's channels and the task that feeds them.
pub(super) struct Crowd {
    shards: Arc<[broadcast::Sender<Published>]>,
    /// Messages for the task (`None` outside a runtime: sent inline).
    spreader: Option<mpsc::UnboundedSender<Published>>,
}

impl Crowd {
    /// A topic whose shards each keep `capacity` messages for their
    /// slowest subscriber.
    pub(super) fn new(capacity: usize) -> Crowd {
        let shards: Arc<[broadcast::Sender<Published>]> = (0..SHARDS)
            .map(|_| broadcast::channel(capacity).0)
            .collect();
        let spreader = tokio::runtime::Handle::try_current().ok().map(|runtime| {
            let (tx, rx) = mpsc::unbounded_channel();
            runtime.spawn(spread(shards.clone(), rx));
            tx
        });
        Crowd { shards, spreader }
    }

    /// A new subscriber, in the shard with the fewest (pages leave in
    /// any order).
    pub(super) fn subscribe(&self) -> broadcast::Receiver<Published> {
        let emptiest = self
            .shards
            .iter()
            .min_by_key(|shard| shard.receiver_count())
            .unwrap_or(&self.shards[0]);
        emptiest.subscribe()
    }

    /// Subscribers now, in every shard.
    pub(super) fn receiver_count(&self) -> usize {
        self.shards.iter().map(|s| s.receiver_count()).sum()
    }

    /// Hands `message` to the task (to every shard at once when there is
    /// none); returns the subscribers it is for.
    pub(super) fn send(&self, message: Published) -> usize {
        let subscribers = self.receiver_count();
        if subscribers == 0 {
            return 0;
        }
        let message = match &self.spreader {
            Some(tx) => match tx.send(message) {
                Ok(()) => return subscribers,
                // The runtime that ran the task is gone (a test's).
                Err(mpsc::error::SendError(message)) => message,
            },
            None => message,
        };
        for shard in self.shards.iter() {
            let _ = shard.send(message.clone());
        }
        subscribers
    }
}

/// The topic's task: each message to each shard that has subscribers,
/// yielding after each, until the topic is forgotten.
async fn spread(
    shards: Arc<[broadcast::Sender<Published>]>,
    mut messages: mpsc::UnboundedReceiver<Published>,
) {
    while let Some(message) = messages.recv().await {
        for shard in shards.iter() {
            if shard.receiver_count() == 0 {
                continue;
            }
            let _ = shard.send(message.clone());
            tokio::task::yield_now().await;
        }
    }
}
