//! Berserk (an arena game): the command is the round's (`Command::Berserk`:
//! half one's own time, no increment, before one's first move, marked on
//! the game's tournament link in the game's own write); a win of at least
//! 14 plies then earns an extra point (the arena's scoring reads the mark).
//! What the tournament does is tell its pages.

use super::Tournaments;
use crate::error::AppError;
use crate::ids::GameId;
use crate::store::TournamentNews;

impl Tournaments {
    /// A player of arena game `id` berserked: the tournament's pages mark
    /// the berserker in the games going on.
    pub async fn berserked(&self, id: &GameId) -> Result<(), AppError> {
        let Some(game) = self.live.store().tournament_game(id).await? else {
            return Ok(());
        };
        let t = self.record(&game.link.tournament_id).await?;
        // Directed here: the mark is kept with the game (and the games
        // going on read again, in case a reading under way missed it).
        self.memory.marks_changed(&t.id);
        self.memory.update_games(&t.id, vec![game], None);
        self.announce(&t, TournamentNews::Berserk).await?;
        Ok(())
    }
}
