//! Choosing a game at run time.
//!
//! Code that works for every game is written once, generic over [`Variant`],
//! and run for a [`VariantKind`] chosen at run time with [`dispatch`].

use crate::{Chess, Chessence, Tensor, Variant, VariantKind};

/// A computation generic over the game.
pub trait ForVariant {
    type Output;
    fn run<V: Variant>(self) -> Self::Output;
}

/// Runs `f` for the game `kind`.
///
/// ```
/// use tensorchess_rules::any::{dispatch, ForVariant};
/// use tensorchess_rules::{Position, Variant, VariantKind};
/// struct CountMoves;
/// impl ForVariant for CountMoves {
///     type Output = usize;
///     fn run<V: Variant>(self) -> usize { Position::<V>::new().legal_moves().len() }
/// }
/// assert_eq!(dispatch(VariantKind::Tensor, CountMoves), 30);
/// assert_eq!(dispatch(VariantKind::Chess, CountMoves), 20);
/// ```
pub fn dispatch<F: ForVariant>(kind: VariantKind, f: F) -> F::Output {
    match kind {
        VariantKind::Tensor => f.run::<Tensor>(),
        VariantKind::Chess => f.run::<Chess>(),
        VariantKind::Chessence => f.run::<Chessence>(),
    }
}
