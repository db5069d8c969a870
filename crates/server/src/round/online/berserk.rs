//! Berserk (an arena game), as a command of the round: before their first
//! move, a player halves their own time and gives up their increment; the
//! mark on the game's tournament link, which the arena's scoring reads,
//! is written with the game's own change (`GameUpdate::berserk`).

use super::{refused, OnlineGames};
use crate::error::AppError;
use crate::kind::Kind;
use crate::round::live::{
    Change, Committed, EndingEdit, GameEvent, LiveGame, MovesEdit, OnlineEdit,
};
use crate::store::{TournamentKind, TournamentRecord};
use tensorchess_rules::Color;
use tensorchess_tournament::arena::{berserk_clock, may_berserk, ClockSettings};

/// A tournament's clock in the tournament crate's terms.
fn clock_seconds(t: &TournamentRecord) -> Option<ClockSettings> {
    Some(ClockSettings {
        base_seconds: u32::try_from(t.clock.base_ms / 1000).ok()?,
        increment_seconds: u32::try_from(t.clock.increment_ms / 1000).ok()?,
    })
}

impl OnlineGames {
    /// `seat` berserks in `lg`, an arena's game.
    pub(super) async fn berserk(
        &self,
        lg: &mut LiveGame,
        seat: Color,
    ) -> Result<Committed, AppError> {
        let not_arena = || {
            refused(
                Kind::NotAllowed,
                "Berserk is for games of an arena tournament",
            )
        };
        let store = self.live.store();
        let link = store
            .tournament_game(lg.id())
            .await?
            .ok_or_else(not_arena)?;
        let t = store
            .tournament(&link.link.tournament_id)
            .await?
            .ok_or_else(not_arena)?;
        if t.kind != TournamentKind::Arena {
            return Err(not_arena());
        }
        if lg.is_over() {
            return Err(refused(Kind::GameOver, "The game is over"));
        }
        let (Some(o), Some(clock)) = (lg.online(), clock_seconds(&t)) else {
            return Err(not_arena());
        };
        let has_moved = lg.ply() > seat.index();
        let halved = may_berserk(clock, has_moved)
            .and_then(|()| berserk_clock(clock))
            .map_err(|e| refused(Kind::TooLate, format!("{e}")))?;
        if o.record().berserked[seat] {
            return Err(refused(Kind::AlreadyOffered, "You have berserked already"));
        }
        let mut record = o.record().clone();
        record.berserked[seat] = true;
        record.ms[seat] = record.ms[seat].min(i64::from(halved.base_seconds) * 1000);
        let edit = OnlineEdit {
            record,
            turn_origin: o.turn_origin,
            first_move_deadline: o.first_move_deadline,
        };
        let change = Change {
            event: GameEvent::Berserk,
            moves: MovesEdit::Keep,
            ending: EndingEdit::Keep,
            online: Some(edit),
            names: None,
        };
        self.live.commit(lg, change).await
    }
}
