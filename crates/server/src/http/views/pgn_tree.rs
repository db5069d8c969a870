//! PGN import for the analysis board: a game with its variations, comments
//! and annotation glyphs ([`tensorchess_rules::pgn::parse_pgn_tree`]),
//! every move of every line played under the game's rules, so that the
//! page receives each move's move string, SAN, position and path.

use crate::error::AppError;
use crate::game_views::{history_entry, MAX_PGN_BYTES, MAX_PGN_PLIES, MAX_PGN_TAG};
use crate::views::PathView;
use serde::{Deserialize, Serialize};
use tensorchess_rules::pgn::{parse_pgn_tree, PgnTree, PlayedLine};
use tensorchess_rules::{with_variant, Variant, VariantKind};

/// `POST /api/analysis/pgn`.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct TreeImportRequest {
    /// The PGN text (its first game is read).
    pub pgn: String,
    /// The game when the PGN has no `Variant` tag (default: chess, as PGN).
    pub variant: Option<String>,
}

/// A move of an imported line.
#[derive(Serialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct TreeNodeView {
    /// The move string (RULES 4.2).
    pub uci: String,
    /// The move in SAN, as this server writes it.
    pub san: String,
    /// The position after the move.
    pub fen: String,
    /// The king in check after it.
    pub check: Option<String>,
    /// How the move looks on the board.
    pub path: PathView,
    /// The move's annotation glyphs (`$2` is 2; `!`, `?` and the like are
    /// read as their numbers).
    pub nags: Vec<u8>,
    /// Comments after the move.
    pub comments: Vec<String>,
    /// Lines played instead of this move.
    pub variations: Vec<TreeLineView>,
}

/// A line: the main line or a variation.
#[derive(Serialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct TreeLineView {
    /// Comments before its first move.
    pub comments: Vec<String>,
    /// Its moves, in order.
    pub moves: Vec<TreeNodeView>,
}

/// An imported game with its variations.
#[derive(Serialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct TreeImportView {
    /// The game's name: `tensor`, `chess` or `chessence`.
    pub variant: tensorchess_rules::VariantKind,
    /// The position the game starts from (its `FEN` tag, or the game's
    /// start).
    pub start_fen: String,
    /// The PGN's tags, in order, as `[name, value]` pairs.
    pub tags: Vec<(String, String)>,
    /// The movetext's result: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
    /// The main line, with the variations on its moves.
    pub line: TreeLineView,
}

fn bad(e: impl std::fmt::Display) -> AppError {
    AppError::BadRequest(format!("PGN: {e}"))
}

/// A played line as the page sees it; its first move is ply `first_ply`
/// of the game.
fn line_view<V: Variant>(line: &PlayedLine<V>, first_ply: usize) -> TreeLineView {
    let moves = line
        .moves
        .iter()
        .enumerate()
        .map(|(i, node)| {
            let entry = history_entry(&node.before, node.mv, first_ply + i);
            TreeNodeView {
                uci: entry.uci,
                san: entry.san,
                fen: entry.fen,
                check: entry.check,
                path: entry.path,
                nags: node.nags.clone(),
                comments: node.comments.clone(),
                // The lines played instead of this move start where it does.
                variations: node
                    .variations
                    .iter()
                    .map(|v| line_view(v, first_ply + i))
                    .collect(),
            }
        })
        .collect();
    TreeLineView {
        comments: line.comments.clone(),
        moves,
    }
}

/// Plays every line of `tree` under the rules of `V` (the rules crate reads
/// each move against its position).
fn play_tree<V: Variant>(tree: &PgnTree) -> Result<TreeImportView, AppError> {
    let start = tree.start::<V>().map_err(bad)?;
    let played = tree.line.play(&start).map_err(bad)?;
    Ok(TreeImportView {
        variant: V::KIND,
        start_fen: start.fen(),
        tags: tree.tags.clone(),
        result: tree.result.clone(),
        line: line_view(&played, 0),
    })
}

/// Reads the first game of a PGN with its variations, within the import
/// limits (64 KiB, 2,000 moves over all lines, tags of 256 characters).
pub fn import_tree(req: &TreeImportRequest) -> Result<TreeImportView, AppError> {
    if req.pgn.len() > MAX_PGN_BYTES {
        return Err(AppError::TooLarge(format!(
            "A PGN may hold at most {} KiB",
            MAX_PGN_BYTES / 1024
        )));
    }
    let fallback = match req.variant.as_deref() {
        Some(v) => Some(crate::game_views::parse_variant(v)?),
        None => None,
    };
    let tree = parse_pgn_tree(&req.pgn)
        .map_err(|e| AppError::BadRequest(e.to_string()))?
        .into_iter()
        .next()
        .ok_or_else(|| AppError::bad("The PGN holds no game"))?;
    if tree
        .tags
        .iter()
        .any(|(k, v)| k.chars().count() > MAX_PGN_TAG || v.chars().count() > MAX_PGN_TAG)
    {
        return Err(bad(format!(
            "a tag is longer than {MAX_PGN_TAG} characters"
        )));
    }
    if tree.line.count() > MAX_PGN_PLIES {
        return Err(bad(format!(
            "at most {MAX_PGN_PLIES} moves in all lines together"
        )));
    }
    let kind = match tree.tag("Variant") {
        Some(v) => {
            VariantKind::from_pgn_name(v).ok_or_else(|| bad(format!("unknown variant '{v}'")))?
        }
        None => fallback.unwrap_or(VariantKind::Chess),
    };
    // The rules library is trusted not to panic, but a PGN is arbitrary
    // input: a panic here must answer 400, not take a worker down.
    std::panic::catch_unwind(|| with_variant!(kind, V => play_tree::<V>(&tree)))
        .map_err(|_| bad("the moves could not be read"))?
}
