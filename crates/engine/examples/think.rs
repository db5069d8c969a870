//! Thinks about each game's start position for a while (`think [SECONDS]`,
//! default 3), printing each iteration: a quick look at the search.
use std::time::Duration;
use tensorchess_engine::eval::Evaluate;
use tensorchess_engine::{Engine, Limits, SearchHandler, SearchInfo};
use tensorchess_rules::{Game, VariantKind, with_variant};

/// Prints each iteration's line in the game's move strings.
struct Print<'a, V: Evaluate>(&'a Game<V>);

impl<V: Evaluate> SearchHandler for Print<'_, V> {
    fn on_info(&mut self, i: &SearchInfo) {
        let pv: Vec<String> =
            i.pv.iter()
                .map(|m| self.0.position().move_string(*m))
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
    }
}

fn think<V: Evaluate>(engine: &mut Engine, time: Duration) {
    let game = Game::<V>::new();
    let r = engine.search(game.positions(), &Limits::movetime(time), &mut Print(&game));
    println!("bestmove {}", game.position().move_string(r.best));
}

fn main() {
    let secs: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    let mut engine = Engine::default();
    for kind in [
        VariantKind::Chess,
        VariantKind::Tensor,
        VariantKind::Chessence,
    ] {
        with_variant!(kind, V => think::<V>(&mut engine, Duration::from_secs(secs)));
    }
}
