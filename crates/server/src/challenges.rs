//! Challenges: a player invites a named account to a game (from its
//! profile or from a game), the other sees it live on their `challenges`
//! topic and accepts (the game is made in the same write) or declines
//! (with a reason the challenger reads); the challenger may withdraw it.
//! An open challenge expires after a day, and a real-time one as soon as
//! its challenger has had no page open for a while.

use crate::error::AppError;
use crate::identity::Me;
use crate::ids::new_id;
use crate::kind::Kind;
use crate::players::Players;
use crate::requests::{ClockRequest, ColorChoice};
use crate::round::live::LiveGames;
use crate::round::online::pairing::Pairing;
use crate::round::online::timing::Timing;
use crate::round::online::{OnlineGames, Origin};
use crate::store::{
    Cap, ChallengeCaps, ChallengeRecord, ChallengeState, RatingPool, SeekColor, StrangerCaps,
};
use crate::views::challenge::{ChallengeStatus, Direction};
use crate::views::{ClockSpecView, ServerEvent};
use serde::Deserialize;
use std::sync::Arc;

/// An open challenge lapses after this long (a day).
pub const CHALLENGE_LIFETIME_MS: i64 = 24 * 3_600_000;
/// A real-time challenge lapses once its challenger has had no page open
/// for this long (a reload is not leaving).
pub const ABSENT_CHALLENGER_MS: i64 = 45_000;
/// Open challenges one player may have made at once.
pub const MAX_OPEN_CHALLENGES: usize = 10;
/// Open challenges from one player to the same other player.
pub const MAX_OPEN_PER_PAIR: usize = 3;
/// Open challenges from one client address (a family, a club behind one
/// address: a few players' worth).
pub const MAX_CHALLENGES_PER_ADDRESS: usize = 30;
/// Open challenges from strangers (players it neither follows nor has
/// played) one player may hold at once: more wait until some are answered
/// or lapse. Challenges from accounts it follows or has played always
/// arrive.
pub const MAX_CHALLENGES_RECEIVED: usize = 50;
/// Challenges a stranger may make to one player in a day (open, declined,
/// withdrawn or lapsed: a decline frees no place until the day is over).
pub const MAX_STRANGER_CHALLENGES_PER_DAY: usize = 3;
/// Challenges from one client address to one player in a day, from
/// strangers (however many fresh guests it holds), counted as above.
pub const MAX_STRANGER_CHALLENGES_PER_ADDRESS_PER_DAY: usize = 3;
/// Longest reason for a decline, in characters.
pub const MAX_REASON_CHARS: usize = 140;
pub use crate::topic::CHALLENGES_TOPIC;
pub use crate::views::challenge::{ChallengeEvent, ChallengeView, ChallengesView};
use crate::views::{PlayerView, RatedPlayerView};

/// `POST /api/challenges`.
#[derive(Deserialize, Debug, Clone, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct ChallengeRequest {
    /// The user name of the player challenged.
    pub to: String,
    /// `tensor` (default), `chess` or `chessence`.
    #[serde(default, deserialize_with = "crate::requests::optional_variant")]
    #[ts(optional = nullable)]
    pub variant: Option<tensorchess_rules::VariantKind>,
    /// A real-time clock, or none.
    #[serde(default)]
    #[ts(optional = nullable)]
    pub clock: Option<ClockRequest>,
    /// Days per move (correspondence: 1, 2, 3, 5, 7 or 14), or none.
    #[serde(default)]
    #[ts(optional = nullable)]
    pub days: Option<u32>,
    /// Rated (both players need accounts).
    #[serde(default)]
    pub rated: bool,
    /// The challenger's colour: `white`, `black` or `random` (default).
    #[serde(default)]
    #[ts(optional = nullable)]
    pub color: Option<ColorChoice>,
}

/// `POST /api/challenges/{id}/decline`.
#[derive(Deserialize, Debug, Clone, Default)]
#[serde(deny_unknown_fields)]
pub struct DeclineRequest {
    /// Why, for the challenger.
    #[serde(default)]
    pub reason: Option<String>,
}

/// lichess's decline reasons: each key with its sentence. A muted player
/// may decline with these (they say nothing of the player's own).
pub const STANDARD_REASONS: [(&str, &str); 11] = [
    ("generic", "I'm not accepting challenges at the moment."),
    (
        "later",
        "This is not the right time for me, please ask again later.",
    ),
    (
        "tooFast",
        "This time control is too fast for me, please challenge again with a slower game.",
    ),
    (
        "tooSlow",
        "This time control is too slow for me, please challenge again with a faster game.",
    ),
    (
        "timeControl",
        "I'm not accepting challenges with this time control.",
    ),
    ("rated", "Please send me a rated challenge instead."),
    ("casual", "Please send me a casual challenge instead."),
    (
        "standard",
        "I'm not accepting variant challenges right now.",
    ),
    ("variant", "I'm not willing to play this variant right now."),
    ("noBot", "I'm not accepting challenges from bots."),
    ("onlyBot", "I'm only accepting challenges from bots."),
];

/// The sentence of lichess's decline reason `key`, if it is one.
pub fn standard_reason(key: &str) -> Option<&'static str> {
    STANDARD_REASONS
        .iter()
        .find(|(k, _)| *k == key)
        .map(|(_, sentence)| *sentence)
}

/// The refusal of a challenge past `cap` (429 `too_many`).
fn refusal(cap: Cap) -> AppError {
    let why = match cap {
        Cap::PerPair => format!(
            "{MAX_OPEN_PER_PAIR} of your challenges already wait for that player: wait for an answer"
        ),
        Cap::Made => format!(
            "You have {MAX_OPEN_CHALLENGES} challenges waiting for an answer: withdraw one first"
        ),
        Cap::FromAddress => format!(
            "{MAX_CHALLENGES_PER_ADDRESS} challenges from your address wait for an answer: try again later"
        ),
        Cap::PlayerToReceiver => format!(
            "You challenged that player {MAX_STRANGER_CHALLENGES_PER_DAY} times today: try again tomorrow"
        ),
        Cap::AddressToReceiver => format!(
            "{MAX_STRANGER_CHALLENGES_PER_ADDRESS_PER_DAY} challenges from your address reached that player today: try again tomorrow"
        ),
        _ => "That player has too many challenges waiting: try again later".to_string(),
    };
    AppError::refused(Kind::TooMany, why)
}

/// The hub topic of one player's challenges.
/// The challenger's colour: a random one is drawn from the challenge's
/// id (itself random), so that it is known, and told, before acceptance.
fn final_color(id: &str, color: SeekColor) -> SeekColor {
    match color {
        SeekColor::Random => {
            let sum = id.bytes().fold(0u32, |a, b| a.wrapping_add(u32::from(b)));
            if sum % 2 == 0 {
                SeekColor::White
            } else {
                SeekColor::Black
            }
        }
        chosen => chosen,
    }
}

use crate::topic::HubTopic;

/// The challenges service.
pub struct Challenges {
    live: Arc<LiveGames>,
    online: Arc<OnlineGames>,
    players: Arc<Players>,
}

impl Challenges {
    /// The service over the games and players.
    pub fn new(
        live: Arc<LiveGames>,
        online: Arc<OnlineGames>,
        players: Arc<Players>,
    ) -> Challenges {
        Challenges {
            live,
            online,
            players,
        }
    }

    async fn player_view(&self, id: &str, pool: RatingPool) -> Result<RatedPlayerView, AppError> {
        let p = self.players.record(id).await?;
        let bot = self.live.store().is_bot(&p.id).await?;
        let rating = self.live.rating_of(&p.id, pool).await?;
        Ok(RatedPlayerView {
            player: PlayerView {
                title: crate::views::Title::of_bot(bot),
                id: p.id,
                name: p.name,
                account: p.account,
            },
            rating: rating.rating.round() as i32,
            provisional: rating.rd > crate::rating::PROVISIONAL_RD,
        })
    }

    /// A challenge as `asker` sees it.
    async fn view(&self, c: &ChallengeRecord, asker: &str) -> Result<ChallengeView, AppError> {
        let (game, reason) = match &c.state {
            ChallengeState::Accepted { game } => (Some(game.clone()), None),
            ChallengeState::Declined { reason } => (None, reason.clone()),
            _ => (None, None),
        };
        let pool = if c.days.is_some() {
            RatingPool::correspondence(c.variant)
        } else {
            RatingPool::real_time(c.variant)
        };
        Ok(ChallengeView {
            id: c.id.clone(),
            direction: if c.challenger == asker {
                Direction::Out
            } else {
                Direction::In
            },
            from: self.player_view(&c.challenger, pool).await?,
            to: self.player_view(&c.challenged, pool).await?,
            variant: c.variant,
            variant_title: c.variant.into(),
            clock: c.clock.map(ClockSpecView::from),
            days: c.days,
            rated: c.rated,
            color: c.color,
            final_color: final_color(&c.id, c.color),
            state: ChallengeStatus::of(&c.state),
            game,
            reason,
            created_at: c.created_at,
            expires_at: c.expires_at,
        })
    }

    /// Tells both players (on every server) what became of a challenge.
    async fn announce(&self, c: &ChallengeRecord) -> Result<(), AppError> {
        let event = ChallengeEvent::of(&c.state);
        for player in [&c.challenger, &c.challenged] {
            let topic = HubTopic::challenges_of(player);
            let message = ServerEvent::Challenge {
                topic: CHALLENGES_TOPIC.to_string(),
                event,
                challenge: Box::new(self.view(c, player).await?),
            };
            self.live
                .cluster()
                .publish_everywhere(self.live.hub(), &topic, message);
        }
        Ok(())
    }

    /// Makes a challenge from `me`.
    pub async fn create(&self, me: &Me, req: ChallengeRequest) -> Result<ChallengeView, AppError> {
        me.may_act()?;
        let variant = req.variant.unwrap_or_default();
        let clock = OnlineGames::clock_settings(req.clock)?;
        let timing = Timing::of_request(clock, req.days)?;
        let color = req.color.unwrap_or(ColorChoice::RANDOM).0;
        let store = self.live.store();
        let nobody = || {
            AppError::NotFound(format!(
                "There is no player {}",
                req.to.chars().take(30).collect::<String>()
            ))
        };
        let account = store
            .account(&req.to)
            .await?
            .filter(|a| a.closed_at.is_none())
            .ok_or_else(nobody)?;
        if store.ban_of(&account.player_id).await?.is_some() {
            return Err(nobody());
        }
        if account.player_id == me.id {
            return Err(AppError::bad("You cannot challenge yourself"));
        }
        let guest = !self.players.has_account(&me.id).await?;
        if req.rated && guest {
            return Err(crate::players::rated_needs_account());
        }
        if guest
            && !store
                .preferences(&account.player_id)
                .await?
                .challenges_from_guests
        {
            return Err(AppError::refused(
                Kind::AccountNeeded,
                "That player takes challenges only from accounts: register or log in",
            ));
        }
        let stranger = guest || !self.knows(&account.player_id, &me.id).await?;
        let now = self.live.now();
        let challenge = ChallengeRecord {
            id: new_id(),
            challenger: me.id.to_string(),
            challenged: account.player_id,
            variant,
            clock: timing.clock(),
            days: timing.days(),
            rated: req.rated,
            color,
            created_at: now,
            expires_at: now + CHALLENGE_LIFETIME_MS,
            state: ChallengeState::Open,
            client: Some(me.client.key().to_string()),
        };
        let caps = Self::caps(me, stranger, now);
        if let Some(cap) = store.create_challenge_capped(&challenge, &caps).await? {
            return Err(refusal(cap));
        }
        self.announce(&challenge).await?;
        self.view(&challenge, &me.id).await
    }

    /// Whether `player` knows `other`, an account: follows them, or has
    /// played them. Their challenges pass `player`'s inbox caps.
    async fn knows(&self, player: &str, other: &str) -> Result<bool, AppError> {
        let store = self.live.store();
        Ok(store.is_following(player, other).await? || store.have_played(player, other).await?)
    }

    /// The caps on a challenge from `me` made at `now`: the sender's own
    /// ([`MAX_OPEN_PER_PAIR`], [`MAX_OPEN_CHALLENGES`],
    /// [`MAX_CHALLENGES_PER_ADDRESS`]: a thousand fresh guests behind one
    /// address are one address), and for a stranger's the receiver's
    /// ([`MAX_STRANGER_CHALLENGES_PER_DAY`],
    /// [`MAX_STRANGER_CHALLENGES_PER_ADDRESS_PER_DAY`],
    /// [`MAX_CHALLENGES_RECEIVED`]). The store counts them in the write.
    fn caps(me: &Me, stranger: bool, now: i64) -> ChallengeCaps {
        let counted = !me.client.exempt;
        ChallengeCaps {
            now,
            per_pair: MAX_OPEN_PER_PAIR,
            made: MAX_OPEN_CHALLENGES,
            from_address: counted.then_some(MAX_CHALLENGES_PER_ADDRESS),
            stranger: stranger.then_some(StrangerCaps {
                since: now - CHALLENGE_LIFETIME_MS,
                player_to_receiver: MAX_STRANGER_CHALLENGES_PER_DAY,
                address_to_receiver: counted.then_some(MAX_STRANGER_CHALLENGES_PER_ADDRESS_PER_DAY),
                received: MAX_CHALLENGES_RECEIVED,
            }),
        }
    }

    /// The asker's open challenges.
    pub async fn list(&self, me: &Me) -> Result<ChallengesView, AppError> {
        let open = self
            .live
            .store()
            .open_challenges_of(&me.id, self.live.now())
            .await?;
        let mut view = ChallengesView {
            incoming: Vec::new(),
            outgoing: Vec::new(),
        };
        for c in &open {
            let v = self.view(c, &me.id).await?;
            if c.challenger == me.id {
                view.outgoing.push(v);
            } else {
                view.incoming.push(v);
            }
        }
        Ok(view)
    }

    /// An open challenge of `me`'s: received (`received`) or made.
    async fn open_one(
        &self,
        me: &Me,
        id: &str,
        received: bool,
    ) -> Result<ChallengeRecord, AppError> {
        let not_found = || {
            AppError::NotFound(format!(
                "There is no challenge {}",
                id.chars().take(30).collect::<String>()
            ))
        };
        let c = self
            .live
            .store()
            .challenge(id)
            .await?
            .filter(|c| c.challenger == me.id || c.challenged == me.id)
            .ok_or_else(not_found)?;
        let theirs = if received {
            &c.challenged
        } else {
            &c.challenger
        };
        if *theirs != me.id {
            return Err(AppError::refused(
                Kind::NotAllowed,
                if received {
                    "That challenge is yours: only the player challenged answers it"
                } else {
                    "Only the challenger withdraws a challenge"
                },
            ));
        }
        if c.state != ChallengeState::Open || c.expires_at <= self.live.now() {
            return Err(AppError::refused(
                Kind::GameOver,
                "That challenge is no longer open",
            ));
        }
        Ok(c)
    }

    /// `me` accepts a challenge they received: the game is made. Returns
    /// the challenge with its game.
    pub async fn accept(&self, me: &Me, id: &str) -> Result<ChallengeView, AppError> {
        me.may_act()?;
        let c = self.open_one(me, id, true).await?;
        let pairing = Pairing {
            variant: c.variant,
            timing: Timing::of_challenge(&c),
            rated: c.rated,
            maker: (&c.challenger, final_color(&c.id, c.color)),
            taker: &c.challenged,
            names: [
                self.players.name_of(&c.challenger).await?,
                self.players.name_of(&c.challenged).await?,
            ],
            origin: Origin::Challenge(&c.id),
        };
        let (arc, _) = self.online.start_paired(pairing).await?;
        let game = arc.lock().await.id().to_string();
        let accepted = ChallengeRecord {
            state: ChallengeState::Accepted { game },
            ..c
        };
        self.announce(&accepted).await?;
        self.view(&accepted, &me.id).await
    }

    /// `me` declines a challenge they received; the challenger is told.
    pub async fn decline(
        &self,
        me: &Me,
        id: &str,
        req: DeclineRequest,
    ) -> Result<ChallengeView, AppError> {
        let c = self.open_one(me, id, true).await?;
        let reason = match req.reason {
            Some(r) => Some(crate::text::clean_text(&r).map_err(|_| {
                AppError::bad(format!("A reason has 1 to {MAX_REASON_CHARS} characters"))
            })?),
            None => None,
        };
        // A reason is words to the challenger: a muted player's own are
        // refused (the offered sentences say nothing of theirs).
        if let Some(r) = &reason {
            let offered = STANDARD_REASONS.iter().any(|(_, s)| s == r);
            let guest = !self.players.has_account(&me.id).await?;
            if !offered
                && crate::players::mutes::muted(self.live.store(), me, guest, self.live.now())
                    .await?
            {
                return Err(crate::players::mutes::muted_refusal());
            }
        }
        self.close(c, ChallengeState::Declined { reason }, &me.id)
            .await
    }

    /// `me` withdraws a challenge they made.
    pub async fn cancel(&self, me: &Me, id: &str) -> Result<(), AppError> {
        let c = self.open_one(me, id, false).await?;
        self.close(c, ChallengeState::Canceled, &me.id).await?;
        Ok(())
    }

    async fn close(
        &self,
        c: ChallengeRecord,
        state: ChallengeState,
        asker: &str,
    ) -> Result<ChallengeView, AppError> {
        if !self.live.store().close_challenge(&c.id, &state).await? {
            return Err(AppError::refused(
                Kind::GameOver,
                "That challenge is no longer open",
            ));
        }
        let closed = ChallengeRecord { state, ..c };
        self.announce(&closed).await?;
        self.view(&closed, asker).await
    }

    /// Lapses what is due: challenges a day old, and real-time ones whose
    /// challenger has had no page open for [`ABSENT_CHALLENGER_MS`].
    pub async fn sweep(&self) {
        let now = self.live.now();
        let store = self.live.store();
        let mut gone = match store.expire_challenges(now).await {
            Ok(gone) => gone,
            Err(e) => {
                tracing::warn!("challenges not expired: {e}");
                return;
            }
        };
        // Presence counts the pages open on every server.
        let presence = self.live.presence();
        let absent: Vec<ChallengeRecord> = match store.open_challenges(now).await {
            Ok(open) => open
                .into_iter()
                .filter(|c| c.clock.is_some() && now - c.created_at >= ABSENT_CHALLENGER_MS)
                .filter(|c| !presence.is_here(&c.challenger))
                .collect(),
            Err(e) => {
                tracing::warn!("challenges not read: {e}");
                Vec::new()
            }
        };
        for c in absent {
            match store.close_challenge(&c.id, &ChallengeState::Expired).await {
                Ok(true) => gone.push(ChallengeRecord {
                    state: ChallengeState::Expired,
                    ..c
                }),
                Ok(false) => {}
                Err(e) => tracing::warn!("challenge {} not expired: {e}", c.id),
            }
        }
        for c in gone {
            if let Err(e) = self.announce(&c).await {
                tracing::warn!("challenge {} expiry not announced: {e}", c.id);
            }
        }
    }

    /// What a page subscribing to its challenges receives first.
    pub async fn snapshot(&self, me: &Me) -> Result<ServerEvent, AppError> {
        Ok(ServerEvent::Challenges {
            topic: CHALLENGES_TOPIC.to_string(),
            challenges: Box::new(self.list(me).await?),
        })
    }
}
