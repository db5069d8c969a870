//! What happened to a game, as its subscribers are told (`event` of a
//! `game` message on the WebSocket; the page reacts to some of them, e.g.
//! a declined draw offer).

use serde::Serialize;

/// What happened to a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum GameEvent {
    /// The game as it is, on subscribing.
    Snapshot,
    /// The game was read again (another server changed it).
    Update,
    /// A move was played.
    Move,
    /// Moves were taken back.
    Takeback,
    /// A player resigned.
    Resign,
    /// A draw was agreed.
    Draw,
    /// A draw was offered.
    DrawOffer,
    /// A draw offer was declined.
    DrawDeclined,
    /// The game was aborted (by a player, or for a first move not made).
    Abort,
    /// A flag fell.
    Flag,
    /// A player claimed the win of a game their opponent left.
    ClaimVictory,
    /// A seat was taken.
    Join,
    /// The rematch was agreed (its id is in the game).
    Rematch,
    /// A rematch was offered.
    RematchOffer,
    /// A rematch offer was declined.
    RematchDeclined,
    /// A player berserked (an arena game): half their time, no increment.
    Berserk,
}

impl GameEvent {
    /// Its word on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            GameEvent::Snapshot => "snapshot",
            GameEvent::Update => "update",
            GameEvent::Move => "move",
            GameEvent::Takeback => "takeback",
            GameEvent::Resign => "resign",
            GameEvent::Draw => "draw",
            GameEvent::DrawOffer => "draw_offer",
            GameEvent::DrawDeclined => "draw_declined",
            GameEvent::Abort => "abort",
            GameEvent::Flag => "flag",
            GameEvent::ClaimVictory => "claim_victory",
            GameEvent::Join => "join",
            GameEvent::Rematch => "rematch",
            GameEvent::RematchOffer => "rematch_offer",
            GameEvent::RematchDeclined => "rematch_declined",
            GameEvent::Berserk => "berserk",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wire_word_is_the_serialized_one() {
        for e in [
            GameEvent::Snapshot,
            GameEvent::DrawDeclined,
            GameEvent::RematchOffer,
            GameEvent::Flag,
        ] {
            assert_eq!(
                serde_json::to_string(&e).unwrap(),
                format!("\"{}\"", e.as_str())
            );
        }
    }
}
