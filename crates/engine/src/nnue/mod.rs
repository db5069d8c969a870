//! The evaluation network (NNUE): a perspective network over piece-square
//! features (`features`), quantised to integers (`network`), whose first
//! layer is kept up to date move by move (`accumulator`, `delta`) along the
//! search path (`stack`). docs/nnue.md describes the format, the
//! architecture and how a network is trained (`tensorchess datagen`,
//! `tensorchess train`).

mod accumulator;
mod delta;
mod embedded;
pub mod features;
mod network;
mod simd;
mod stack;

pub use accumulator::Accumulator;
pub use delta::Delta;
pub use embedded::{embedded, embedded_bytes, embedded_name};
pub use network::{MAGIC, MAX_FILE_BYTES, MAX_HIDDEN, Network, NetworkError, QA, QB, SCALE};
pub use stack::AccumulatorStack;

use tensorchess_rules::{Position, Variant};

/// The network's evaluation of `pos` from scratch, in centipawns from the
/// side to move's view (the search gets the same from its stack, faster).
pub fn evaluate<V: Variant>(net: &Network, pos: &Position<V>) -> i32 {
    let us = Accumulator::refresh(net, pos, pos.turn());
    let them = Accumulator::refresh(net, pos, !pos.turn());
    net.output(&us, &them)
}
