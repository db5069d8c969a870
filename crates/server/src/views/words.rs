//! A word that views write as another name than its type's (a game's
//! title), and the test that every event another instance relays reads
//! back as it was written: a word the server never writes is an error,
//! not a default.

use serde::de::Error;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use tensorchess_rules::VariantKind;

/// A game's name for people (`Tensor Chess`, `Chess`, `Chessence`): its
/// title on the wire, read back by it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VariantTitle(pub VariantKind);

impl From<VariantKind> for VariantTitle {
    fn from(v: VariantKind) -> VariantTitle {
        VariantTitle(v)
    }
}

impl Serialize for VariantTitle {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0.title())
    }
}

impl<'de> Deserialize<'de> for VariantTitle {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<VariantTitle, D::Error> {
        let text = String::deserialize(d)?;
        VariantKind::ALL
            .iter()
            .copied()
            .find(|v| v.title() == text)
            .map(VariantTitle)
            .ok_or_else(|| D::Error::custom(format!("no game is called {text:?}")))
    }
}

#[cfg(test)]
mod tests {
    use crate::store::{ChatRoom, SeekColor};
    use crate::views::challenge::*;
    use crate::views::chat::ChatLineView;
    use crate::views::tournament::PairedGameView;
    use crate::views::{ClockSpecView, PlayerView, RatedPlayerView, SeekView, ServerEvent, Title};
    use tensorchess_rules::{Color, VariantKind};

    fn challenger(name: &str, title: Option<Title>) -> RatedPlayerView {
        RatedPlayerView {
            player: PlayerView {
                id: format!("id-{name}"),
                name: name.into(),
                account: Some(name.into()),
                title,
            },
            rating: 1500,
            provisional: true,
        }
    }

    /// The events another instance relays are read back as they were
    /// written; the others, and a word the server never writes, are not.
    #[test]
    fn relayed_events_read_back_as_they_were_written() {
        let clock = Some(ClockSpecView {
            base_seconds: 180,
            increment_seconds: 2,
        });
        let events = [
            ServerEvent::Challenge {
                topic: "challenges".into(),
                event: ChallengeEvent::Declined,
                challenge: Box::new(ChallengeView {
                    id: "c1".into(),
                    direction: Direction::In,
                    from: challenger("Ann", None),
                    to: challenger("Robo", Some(Title::Bot)),
                    variant: VariantKind::Chessence,
                    variant_title: VariantKind::Chessence.into(),
                    clock,
                    days: None,
                    rated: true,
                    color: SeekColor::Random,
                    final_color: SeekColor::Black,
                    state: ChallengeStatus::Declined,
                    game: None,
                    reason: Some("later".into()),
                    created_at: 1,
                    expires_at: 2,
                }),
            },
            ServerEvent::Chat {
                topic: "chat:g1:players".into(),
                line: Box::new(ChatLineView {
                    id: 3,
                    room: ChatRoom::Players,
                    name: "Robo".into(),
                    account: Some("robo".into()),
                    seat: Some(Color::Black),
                    title: Some(Title::Bot),
                    text: "gg \"well\" played 💡".into(),
                    at: 4,
                }),
            },
            ServerEvent::GameStarted { game: "g1".into() },
            ServerEvent::SeekAdded {
                topic: "lobby".into(),
                seek: SeekView {
                    id: "s1".into(),
                    variant: VariantKind::Tensor,
                    variant_title: VariantKind::Tensor.into(),
                    clock: None,
                    rated: false,
                    color: SeekColor::White,
                    player: RatedPlayerView {
                        player: PlayerView {
                            id: "p1".into(),
                            name: "Ann".into(),
                            account: None,
                            title: None,
                        },
                        rating: 1500,
                        provisional: true,
                    },
                    created_at: 5,
                    expires_at: 6,
                },
            },
            ServerEvent::TournamentPairings {
                topic: "tournament:t1".into(),
                pairings: vec![PairedGameView {
                    game: "g2".into(),
                    white: "a".into(),
                    black: "b".into(),
                }],
            },
        ];
        for event in events {
            let text = serde_json::to_string(&event).unwrap();
            let back: ServerEvent = serde_json::from_str(&text).unwrap();
            assert_eq!(serde_json::to_string(&back).unwrap(), text);
        }
        for never in [
            r#"{"type":"pong"}"#,
            r#"{"type":"resync","topic":"lobby"}"#,
            r#"{"type":"chat","topic":"t","line":{"id":1,"room":"players","name":"x","title":"GM","text":"","at":0}}"#,
        ] {
            assert!(
                serde_json::from_str::<ServerEvent>(never).is_err(),
                "{never}"
            );
        }
    }
}
