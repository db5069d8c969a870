//! Learning: PGN import with variations for the analysis board, game
//! reviews, puzzles and lessons (issue 16). Live analysis itself goes over
//! the WebSocket (`analyse` messages, `server::learning::analysis`).

use super::ApiResult;
use crate::error::AppError;
use crate::http::extract::{ApiJson, ApiPath, ApiQuery, IdPath};
use crate::http::views::lessons::LessonsView;
use crate::http::views::pgn_tree::{import_tree, TreeImportRequest, TreeImportView};
use crate::http::views::puzzles::{PuzzleResultView, PuzzleView, ThemesView};
use crate::http::views::reviews::ReviewStatusView;
use crate::identity::Me;
use crate::ids::GameId;
use crate::learning::lessons::{book, CheckView};
use crate::learning::puzzles::{NextQuery, ResultRequest};
use crate::learning::reviews::ReviewStatus;
use crate::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde::Deserialize;

/// `POST /api/analysis/pgn`: a PGN with its variations, every move played.
pub async fn import_pgn(ApiJson(req): ApiJson<TreeImportRequest>) -> ApiResult<TreeImportView> {
    Ok(Json(import_tree(&req)?))
}

/// `GET /api/games/{id}/review`: the stored review, or how far it is.
pub async fn review_status(
    State(state): State<AppState>,
    me: Me,
    IdPath(id): IdPath<GameId>,
) -> ApiResult<ReviewStatusView> {
    // Only those who may see the game may see its review (404 otherwise).
    state.games.get_for(&id, &me).await?;
    let status = state.learning.reviews.status(&id).await?;
    Ok(Json(ReviewStatusView::new(id.as_str(), status)))
}

/// `POST /api/games/{id}/review`: starts reviewing a finished game (202),
/// or answers the stored review (200).
pub async fn start_review(
    State(state): State<AppState>,
    me: Me,
    IdPath(id): IdPath<GameId>,
) -> Result<(StatusCode, Json<ReviewStatusView>), AppError> {
    let arc = state.games.get_for(&id, &me).await?;
    let game = {
        let lg = arc.lock().await;
        if !lg.is_over() {
            return Err(AppError::Conflict(
                "Only a finished game can be reviewed: analyse it instead".into(),
            ));
        }
        lg.game().clone()
    };
    let (status, _) = state.learning.reviews.start(&id, game, &me.id).await?;
    let code = if matches!(status, ReviewStatus::Done(_)) {
        StatusCode::OK
    } else {
        StatusCode::ACCEPTED
    };
    Ok((code, Json(ReviewStatusView::new(id.as_str(), status))))
}

/// `GET /api/puzzles/themes?variant=`.
pub async fn puzzle_themes(
    State(state): State<AppState>,
    ApiQuery(q): ApiQuery<NextQuery>,
) -> ApiResult<ThemesView> {
    Ok(Json(
        state.learning.puzzles.themes(q.variant.as_deref())?.into(),
    ))
}

/// `GET /api/puzzles/next?variant=&theme=&streak=`.
pub async fn next_puzzle(
    State(state): State<AppState>,
    me: Me,
    ApiQuery(q): ApiQuery<NextQuery>,
) -> ApiResult<PuzzleView> {
    Ok(Json(state.learning.puzzles.next(&me.id, &q).await?.into()))
}

/// `GET /api/puzzles/{id}`.
pub async fn puzzle(
    State(state): State<AppState>,
    me: Me,
    ApiPath(id): ApiPath<String>,
) -> ApiResult<PuzzleView> {
    Ok(Json(state.learning.puzzles.get(&me.id, &id).await?.into()))
}

/// `POST /api/puzzles/{id}/result` `{"solved": bool, "streak": bool}`.
pub async fn puzzle_result(
    State(state): State<AppState>,
    me: Me,
    ApiPath(id): ApiPath<String>,
    ApiJson(req): ApiJson<ResultRequest>,
) -> ApiResult<PuzzleResultView> {
    Ok(Json(
        state
            .learning
            .puzzles
            .result(&me.id, &id, &req)
            .await?
            .into(),
    ))
}

/// `GET /api/lessons`: the lessons and the asker's progress.
pub async fn lessons(State(state): State<AppState>, me: Me) -> ApiResult<LessonsView> {
    Ok(Json(LessonsView {
        book: book(),
        progress: state.learning.lessons.progress(&me.id).await?,
    }))
}

/// `POST /api/lessons/{level}/check`.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct LessonCheckRequest {
    /// The learner's moves from the level's position, in order.
    #[serde(default)]
    pub moves: Vec<String>,
}

/// `POST /api/lessons/{level}/check`: the moves judged by the rules.
pub async fn check_lesson(
    State(state): State<AppState>,
    me: Me,
    ApiPath(level): ApiPath<String>,
    ApiJson(req): ApiJson<LessonCheckRequest>,
) -> ApiResult<CheckView> {
    Ok(Json(
        state
            .learning
            .lessons
            .check(&me.id, &level, &req.moves)
            .await?,
    ))
}
