//! The event of one move in an online game, as small as it can be: the
//! move (its string, SAN and path), the revision, the clocks and offers,
//! and, only for the side now to move, the legal moves of the new
//! position in a compact form. A page that holds the game up to the move
//! before makes the new state from it; one that does not (its revision
//! does not follow) asks for the whole game. The whole view of a game is
//! several kilobytes (every legal move with its SAN and path); this is a
//! few hundred bytes, and a spectator's has no legal moves at all.
//!
//! The compact forms (legal moves grouped by their start, paths only
//! where a page cannot make them): [`crate::views::compact`]. The legal moves'
//! SAN is left out: the Move box asks for the whole game when it needs it.

use super::LiveGame;
use crate::game_views::hands_view;
use crate::views::compact::CompactLegal;
use crate::views::ServerEvent;

pub use crate::views::move_event::{ClockTicks, MoveEventView, MovePlayed};

/// The two forms of the event of `lg`'s last move on `topic` (an online
/// game in progress): for everyone, and for the side to move (with its
/// legal moves) when `for_side_to_move` (someone of that side follows the
/// game here: making the legal moves is most of an event's cost). `None`
/// when the game has no move.
pub fn move_events(
    lg: &LiveGame,
    topic: &str,
    now: i64,
    for_side_to_move: bool,
) -> Option<(ServerEvent, Option<ServerEvent>)> {
    let entry = lg.history().last()?.clone();
    let online = lg.online()?;
    let turn = lg.turn();
    let view = online.view(turn, lg.ply(), lg.is_over(), now, [false, false]);
    let hands = hands_view(lg.game());
    let clock = view.clock.map(|c| ClockTicks {
        white_ms: c.white_ms,
        black_ms: c.black_ms,
        running: c.running,
        first_move_ms: c.first_move_ms,
    });
    let everyone = MoveEventView {
        rev: lg.rev(),
        played: MovePlayed::of(entry),
        hands,
        clock,
        draw_offer: online.record().draw_offer,
        can_abort: view.can_abort,
        legal: None,
    };
    let to_move = for_side_to_move.then(|| MoveEventView {
        legal: Some(CompactLegal::of_game(lg.game())),
        ..everyone.clone()
    });
    let event = |m: MoveEventView| ServerEvent::Move {
        topic: topic.to_string(),
        event: Box::new(m),
    };
    Some((event(everyone), to_move.map(event)))
}
