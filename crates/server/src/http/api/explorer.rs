//! The opening explorer: `GET /api/explorer` (lichess's parameters and
//! answer; docs/analysis.md).

use super::ApiResult;
use crate::explorer::{ExplorerQuery, ExplorerView};
use crate::http::extract::ApiQuery;
use crate::AppState;
use axum::extract::State;
use axum::Json;
use serde::Deserialize;

/// The query, as lichess's explorer names it.
#[derive(Deserialize, Debug, Default)]
pub struct ExplorerParams {
    /// `tensor` (the default), `chess` (or `standard`), `chessence`.
    variant: Option<String>,
    /// The position to start from (the game's start when not given).
    fen: Option<String>,
    /// Moves played from there, comma separated (`e2e4,e7e5`).
    play: Option<String>,
    /// Only rated games.
    #[serde(default, deserialize_with = "crate::requests::optional_flag")]
    rated: Option<bool>,
    /// Only these speeds, comma separated (`blitz,rapid`).
    speeds: Option<String>,
    /// Only these rating bands (their lower bounds), comma separated.
    ratings: Option<String>,
}

/// `GET /api/explorer?variant=tensor&play=e2e4,e7e5`: the moves played
/// from the position, with their results, average ratings and the
/// engine's evaluations, and the top games through it.
pub async fn explore(
    State(state): State<AppState>,
    ApiQuery(p): ApiQuery<ExplorerParams>,
) -> ApiResult<ExplorerView> {
    let query = ExplorerQuery::parse(
        p.variant.as_deref(),
        p.fen.as_deref(),
        p.play.as_deref(),
        p.rated,
        p.speeds.as_deref(),
        p.ratings.as_deref(),
    )?;
    Ok(Json(state.explorer.explore(&query).await?))
}
