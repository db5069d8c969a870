//! The UCI protocol for the three games (`tensorchess uci`).
//!
//! [`run_loop`] reads commands from any reader and answers on any writer,
//! so tests drive it in memory; `tensorchess uci` runs it on stdin/stdout.
//! The options and protocol notes are in `docs/uci.md`.

pub mod dispatch;
pub mod go;
pub mod options;
pub mod protocol;
pub mod settings;

pub use dispatch::{dispatch_engine, parse_fen, ForEngine};
pub use protocol::{engine_name, info_line, run_loop, Output, PositionSpec, Uci};
pub use settings::{material_only, parse_weights, EngineSettings, WeightsSource};
