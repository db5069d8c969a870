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
//! where a page cannot make them): [`super::compact`]. The legal moves'
//! SAN is left out: the Move box asks for the whole game when it needs it.

use super::compact::{CompactLegal, CompactPath};
use super::LiveGame;
use crate::game_views::hands_view;
use crate::views::{HandsView, HistoryEntry, ServerEvent};
use serde::Serialize;

/// The move a move event carries: the game's move list entry without what
/// a page knows already (the colour: the side that was to move; the path,
/// where the page makes it from the move string and the position before).
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct MovePlayed {
    /// 0 for the first move.
    pub ply: usize,
    /// The move string (RULES 4.2).
    pub uci: String,
    /// Its SAN.
    pub san: String,
    /// The position after it.
    pub fen: String,
    /// The king in check after it, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub check: Option<String>,
    /// Its path, where a page does not make it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<CompactPath>,
}

impl MovePlayed {
    fn of(entry: HistoryEntry) -> MovePlayed {
        MovePlayed {
            path: CompactPath::of(&entry.uci, &entry.path),
            ply: entry.ply,
            uci: entry.uci,
            san: entry.san,
            fen: entry.fen,
            check: entry.check,
        }
    }
}

/// The part of a move event every subscriber reads.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct MoveEventView {
    /// The game's revision after the move.
    pub rev: i64,
    /// The move.
    #[serde(rename = "move")]
    pub played: MovePlayed,
    /// Men in reserve after it (games with drops only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hands: Option<HandsView>,
    /// The clocks after it (games with a clock or days per move).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockTicks>,
    /// The side whose draw offer stands (a move declines the other's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draw_offer: Option<&'static str>,
    /// Whether a player may still abort the game (said only while one may).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub can_abort: bool,
    /// The side to move's legal moves (only in its own event).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub legal: Option<CompactLegal>,
}

/// The clocks after a move.
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockTicks {
    /// White's time left (ms).
    pub white_ms: i64,
    /// Black's time left (ms).
    pub black_ms: i64,
    /// The colour whose clock runs, if one does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub running: Option<&'static str>,
    /// The time the side to move has left for its first move, before the
    /// clocks run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_move_ms: Option<i64>,
}

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
        draw_offer: online.record().draw_offer.map(|c| c.name()),
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
