//! Perft speed of each game's start position (chess to depth 6, the others
//! to 5), in million nodes per second.
use std::time::Instant;
use tensorchess_rules::{Chess, Chessence, Position, Tensor, perft};
fn main() {
    let t = Instant::now();
    let n = perft(&Position::<Chess>::new(), 6);
    let dt = t.elapsed().as_secs_f64();
    println!("chess perft 6 {n} {dt:.3}s {:.1} Mnps", n as f64 / dt / 1e6);
    let t = Instant::now();
    let n = perft(&Position::<Tensor>::new(), 5);
    let dt = t.elapsed().as_secs_f64();
    println!(
        "tensor perft 5 {n} {dt:.3}s {:.1} Mnps",
        n as f64 / dt / 1e6
    );
    let t = Instant::now();
    let n = perft(&Position::<Chessence>::new(), 5);
    let dt = t.elapsed().as_secs_f64();
    println!(
        "chessence perft 5 {n} {dt:.3}s {:.1} Mnps",
        n as f64 / dt / 1e6
    );
}
