//! One pairing bracket of the Dutch system, paired exactly: the best
//! candidate by the quality criteria C.5–C.19, and among the best the
//! first in the order of generation (D.1–D.3), as C.04.3 B.8 asks.
//!
//! The method is the one bbpPairings made known: every player of the
//! bracket (the MDPs, the residents) and of the next score group is a
//! vertex; an edge joins two players who may meet (C.1, C.3), weighted by
//! what their pair does to each quality criterion, each criterion in a
//! field of bits of its own, the more important ones higher. A matching of
//! maximum weight is then a best candidate (the next score group stands in
//! for C.7, and for the downfloaters' scores). Which of the best is first
//! in the order of generation is settled one choice at a time: an MDP is
//! in S1 if it can be paired (D.3), S1 meets the lowest S2 it can (D.1),
//! the exchanges between S1 and S2 are the fewest and smallest (D.2); each
//! choice is a small weight added below the criteria, kept if the maximum
//! still allows it, then fixed.

use std::collections::BTreeMap;

use super::colour::{colour_difference, preference, Strength};
use super::history::{Float, PlayerRecord};
use crate::matching::weighted::max_weight_matching;
use crate::matching::wide::{Weight, Wide};
use crate::player::Side;

/// A player's part in the bracket being paired.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    /// Moved down from a bracket above.
    Mdp,
    /// Of the bracket's own score group.
    Resident,
    /// Of the next score group (for C.7 and the downfloaters).
    Lower,
}

/// What every bracket of a round shares: the records, who may meet whom.
pub(crate) struct Round<'a> {
    pub records: &'a [PlayerRecord],
    /// The absolute criteria C.1 and C.3 for two records.
    pub may_meet: &'a [Vec<bool>],
    /// Last-round topscorers (C.8, C.9).
    pub topscorer: &'a [bool],
    /// Rounds played before this one.
    pub played: usize,
}

/// A bracket: its players in ranking order (MDPs, residents, the next
/// score group) and the sizes of its bit fields.
pub(crate) struct Bracket<'a> {
    round: &'a Round<'a>,
    players: Vec<usize>,
    roles: Vec<Role>,
    /// The penultimate pairing bracket (A.9) or the last one: who is left
    /// unpaired matters there, C.7 does not.
    ppb_or_last: bool,
    min_score: i64,
    bracket_bits: u32,
    lower_bits: u32,
    /// The score differences' fields (A.8): each difference's lowest bit,
    /// and all their bits together.
    sd_bit: BTreeMap<i64, u32>,
    sd_bits: u32,
}

fn bit_length(n: usize) -> u32 {
    usize::BITS - n.leading_zeros()
}

impl<'a> Bracket<'a> {
    /// The bracket of `mdps` and `residents` (record indices, each in
    /// ranking order) above `lower`; `collapsed` after A.9's collapse.
    pub(crate) fn new(
        round: &'a Round<'a>,
        mdps: &[usize],
        residents: &[usize],
        lower: &[usize],
        collapsed: bool,
    ) -> Bracket<'a> {
        let score = |i: usize| i64::from(round.records[i].score.0);
        let min_score = score(*residents.last().expect("a bracket has residents"));
        // A.8: a downfloater's difference is its score less one point
        // below the bracket's lowest; and those of the pairs it may make.
        let mut differences: Vec<i64> = mdps
            .iter()
            .chain(residents)
            .map(|&p| score(p) - min_score + 2)
            .collect();
        for &m in mdps {
            let mut seen: Vec<i64> = residents.iter().map(|&r| score(m) - score(r)).collect();
            seen.sort_unstable();
            seen.dedup();
            differences.extend(seen);
        }
        for (i, &r) in residents.iter().enumerate() {
            let mut seen: Vec<i64> = residents[i + 1..]
                .iter()
                .map(|&l| score(r) - score(l))
                .collect();
            seen.sort_unstable();
            seen.dedup();
            differences.extend(seen);
        }
        let mut counts: BTreeMap<i64, usize> = BTreeMap::new();
        for d in differences {
            *counts.entry(d).or_default() += 1;
        }
        let mut sd_bit = BTreeMap::new();
        let mut sd_bits = 0;
        for (d, count) in counts {
            sd_bit.insert(d, sd_bits);
            sd_bits += bit_length(count);
        }
        let players: Vec<usize> = mdps.iter().chain(residents).chain(lower).copied().collect();
        let roles = std::iter::repeat_n(Role::Mdp, mdps.len())
            .chain(std::iter::repeat_n(Role::Resident, residents.len()))
            .chain(std::iter::repeat_n(Role::Lower, lower.len()))
            .collect();
        Bracket {
            round,
            players,
            roles,
            ppb_or_last: collapsed || lower.is_empty(),
            min_score,
            bracket_bits: bit_length(residents.len()),
            lower_bits: bit_length(lower.len()),
            sd_bit,
            sd_bits,
        }
    }

    /// The fields of the criteria C.5–C.19, in order: each one's width.
    fn widths(&self) -> [u32; 15] {
        let (bb, sd) = (self.bracket_bits, self.sd_bits);
        let one = self.round.played >= 1;
        let two = self.round.played >= 2;
        let on = |yes: bool, bits: u32| if yes { bits } else { 0 };
        [
            bb,                                          // C.5
            sd,                                          // C.6
            on(!self.ppb_or_last, self.lower_bits + sd), // C.7
            bb,                                          // C.8
            bb,                                          // C.9
            bb,                                          // C.10
            bb,                                          // C.11
            on(one, bb),                                 // C.12
            on(two, bb),                                 // C.13
            on(one, bb),                                 // C.14
            on(two, bb),                                 // C.15
            on(one, sd),                                 // C.16
            on(one, sd),                                 // C.17
            on(two, sd),                                 // C.18
            on(two, sd),                                 // C.19
        ]
    }

    /// The bits of the order-of-generation weights, below the criteria.
    fn order_bits(&self) -> u32 {
        3 * self.bracket_bits + 1
    }

    /// Whether the weights fit in a [`Wide`].
    pub(crate) fn fits(&self) -> bool {
        2 + self.widths().iter().sum::<u32>() + self.order_bits() + 2 < Wide::BITS
    }

    /// More than any one edge: a pair fixed for good.
    fn fixed_weight(&self) -> Wide {
        let bits = 2 + self.widths().iter().sum::<u32>() + self.order_bits();
        Wide::power_of_two(bits) - Wide::from_i64(1)
    }

    fn sd(&self, difference: i64) -> Wide {
        Wide::power_of_two(self.sd_bit.get(&difference).copied().unwrap_or(0))
    }

    /// The edge between local players `a` and `b` (`a` ranked higher), or
    /// `None` when they may not meet.
    fn weight(&self, a: usize, b: usize) -> Option<Wide> {
        let (pa, pb) = (self.players[a], self.players[b]);
        if !self.round.may_meet[pa][pb] {
            return None;
        }
        let records = self.round.records;
        let (r1, r2) = (&records[pa], &records[pb]);
        let (s1, s2) = (i64::from(r1.score.0), i64::from(r2.score.0));
        let (d1, d2, d3) = (s1 - self.min_score + 2, s2 - self.min_score + 2, s1 - s2);
        let (lower1, lower2) = (self.roles[a] == Role::Lower, self.roles[b] == Role::Lower);
        let (c1, c2) = (preference(r1), preference(r2));
        let side = |p: super::colour::Preference| (p.strength != Strength::None).then_some(p.side);
        let conflict = side(c1).is_some() && side(c1) == side(c2);
        let top = self.round.topscorer[pa] || self.round.topscorer[pb];
        let double = |r: &PlayerRecord| {
            let c: Vec<Side> = r.colours().collect();
            c.len() > 1 && c[c.len() - 1] == c[c.len() - 2]
        };
        let flag = |yes: bool| Wide::from_i64(i64::from(yes));
        let paired = !lower2;
        let higher = s1 > s2;
        let down1 = |f: Option<Float>| f == Some(Float::Down);
        let up = |f: Option<Float>| f == Some(Float::Up);
        let one = self.round.played >= 1;
        let two = self.round.played >= 2;
        let zero = Wide::ZERO;

        let mut values = [zero; 15];
        if paired {
            values[0] = flag(true);
            values[1] = self.sd(d1) + self.sd(d2) - self.sd(d3);
            values[3] = flag(
                !(top
                    && colour_difference(r1).abs() > 1
                    && colour_difference(r2).abs() > 1
                    && side(c1) == side(c2)),
            );
            values[4] = flag(!(top && double(r1) && double(r2) && side(c1) == side(c2)));
            values[5] = flag(!conflict);
            values[6] = flag(
                !(c1.strength >= Strength::Strong && c2.strength >= Strength::Strong && conflict),
            );
            if one {
                values[7] = Wide::from_i64(
                    i64::from(down1(r1.last_float) && !higher) + i64::from(down1(r2.last_float)),
                );
                values[9] = Wide::from_i64(
                    i64::from(down1(r1.float_two_back) && !higher)
                        + i64::from(down1(r2.float_two_back)),
                );
                let mut c16 = zero;
                if down1(r1.last_float) {
                    c16 += self.sd(d1);
                    if higher {
                        c16 -= self.sd(d3);
                    }
                }
                if down1(r2.last_float) {
                    c16 += self.sd(d2);
                }
                values[11] = c16;
                if up(r2.last_float) && higher {
                    values[12] = zero - self.sd(d1);
                }
            }
            if two {
                values[8] = flag(!(up(r2.last_float) && higher));
                values[10] = flag(!(up(r2.float_two_back) && higher));
                let mut c18 = zero;
                if down1(r1.float_two_back) {
                    c18 += self.sd(d1);
                    if higher {
                        c18 -= self.sd(d3);
                    }
                }
                if down1(r2.float_two_back) {
                    c18 += self.sd(d2);
                }
                values[13] = c18;
                if up(r2.float_two_back) && higher {
                    values[14] = zero - self.sd(d1);
                }
            }
        }
        if !self.ppb_or_last {
            // C.7: pairs in the next score group, and the downfloaters'
            // scores there.
            let mut c7 = flag(lower2).shl(self.sd_bits);
            if !lower1 {
                c7 += self.sd(d1);
            }
            if !lower2 {
                c7 += self.sd(d2);
            }
            values[2] = c7;
        }
        // Where who is left over matters, pairs first, then pairing those
        // who may not have the bye (C.2).
        let mut weight = if self.ppb_or_last {
            let had = |r: &PlayerRecord| i64::from(r.had_point_without_playing);
            Wide::from_i64(1 + had(r1) + had(r2))
        } else {
            zero
        };
        for (width, value) in self.widths().into_iter().zip(values) {
            weight = weight.shl(width) + value;
        }
        Some(weight.shl(self.order_bits()))
    }
}

/// The pairing of one bracket under way: the edges and their matching.
pub(crate) struct BracketPairer<'a> {
    bracket: Bracket<'a>,
    weights: Vec<Vec<Option<Wide>>>,
    mate: Vec<Option<usize>>,
    /// Pairs fixed so far (local indices).
    fixed: Vec<(usize, usize)>,
}

impl<'a> BracketPairer<'a> {
    pub(crate) fn new(bracket: Bracket<'a>) -> BracketPairer<'a> {
        let n = bracket.players.len();
        let mut weights = vec![vec![None; n]; n];
        for (a, b) in (0..n).flat_map(|a| (a + 1..n).map(move |b| (a, b))) {
            let w = bracket.weight(a, b);
            weights[a][b] = w;
            weights[b][a] = w;
        }
        let mut pairer = BracketPairer {
            bracket,
            weights,
            mate: vec![None; n],
            fixed: Vec::new(),
        };
        pairer.rematch();
        pairer
    }

    fn rematch(&mut self) {
        let n = self.weights.len();
        let mut edges = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                if let Some(w) = self.weights[a][b] {
                    edges.push((a, b, w));
                }
            }
        }
        self.mate = max_weight_matching(n, &edges);
    }

    /// Adds `value`, then `value + 1`, … (with `step`) to `a`'s edges to
    /// each of `others` that exists.
    fn add(&mut self, a: usize, others: &[usize], value: i64, step: i64) {
        let mut value = value;
        for &b in others {
            if let Some(w) = self.weights[a][b].as_mut() {
                *w += Wide::from_i64(value);
                self.weights[b][a] = Some(*w);
            }
            value += step;
        }
    }

    fn remove(&mut self, a: usize, others: &[usize]) {
        for &b in others {
            self.weights[a][b] = None;
            self.weights[b][a] = None;
        }
    }

    /// Fixes the pair `a`–`b`: no other edge for either.
    fn fix(&mut self, a: usize, b: usize) {
        let all: Vec<usize> = (0..self.weights.len()).collect();
        self.remove(a, &all);
        self.remove(b, &all);
        let w = self.bracket.fixed_weight();
        self.weights[a][b] = Some(w);
        self.weights[b][a] = Some(w);
        self.fixed.push((a.min(b), a.max(b)));
    }

    /// Whom `v` is matched with (itself when unmatched).
    fn mate_of(&self, v: usize) -> usize {
        self.mate[v].unwrap_or(v)
    }

    fn role_of_mate(&self, v: usize) -> Role {
        self.bracket.roles[self.mate_of(v)]
    }

    /// Matched with a resident ranked below: in S1.
    fn in_s1(&self, v: usize) -> bool {
        v < self.mate_of(v) && self.role_of_mate(v) == Role::Resident
    }

    /// Matched with someone ranked higher, not at all, or downfloating.
    fn in_s2(&self, v: usize) -> bool {
        v >= self.mate_of(v) || self.role_of_mate(v) == Role::Lower
    }

    /// Pairs the bracket: the pairs among its MDPs and residents (local
    /// indices, higher-ranked first); those left out float down.
    pub(crate) fn pair(mut self) -> (Bracket<'a>, Vec<(usize, usize)>, Vec<Option<usize>>) {
        let roles = self.bracket.roles.clone();
        let mdps: Vec<usize> = (0..roles.len())
            .filter(|&v| roles[v] == Role::Mdp)
            .collect();
        let residents: Vec<usize> = (0..roles.len())
            .filter(|&v| roles[v] == Role::Resident)
            .collect();
        let n = roles.len() as i64;
        // D.3: the MDPs in S1, the first ones that can be paired.
        let mut s1_mdps = Vec::new();
        for &m in &mdps {
            if self.role_of_mate(m) != Role::Resident {
                self.add(m, &residents, 1, 0);
                self.rematch();
            }
            if self.role_of_mate(m) == Role::Resident {
                s1_mdps.push(m);
                self.add(m, &residents, n, 0);
            }
        }
        // D.1: each meets the first resident it can.
        let mut met = Vec::new();
        for &m in &s1_mdps {
            let reversed: Vec<usize> = residents.iter().rev().copied().collect();
            self.add(m, &reversed, 0, 1);
            self.rematch();
            let r = self.mate_of(m);
            met.push(r);
            self.fix(m, r);
        }
        // The remainder, a homogeneous bracket: how many exchanges, then
        // which (D.2), then S1 against S2 (D.1).
        let remainder: Vec<usize> = residents
            .iter()
            .copied()
            .filter(|r| !met.contains(r))
            .collect();
        let pairs = remainder
            .iter()
            .filter(|&&r| self.role_of_mate(r) == Role::Resident)
            .count()
            / 2;
        let bb = self.bracket.bracket_bits;
        for (i, &r) in remainder.iter().enumerate() {
            let value = ((i64::from(i < pairs) << (2 * bb)) - i as i64) << 1;
            self.add(r, &remainder[i + 1..], value, 0);
        }
        self.rematch();
        let (s1, s2) = remainder.split_at(pairs);
        let mut exchanges = s1.iter().filter(|&&r| self.in_s2(r)).count();
        let total = exchanges;
        // D.2.c: the highest moved from S1 to S2.
        for i in (0..s1.len()).rev() {
            if exchanges == 0 {
                break;
            }
            let r = s1[i];
            let below: Vec<usize> = s1[i + 1..].iter().chain(s2).copied().collect();
            let was = self.in_s2(r);
            if !was {
                self.add(r, &below, -1, 0);
                self.rematch();
            }
            if self.in_s2(r) {
                exchanges -= 1;
                self.remove(r, &below);
            }
            if !was {
                self.add(r, &below, 1, 0);
            }
        }
        // D.2.d: the lowest moved from S2 to S1.
        let lower: Vec<usize> = (0..roles.len())
            .filter(|&v| roles[v] == Role::Lower)
            .collect();
        let mut exchanges = total;
        for (i, &r) in s2.iter().enumerate() {
            if exchanges == 0 {
                break;
            }
            let above: Vec<usize> = s1.iter().chain(&s2[..i]).copied().collect();
            let was = self.in_s1(r);
            if !was {
                self.add(r, &above, -1, 0);
                self.rematch();
            }
            if !self.in_s2(r) {
                exchanges -= 1;
                let mut cut = above.clone();
                cut.extend(&lower);
                self.remove(r, &cut);
            }
            if !was {
                self.add(r, &above, 1, 0);
            }
        }
        let new_s1: Vec<usize> = remainder
            .iter()
            .copied()
            .filter(|&r| self.in_s1(r))
            .collect();
        let new_s2: Vec<usize> = remainder
            .iter()
            .copied()
            .filter(|&r| self.in_s2(r))
            .collect();
        for (i, &r) in new_s1.iter().enumerate() {
            self.remove(r, &new_s1[i + 1..]);
        }
        for (i, &r) in new_s2.iter().enumerate() {
            self.remove(r, &new_s2[i + 1..]);
        }
        for &r in &new_s1 {
            let reversed: Vec<usize> = new_s2.iter().rev().copied().collect();
            self.add(r, &reversed, 0, 1);
            self.rematch();
            let m = self.mate_of(r);
            if m != r {
                self.fix(r, m);
            }
        }
        let fixed = self.fixed.clone();
        (self.bracket, fixed, self.mate)
    }
}

impl Bracket<'_> {
    /// The record index of local player `v`.
    pub(crate) fn record(&self, v: usize) -> usize {
        self.players[v]
    }

    /// Local player `v`'s role.
    pub(crate) fn role(&self, v: usize) -> Role {
        self.roles[v]
    }
}
