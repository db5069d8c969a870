//! The engine's integration tests, one test program (one link of the
//! crate's generics, not one per file).

mod eval;
mod nnue;
mod search;
