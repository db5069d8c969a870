//! The first layer's sums for one perspective, kept up to date move by
//! move: a move adds and subtracts a few weight rows instead of summing
//! every piece again.

use super::delta::Delta;
use super::features::{MAX_HAND, active_features, board_feature, hand_feature};
use super::network::Network;
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

    /// Applies a move's changes, as `perspective` sees them.
    #[inline]
    pub fn apply<V: Variant>(&mut self, net: &Network, delta: &Delta, perspective: Color) {
        for &(sq, piece) in delta.removed() {
            sub_row(
                &mut self.values,
                net.feature_row(board_feature::<V>(perspective, sq, piece)),
            );
        }
        for &(sq, piece) in delta.added() {
            add_row(
                &mut self.values,
                net.feature_row(board_feature::<V>(perspective, sq, piece)),
            );
        }
        if let Some((color, before, after)) = delta.hand() {
            let (before, after) = (before as usize, after as usize);
            // Features k < hand are on: the difference between the two counts.
            for k in after.min(before)..before.max(after).min(MAX_HAND) {
                let row = net.feature_row(hand_feature::<V>(perspective, color, k));
                if after > before {
                    add_row(&mut self.values, row);
                } else {
                    sub_row(&mut self.values, row);
                }
            }
        }
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
