use std::time::Duration;
use tensorchess_engine::{Engine, FlagHandler, Limits};
use tensorchess_rules::{Chess, Chessence, Game, Tensor};

fn main() {
    let secs: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    let mut engine = Engine::default();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    macro_rules! go {
        ($v:ty) => {{
            let game = Game::<$v>::new();
            let mut h = FlagHandler {
                stop: stop.clone(),
                on_info: |i: &tensorchess_engine::SearchInfo| {
                    let pv: Vec<String> =
                        i.pv.iter()
                            .map(|m| game.position().move_string(*m))
                            .collect();
                    println!(
                        "depth {} seldepth {} score {} nodes {} nps {} pv {}",
                        i.depth,
                        i.seldepth,
                        i.score,
                        i.nodes,
                        i.nps(),
                        pv.join(" ")
                    );
                },
            };
            let r = engine.search(
                game.positions(),
                &Limits::movetime(Duration::from_secs(secs)),
                &mut h,
            );
            println!("bestmove {}", game.position().move_string(r.best));
        }};
    }
    go!(Chess);
    go!(Tensor);
    go!(Chessence);
}
