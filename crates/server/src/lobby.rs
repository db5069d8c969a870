//! The lobby: open seeks anyone may accept. A seek lapses after 30 minutes,
//! when its creator's last page (WebSocket) closes, or within a minute if
//! its creator has no page open at all (a script posting seeks). Pairing is
//! one write (the seek goes, the game comes), so one seek never makes two
//! games.
//!
//! The `lobby` topic sends the list once, on subscription; then only
//! changes: `seek_added` (one seek's view) and `seek_removed` (ids), and a
//! `paired` event naming the game a seek became. A seek's view is made once
//! (its player's name and rating read when it is posted, or when first
//! listed) and kept while the seek is open, so a list costs one query.
//!
//! Seeks are capped per player, per client address and in all, so that
//! many throwaway guests cannot fill the lobby.

use super::client::Client;
use super::error::AppError;
use super::hub::Hub;
use super::ids::new_id;
use super::players::{Me, Players};
use super::requests::{ColorChoice, SeekRequest};
use super::store::{Notice, RatingPool, SeekRecord};
use super::views::{GameView, PlayerView, RatedPlayerView, SeekView, ServerEvent};
use crate::kind::Kind;
use crate::round::live::LiveGames;
use crate::round::online::pairing::Pairing;
use crate::round::online::timing::Timing;
use crate::round::online::{OnlineGames, Origin};
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use tensorchess_rules::ByColor;

/// How long a seek stays open.
pub const SEEK_LIFETIME_MS: i64 = 30 * 60_000;
/// A seek whose creator has no page open on any server lapses once it is
/// this old (the sweep that removes it runs every 15 s: within a minute).
pub const ABSENT_CREATOR_MS: i64 = 45_000;
/// Open seeks one player may have.
pub const MAX_SEEKS_PER_PLAYER: usize = 3;
/// Open seeks from one client address (a family, a club behind one
/// address: a few players' worth).
pub const MAX_SEEKS_PER_ADDRESS: usize = 6;
/// Open seeks in all.
pub const MAX_OPEN_SEEKS: usize = 500;
use crate::topic::HubTopic;
pub use crate::topic::LOBBY_TOPIC;

/// The lobby service.
pub struct Lobby {
    live: Arc<LiveGames>,
    online: Arc<OnlineGames>,
    players: Arc<Players>,
    /// The views of the open seeks, by id.
    views: Mutex<HashMap<String, SeekView>>,
}

fn hub_of(live: &LiveGames) -> &Arc<Hub> {
    live.hub()
}

fn refused_seek(why: String) -> AppError {
    AppError::refused(Kind::TooManySeeks, why)
}

impl Lobby {
    /// The lobby, pairing seeks into online games of `online`.
    pub fn new(live: Arc<LiveGames>, online: Arc<OnlineGames>, players: Arc<Players>) -> Lobby {
        Lobby {
            live,
            online,
            players,
            views: Mutex::new(HashMap::new()),
        }
    }

    fn views(&self) -> std::sync::MutexGuard<'_, HashMap<String, SeekView>> {
        self.views.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Posts a seek for `me`.
    pub async fn create(&self, me: &Me, req: SeekRequest) -> Result<SeekView, AppError> {
        let variant = req.variant;
        let clock = OnlineGames::clock_settings(req.clock)?;
        let color = req.color.unwrap_or(ColorChoice::RANDOM).0;
        if req.rated && !self.players.has_account(&me.id).await? {
            return Err(crate::players::rated_needs_account());
        }
        if self.live.store().is_bot(&me.id).await? {
            return Err(AppError::refused(
                Kind::BotAccount,
                "Bot accounts do not post seeks in the lobby: they play through challenges",
            ));
        }
        let now = self.live.now();
        let store = self.live.store();
        let open = store.open_seeks(now).await?;
        check_caps(&open, &me.id, &me.client)?;
        let seek = SeekRecord {
            id: new_id(),
            player_id: me.id.to_string(),
            variant,
            clock,
            rated: req.rated,
            color,
            created_at: now,
            expires_at: now + SEEK_LIFETIME_MS,
            client: Some(me.client.key().to_string()),
        };
        store.create_seek(&seek).await?;
        let view = self.view(&seek).await?;
        self.added(view.clone());
        Ok(view)
    }

    /// The seeks open now, oldest first.
    pub async fn list(&self) -> Result<Vec<SeekView>, AppError> {
        let seeks = self.live.store().open_seeks(self.live.now()).await?;
        let mut out = Vec::with_capacity(seeks.len());
        for s in &seeks {
            out.push(self.view(s).await?);
        }
        // Views of seeks no longer open are dropped.
        let open: HashSet<&str> = seeks.iter().map(|s| s.id.as_str()).collect();
        self.views().retain(|id, _| open.contains(id.as_str()));
        Ok(out)
    }

    /// A seek's view: kept from before, or made now (two reads) and kept.
    async fn view(&self, s: &SeekRecord) -> Result<SeekView, AppError> {
        if let Some(v) = self.views().get(&s.id) {
            return Ok(v.clone());
        }
        let player = self.players.record(&s.player_id).await?;
        let rating = self
            .live
            .rating_of(&s.player_id, RatingPool::real_time(s.variant))
            .await?;
        let view = SeekView {
            id: s.id.clone(),
            variant: s.variant,
            variant_title: s.variant.into(),
            clock: s.clock.map(super::views::ClockSpecView::from),
            rated: s.rated,
            color: s.color,
            player: RatedPlayerView {
                // Bot accounts play by challenges only (never seek).
                player: PlayerView {
                    id: player.id,
                    name: player.name,
                    account: player.account,
                    title: None,
                },
                rating: rating.rating.round() as i32,
                provisional: rating.rd > crate::rating::PROVISIONAL_RD,
            },
            created_at: s.created_at,
            expires_at: s.expires_at,
        };
        self.views().insert(s.id.clone(), view.clone());
        Ok(view)
    }

    /// Cancels one of `me`'s seeks.
    pub async fn cancel(&self, me: &Me, id: &str) -> Result<(), AppError> {
        if !self.live.store().delete_seek(id, Some(&me.id)).await? {
            return Err(AppError::NotFound(format!("You have no seek {id}")));
        }
        self.removed(vec![id.to_string()]);
        Ok(())
    }

    /// Accepts a seek: the online game it becomes, with both seats taken.
    pub async fn accept(&self, me: &Me, id: &str) -> Result<GameView, AppError> {
        let now = self.live.now();
        let seek = self
            .live
            .store()
            .open_seeks(now)
            .await?
            .into_iter()
            .find(|s| s.id == id)
            .ok_or_else(|| AppError::NotFound(format!("There is no open seek {id}")))?;
        if seek.player_id == me.id {
            return Err(AppError::Conflict(
                "That is your own seek: wait for someone to accept it".into(),
            ));
        }
        if seek.rated && !self.players.has_account(&me.id).await? {
            return Err(crate::players::rated_needs_account());
        }
        if seek.rated && self.live.store().is_bot(&me.id).await? {
            return Err(AppError::refused(
                Kind::BotAccount,
                "Bot accounts play rated games through challenges, not the lobby",
            ));
        }
        let pairing = Pairing {
            variant: seek.variant,
            timing: seek.clock.map_or(Timing::Untimed, Timing::Clock),
            rated: seek.rated,
            maker: (&seek.player_id, seek.color),
            taker: &me.id,
            names: [
                self.players.name_of(&seek.player_id).await?,
                self.players.name_of(&me.id).await?,
            ],
            origin: Origin::Seek(&seek.id),
        };
        let (arc, seats) = self.online.start_paired(pairing).await?;
        let ByColor { white, black } = seats;
        let view = {
            let lg = arc.lock().await;
            self.online.view_for(&lg, me)
        };
        let cluster = self.live.cluster();
        cluster.send(Notice::Paired {
            from: cluster.instance().to_string(),
            seek: seek.id.clone(),
            game: view.id.clone(),
            players: [white.clone(), black.clone()],
        });
        hub_of(&self.live).publish(
            &HubTopic::Lobby,
            ServerEvent::Paired {
                topic: LOBBY_TOPIC.to_string(),
                seek: seek.id.clone(),
                game: view.id.clone(),
                players: [white, black],
            },
        );
        self.removed(vec![seek.id]);
        Ok(view)
    }

    /// Removes the seeks that lapsed, and those whose creator has had no
    /// page open on any server for [`ABSENT_CREATOR_MS`]; tells the lobby.
    pub async fn sweep(&self) {
        let store = self.live.store();
        let now = self.live.now();
        let mut gone = match store.delete_lapsed_seeks(now).await {
            Ok(ids) => ids,
            Err(e) => {
                tracing::error!("lapsed seeks were not removed: {e}");
                Vec::new()
            }
        };
        let open = match store.open_seeks(now).await {
            Ok(open) => open,
            Err(e) => {
                tracing::error!("open seeks could not be read: {e}");
                return self.removed(gone);
            }
        };
        let presence = self.live.presence();
        for s in &open {
            if now - s.created_at >= ABSENT_CREATOR_MS && !presence.is_here(&s.player_id) {
                match store.delete_seek(&s.id, None).await {
                    Ok(true) => gone.push(s.id.clone()),
                    Ok(false) => {}
                    Err(e) => tracing::error!("seek {} was not removed: {e}", s.id),
                }
            }
        }
        // Seeks removed behind the lobby's back (an operator's ban) go too.
        let still: HashSet<&str> = open.iter().map(|s| s.id.as_str()).collect();
        let behind: Vec<String> = self
            .views()
            .keys()
            .filter(|id| !still.contains(id.as_str()) && !gone.contains(id))
            .cloned()
            .collect();
        gone.extend(behind);
        self.removed(gone);
    }

    /// `player`'s last page closed: their seeks go.
    pub async fn player_left(&self, player: &str) {
        match self.live.store().delete_seeks_of(player).await {
            Ok(ids) => self.removed(ids),
            Err(e) => tracing::error!("seeks of {player} were not removed: {e}"),
        }
    }

    /// The lobby's state for a new subscriber.
    pub async fn snapshot(&self) -> Result<ServerEvent, AppError> {
        Ok(ServerEvent::Lobby {
            topic: LOBBY_TOPIC.to_string(),
            seeks: self.list().await?,
        })
    }

    /// A seek was posted here: the lobby's subscribers, here and on the
    /// other servers, hear of it.
    fn added(&self, view: SeekView) {
        let cluster = self.live.cluster();
        if cluster.is_shared() {
            let event = ServerEvent::SeekAdded {
                topic: LOBBY_TOPIC.to_string(),
                seek: view.clone(),
            };
            match serde_json::to_string(&event) {
                Ok(text) => cluster.send(Notice::SeekAdded {
                    from: cluster.instance().to_string(),
                    text,
                }),
                Err(e) => tracing::error!("a seek could not be announced: {e}"),
            }
        }
        self.announce_added(view);
    }

    /// Seeks went here: the lobby's subscribers, here and on the other
    /// servers, hear of it.
    fn removed(&self, ids: Vec<String>) {
        if ids.is_empty() {
            return;
        }
        let cluster = self.live.cluster();
        cluster.send(Notice::SeeksRemoved {
            from: cluster.instance().to_string(),
            ids: ids.clone(),
        });
        self.announce_removed(ids);
    }

    /// Tells the lobby's subscribers here of a new seek (posted here or on
    /// another server).
    pub fn announce_added(&self, view: SeekView) {
        self.views().insert(view.id.clone(), view.clone());
        hub_of(&self.live).publish(
            &HubTopic::Lobby,
            ServerEvent::SeekAdded {
                topic: LOBBY_TOPIC.to_string(),
                seek: view,
            },
        );
    }

    /// Tells the lobby's subscribers here of a seek posted on another
    /// server (its `seek_added` event as that server serialized it).
    pub fn announce_added_elsewhere(&self, text: String) {
        match serde_json::from_str::<ServerEvent>(&text) {
            Ok(event @ ServerEvent::SeekAdded { .. }) => {
                hub_of(&self.live).publish_serialized(&HubTopic::Lobby, event, text);
            }
            Ok(other) => tracing::warn!("a seek's notice was not a seek: {other:?}"),
            Err(e) => tracing::warn!("a seek's notice could not be read: {e}"),
        }
    }

    /// Sends the lobby's subscribers here the whole list again (after this
    /// server missed the others' notices).
    pub async fn announce_all(&self) {
        let hub = hub_of(&self.live);
        if hub.subscriber_count(&HubTopic::Lobby) == 0 {
            return;
        }
        match self.snapshot().await {
            Ok(event) => {
                hub.publish(&HubTopic::Lobby, event);
            }
            Err(e) => tracing::error!("the lobby could not be announced: {e}"),
        }
    }

    /// Tells the lobby's subscribers here that seeks went.
    pub fn announce_removed(&self, ids: Vec<String>) {
        {
            let mut views = self.views();
            for id in &ids {
                views.remove(id);
            }
        }
        hub_of(&self.live).publish(
            &HubTopic::Lobby,
            ServerEvent::SeekRemoved {
                topic: LOBBY_TOPIC.to_string(),
                ids,
            },
        );
    }

    /// Open seeks whose view is kept (for the health counters).
    pub fn open_seeks(&self) -> usize {
        self.views().len()
    }
}

/// Refuses a seek past the caps: per player, per client address, in all.
fn check_caps(open: &[SeekRecord], player: &str, client: &Client) -> Result<(), AppError> {
    if open.len() >= MAX_OPEN_SEEKS {
        return Err(AppError::refused(
            Kind::LobbyFull,
            "The lobby is full: accept one of its seeks, or try again in a minute",
        ));
    }
    let mine = open.iter().filter(|s| s.player_id == player).count();
    if mine >= MAX_SEEKS_PER_PLAYER {
        return Err(refused_seek(format!(
            "You have {MAX_SEEKS_PER_PLAYER} open seeks: cancel one first"
        )));
    }
    let key = client.key().to_string();
    let from_here = open
        .iter()
        .filter(|s| s.client.as_deref() == Some(key.as_str()))
        .count();
    if !client.exempt && from_here >= MAX_SEEKS_PER_ADDRESS {
        return Err(refused_seek(format!(
            "{MAX_SEEKS_PER_ADDRESS} seeks are open from your address: accept one, or wait"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seek(id: usize, player: &str, client: &str) -> SeekRecord {
        SeekRecord {
            id: format!("s{id}"),
            player_id: player.into(),
            variant: tensorchess_rules::VariantKind::Tensor,
            clock: None,
            rated: false,
            color: crate::store::SeekColor::Random,
            created_at: 0,
            expires_at: 1,
            client: Some(client.into()),
        }
    }

    fn client(ip: &str, exempt: bool) -> Client {
        Client {
            ip: ip.parse().unwrap(),
            exempt,
        }
    }

    #[test]
    fn seeks_are_capped_per_player_per_address_and_in_all() {
        let far = client("203.0.113.1", false);
        let open: Vec<_> = (0..3).map(|i| seek(i, "p", "203.0.113.1")).collect();
        assert!(check_caps(&open, "p", &far).is_err(), "a player's three");
        assert!(check_caps(&open, "q", &far).is_ok());
        let open: Vec<_> = (0..MAX_SEEKS_PER_ADDRESS)
            .map(|i| seek(i, &format!("guest{i}"), "203.0.113.1"))
            .collect();
        let e = check_caps(&open, "new-guest", &far).unwrap_err();
        assert_eq!(e.kind(), Kind::TooManySeeks);
        assert!(check_caps(&open, "new-guest", &client("203.0.113.2", false)).is_ok());
        assert!(check_caps(&open, "new-guest", &client("203.0.113.1", true)).is_ok());
        let full: Vec<_> = (0..MAX_OPEN_SEEKS)
            .map(|i| {
                seek(
                    i,
                    &format!("g{i}"),
                    &format!("10.0.{}.{}", i / 250, i % 250),
                )
            })
            .collect();
        let e = check_caps(&full, "x", &client("198.51.100.1", false)).unwrap_err();
        assert_eq!(e.kind(), Kind::LobbyFull);
    }
}
