//! What the rules say of a move's path, in the words pages read.

use crate::views::{PathView, RouteView};
use tensorchess_rules::{Square, Variant};

/// A square's name on `V`'s board (`e4`, `j8`).
pub(crate) fn square_name<V: Variant>(sq: Square) -> String {
    V::GEOMETRY.square_name(sq).to_string()
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
