//! Making the scheduled tournaments due: on each pass (the server's
//! background work runs one at start and then every
//! `schedule_every_ms` of its clock), every occurrence starting within its
//! entry's `announce` is made unless it exists. The store makes each key
//! once, so a pass repeated, run by several instances at once, or by a
//! server restarted, makes no second copy.

use crate::error::AppError;
use crate::ids::new_id;
use crate::store::TournamentRecord;
use crate::tournaments::Tournaments;

impl Tournaments {
    /// Makes the occurrences of the server's schedule due at `now` that do
    /// not exist yet; answers those this call made.
    pub async fn create_scheduled(&self, now: i64) -> Result<Vec<TournamentRecord>, AppError> {
        let schedule = self.schedule();
        let store = self.live.store();
        let mut made = Vec::new();
        for entry in &schedule.entries {
            for starts_at in entry.due(now) {
                let t = entry.occurrence(new_id(), starts_at, now);
                if store.create_scheduled_tournament(&t).await? {
                    tracing::info!(
                        "scheduled tournament {} ({}) made: starts at {starts_at}",
                        t.id,
                        t.name
                    );
                    made.push(t);
                }
            }
        }
        Ok(made)
    }
}
