//! The tensorchess application: command-line tools, UCI and the web server.

pub mod cli;
pub mod commands;
pub mod server;
pub mod tune;
