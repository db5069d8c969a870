//! The first layer's sums for one perspective, kept up to date move by
//! move: a move adds and subtracts a few weight rows instead of summing
//! every piece again.

use super::delta::Delta;
use super::features::{MAX_HAND, active_features, board_feature, hand_feature};
use super::network::Network;
use super::simd;
use tensorchess_rules::{Color, Position, Variant};

/// The hidden layer's input for one perspective, in units of `QA`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    /// One sum per hidden neuron.
    pub values: Vec<i16>,
}

impl Accumulator {
    /// The sums of `pos` seen from `perspective`, from scratch.
    pub fn refresh<V: Variant>(net: &Network, pos: &Position<V>, perspective: Color) -> Self {
        let mut acc = Accumulator {
            values: net.input_bias.clone(),
        };
        acc.refresh_into(net, pos, perspective);
        acc
    }

    /// Recomputes these sums from scratch for `pos` (keeping the allocation).
    pub fn refresh_into<V: Variant>(
        &mut self,
        net: &Network,
        pos: &Position<V>,
        perspective: Color,
    ) {
        self.values.clear();
        self.values.extend_from_slice(&net.input_bias);
        active_features(pos, perspective, |f| {
            add_row(&mut self.values, net.feature_row(f))
        });
    }

    /// Applies a move's changes, as `perspective` sees them, in place.
    pub fn apply<V: Variant>(&mut self, net: &Network, delta: &Delta, perspective: Color) {
        let rows = Rows::of::<V>(net, delta, perspective);
        for row in rows.adds() {
            add_row(&mut self.values, row);
        }
        for row in rows.subs() {
            sub_row(&mut self.values, row);
        }
    }

    /// These sums become `parent`'s with a move's changes applied, as
    /// `perspective` sees them: one pass over the lanes that copies, adds
    /// and subtracts (the search's update from ply to ply).
    #[inline]
    pub fn update_from<V: Variant>(
        &mut self,
        parent: &Accumulator,
        net: &Network,
        delta: &Delta,
        perspective: Color,
    ) {
        let rows = Rows::of::<V>(net, delta, perspective);
        self.values.resize(parent.values.len(), 0);
        simd::update(&mut self.values, &parent.values, rows.adds(), rows.subs());
    }
}

/// Most weight rows one move adds, or subtracts: four pieces put on (or
/// taken off) squares and a hand's count changed by up to [`MAX_HAND`].
const MAX_ROWS: usize = 4 + MAX_HAND;

/// The weight rows a move adds and subtracts, for one perspective.
struct Rows<'a> {
    adds: [&'a [i16]; MAX_ROWS],
    subs: [&'a [i16]; MAX_ROWS],
    n_adds: usize,
    n_subs: usize,
}

impl<'a> Rows<'a> {
    #[inline(always)]
    fn of<V: Variant>(net: &'a Network, delta: &Delta, perspective: Color) -> Self {
        let mut rows = Rows {
            adds: [&[]; MAX_ROWS],
            subs: [&[]; MAX_ROWS],
            n_adds: 0,
            n_subs: 0,
        };
        for &(sq, piece) in delta.removed() {
            rows.push_sub(net.feature_row(board_feature::<V>(perspective, sq, piece)));
        }
        for &(sq, piece) in delta.added() {
            rows.push_add(net.feature_row(board_feature::<V>(perspective, sq, piece)));
        }
        if let Some((color, before, after)) = delta.hand() {
            let (before, after) = (before as usize, after as usize);
            // Features k < hand are on: the difference between the two counts.
            for k in after.min(before)..before.max(after).min(MAX_HAND) {
                let row = net.feature_row(hand_feature::<V>(perspective, color, k));
                if after > before {
                    rows.push_add(row);
                } else {
                    rows.push_sub(row);
                }
            }
        }
        rows
    }

    #[inline(always)]
    fn push_add(&mut self, row: &'a [i16]) {
        // Within MAX_ROWS by the counts above.
        if let Some(slot) = self.adds.get_mut(self.n_adds) {
            *slot = row;
            self.n_adds += 1;
        }
    }

    #[inline(always)]
    fn push_sub(&mut self, row: &'a [i16]) {
        if let Some(slot) = self.subs.get_mut(self.n_subs) {
            *slot = row;
            self.n_subs += 1;
        }
    }

    fn adds(&self) -> &[&'a [i16]] {
        &self.adds[..self.n_adds]
    }

    fn subs(&self) -> &[&'a [i16]] {
        &self.subs[..self.n_subs]
    }
}

/// `acc += row`, lane by lane (auto-vectorised).
#[inline(always)]
fn add_row(acc: &mut [i16], row: &[i16]) {
    for (a, &w) in acc.iter_mut().zip(row) {
        *a = a.wrapping_add(w);
    }
}

/// `acc -= row`, lane by lane (auto-vectorised).
#[inline(always)]
fn sub_row(acc: &mut [i16], row: &[i16]) {
    for (a, &w) in acc.iter_mut().zip(row) {
        *a = a.wrapping_sub(w);
    }
}
