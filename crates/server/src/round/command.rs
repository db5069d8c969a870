//! What a player asks of a game, whichever door it came through (an HTTP
//! route or the WebSocket), and what it did. [`Games::act`](crate::round::games::Games::act)
//! takes every [`Command`] the same way: it locks the game once, checks the
//! seat or the ownership, applies the command, commits it, re-arms what runs
//! for the game (an engine search, a flag timer) and announces the change.

use crate::requests::OnlineAction;
use crate::round::live::{Committed, GameEvent};

/// A player's command to one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// A move (`POST /api/games/{id}/moves`), with the ply the player saw
    /// when it says one (required in online games).
    Move {
        /// The move, as a move string or SAN.
        mv: String,
        /// Moves on the board when the player moved.
        ply: Option<usize>,
    },
    /// Take back the last move (local games only).
    Takeback,
    /// Resign (`POST /api/games/{id}/resign`): in an online game the
    /// asker's seat resigns.
    Resign,
    /// Take the free seat of an online game under this name.
    Join {
        /// The name shown for the new player.
        name: String,
    },
    /// An online game's action (`POST /api/games/{id}/act` or the
    /// WebSocket); a local game refuses it as not online.
    Online(OnlineAction),
}

impl Command {
    /// The ply a move says it is for.
    pub fn ply(&self) -> Option<usize> {
        match self {
            Command::Move { ply, .. } => *ply,
            Command::Online(OnlineAction::Move { ply, .. }) => Some(*ply),
            _ => None,
        }
    }
}

/// What a service's half of a command did.
pub(crate) struct Step {
    /// The change committed (`None`: nothing needed to change, such as a
    /// seat already held or a rematch already made).
    pub(crate) committed: Option<Committed>,
    /// The rematch the command created or found.
    pub(crate) rematch_id: Option<String>,
}

impl Step {
    /// A step that committed `c`.
    pub(crate) fn done(c: Committed) -> Step {
        Step {
            committed: Some(c),
            rematch_id: None,
        }
    }

    /// A step that changed nothing.
    pub(crate) fn unchanged() -> Step {
        Step {
            committed: None,
            rematch_id: None,
        }
    }
}

/// What a command did, as its sender is told.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Acted {
    /// The event announced to the game's subscribers (`None`: nothing
    /// changed).
    pub event: Option<GameEvent>,
    /// The game's revision after the command.
    pub rev: i64,
    /// Moves in the game after the command.
    pub ply: usize,
    /// The rematch this command created (or found already created).
    pub rematch_id: Option<String>,
}
