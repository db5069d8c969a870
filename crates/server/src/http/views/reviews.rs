//! `GET` and `POST /api/games/{id}/review`.

use crate::learning::reviews::ReviewStatus;
use serde::Serialize;
use tensorchess_analysis::review::{Review, ReviewProgress};

/// Where a game's review is, by name (the fields that go with each are
/// in [`ReviewStatusView`]).
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum ReviewState {
    /// Never reviewed.
    None,
    /// Waiting for its turn.
    Queued,
    /// Under way (`progress`).
    Running,
    /// Stored (`review`).
    Done,
    /// Failed (`error`).
    Failed,
}

/// Where a game's review is.
#[derive(Serialize, Clone, Debug, PartialEq, ts_rs::TS)]
pub struct ReviewStatusView {
    /// The game's id.
    pub game: String,
    /// Where the review is.
    pub status: ReviewState,
    /// Positions analysed of all (queued and running).
    pub progress: Option<ReviewProgress>,
    /// The review (`done`).
    pub review: Option<Box<Review>>,
    /// Why it failed (`failed`).
    pub error: Option<String>,
}

impl ReviewStatusView {
    /// Game `game`'s review as it is.
    pub fn new(game: &str, status: ReviewStatus) -> ReviewStatusView {
        let (name, progress, review, error) = match status {
            ReviewStatus::None => (ReviewState::None, None, None, None),
            ReviewStatus::Queued => (ReviewState::Queued, None, None, None),
            ReviewStatus::Running(p) => (ReviewState::Running, Some(p), None, None),
            ReviewStatus::Done(r) => (ReviewState::Done, None, Some(r), None),
            ReviewStatus::Failed(e) => (ReviewState::Failed, None, None, Some(e)),
        };
        ReviewStatusView {
            game: game.to_string(),
            status: name,
            progress,
            review,
            error,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_status_has_its_name_and_only_its_own_fields() {
        let progress = ReviewProgress { done: 3, total: 9 };
        let review = Review {
            variant: "tensor".into(),
            start_fen: "8/8/8/8/8/8/8/8 w - - 0 1".into(),
            first_move_number: 1,
            white_first: true,
            budget: tensorchess_analysis::review::Budget::Nodes(1000),
            start_eval: None,
            plies: Vec::new(),
            white: Default::default(),
            black: Default::default(),
        };
        let cases = [
            (ReviewStatus::None, "none"),
            (ReviewStatus::Queued, "queued"),
            (ReviewStatus::Running(progress), "running"),
            (ReviewStatus::Done(Box::new(review)), "done"),
            (ReviewStatus::Failed("stopped".into()), "failed"),
        ];
        for (status, name) in cases {
            let v = ReviewStatusView::new("abc", status);
            assert_eq!(v.game, "abc");
            let json = serde_json::to_value(&v).unwrap();
            assert_eq!(json["status"], name, "{json}");
            assert_eq!(v.progress.is_some(), name == "running", "{v:?}");
            assert_eq!(v.review.is_some(), name == "done", "{v:?}");
            assert_eq!(v.error.is_some(), name == "failed", "{v:?}");
            if name == "done" {
                assert_eq!(json["review"]["variant"], "tensor", "{json}");
            }
        }
    }
}
