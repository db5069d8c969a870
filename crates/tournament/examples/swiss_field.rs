//! How long pairing a Swiss round takes for fields of various sizes:
//! `cargo run --release -p tensorchess-tournament --example swiss_field`.

use std::time::Instant;

use tensorchess_tournament::swiss::{
    pair_next_round, ByeKind, SwissBye, SwissGame, SwissPlayer, SwissResult, SwissRound,
    SwissTournament,
};
use tensorchess_tournament::{Outcome, PlayerKey, Side};

fn main() {
    for players in [50u64, 100, 101, 200, 500, 1000] {
        let mut t = SwissTournament {
            players: (1..=players)
                .map(|k| SwissPlayer {
                    key: PlayerKey(k),
                    name: format!("Player {k}"),
                    rating: 2800 - (k as i32 % 1500),
                    joined_round: 1,
                    withdrawn: false,
                })
                .collect(),
            rounds_planned: 9,
            initial_colour: Side::White,
            rounds: Vec::new(),
            sitting_out: Vec::new(),
        };
        let mut seed = 12345u64;
        let mut times = Vec::new();
        for _ in 0..9 {
            let started = Instant::now();
            let pairing = pair_next_round(&t).expect("a legal round");
            times.push(started.elapsed().as_secs_f64() * 1000.0);
            let games = pairing
                .boards
                .iter()
                .map(|p| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    let outcome = match seed % 3 {
                        0 => Outcome::WhiteWins,
                        1 => Outcome::BlackWins,
                        _ => Outcome::Draw,
                    };
                    SwissGame {
                        white: p.white,
                        black: p.black,
                        result: SwissResult::Played(outcome),
                    }
                })
                .collect();
            let byes = pairing
                .bye
                .map(|player| SwissBye {
                    player,
                    kind: ByeKind::Pairing,
                })
                .into_iter()
                .collect();
            t.rounds.push(SwissRound { games, byes });
        }
        let rounds: Vec<String> = times.iter().map(|ms| format!("{ms:.0}")).collect();
        println!("{players} players, ms per round: {}", rounds.join(" "));
    }
}
