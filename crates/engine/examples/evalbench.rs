//! Evaluation cost: `perf stat -e instructions target/release/examples/evalbench`.
use tensorchess_engine::eval::{Evaluate, evaluate};
use tensorchess_rules::{Chess, Position, Tensor};

fn run<V: Evaluate>(fens: &[&str], reps: usize) -> i64 {
    let ps: Vec<Position<V>> = fens
        .iter()
        .map(|f| Position::from_fen(f).unwrap())
        .collect();
    let w = V::default_weights();
    let mut s = 0i64;
    for _ in 0..reps {
        for p in &ps {
            s += evaluate(std::hint::black_box(p), w) as i64;
        }
    }
    s
}

fn main() {
    let t = std::time::Instant::now();
    let a = run::<Chess>(
        &[
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        ],
        std::env::args()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or(300_000),
    );
    let chess = t.elapsed().as_secs_f64() / 900_000.0 * 1e9;
    let t = std::time::Instant::now();
    let b = run::<Tensor>(
        &[
            "rtnbqkbntr/pppppppppp/10/10/10/10/PPPPPPPPPP/RTNBQKBNTR w KQkq - 0 1",
            "4qk1nr1/1ppp1bpp1p/3np5/1t1t1pb1p1/2PBP3R1/1rR1QPK3/P1BP1NPPPT/1T8 b - - 1 23",
            "2r1q1b2r/2p1kp4/p2n4pT/t1TQp1pp1N/1p2P1n3/3PB5/PPP4PPP/R2B1K3R w - - 1 28",
        ],
        std::env::args()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or(300_000),
    );
    let tensor = t.elapsed().as_secs_f64() / 900_000.0 * 1e9;
    println!("chess {chess:.0} ns/eval, tensor {tensor:.0} ns/eval ({a} {b})");
}
