//! The event of one move in an online game, as pages read it (made by the
//! round: `round::live::move_event`).

use crate::views::compact::{CompactLegal, CompactPath};
use crate::views::{HandsView, HistoryEntry};
use serde::Serialize;

/// The move a move event carries: the game's move list entry without what
/// a page knows already (the colour: the side that was to move; the path,
/// where the page makes it from the move string and the position before).
#[derive(Serialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
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
    #[ts(optional)]
    pub check: Option<String>,
    /// Its path, where a page does not make it.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub path: Option<CompactPath>,
}

impl MovePlayed {
    /// The move of a history entry.
    pub fn of(entry: HistoryEntry) -> MovePlayed {
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
#[derive(Serialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct MoveEventView {
    /// The game's revision after the move.
    pub rev: i64,
    /// The move.
    #[serde(rename = "move")]
    pub played: MovePlayed,
    /// Men in reserve after it (games with drops only).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub hands: Option<HandsView>,
    /// The clocks after it (games with a clock or days per move).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub clock: Option<ClockTicks>,
    /// The side whose draw offer stands (a move declines the other's).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub draw_offer: Option<tensorchess_rules::Color>,
    /// Whether a player may still abort the game (said only while one may).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub can_abort: bool,
    /// The side to move's legal moves (only in its own event).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub legal: Option<CompactLegal>,
}

/// The clocks after a move.
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct ClockTicks {
    /// White's time left (ms).
    pub white_ms: i64,
    /// Black's time left (ms).
    pub black_ms: i64,
    /// The colour whose clock runs, if one does.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub running: Option<tensorchess_rules::Color>,
    /// The time the side to move has left for its first move, before the
    /// clocks run.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub first_move_ms: Option<i64>,
}
