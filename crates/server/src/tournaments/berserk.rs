//! Berserk (an arena game): before their first move, a player halves their
//! own time and gives up their increment; a win of at least 14 plies then
//! earns an extra point (the arena's scoring reads the mark on the game's
//! link).

use super::Tournaments;
use crate::error::AppError;
use crate::ids::GameId;
use crate::kind::Kind;
use crate::players::Me;
use crate::round::games::Games;
use crate::round::live::{Change, EndingEdit, GameEvent, MovesEdit, OnlineEdit};
use crate::round::online::OnlineGames;
use crate::store::TournamentKind;
use crate::store::TournamentNews;
use crate::views::GameView;
use tensorchess_tournament::arena::{berserk_clock, may_berserk, ClockSettings};

impl Tournaments {
    /// `me` berserks in arena game `id`; answers the game as they see it.
    pub async fn berserk(&self, games: &Games, id: &GameId, me: &Me) -> Result<GameView, AppError> {
        me.may_act()?;
        let not_arena = || {
            AppError::refused(
                Kind::NotAllowed,
                "Berserk is for games of an arena tournament",
            )
        };
        let store = self.live.store();
        let (arc, mut lg) = games.lock_for(id, me).await?;
        let link = store.tournament_game(id).await?.ok_or_else(not_arena)?;
        let t = self.record(&link.link.tournament_id).await?;
        if t.kind != TournamentKind::Arena {
            return Err(not_arena());
        }
        let color = OnlineGames::seat(&lg, me).ok_or_else(|| {
            AppError::refused(Kind::NotAPlayer, "Only a player of the game berserks")
        })?;
        if lg.is_over() {
            return Err(AppError::refused(Kind::GameOver, "The game is over"));
        }
        let (Some(o), Some(clock)) = (lg.online(), clock_seconds(&t)) else {
            return Err(not_arena());
        };
        let has_moved = lg.ply() > color.index();
        let halved = may_berserk(clock, has_moved)
            .and_then(|()| berserk_clock(clock))
            .map_err(|e| AppError::refused(Kind::TooLate, format!("{e}")))?;
        if o.record().berserked[color] {
            return Err(AppError::refused(
                Kind::AlreadyOffered,
                "You have berserked already",
            ));
        }
        if !store.set_berserk(id, color).await? {
            return Err(AppError::refused(
                Kind::AlreadyOffered,
                "You have berserked already",
            ));
        }
        let mut record = o.record().clone();
        record.berserked[color] = true;
        record.ms[color] = record.ms[color].min(i64::from(halved.base_seconds) * 1000);
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
        let committed = self.live.commit(&mut lg, change).await?;
        games.online.resume_after_change(&arc, &mut lg);
        self.live.publish(&lg, committed.event());
        let view = games.online.view_for(&lg, me);
        drop(lg);
        // The tournament's pages mark the berserker in the games going on.
        self.announce(&t, TournamentNews::Berserk).await?;
        Ok(view)
    }
}

/// A tournament's clock in the tournament crate's terms.
fn clock_seconds(t: &crate::store::TournamentRecord) -> Option<ClockSettings> {
    Some(ClockSettings {
        base_seconds: u32::try_from(t.clock.base_ms / 1000).ok()?,
        increment_seconds: u32::try_from(t.clock.increment_ms / 1000).ok()?,
    })
}
