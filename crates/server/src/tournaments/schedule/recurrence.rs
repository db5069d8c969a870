//! When a scheduled tournament recurs: every hour at a minute, every day
//! at a time, every week on a day at a time, or every so many minutes, all
//! in UTC and counted from the Unix epoch, so that every instance (and a
//! restarted one) computes the same starts from the same file.

/// Milliseconds in a minute.
pub const MINUTE_MS: i64 = 60_000;
/// Milliseconds in an hour.
pub const HOUR_MS: i64 = 60 * MINUTE_MS;
/// Milliseconds in a day.
pub const DAY_MS: i64 = 24 * HOUR_MS;
/// Milliseconds in a week.
pub const WEEK_MS: i64 = 7 * DAY_MS;
/// The first Monday 00:00 UTC after the epoch (1970-01-05; the epoch was
/// a Thursday): where weeks start.
const FIRST_MONDAY_MS: i64 = 4 * DAY_MS;

/// A day of the week.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Weekday {
    /// Monday.
    Monday,
    /// Tuesday.
    Tuesday,
    /// Wednesday.
    Wednesday,
    /// Thursday.
    Thursday,
    /// Friday.
    Friday,
    /// Saturday.
    Saturday,
    /// Sunday.
    Sunday,
}

impl Weekday {
    /// The day an English name (or its first three letters) names, in any case.
    pub fn parse(s: &str) -> Option<Weekday> {
        const DAYS: [(&str, Weekday); 7] = [
            ("monday", Weekday::Monday),
            ("tuesday", Weekday::Tuesday),
            ("wednesday", Weekday::Wednesday),
            ("thursday", Weekday::Thursday),
            ("friday", Weekday::Friday),
            ("saturday", Weekday::Saturday),
            ("sunday", Weekday::Sunday),
        ];
        let s = s.to_ascii_lowercase();
        DAYS.iter()
            .find(|(name, _)| *name == s || (s.len() == 3 && name.starts_with(&s)))
            .map(|(_, d)| *d)
    }

    /// Days after Monday.
    fn index(self) -> i64 {
        self as i64
    }
}

/// How often, and when, a scheduled tournament starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Recurrence {
    /// Every hour, at `minute` past.
    Hourly {
        /// 0 to 59.
        minute: u32,
    },
    /// Every day at `hour:minute` UTC.
    Daily {
        /// 0 to 23.
        hour: u32,
        /// 0 to 59.
        minute: u32,
    },
    /// Every week on `weekday` at `hour:minute` UTC.
    Weekly {
        /// The day.
        weekday: Weekday,
        /// 0 to 23.
        hour: u32,
        /// 0 to 59.
        minute: u32,
    },
    /// Every `every` minutes, at the minutes since the epoch that leave
    /// `offset` when divided by `every` (0: at multiples of `every`).
    Minutes {
        /// The period, in minutes.
        every: u32,
        /// Less than `every`.
        offset: u32,
    },
}

impl Recurrence {
    /// The time between two starts (ms).
    pub fn period_ms(self) -> i64 {
        match self {
            Recurrence::Hourly { .. } => HOUR_MS,
            Recurrence::Daily { .. } => DAY_MS,
            Recurrence::Weekly { .. } => WEEK_MS,
            Recurrence::Minutes { every, .. } => i64::from(every) * MINUTE_MS,
        }
    }

    /// One start (ms since the epoch): every other is a whole number of
    /// periods away.
    fn anchor_ms(self) -> i64 {
        let at = |hour: u32, minute: u32| i64::from(hour) * HOUR_MS + i64::from(minute) * MINUTE_MS;
        match self {
            Recurrence::Hourly { minute } => at(0, minute),
            Recurrence::Daily { hour, minute } => at(hour, minute),
            Recurrence::Weekly {
                weekday,
                hour,
                minute,
            } => FIRST_MONDAY_MS + weekday.index() * DAY_MS + at(hour, minute),
            Recurrence::Minutes { offset, .. } => i64::from(offset) * MINUTE_MS,
        }
    }

    /// The first start strictly after `t` (ms since the epoch).
    pub fn next_after(self, t: i64) -> i64 {
        let (anchor, period) = (self.anchor_ms(), self.period_ms());
        let periods = (t.saturating_sub(anchor)).div_euclid(period);
        anchor.saturating_add(periods.saturating_add(1).saturating_mul(period))
    }

    /// The starts after `after` and at or before `until`, soonest first.
    pub fn starts_between(self, after: i64, until: i64) -> impl Iterator<Item = i64> {
        let period = self.period_ms();
        std::iter::successors(Some(self.next_after(after)), move |s| s.checked_add(period))
            .take_while(move |s| *s <= until)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2026-12-03 (a Thursday) 00:00 UTC.
    const DEC_3: i64 = 1_796_256_000_000;

    #[test]
    fn the_test_day_is_a_thursday_at_midnight() {
        assert_eq!(DEC_3 % DAY_MS, 0);
        // Days since the first Monday, modulo a week: Thursday is 3.
        assert_eq!(((DEC_3 - FIRST_MONDAY_MS) / DAY_MS) % 7, 3);
    }

    #[test]
    fn hourly_starts_at_its_minute_of_the_next_hour() {
        let r = Recurrence::Hourly { minute: 0 };
        assert_eq!(r.next_after(DEC_3), DEC_3 + HOUR_MS);
        assert_eq!(r.next_after(DEC_3 - 1), DEC_3);
        assert_eq!(r.next_after(DEC_3 + 59 * MINUTE_MS), DEC_3 + HOUR_MS);
        let r = Recurrence::Hourly { minute: 30 };
        assert_eq!(r.next_after(DEC_3), DEC_3 + 30 * MINUTE_MS);
        assert_eq!(r.next_after(DEC_3 + 30 * MINUTE_MS), DEC_3 + 90 * MINUTE_MS);
        // Across midnight: 23:45 is followed by 00:30 the next day.
        let late = DEC_3 + 23 * HOUR_MS + 45 * MINUTE_MS;
        assert_eq!(r.next_after(late), DEC_3 + DAY_MS + 30 * MINUTE_MS);
    }

    #[test]
    fn daily_starts_today_or_tomorrow() {
        let r = Recurrence::Daily {
            hour: 17,
            minute: 0,
        };
        let five_pm = DEC_3 + 17 * HOUR_MS;
        assert_eq!(r.next_after(DEC_3), five_pm);
        assert_eq!(r.next_after(five_pm - 1), five_pm);
        assert_eq!(r.next_after(five_pm), five_pm + DAY_MS);
        assert_eq!(r.next_after(DEC_3 + 23 * HOUR_MS), five_pm + DAY_MS);
        // Across a month's and a year's end: 2026-12-31 18:00 → 2027-01-01 17:00.
        let new_year_eve = DEC_3 + 28 * DAY_MS + 18 * HOUR_MS;
        assert_eq!(
            r.next_after(new_year_eve),
            DEC_3 + 29 * DAY_MS + 17 * HOUR_MS
        );
    }

    #[test]
    fn weekly_starts_on_its_day() {
        let saturday_noon = Recurrence::Weekly {
            weekday: Weekday::Saturday,
            hour: 12,
            minute: 0,
        };
        // Thursday → Saturday two days later.
        let first = DEC_3 + 2 * DAY_MS + 12 * HOUR_MS;
        assert_eq!(saturday_noon.next_after(DEC_3), first);
        assert_eq!(saturday_noon.next_after(first), first + WEEK_MS);
        let thursday = Recurrence::Weekly {
            weekday: Weekday::Thursday,
            hour: 0,
            minute: 0,
        };
        assert_eq!(thursday.next_after(DEC_3 - 1), DEC_3);
        assert_eq!(thursday.next_after(DEC_3), DEC_3 + WEEK_MS);
    }

    #[test]
    fn every_few_minutes_counts_from_the_epoch() {
        let r = Recurrence::Minutes {
            every: 20,
            offset: 5,
        };
        assert_eq!(r.next_after(DEC_3), DEC_3 + 5 * MINUTE_MS);
        assert_eq!(r.next_after(DEC_3 + 5 * MINUTE_MS), DEC_3 + 25 * MINUTE_MS);
        assert_eq!(
            r.next_after(DEC_3 + 50 * MINUTE_MS),
            DEC_3 + HOUR_MS + 5 * MINUTE_MS
        );
        // Before the epoch too (a test clock may stand anywhere).
        assert_eq!(
            Recurrence::Hourly { minute: 0 }.next_after(-1),
            0,
            "the hour after -1 ms is the epoch"
        );
    }

    #[test]
    fn starts_between_lists_each_start_in_the_window() {
        let r = Recurrence::Hourly { minute: 0 };
        let starts: Vec<i64> = r.starts_between(DEC_3 - 1, DEC_3 + 3 * HOUR_MS).collect();
        assert_eq!(
            starts,
            vec![
                DEC_3,
                DEC_3 + HOUR_MS,
                DEC_3 + 2 * HOUR_MS,
                DEC_3 + 3 * HOUR_MS
            ]
        );
        assert_eq!(r.starts_between(DEC_3, DEC_3 + HOUR_MS - 1).count(), 0);
    }

    #[test]
    fn weekdays_are_read_by_name() {
        assert_eq!(Weekday::parse("Saturday"), Some(Weekday::Saturday));
        assert_eq!(Weekday::parse("sun"), Some(Weekday::Sunday));
        assert_eq!(Weekday::parse("s"), None);
        assert_eq!(Weekday::parse("funday"), None);
    }
}
