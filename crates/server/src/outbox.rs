//! This server's part in a group of servers sharing one database: its
//! instance name and its outbox of [`Notice`]s to the others (the bus
//! below every service; `cluster` dispatches what the others send).

use crate::hub::Hub;
use crate::store::{GameStore, Notice, KEYS_PER_NOTICE};
use crate::topic::HubTopic;
use crate::views::ServerEvent;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use tokio::sync::mpsc;

/// This server's part in a group of servers sharing one database.
pub struct Cluster {
    /// This server's name in notices (random, new each run).
    instance: String,
    /// Notices to send, when the database is shared.
    outbox: OnceLock<mpsc::UnboundedSender<Notice>>,
    /// Whether this server's listener has connected once.
    listening: AtomicBool,
    /// Other servers' commits to games held here played on from their
    /// notices (`GET /api/health`).
    pub played_on: std::sync::atomic::AtomicU64,
    /// Other servers' commits to games held here read again from the store.
    pub read_again: std::sync::atomic::AtomicU64,
}

impl Default for Cluster {
    fn default() -> Self {
        Cluster::new()
    }
}

impl Cluster {
    /// This server's part, under a new random instance name (16 hex digits).
    pub fn new() -> Cluster {
        let bytes: [u8; 8] = rand::random();
        Cluster {
            instance: bytes.iter().map(|b| format!("{b:02x}")).collect(),
            outbox: OnceLock::new(),
            listening: AtomicBool::new(false),
            played_on: std::sync::atomic::AtomicU64::new(0),
            read_again: std::sync::atomic::AtomicU64::new(0),
        }
    }

    /// This server's name in notices.
    pub fn instance(&self) -> &str {
        &self.instance
    }

    /// Sends `event` to the pages following `topic` here (on `hub`) and,
    /// when other servers share the database, to theirs: serialized once,
    /// the same text for all (the others read the event back from it).
    pub fn publish_everywhere(&self, hub: &Hub, topic: &HubTopic, event: ServerEvent) {
        if !self.is_shared() {
            hub.publish(topic, event);
            return;
        }
        let text = match serde_json::to_string(&event) {
            Ok(text) => text,
            Err(e) => {
                tracing::error!("could not serialize a message for {topic}: {e}");
                return;
            }
        };
        self.send(Notice::Relay {
            from: self.instance.clone(),
            topic: topic.to_string(),
            text: text.clone(),
        });
        hub.publish_serialized(topic, event, text);
    }

    /// Whether other servers may share the database (notices are sent).
    pub fn is_shared(&self) -> bool {
        self.outbox.get().is_some()
    }

    /// Whether this server hears the others (its listener has connected).
    pub fn is_listening(&self) -> bool {
        self.listening.load(Ordering::Relaxed)
    }

    pub(crate) fn mark_listening(&self) {
        self.listening.store(true, Ordering::Relaxed);
    }

    /// Starts sending notices through `store` (a shared database): a task
    /// sends them in order, presence changes merged into few notices.
    pub fn start_sending(&self, store: Arc<dyn GameStore>) {
        let (tx, mut rx) = mpsc::unbounded_channel::<Notice>();
        if self.outbox.set(tx).is_err() {
            return;
        }
        // The store's own notices (a game's commit) say they are ours.
        store.set_instance(self.instance());
        tokio::spawn(async move {
            let mut batch = Vec::new();
            while rx.recv_many(&mut batch, 256).await > 0 {
                for notice in merge_presence(std::mem::take(&mut batch)) {
                    if let Err(e) = store.notify(&notice).await {
                        tracing::warn!("a notice to the other servers was lost: {e}");
                    }
                }
            }
        });
    }

    /// Sends a notice to the other servers (nothing over SQLite).
    pub fn send(&self, notice: Notice) {
        if let Some(tx) = self.outbox.get() {
            let _ = tx.send(notice);
        }
    }
}

/// Joins consecutive presence notices of one server into notices of at
/// most [`KEYS_PER_NOTICE`] keys; the order of changes is kept.
fn merge_presence(notices: Vec<Notice>) -> Vec<Notice> {
    let mut out: Vec<Notice> = Vec::with_capacity(notices.len());
    for n in notices {
        if let (
            Notice::Here { from, changes },
            Some(Notice::Here {
                from: last_from,
                changes: last,
            }),
        ) = (&n, out.last_mut())
        {
            if from == last_from && last.len() + changes.len() <= KEYS_PER_NOTICE {
                last.extend(changes.iter().cloned());
                continue;
            }
        }
        out.push(n);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn here(from: &str, keys: &[&str]) -> Notice {
        Notice::Here {
            from: from.into(),
            changes: keys.iter().map(|k| (true, k.to_string())).collect(),
        }
    }

    #[test]
    fn presence_notices_are_merged_in_order() {
        let lobby = Notice::SeeksRemoved {
            from: "a".into(),
            ids: vec!["s1".into()],
        };
        let merged = merge_presence(vec![
            here("a", &["k1"]),
            here("a", &["k2", "k3"]),
            lobby.clone(),
            here("a", &["k4"]),
        ]);
        assert_eq!(
            merged,
            vec![here("a", &["k1", "k2", "k3"]), lobby, here("a", &["k4"])]
        );
        let many: Vec<Notice> = (0..100).map(|i| here("a", &[&format!("k{i}")])).collect();
        let merged = merge_presence(many);
        assert_eq!(merged.len(), 2);
        assert!(merged.iter().all(|n| n.to_string().len() < 8000));
    }

    #[test]
    fn instances_have_names_of_their_own() {
        let (a, b) = (Cluster::new(), Cluster::new());
        assert_ne!(a.instance(), b.instance());
        assert_eq!(a.instance().len(), 16);
        assert!(!a.is_shared());
    }
}
