//! The standings of a Swiss tournament: points, Sonneborn–Berger,
//! performance (see [`crate::standings`]).

use super::history::records;
use super::tournament::{SwissError, SwissResult, SwissTournament};
use crate::player::Side;
use crate::standings::{standings, HalfPoints, PlayedGame, RatedPlayer, Standing};

/// The tournament's standings after the rounds played. Points without a
/// game (byes, forfeit wins, the half points of rounds missed by late
/// joiners) count for points but not for Sonneborn–Berger or performance.
pub fn swiss_standings(tournament: &SwissTournament) -> Result<Vec<Standing>, SwissError> {
    // Checks the rounds (unknown players, players twice in a round).
    records(tournament)?;
    let players: Vec<RatedPlayer> = tournament
        .players
        .iter()
        .map(|p| RatedPlayer {
            key: p.key,
            rating: p.rating,
        })
        .collect();
    let mut games = Vec::new();
    let mut extra = Vec::new();
    let rounds_done = tournament.rounds.len() as u32;
    for p in &tournament.players {
        let missed = (p.joined_round.max(1) - 1).min(rounds_done);
        extra.push((p.key, HalfPoints(missed)));
    }
    for round in &tournament.rounds {
        for game in &round.games {
            match game.result {
                SwissResult::Played(outcome) => {
                    games.push(PlayedGame {
                        white: game.white,
                        black: game.black,
                        outcome,
                    });
                }
                SwissResult::Forfeit {
                    winner: Side::White,
                } => {
                    extra.push((game.white, HalfPoints::ONE));
                }
                SwissResult::Forfeit {
                    winner: Side::Black,
                } => {
                    extra.push((game.black, HalfPoints::ONE));
                }
            }
        }
        for bye in &round.byes {
            extra.push((bye.player, bye.kind.points()));
        }
    }
    Ok(standings(&players, &games, &extra))
}
