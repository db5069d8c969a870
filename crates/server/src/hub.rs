//! Live updates: a publish/subscribe hub of named topics.
//!
//! The hub knows nothing of games: a topic is any string (`game:ID` today;
//! seats, spectators or lobbies later), a message is any serializable value,
//! serialized once and shared by every subscriber (the text is reference
//! counted: sending it to many sockets copies nothing). Subscribers that fall
//! behind lose old messages and are told so (`Lagged`), never block others.
//! A message may have a second form for one audience of the topic (a
//! game's move event with the legal moves, for the side to move): each
//! subscriber says which audience it belongs to, if any, and reads the
//! form that is its own. Subscribers also join their audience here, so
//! that a publisher makes the second form only when someone will read it
//! (with two instances, the side to move is often on the other one).

use bytes::Bytes;
use serde::Serialize;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::broadcast;

/// Messages kept for a slow subscriber before it lags.
const TOPIC_CAPACITY: usize = 64;
/// The same for a topic of one player's own (their challenges): it hears
/// a few messages at a time, and every page open makes one, whose buffer
/// is allocated whole when it is made (a slot is about 110 bytes: 64 of
/// them were a third of an idle page's memory). A subscriber that falls
/// further behind lags, as on any topic (a page is told to resync).
const PERSONAL_CAPACITY: usize = 16;

/// The messages a topic keeps for its slowest subscriber.
fn capacity_of(topic: &str) -> usize {
    if crate::topic::is_personal(topic) {
        PERSONAL_CAPACITY
    } else {
        TOPIC_CAPACITY
    }
}

/// One message of a topic: its text (UTF-8 JSON, made from a `String`),
/// and maybe another text for one audience of it.
#[derive(Clone, Debug)]
pub struct Published {
    text: Bytes,
    for_audience: Option<(&'static str, Bytes)>,
}

impl Published {
    /// The text every subscriber outside the message's audience reads.
    pub fn as_bytes(&self) -> &[u8] {
        &self.text
    }

    /// The text a subscriber in `audience` (none: no audience) reads.
    pub fn text_for(self, audience: Option<&str>) -> Bytes {
        match (self.for_audience, audience) {
            (Some((a, text)), Some(b)) if a == b => text,
            _ => self.text,
        }
    }
}

/// Live-update topics (`game:ID`, `lobby`): each sends what is published
/// on it to every subscriber, as WebSocket text.
#[derive(Default)]
pub struct Hub {
    topics: Mutex<HashMap<String, broadcast::Sender<Published>>>,
    /// How many subscribers each audience of a topic has (only topics and
    /// audiences with some).
    audiences: Mutex<HashMap<String, Vec<(&'static str, usize)>>>,
}

/// A subscriber's place in an audience of a topic, while it is held.
pub struct AudienceMember {
    hub: Arc<Hub>,
    topic: String,
    audience: &'static str,
}

impl Drop for AudienceMember {
    fn drop(&mut self) {
        let mut audiences = self.hub.audiences.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(counts) = audiences.get_mut(&self.topic) {
            if let Some(i) = counts.iter().position(|(a, _)| *a == self.audience) {
                counts[i].1 -= 1;
                if counts[i].1 == 0 {
                    counts.swap_remove(i);
                }
            }
            if counts.is_empty() {
                audiences.remove(&self.topic);
            }
        }
    }
}

impl Hub {
    /// A hub without topics.
    pub fn new() -> Hub {
        Hub::default()
    }

    /// Subscribes to a topic (created on first use).
    pub fn subscribe(&self, topic: &str) -> broadcast::Receiver<Published> {
        let mut topics = self.topics.lock().unwrap_or_else(|e| e.into_inner());
        topics
            .entry(topic.to_string())
            .or_insert_with(|| broadcast::channel(capacity_of(topic)).0)
            .subscribe()
    }

    /// Counts a subscriber of `topic` in `audience` until the member is
    /// dropped.
    pub fn join_audience(self: &Arc<Self>, topic: &str, audience: &'static str) -> AudienceMember {
        let mut audiences = self.audiences.lock().unwrap_or_else(|e| e.into_inner());
        let counts = audiences.entry(topic.to_string()).or_default();
        match counts.iter_mut().find(|(a, _)| *a == audience) {
            Some((_, n)) => *n += 1,
            None => counts.push((audience, 1)),
        }
        AudienceMember {
            hub: self.clone(),
            topic: topic.to_string(),
            audience,
        }
    }

    /// Whether some subscriber of `topic` is in `audience` now.
    pub fn has_audience(&self, topic: &str, audience: &str) -> bool {
        let audiences = self.audiences.lock().unwrap_or_else(|e| e.into_inner());
        audiences
            .get(topic)
            .is_some_and(|counts| counts.iter().any(|(a, _)| *a == audience))
    }

    /// Sends a message to a topic's subscribers; returns how many there were.
    pub fn publish<T: Serialize>(&self, topic: &str, message: &T) -> usize {
        match serde_json::to_string(message) {
            Ok(text) => self.publish_text(topic, text),
            Err(e) => {
                tracing::error!("could not serialize a message for {topic}: {e}");
                0
            }
        }
    }

    /// Sends `everyone` to a topic's subscribers, but `theirs` to those of
    /// `audience`; returns how many subscribers there were.
    pub fn publish_for<T: Serialize, U: Serialize>(
        &self,
        topic: &str,
        everyone: &T,
        (audience, theirs): (&'static str, &U),
    ) -> usize {
        match (
            serde_json::to_string(everyone),
            serde_json::to_string(theirs),
        ) {
            (Ok(text), Ok(their_text)) => self.send(
                topic,
                Published {
                    text: text.into(),
                    for_audience: Some((audience, their_text.into())),
                },
            ),
            (Err(e), _) | (_, Err(e)) => {
                tracing::error!("could not serialize a message for {topic}: {e}");
                0
            }
        }
    }

    /// Sends already serialized text.
    pub fn publish_text(&self, topic: &str, text: String) -> usize {
        self.send(
            topic,
            Published {
                text: text.into(),
                for_audience: None,
            },
        )
    }

    fn send(&self, topic: &str, message: Published) -> usize {
        let mut topics = self.topics.lock().unwrap_or_else(|e| e.into_inner());
        let Some(tx) = topics.get(topic) else {
            return 0;
        };
        match tx.send(message) {
            Ok(n) => n,
            Err(_) => {
                // Nobody listens any more: forget the topic.
                topics.remove(topic);
                0
            }
        }
    }

    /// Subscribers of a topic now.
    pub fn subscriber_count(&self, topic: &str) -> usize {
        let topics = self.topics.lock().unwrap_or_else(|e| e.into_inner());
        topics.get(topic).map_or(0, |tx| tx.receiver_count())
    }

    /// Topics with at least one subscriber.
    pub fn topic_count(&self) -> usize {
        let mut topics = self.topics.lock().unwrap_or_else(|e| e.into_inner());
        topics.retain(|_, tx| tx.receiver_count() > 0);
        topics.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn subscribers_get_messages_of_their_topic_only() {
        let hub = Hub::new();
        let mut a = hub.subscribe("game:a");
        let mut b = hub.subscribe("game:b");
        assert_eq!(hub.publish("game:a", &serde_json::json!({"n": 1})), 1);
        assert_eq!(a.recv().await.unwrap().text_for(None), r#"{"n":1}"#);
        assert!(b.try_recv().is_err());
        assert_eq!(hub.publish("nobody", &1), 0);
        drop(a);
        assert_eq!(hub.publish("game:a", &2), 0);
        assert_eq!(hub.topic_count(), 1);
        hub.publish("game:b", &3);
        assert_eq!(b.recv().await.unwrap().text_for(None), "3");
    }

    #[tokio::test]
    async fn an_audience_reads_its_own_form_of_a_message() {
        let hub = Hub::new();
        let mut white = hub.subscribe("game:a");
        let mut watcher = hub.subscribe("game:a");
        assert_eq!(hub.publish_for("game:a", &1, ("white", &2)), 2);
        assert_eq!(white.recv().await.unwrap().text_for(Some("white")), "2");
        assert_eq!(watcher.recv().await.unwrap().text_for(None), "1");
        hub.publish_for("game:a", &3, ("white", &4));
        assert_eq!(white.recv().await.unwrap().text_for(Some("black")), "3");
    }

    #[test]
    fn audiences_count_their_members_while_they_are_held() {
        let hub = Arc::new(Hub::new());
        assert!(!hub.has_audience("game:a", "white"));
        let first = hub.join_audience("game:a", "white");
        let second = hub.join_audience("game:a", "white");
        let black = hub.join_audience("game:a", "black");
        assert!(hub.has_audience("game:a", "white"));
        assert!(!hub.has_audience("game:b", "white"));
        drop(first);
        assert!(hub.has_audience("game:a", "white"));
        drop(second);
        assert!(!hub.has_audience("game:a", "white"));
        assert!(hub.has_audience("game:a", "black"));
        drop(black);
        assert!(
            hub.audiences.lock().unwrap().is_empty(),
            "nothing left behind"
        );
    }

    #[tokio::test]
    async fn a_personal_topic_keeps_fewer_messages() {
        let hub = Hub::new();
        let topic = crate::topic::challenges_of("p1");
        let mut mine = hub.subscribe(&topic);
        let mut game = hub.subscribe("game:a");
        for i in 0..PERSONAL_CAPACITY + 1 {
            hub.publish(&topic, &i);
            hub.publish("game:a", &i);
        }
        assert!(matches!(
            mine.recv().await,
            Err(broadcast::error::RecvError::Lagged(1))
        ));
        assert_eq!(game.recv().await.unwrap().text_for(None), "0");
    }

    #[tokio::test]
    async fn a_slow_subscriber_lags_instead_of_blocking() {
        let hub = Hub::new();
        let mut slow = hub.subscribe("t");
        for i in 0..TOPIC_CAPACITY + 5 {
            hub.publish("t", &i);
        }
        assert!(matches!(
            slow.recv().await,
            Err(broadcast::error::RecvError::Lagged(_))
        ));
    }
}
