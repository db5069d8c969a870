//! A few tactical positions (Win At Chess) at a fixed time: a quick sanity check.
use std::time::Duration;
use tensorchess_engine::{Engine, Limits, NoHandler};
use tensorchess_rules::{Chess, Position};

fn main() {
    let ms: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1000);
    let cases = [
        (
            "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
            "Qg6",
        ),
        ("8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8 b - - 0 1", "Rxb2"),
        (
            "5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - 0 1",
            "Rg3",
        ),
        (
            "r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - 0 1",
            "Qxh7+",
        ),
        ("5k2/6pp/p1qN4/1p1p4/3P4/2PKP2Q/PP3r2/3R4 b - - 0 1", "Qc4+"),
    ];
    let mut ok = 0;
    for (fen, bm) in cases {
        let pos = Position::<Chess>::from_fen(fen).unwrap();
        let mut e = Engine::default();
        let r = e.search(
            &[pos],
            &Limits::movetime(Duration::from_millis(ms)),
            &mut NoHandler,
        );
        let san = pos.san(r.best);
        let hit = san == bm;
        ok += hit as usize;
        println!(
            "{} {san} (expected {bm}) depth {} score {}",
            if hit { "ok " } else { "MISS" },
            r.depth,
            r.score
        );
    }
    println!("{ok}/{}", cases.len());
}
