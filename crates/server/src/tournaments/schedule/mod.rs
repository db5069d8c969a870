//! Scheduled tournaments: recurring tournaments the server makes itself
//! from a schedule (`serve --schedule FILE`, or [`Schedule::defaults`]: an
//! hourly Tensor Chess 3+2 arena and a daily Tensor Chess 5+3 Swiss of 7
//! rounds). Each occurrence is made `announce` before it starts, so that
//! players can join, by whichever instance looks first: its key (the
//! entry's key and its start) is unique in the database, so instances
//! racing, or one restarted, make it once (`Tournaments::create_scheduled`).
//!
//! The file is JSON: `{"tournaments": [ … ]}`, each entry as
//! [`entry::EntryFile`] reads it; a file with an entry that does not make
//! sense is refused whole, naming the entry.

mod create;
pub mod entry;
pub mod recurrence;

use super::Settings;
use crate::store::{TournamentRecord, TournamentState, SCHEDULE_CREATOR};
use recurrence::Recurrence;
use serde::Deserialize;
use std::collections::{BTreeMap, HashSet};
use std::path::Path;
use tensorchess_rules::VariantKind;

/// The schedule used when the server is given none.
const DEFAULTS: &str = include_str!("default.json");

/// Why a schedule is refused.
#[derive(Debug, thiserror::Error)]
pub enum ScheduleError {
    /// The file cannot be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// Not JSON, or not an object with a list `tournaments`.
    #[error("not a schedule (a JSON object with a list `tournaments`): {0}")]
    NotSchedule(serde_json::Error),
    /// An entry that does not make sense.
    #[error("tournament {number} ({name}): {why}")]
    Entry {
        /// Its place in the list, from 1.
        number: usize,
        /// Its name (or key), as written.
        name: String,
        /// What is wrong.
        why: String,
    },
}

/// A recurring tournament, checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScheduledTournament {
    /// What names its occurrences (with their start) across instances.
    pub key: String,
    /// Each occurrence's name.
    pub name: String,
    /// Its name in other languages, by language code.
    pub names: BTreeMap<String, String>,
    /// The game played.
    pub variant: VariantKind,
    /// Rated or not.
    pub rated: bool,
    /// Pairing system, clock, length, size.
    pub settings: Settings,
    /// When it starts.
    pub recurrence: Recurrence,
    /// How long before its start an occurrence is made (ms).
    pub announce_ms: i64,
}

impl ScheduledTournament {
    /// The key of its occurrence starting at `starts_at`.
    pub fn occurrence_key(&self, starts_at: i64) -> String {
        format!("{}@{starts_at}", self.key)
    }

    /// Its occurrence starting at `starts_at`, made at `now`, as stored.
    pub fn occurrence(&self, id: String, starts_at: i64, now: i64) -> TournamentRecord {
        TournamentRecord {
            id,
            kind: self.settings.kind,
            name: self.name.clone(),
            variant: self.variant,
            clock: self.settings.clock,
            rated: self.rated,
            starts_at,
            minutes: self.settings.minutes,
            rounds: self.settings.rounds,
            max_players: self.settings.max_players,
            created_by: SCHEDULE_CREATOR.to_string(),
            state: TournamentState::Upcoming,
            created_at: now,
            schedule_key: Some(self.occurrence_key(starts_at)),
            days: self.settings.days,
        }
    }

    /// The starts of the occurrences due to exist at `now`: after `now`,
    /// within `announce_ms`.
    pub fn due(&self, now: i64) -> impl Iterator<Item = i64> {
        self.recurrence
            .starts_between(now, now.saturating_add(self.announce_ms))
    }
}

/// The tournaments the server makes by itself.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Schedule {
    /// Each recurring tournament.
    pub entries: Vec<ScheduledTournament>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ScheduleFile {
    tournaments: Vec<serde_json::Value>,
}

impl Schedule {
    /// No scheduled tournaments (`serve --no-schedule`; tests).
    pub fn none() -> Schedule {
        Schedule::default()
    }

    /// An hourly Tensor Chess 3+2 arena of 57 minutes and a daily Tensor
    /// Chess 5+3 Swiss of 7 rounds (18:00 UTC), both rated.
    pub fn defaults() -> Schedule {
        // Checked by a test: never refused.
        Schedule::parse(DEFAULTS).unwrap_or_else(|e| {
            tracing::error!("the default schedule is refused: {e}");
            Schedule::none()
        })
    }

    /// The schedule in file `path`.
    pub fn read(path: &Path) -> Result<Schedule, ScheduleError> {
        let text = std::fs::read_to_string(path).map_err(|source| ScheduleError::Read {
            path: path.display().to_string(),
            source,
        })?;
        Schedule::parse(&text)
    }

    /// The schedule a file's text says, every entry checked.
    pub fn parse(text: &str) -> Result<Schedule, ScheduleError> {
        let file: ScheduleFile = serde_json::from_str(text).map_err(ScheduleError::NotSchedule)?;
        let mut keys = HashSet::new();
        let mut entries = Vec::with_capacity(file.tournaments.len());
        for (i, raw) in file.tournaments.into_iter().enumerate() {
            // Named by what the operator wrote, even when the rest is wrong.
            let name = ["name", "key"]
                .iter()
                .find_map(|f| raw.get(*f).and_then(|v| v.as_str()))
                .map_or_else(|| "no name".to_string(), |s| format!("{s:?}"));
            let refused = |why: String| ScheduleError::Entry {
                number: i + 1,
                name: name.clone(),
                why,
            };
            let entry: entry::EntryFile =
                serde_json::from_value(raw).map_err(|e| refused(e.to_string()))?;
            let checked = entry.check().map_err(refused)?;
            if !keys.insert(checked.key.clone()) {
                return Err(refused(format!(
                    "another tournament has the key {:?}: give each its own `key`",
                    checked.key
                )));
            }
            entries.push(checked);
        }
        Ok(Schedule { entries })
    }

    /// The names in other languages of the occurrence whose key is
    /// `occurrence_key` (`key@start`), when this schedule has its entry
    /// (an entry since removed, or renamed, has none).
    pub fn names_of(&self, occurrence_key: &str) -> Option<&BTreeMap<String, String>> {
        let (key, _) = occurrence_key.rsplit_once('@')?;
        self.entries
            .iter()
            .find(|e| e.key == key)
            .map(|e| &e.names)
            .filter(|n| !n.is_empty())
    }

    /// `t`'s names in other languages: a scheduled tournament's from its
    /// entry here, none for any other.
    pub fn names_for(&self, t: &TournamentRecord) -> BTreeMap<String, String> {
        t.schedule_key
            .as_deref()
            .and_then(|k| self.names_of(k))
            .cloned()
            .unwrap_or_default()
    }

    /// Whether it makes nothing.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

#[cfg(test)]
mod tests;
