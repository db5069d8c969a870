//! What the HTTP answers show of the services' results, for the answers
//! that are the edge's alone. The views that are also socket events
//! (games, seeks, challenges, tournaments, chat) are the server's typed
//! event vocabulary and live beside the services that publish them
//! (`crate::views`, `crate::game_views`).

pub mod games;
pub mod lessons;
pub mod pgn_tree;
pub mod players;
pub mod puzzles;
pub mod reviews;
pub mod site;
pub mod tokens;
pub mod tournaments;
