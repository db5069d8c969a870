//! A socket's subscriptions, read by the socket's own task (`ws.rs`): one
//! task a connection, not one a topic. Tens of thousands of idle pages each
//! follow three or four topics; a task apiece, each with its receiver,
//! its clone of the topic's name and a queue to the socket, was most of
//! what an idle page cost besides its buffers. Here a subscription is its
//! topic's name, the hub's receiver (boxed, as a stream) and what it holds
//! while it lasts (a seat's place in its audience, presence).

use crate::hub::{AudienceMember, Published};
use crate::ids::GameId;
use crate::presence::{PresenceGuard, WatchGuard};
use crate::views::ServerEvent;
use futures_util::Stream;
use std::pin::Pin;
use std::task::{Context, Poll};
use tensorchess_rules::Color;
use tokio::sync::broadcast::{self, error::RecvError};

/// The messages of a hub topic, as a stream (`Closed` last).
type Feed = Pin<Box<dyn Stream<Item = Result<Published, RecvError>> + Send>>;

fn feed(rx: broadcast::Receiver<Published>) -> Feed {
    Box::pin(futures_util::stream::unfold(Some(rx), |rx| async move {
        let mut rx = rx?;
        let m = rx.recv().await;
        // After `Closed` the stream ends.
        let next = (!matches!(m, Err(RecvError::Closed))).then_some(rx);
        Some((m, next))
    }))
}

/// What a subscription holds while it lasts, dropped with it (held for
/// their `Drop`, never read).
#[derive(Default)]
#[allow(dead_code)]
pub struct Held {
    /// A seat's place in its game's audience.
    pub member: Option<AudienceMember>,
    /// A player connected to their game.
    pub here: Option<PresenceGuard>,
    /// A spectator counted.
    pub watching: Option<WatchGuard>,
}

/// One topic a socket follows.
pub struct Subscription {
    /// Its name as the page gave it (the key, and what `resync` names).
    pub topic: String,
    feed: Feed,
    /// The seat whose form of a message this reader gets.
    pub audience: Option<Color>,
    /// A spectators' room: its game, whose changes may seat the reader.
    seat_watch: Option<(GameId, Feed)>,
    _held: Held,
}

/// What a subscription heard.
pub enum Heard {
    /// A message of its topic (or that the reader lagged, or the end).
    Message(Result<Published, RecvError>),
    /// A change of a spectators' room's game (or a lag): the reader may
    /// have taken a seat.
    GameChanged(GameId, Result<Published, RecvError>),
}

impl Subscription {
    /// `topic` read from `rx`; a spectators' room also watches its game
    /// on `seat_watch` (subscribed before the snapshot's check).
    pub fn new(
        topic: String,
        rx: broadcast::Receiver<Published>,
        audience: Option<Color>,
        seat_watch: Option<(GameId, broadcast::Receiver<Published>)>,
        held: Held,
    ) -> Subscription {
        Subscription {
            topic,
            feed: feed(rx),
            audience,
            seat_watch: seat_watch.map(|(game, rx)| (game, feed(rx))),
            _held: held,
        }
    }

    fn poll_heard(&mut self, cx: &mut Context<'_>) -> Poll<Heard> {
        if let Poll::Ready(Some(m)) = self.feed.as_mut().poll_next(cx) {
            return Poll::Ready(Heard::Message(m));
        }
        if let Some((game, changes)) = &mut self.seat_watch {
            match changes.as_mut().poll_next(cx) {
                Poll::Ready(Some(Err(RecvError::Closed)) | None) => self.seat_watch = None,
                Poll::Ready(Some(m)) => return Poll::Ready(Heard::GameChanged(game.clone(), m)),
                Poll::Pending => {}
            }
        }
        Poll::Pending
    }
}

/// Whether a message on a game's topic may have seated someone: any
/// change but a move (a join here, an update from another instance).
pub fn may_seat(p: &Published) -> bool {
    !matches!(p.event(), ServerEvent::Move { .. })
}

/// A connection's subscriptions, in the order they were made.
#[derive(Default)]
pub struct Subscriptions {
    list: Vec<Subscription>,
    /// Where the next poll starts, so that a busy topic does not keep the
    /// others waiting.
    turn: usize,
}

impl Subscriptions {
    pub fn len(&self) -> usize {
        self.list.len()
    }

    pub fn contains(&self, topic: &str) -> bool {
        self.list.iter().any(|s| s.topic == topic)
    }

    /// Adds a subscription, replacing one of the same topic (whose holds
    /// go with it).
    pub fn insert(&mut self, sub: Subscription) {
        match self.list.iter_mut().find(|s| s.topic == sub.topic) {
            Some(old) => *old = sub,
            None => self.list.push(sub),
        }
    }

    /// Ends the subscription to `topic`, if there is one.
    pub fn remove(&mut self, topic: &str) -> Option<Subscription> {
        let i = self.list.iter().position(|s| s.topic == topic)?;
        Some(self.list.remove(i))
    }

    /// The next thing any subscription heard: its topic, its audience, and
    /// what. A subscription whose topic closed is dropped.
    pub async fn next(&mut self) -> (String, Option<Color>, Heard) {
        std::future::poll_fn(|cx| self.poll_next(cx)).await
    }

    fn poll_next(&mut self, cx: &mut Context<'_>) -> Poll<(String, Option<Color>, Heard)> {
        let n = self.list.len();
        for k in 0..n {
            let i = (self.turn + k) % n;
            if let Poll::Ready(heard) = self.list[i].poll_heard(cx) {
                self.turn = (i + 1) % n;
                let sub = &self.list[i];
                let found = (sub.topic.clone(), sub.audience, heard);
                if matches!(found.2, Heard::Message(Err(RecvError::Closed))) {
                    self.list.remove(i);
                }
                return Poll::Ready(found);
            }
        }
        Poll::Pending
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hub::Hub;
    use crate::topic::HubTopic;

    /// The hub topic named so.
    fn t(text: &str) -> HubTopic {
        HubTopic::parse(text).unwrap_or_else(|| panic!("{text}"))
    }

    fn sub(hub: &Hub, topic: &str) -> Subscription {
        Subscription::new(
            topic.into(),
            hub.subscribe(&t(topic)),
            None,
            None,
            Held::default(),
        )
    }

    /// An event saying `n`.
    fn said(n: usize) -> ServerEvent {
        ServerEvent::Error {
            message: n.to_string(),
        }
    }

    fn text(heard: Heard) -> String {
        match heard {
            Heard::Message(Ok(p)) => match p.event() {
                ServerEvent::Error { message } => message.clone(),
                other => format!("{other:?}"),
            },
            Heard::Message(Err(e)) => format!("{e:?}"),
            Heard::GameChanged(..) => "game changed".into(),
        }
    }

    #[tokio::test]
    async fn every_topic_is_heard_in_turn() {
        let hub = Hub::new();
        let mut subs = Subscriptions::default();
        subs.insert(sub(&hub, "game:a"));
        subs.insert(sub(&hub, "game:b"));
        for i in 0..3 {
            hub.publish(&t("game:a"), said(i));
            hub.publish(&t("game:b"), said(i));
        }
        let mut heard = Vec::new();
        for _ in 0..6 {
            let (topic, _, h) = subs.next().await;
            heard.push(format!("{topic}{}", text(h)));
        }
        // A busy first topic does not keep the second waiting.
        assert_eq!(
            heard,
            ["game:a0", "game:b0", "game:a1", "game:b1", "game:a2", "game:b2"]
        );
    }

    #[tokio::test]
    async fn a_topic_subscribed_again_is_replaced_and_one_removed_is_not_heard() {
        let hub = Hub::new();
        let mut subs = Subscriptions::default();
        subs.insert(sub(&hub, "game:a"));
        subs.insert(sub(&hub, "game:a"));
        assert_eq!(subs.len(), 1);
        assert_eq!(
            hub.subscriber_count(&t("game:a")),
            1,
            "the old receiver went"
        );
        subs.insert(sub(&hub, "game:b"));
        assert!(subs.remove("game:a").is_some());
        assert!(!subs.contains("game:a"));
        assert_eq!(hub.subscriber_count(&t("game:a")), 0);
        hub.publish(&t("game:a"), said(1));
        hub.publish(&t("game:b"), said(2));
        let (topic, _, h) = subs.next().await;
        assert_eq!((topic.as_str(), text(h).as_str()), ("game:b", "2"));
    }

    #[tokio::test]
    async fn a_reader_behind_hears_that_it_lagged() {
        let hub = Hub::new();
        let mut subs = Subscriptions::default();
        subs.insert(sub(&hub, "game:a"));
        for i in 0..100 {
            hub.publish(&t("game:a"), said(i));
        }
        let (_, _, h) = subs.next().await;
        assert!(matches!(h, Heard::Message(Err(RecvError::Lagged(_)))));
    }

    #[tokio::test]
    async fn a_spectators_room_hears_its_game_change_but_not_a_move() {
        let hub = Hub::new();
        let game = GameId::parse("abc123").unwrap();
        let mut subs = Subscriptions::default();
        subs.insert(Subscription::new(
            "chat:abc123:spectators".into(),
            hub.subscribe(&t("chat:abc123:spectators")),
            None,
            Some((game.clone(), hub.subscribe(&t("game:abc123")))),
            Held::default(),
        ));
        let moved = ServerEvent::Move {
            topic: "game:abc123".into(),
            event: Box::new(crate::views::move_event::MoveEventView {
                rev: 2,
                played: crate::views::move_event::MovePlayed {
                    ply: 0,
                    uci: "e2e4".into(),
                    san: "e4".into(),
                    fen: String::new(),
                    check: None,
                    path: None,
                },
                hands: None,
                clock: None,
                draw_offer: None,
                can_abort: true,
                legal: None,
            }),
        };
        hub.publish(&t("game:abc123"), moved);
        let (topic, _, h) = subs.next().await;
        assert_eq!(topic, "chat:abc123:spectators");
        let Heard::GameChanged(id, Ok(p)) = h else {
            panic!("not a game change")
        };
        assert_eq!(id, game);
        assert!(!may_seat(&p), "a move seats nobody");
        hub.publish(
            &t("game:abc123"),
            ServerEvent::Resync {
                topic: "game:abc123".into(),
            },
        );
        let (_, _, h) = subs.next().await;
        let Heard::GameChanged(_, Ok(p)) = h else {
            panic!("not a game change")
        };
        assert!(may_seat(&p));
    }
}
