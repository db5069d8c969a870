//! Tournaments: an arena (players paired again as soon as their game
//! ends, for a fixed time), a Swiss or a round robin (rounds paired once
//! the previous round's games have all ended). Players join, withdraw and
//! pause; a director ([`director`]) started by the server's background
//! work pairs and finishes them on the server's clock, under a lease so
//! that one instance directs a tournament at a time. Standings are
//! computed from the stored games ([`views`]), never kept apart from them.
//! Pages follow `tournament:{id}`: a snapshot on subscribing, then the
//! standings as they change and each new pairing.

mod arena;
pub mod berserk;
pub mod director;
mod history;
mod memory;
mod rounds;
pub mod schedule;
pub mod views;
pub mod waves;

use crate::error::AppError;
use crate::identity::Me;
use crate::ids::{new_id, GameId, TournamentId};
use crate::kind::Kind;
use crate::players::Players;
use crate::requests::ClockRequest;
use crate::round::live::LiveGames;
use crate::round::online::timing::Timing;
use crate::round::online::OnlineGames;
use crate::store::{
    Cap, ClockSettings, EntryRecord, Notice, PairedGame, RatingPool, TournamentCaps,
    TournamentKind, TournamentNews, TournamentRecord, TournamentState,
};
use crate::views::tournament_news::{ToldLines, TournamentNewsView};
use crate::views::ServerEvent;
pub use arena::ArenaWave;
use serde::Deserialize;
use std::sync::Arc;
use tensorchess_rules::VariantKind;
pub use views::{GameTournamentView, PairingView, TournamentSummaryView, TournamentView};

use crate::topic::HubTopic;
pub use crate::topic::TOURNAMENT_TOPIC_PREFIX;

/// The name of tournament `id`'s topic, as pages follow it (`tournament:{id}`).
pub fn topic_of(id: &str) -> String {
    HubTopic::tournament(id).to_string()
}
/// Tournaments one player may make in a day.
pub const MAX_CREATED_PER_DAY: usize = 5;
/// Tournaments made from one client address in a day (fresh guests
/// behind it count together).
pub const MAX_CREATED_PER_ADDRESS_PER_DAY: usize = 5;
/// How far ahead a tournament may be scheduled (30 days).
pub const MAX_LEAD_MS: i64 = 30 * 24 * 3_600_000;
/// An arena's shortest and longest length, in minutes.
pub const ARENA_MINUTES: (u32, u32) = (10, 180);
/// A Swiss's fewest and most rounds.
pub const SWISS_ROUNDS: (u32, u32) = (3, 15);
/// Fewest and most players.
pub const MAX_PLAYERS: (u32, u32) = (2, 1000);
/// Most players of a round robin (everyone meets everyone).
pub const MAX_ROUND_ROBIN_PLAYERS: u32 = 30;
/// Tournaments listed in each state.
pub const LISTED: usize = 50;

/// `kind` of `POST /api/tournaments`.
#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum KindRequest {
    /// An arena.
    Arena,
    /// A Swiss.
    Swiss,
    /// A round robin.
    RoundRobin,
}

/// `POST /api/tournaments`.
#[derive(Deserialize, Debug, Clone, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct CreateTournamentRequest {
    /// `arena`, `swiss` or `round_robin`.
    pub kind: KindRequest,
    /// 2 to 40 letters, digits, spaces, `-`, `_` or `'`.
    pub name: String,
    /// `tensor` (default), `chess` or `chessence`.
    #[serde(default, deserialize_with = "crate::requests::optional_variant")]
    #[ts(optional = nullable)]
    pub variant: Option<VariantKind>,
    /// Every game's clock (real time), or `null` with `days`.
    #[serde(default)]
    #[ts(optional = nullable)]
    pub clock: Option<ClockRequest>,
    /// Correspondence (a Swiss or a round robin): days per move for every
    /// game (1, 2, 3, 5, 7 or 14) instead of a clock.
    #[serde(default)]
    #[ts(optional = nullable)]
    pub days: Option<u32>,
    /// Rated (accounts only).
    #[serde(default)]
    pub rated: bool,
    /// When it starts (ms since the epoch): in the future, within 30 days.
    pub starts_at: i64,
    /// An arena's length: 10 to 180 minutes.
    #[serde(default)]
    #[ts(optional = nullable)]
    pub minutes: Option<u32>,
    /// A Swiss's rounds: 3 to 15.
    #[serde(default)]
    #[ts(optional = nullable)]
    pub rounds: Option<u32>,
    /// Most players: 2 to 1000 (30 for a round robin); 100 if not said.
    #[serde(default)]
    #[ts(optional = nullable)]
    pub max_players: Option<u32>,
}

/// A tournament's pairing system, clock, length and size, checked: what a
/// player's request and the server's schedule both say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    /// Arena, Swiss or round robin.
    pub kind: TournamentKind,
    /// Every game's clock (zeros for correspondence).
    pub clock: ClockSettings,
    /// Correspondence: days per move.
    pub days: Option<u32>,
    /// An arena's minutes.
    pub minutes: Option<u32>,
    /// A Swiss's rounds.
    pub rounds: Option<u32>,
    /// Most players.
    pub max_players: u32,
}

impl Settings {
    /// The settings asked for, or a refusal saying what is wrong:
    /// `max_players` is 100 (at most a round robin's 30) when not said.
    pub fn check(
        kind: KindRequest,
        (clock, days): (Option<ClockRequest>, Option<u32>),
        minutes: Option<u32>,
        rounds: Option<u32>,
        max_players: Option<u32>,
    ) -> Result<Settings, AppError> {
        let kind = match kind {
            KindRequest::Arena => TournamentKind::Arena,
            KindRequest::Swiss => TournamentKind::Swiss,
            KindRequest::RoundRobin => TournamentKind::RoundRobin,
        };
        let timing = Timing::of_request(OnlineGames::clock_settings(clock)?, days)?;
        let (clock, days) = match timing {
            Timing::Clock(c) => (c, None),
            Timing::Days(_) if kind == TournamentKind::Arena => {
                return Err(AppError::bad(
                    "An arena is played on a clock: days per move are for Swiss and round robin tournaments",
                ))
            }
            Timing::Days(d) => (
                ClockSettings {
                    base_ms: 0,
                    increment_ms: 0,
                },
                Some(d),
            ),
            Timing::Untimed => {
                return Err(AppError::bad(
                    "A tournament needs a clock, or days per move (Swiss, round robin)",
                ))
            }
        };
        let (minutes, rounds) = match kind {
            TournamentKind::Arena => {
                let (lo, hi) = ARENA_MINUTES;
                match (minutes, rounds) {
                    (Some(m), None) if (lo..=hi).contains(&m) => (Some(m), None),
                    _ => {
                        return Err(AppError::bad(format!(
                            "An arena lasts {lo} to {hi} minutes (`minutes`, no `rounds`)"
                        )))
                    }
                }
            }
            TournamentKind::Swiss => {
                let (lo, hi) = SWISS_ROUNDS;
                match (minutes, rounds) {
                    (None, Some(r)) if (lo..=hi).contains(&r) => (None, Some(r)),
                    _ => {
                        return Err(AppError::bad(format!(
                            "A Swiss has {lo} to {hi} rounds (`rounds`, no `minutes`)"
                        )))
                    }
                }
            }
            TournamentKind::RoundRobin => {
                if minutes.is_some() || rounds.is_some() {
                    return Err(AppError::bad(
                        "A round robin has as many rounds as players: no `minutes` nor `rounds`",
                    ));
                }
                (None, None)
            }
        };
        let most = match kind {
            TournamentKind::RoundRobin => MAX_ROUND_ROBIN_PLAYERS,
            _ => MAX_PLAYERS.1,
        };
        let max_players = max_players.unwrap_or(100.min(most));
        if !(MAX_PLAYERS.0..=most).contains(&max_players) {
            return Err(AppError::bad(format!(
                "A tournament takes {} to {most} players",
                MAX_PLAYERS.0
            )));
        }
        Ok(Settings {
            kind,
            clock,
            days,
            minutes,
            rounds,
            max_players,
        })
    }
}

/// Whether `name` is a tournament's name: 2 to 40 letters, digits,
/// spaces, `-`, `_` or `'`, not only spaces.
pub fn valid_name(name: &str) -> bool {
    let n = name.chars().count();
    (2..=40).contains(&n)
        && !name.trim().is_empty()
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_' | '\''))
}

/// Tournaments by state, each with its players (not withdrawn).
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentLists {
    /// Not started yet, soonest first.
    pub upcoming: Vec<(TournamentRecord, usize)>,
    /// Going on.
    pub running: Vec<(TournamentRecord, usize)>,
    /// Over, latest first.
    pub finished: Vec<(TournamentRecord, usize)>,
}

/// The tournaments service.
pub struct Tournaments {
    live: Arc<LiveGames>,
    online: Arc<OnlineGames>,
    players: Arc<Players>,
    /// One director's tick at a time on this instance.
    ticking: tokio::sync::Mutex<()>,
    /// Games ended in each tournament at the last look (standings are
    /// announced when it changes).
    seen: std::sync::Mutex<std::collections::HashMap<String, usize>>,
    /// This instance's pairing waves (`GET /api/health`).
    pub waves: waves::WaveLog,
    /// The arenas this instance directs, kept between ticks.
    memory: memory::Memory,
    /// When each tournament's pages were last told of it, and the news
    /// held back since.
    told: std::sync::Mutex<Told>,
    /// Players' names (and accounts) for the standings, with when they
    /// were read.
    names: std::sync::Mutex<std::collections::HashMap<String, (Named, i64)>>,
    /// The tournaments the server makes by itself (none unless set:
    /// `tensorchess serve` sets the defaults or its `--schedule`).
    schedule: std::sync::OnceLock<schedule::Schedule>,
}

/// A player's name and account's user name, as the standings show them.
type Named = (String, Option<String>);

/// News of the tournaments, and when it was last told.
#[derive(Default)]
struct Told {
    last: std::collections::HashMap<String, i64>,
    due: std::collections::HashMap<String, TournamentNews>,
    /// The lines last told on each tournament's topic here (news tells
    /// whole only the lines that changed since).
    lines: std::collections::HashMap<String, ToldLines>,
}

impl Told {
    /// `view` as the topic tells it now, after what it told last.
    fn news(&mut self, id: &str, view: TournamentView) -> TournamentNewsView {
        if self.lines.len() >= TOLD_KEPT && !self.lines.contains_key(id) {
            // Forgotten lines are only told whole again.
            self.lines.clear();
        }
        view.for_topic_after(self.lines.entry(id.to_string()).or_default())
    }
}

/// A tournament's pages are told of joins, withdrawals and pauses at most
/// this often (ms); what happens in between is told together.
pub const ANNOUNCE_EVERY_MS: i64 = 1_000;
/// Tournaments whose last news time is kept (all are forgotten past it).
const TOLD_KEPT: usize = 10_000;
/// Games in one notice to the other instances (well below its 8,000 bytes).
const PAIRINGS_PER_NOTICE: usize = 16;

impl Tournaments {
    /// The service over the games and players.
    pub fn new(
        live: Arc<LiveGames>,
        online: Arc<OnlineGames>,
        players: Arc<Players>,
    ) -> Tournaments {
        Tournaments {
            live,
            online,
            players,
            ticking: tokio::sync::Mutex::new(()),
            seen: std::sync::Mutex::default(),
            waves: waves::WaveLog::default(),
            memory: memory::Memory::default(),
            told: std::sync::Mutex::default(),
            names: std::sync::Mutex::default(),
            schedule: std::sync::OnceLock::new(),
        }
    }

    /// Sets the server's schedule of tournaments (once, before the
    /// background work starts); `false` if it was set already.
    pub fn set_schedule(&self, schedule: schedule::Schedule) -> bool {
        self.schedule.set(schedule).is_ok()
    }

    /// Arenas this instance directs and keeps in memory (`GET /api/health`).
    pub fn arenas_in_memory(&self) -> usize {
        self.memory.count()
    }

    /// The server's schedule (empty until set).
    pub fn schedule(&self) -> &schedule::Schedule {
        static NONE: std::sync::OnceLock<schedule::Schedule> = std::sync::OnceLock::new();
        self.schedule
            .get()
            .unwrap_or_else(|| NONE.get_or_init(schedule::Schedule::none))
    }

    /// Makes a tournament of `me`'s.
    pub async fn create(
        &self,
        me: &Me,
        req: CreateTournamentRequest,
    ) -> Result<TournamentView, AppError> {
        me.may_act()?;
        let name = req.name.trim().to_string();
        if !valid_name(&name) {
            return Err(AppError::bad(
                "A tournament's name has 2 to 40 letters, digits, spaces, -, _ or '",
            ));
        }
        let settings = Settings::check(
            req.kind,
            (req.clock, req.days),
            req.minutes,
            req.rounds,
            req.max_players,
        )?;
        let now = self.live.now();
        if req.starts_at <= now || req.starts_at > now + MAX_LEAD_MS {
            return Err(AppError::bad(
                "A tournament starts in the future, within 30 days",
            ));
        }
        if req.rated && !self.players.has_account(&me.id).await? {
            return Err(AppError::refused(
                Kind::AccountNeeded,
                "Rated tournaments are for accounts: register or log in",
            ));
        }
        let store = self.live.store();
        let t = TournamentRecord {
            id: new_id(),
            kind: settings.kind,
            name,
            variant: req.variant.unwrap_or_default(),
            clock: settings.clock,
            rated: req.rated,
            starts_at: req.starts_at,
            minutes: settings.minutes,
            rounds: settings.rounds,
            max_players: settings.max_players,
            created_by: me.id.to_string(),
            state: TournamentState::Upcoming,
            created_at: now,
            schedule_key: None,
            days: settings.days,
        };
        // Counted with the write: fresh guests from one address, or
        // requests racing, make no more than the caps.
        let client = (!me.client.exempt).then(|| me.client.key().to_string());
        let caps = TournamentCaps {
            since: now - 24 * 3_600_000,
            per_player: MAX_CREATED_PER_DAY,
            per_address: client.is_some().then_some(MAX_CREATED_PER_ADDRESS_PER_DAY),
        };
        if let Some(cap) = store
            .create_tournament_capped(&t, client.as_deref(), &caps)
            .await?
        {
            let why = if cap == Cap::TournamentsByPlayer {
                format!("You made {MAX_CREATED_PER_DAY} tournaments today: try again tomorrow")
            } else {
                format!(
                    "{MAX_CREATED_PER_ADDRESS_PER_DAY} tournaments were made from your address today: try again tomorrow"
                )
            };
            return Err(AppError::refused(Kind::TooMany, why));
        }
        self.view(&t, Some(me)).await
    }

    /// Upcoming, running and recently finished tournaments.
    pub async fn list(&self) -> Result<TournamentLists, AppError> {
        let store = self.live.store();
        let mut lists = Vec::new();
        for state in [
            TournamentState::Upcoming,
            TournamentState::Running,
            TournamentState::Finished,
        ] {
            let mut list = Vec::new();
            for t in store.tournaments_in(state, LISTED).await? {
                let players = store
                    .tournament_entries(&t.id)
                    .await?
                    .iter()
                    .filter(|e| !e.withdrawn)
                    .count();
                list.push((t, players));
            }
            lists.push(list);
        }
        let finished = lists.pop().unwrap_or_default();
        let running = lists.pop().unwrap_or_default();
        let upcoming = lists.pop().unwrap_or_default();
        Ok(TournamentLists {
            upcoming,
            running,
            finished,
        })
    }

    /// A tournament, or a refusal naming it: `id` is a [`TournamentId`]'s
    /// (checked where it came in) or the store's.
    pub(crate) async fn record(&self, id: &str) -> Result<TournamentRecord, AppError> {
        let missing = || AppError::NotFound(format!("There is no tournament {id}"));
        self.live.store().tournament(id).await?.ok_or_else(missing)
    }

    /// A tournament with its standings and pairings, as `me` sees it.
    pub async fn get(&self, id: &TournamentId, me: &Me) -> Result<TournamentView, AppError> {
        let t = self.record(id).await?;
        self.view(&t, Some(me)).await
    }

    /// `me` joins (or comes back from a pause, or rejoins after withdrawing).
    pub async fn join(&self, id: &TournamentId, me: &Me) -> Result<TournamentView, AppError> {
        me.may_act()?;
        let t = self.record(id).await?;
        // Tournaments here are for people (docs/tournaments.md): a bot
        // account is refused whether it asks with a cookie or a token. A
        // cached "not a bot" may predate an upgrade on another instance:
        // the store decides.
        if self.live.bot_marks().known(&me.id) == Some(true)
            || self.live.store().is_bot(&me.id).await?
        {
            return Err(AppError::refused(
                Kind::BotAccount,
                "Tournaments on this server are for people: bot accounts cannot join them",
            ));
        }
        if t.state == TournamentState::Finished {
            return Err(AppError::refused(Kind::GameOver, "That tournament is over"));
        }
        if t.rated && !self.players.has_account(&me.id).await? {
            return Err(AppError::refused(
                Kind::AccountNeeded,
                "Rated tournaments are for accounts: register or log in",
            ));
        }
        let store = self.live.store();
        let mine = store
            .tournament_entries(&t.id)
            .await?
            .into_iter()
            .find(|e| e.player == me.id);
        if t.kind == TournamentKind::RoundRobin
            && t.state == TournamentState::Running
            && mine.as_ref().is_none_or(|e| e.withdrawn)
        {
            return Err(AppError::refused(
                Kind::TooLate,
                "That round robin has started: its rounds are drawn",
            ));
        }
        match mine {
            Some(e) if !e.withdrawn => {
                store.set_entry(&t.id, &me.id, false, false).await?;
            }
            _ => {
                let pool = RatingPool {
                    variant: t.variant,
                    correspondence: t.days.is_some(),
                };
                let rating = self.live.rating_of(&me.id, pool).await?.rating.round() as i32;
                let entry = EntryRecord {
                    tournament_id: t.id.clone(),
                    player: me.id.to_string(),
                    joined_at: self.live.now(),
                    withdrawn: false,
                    paused: false,
                    rating,
                };
                if !store.join_tournament(&entry, t.max_players).await? {
                    return Err(AppError::refused(
                        Kind::TooMany,
                        format!("That tournament is full ({} players)", t.max_players),
                    ));
                }
            }
        }
        self.changed(&t, TournamentNews::Joined, me).await
    }

    /// `me` leaves: never paired again (the games played still count).
    pub async fn withdraw(&self, id: &TournamentId, me: &Me) -> Result<TournamentView, AppError> {
        self.set_flags(id, me, true, false, TournamentNews::Withdrawn)
            .await
    }

    /// `me` pauses: not paired until they join again.
    pub async fn pause(&self, id: &TournamentId, me: &Me) -> Result<TournamentView, AppError> {
        self.set_flags(id, me, false, true, TournamentNews::Paused)
            .await
    }

    async fn set_flags(
        &self,
        id: &str,
        me: &Me,
        withdrawn: bool,
        paused: bool,
        event: TournamentNews,
    ) -> Result<TournamentView, AppError> {
        let t = self.record(id).await?;
        if t.state == TournamentState::Finished {
            return Err(AppError::refused(Kind::GameOver, "That tournament is over"));
        }
        if !self
            .live
            .store()
            .set_entry(&t.id, &me.id, withdrawn, paused)
            .await?
        {
            return Err(AppError::refused(
                Kind::NotAllowed,
                "You have not joined that tournament",
            ));
        }
        self.changed(&t, event, me).await
    }

    /// Tells the tournament's pages what changed (at once, or with the
    /// next tick when it was told less than [`ANNOUNCE_EVERY_MS`] ago: a
    /// thousand players join in a minute); answers the view for `me`.
    async fn changed(
        &self,
        t: &TournamentRecord,
        event: TournamentNews,
        me: &Me,
    ) -> Result<TournamentView, AppError> {
        let view = self.view(t, Some(me)).await?;
        let now = self.live.now();
        let at_once = {
            let mut told = self.told.lock().unwrap_or_else(|e| e.into_inner());
            let recent = told
                .last
                .get(&t.id)
                .is_some_and(|at| now.saturating_sub(*at) < ANNOUNCE_EVERY_MS);
            if recent {
                told.due.insert(t.id.clone(), event);
            }
            !recent
        };
        if at_once {
            self.tell(t, event, view.clone());
        }
        Ok(view)
    }

    /// Tells the tournament's pages (here and elsewhere) what changed.
    pub(crate) async fn announce(
        &self,
        t: &TournamentRecord,
        event: TournamentNews,
    ) -> Result<TournamentView, AppError> {
        let view = self.view(t, None).await?;
        self.tell(t, event, view.clone());
        Ok(view)
    }

    /// Sends `view` to the pages here (its first lines, those that changed
    /// whole: [`TournamentView::for_topic_after`]) and asks the other
    /// instances to send theirs.
    fn tell(&self, t: &TournamentRecord, event: TournamentNews, view: TournamentView) {
        let news = {
            let mut told = self.told.lock().unwrap_or_else(|e| e.into_inner());
            if told.last.len() >= TOLD_KEPT {
                told.last.clear();
            }
            told.last.insert(t.id.clone(), self.live.now());
            told.due.remove(&t.id);
            told.news(&t.id, view)
        };
        self.live.hub().publish(
            &HubTopic::tournament(&t.id),
            ServerEvent::Tournament {
                topic: topic_of(&t.id),
                event,
                tournament: Box::new(news),
            },
        );
        let cluster = self.live.cluster();
        if cluster.is_shared() {
            cluster.send(Notice::Tournament {
                from: cluster.instance().to_string(),
                id: t.id.clone(),
                event,
            });
        }
    }

    /// The news held back by [`Tournaments::changed`], told now (each tick).
    pub(crate) async fn tell_due(&self) {
        let due: Vec<(String, TournamentNews)> = {
            let mut told = self.told.lock().unwrap_or_else(|e| e.into_inner());
            told.due.drain().collect()
        };
        for (id, event) in due {
            let told = async {
                let t = self.record(&id).await?;
                self.announce(&t, event).await
            };
            if let Err(e) = told.await {
                tracing::warn!("tournament {id}: its news not told: {e}");
            }
        }
    }

    /// Another instance's news of tournament `id`: told to the pages here,
    /// from the store.
    pub async fn tell_here(&self, id: &str, event: TournamentNews) {
        if event == TournamentNews::Berserk {
            // Directed here? Its games going on are read again.
            self.memory.marks_changed(id);
        }
        let view = async {
            let t = self.record(id).await?;
            self.view(&t, None).await
        };
        match view.await {
            Ok(view) => {
                let news = {
                    let mut told = self.told.lock().unwrap_or_else(|e| e.into_inner());
                    told.news(id, view)
                };
                self.live.hub().publish(
                    &HubTopic::tournament(id),
                    ServerEvent::Tournament {
                        topic: topic_of(id),
                        event,
                        tournament: Box::new(news),
                    },
                );
            }
            Err(e) => tracing::warn!("tournament {id}: another instance's news not told: {e}"),
        }
    }

    /// Tells each player of a new game of tournament `id` on their own
    /// topic (`challenges:{player}`, which every page of theirs follows),
    /// here and, a few games a notice, on the other instances: their page
    /// opens the game. The pages following the tournament see the games
    /// with the news that follows (a thousand pages of a large arena are
    /// not each sent every wave's games).
    pub(crate) fn publish_pairings(&self, id: &str, games: &[PairedGame]) {
        self.tell_players(id, games);
        let cluster = self.live.cluster();
        if cluster.is_shared() {
            for few in games.chunks(PAIRINGS_PER_NOTICE) {
                cluster.send(Notice::Pairings {
                    from: cluster.instance().to_string(),
                    id: id.to_string(),
                    games: few.to_vec(),
                });
            }
        }
    }

    /// Tells the players of `games` (of tournament `id`) on this
    /// instance's pages, each of their own game.
    pub fn tell_players(&self, id: &str, games: &[PairedGame]) {
        let topic = topic_of(id);
        for g in games {
            let event = ServerEvent::TournamentPairings {
                topic: topic.clone(),
                pairings: vec![views::PairedGameView {
                    game: g.game.clone(),
                    white: g.white.clone(),
                    black: g.black.clone(),
                }],
            };
            for player in [&g.white, &g.black] {
                self.live
                    .hub()
                    .publish(&HubTopic::challenges_of(player), event.clone());
            }
        }
    }

    /// What a page subscribing to `tournament:{id}` receives first (as the
    /// topic's events: the first lines).
    pub async fn snapshot(&self, id: &TournamentId) -> Result<ServerEvent, AppError> {
        let t = self.record(id).await?;
        Ok(ServerEvent::Tournament {
            topic: topic_of(id),
            event: TournamentNews::Snapshot,
            tournament: Box::new(self.view(&t, None).await?.for_topic()),
        })
    }

    /// Every game of a tournament as PGN, oldest first: the event is the
    /// tournament, with each game's round (`-` in an arena, as lichess
    /// writes it), and a first move not made is lost, as the tournament
    /// counts it.
    pub async fn pgn(&self, id: &TournamentId) -> Result<String, AppError> {
        let t = self.record(id).await?;
        let games = self.live.store().tournament_games(&t.id).await?;
        let mut out = String::new();
        for g in games {
            let id = GameId::stored(g.link.game_id.clone());
            let (arc, _) = self.live.get(&id).await?;
            let round = g
                .link
                .round
                .map_or_else(|| "-".to_string(), |r| r.to_string());
            let text = arc.lock().await.pgn_tagged(&t.name, Some(round));
            out.push_str(text.trim_end());
            out.push_str("\n\n");
        }
        Ok(out)
    }
}
