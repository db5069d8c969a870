//! Ratings as the store keeps them, and what a rated
//! game's result does to them (Glicko-2: each game is one rating period for
//! both players, applied in the same transaction as the result).

pub mod glicko2;

use crate::store::{Ending, RatingPool, RatingRecord, RatingWrite};
use glicko2::Glicko;
use tensorchess_rules::Color;

/// A new player's rating.
pub const START: RatingRecord = RatingRecord {
    rating: glicko2::START.rating,
    rd: glicko2::START.rd,
    volatility: glicko2::START.volatility,
    games: 0,
};

/// A rating whose deviation is above this is provisional (lichess's
/// threshold: marked `?` and `prov`).
pub const PROVISIONAL_RD: f64 = 110.0;

fn glicko(r: &RatingRecord) -> Glicko {
    Glicko {
        rating: r.rating,
        rd: r.rd,
        volatility: r.volatility,
    }
}

/// White's score in a game that ended so; `None` when it changes no rating
/// (an aborted game, an imported result).
pub fn white_score(ending: Ending) -> Option<f64> {
    let outcome = ending.outcome()?;
    Some(match outcome.winner() {
        Some(Color::White) => 1.0,
        Some(Color::Black) => 0.0,
        None => 0.5,
    })
}

/// The two players' rating writes after a game (`before` as read now), and
/// how much each rating changed (rounded), White first.
pub fn after_game(
    pool: RatingPool,
    players: [&str; 2],
    before: [Option<RatingRecord>; 2],
    white_score: f64,
) -> (Vec<RatingWrite>, [i32; 2]) {
    let [w0, b0] = before.map(|r| r.unwrap_or(START));
    let (w1, b1) = glicko2::rate_game(glicko(&w0), glicko(&b0), white_score);
    let record = |g: Glicko, old: &RatingRecord| RatingRecord {
        rating: g.rating,
        rd: g.rd,
        volatility: g.volatility,
        games: old.games + 1,
    };
    let after = [record(w1, &w0), record(b1, &b0)];
    let diffs = [
        (after[0].rating.round() - w0.rating.round()) as i32,
        (after[1].rating.round() - b0.rating.round()) as i32,
    ];
    let writes = (0..2)
        .map(|i| RatingWrite {
            player_id: players[i].to_string(),
            pool,
            before: before[i],
            after: after[i],
        })
        .collect();
    (writes, diffs)
}
