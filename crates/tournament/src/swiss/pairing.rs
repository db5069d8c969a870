//! Pairing the next round by the FIDE Dutch system (C.04.3), in the
//! form this crate implements (see the module documentation of
//! [`crate::swiss`] for what is and is not covered).
//!
//! 1. Present players are ranked by score, then pairing number.
//! 2. With an odd number, the bye goes to the lowest-ranked player who has
//!    not yet scored a point without playing, provided the others can then
//!    all be paired.
//! 3. Score brackets are paired from the top. A bracket is the players
//!    floated down from above (MDPs), then the score group's residents.
//!    S1 is the MDPs (at most half the bracket) or, in a homogeneous
//!    bracket, the top half; S2 the rest. Each S1 player in turn takes the
//!    first S2 player in order (S1\[i\] meets S2\[i\] when nothing stands in
//!    the way; otherwise the next, which amounts to the transpositions of
//!    S2 in their order), else the lowest S1 player still free (an
//!    exchange), such that
//!    * the pair meets the absolute criteria: not met before, not both with
//!      an absolute preference for the same colour;
//!    * every player not yet paired, down to the last bracket, can still
//!      be paired (the completion test, [`crate::matching::cardinality`]);
//!    * as few colour preferences as possible go unmet: first a partner
//!      meeting both preferences, then one leaving a mild preference unmet,
//!      then a strong one.
//!
//!    An S1 player with no such partner floats down; after S1, what is
//!    left of S2 is paired again as a bracket of its own; the odd player
//!    out floats down.
//! 4. Colours by [`super::colour::allocate`]; boards ordered by the higher
//!    score, then the score sum, then the higher-ranked player's pairing
//!    number.

use serde::{Deserialize, Serialize};

use super::colour::{allocate, colours_compatible, Strength};
use super::history::{records, PlayerRecord};
use super::tournament::{SwissError, SwissTournament};
use crate::matching::cardinality::has_perfect_matching;
use crate::pairing::Pairing;
use crate::player::{PlayerKey, Side};

/// The pairing of a Swiss round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SwissPairing {
    /// The round it is for (1-based).
    pub round: u32,
    /// The games, first board first.
    pub boards: Vec<Pairing>,
    /// The player with the pairing-allocated bye (1 point), if the number
    /// of present players is odd.
    pub bye: Option<PlayerKey>,
}

/// Pairs the tournament's next round.
pub fn pair_next_round(tournament: &SwissTournament) -> Result<SwissPairing, SwissError> {
    let records = records(tournament)?;
    let round = tournament.rounds.len() as u32 + 1;
    if round > tournament.rounds_planned {
        return Err(SwissError::Finished(tournament.rounds_planned));
    }
    let pairer = Pairer::new(&records, tournament.initial_colour);
    let mut ranked: Vec<usize> = (0..records.len()).filter(|&i| records[i].present).collect();
    ranked.sort_by_key(|&i| pairer.rank_key(i));
    let mut bye = None;
    if ranked.len() % 2 == 1 {
        let eligible = ranked.iter().rposition(|&i| {
            !records[i].had_point_without_playing && pairer.can_complete(&without(&ranked, &[i]))
        });
        let at = eligible.ok_or(SwissError::NoLegalPairing(round))?;
        bye = Some(records[ranked.remove(at)].key);
    } else if !pairer.can_complete(&ranked) {
        return Err(SwissError::NoLegalPairing(round));
    }
    let mut unpaired = ranked.clone();
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    let mut floaters: Vec<usize> = Vec::new();
    let mut start = 0;
    while start < ranked.len() {
        let score = records[ranked[start]].score;
        let end = start
            + ranked[start..]
                .iter()
                .take_while(|&&i| records[i].score == score)
                .count();
        let mut bracket = std::mem::take(&mut floaters);
        let downfloaters = bracket.len();
        bracket.extend_from_slice(&ranked[start..end]);
        floaters = pairer.pair_bracket(bracket, downfloaters, &mut unpaired, &mut pairs);
        start = end;
    }
    if !floaters.is_empty() {
        // The completion test rules this out; kept as a guard.
        return Err(SwissError::NoLegalPairing(round));
    }
    pairs.sort_by_key(|&(h, l)| {
        let (sh, sl) = (records[h].score, records[l].score);
        (
            std::cmp::Reverse(sh.max(sl)),
            std::cmp::Reverse(sh + sl),
            records[h].pairing_number,
        )
    });
    let boards = pairs
        .into_iter()
        .map(|(h, l)| {
            let (side, _) = allocate(&records[h], &records[l], tournament.initial_colour);
            let (white, black) = if side == Side::White { (h, l) } else { (l, h) };
            Pairing {
                white: records[white].key,
                black: records[black].key,
            }
        })
        .collect();
    Ok(SwissPairing { round, boards, bye })
}

/// `set` without the players in `gone`.
fn without(set: &[usize], gone: &[usize]) -> Vec<usize> {
    set.iter().copied().filter(|i| !gone.contains(i)).collect()
}

/// The records and settings one pairing works with.
struct Pairer<'a> {
    records: &'a [PlayerRecord],
    initial_colour: Side,
    /// The absolute criteria for every two players, worked out once: the
    /// completion test asks them many times.
    may_meet: Vec<Vec<bool>>,
}

impl<'a> Pairer<'a> {
    fn new(records: &'a [PlayerRecord], initial_colour: Side) -> Pairer<'a> {
        let may_meet = records
            .iter()
            .enumerate()
            .map(|(a, ra)| {
                records
                    .iter()
                    .enumerate()
                    .map(|(b, rb)| {
                        a != b && !ra.opponents.contains(&rb.key) && colours_compatible(ra, rb)
                    })
                    .collect()
            })
            .collect();
        Pairer {
            records,
            initial_colour,
            may_meet,
        }
    }

    /// Ranking order: more points first, then the lower pairing number.
    fn rank_key(&self, i: usize) -> (std::cmp::Reverse<u32>, u32) {
        (
            std::cmp::Reverse(self.records[i].score.0),
            self.records[i].pairing_number,
        )
    }

    /// The absolute criteria: not met before, colours compatible.
    fn allowed(&self, a: usize, b: usize) -> bool {
        self.may_meet[a][b]
    }

    /// Whether all of `players` can be paired by the absolute criteria.
    fn can_complete(&self, players: &[usize]) -> bool {
        has_perfect_matching(players.len(), &|i, j| self.allowed(players[i], players[j]))
    }

    /// The colour preference `a` and `b` would leave unmet.
    fn unmet(&self, a: usize, b: usize) -> Strength {
        let (higher, lower) = if self.rank_key(a) <= self.rank_key(b) {
            (a, b)
        } else {
            (b, a)
        };
        allocate(
            &self.records[higher],
            &self.records[lower],
            self.initial_colour,
        )
        .1
    }

    /// Pairs what it can of `bracket` (the first `downfloaters` of them
    /// floated down from above), adding to `pairs` (higher-ranked first)
    /// and removing the paired from `unpaired`; returns those who float on.
    fn pair_bracket(
        &self,
        mut bracket: Vec<usize>,
        downfloaters: usize,
        unpaired: &mut Vec<usize>,
        pairs: &mut Vec<(usize, usize)>,
    ) -> Vec<usize> {
        let mut floating = Vec::new();
        let mut s1_size = downfloaters.min(bracket.len() / 2);
        if s1_size == 0 {
            s1_size = bracket.len() / 2;
        }
        while bracket.len() >= 2 {
            let (s1, s2) = bracket.split_at(s1_size);
            let (s1, mut s2) = (s1.to_vec(), s2.to_vec());
            let mut s1_free: Vec<usize> = s1.clone();
            for &a in &s1 {
                if !s1_free.contains(&a) {
                    continue;
                }
                s1_free.retain(|&x| x != a);
                // S2 in order, then the lowest S1 players still free.
                let candidates: Vec<usize> = s2
                    .iter()
                    .copied()
                    .chain(s1_free.iter().rev().copied())
                    .collect();
                match self.partner(a, &candidates, unpaired) {
                    Some(b) => {
                        pairs.push((a, b));
                        unpaired.retain(|&x| x != a && x != b);
                        s2.retain(|&x| x != b);
                        s1_free.retain(|&x| x != b);
                    }
                    None => floating.push(a),
                }
            }
            // What is left of S2 is a homogeneous bracket of its own.
            bracket = s2;
            s1_size = bracket.len() / 2;
        }
        floating.extend(bracket);
        floating.sort_by_key(|&i| self.rank_key(i));
        floating
    }

    /// The first of `candidates` `a` may meet, keeping the rest pairable,
    /// with the fewest unmet colour preferences.
    fn partner(&self, a: usize, candidates: &[usize], unpaired: &[usize]) -> Option<usize> {
        // The completion test is the dear part: each candidate's once.
        let mut legal: Vec<Option<bool>> = vec![None; candidates.len()];
        for tier in [
            Strength::None,
            Strength::Mild,
            Strength::Strong,
            Strength::Absolute,
        ] {
            for (k, &b) in candidates.iter().enumerate() {
                if legal[k] == Some(false) || self.unmet(a, b) > tier {
                    continue;
                }
                let ok = *legal[k].get_or_insert_with(|| {
                    self.allowed(a, b) && self.can_complete(&without(unpaired, &[a, b]))
                });
                if ok {
                    return Some(b);
                }
            }
        }
        None
    }
}
