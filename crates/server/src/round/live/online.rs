//! What an online game keeps in memory besides its stored record: when the
//! running clock started, the wait for a first move, the flag timer, and
//! the offers each side made.
//!
//! Clock arithmetic: the record's `white_ms`/`black_ms` are the times left
//! at the start of the current turn; while a clock runs, the side to move
//! has `its time - (now - turn_origin)` left.

use super::offer::Offer;
use crate::round::online::timing::Timing;
use crate::store::OnlineRecord;
use crate::views::{ClockView, OnlineView, SeatView};
use tensorchess_rules::Color;
use tokio::task::AbortHandle;

/// An online game's state in memory.
pub struct OnlineState {
    pub(crate) record: OnlineRecord,
    /// When the running clock started, on this server's clock; `None` while
    /// no clock runs. Equal to `record.turn_started_at` unless the turn began
    /// before a restart (then it is moved forward by the time the server was down).
    pub(crate) turn_origin: Option<i64>,
    /// When a clocked game is aborted because the side to move has not made
    /// its first move (server clock); `None` when that rule does not apply.
    /// Kept in memory only: after a restart the wait starts again.
    pub(crate) first_move_deadline: Option<i64>,
    /// Bumped every time the flag timer is re-armed; an older timer that
    /// wakes up finds a different number and does nothing.
    pub(crate) timer_gen: u64,
    timer: Option<AbortHandle>,
}

impl OnlineState {
    /// The state of a game loaded or created with `record`, no clock running yet.
    pub fn new(record: OnlineRecord) -> OnlineState {
        OnlineState {
            record,
            turn_origin: None,
            first_move_deadline: None,
            timer_gen: 0,
            timer: None,
        }
    }

    /// The stored part: seats, clocks, offers, ratings.
    pub fn record(&self) -> &OnlineRecord {
        &self.record
    }

    /// The stored hash of the token holding `c`'s seat.
    pub fn seat_hash(&self, c: Color) -> Option<&str> {
        self.record.seats[c].as_deref()
    }

    /// The player holding `c`'s seat.
    pub fn player(&self, c: Color) -> Option<&str> {
        self.record.players[c].as_deref()
    }

    /// Whether `c`'s seat is taken (by a player, or by an old seat cookie).
    pub fn taken(record: &OnlineRecord, c: Color) -> bool {
        record.players[c].is_some() || record.seats[c].is_some()
    }

    /// Both seats are taken.
    pub fn both_seated(&self) -> bool {
        Self::taken(&self.record, Color::White) && Self::taken(&self.record, Color::Black)
    }

    /// The first free seat, White before Black.
    pub fn free_seat(&self) -> Option<Color> {
        [Color::White, Color::Black]
            .into_iter()
            .find(|c| !Self::taken(&self.record, *c))
    }

    /// The draw offer standing, if any.
    pub fn draw_offer(&self) -> Offer {
        Offer(self.record.draw_offer)
    }

    /// The rematch offer standing, if any.
    pub fn rematch_offer(&self) -> Offer {
        Offer(self.record.rematch_offer)
    }

    /// Time `c` has left at `now` when `turn` is to move (may be negative:
    /// the flag has fallen); `None` without a clock.
    pub fn remaining(&self, c: Color, turn: Color, now: i64) -> Option<i64> {
        if !self.record.timed() {
            return None;
        }
        let stored = self.record.ms[c];
        Some(match self.turn_origin {
            Some(origin) if c == turn => stored - (now - origin).max(0),
            _ => stored,
        })
    }

    /// Whether the side to move's flag has fallen at `now`.
    pub fn flag_fallen(&self, turn: Color, now: i64) -> bool {
        self.turn_origin.is_some()
            && self
                .remaining(turn, turn, now)
                .is_some_and(|left| left <= 0)
    }

    /// The clocks stopped at `now` (the game ended): the side to move is
    /// charged its time so far; offers lapse.
    pub fn stopped_record(&self, turn: Color, now: i64) -> OnlineRecord {
        let mut record = self.record.clone();
        if let Some(left) = self.remaining(turn, turn, now) {
            record.ms[turn] = left.max(0);
        }
        record.turn_started_at = None;
        record.draw_offer = None;
        record
    }

    /// What everybody may see of the game at `now`; `connected` says which
    /// players have it open.
    pub fn view(
        &self,
        turn: Color,
        plies: usize,
        ended: bool,
        now: i64,
        connected: [bool; 2],
    ) -> OnlineView {
        let timing = Timing::of_record(&self.record);
        let clock = self.record.timed().then(|| {
            let left = |color| self.remaining(color, turn, now).unwrap_or(0).max(0);
            ClockView {
                base_ms: timing.initial_ms(),
                increment_ms: timing.clock().map_or(0, |c| c.increment_ms),
                days: timing.days(),
                white_ms: left(Color::White),
                black_ms: left(Color::Black),
                running: (self.turn_origin.is_some() && !ended).then_some(turn),
                first_move_ms: self
                    .first_move_deadline
                    .filter(|_| !ended)
                    .map(|d| (d - now).max(0)),
            }
        });
        OnlineView {
            white: SeatView {
                taken: Self::taken(&self.record, Color::White),
                connected: connected[0],
                // Filled in by `LiveGames::view`, which knows the bots.
                title: None,
            },
            black: SeatView {
                taken: Self::taken(&self.record, Color::Black),
                connected: connected[1],
                // Filled in by `LiveGames::view`, which knows the bots.
                title: None,
            },
            clock,
            draw_offer: self.record.draw_offer,
            rematch_offer: self.record.rematch_offer,
            rematch_of: self.record.rematch_of.clone(),
            rematch_id: self.record.rematch_id.clone(),
            can_abort: !ended && !self.record.no_abort && (plies < 2 || !self.both_seated()),
            rated: false,
            ratings: self.record.ratings.into_array(),
            rating_diffs: self.record.rating_diffs.into_array(),
            berserked: self.record.berserked.into_array(),
            // Filled in by `LiveGames::view`, which knows the presence.
            spectators: 0,
        }
    }

    /// The ply at which `c` last offered a draw.
    pub fn draw_offered_at(&self, c: Color) -> Option<usize> {
        self.record.draw_offer_plies[c]
    }

    /// Keeps the flag timer just started (after [`OnlineState::cancel_timer`]
    /// stopped the one before and gave it its generation).
    pub fn keep_timer(&mut self, timer: AbortHandle) {
        self.timer = Some(timer);
    }

    /// Whether a flag timer is armed.
    pub fn has_timer(&self) -> bool {
        self.timer.is_some()
    }

    /// Forgets the timer that is running now (it is the one ending the game).
    pub fn forget_timer(&mut self) {
        self.timer = None;
    }

    /// Stops the flag timer, if one is armed.
    pub fn cancel_timer(&mut self) {
        self.timer_gen += 1;
        if let Some(t) = self.timer.take() {
            t.abort();
        }
    }
}
