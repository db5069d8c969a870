//! A round paired exactly by the Dutch system (C.04.3): brackets from the
//! top, each paired by [`super::bracket`]; a bracket whose downfloaters
//! leave the rest of the round unpairable (the completion test, C.4) is
//! paired again as the penultimate pairing bracket over everyone below,
//! collapsed into one (A.9); the last bracket's odd player out gets the
//! pairing bye.

use super::bracket::{Bracket, BracketPairer, Role, Round};
use super::history::PlayerRecord;
use crate::matching::cardinality::has_perfect_matching;

/// Why the exact pairing gives no round.
pub(crate) enum Exact {
    /// Some bracket's weights do not fit: pair another way.
    TooLarge,
    /// No round meets the absolute criteria.
    Impossible,
}

/// Whom the completion test may still pair: everyone not in a pair fixed
/// so far, and the bye, for an odd number, to one who may have it (C.2).
struct Completion<'a> {
    may_meet: &'a [Vec<bool>],
    records: &'a [PlayerRecord],
    present: &'a [usize],
    fixed: Vec<bool>,
}

impl Completion<'_> {
    fn possible(&self) -> bool {
        let free: Vec<usize> = self
            .present
            .iter()
            .copied()
            .filter(|&p| !self.fixed[p])
            .collect();
        let odd = free.len() % 2 == 1;
        let bye = free.len();
        let allowed = |i: usize, j: usize| {
            if odd && (i == bye || j == bye) {
                let p = free[if i == bye { j } else { i }];
                !self.records[p].had_point_without_playing
            } else {
                self.may_meet[free[i]][free[j]]
            }
        };
        has_perfect_matching(free.len() + usize::from(odd), &allowed)
    }
}

/// A round: its pairs (record indices, the higher-ranked first) and the
/// player with the bye.
pub(crate) type Paired = (Vec<(usize, usize)>, Option<usize>);

/// The round's pairs and bye. `present` is in ranking order.
pub(crate) fn pair_exact(round: &Round<'_>, present: &[usize]) -> Result<Paired, Exact> {
    let records = round.records;
    let mut completion = Completion {
        may_meet: round.may_meet,
        records,
        present,
        fixed: vec![false; records.len()],
    };
    if !completion.possible() {
        return Err(Exact::Impossible);
    }
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for &p in present {
        match groups.last_mut() {
            Some(g) if records[g[0]].score == records[p].score => g.push(p),
            _ => groups.push(vec![p]),
        }
    }
    let mut pairs = Vec::new();
    let mut bye = None;
    let mut mdps: Vec<usize> = Vec::new();
    let mut collapsed = false;
    let mut index = 0;
    while index < groups.len() {
        let lower = groups.get(index + 1).cloned().unwrap_or_default();
        let last = lower.is_empty();
        let bracket = Bracket::new(round, &mdps, &groups[index], &lower, collapsed);
        if !bracket.fits() {
            return Err(Exact::TooLarge);
        }
        let (bracket, fixed, mate) = BracketPairer::new(bracket).pair();
        let before = completion.fixed.clone();
        for &(a, b) in &fixed {
            completion.fixed[bracket.record(a)] = true;
            completion.fixed[bracket.record(b)] = true;
        }
        if !(collapsed || last || completion.possible()) {
            // A.9: this bracket again, over everyone below collapsed.
            completion.fixed = before;
            let rest: Vec<usize> = groups.drain(index + 1..).flatten().collect();
            groups.push(rest);
            collapsed = true;
            continue;
        }
        let mut left = Vec::new();
        for (v, &mate_v) in mate.iter().enumerate() {
            if bracket.role(v) == Role::Lower {
                continue;
            }
            match mate_v {
                Some(m) if bracket.role(m) != Role::Lower => {
                    if v < m {
                        pairs.push((bracket.record(v), bracket.record(m)));
                    }
                }
                _ => left.push(bracket.record(v)),
            }
        }
        if last {
            match left.as_slice() {
                [] => {}
                [one] => bye = Some(*one),
                _ => return Err(Exact::Impossible),
            }
            left.clear();
        }
        mdps = left;
        index += 1;
    }
    Ok((pairs, bye))
}
