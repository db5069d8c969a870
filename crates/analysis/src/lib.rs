//! What the engine tells about whole games, beside playing them: **game
//! review** ([`review`]: each move judged as lichess judges it, accuracy,
//! the better move, annotated PGN) and **puzzles** ([`puzzles`]: mined from
//! engine games by lichess-puzzler's rules, their themes, the CSV format,
//! and the puzzle sets shipped in the binary). Used by the server's
//! learning pages and by the `review` and `puzzles` commands.

pub mod puzzles;
pub mod review;
