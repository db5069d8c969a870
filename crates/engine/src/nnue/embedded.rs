//! The networks built into the binary (`include_bytes!`), one per game that
//! has one; docs/nnue.md has the recipe of each.

use super::network::Network;
use std::sync::OnceLock;
use tensorchess_rules::{Variant, VariantKind};

/// The file of a game's built-in network, if it has one.
pub fn embedded_bytes(game: VariantKind) -> Option<&'static [u8]> {
    match game {
        // Small networks (docs/nnue.md has their recipes and matches).
        VariantKind::Tensor => Some(include_bytes!("../../nets/tensor.nnue")),
        VariantKind::Chess => Some(include_bytes!("../../nets/chess.nnue")),
        VariantKind::Chessence => Some(include_bytes!("../../nets/chessence.nnue")),
    }
}

/// The file name of a game's built-in network (in `crates/engine/nets/`),
/// if it has one: what the UCI engine names when it evaluates with it.
pub fn embedded_name(game: VariantKind) -> Option<&'static str> {
    embedded_bytes(game)?;
    Some(match game {
        VariantKind::Tensor => "tensor.nnue",
        VariantKind::Chess => "chess.nnue",
        VariantKind::Chessence => "chessence.nnue",
    })
}

/// Game `V`'s built-in network, read once.
pub fn embedded<V: Variant>() -> Option<&'static Network> {
    static NETS: [OnceLock<Option<Network>>; 3] =
        [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let slot = match V::KIND {
        VariantKind::Tensor => 0,
        VariantKind::Chess => 1,
        VariantKind::Chessence => 2,
    };
    NETS[slot]
        .get_or_init(|| embedded_bytes(V::KIND).and_then(|b| Network::from_bytes::<V>(b).ok()))
        .as_ref()
}

#[cfg(test)]
mod tests {
    use super::*;
    use tensorchess_rules::{Chess, Chessence, Tensor};

    #[test]
    fn the_built_in_networks_read() {
        let net = embedded::<Tensor>().expect("Tensor Chess has a network");
        assert_eq!(net.game, VariantKind::Tensor);
        assert!(embedded_bytes(VariantKind::Tensor).is_some_and(|b| b.len() < 2 << 20));
        let net = embedded::<Chess>().expect("chess has a network");
        assert_eq!(net.game, VariantKind::Chess);
        assert!(embedded_bytes(VariantKind::Chess).is_some_and(|b| b.len() < 2 << 20));
        let net = embedded::<Chessence>().expect("Chessence has a network");
        assert_eq!(net.game, VariantKind::Chessence);
        assert!(embedded_bytes(VariantKind::Chessence).is_some_and(|b| b.len() < 2 << 20));
        assert_eq!(
            embedded_name(VariantKind::Chessence),
            Some("chessence.nnue")
        );
    }
}
