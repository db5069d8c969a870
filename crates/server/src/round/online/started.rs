//! Telling a game's two players that it began, however it was made (a
//! challenge, a seek, a tournament's pairing, a rematch, a friend taking
//! the seat of a link): the event stream of programs (`GET
//! /api/stream/event`) sends its `gameStart` from this, on every server.
//! The topic is the server's own: pages cannot subscribe to it.

use crate::round::live::{LiveGame, LiveGames};
use crate::topic::HubTopic;
use crate::views::ServerEvent;
use tensorchess_rules::Color;

/// Notes whether `lg`'s players are bots (for its views) and, once both
/// seats are held by players, tells each of them that it began.
pub async fn game_started(live: &LiveGames, lg: &LiveGame) {
    // A failed lookup leaves the mark off; the game goes on regardless.
    if let Err(e) = live.note_players(lg).await {
        tracing::warn!("game {}: could not look up its players: {e}", lg.id());
    }
    let Some(o) = lg.online() else {
        return;
    };
    let (Some(white), Some(black)) = (o.player(Color::White), o.player(Color::Black)) else {
        return;
    };
    let message = ServerEvent::GameStarted {
        game: lg.id().to_string(),
    };
    for player in [white, black] {
        let topic = HubTopic::started_of(player);
        live.cluster()
            .publish_everywhere(live.hub(), &topic, message.clone());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_start_names_its_game() {
        let m = ServerEvent::GameStarted { game: "abc".into() };
        assert_eq!(
            serde_json::to_string(&m).unwrap(),
            r#"{"type":"game_started","game":"abc"}"#
        );
        assert_eq!(HubTopic::started_of("p1").to_string(), "started:p1");
    }
}
