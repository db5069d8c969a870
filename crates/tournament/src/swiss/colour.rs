//! Colour preferences and their allocation (FIDE C.04.3, A.6 and E).
//!
//! With the colour difference CD = games with White − games with Black
//! (games played over the board only):
//!
//! * **absolute**: CD < −1 or CD > +1, or the same colour in the last two
//!   games played — the other colour;
//! * **strong**: CD = ±1 — the colour that evens it;
//! * **mild**: CD = 0 — the other colour than in the last game;
//! * **none**: no game played yet.
//!
//! Two players with the same absolute preference never meet (an absolute
//! criterion), so no one gets a colour three times in a row or a
//! difference beyond ±2 — except in the last round, where a topscorer
//! (more than half the points possible) may meet a player with the same
//! absolute preference (C.04.3 C.3); the wider colour difference then gets
//! its preference (E.2).

use super::history::PlayerRecord;
use crate::player::Side;

/// How much a player wants a colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Strength {
    /// No game played yet.
    None,
    /// Colours are even: alternate.
    Mild,
    /// One game more with one colour.
    Strong,
    /// Must have it.
    Absolute,
}

/// A player's colour preference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Preference {
    /// The colour wanted (meaningless when the strength is `None`).
    pub side: Side,
    /// How much.
    pub strength: Strength,
}

/// Games with White − games with Black, over the games played.
pub(crate) fn colour_difference(record: &PlayerRecord) -> i64 {
    record
        .colours()
        .map(|s| if s == Side::White { 1 } else { -1 })
        .sum()
}

/// The player's colour preference for the next round.
pub(crate) fn preference(record: &PlayerRecord) -> Preference {
    let colours: Vec<Side> = record.colours().collect();
    let Some(&last) = colours.last() else {
        return Preference {
            side: Side::White,
            strength: Strength::None,
        };
    };
    let difference = colour_difference(record);
    let twice_in_a_row = colours.len() >= 2 && colours[colours.len() - 2] == last;
    let towards_balance = if difference > 0 {
        Side::Black
    } else {
        Side::White
    };
    if difference.abs() > 1 {
        Preference {
            side: towards_balance,
            strength: Strength::Absolute,
        }
    } else if twice_in_a_row {
        Preference {
            side: last.opposite(),
            strength: Strength::Absolute,
        }
    } else if difference != 0 {
        Preference {
            side: towards_balance,
            strength: Strength::Strong,
        }
    } else {
        Preference {
            side: last.opposite(),
            strength: Strength::Mild,
        }
    }
}

/// Whether two players may meet as far as colours go: not both with an
/// absolute preference for the same colour.
pub(crate) fn colours_compatible(a: &PlayerRecord, b: &PlayerRecord) -> bool {
    let (pa, pb) = (preference(a), preference(b));
    !(pa.strength == Strength::Absolute && pb.strength == Strength::Absolute && pa.side == pb.side)
}

/// The colours of a pairing (rules C.04.3 E.1–E.5): `higher` is the
/// higher-ranked player (more points, then the lower pairing number).
/// Returns the colour `higher` gets, and the strongest preference the
/// allocation leaves unmet (`Strength::None` when all are met).
pub(crate) fn allocate(
    higher: &PlayerRecord,
    lower: &PlayerRecord,
    initial_colour: Side,
) -> (Side, Strength) {
    let (ph, pl) = (preference(higher), preference(lower));
    let side = allocate_side(higher, lower, ph, pl, initial_colour);
    let unmet = |p: Preference, got: Side| {
        if p.strength != Strength::None && p.side != got {
            p.strength
        } else {
            Strength::None
        }
    };
    (side, unmet(ph, side).max(unmet(pl, side.opposite())))
}

/// How many of the two players would not get their colour preference if
/// they met (C.04.3 C.12), and how many of those had a strong or absolute
/// one (C.13).
pub(crate) fn unmet_preferences(
    higher: &PlayerRecord,
    lower: &PlayerRecord,
    initial_colour: Side,
) -> (u32, u32) {
    let (side, _) = allocate(higher, lower, initial_colour);
    let mut unmet = (0, 0);
    for (p, got) in [
        (preference(higher), side),
        (preference(lower), side.opposite()),
    ] {
        if p.strength != Strength::None && p.side != got {
            unmet.0 += 1;
            if p.strength >= Strength::Strong {
                unmet.1 += 1;
            }
        }
    }
    unmet
}

fn allocate_side(
    higher: &PlayerRecord,
    lower: &PlayerRecord,
    ph: Preference,
    pl: Preference,
    initial_colour: Side,
) -> Side {
    use Strength::None as NoPreference;
    match (ph.strength, pl.strength) {
        // E.5 (and round 1): the higher-ranked player with an odd pairing
        // number gets the initial colour.
        (NoPreference, NoPreference) => {
            if higher.pairing_number % 2 == 1 {
                initial_colour
            } else {
                initial_colour.opposite()
            }
        }
        // E.1: compatible preferences are both granted.
        (NoPreference, _) => pl.side.opposite(),
        (_, NoPreference) => ph.side,
        _ if ph.side != pl.side => ph.side,
        // E.2: the stronger preference.
        (h, l) if h > l => ph.side,
        (h, l) if l > h => pl.side.opposite(),
        // E.2 for two absolute preferences (topscorers in the last round):
        // the wider colour difference.
        (Strength::Absolute, Strength::Absolute)
            if colour_difference(higher).abs() != colour_difference(lower).abs() =>
        {
            if colour_difference(higher).abs() > colour_difference(lower).abs() {
                ph.side
            } else {
                pl.side.opposite()
            }
        }
        // E.3: alternate from the latest game in which their colours
        // differed, each one's games played counted back from the last
        // (rounds without a game skipped, as bbpPairings reads it); E.4:
        // else the higher-ranked player's preference.
        _ => {
            let latest_difference = higher
                .colours()
                .rev()
                .zip(lower.colours().rev())
                .find_map(|(h, l)| (h != l).then_some(h));
            match latest_difference {
                Some(had) => had.opposite(),
                None => ph.side,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::PlayerKey;
    use crate::standings::HalfPoints;
    use Side::{Black as B, White as W};

    fn record(number: u32, colours: &[Option<Side>]) -> PlayerRecord {
        PlayerRecord {
            key: PlayerKey(u64::from(number)),
            pairing_number: number,
            score: HalfPoints(0),
            colours_by_round: colours.to_vec(),
            opponents: Default::default(),
            had_point_without_playing: false,
            present: true,
            last_float: None,
            float_two_back: None,
        }
    }

    #[test]
    fn preferences_follow_a6() {
        let p = |c: &[Option<Side>]| {
            let pref = preference(&record(1, c));
            (pref.side, pref.strength)
        };
        assert_eq!(p(&[]).1, Strength::None);
        assert_eq!(p(&[Some(W)]), (B, Strength::Strong));
        assert_eq!(p(&[Some(W), Some(B)]), (W, Strength::Mild));
        assert_eq!(p(&[Some(B), Some(B)]), (W, Strength::Absolute));
        assert_eq!(
            p(&[Some(B), None, Some(B)]),
            (W, Strength::Absolute),
            "byes do not break it"
        );
        assert_eq!(p(&[Some(W), Some(B), Some(W)]), (B, Strength::Strong));
        assert_eq!(
            p(&[Some(B), Some(W), Some(W), Some(B), Some(W)]),
            (B, Strength::Strong)
        );
    }

    #[test]
    fn allocation_follows_e1_to_e5() {
        // E.5: round 1, odd pairing number gets the initial colour.
        assert_eq!(
            allocate(&record(1, &[]), &record(5, &[]), W),
            (W, Strength::None)
        );
        assert_eq!(
            allocate(&record(2, &[]), &record(6, &[]), W),
            (B, Strength::None)
        );
        // E.1: both granted.
        assert_eq!(
            allocate(&record(1, &[Some(W)]), &record(2, &[Some(B)]), W),
            (B, Strength::None)
        );
        // E.2: the absolute preference wins over the strong one.
        let absolute_white = record(2, &[Some(B), Some(B)]);
        assert_eq!(
            allocate(&record(1, &[Some(B), Some(W), Some(W)]), &absolute_white, W).0,
            B
        );
        let (side, unmet) = allocate(&absolute_white, &record(3, &[Some(B)]), W);
        assert_eq!((side, unmet), (W, Strength::Strong));
        // E.3: both mildly want Black; they last differed in round 2, when
        // the higher-ranked had Black: now he has White (E.4 would say Black).
        let h = record(1, &[Some(W), Some(B), Some(B), Some(W)]);
        let l = record(2, &[Some(B), Some(W), Some(B), Some(W)]);
        assert_eq!(allocate(&h, &l, W), (W, Strength::Mild));
    }
}
