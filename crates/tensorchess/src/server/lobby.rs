//! The lobby: open seeks anyone may accept. A seek lapses after 30 minutes,
//! or when its creator's last page (WebSocket) closes. Pairing is one write
//! (the seek goes, the game comes), so one seek never makes two games. The
//! `lobby` topic carries the list of seeks whenever it changes, and a
//! `paired` event naming the game a seek became.

use super::error::AppError;
use super::hub::Hub;
use super::ids::new_id;
use super::live::LiveGames;
use super::online::OnlineGames;
use super::players::{Me, Players};
use super::requests::SeekRequest;
use super::store::{Notice, SeekColor, SeekRecord};
use super::views::{GameView, SeekPlayerView, SeekView, ServerEvent};
use rand::Rng;
use std::sync::Arc;
use tensorchess_rules::{Color, VariantKind};

/// How long a seek stays open.
pub const SEEK_LIFETIME_MS: i64 = 30 * 60_000;
/// Open seeks one player may have.
pub const MAX_SEEKS_PER_PLAYER: usize = 3;
/// The topic of the lobby's updates.
pub const LOBBY_TOPIC: &str = "lobby";

/// The lobby service.
pub struct Lobby {
    live: Arc<LiveGames>,
    online: Arc<OnlineGames>,
    players: Arc<Players>,
}

fn hub_of(live: &LiveGames) -> &Arc<Hub> {
    live.hub()
}

impl Lobby {
    pub fn new(live: Arc<LiveGames>, online: Arc<OnlineGames>, players: Arc<Players>) -> Lobby {
        Lobby {
            live,
            online,
            players,
        }
    }

    /// Posts a seek for `me`.
    pub async fn create(&self, me: &Me, req: SeekRequest) -> Result<SeekView, AppError> {
        let variant: VariantKind = super::game_views::parse_variant(&req.variant)?;
        let clock = OnlineGames::clock_settings(req.clock)?;
        let color = match req.color.as_deref().unwrap_or("random") {
            "white" => SeekColor::White,
            "black" => SeekColor::Black,
            "random" => SeekColor::Random,
            other => {
                return Err(AppError::bad(format!(
                    "Unknown colour '{}': expected white, black or random",
                    other.chars().take(20).collect::<String>()
                )))
            }
        };
        if req.rated && !self.players.has_account(&me.id).await? {
            return Err(rated_needs_account());
        }
        let now = self.live.now();
        let store = self.live.store();
        let mine = store
            .open_seeks(now)
            .await?
            .into_iter()
            .filter(|s| s.player_id == me.id)
            .count();
        if mine >= MAX_SEEKS_PER_PLAYER {
            return Err(AppError::refused(
                "too_many_seeks",
                format!("You have {MAX_SEEKS_PER_PLAYER} open seeks: cancel one first"),
            ));
        }
        let seek = SeekRecord {
            id: new_id(),
            player_id: me.id.clone(),
            variant,
            clock,
            rated: req.rated,
            color,
            created_at: now,
            expires_at: now + SEEK_LIFETIME_MS,
        };
        store.create_seek(&seek).await?;
        self.changed().await;
        self.view(&seek).await
    }

    /// The seeks open now, oldest first.
    pub async fn list(&self) -> Result<Vec<SeekView>, AppError> {
        let seeks = self.live.store().open_seeks(self.live.now()).await?;
        let mut out = Vec::with_capacity(seeks.len());
        for s in &seeks {
            out.push(self.view(s).await?);
        }
        Ok(out)
    }

    async fn view(&self, s: &SeekRecord) -> Result<SeekView, AppError> {
        let player = self.players.record(&s.player_id).await?;
        let rating = self.live.rating_of(&s.player_id, s.variant).await?;
        Ok(SeekView {
            id: s.id.clone(),
            variant: s.variant.name(),
            variant_title: s.variant.title(),
            clock: s.clock.map(|c| super::views::ClockSpecView {
                base_seconds: c.base_ms / 1000,
                increment_seconds: c.increment_ms / 1000,
            }),
            rated: s.rated,
            color: match s.color {
                SeekColor::White => "white",
                SeekColor::Black => "black",
                SeekColor::Random => "random",
            },
            player: SeekPlayerView {
                id: player.id,
                name: player.name,
                account: player.account,
                rating: rating.rating.round() as i32,
                provisional: rating.rd > 110.0,
            },
            created_at: s.created_at,
            expires_at: s.expires_at,
        })
    }

    /// Cancels one of `me`'s seeks.
    pub async fn cancel(&self, me: &Me, id: &str) -> Result<(), AppError> {
        if !self.live.store().delete_seek(id, Some(&me.id)).await? {
            return Err(AppError::NotFound(format!("You have no seek {id}")));
        }
        self.changed().await;
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
            return Err(rated_needs_account());
        }
        let creator_color = match seek.color {
            SeekColor::White => Color::White,
            SeekColor::Black => Color::Black,
            SeekColor::Random => {
                if rand::rng().random_bool(0.5) {
                    Color::White
                } else {
                    Color::Black
                }
            }
        };
        let (white, black) = match creator_color {
            Color::White => (seek.player_id.clone(), me.id.clone()),
            Color::Black => (me.id.clone(), seek.player_id.clone()),
        };
        let names = [
            self.players.name_of(&white).await?,
            self.players.name_of(&black).await?,
        ];
        let rated = if seek.rated {
            Some([
                self.live
                    .rating_of(&white, seek.variant)
                    .await?
                    .rating
                    .round() as i32,
                self.live
                    .rating_of(&black, seek.variant)
                    .await?
                    .rating
                    .round() as i32,
            ])
        } else {
            None
        };
        let arc = self
            .online
            .start(
                seek.variant,
                seek.clock,
                [Some(white.clone()), Some(black.clone())],
                names,
                rated,
                Some(&seek.id),
            )
            .await?;
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
            LOBBY_TOPIC,
            &ServerEvent::Paired {
                topic: LOBBY_TOPIC.to_string(),
                seek: seek.id.clone(),
                game: view.id.clone(),
                players: [white, black],
            },
        );
        self.changed().await;
        Ok(view)
    }

    /// Forgets the seeks that lapsed, telling the lobby if any did.
    pub async fn sweep(&self) {
        match self.live.store().delete_lapsed_seeks(self.live.now()).await {
            Ok(0) => {}
            Ok(_) => self.changed().await,
            Err(e) => tracing::error!("lapsed seeks were not removed: {e}"),
        }
    }

    /// `player`'s last page closed: their seeks go.
    pub async fn player_left(&self, player: &str) {
        match self.live.store().delete_seeks_of(player).await {
            Ok(0) => {}
            Ok(_) => self.changed().await,
            Err(e) => tracing::error!("seeks of {player} were not removed: {e}"),
        }
    }

    /// The lobby's state for a new subscriber, or after a change.
    pub async fn snapshot(&self) -> Result<ServerEvent, AppError> {
        Ok(ServerEvent::Lobby {
            topic: LOBBY_TOPIC.to_string(),
            seeks: self.list().await?,
        })
    }

    /// The seeks changed here: the lobby's subscribers, here and on the
    /// other servers, get the list again.
    async fn changed(&self) {
        let cluster = self.live.cluster();
        cluster.send(Notice::Lobby {
            from: cluster.instance().to_string(),
        });
        self.announce().await;
    }

    /// Tells the lobby's subscribers here the seeks open now.
    pub async fn announce(&self) {
        let hub = hub_of(&self.live);
        if hub.subscriber_count(LOBBY_TOPIC) == 0 {
            return;
        }
        match self.snapshot().await {
            Ok(event) => {
                hub.publish(LOBBY_TOPIC, &event);
            }
            Err(e) => tracing::error!("the lobby could not be announced: {e}"),
        }
    }
}

fn rated_needs_account() -> AppError {
    AppError::refused(
        "account_needed",
        "Rated games are for players with an account: register or log in first",
    )
}
