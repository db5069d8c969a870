//! One module per subcommand, each with its arguments (`*Args`) and `run`.

pub mod admin;
pub mod bench;
pub mod bot;
pub mod datagen;
pub mod error;
pub mod eval_args;
pub mod fen;
pub mod game_args;
pub mod matches;
pub mod moves;
pub mod perft;
pub mod puzzles;
pub mod review;
pub mod selfplay;
pub mod serve;
pub mod train;
pub mod tune;
pub mod uci;
