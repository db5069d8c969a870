//! What the pairing needs to know of each player: pairing number, score,
//! colours and opponents, derived from the rounds played.

use std::collections::{HashMap, HashSet};

use super::tournament::{
    ByeKind, SwissError, SwissResult, SwissTournament, MAX_ROUNDS, MIN_ROUNDS,
};
use crate::player::{PlayerKey, Side};
use crate::standings::{points_for, HalfPoints};

/// One player's record before the round to pair.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PlayerRecord {
    /// The player.
    pub key: PlayerKey,
    /// Their pairing number, 1-based: by rating (highest first), then name,
    /// then key.
    pub pairing_number: u32,
    /// Their score so far, byes and missed rounds included.
    pub score: HalfPoints,
    /// The colour they had in each round, `None` where they did not play
    /// over the board (byes, forfeits, rounds before joining).
    pub colours_by_round: Vec<Option<Side>>,
    /// The opponents they have played over the board.
    pub opponents: HashSet<PlayerKey>,
    /// Whether they already had the pairing bye or a forfeit win: they may
    /// not get the pairing bye (C.04.1.d; a requested full-point bye does
    /// not count).
    pub had_point_without_playing: bool,
    /// Whether they are to be paired in the next round.
    pub present: bool,
    /// How they floated in the last round played, if they did.
    pub last_float: Option<Float>,
    /// How they floated in the round before that.
    pub float_two_back: Option<Float>,
}

/// A float (C.04.3 A.4): meeting a player of a different score, or not
/// playing at all (a bye of any kind, a forfeit either way, a round
/// missed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Float {
    /// Met a player with fewer points, or did not play.
    Down,
    /// Met a player with more points.
    Up,
}

impl PlayerRecord {
    /// The colours of the games played over the board, oldest first.
    pub fn colours(&self) -> impl DoubleEndedIterator<Item = Side> + '_ {
        self.colours_by_round.iter().flatten().copied()
    }
}

/// Checks the tournament and derives every player's record, in pairing
/// number order.
pub(crate) fn records(t: &SwissTournament) -> Result<Vec<PlayerRecord>, SwissError> {
    if !(MIN_ROUNDS..=MAX_ROUNDS).contains(&t.rounds_planned) {
        return Err(SwissError::RoundCount(t.rounds_planned));
    }
    let order = t.by_pairing_number();
    let mut index = HashMap::new();
    for (i, p) in order.iter().enumerate() {
        if index.insert(p.key, i).is_some() {
            return Err(SwissError::DuplicatePlayer(p.key));
        }
    }
    let rounds_done = t.rounds.len();
    let mut records: Vec<PlayerRecord> = order
        .iter()
        .enumerate()
        .map(|(i, p)| PlayerRecord {
            key: p.key,
            pairing_number: i as u32 + 1,
            score: HalfPoints(0),
            colours_by_round: vec![None; rounds_done],
            opponents: HashSet::new(),
            had_point_without_playing: false,
            present: !p.withdrawn
                && p.joined_round as usize <= rounds_done + 1
                && !t.sitting_out.contains(&p.key),
            last_float: None,
            float_two_back: None,
        })
        .collect();
    for (r, round) in t.rounds.iter().enumerate() {
        let round_number = r as u32 + 1;
        let before: Vec<HalfPoints> = records.iter().map(|p| p.score).collect();
        for (record, player) in records.iter_mut().zip(&order) {
            record.float_two_back = record.last_float.take();
            // A late joiner's missed round: half a point without playing.
            if round_number < player.joined_round {
                record.score += HalfPoints::HALF;
                record.last_float = Some(Float::Down);
            }
        }
        let mut seen = HashSet::new();
        let mut find = |player: PlayerKey| -> Result<usize, SwissError> {
            let &i = index.get(&player).ok_or(SwissError::UnknownPlayer {
                round: round_number,
                player,
            })?;
            if !seen.insert(player) {
                return Err(SwissError::PlayedTwice {
                    round: round_number,
                    player,
                });
            }
            Ok(i)
        };
        for game in &round.games {
            let (w, b) = (find(game.white)?, find(game.black)?);
            match game.result {
                SwissResult::Played(outcome) => {
                    records[w].score += points_for(outcome.for_side(Side::White));
                    records[b].score += points_for(outcome.for_side(Side::Black));
                    records[w].colours_by_round[r] = Some(Side::White);
                    records[b].colours_by_round[r] = Some(Side::Black);
                    records[w].opponents.insert(game.black);
                    records[b].opponents.insert(game.white);
                    let (down, up) = match before[w].cmp(&before[b]) {
                        std::cmp::Ordering::Greater => (Some(w), Some(b)),
                        std::cmp::Ordering::Less => (Some(b), Some(w)),
                        std::cmp::Ordering::Equal => (None, None),
                    };
                    if let (Some(down), Some(up)) = (down, up) {
                        records[down].last_float = Some(Float::Down);
                        records[up].last_float = Some(Float::Up);
                    }
                }
                SwissResult::Forfeit { winner } => {
                    let i = if winner == Side::White { w } else { b };
                    records[i].score += HalfPoints::ONE;
                    records[i].had_point_without_playing = true;
                    // Neither played: both float down (A.4.b).
                    records[w].last_float = Some(Float::Down);
                    records[b].last_float = Some(Float::Down);
                }
            }
        }
        for bye in &round.byes {
            let i = find(bye.player)?;
            records[i].score += bye.kind.points();
            // A player who does not play, for whatever reason, floats down
            // (A.4.b), whatever the bye scores.
            records[i].last_float = Some(Float::Down);
            if bye.kind == ByeKind::Pairing {
                records[i].had_point_without_playing = true;
            }
        }
        // Nor does one the round does not name (withdrawn, then back).
        for record in records.iter_mut() {
            if !seen.contains(&record.key) {
                record.last_float = Some(Float::Down);
            }
        }
    }
    Ok(records)
}
