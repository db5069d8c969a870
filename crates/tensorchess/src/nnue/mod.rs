//! The evaluation network's tools: training data (`data`), self-play that
//! records it (`datagen`), and the trainer (`train`). The network itself
//! and its inference live in the engine crate (`tensorchess_engine::nnue`).

pub mod data;
pub mod datagen;
pub mod train;

use std::sync::Arc;
use tensorchess_engine::eval::Evaluate;
use tensorchess_engine::nnue::Network;

/// Which evaluation a command's engines use (`--nnue`, `--eval-file`):
/// `bench` measures it, `datagen` scores its positions with it.
#[derive(Clone, Debug, Default)]
pub struct EvalChoice {
    /// Evaluate with a network: `network`'s, else the game's built-in one.
    pub use_nnue: bool,
    /// A network file's bytes.
    pub network: Option<Vec<u8>>,
}

impl EvalChoice {
    /// The engine's `use_nnue` and `network` options for game `V`; an
    /// error when the file is not a network of that game.
    pub fn for_game<V: Evaluate>(&self) -> Result<(bool, Option<Arc<Network>>), String> {
        let network = match &self.network {
            Some(bytes) => Some(Arc::new(
                Network::from_bytes::<V>(bytes).map_err(|e| format!("network file: {e}"))?,
            )),
            None => None,
        };
        Ok((self.use_nnue, network))
    }
}
