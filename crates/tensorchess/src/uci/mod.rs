//! The UCI protocol for the three games (`tensorchess uci`).
//!
//! [`run_loop`] reads commands from any reader and answers on any writer,
//! so tests drive it in memory; `tensorchess uci` runs it on stdin/stdout.
//! The reader side (`protocol`) hands searches to a thread of their own
//! (`worker`). The options and protocol notes are in `docs/uci.md`.

pub mod go;
pub mod options;
pub mod output;
pub mod position;
pub mod protocol;
pub mod settings;
mod worker;

pub use output::Output;
pub use position::PositionSpec;
pub use protocol::{engine_name, run_loop, Uci};
pub use settings::{material_only, parse_weights, EngineSettings, WeightsSource};
pub use worker::info_line;
