//! The rules crate's integration tests, one test program: each file below
//! is a module (one test binary links the crate and its generics once,
//! where a binary per file did it thirteen times).

mod common;

mod illegal;
mod mating_material;
mod path;
mod perft;
mod pgn;
mod props;
mod roundtrip;
mod rules_chess;
mod rules_chessence;
mod rules_tensor;
mod rules_tensor_pieces;
mod serialization;
