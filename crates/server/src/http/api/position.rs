//! What the server offers, and positions outside any game: legal moves
//! (the rules page's boards, FEN previews) and why a move is illegal.

use super::ApiResult;
use crate::game_views::{explain as explain_move, rules_view, standalone};
use crate::http::extract::ApiJson;
use crate::requests::{ExplainRequest, PositionRequest};
use crate::views::{ExplainView, InfoView, LevelInfo, PlayedView, VariantInfo};
use axum::Json;
use tensorchess_engine::Level;
use tensorchess_rules::{Chess, Chessence, Tensor, VariantKind};

pub async fn info() -> Json<InfoView> {
    let variants = [
        VariantKind::Tensor,
        VariantKind::Chess,
        VariantKind::Chessence,
    ]
    .into_iter()
    .map(|k| VariantInfo {
        name: k,
        title: k.title(),
        start_fen: k.start_fen(),
        rules: match k {
            VariantKind::Tensor => rules_view::<Tensor>(),
            VariantKind::Chess => rules_view::<Chess>(),
            VariantKind::Chessence => rules_view::<Chessence>(),
        },
    })
    .collect();
    let levels = (Level::MIN..=Level::MAX)
        .filter_map(Level::new)
        .map(|l| LevelInfo {
            level: l.number(),
            name: l.name(),
        })
        .collect();
    Json(InfoView {
        version: env!("CARGO_PKG_VERSION"),
        variants,
        levels,
    })
}

/// Legal moves of any position, optionally after a move: the rules page's
/// mini-boards and the FEN preview.
pub async fn position(ApiJson(req): ApiJson<PositionRequest>) -> ApiResult<PlayedView> {
    let kind = req.variant;
    let fen = req.fen.as_deref();
    let mv = req.mv.as_deref();
    let (played, position) = match kind {
        VariantKind::Tensor => standalone::<Tensor>(fen, &req.moves, mv)?,
        VariantKind::Chess => standalone::<Chess>(fen, &req.moves, mv)?,
        VariantKind::Chessence => standalone::<Chessence>(fen, &req.moves, mv)?,
    };
    Ok(Json(PlayedView { played, position }))
}

/// `POST /api/explain`: whether a move is legal in a position, and if not,
/// why (answered 200 either way: a page asks before it plays).
pub async fn explain(ApiJson(req): ApiJson<ExplainRequest>) -> ApiResult<ExplainView> {
    let kind = req.variant;
    let fen = req.fen.as_deref();
    Ok(Json(match kind {
        VariantKind::Tensor => explain_move::<Tensor>(fen, &req.mv)?,
        VariantKind::Chess => explain_move::<Chess>(fen, &req.mv)?,
        VariantKind::Chessence => explain_move::<Chessence>(fen, &req.mv)?,
    }))
}
