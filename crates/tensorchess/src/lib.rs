//! The tensorchess application: command-line tools, UCI and the web server.

pub mod bench;
pub mod child;
pub mod cli;
pub mod commands;
pub mod matches;
pub mod puzzles;
pub mod review;
pub mod server;
pub mod tune;
pub mod uci;
