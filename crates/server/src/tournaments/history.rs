//! A tournament looked at closely: one round of a Swiss or a round robin
//! (its games and its byes), and one player's games (an arena's line,
//! clicked), each counted by the one rule of the standings.

use super::views::{bye_result, counts, round_result, sheet_mark, Keyed, PointsMark};
use super::Tournaments;
use crate::error::AppError;
use crate::ids::TournamentId;
use crate::kind::Kind;
use crate::store::TournamentKind;
use crate::views::tournament::{ByeView, PlayerGameView, PlayerGamesView, RoundView};
use tensorchess_rules::Color;
use tensorchess_tournament::arena::score_player;

impl Tournaments {
    /// Round `round` of Swiss or round robin `id`: its games in board
    /// order (as paired), and its byes.
    pub async fn round(&self, id: &TournamentId, round: u32) -> Result<RoundView, AppError> {
        let t = self.record(id).await?;
        if t.kind == TournamentKind::Arena {
            return Err(AppError::refused(
                Kind::NotAllowed,
                "An arena has no rounds: its players' games are on their lines",
            ));
        }
        let store = self.live.store();
        let games = store.tournament_games(&t.id).await?;
        let byes = store.tournament_byes(&t.id).await?;
        let mut view = RoundView {
            round,
            pairings: Vec::new(),
            byes: Vec::new(),
        };
        for g in games.iter().filter(|g| g.link.round == Some(round)) {
            view.pairings.push(self.pairing_view(g).await?);
        }
        for b in byes.iter().filter(|b| b.round == round) {
            view.byes.push(ByeView {
                player: self.player(&b.player).await?,
                result: bye_result(b.half_points),
            });
        }
        if view.pairings.is_empty() && view.byes.is_empty() {
            return Err(AppError::NotFound(format!(
                "Round {round} of tournament {id} is not paired"
            )));
        }
        Ok(view)
    }

    /// Player `player`'s games in tournament `id`, in the order they were
    /// paired, each with its result as the standings count it (an arena's
    /// with its points and marks).
    pub async fn player_games(
        &self,
        id: &TournamentId,
        player: &str,
    ) -> Result<PlayerGamesView, AppError> {
        let t = self.record(id).await?;
        let store = self.live.store();
        let entries = store.tournament_entries(&t.id).await?;
        let keyed = Keyed::new(&entries);
        let Some(key) = keyed.key(player) else {
            return Err(AppError::NotFound(format!(
                "There is no player {player} in tournament {id}"
            )));
        };
        let games = store.tournament_games(&t.id).await?;
        let arena = t.kind == TournamentKind::Arena;
        // An arena's sheet: one mark per game that counts, in this order.
        let mut marks = if arena {
            score_player(&keyed.finished(&games), key).games
        } else {
            Vec::new()
        }
        .into_iter();
        let mut view = PlayerGamesView {
            player: self.player(player).await?,
            games: Vec::new(),
        };
        for g in &games {
            let (side, opponent) = if g.link.white == player {
                (Color::White, &g.link.black)
            } else if g.link.black == player {
                (Color::Black, &g.link.white)
            } else {
                continue;
            };
            let counted = counts(g.ending);
            // Counting for nobody (aborted before aborts were refused).
            let Some(result) = round_result(counted, side) else {
                continue;
            };
            // An arena counts a first move not made as a game lost and won.
            let result = match result {
                PointsMark::ForfeitWin if arena => PointsMark::Win,
                PointsMark::ForfeitLoss if arena => PointsMark::Loss,
                r => r,
            };
            let sheet = if arena && counted.is_some() {
                marks.next().as_ref().map(sheet_mark)
            } else {
                None
            };
            view.games.push(PlayerGameView {
                game: g.link.game_id.clone(),
                round: g.link.round,
                color: side,
                opponent: self.player(opponent).await?,
                result,
                sheet,
                berserked: match side {
                    Color::White => g.link.white_berserked,
                    Color::Black => g.link.black_berserked,
                },
                no_show: super::views::counted_result(g.ending).1,
            });
        }
        Ok(view)
    }
}
