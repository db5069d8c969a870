//! One tournament of a schedule file, as written, and its checks: the
//! same settings a player's tournament is held to, a recurrence whose
//! fields fit it, and how long before its start each occurrence is made.

use super::recurrence::{Recurrence, Weekday, DAY_MS, MINUTE_MS};
use super::ScheduledTournament;
use crate::requests::ClockRequest;
use crate::tournaments::{valid_name, KindRequest, Settings, MAX_LEAD_MS};
use serde::Deserialize;
use std::collections::BTreeMap;
use tensorchess_rules::VariantKind;

/// Most occurrences of one entry made ahead at a time: a short period
/// with a long `announce_minutes` would fill the lists.
pub const MAX_AHEAD: i64 = 48;
/// The shortest period of `every_minutes`.
pub const MIN_EVERY_MINUTES: u32 = 10;
/// The longest period of `every_minutes` (four weeks).
pub const MAX_EVERY_MINUTES: u32 = 4 * 7 * 24 * 60;
/// A key's most characters.
const KEY_LEN: usize = 60;

/// A tournament of the schedule file, as written.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct EntryFile {
    /// What names its occurrences across instances (its name if not
    /// said): change it and the next occurrence is made anew.
    #[serde(default)]
    pub key: Option<String>,
    /// `arena`, `swiss` or `round_robin`.
    pub kind: KindRequest,
    /// Each occurrence's name.
    pub name: String,
    /// Its name in other languages of the page, by language code
    /// (`{"uk": "…"}`): pages in that language show it instead.
    #[serde(default)]
    pub names: BTreeMap<String, String>,
    /// `tensor` (default), `chess` or `chessence`.
    #[serde(default, deserialize_with = "crate::requests::optional_variant")]
    pub variant: Option<VariantKind>,
    /// Every game's clock.
    pub clock: ClockRequest,
    /// Rated (the default): only accounts may join.
    #[serde(default = "rated_by_default")]
    pub rated: bool,
    /// An arena's length.
    #[serde(default)]
    pub minutes: Option<u32>,
    /// A Swiss's rounds.
    #[serde(default)]
    pub rounds: Option<u32>,
    /// Most players (100 if not said).
    #[serde(default)]
    pub max_players: Option<u32>,
    /// `hourly`, `daily` or `weekly` (or give `every_minutes`).
    #[serde(default)]
    pub every: Option<String>,
    /// A period in minutes, instead of `every`.
    #[serde(default)]
    pub every_minutes: Option<u32>,
    /// Minutes past the hour (or, with `every_minutes`, past each period
    /// counted from the epoch); 0 if not said.
    #[serde(default)]
    pub minute: Option<u32>,
    /// The hour, UTC (daily, weekly); 0 if not said.
    #[serde(default)]
    pub hour: Option<u32>,
    /// The day (weekly): `monday` … `sunday`.
    #[serde(default)]
    pub weekday: Option<String>,
    /// How long before its start an occurrence is made (and listed, so
    /// players can join): the period, at most a day, if not said.
    #[serde(default)]
    pub announce_minutes: Option<u32>,
}

fn rated_by_default() -> bool {
    true
}

impl EntryFile {
    /// The entry checked, or why not (a sentence for the operator).
    pub fn check(self) -> Result<ScheduledTournament, String> {
        let name = self.name.trim().to_string();
        if !valid_name(&name) {
            return Err(
                "`name` has 2 to 40 letters, digits, spaces, -, _ or ' (a tournament's name)"
                    .into(),
            );
        }
        let names = self.checked_names()?;
        let key = self.key.clone().unwrap_or_else(|| name.clone());
        if key.trim().is_empty() || key.chars().count() > KEY_LEN || key.contains('@') {
            return Err(format!(
                "`key` has 1 to {KEY_LEN} characters, not `@`: it names the occurrences"
            ));
        }
        let settings = Settings::check(
            self.kind,
            (Some(self.clock), None),
            self.minutes,
            self.rounds,
            self.max_players,
        )
        .map_err(|e| e.to_string())?;
        let recurrence = self.recurrence()?;
        let period = recurrence.period_ms();
        let announce_ms = match self.announce_minutes {
            Some(m) => i64::from(m) * MINUTE_MS,
            None => period.min(DAY_MS),
        };
        if !(MINUTE_MS..=MAX_LEAD_MS).contains(&announce_ms) {
            return Err(format!(
                "`announce_minutes` is 1 to {} (30 days)",
                MAX_LEAD_MS / MINUTE_MS
            ));
        }
        if announce_ms / period > MAX_AHEAD {
            return Err(format!(
                "`announce_minutes` would list more than {MAX_AHEAD} occurrences at once: \
                 make it at most {} for this period",
                MAX_AHEAD * period / MINUTE_MS
            ));
        }
        Ok(ScheduledTournament {
            key,
            name,
            names,
            variant: self.variant.unwrap_or_default(),
            rated: self.rated,
            settings,
            recurrence,
            announce_ms,
        })
    }

    /// `names` checked: each language a code of 2 or 3 small letters, each
    /// name a tournament's name.
    fn checked_names(&self) -> Result<BTreeMap<String, String>, String> {
        let mut names = BTreeMap::new();
        for (lang, name) in &self.names {
            if !(2..=3).contains(&lang.len()) || !lang.bytes().all(|b| b.is_ascii_lowercase()) {
                return Err(format!(
                    "`names` has language codes of 2 or 3 small letters (\"uk\"), not {lang:?}"
                ));
            }
            let name = name.trim();
            if !valid_name(name) {
                return Err(format!(
                    "`names.{lang}` has 2 to 40 letters, digits, spaces, -, _ or '"
                ));
            }
            names.insert(lang.clone(), name.to_string());
        }
        Ok(names)
    }

    /// The recurrence `every` (or `every_minutes`) with its fields.
    fn recurrence(&self) -> Result<Recurrence, String> {
        let minute = self.minute.unwrap_or(0);
        let hour = self.hour.unwrap_or(0);
        let no = |field: &str, what: &str| -> Result<(), String> {
            Err(format!("`{field}` is not for {what}"))
        };
        let r = match (self.every.as_deref(), self.every_minutes) {
            (Some(_), Some(_)) => {
                return Err("give `every` or `every_minutes`, not both".into());
            }
            (None, None) => {
                return Err(
                    "say when it recurs: `every` (hourly, daily, weekly) or `every_minutes`".into(),
                );
            }
            (Some("hourly"), None) => {
                if self.hour.is_some() {
                    no("hour", "an hourly tournament")?;
                }
                Recurrence::Hourly { minute }
            }
            (Some("daily"), None) => Recurrence::Daily { hour, minute },
            (Some("weekly"), None) => {
                let day = self
                    .weekday
                    .as_deref()
                    .ok_or("a weekly tournament needs `weekday`")?;
                let weekday = Weekday::parse(day)
                    .ok_or_else(|| format!("`weekday` {day:?} is not monday … sunday"))?;
                Recurrence::Weekly {
                    weekday,
                    hour,
                    minute,
                }
            }
            (Some(other), None) => {
                return Err(format!(
                    "`every` {other:?} is not hourly, daily or weekly (or use `every_minutes`)"
                ));
            }
            (None, Some(every)) => {
                if !(MIN_EVERY_MINUTES..=MAX_EVERY_MINUTES).contains(&every) {
                    return Err(format!(
                        "`every_minutes` is {MIN_EVERY_MINUTES} to {MAX_EVERY_MINUTES}"
                    ));
                }
                if self.hour.is_some() {
                    no("hour", "`every_minutes`")?;
                }
                if minute >= every {
                    return Err("`minute` is less than `every_minutes`".into());
                }
                Recurrence::Minutes {
                    every,
                    offset: minute,
                }
            }
        };
        if self.weekday.is_some() && !matches!(r, Recurrence::Weekly { .. }) {
            no("weekday", "a tournament that is not weekly")?;
        }
        if !matches!(r, Recurrence::Minutes { .. }) && minute > 59 {
            return Err("`minute` is 0 to 59".into());
        }
        if hour > 23 {
            return Err("`hour` is 0 to 23 (UTC)".into());
        }
        Ok(r)
    }
}
