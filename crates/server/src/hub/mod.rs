//! Live updates: a publish/subscribe hub of named topics.
//!
//! The hub knows nothing of games: a topic is a [`HubTopic`] (a game's,
//! a room's, a tournament's, the lobby, a player's challenges), a message
//! is a typed event ([`ServerEvent`]). What a topic's subscribers share is one message:
//! the event, read as it is by the server's own readers (the programs'
//! streams), and its text, serialized once when the first page needs it
//! and shared by every subscriber (the text is reference counted: sending
//! it to many sockets copies nothing). Subscribers that fall behind lose
//! old messages and are told so (`Lagged`), never block others.
//! A message may have a second form for one audience of the topic, a
//! side (a game's move event with the legal moves, for the side to move): each
//! subscriber says which audience it belongs to, if any, and reads the
//! form that is its own. Subscribers also join their audience here, so
//! that a publisher makes the second form only when someone will read it
//! (with two instances, the side to move is often on the other one).

mod crowd;

use crate::topic::HubTopic;
use crate::views::ServerEvent;
use bytes::Bytes;
use crowd::Crowd;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use tensorchess_rules::Color;
use tokio::sync::broadcast;

/// Messages kept for a slow subscriber before it lags.
const TOPIC_CAPACITY: usize = 64;
/// The same for a topic of one player's own (their challenges): it hears
/// a few messages at a time, and every page open makes one, whose buffer
/// is allocated whole when it is made (a slot is a pointer: 16 of them
/// keep an idle page's memory small). A subscriber that falls
/// further behind lags, as on any topic (a page is told to resync).
const PERSONAL_CAPACITY: usize = 16;

/// A topic's channel: one for all its subscribers, or a crowded topic's
/// shards ([`crowd`]).
enum Channel {
    One(broadcast::Sender<Published>),
    Crowd(Crowd),
}

impl Channel {
    fn new(topic: &HubTopic) -> Channel {
        if topic.is_crowded() {
            Channel::Crowd(Crowd::new(capacity_of(topic)))
        } else {
            Channel::One(broadcast::channel(capacity_of(topic)).0)
        }
    }

    fn subscribe(&self) -> broadcast::Receiver<Published> {
        match self {
            Channel::One(tx) => tx.subscribe(),
            Channel::Crowd(crowd) => crowd.subscribe(),
        }
    }

    fn receiver_count(&self) -> usize {
        match self {
            Channel::One(tx) => tx.receiver_count(),
            Channel::Crowd(crowd) => crowd.receiver_count(),
        }
    }

    /// Sends `message`; returns its subscribers (none: nobody listens).
    fn send(&self, message: Published) -> usize {
        match self {
            Channel::One(tx) => tx.send(message).unwrap_or(0),
            Channel::Crowd(crowd) => crowd.send(message),
        }
    }
}

/// The messages a topic keeps for its slowest subscriber.
fn capacity_of(topic: &HubTopic) -> usize {
    if topic.is_personal() {
        PERSONAL_CAPACITY
    } else {
        TOPIC_CAPACITY
    }
}

/// One form of a message: the event, and its text once made.
#[derive(Debug)]
struct Form {
    event: ServerEvent,
    text: OnceLock<Bytes>,
}

impl Form {
    fn new(event: ServerEvent) -> Form {
        Form {
            event,
            text: OnceLock::new(),
        }
    }

    /// The event's text (UTF-8 JSON), made by the first who asks.
    fn text(&self) -> Bytes {
        self.text
            .get_or_init(|| match serde_json::to_vec(&self.event) {
                Ok(text) => Bytes::from(text),
                Err(e) => {
                    // Not expected (no map with other keys than strings);
                    // the page is told to read the state again.
                    tracing::error!("could not serialize an event: {e}");
                    Bytes::from_static(br#"{"type":"error","message":"An update was lost"}"#)
                }
            })
            .clone()
    }
}

#[derive(Debug)]
struct Message {
    everyone: Form,
    for_audience: Option<(Color, Form)>,
}

/// One message of a topic, as each subscriber receives it (a clone is a
/// reference count): its event, and maybe another form of it for one
/// audience.
#[derive(Clone, Debug)]
pub struct Published(Arc<Message>);

impl Published {
    fn form(&self, audience: Option<Color>) -> &Form {
        match (&self.0.for_audience, audience) {
            (Some((a, form)), Some(b)) if *a == b => form,
            _ => &self.0.everyone,
        }
    }

    /// The event every subscriber outside the message's audience reads.
    pub fn event(&self) -> &ServerEvent {
        &self.0.everyone.event
    }

    /// The event a subscriber in `audience` (none: no audience) reads.
    pub fn event_for(&self, audience: Option<Color>) -> &ServerEvent {
        &self.form(audience).event
    }

    /// The text a subscriber in `audience` (none: no audience) reads,
    /// serialized once for all of them.
    pub fn text_for(&self, audience: Option<Color>) -> Bytes {
        self.form(audience).text()
    }
}

/// Live-update topics (a game's, the lobby): each sends what is published
/// on it to every subscriber, as WebSocket text.
#[derive(Default)]
pub struct Hub {
    topics: Mutex<HashMap<HubTopic, Channel>>,
    /// How many subscribers each audience of a topic has (only topics and
    /// audiences with some).
    audiences: Mutex<HashMap<HubTopic, Vec<(Color, usize)>>>,
}

/// A subscriber's place in an audience of a topic, while it is held.
pub struct AudienceMember {
    hub: Arc<Hub>,
    topic: HubTopic,
    audience: Color,
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
    pub fn subscribe(&self, topic: &HubTopic) -> broadcast::Receiver<Published> {
        let mut topics = self.topics.lock().unwrap_or_else(|e| e.into_inner());
        topics
            .entry(topic.clone())
            .or_insert_with(|| Channel::new(topic))
            .subscribe()
    }

    /// Counts a subscriber of `topic` in `audience` until the member is
    /// dropped.
    pub fn join_audience(self: &Arc<Self>, topic: &HubTopic, audience: Color) -> AudienceMember {
        let mut audiences = self.audiences.lock().unwrap_or_else(|e| e.into_inner());
        let counts = audiences.entry(topic.clone()).or_default();
        match counts.iter_mut().find(|(a, _)| *a == audience) {
            Some((_, n)) => *n += 1,
            None => counts.push((audience, 1)),
        }
        AudienceMember {
            hub: self.clone(),
            topic: topic.clone(),
            audience,
        }
    }

    /// Whether some subscriber of `topic` is in `audience` now.
    pub fn has_audience(&self, topic: &HubTopic, audience: Color) -> bool {
        let audiences = self.audiences.lock().unwrap_or_else(|e| e.into_inner());
        audiences
            .get(topic)
            .is_some_and(|counts| counts.iter().any(|(a, _)| *a == audience))
    }

    /// Sends an event to a topic's subscribers; returns how many there were.
    pub fn publish(&self, topic: &HubTopic, event: ServerEvent) -> usize {
        self.send(topic, Form::new(event), None)
    }

    /// Sends `everyone` to a topic's subscribers, but `theirs` to those of
    /// `audience`; returns how many subscribers there were.
    pub fn publish_for(
        &self,
        topic: &HubTopic,
        everyone: ServerEvent,
        (audience, theirs): (Color, ServerEvent),
    ) -> usize {
        self.send(
            topic,
            Form::new(everyone),
            Some((audience, Form::new(theirs))),
        )
    }

    /// Sends an event whose text was made already (for the other
    /// instances too, or by one of them): the pages here get that text.
    pub fn publish_serialized(&self, topic: &HubTopic, event: ServerEvent, text: String) -> usize {
        let form = Form {
            event,
            text: OnceLock::from(Bytes::from(text)),
        };
        self.send(topic, form, None)
    }

    fn send(&self, topic: &HubTopic, everyone: Form, for_audience: Option<(Color, Form)>) -> usize {
        let mut topics = self.topics.lock().unwrap_or_else(|e| e.into_inner());
        let Some(tx) = topics.get(topic) else {
            return 0;
        };
        let message = Published(Arc::new(Message {
            everyone,
            for_audience,
        }));
        match tx.send(message) {
            0 => {
                // Nobody listens any more: forget the topic.
                topics.remove(topic);
                0
            }
            n => n,
        }
    }

    /// Subscribers of a topic now.
    pub fn subscriber_count(&self, topic: &HubTopic) -> usize {
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

    /// The hub topic named so.
    fn t(text: &str) -> HubTopic {
        HubTopic::parse(text).unwrap_or_else(|| panic!("{text}"))
    }

    /// An event saying `n`.
    fn n(n: usize) -> ServerEvent {
        ServerEvent::Error {
            message: n.to_string(),
        }
    }

    /// What a received event says, read as the server's readers do.
    fn said(p: &Published, audience: Option<Color>) -> String {
        match p.event_for(audience) {
            ServerEvent::Error { message } => message.clone(),
            other => panic!("not said: {other:?}"),
        }
    }

    #[tokio::test]
    async fn subscribers_get_messages_of_their_topic_only() {
        let hub = Hub::new();
        let mut a = hub.subscribe(&t("game:a"));
        let mut b = hub.subscribe(&t("game:b"));
        assert_eq!(hub.publish(&t("game:a"), n(1)), 1);
        assert_eq!(
            a.recv().await.unwrap().text_for(None),
            r#"{"type":"error","message":"1"}"#
        );
        assert!(b.try_recv().is_err());
        assert_eq!(hub.publish(&t("game:nobody"), n(1)), 0);
        drop(a);
        assert_eq!(hub.publish(&t("game:a"), n(2)), 0);
        assert_eq!(hub.topic_count(), 1);
        hub.publish(&t("game:b"), n(3));
        assert_eq!(said(&b.recv().await.unwrap(), None), "3");
    }

    #[tokio::test]
    async fn a_message_is_serialized_once_for_every_subscriber() {
        let hub = Hub::new();
        let mut first = hub.subscribe(&t("lobby"));
        let mut second = hub.subscribe(&t("lobby"));
        hub.publish(&t("lobby"), n(7));
        let (one, two) = (first.recv().await.unwrap(), second.recv().await.unwrap());
        let (a, b) = (one.text_for(None), two.text_for(None));
        assert_eq!(a.as_ptr(), b.as_ptr(), "one text, shared");
        assert_eq!(said(&two, None), "7");
        // A text made already (another instance's) is the one sent.
        hub.publish_serialized(
            &t("lobby"),
            n(8),
            r#"{"type":"error","message":"8"}"#.into(),
        );
        let relayed = first.recv().await.unwrap();
        assert_eq!(said(&relayed, None), "8");
        assert_eq!(relayed.text_for(None), r#"{"type":"error","message":"8"}"#);
    }

    #[tokio::test]
    async fn an_audience_reads_its_own_form_of_a_message() {
        let hub = Hub::new();
        let mut white = hub.subscribe(&t("game:a"));
        let mut watcher = hub.subscribe(&t("game:a"));
        assert_eq!(hub.publish_for(&t("game:a"), n(1), (Color::White, n(2))), 2);
        let mine = white.recv().await.unwrap();
        assert_eq!(said(&mine, Some(Color::White)), "2");
        assert_eq!(
            mine.text_for(Some(Color::White)),
            r#"{"type":"error","message":"2"}"#
        );
        assert_eq!(said(&watcher.recv().await.unwrap(), None), "1");
        hub.publish_for(&t("game:a"), n(3), (Color::White, n(4)));
        assert_eq!(said(&white.recv().await.unwrap(), Some(Color::Black)), "3");
    }

    #[test]
    fn audiences_count_their_members_while_they_are_held() {
        let hub = Arc::new(Hub::new());
        assert!(!hub.has_audience(&t("game:a"), Color::White));
        let first = hub.join_audience(&t("game:a"), Color::White);
        let second = hub.join_audience(&t("game:a"), Color::White);
        let black = hub.join_audience(&t("game:a"), Color::Black);
        assert!(hub.has_audience(&t("game:a"), Color::White));
        assert!(!hub.has_audience(&t("game:b"), Color::White));
        drop(first);
        assert!(hub.has_audience(&t("game:a"), Color::White));
        drop(second);
        assert!(!hub.has_audience(&t("game:a"), Color::White));
        assert!(hub.has_audience(&t("game:a"), Color::Black));
        drop(black);
        assert!(
            hub.audiences.lock().unwrap().is_empty(),
            "nothing left behind"
        );
    }

    #[tokio::test]
    async fn a_personal_topic_keeps_fewer_messages() {
        let hub = Hub::new();
        let topic = HubTopic::challenges_of("p1");
        let mut mine = hub.subscribe(&topic);
        let mut game = hub.subscribe(&t("game:a"));
        for i in 0..PERSONAL_CAPACITY + 1 {
            hub.publish(&topic, n(i));
            hub.publish(&t("game:a"), n(i));
        }
        assert!(matches!(
            mine.recv().await,
            Err(broadcast::error::RecvError::Lagged(1))
        ));
        assert_eq!(said(&game.recv().await.unwrap(), None), "0");
    }

    #[tokio::test]
    async fn a_slow_subscriber_lags_instead_of_blocking() {
        let hub = Hub::new();
        let mut slow = hub.subscribe(&t("game:a"));
        for i in 0..TOPIC_CAPACITY + 5 {
            hub.publish(&t("game:a"), n(i));
        }
        assert!(matches!(
            slow.recv().await,
            Err(broadcast::error::RecvError::Lagged(_))
        ));
    }

    #[tokio::test]
    async fn a_crowded_topic_reaches_every_shard_in_order() {
        let hub = Hub::new();
        let topic = t("tournament:t1");
        let mut pages: Vec<_> = (0..2 * crowd::SHARDS + 3)
            .map(|_| hub.subscribe(&topic))
            .collect();
        assert_eq!(hub.subscriber_count(&topic), pages.len());
        assert_eq!(hub.publish(&topic, n(1)), pages.len());
        hub.publish_serialized(&topic, n(2), r#"{"type":"error","message":"2"}"#.into());
        hub.publish(&topic, n(3));
        for page in &mut pages {
            for want in ["1", "2", "3"] {
                assert_eq!(said(&page.recv().await.unwrap(), None), want);
            }
        }
        drop(pages);
        assert_eq!(hub.publish(&topic, n(4)), 0);
        assert_eq!(hub.topic_count(), 0, "an empty crowd is forgotten");
    }

    #[tokio::test]
    async fn a_crowded_topic_lets_others_run_between_its_shards() {
        let hub = Hub::new();
        let topic = t("lobby");
        let mut pages: Vec<_> = (0..2 * crowd::SHARDS)
            .map(|_| hub.subscribe(&topic))
            .collect();
        hub.publish(&topic, n(1));
        // This task runs again before the message reached every shard
        // (the test's runtime has one thread: nothing else runs meanwhile).
        tokio::task::yield_now().await;
        let mut waiting = Vec::new();
        for page in &mut pages {
            if page.try_recv().is_err() {
                waiting.push(page);
            }
        }
        assert!(!waiting.is_empty(), "every shard reached at once");
        for page in waiting {
            assert_eq!(said(&page.recv().await.unwrap(), None), "1");
        }
    }

    #[test]
    fn outside_a_runtime_a_crowded_topic_sends_at_once() {
        let hub = Hub::new();
        let topic = t("tournament:t1");
        let mut pages: Vec<_> = (0..crowd::SHARDS + 1)
            .map(|_| hub.subscribe(&topic))
            .collect();
        hub.publish(&topic, n(5));
        for page in &mut pages {
            assert_eq!(said(&page.try_recv().unwrap(), None), "5");
        }
    }
}
