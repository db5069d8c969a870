//! Weights fitted by `tensorchess tune` (see docs/tuning.md); each file is
//! generated, then reviewed and measured in a match before it replaces the
//! previous one.

pub mod chess;
pub mod chessence;
pub mod tensor;
