//! The evaluation network's tools: training data (`data`), self-play that
//! records it (`datagen`), and the trainer (`train`). The network itself
//! and its inference live in the engine crate (`tensorchess_engine::nnue`).

pub mod data;
pub mod datagen;
pub mod train;
