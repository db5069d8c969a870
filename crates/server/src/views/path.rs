//! What the rules say of a move's path and kind, in the words pages read.

use crate::views::{PathView, RouteView};
use tensorchess_rules::{MoveKind, Square, Variant};

/// A square's name on `V`'s board (`e4`, `j8`).
pub(crate) fn square_name<V: Variant>(sq: Square) -> String {
    V::GEOMETRY.square_name(sq).to_string()
}

pub(crate) fn kind_name(k: MoveKind) -> &'static str {
    match k {
        MoveKind::Normal => "normal",
        MoveKind::Promotion => "promotion",
        MoveKind::EnPassant => "en_passant",
        MoveKind::Castle => "castle",
        MoveKind::Propel => "propel",
        MoveKind::BeastCapture => "beast_capture",
        MoveKind::Drop => "drop",
    }
}

/// A path worked out by the rules, as pages see it.
pub(crate) fn path_view_of<V: Variant>(path: &tensorchess_rules::MovePath) -> PathView {
    PathView {
        routes: path
            .routes
            .iter()
            .map(|r| RouteView {
                piece: r.piece.char().to_string(),
                squares: r.squares.iter().map(|s| square_name::<V>(*s)).collect(),
            })
            .collect(),
        captured: path.captured.map(square_name::<V>),
    }
}
