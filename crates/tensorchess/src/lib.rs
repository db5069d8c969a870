//! The tensorchess application: the command-line tools and UCI, over the
//! rules, the engine, the analysis library and the web server, each a
//! crate of its own (re-exported here under their old paths).

pub mod bench;
pub mod bot;
pub mod child;
pub mod cli;
pub mod commands;
pub mod matches;
pub mod nnue;
pub mod tune;
pub mod uci;

pub use tensorchess_analysis::{puzzles, review};
pub use tensorchess_server as server;
