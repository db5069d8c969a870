//! A local game's draw offer answered (`POST /api/games/{id}/draw`).

use super::GameView;
use serde::Serialize;

/// The answer to a draw offer (`POST /api/games/{id}/draw`).
#[derive(Serialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct DrawAnswerView {
    /// The game ended in a draw.
    pub accepted: bool,
    /// The answer in a word, for translations (`draw.CODE`).
    pub code: DrawAnswerCode,
    /// The answer as a sentence for the player.
    pub message: String,
    /// The game after the answer.
    pub game: GameView,
}

/// A local game's draw offer answered, in a word: whether the draw is
/// agreed and what the player is told follow from it.
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum DrawAnswerCode {
    /// On one device: the players have agreed.
    Agreed,
    /// The engine accepts: it is worse.
    Accepted,
    /// The engine accepts: the position is level after many moves.
    AcceptedLevel,
    /// The engine declines: it sees a forced mate.
    DeclinedMate,
    /// The engine declines: it is better.
    DeclinedBetter,
    /// The engine declines: it wants to play on.
    DeclinedPlayOn,
    /// The game moved on before the offer was answered.
    MovedOn,
}

impl DrawAnswerCode {
    /// Every answer.
    pub const ALL: [DrawAnswerCode; 7] = [
        DrawAnswerCode::Agreed,
        DrawAnswerCode::Accepted,
        DrawAnswerCode::AcceptedLevel,
        DrawAnswerCode::DeclinedMate,
        DrawAnswerCode::DeclinedBetter,
        DrawAnswerCode::DeclinedPlayOn,
        DrawAnswerCode::MovedOn,
    ];

    /// Whether the game is drawn by this answer.
    pub fn accepted(self) -> bool {
        matches!(
            self,
            DrawAnswerCode::Agreed | DrawAnswerCode::Accepted | DrawAnswerCode::AcceptedLevel
        )
    }

    /// The answer as a sentence (the page translates the code).
    pub fn message(self) -> &'static str {
        match self {
            DrawAnswerCode::Agreed => "Draw agreed.",
            DrawAnswerCode::Accepted => "The engine accepts the draw.",
            DrawAnswerCode::AcceptedLevel => "The engine accepts: the position is level.",
            DrawAnswerCode::DeclinedMate => "The engine declines: it sees a forced mate.",
            DrawAnswerCode::DeclinedBetter => "The engine declines: it thinks it is better.",
            DrawAnswerCode::DeclinedPlayOn => "The engine declines: it wants to play on.",
            DrawAnswerCode::MovedOn => "The game moved on before the offer was answered.",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The page translates each answer by its word (`draw.WORD`): every
    /// answer is in both catalogues, the English one saying what the
    /// server says.
    #[test]
    fn every_answer_is_in_both_catalogues() {
        let (en, uk) = (crate::catalogues::EN, crate::catalogues::UK);
        for code in DrawAnswerCode::ALL {
            let word = serde_json::to_value(code).unwrap();
            let key = format!("'draw.{}'", word.as_str().unwrap());
            assert!(
                en.contains(&format!("{key}: '{}'", code.message())),
                "{key} is missing from en.js or says otherwise"
            );
            assert!(
                uk.contains(&format!("{key}: ")),
                "{key} is missing from uk.js"
            );
        }
        let agreed: Vec<_> = DrawAnswerCode::ALL
            .into_iter()
            .filter(|c| c.accepted())
            .collect();
        assert_eq!(
            agreed,
            [
                DrawAnswerCode::Agreed,
                DrawAnswerCode::Accepted,
                DrawAnswerCode::AcceptedLevel
            ]
        );
    }
}
