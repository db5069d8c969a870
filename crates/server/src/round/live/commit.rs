//! A change to a game, and its staging: what the game, its record and its
//! online state become, computed without touching the game, so that the
//! change is stored first and made in memory only once it is committed.

use super::game::{HistoryEdit, LiveGame};
use crate::game_views::{GameViews, VariantGame};
use crate::round::live::GameEvent;
use crate::store::{Ending, GameUpdate, MovesChange, OnlineRecord, StoredMove};
use tensorchess_rules::{Color, Move};

/// Something that happens to a game: a move, a takeback, a resignation, a
/// seat taken, an offer. Committed in one step by
/// `LiveGames::commit`: the outcome is judged,
/// the record updated, the change stored, then announced as `event`.
pub struct Change {
    /// The event the game's subscribers are told (`move`, `resign`, ...).
    pub event: GameEvent,
    /// What happens to the moves.
    pub moves: MovesEdit,
    /// What happens to the end of the game.
    pub ending: EndingEdit,
    /// An online game's new record and clock state.
    pub online: Option<OnlineEdit>,
    /// New names of the players, White's first (a seat was taken).
    pub names: Option<[String; 2]>,
}

/// What a change does to the moves.
pub enum MovesEdit {
    /// The moves as they are.
    Keep,
    /// A legal move of the position now.
    Play(Move),
    /// Takes back this many moves.
    TakeBack(usize),
}

/// What a change does to the game's end.
pub enum EndingEdit {
    /// As it is.
    Keep,
    /// As the rules judge the position after the change (over or not).
    ByRules,
    /// The game ends so (resignation, agreement, time, abort).
    To(Ending),
}

/// An online game's new stored record, and the clock state that lives in
/// memory beside it.
pub struct OnlineEdit {
    /// The online record to store.
    pub record: OnlineRecord,
    /// When the running clock started (`None`: no clock runs).
    pub turn_origin: Option<i64>,
    /// When the side to move must have made its first move.
    pub first_move_deadline: Option<i64>,
}

/// A change stored and made in memory, not yet announced: hand it to
/// `LiveGames::publish` once what runs after
/// it has started.
#[must_use = "a committed change is announced with LiveGames::publish"]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Committed {
    pub(super) event: GameEvent,
}

impl Committed {
    /// The event the game's subscribers are to be told.
    pub fn event(self) -> GameEvent {
        self.event
    }
}

/// A change worked out, ready to be stored and then made.
pub(super) struct Staged {
    pub(super) event: GameEvent,
    /// The game after the change's moves (`None`: its moves are kept, and
    /// so is the game: a resignation or an offer copies no positions).
    pub(super) game: Option<VariantGame>,
    pub(super) history_edit: HistoryEdit,
    pub(super) stored_moves: MovesChange,
    pub(super) update: GameUpdate,
    pub(super) online: Option<OnlineEdit>,
}

impl Change {
    /// A change that only ends the game.
    pub fn end(event: GameEvent, ending: Ending) -> Change {
        Change {
            event,
            moves: MovesEdit::Keep,
            ending: EndingEdit::To(ending),
            online: None,
            names: None,
        }
    }
}

impl LiveGame {
    /// Works out `change` at wall-clock time `now_ms` (for `updated_at`).
    pub(super) fn stage(&self, change: Change, now_ms: i64) -> Staged {
        let (game, history_edit, stored_moves) = match change.moves {
            MovesEdit::Keep => (None, HistoryEdit::Keep, MovesChange::Keep),
            MovesEdit::Play(m) => {
                let mut game = self.game().clone();
                let entry = game.push_entry(m);
                let stored = StoredMove {
                    ply: entry.ply,
                    uci: entry.uci.clone(),
                    san: entry.san.clone(),
                };
                (
                    Some(game),
                    HistoryEdit::Push(Box::new(entry)),
                    MovesChange::Push(stored),
                )
            }
            MovesEdit::TakeBack(count) => {
                let mut game = self.game().clone();
                for _ in 0..count {
                    game.pop();
                }
                let keep = game.ply();
                (
                    Some(game),
                    HistoryEdit::Truncate(keep),
                    MovesChange::Truncate(keep),
                )
            }
        };
        let ending = match change.ending {
            EndingEdit::Keep => self.ending(),
            EndingEdit::ByRules => game
                .as_ref()
                .unwrap_or(self.game())
                .outcome()
                .map(Ending::Outcome),
            EndingEdit::To(e) => Some(e),
        };
        let mut online = change.online;
        if let (Some(_), Some(o)) = (ending, online.as_mut()) {
            // The end stops the clocks and lets pending offers lapse.
            o.record.turn_started_at = None;
            o.record.draw_offer = None;
            o.turn_origin = None;
            o.first_move_deadline = None;
        }
        // A side newly berserked is marked on the tournament's link in
        // the same write.
        let berserk = match (self.online(), online.as_ref()) {
            (Some(before), Some(after)) => [Color::White, Color::Black]
                .into_iter()
                .find(|c| after.record.berserked[*c] && !before.record().berserked[*c]),
            _ => None,
        };
        let update = GameUpdate {
            rev: self.rev() + 1,
            ending,
            updated_at: now_ms.max(self.record().updated_at),
            online: online.as_ref().map(|o| o.record.clone()),
            names: change.names,
            ratings: Vec::new(),
            berserk,
        };
        Staged {
            event: change.event,
            game,
            history_edit,
            stored_moves,
            update,
            online,
        }
    }
}
