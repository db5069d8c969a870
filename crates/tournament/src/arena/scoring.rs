//! Arena scoring: one player's sheet, as lichess scores it.
//!
//! The rules, in the order they are applied to each game of the sheet:
//!
//! 1. **Early draw.** A draw of fewer than [`EARLY_DRAW_PLIES`] plies
//!    scores 0 (for both players: each sheet applies the rule alike).
//! 2. **Draw streak.** After a draw, further draws score 0 until the player
//!    wins again; a loss does not end the streak. A draw of at least
//!    [`LONG_DRAW_PLIES`] plies is exempt and scores as usual. Every draw,
//!    early, long or zeroed, starts or continues the streak.
//! 3. **Base points.** Win 2, draw 1, loss 0.
//! 4. **Fire.** After two wins in a row the player is on fire: every further
//!    game's base points are doubled (win 4, draw 2) until a game is not won;
//!    that game is still doubled, the next one is not.
//! 5. **Berserk.** A berserked win earns one extra point (not doubled) if the
//!    game lasted at least [`BERSERK_MIN_PLIES`] plies.
//!
//! So the sheet W W W D L scores `2 2 4 2 0`, and a berserked win on fire
//! scores 5.

use serde::{Deserialize, Serialize};

use crate::outcome::{FinishedGame, PlayerResult};
use crate::player::PlayerKey;

/// A draw shorter than this many plies scores nothing.
pub const EARLY_DRAW_PLIES: u32 = 20;
/// A draw of at least this many plies scores even during a draw streak.
pub const LONG_DRAW_PLIES: u32 = 60;
/// A berserked win earns its extra point only from this many plies on.
pub const BERSERK_MIN_PLIES: u32 = 14;

/// One finished game from the point of view of the player whose sheet it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SheetGame {
    /// The player's result.
    pub result: PlayerResult,
    /// The game's length in plies.
    pub plies: u32,
    /// Whether the player berserked.
    pub berserked: bool,
}

impl SheetGame {
    /// The game as `player` sees it, or `None` when they did not play it.
    #[must_use]
    pub fn for_player(game: &FinishedGame, player: PlayerKey) -> Option<SheetGame> {
        let side = game.side_of(player)?;
        Some(SheetGame {
            result: game.outcome.for_side(side),
            plies: game.plies,
            berserked: game.berserked(side),
        })
    }
}

/// What one game of a sheet scored, with the reasons a page shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct ScoredGame {
    /// The points the game earned.
    pub points: u32,
    /// The player was on fire: the base points were doubled.
    pub fire: bool,
    /// The player berserked this game (whether or not it earned a point).
    pub berserk: bool,
    /// The berserk earned its point: a berserked win of at least
    /// [`BERSERK_MIN_PLIES`] plies (`berserk` alone marks a loss too).
    pub berserk_bonus: bool,
    /// A draw shorter than [`EARLY_DRAW_PLIES`]: it scored 0.
    pub early_draw: bool,
    /// A draw during a draw streak that was not long enough: it scored 0.
    pub draw_streak: bool,
}

/// A player's scored sheet: the points of each game, in order, and the total.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Sheet {
    /// Each game's score, in the order the games finished.
    pub games: Vec<ScoredGame>,
    /// The sum of the games' points.
    pub total: u32,
    /// Whether the player is on fire for their next game.
    pub on_fire: bool,
}

impl Sheet {
    /// The points of each game as lichess shows them, e.g. `"2 4 4 0 1"`.
    #[must_use]
    pub fn points_line(&self) -> String {
        let points: Vec<String> = self.games.iter().map(|g| g.points.to_string()).collect();
        points.join(" ")
    }
}

/// Scores a player's sheet: `games` in the order they finished.
#[must_use]
pub fn score_sheet(games: &[SheetGame]) -> Sheet {
    let mut sheet = Sheet::default();
    let mut wins_in_a_row = 0u32;
    // Set by any draw, cleared by a win: losses do not end a draw streak.
    let mut drew_since_last_win = false;
    for game in games {
        let fire = wins_in_a_row >= 2;
        let mut scored = ScoredGame {
            fire,
            berserk: game.berserked,
            ..ScoredGame::default()
        };
        let base = match game.result {
            PlayerResult::Win => 2,
            PlayerResult::Loss => 0,
            PlayerResult::Draw if game.plies < EARLY_DRAW_PLIES => {
                scored.early_draw = true;
                0
            }
            PlayerResult::Draw if drew_since_last_win && game.plies < LONG_DRAW_PLIES => {
                scored.draw_streak = true;
                0
            }
            PlayerResult::Draw => 1,
        };
        scored.berserk_bonus =
            game.berserked && game.result == PlayerResult::Win && game.plies >= BERSERK_MIN_PLIES;
        scored.points = if fire { base * 2 } else { base } + u32::from(scored.berserk_bonus);
        match game.result {
            PlayerResult::Win => {
                wins_in_a_row += 1;
                drew_since_last_win = false;
            }
            PlayerResult::Draw => {
                wins_in_a_row = 0;
                drew_since_last_win = true;
            }
            PlayerResult::Loss => wins_in_a_row = 0,
        }
        sheet.total += scored.points;
        sheet.games.push(scored);
    }
    sheet.on_fire = wins_in_a_row >= 2;
    sheet
}

/// Scores `player`'s sheet from the tournament's finished games, in order;
/// games they did not play are skipped.
#[must_use]
pub fn score_player(games: &[FinishedGame], player: PlayerKey) -> Sheet {
    let sheet: Vec<SheetGame> = games
        .iter()
        .filter_map(|g| SheetGame::for_player(g, player))
        .collect();
    score_sheet(&sheet)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::Outcome;

    fn win(plies: u32) -> SheetGame {
        SheetGame {
            result: PlayerResult::Win,
            plies,
            berserked: false,
        }
    }
    fn loss(plies: u32) -> SheetGame {
        SheetGame {
            result: PlayerResult::Loss,
            plies,
            berserked: false,
        }
    }
    fn draw(plies: u32) -> SheetGame {
        SheetGame {
            result: PlayerResult::Draw,
            plies,
            berserked: false,
        }
    }
    fn berserk(mut g: SheetGame) -> SheetGame {
        g.berserked = true;
        g
    }
    fn line(games: &[SheetGame]) -> String {
        score_sheet(games).points_line()
    }

    #[test]
    fn plain_results_score_two_one_zero() {
        assert_eq!(line(&[win(40), draw(40), loss(40)]), "2 1 0");
        assert_eq!(score_sheet(&[win(40), draw(40), loss(40)]).total, 3);
    }

    #[test]
    fn two_wins_light_the_fire_until_a_game_is_not_won() {
        // W W W W D L W: the 3rd and 4th wins and the draw are doubled.
        let s = score_sheet(&[
            win(30),
            win(30),
            win(30),
            win(30),
            draw(30),
            loss(30),
            win(30),
        ]);
        assert_eq!(s.points_line(), "2 2 4 4 2 0 2");
        assert_eq!(s.total, 16);
        let fires: Vec<bool> = s.games.iter().map(|g| g.fire).collect();
        assert_eq!(fires, [false, false, true, true, true, false, false]);
        assert!(!s.on_fire);
    }

    #[test]
    fn a_loss_on_fire_scores_zero_and_puts_it_out() {
        let s = score_sheet(&[win(30), win(30), loss(30), win(30), win(30)]);
        assert_eq!(s.points_line(), "2 2 0 2 2");
        assert!(s.on_fire, "two wins at the end: on fire for the next game");
    }

    #[test]
    fn early_draws_score_nothing() {
        let s = score_sheet(&[draw(19), draw(20)]);
        // The early draw starts a streak: the second (not long) draw scores 0 too.
        assert_eq!(s.points_line(), "0 0");
        assert!(s.games[0].early_draw && !s.games[0].draw_streak);
        assert!(s.games[1].draw_streak && !s.games[1].early_draw);
    }

    #[test]
    fn draw_streaks_end_with_a_win_not_a_loss() {
        let s = score_sheet(&[
            draw(30),
            loss(30),
            draw(30),
            win(30),
            draw(30),
            draw(59),
            draw(60),
        ]);
        assert_eq!(s.points_line(), "1 0 0 2 1 0 1");
        assert!(s.games[2].draw_streak);
        assert!(!s.games[4].draw_streak);
        assert!(s.games[5].draw_streak);
        assert!(!s.games[6].draw_streak, "a draw of 60 plies still scores");
    }

    #[test]
    fn berserked_wins_earn_a_point_from_fourteen_plies() {
        let s = score_sheet(&[berserk(win(13)), berserk(win(14)), berserk(loss(40))]);
        assert_eq!(s.points_line(), "2 3 0");
        assert!(s.games.iter().all(|g| g.berserk));
        // Only the win of 14 plies earned the point.
        let earned: Vec<bool> = s.games.iter().map(|g| g.berserk_bonus).collect();
        assert_eq!(earned, [false, true, false]);
    }

    #[test]
    fn combinations_fire_berserk_and_streaks() {
        // W W Wb(on fire: 4+1) D(on fire: 2) D(streak: 0) D19(early: 0) W W W
        let s = score_sheet(&[
            win(30),
            win(30),
            berserk(win(30)),
            draw(30),
            draw(30),
            draw(19),
            win(30),
            win(30),
            berserk(win(10)),
        ]);
        assert_eq!(s.points_line(), "2 2 5 2 0 0 2 2 4");
        assert_eq!(s.total, 19);
        assert!(s.games[8].fire && s.games[8].berserk);
        assert!(s.games[2].berserk_bonus && !s.games[8].berserk_bonus);
    }

    #[test]
    fn a_long_draw_on_fire_is_doubled_even_in_a_streak() {
        let s = score_sheet(&[draw(30), win(30), win(30), draw(80), draw(70)]);
        // The draw after two wins is doubled; the next, long, draw scores 1.
        assert_eq!(s.points_line(), "1 2 2 2 1");
    }

    #[test]
    fn sheets_from_finished_games_skip_other_players() {
        let a = PlayerKey(1);
        let b = PlayerKey(2);
        let c = PlayerKey(3);
        let g = |white, black, outcome| FinishedGame {
            white,
            black,
            outcome,
            plies: 40,
            white_berserked: false,
            black_berserked: true,
        };
        let games = [
            g(a, b, Outcome::WhiteWins),
            g(b, c, Outcome::Draw),
            g(c, a, Outcome::WhiteWins),
        ];
        assert_eq!(score_player(&games, a).points_line(), "2 0");
        assert_eq!(score_player(&games, b).points_line(), "0 1");
        assert_eq!(score_player(&games, c).points_line(), "1 2");
    }
}
