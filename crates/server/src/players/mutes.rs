//! Mutes as they hold wherever a player speaks (chat lines, decline
//! reasons): the operator's mute of a player, and of guests at a muted
//! player's address.

use crate::error::AppError;
use crate::identity::Me;
use crate::kind::Kind;
use crate::store::GameStore;
use std::sync::Arc;

/// How long guests at the address of a muted player are muted with them:
/// a day, renewed each time the muted player is refused or logs out (so
/// that logging out, or a fresh browser there, is no way around the
/// mute; accounts at that address are not held).
pub const ADDRESS_MUTE_MS: i64 = 24 * 3_600_000;

/// The refusal of a muted player's words (`403 muted`).
pub fn muted_refusal() -> AppError {
    AppError::refused(
        Kind::Muted,
        "Your chat is muted on this server: your messages are not sent",
    )
}

/// Whether `me` (a `guest`, or not) may not speak now: the operator muted
/// the player, or, for a guest, a muted player at their address. A muted
/// player seen here mutes guests at their address too (for
/// [`ADDRESS_MUTE_MS`], at most as long as their own mute).
pub async fn muted(
    store: &Arc<dyn GameStore>,
    me: &Me,
    guest: bool,
    now: i64,
) -> Result<bool, AppError> {
    let address = (!me.client.exempt).then(|| me.client.key().to_string());
    if let Some(until) = store.chat_muted_until(&me.id).await?.filter(|u| *u > now) {
        if let Some(address) = &address {
            let held = until.min(now.saturating_add(ADDRESS_MUTE_MS));
            store.mute_address(address, held).await?;
        }
        return Ok(true);
    }
    match (&address, guest) {
        (Some(address), true) => Ok(store
            .address_muted_until(address)
            .await?
            .is_some_and(|until| until > now)),
        _ => Ok(false),
    }
}
