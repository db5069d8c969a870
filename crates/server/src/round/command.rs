//! What a player asks of a game, whichever door it came through (an HTTP
//! route or the WebSocket), and what it did. [`Games::act`](crate::round::games::Games::act)
//! takes every [`Command`] the same way: it locks the game once, checks the
//! seat or the ownership, applies the command, commits it, re-arms what runs
//! for the game (an engine search, a flag timer) and announces the change.

use crate::error::AppError;
use crate::requests::OnlineAction;
use crate::round::live::{Committed, GameEvent};
use crate::views::ActionName;

/// A player's command to one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// A move (`POST /api/games/{id}/moves`, the `move` action), with the
    /// ply the player saw when it says one (required in online games).
    Move {
        /// The move, as a move string or SAN.
        mv: String,
        /// Moves on the board when the player moved.
        ply: Option<usize>,
    },
    /// Take back the last move (local games only).
    Takeback,
    /// Resign: in an online game the asker's seat resigns.
    Resign,
    /// Take the free seat of an online game under this name.
    Join {
        /// The name shown for the new player.
        name: String,
    },
    /// Offer a draw (online: once per move), or accept the opponent's.
    OfferDraw,
    /// Accept the opponent's draw offer (online).
    AcceptDraw,
    /// Decline the opponent's draw offer (online).
    DeclineDraw,
    /// End the game without a result, before both sides have moved.
    Abort,
    /// Win a game the opponent has left.
    ClaimVictory,
    /// Offer a rematch (colours swapped), or accept the opponent's offer.
    Rematch,
    /// Decline the opponent's rematch offer.
    DeclineRematch,
    /// Berserk in an arena game: half one's time, no increment.
    Berserk,
    /// A local game drawn by agreement, as the engine (or the device's two
    /// people) answered at revision `rev`: refused if the game moved on.
    AgreeDraw {
        /// The revision the offer was answered at.
        rev: i64,
    },
    /// Delete a local game (its owner's).
    Delete,
}

impl Command {
    /// The ply a move says it is for.
    pub fn ply(&self) -> Option<usize> {
        match self {
            Command::Move { ply, .. } => *ply,
            _ => None,
        }
    }

    /// The command's `type`, as requests write it (and acknowledgements
    /// name it).
    pub fn name(&self) -> ActionName {
        match self {
            Command::Move { .. } => ActionName::Move,
            Command::Takeback => ActionName::Takeback,
            Command::Resign => ActionName::Resign,
            Command::Join { .. } => ActionName::Join,
            Command::OfferDraw => ActionName::OfferDraw,
            Command::AcceptDraw => ActionName::AcceptDraw,
            Command::DeclineDraw => ActionName::DeclineDraw,
            Command::Abort => ActionName::Abort,
            Command::ClaimVictory => ActionName::ClaimVictory,
            Command::Rematch => ActionName::Rematch,
            Command::DeclineRematch => ActionName::DeclineRematch,
            Command::Berserk => ActionName::Berserk,
            Command::AgreeDraw { .. } => ActionName::AgreeDraw,
            Command::Delete => ActionName::Delete,
        }
    }
}

impl From<OnlineAction> for Command {
    fn from(action: OnlineAction) -> Command {
        match action {
            OnlineAction::Move { mv, ply } => Command::Move { mv, ply: Some(ply) },
            OnlineAction::Resign => Command::Resign,
            OnlineAction::OfferDraw => Command::OfferDraw,
            OnlineAction::AcceptDraw => Command::AcceptDraw,
            OnlineAction::DeclineDraw => Command::DeclineDraw,
            OnlineAction::Abort => Command::Abort,
            OnlineAction::ClaimVictory => Command::ClaimVictory,
            OnlineAction::Rematch => Command::Rematch,
            OnlineAction::DeclineRematch => Command::DeclineRematch,
            OnlineAction::Berserk => Command::Berserk,
        }
    }
}

/// What the server itself does to a game, through the same path as a
/// player's command ([`Games::fire`](crate::round::games::Games::fire)).
pub(in crate::round) enum Trigger {
    /// An online game's timer came due: its flag, or the abort of a first
    /// move not made (`gen`: the timer's generation, stale when re-armed).
    Clock {
        /// The generation of the timer that fired.
        gen: u64,
    },
    /// The engine's search of a local game ended.
    EngineMove {
        /// The search that ended (stale when the game moved on).
        search_id: u64,
        /// Its best move, or why it found none.
        found: Result<tensorchess_rules::Move, String>,
    },
}

/// What a [`Trigger`] did.
pub(in crate::round) enum Fired {
    /// A change, to settle and announce.
    Committed(Committed),
    /// Nothing changed, but the pages are told `event` (the engine stopped
    /// thinking without a move).
    Told(GameEvent),
    /// Not due yet: the trigger comes again at this time (ms).
    Again(i64),
    /// Nothing to do (stale, over, or stopping).
    Nothing,
}

/// What a service's half of a command did.
pub(crate) struct Step {
    /// The change committed (`None`: nothing needed to change, such as a
    /// seat already held or a rematch already made).
    pub(crate) committed: Option<Committed>,
    /// The rematch the command created or found.
    pub(crate) rematch_id: Option<String>,
    /// Refused after all, though `committed` happened and is announced (a
    /// move sent after the sender's flag fell: the flag is the change).
    pub(crate) refusal: Option<AppError>,
}

impl Step {
    /// A step that committed `c`.
    pub(crate) fn done(c: Committed) -> Step {
        Step {
            committed: Some(c),
            rematch_id: None,
            refusal: None,
        }
    }

    /// A step that changed nothing.
    pub(crate) fn unchanged() -> Step {
        Step {
            committed: None,
            rematch_id: None,
            refusal: None,
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
