//! The instances' bus over PostgreSQL: a notice is a `NOTIFY` on the
//! channel of this schema's servers (inside the transaction of the change
//! it tells, when there is one: then only if it commits); each server
//! hears them on a connection of its own (`listen.rs`).

use super::{listen, PgStore};
use async_trait::async_trait;
use deadpool_postgres::GenericClient;
use tensorchess_store::{
    Bus, GameStep, GameUpdate, MovesChange, Notice, StoreError, StoreNotice, MAX_STEP_NOTICE,
};

/// Sends `notice` on the servers' channel, as part of `c`'s transaction
/// when it is one (then only if it commits).
pub(crate) async fn send_notice(
    c: &impl GenericClient,
    channel: &str,
    notice: &Notice,
) -> Result<(), StoreError> {
    send_text(c, channel, &notice.to_string()).await
}

/// [`send_notice`] of a notice already written out.
pub(crate) async fn send_text(
    c: &impl GenericClient,
    channel: &str,
    text: &str,
) -> Result<(), StoreError> {
    let stmt = c.prepare_cached("SELECT pg_notify($1, $2)").await?;
    c.execute(&stmt, &[&channel, &text]).await?;
    Ok(())
}

impl PgStore {
    /// The notice of a commit: with its step when it was one plain move
    /// and the notice stays short.
    pub(crate) fn game_notice(&self, id: &str, moves: &MovesChange, update: &GameUpdate) -> String {
        let notice = |step| Notice::Game {
            id: id.to_string(),
            rev: update.rev,
            from: self.instance.get().cloned(),
            step,
        };
        if let Some(step) = GameStep::of(moves, update) {
            let text = notice(Some(Box::new(step))).to_string();
            if text.len() <= MAX_STEP_NOTICE {
                return text;
            }
        }
        notice(None).to_string()
    }
}

#[async_trait]
impl Bus for PgStore {
    fn shared(&self) -> bool {
        true
    }

    fn set_instance(&self, name: &str) {
        let _ = self.instance.set(name.to_string());
    }

    async fn notify(&self, notice: &Notice) -> Result<(), StoreError> {
        send_notice(&self.client().await?, &self.channel, notice).await
    }

    async fn listen(
        &self,
    ) -> Result<Option<tokio::sync::mpsc::UnboundedReceiver<StoreNotice>>, StoreError> {
        Ok(Some(listen::listen(
            self.config.clone(),
            self.channel.clone(),
        )))
    }
}
