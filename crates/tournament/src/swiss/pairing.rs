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
//!    * The MDPs come first (S1), each meeting the first resident (S2, in
//!      order) it can, residents who floated up last round last (C.15).
//!    * The residents left are a homogeneous bracket. If it can be paired
//!      whole (all but one when odd) with everyone below still pairable,
//!      the floater is chosen first: the lowest-ranked who did not float
//!      down last round (C.14), else the lowest-ranked; the rest is paired
//!      by [`best_whole_pairing`]: the fewest unmet colour preferences
//!      (C.12, C.13), then the Dutch order (S1 against S2, transpositions,
//!      exchanges). Otherwise player by player, and those who find no
//!      partner float down.
//!
//!    Pairing player by player (the MDPs, or a bracket that cannot be
//!    paired whole) means taking, of S2 in order (S1\[i\] meets S2\[i\]
//!    when nothing stands in the way; otherwise the next, which amounts to
//!    the transpositions of S2 in their order), else of the lowest S1
//!    players still free (an exchange), the first partner such that
//!    * the pair meets the absolute criteria: not met before, not both with
//!      an absolute preference for the same colour;
//!    * everyone still to be paired can be (the completion test,
//!      [`crate::matching::cardinality`]);
//!    * as few colour preferences as possible go unmet: first a partner
//!      meeting both preferences, then one leaving a mild preference unmet,
//!      then a strong one.
//! 4. Colours by [`super::colour::allocate`]; boards ordered by the higher
//!    score, then the score sum, then the higher-ranked player's pairing
//!    number.

use serde::{Deserialize, Serialize};

use super::bracket::Round;
use super::colour::{allocate, colours_compatible, unmet_preferences, Strength};
use super::dutch::{pair_exact, Exact};
use super::history::{records, Float, PlayerRecord};
use super::tournament::{SwissError, SwissTournament};
use super::whole_bracket::best_whole_pairing;
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

/// Up to this many players a round is paired exactly ([`super::dutch`]:
/// 0.2 s a round for 100 on a busy two-core machine, 3 s for 200); larger
/// fields greedily (the module documentation says how).
const EXACT_UP_TO: usize = 100;

/// Pairs the tournament's next round.
pub fn pair_next_round(tournament: &SwissTournament) -> Result<SwissPairing, SwissError> {
    let records = records(tournament)?;
    let round = tournament.rounds.len() as u32 + 1;
    if round > tournament.rounds_planned {
        return Err(SwissError::Finished(tournament.rounds_planned));
    }
    // Topscorers of the last round: more than half the points possible.
    let last_round = round == tournament.rounds_planned;
    let topscorers: Vec<bool> = records
        .iter()
        .map(|r| last_round && r.score.0 > round - 1)
        .collect();
    let pairer = Pairer::new(&records, tournament.initial_colour, &topscorers);
    let mut ranked: Vec<usize> = (0..records.len()).filter(|&i| records[i].present).collect();
    ranked.sort_by_key(|&i| pairer.rank_key(i));
    let (mut pairs, bye) = if ranked.len() <= EXACT_UP_TO {
        let exact = Round {
            records: &records,
            may_meet: &pairer.may_meet,
            topscorer: &topscorers,
            played: tournament.rounds.len(),
        };
        match pair_exact(&exact, &ranked) {
            Ok((pairs, bye)) => (pairs, bye.map(|i| records[i].key)),
            Err(Exact::Impossible) => return Err(SwissError::NoLegalPairing(round)),
            Err(Exact::TooLarge) => pairer.pair_greedily(ranked, round)?,
        }
    } else {
        pairer.pair_greedily(ranked, round)?
    };
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

/// The greedy pairing's pairs (record indices) and the bye.
type Greedy = (Vec<(usize, usize)>, Option<PlayerKey>);

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
    /// `topscorers` (by record) may meet despite the same absolute colour
    /// preference (the last round only; C.04.3 C.3).
    fn new(records: &'a [PlayerRecord], initial_colour: Side, topscorers: &[bool]) -> Pairer<'a> {
        let may_meet = records
            .iter()
            .enumerate()
            .map(|(a, ra)| {
                records
                    .iter()
                    .enumerate()
                    .map(|(b, rb)| {
                        a != b
                            && !ra.opponents.contains(&rb.key)
                            && (topscorers[a] || topscorers[b] || colours_compatible(ra, rb))
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

    /// The round by the greedy approximation, for fields too large to
    /// pair exactly (`ranked`: the present players in ranking order).
    fn pair_greedily(&self, mut ranked: Vec<usize>, round: u32) -> Result<Greedy, SwissError> {
        let (pairer, records) = (self, self.records);
        let mut bye = None;
        if ranked.len() % 2 == 1 {
            let eligible = ranked.iter().rposition(|&i| {
                !records[i].had_point_without_playing
                    && pairer.can_complete(&without(&ranked, &[i]))
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
        Ok((pairs, bye))
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
        bracket: Vec<usize>,
        downfloaters: usize,
        unpaired: &mut Vec<usize>,
        pairs: &mut Vec<(usize, usize)>,
    ) -> Vec<usize> {
        let (mdps, residents) = bracket.split_at(downfloaters.min(bracket.len()));
        let mut residents = residents.to_vec();
        let mut floating = Vec::new();
        // The MDPs first, each against the first resident that works;
        // residents who floated up last round come last (C.04.3 C.15).
        let mut mdps_free = mdps.to_vec();
        for &m in mdps {
            if !mdps_free.contains(&m) {
                continue;
            }
            mdps_free.retain(|&x| x != m);
            let mut candidates = residents.clone();
            candidates.sort_by_key(|&r| self.records[r].last_float == Some(Float::Up));
            candidates.extend(mdps_free.iter().rev());
            match self.partner(m, &candidates, unpaired) {
                Some(b) => {
                    self.take(m, b, unpaired, pairs);
                    residents.retain(|&x| x != b);
                    mdps_free.retain(|&x| x != b);
                }
                None => floating.push(m),
            }
        }
        // The residents left are a homogeneous bracket (the remainder).
        floating.extend(self.pair_homogeneous(residents, unpaired, pairs));
        floating.sort_by_key(|&i| self.rank_key(i));
        floating
    }

    /// Pairs a homogeneous bracket. When it can be paired whole (all but
    /// one, if odd) with everyone else still pairable, the floater is
    /// chosen first: the lowest-ranked player who did not float down last
    /// round (C.04.3 C.14), else the lowest-ranked; then the rest are
    /// paired among themselves. Otherwise player by player, floating those
    /// who find no partner.
    fn pair_homogeneous(
        &self,
        players: Vec<usize>,
        unpaired: &mut Vec<usize>,
        pairs: &mut Vec<(usize, usize)>,
    ) -> Vec<usize> {
        if players.len() < 2 {
            return players;
        }
        let others = without(unpaired, &players);
        let workable = |to_pair: &[usize], floater: Option<usize>| {
            let mut rest = others.clone();
            rest.extend(floater);
            self.can_complete(to_pair) && self.can_complete(&rest)
        };
        let plan = if players.len().is_multiple_of(2) {
            workable(&players, None).then(|| (players.clone(), None))
        } else {
            let mut lowest_first: Vec<usize> = players.iter().rev().copied().collect();
            lowest_first.sort_by_key(|&f| self.records[f].last_float == Some(Float::Down));
            lowest_first.into_iter().find_map(|f| {
                let rest = without(&players, &[f]);
                workable(&rest, Some(f)).then_some((rest, Some(f)))
            })
        };
        match plan {
            Some((to_pair, floater)) => {
                self.pair_whole(to_pair, unpaired, pairs);
                floater.into_iter().collect()
            }
            None => self.pair_one_by_one(players, unpaired, pairs),
        }
    }

    /// Pairs all of `players`, who can be paired among themselves, by
    /// [`best_whole_pairing`]: the fewest unmet colour preferences, then
    /// the Dutch order of S1 against S2.
    fn pair_whole(
        &self,
        players: Vec<usize>,
        unpaired: &mut Vec<usize>,
        pairs: &mut Vec<(usize, usize)>,
    ) {
        let unmet = |a: usize, b: usize| {
            let (higher, lower) = if self.rank_key(a) <= self.rank_key(b) {
                (a, b)
            } else {
                (b, a)
            };
            unmet_preferences(
                &self.records[higher],
                &self.records[lower],
                self.initial_colour,
            )
        };
        for (a, b) in best_whole_pairing(&players, &|a, b| self.allowed(a, b), &unmet) {
            self.take(a, b, unpaired, pairs);
        }
    }

    /// Pairs player by player (S1 against S2, then the rest of S2 as a
    /// bracket of its own), keeping everyone unpaired pairable; returns
    /// those who find no partner.
    fn pair_one_by_one(
        &self,
        mut bracket: Vec<usize>,
        unpaired: &mut Vec<usize>,
        pairs: &mut Vec<(usize, usize)>,
    ) -> Vec<usize> {
        let mut floating = Vec::new();
        while bracket.len() >= 2 {
            let (s1, s2) = bracket.split_at(bracket.len() / 2);
            let (s1, mut s2) = (s1.to_vec(), s2.to_vec());
            let mut s1_free = s1.clone();
            for &a in &s1 {
                if !s1_free.contains(&a) {
                    continue;
                }
                s1_free.retain(|&x| x != a);
                let candidates: Vec<usize> = s2
                    .iter()
                    .copied()
                    .chain(s1_free.iter().rev().copied())
                    .collect();
                match self.partner(a, &candidates, unpaired) {
                    Some(b) => {
                        self.take(a, b, unpaired, pairs);
                        s2.retain(|&x| x != b);
                        s1_free.retain(|&x| x != b);
                    }
                    None => floating.push(a),
                }
            }
            bracket = s2;
        }
        floating.extend(bracket);
        floating
    }

    /// Records the pair `a`–`b` (`a` the higher-ranked).
    fn take(&self, a: usize, b: usize, unpaired: &mut Vec<usize>, pairs: &mut Vec<(usize, usize)>) {
        let (higher, lower) = if self.rank_key(a) <= self.rank_key(b) {
            (a, b)
        } else {
            (b, a)
        };
        pairs.push((higher, lower));
        unpaired.retain(|&x| x != a && x != b);
    }

    /// The first of `candidates` `a` may meet such that the rest of `pool`
    /// can still be paired, with the fewest unmet colour preferences.
    fn partner(&self, a: usize, candidates: &[usize], pool: &[usize]) -> Option<usize> {
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
                    self.allowed(a, b) && self.can_complete(&without(pool, &[a, b]))
                });
                if ok {
                    return Some(b);
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::standings::HalfPoints;

    fn record(number: u32, points: u32, last_float: Option<Float>) -> PlayerRecord {
        PlayerRecord {
            key: PlayerKey(u64::from(number)),
            pairing_number: number,
            score: HalfPoints(points),
            colours_by_round: vec![None],
            opponents: Default::default(),
            had_point_without_playing: false,
            present: true,
            last_float,
            float_two_back: None,
        }
    }

    #[test]
    fn the_floater_of_an_odd_group_did_not_float_down_last_round() {
        // Players 1, 2, 3 on 1 point, 4 below. 3 floated down last round,
        // so 2 floats now (C.04.3 C.14) and 1 meets 3.
        let records = [
            record(1, 2, None),
            record(2, 2, None),
            record(3, 2, Some(Float::Down)),
            record(4, 0, Some(Float::Up)),
        ];
        let pairer = Pairer::new(&records, Side::White, &[false; 4]);
        let mut unpaired = vec![0, 1, 2, 3];
        let mut pairs = Vec::new();
        let floating = pairer.pair_homogeneous(vec![0, 1, 2], &mut unpaired, &mut pairs);
        assert_eq!(floating, [1]);
        assert_eq!(pairs, [(0, 2)]);
        assert_eq!(unpaired, [1, 3]);
        // Without the float, the lowest floats.
        let records = [
            record(1, 2, None),
            record(2, 2, None),
            record(3, 2, None),
            record(4, 0, None),
        ];
        let pairer = Pairer::new(&records, Side::White, &[false; 4]);
        let mut unpaired = vec![0, 1, 2, 3];
        let mut pairs = Vec::new();
        assert_eq!(
            pairer.pair_homogeneous(vec![0, 1, 2], &mut unpaired, &mut pairs),
            [2]
        );
        assert_eq!(pairs, [(0, 1)]);
    }

    #[test]
    fn moved_down_players_prefer_residents_who_did_not_float_up() {
        // 1 floats down into 2, 3, 4 (0 points); 2 floated up last round,
        // so 1 meets 3 and the remainder pairs 2 with 4.
        let records = [
            record(1, 2, None),
            record(2, 0, Some(Float::Up)),
            record(3, 0, None),
            record(4, 0, None),
        ];
        let pairer = Pairer::new(&records, Side::White, &[false; 4]);
        let mut unpaired = vec![0, 1, 2, 3];
        let mut pairs = Vec::new();
        let floating = pairer.pair_bracket(vec![0, 1, 2, 3], 1, &mut unpaired, &mut pairs);
        assert_eq!(pairs, [(0, 2), (1, 3)]);
        assert!(floating.is_empty());
        assert!(unpaired.is_empty());
    }
}
