//! Tournaments: an arena (a fixed time, players paired again as soon as
//! their game ends), a Swiss or a round robin (rounds). A tournament is
//! stored with its entries (who joined, withdrew, paused, and their rating
//! when they joined), the link of each of its games (the round, the
//! berserk of each side) and the lease of the instance directing it: one
//! conditional write takes it, so one instance at a time pairs and scores.
//!
//! Results are not stored twice: a tournament game's ending and length are
//! read from the game itself, so standings can be computed again at any time.

use crate::columns::{parse_ending, parse_variant};
use crate::rows::{Row, Value};
use crate::{ClockSettings, Ending, StoreError, StoredGame};
use async_trait::async_trait;
use tensorchess_rules::{Color, VariantKind};

/// What happened to a tournament, as its topic tells it and the other
/// instances hear it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum TournamentNews {
    /// The tournament as it is, on subscribing.
    Snapshot,
    /// Players joined.
    Joined,
    /// Players withdrew.
    Withdrawn,
    /// Players paused.
    Paused,
    /// It started.
    Started,
    /// Its standings changed (a game ended, a round was scored).
    Standings,
    /// New games were paired.
    Paired,
    /// A player went berserk.
    Berserk,
    /// It ended.
    Finished,
}

impl TournamentNews {
    /// Its word on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            TournamentNews::Snapshot => "snapshot",
            TournamentNews::Joined => "joined",
            TournamentNews::Withdrawn => "withdrawn",
            TournamentNews::Paused => "paused",
            TournamentNews::Started => "started",
            TournamentNews::Standings => "standings",
            TournamentNews::Paired => "paired",
            TournamentNews::Berserk => "berserk",
            TournamentNews::Finished => "finished",
        }
    }
}

/// The system a tournament pairs by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum TournamentKind {
    /// Played for a fixed time; a player is paired again once their game ends.
    Arena,
    /// A fixed number of rounds, by the Dutch system.
    Swiss,
    /// Everyone meets everyone once.
    RoundRobin,
}

impl TournamentKind {
    /// Its stored (and requested) word.
    pub fn as_str(self) -> &'static str {
        match self {
            TournamentKind::Arena => "arena",
            TournamentKind::Swiss => "swiss",
            TournamentKind::RoundRobin => "round_robin",
        }
    }

    /// The kind a word names.
    pub fn parse(s: &str) -> Option<TournamentKind> {
        Some(match s {
            "arena" => TournamentKind::Arena,
            "swiss" => TournamentKind::Swiss,
            "round_robin" => TournamentKind::RoundRobin,
            _ => return None,
        })
    }
}

/// Where a tournament stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum TournamentState {
    /// Players join; it has not started.
    Upcoming,
    /// Games are paired and played.
    Running,
    /// Over: the standings are final.
    Finished,
}

impl TournamentState {
    /// Its stored word.
    pub fn as_str(self) -> &'static str {
        match self {
            TournamentState::Upcoming => "upcoming",
            TournamentState::Running => "running",
            TournamentState::Finished => "finished",
        }
    }

    /// The state a word names.
    pub fn parse(s: &str) -> Option<TournamentState> {
        Some(match s {
            "upcoming" => TournamentState::Upcoming,
            "running" => TournamentState::Running,
            "finished" => TournamentState::Finished,
            _ => return None,
        })
    }
}

/// A stored tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentRecord {
    /// Its id.
    pub id: String,
    /// Arena, Swiss or round robin.
    pub kind: TournamentKind,
    /// Its name.
    pub name: String,
    /// The game played.
    pub variant: VariantKind,
    /// Every game's clock.
    pub clock: ClockSettings,
    /// Whether its games change ratings.
    pub rated: bool,
    /// When it starts (ms).
    pub starts_at: i64,
    /// An arena's length, in minutes.
    pub minutes: Option<u32>,
    /// A Swiss's rounds.
    pub rounds: Option<u32>,
    /// Most players it takes.
    pub max_players: u32,
    /// The player who made it.
    pub created_by: String,
    /// Where it stands.
    pub state: TournamentState,
    /// When it was made (ms).
    pub created_at: i64,
    /// Made by the server's schedule: the occurrence's key (the schedule
    /// entry's key and its start), unique, so that instances racing to
    /// make it make one; `None` for a tournament a player made.
    pub schedule_key: Option<String>,
    /// Correspondence (a Swiss or a round robin): days per move for every
    /// game instead of `clock`.
    pub days: Option<u32>,
}

/// The `created_by` of a tournament the server's schedule made: no
/// player's id (ids are letters and digits), so it counts in nobody's
/// daily limit.
pub const SCHEDULE_CREATOR: &str = "@schedule";

/// A player's entry in a tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryRecord {
    /// The tournament.
    pub tournament_id: String,
    /// The player (id).
    pub player: String,
    /// When they joined (ms).
    pub joined_at: i64,
    /// They left: never paired again (their games still count).
    pub withdrawn: bool,
    /// They pause: not paired until they come back.
    pub paused: bool,
    /// Their rating when they joined (rounded).
    pub rating: i32,
}

/// A game of a tournament, as its director links it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentGameLink {
    /// The tournament.
    pub tournament_id: String,
    /// The game.
    pub game_id: String,
    /// The round (Swiss, round robin); `None` in an arena.
    pub round: Option<u32>,
    /// White's player id.
    pub white: String,
    /// Black's player id.
    pub black: String,
    /// White berserked (an arena: half the time, no increment).
    pub white_berserked: bool,
    /// Black berserked.
    pub black_berserked: bool,
    /// When it was paired (ms).
    pub created_at: i64,
}

/// A tournament game with what its game says now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentGame {
    /// The link.
    pub link: TournamentGameLink,
    /// How the game ended; `None` while it goes on.
    pub ending: Option<Ending>,
    /// Half-moves played.
    pub plies: u32,
}

/// A player who sat a round out (Swiss, round robin).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ByeRecord {
    /// The tournament.
    pub tournament_id: String,
    /// The round.
    pub round: u32,
    /// The player (id).
    pub player: String,
    /// What it scored, in half-points (a pairing bye: 2).
    pub half_points: u32,
}

/// The columns of a link, in [`link_values`]' order.
pub const LINK_COLUMNS: &str = "tournament_id, game_id, round, white, black, white_berserked, \
     black_berserked, created_at";

/// The columns of a tournament, in [`tournament_values`]' order.
pub const TOURNAMENT_COLUMNS: &str =
    "id, kind, name, variant, clock_base_ms, clock_inc_ms, rated, \
     starts_at, minutes, rounds, max_players, created_by, state, created_at, schedule_key, \
     days_per_move";

/// The columns of an entry, in [`entry_values`]' order.
pub const ENTRY_COLUMNS: &str = "tournament_id, player, joined_at, withdrawn, paused, rating";

/// A tournament's values, in [`TOURNAMENT_COLUMNS`]' order.
pub fn tournament_values(t: &TournamentRecord) -> Vec<Value> {
    vec![
        Value::Text(Some(t.id.clone())),
        Value::Text(Some(t.kind.as_str().to_string())),
        Value::Text(Some(t.name.clone())),
        Value::Text(Some(t.variant.name().to_string())),
        Value::Int(Some(t.clock.base_ms)),
        Value::Int(Some(t.clock.increment_ms)),
        Value::Bool(t.rated),
        Value::Int(Some(t.starts_at)),
        Value::Int(t.minutes.map(i64::from)),
        Value::Int(t.rounds.map(i64::from)),
        Value::Int(Some(i64::from(t.max_players))),
        Value::Text(Some(t.created_by.clone())),
        Value::Text(Some(t.state.as_str().to_string())),
        Value::Int(Some(t.created_at)),
        Value::Text(t.schedule_key.clone()),
        Value::Int(t.days.map(i64::from)),
    ]
}

fn small(v: i64) -> u32 {
    v.clamp(0, i64::from(u32::MAX)) as u32
}

/// A tournament from a row whose columns start at `at`.
pub fn read_tournament(row: &impl Row, at: usize) -> Result<TournamentRecord, StoreError> {
    let id = row.text_nn(at)?;
    let corrupt = |what: String| StoreError::Corrupt {
        id: id.clone(),
        what,
    };
    let kind = row.text_nn(at + 1)?;
    let kind =
        TournamentKind::parse(&kind).ok_or_else(|| corrupt(format!("unknown kind {kind}")))?;
    let state = row.text_nn(at + 12)?;
    let state =
        TournamentState::parse(&state).ok_or_else(|| corrupt(format!("unknown state {state}")))?;
    Ok(TournamentRecord {
        kind,
        name: row.text_nn(at + 2)?,
        variant: parse_variant(&id, &row.text_nn(at + 3)?)?,
        clock: ClockSettings {
            base_ms: row.int_nn(at + 4)?,
            increment_ms: row.int_nn(at + 5)?,
        },
        rated: row.boolean(at + 6)?,
        starts_at: row.int_nn(at + 7)?,
        minutes: row.int(at + 8)?.map(small),
        rounds: row.int(at + 9)?.map(small),
        max_players: small(row.int_nn(at + 10)?),
        created_by: row.text_nn(at + 11)?,
        state,
        created_at: row.int_nn(at + 13)?,
        schedule_key: row.text(at + 14)?,
        days: row.int(at + 15)?.map(small),
        id,
    })
}

/// An entry's values, in [`ENTRY_COLUMNS`]' order.
pub fn entry_values(e: &EntryRecord) -> Vec<Value> {
    vec![
        Value::Text(Some(e.tournament_id.clone())),
        Value::Text(Some(e.player.clone())),
        Value::Int(Some(e.joined_at)),
        Value::Bool(e.withdrawn),
        Value::Bool(e.paused),
        Value::Int(Some(i64::from(e.rating))),
    ]
}

/// An entry from a row whose columns start at `at`.
pub fn read_entry(row: &impl Row, at: usize) -> Result<EntryRecord, StoreError> {
    Ok(EntryRecord {
        tournament_id: row.text_nn(at)?,
        player: row.text_nn(at + 1)?,
        joined_at: row.int_nn(at + 2)?,
        withdrawn: row.boolean(at + 3)?,
        paused: row.boolean(at + 4)?,
        rating: row.int_nn(at + 5)?.clamp(-100_000, 100_000) as i32,
    })
}

/// A link's values, in [`LINK_COLUMNS`]' order.
pub fn link_values(l: &TournamentGameLink) -> Vec<Value> {
    vec![
        Value::Text(Some(l.tournament_id.clone())),
        Value::Text(Some(l.game_id.clone())),
        Value::Int(l.round.map(i64::from)),
        Value::Text(Some(l.white.clone())),
        Value::Text(Some(l.black.clone())),
        Value::Bool(l.white_berserked),
        Value::Bool(l.black_berserked),
        Value::Int(Some(l.created_at)),
    ]
}

/// A tournament game from a row of [`games_query`].
pub fn read_game(row: &impl Row) -> Result<TournamentGame, StoreError> {
    let game_id = row.text_nn(1)?;
    let result = row.text_nn(8)?;
    let reason = row.text(9)?;
    Ok(TournamentGame {
        ending: parse_ending(&game_id, &result, reason.as_deref())?,
        plies: small(row.int_nn(10)?),
        link: TournamentGameLink {
            tournament_id: row.text_nn(0)?,
            round: row.int(2)?.map(small),
            white: row.text_nn(3)?,
            black: row.text_nn(4)?,
            white_berserked: row.boolean(5)?,
            black_berserked: row.boolean(6)?,
            created_at: row.int_nn(7)?,
            game_id,
        },
    })
}

/// The tournament games (with their games' result, reason and plies) that
/// `filter` (on `tg`, placeholders by `mark`) selects, oldest first. A
/// game's plies are its last ply plus one, found in the moves' primary key
/// (plies have no gap): a count read every move of every game, at each
/// tick of the director.
pub fn games_query(filter: &str) -> String {
    format!(
        "SELECT tg.tournament_id, tg.game_id, tg.round, tg.white, tg.black, tg.white_berserked, \
         tg.black_berserked, tg.created_at, g.result, g.end_reason, \
         COALESCE((SELECT MAX(m.ply) + 1 FROM moves m WHERE m.game_id = tg.game_id), 0) \
         FROM tournament_games tg JOIN games g ON g.id = tg.game_id \
         WHERE {filter} ORDER BY tg.created_at, tg.game_id"
    )
}

/// What [`games_query`] adds to keep only the games that ended.
pub const ENDED_ONLY: &str = " AND (g.end_reason IS NOT NULL OR g.result <> '*')";

/// The revision of tournament `$1`'s entries.
pub fn entries_rev_sql(mark: fn(usize) -> String) -> String {
    format!("SELECT entries_rev FROM tournaments WHERE id = {}", mark(1))
}

/// Inserts an entry (or takes a withdrawn one back) while fewer than
/// `$7` other players are in: `$1..$6` the entry's values.
pub fn join_sql(mark: fn(usize) -> String) -> String {
    let m = mark;
    format!(
        "INSERT INTO tournament_entries ({ENTRY_COLUMNS}) \
         SELECT CAST({} AS TEXT), CAST({} AS TEXT), CAST({} AS BIGINT), CAST({} AS BOOLEAN), \
         CAST({} AS BOOLEAN), CAST({} AS BIGINT) \
         WHERE (SELECT COUNT(*) FROM tournament_entries \
                WHERE tournament_id = {} AND NOT withdrawn AND player <> {}) < CAST({} AS BIGINT) \
         ON CONFLICT (tournament_id, player) DO UPDATE SET withdrawn = excluded.withdrawn, \
         paused = excluded.paused",
        m(1),
        m(2),
        m(3),
        m(4),
        m(5),
        m(6),
        m(1),
        m(2),
        m(7)
    )
}

/// Inserts a link `$1..$8`. Its players' seats go in with it
/// ([`seat_sql`]), and the seats' unique index refuses a player's second
/// running game of a tournament; a round's second board of a player is
/// refused by the links' own unique indexes.
pub fn link_sql(mark: fn(usize) -> String) -> String {
    format!(
        "INSERT INTO tournament_games ({LINK_COLUMNS}) VALUES ({})",
        crate::rows::placeholders(mark, 1, LINK_COLUMNS.split(',').count())
    )
}

/// Seats player `$3` at game `$2` of tournament `$1`, running.
pub fn seat_sql(mark: fn(usize) -> String) -> String {
    format!(
        "INSERT INTO tournament_seats (tournament_id, game_id, player, running) \
         VALUES ({}, {}, {}, TRUE)",
        mark(1),
        mark(2),
        mark(3)
    )
}

/// The seats of game `$1` stop running (it ended): how many rows changed
/// says whether this was the end (after it, none).
pub fn seats_end_sql(mark: fn(usize) -> String) -> String {
    format!(
        "UPDATE tournament_seats SET running = FALSE WHERE game_id = {} AND running",
        mark(1)
    )
}

/// The entry of the side `$2` (`white`, `black`) of tournament game `$1`
/// is paused, unless withdrawn, in an arena or a Swiss: the first-move
/// rule's loss (`docs/tournaments.md`). A round robin plays its table.
pub fn no_show_pause_sql(mark: fn(usize) -> String) -> String {
    format!(
        "UPDATE tournament_entries SET paused = TRUE \
         WHERE NOT withdrawn AND EXISTS (SELECT 1 FROM tournament_games tg \
             JOIN tournaments t ON t.id = tg.tournament_id \
             WHERE tg.game_id = {} AND t.kind IN ('arena', 'swiss') \
             AND tg.tournament_id = tournament_entries.tournament_id \
             AND tournament_entries.player = CASE WHEN {} = 'white' THEN tg.white ELSE tg.black END)",
        mark(1),
        mark(2)
    )
}

/// The tournaments not finished where player `$1` has an entry not
/// withdrawn, soonest first.
pub fn entered_sql(mark: fn(usize) -> String) -> String {
    format!(
        "SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE state <> 'finished' \
         AND id IN (SELECT tournament_id FROM tournament_entries \
             WHERE player = {} AND NOT withdrawn) ORDER BY starts_at, id",
        mark(1)
    )
}

/// What a game's end does to the tournament it is a game of, as part of
/// the transaction that ends it: its seats stop running and, when a side
/// did not make its first move, that side's entry is paused.
/// Its statements, in `mark`'s placeholders: the seats' end
/// ([`seats_end_sql`], run first; no row changed means there is nothing
/// more to do) and, for the side that did not make its first move (its
/// word as the second argument), [`no_show_pause_sql`].
pub fn game_ended_sql(
    mark: fn(usize) -> String,
    ending: crate::Ending,
) -> (String, Option<(String, &'static str)>) {
    let pause = match ending {
        crate::Ending::Aborted { no_show: Some(c) } => {
            Some((no_show_pause_sql(mark), crate::columns::color_text(c)))
        }
        _ => None,
    };
    (seats_end_sql(mark), pause)
}

/// Takes (or renews) the lease of tournament `$1` for holder `$2` until
/// `$4`, if it is free, expired at `$3`, or already the holder's.
pub fn lease_sql(mark: fn(usize) -> String) -> String {
    let m = mark;
    format!(
        "INSERT INTO tournament_leases (tournament_id, holder, expires_at) VALUES ({}, {}, {}) \
         ON CONFLICT (tournament_id) DO UPDATE SET holder = excluded.holder, \
         expires_at = excluded.expires_at \
         WHERE tournament_leases.holder = excluded.holder OR tournament_leases.expires_at <= {}",
        m(1),
        m(2),
        m(4),
        m(3)
    )
}

/// The error of a link refused: a player is still playing.
pub fn busy(link: &TournamentGameLink) -> StoreError {
    StoreError::Conflict(format!(
        "{} or {} still plays a game of tournament {}",
        link.white, link.black, link.tournament_id
    ))
}

/// Storage for tournaments. Each method is one atomic write or one read.
#[async_trait]
pub trait TournamentRepo: Send + Sync + 'static {
    /// Stores a new tournament.
    async fn create_tournament(&self, t: &TournamentRecord) -> Result<(), StoreError>;
    /// Stores a tournament of the schedule unless one with its
    /// `schedule_key` is stored: `false` when it was (made before, or by
    /// another instance first). One conditional write.
    async fn create_scheduled_tournament(&self, t: &TournamentRecord) -> Result<bool, StoreError>;
    /// One tournament.
    async fn tournament(&self, id: &str) -> Result<Option<TournamentRecord>, StoreError>;
    /// Tournaments in `state`: upcoming and running ones soonest first,
    /// finished ones latest first; at most `limit`.
    async fn tournaments_in(
        &self,
        state: TournamentState,
        limit: usize,
    ) -> Result<Vec<TournamentRecord>, StoreError>;
    /// Stores a tournament made from client address `client` unless one of
    /// `caps` is full (tournaments its creator, or its address, made since
    /// `caps.since`), counted in the same transaction: `Some(cap)` and
    /// nothing stored when one is.
    async fn create_tournament_capped(
        &self,
        t: &TournamentRecord,
        client: Option<&str>,
        caps: &crate::trust::TournamentCaps,
    ) -> Result<Option<crate::trust::Cap>, StoreError>;
    /// How many tournaments `player` made at or after `since` (ms).
    async fn tournaments_created_since(
        &self,
        player: &str,
        since: i64,
    ) -> Result<usize, StoreError>;
    /// Moves a tournament from state `from` to `to`; `false` when it was
    /// not in `from` (another instance moved it first).
    async fn set_tournament_state(
        &self,
        id: &str,
        from: TournamentState,
        to: TournamentState,
    ) -> Result<bool, StoreError>;
    /// Enters a player (or takes a withdrawn entry back, as `entry` says)
    /// while fewer than `max_players` others are in; `false` when full.
    async fn join_tournament(
        &self,
        entry: &EntryRecord,
        max_players: u32,
    ) -> Result<bool, StoreError>;
    /// Sets an entry's flags; `false` when there is no such entry.
    async fn set_entry(
        &self,
        tournament_id: &str,
        player: &str,
        withdrawn: bool,
        paused: bool,
    ) -> Result<bool, StoreError>;
    /// The tournaments not finished where `player` has an entry not
    /// withdrawn (paused too), soonest first.
    async fn entered_tournaments(&self, player: &str) -> Result<Vec<TournamentRecord>, StoreError>;
    /// A tournament's entries, in the order they joined.
    async fn tournament_entries(&self, tournament_id: &str)
        -> Result<Vec<EntryRecord>, StoreError>;
    /// Stores a tournament game, its link and its players' seats together:
    /// a [`StoreError::Conflict`] (and no game) when either player still
    /// plays a game of the tournament (a unique index: two instances
    /// racing cannot both pass), or (rounds) already has a board in that
    /// round. The game's end (a [`crate::GameRepo::commit`] with an
    /// ending) frees the seats in its own transaction and, when a side did
    /// not make its first move, pauses that side's entry (an arena, a
    /// Swiss).
    async fn start_tournament_game(
        &self,
        link: &TournamentGameLink,
        game: &StoredGame,
    ) -> Result<(), StoreError> {
        let board = [(link.clone(), game.clone())];
        match self.start_tournament_games(&board).await?.pop() {
            Some(Err(why)) => Err(StoreError::Conflict(why)),
            _ => Ok(()),
        }
    }
    /// A wave's or a round's games, stored in one transaction, each as
    /// [`TournamentRepo::start_tournament_game`] stores one: a board
    /// refused (`Err` with the reason, where that gives a
    /// [`StoreError::Conflict`]) leaves nothing of itself and the others
    /// stored. One answer a board, in order; an `Err` of the whole call
    /// stored nothing.
    async fn start_tournament_games(
        &self,
        boards: &[(TournamentGameLink, StoredGame)],
    ) -> Result<Vec<Result<(), String>>, StoreError>;
    /// A tournament's games, oldest first.
    async fn tournament_games(
        &self,
        tournament_id: &str,
    ) -> Result<Vec<TournamentGame>, StoreError>;
    /// The tournament game `game_id`, if it is one.
    async fn tournament_game(&self, game_id: &str) -> Result<Option<TournamentGame>, StoreError>;
    /// The games of tournament `tournament_id` among `game_ids` (those
    /// that ended only, when `ended_only`), oldest first: what an arena's
    /// director reads of the games it knows to be going on.
    async fn tournament_games_among(
        &self,
        tournament_id: &str,
        game_ids: &[String],
        ended_only: bool,
    ) -> Result<Vec<TournamentGame>, StoreError>;
    /// The revision of a tournament's entries (`None`: no such
    /// tournament): it grows with every change of one of them (a join, a
    /// withdrawal, a pause, the first-move rule's pause) in the change's
    /// own statement, so that an unchanged revision means unchanged
    /// entries.
    async fn tournament_entries_rev(&self, tournament_id: &str) -> Result<Option<i64>, StoreError>;
    /// Records a bye; `false` when that player's bye of that round was
    /// recorded already.
    async fn add_tournament_bye(&self, bye: &ByeRecord) -> Result<bool, StoreError>;
    /// A tournament's byes, by round.
    async fn tournament_byes(&self, tournament_id: &str) -> Result<Vec<ByeRecord>, StoreError>;
    /// Takes or renews the director's lease of a tournament for `holder`
    /// until `until`: `true` when the lease was free, expired at `now`, or
    /// already `holder`'s. One conditional write: of instances racing,
    /// one wins.
    async fn take_director_lease(
        &self,
        tournament_id: &str,
        holder: &str,
        now: i64,
        until: i64,
    ) -> Result<bool, StoreError>;
}

/// Inserts a tournament (its values in [`TOURNAMENT_COLUMNS`]' order)
/// unless one with its schedule key is stored.
pub fn create_scheduled_sql(mark: fn(usize) -> String) -> String {
    format!(
        "INSERT INTO tournaments ({TOURNAMENT_COLUMNS}) VALUES ({}) \
         ON CONFLICT (schedule_key) DO NOTHING",
        crate::rows::placeholders(mark, 1, TOURNAMENT_COLUMNS.split(',').count())
    )
}

/// Records a bye `$1..$4` unless recorded.
pub fn bye_sql(mark: fn(usize) -> String) -> String {
    format!(
        "INSERT INTO tournament_byes (tournament_id, round, player, half_points) \
         VALUES ({}, {}, {}, {}) ON CONFLICT DO NOTHING",
        mark(1),
        mark(2),
        mark(3),
        mark(4)
    )
}

/// A tournament's byes, `$1` the tournament.
pub const BYES_SQL_SQLITE: &str = "SELECT tournament_id, round, player, half_points \
     FROM tournament_byes WHERE tournament_id = ?1 ORDER BY round, player";

/// A bye from a row of the byes' query.
pub fn read_bye(row: &impl Row) -> Result<ByeRecord, StoreError> {
    Ok(ByeRecord {
        tournament_id: row.text_nn(0)?,
        round: small(row.int_nn(1)?),
        player: row.text_nn(2)?,
        half_points: small(row.int_nn(3)?),
    })
}

/// The column that marks side `color` of a tournament game berserked
/// (written with the game's commit, [`crate::GameUpdate::berserk`]).
pub fn berserk_column(color: Color) -> &'static str {
    match color {
        Color::White => "white_berserked",
        Color::Black => "black_berserked",
    }
}
