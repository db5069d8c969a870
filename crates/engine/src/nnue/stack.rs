//! One accumulator pair per ply of the search path, brought up to date
//! lazily: making a move only records its [`Delta`]; evaluating walks back
//! to the nearest ply whose sums are known and replays the deltas from
//! there (positions cut off before their evaluation cost nothing).

use super::accumulator::Accumulator;
use super::delta::Delta;
use super::network::Network;
use tensorchess_rules::{Color, Move, Position, Variant};

/// One ply of the path.
#[derive(Clone, Debug)]
struct Entry {
    /// White's perspective, then Black's.
    sides: [Accumulator; 2],
    /// Whether `sides` hold this ply's sums.
    computed: bool,
    /// How this ply's position came from the previous ply's (`None`: no
    /// known parent, refresh from the position).
    delta: Option<Delta>,
}

/// The accumulators along a search path.
#[derive(Clone, Debug)]
pub struct AccumulatorStack {
    entries: Vec<Entry>,
}

impl AccumulatorStack {
    /// A stack for paths of up to `plies` plies.
    pub fn new(net: &Network, plies: usize) -> Self {
        let acc = Accumulator {
            values: net.input_bias.clone(),
        };
        let entry = Entry {
            sides: [acc.clone(), acc],
            computed: false,
            delta: None,
        };
        AccumulatorStack {
            entries: vec![entry; plies + 1],
        }
    }

    /// The path starts at `ply` (a new root): its sums are refreshed when needed.
    pub fn set_root(&mut self, ply: usize) {
        if let Some(e) = self.entries.get_mut(ply) {
            e.computed = false;
            e.delta = None;
        }
    }

    /// Plays `m` from `pos` at `ply`, recording its changes for `ply + 1`.
    #[inline]
    pub fn play<V: Variant>(&mut self, pos: &Position<V>, m: Move, ply: usize) -> Position<V> {
        let mut delta = Delta::NONE;
        let child = pos.play_observed(m, &mut delta);
        self.record(ply + 1, Some(delta));
        child
    }

    /// A null move from `ply`: the board does not change.
    #[inline]
    pub fn play_null(&mut self, ply: usize) {
        self.record(ply + 1, Some(Delta::NONE));
    }

    fn record(&mut self, ply: usize, delta: Option<Delta>) {
        if let Some(e) = self.entries.get_mut(ply) {
            e.computed = false;
            e.delta = delta;
        }
    }

    /// The evaluation of `pos`, the position at `ply`, in centipawns from
    /// the side to move's view.
    pub fn evaluate<V: Variant>(&mut self, net: &Network, pos: &Position<V>, ply: usize) -> i32 {
        if ply >= self.entries.len() {
            let us = Accumulator::refresh(net, pos, pos.turn());
            let them = Accumulator::refresh(net, pos, !pos.turn());
            return net.output(&us, &them);
        }
        self.update(net, pos, ply);
        let e = &self.entries[ply];
        let (us, them) = match pos.turn() {
            Color::White => (&e.sides[0], &e.sides[1]),
            Color::Black => (&e.sides[1], &e.sides[0]),
        };
        net.output(us, them)
    }

    /// Brings `ply`'s sums up to date.
    fn update<V: Variant>(&mut self, net: &Network, pos: &Position<V>, ply: usize) {
        if self.entries[ply].computed {
            return;
        }
        // The nearest computed ancestor reachable through recorded deltas.
        let mut from = ply;
        while !self.entries[from].computed {
            if self.entries[from].delta.is_none() || from == 0 {
                from = usize::MAX;
                break;
            }
            from -= 1;
        }
        if from == usize::MAX {
            let e = &mut self.entries[ply];
            e.sides[0].refresh_into(net, pos, Color::White);
            e.sides[1].refresh_into(net, pos, Color::Black);
            e.computed = true;
            return;
        }
        for p in from + 1..=ply {
            let (done, rest) = self.entries.split_at_mut(p);
            let parent = &done[p - 1];
            let e = &mut rest[0];
            let delta = e.delta.unwrap_or(Delta::NONE);
            for (side, color) in Color::ALL.into_iter().enumerate() {
                e.sides[side].update_from::<V>(&parent.sides[side], net, &delta, color);
            }
            e.computed = true;
        }
    }
}
