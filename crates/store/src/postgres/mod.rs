//! [`GameStore`] over a PostgreSQL server, which several server instances
//! may share. Each write is one transaction on a pooled connection
//! (deadpool); a change to a game is an `UPDATE … WHERE id = $1 AND rev =
//! $2 - 1`, which PostgreSQL re-checks after waiting for the row lock, so
//! of two instances racing for the same revision exactly one wins and the
//! other gets [`StoreError::Stale`]. A commit returns once PostgreSQL has
//! made it durable (`synchronous_commit` as the server sets it, `on` by
//! default). Numbered migrations (`migrations/postgres/*.sql`) run at
//! start, recorded in `schema_migrations`.

mod challenges;
mod chat;
mod games;
mod learning;
mod listen;
mod moderation;
mod players;
mod row;
mod tokens;
mod tournaments;
mod trust;

use super::database::redact;
use super::{
    AccountEvent, AccountRecord, BanRecord, GameListQuery, GameStep, GameStore, GameSummary,
    GameUpdate, LessonRecord, MovesChange, Notice, PlayerRecord, PuzzleAttemptRecord,
    PuzzleResultWrite, RatingRecord, ReviewRecord, RunRecord, SeekRecord, StoreError, StoreNotice,
    StoredGame, MAX_STEP_NOTICE,
};
use crate::chat::{ChatMessage, ChatReport, ChatRoom, ChatStore, NewChatMessage};
use crate::token::{TokenRecord, TokenStore};
use crate::tournament::{
    ByeRecord, EntryRecord, TournamentGame, TournamentGameLink, TournamentRecord, TournamentState,
    TournamentStore,
};
use crate::RatingPool;
use async_trait::async_trait;
use deadpool_postgres::{
    GenericClient, Manager, ManagerConfig, Object, Pool, RecyclingMethod, Runtime,
};
use std::str::FromStr;
use std::time::Duration;
use tensorchess_rules::{Color, VariantKind};
use tokio_postgres::NoTls;

/// Schema migrations, applied in order, each recorded in
/// `schema_migrations`; the same numbers mean the same schema as SQLite's.
/// Append new ones; never edit one that has shipped.
const MIGRATIONS: &[&str] = &[
    include_str!("../migrations/postgres/0001_games.sql"),
    include_str!("../migrations/postgres/0002_online.sql"),
    include_str!("../migrations/postgres/0003_players.sql"),
    include_str!("../migrations/postgres/0004_learning.sql"),
    include_str!("../migrations/postgres/0005_moderation.sql"),
    include_str!("../migrations/postgres/0006_chat.sql"),
    include_str!("../migrations/postgres/0007_challenges.sql"),
    include_str!("../migrations/postgres/0008_tokens.sql"),
    include_str!("../migrations/postgres/0009_correspondence.sql"),
    include_str!("../migrations/postgres/0010_tournaments.sql"),
    include_str!("../migrations/postgres/0011_scheduled_tournaments.sql"),
    include_str!("../migrations/postgres/0012_correspondence_tournaments.sql"),
    include_str!("../migrations/postgres/0013_tournament_trust.sql"),
    // Issue 38's trust (follows, preferences, caps' keys).
    include_str!("../migrations/postgres/0014_trust.sql"),
];

/// The number of migrations this program knows.
pub const PG_SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// Connections one server keeps open at most: enough for the writes of a
/// busy instance, few enough that several instances fit PostgreSQL's
/// default `max_connections` (100).
const POOL_SIZE: usize = 16;

impl From<tokio_postgres::Error> for StoreError {
    fn from(e: tokio_postgres::Error) -> StoreError {
        // The server's own message says more than the driver's "db error".
        StoreError::Backend(match e.as_db_error() {
            Some(db) => format!("{}: {}", db.code().code(), db.message()),
            None => match std::error::Error::source(&e) {
                Some(cause) => format!("{e}: {cause}"),
                None => e.to_string(),
            },
        })
    }
}

impl From<deadpool_postgres::PoolError> for StoreError {
    fn from(e: deadpool_postgres::PoolError) -> StoreError {
        match e {
            deadpool_postgres::PoolError::Backend(e) => e.into(),
            e => StoreError::Backend(format!("no database connection: {e}")),
        }
    }
}

/// The PostgreSQL implementation of [`GameStore`].
#[derive(Clone)]
pub struct PgStore {
    pool: Pool,
    url: String,
    /// How to open the listener's own connection.
    config: tokio_postgres::Config,
    /// The `NOTIFY` channel of this schema's servers (channels are per
    /// database, so stores in other schemas must not hear these).
    channel: String,
    /// The schema holding this store's tables.
    schema: String,
    /// The server using this store, named in its game notices.
    instance: std::sync::OnceLock<String>,
}

impl PgStore {
    /// Connects to the database at `url` and brings its schema up to date.
    pub async fn open(url: &str) -> Result<PgStore, StoreError> {
        PgStore::connect(url, None).await
    }

    /// [`PgStore::open`] with every table in `schema` (created if needed),
    /// so that several stores (tests, or tenants) can share a database.
    pub async fn open_in_schema(url: &str, schema: &str) -> Result<PgStore, StoreError> {
        if schema.is_empty()
            || !schema
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_')
        {
            return Err(StoreError::Backend(format!(
                "the schema name {schema:?} is not letters, digits and _"
            )));
        }
        PgStore::connect(url, Some(schema)).await
    }

    async fn connect(url: &str, schema: Option<&str>) -> Result<PgStore, StoreError> {
        let mut config = tokio_postgres::Config::from_str(url)
            .map_err(|e| StoreError::Backend(format!("{}: {e}", redact(url))))?;
        if config.get_application_name().is_none() {
            config.application_name("tensorchess");
        }
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(Duration::from_secs(10));
        }
        if let Some(schema) = schema {
            // Before anything else on the pool: the schema must exist for
            // the search path to use it.
            // IF NOT EXISTS is not safe against a concurrent CREATE (the
            // loser fails on a unique index): stores opening together take
            // turns.
            let (mut client, conn) = config.connect(NoTls).await?;
            let task = tokio::spawn(conn);
            let tx = client.transaction().await?;
            tx.batch_execute(&format!(
                "SELECT pg_advisory_xact_lock(hashtext('tensorchess schema {schema}'));
                 CREATE SCHEMA IF NOT EXISTS {schema};"
            ))
            .await?;
            tx.commit().await?;
            drop(client);
            let _ = task.await;
            config.options(format!("-c search_path={schema}"));
        }
        let manager = Manager::from_config(
            config.clone(),
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(POOL_SIZE)
            .runtime(Runtime::Tokio1)
            .create_timeout(Some(Duration::from_secs(10)))
            .wait_timeout(Some(Duration::from_secs(30)))
            .build()
            .map_err(|e| StoreError::Backend(e.to_string()))?;
        let mut store = PgStore {
            pool,
            url: redact(url),
            config,
            channel: String::new(),
            schema: String::new(),
            instance: std::sync::OnceLock::new(),
        };
        store.migrate().await?;
        let schema: String = store
            .client()
            .await?
            .query_one("SELECT current_schema()::TEXT", &[])
            .await?
            .try_get(0)?;
        store.channel = format!("tensorchess {schema}");
        store.schema = schema;
        Ok(store)
    }

    /// The database, without its password.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The schema holding the tables (`public` unless opened in one).
    pub fn schema(&self) -> &str {
        &self.schema
    }

    /// The number of migrations applied to the database.
    pub async fn schema_version(&self) -> Result<i64, StoreError> {
        let c = self.client().await?;
        let row = c
            .query_one(
                "SELECT COALESCE(MAX(version), 0)::BIGINT FROM schema_migrations",
                &[],
            )
            .await?;
        Ok(row.try_get(0)?)
    }

    async fn client(&self) -> Result<Object, StoreError> {
        Ok(self.pool.get().await?)
    }

    /// Applies the migrations not yet recorded, in one transaction, under
    /// an advisory lock: instances starting together migrate once.
    async fn migrate(&self) -> Result<(), StoreError> {
        let mut c = self.client().await?;
        let tx = c.transaction().await?;
        tx.batch_execute(
            "SELECT pg_advisory_xact_lock(hashtext('tensorchess migrations ' || current_schema()));
             CREATE TABLE IF NOT EXISTS schema_migrations (
                 version    BIGINT PRIMARY KEY,
                 applied_at BIGINT NOT NULL
             );",
        )
        .await?;
        let current: i64 = tx
            .query_one(
                "SELECT COALESCE(MAX(version), 0)::BIGINT FROM schema_migrations",
                &[],
            )
            .await?
            .try_get(0)?;
        if current > PG_SCHEMA_VERSION {
            return Err(StoreError::TooNew {
                path: self.url.clone(),
                found: current,
                known: PG_SCHEMA_VERSION,
            });
        }
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis() as i64)
            .unwrap_or(0);
        for (i, sql) in MIGRATIONS.iter().enumerate().skip(current as usize) {
            tx.batch_execute(sql).await?;
            tx.execute(
                "INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)",
                &[&((i + 1) as i64), &now],
            )
            .await?;
        }
        trust::fill_name_keys(&tx).await?;
        tx.commit().await?;
        Ok(())
    }
}

/// Runs `$body` in a transaction on a pooled connection and commits it;
/// an error (or a panic) drops the transaction, which rolls it back.
macro_rules! write_tx {
    ($self:ident, |$tx:ident| $body:expr) => {{
        let mut client = $self.client().await?;
        let $tx = client.transaction().await?;
        let out = $body;
        $tx.commit().await?;
        Ok(out)
    }};
}

/// Sends `notice` on the servers' channel, as part of `c`'s transaction
/// when it is one (then only if it commits).
async fn send_notice(
    c: &impl GenericClient,
    channel: &str,
    notice: &Notice,
) -> Result<(), StoreError> {
    send_text(c, channel, &notice.to_string()).await
}

/// [`send_notice`] of a notice already written out.
async fn send_text(c: &impl GenericClient, channel: &str, text: &str) -> Result<(), StoreError> {
    let stmt = c.prepare_cached("SELECT pg_notify($1, $2)").await?;
    c.execute(&stmt, &[&channel, &text]).await?;
    Ok(())
}

impl PgStore {
    /// The notice of a commit: with its step when it was one plain move
    /// and the notice stays short.
    fn game_notice(&self, id: &str, moves: &MovesChange, update: &GameUpdate) -> String {
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
impl TournamentStore for PgStore {
    async fn create_tournament(&self, t: &TournamentRecord) -> Result<(), StoreError> {
        tournaments::create(&self.client().await?, t).await
    }

    async fn create_scheduled_tournament(&self, t: &TournamentRecord) -> Result<bool, StoreError> {
        tournaments::create_scheduled(&self.client().await?, t).await
    }

    async fn tournament(&self, id: &str) -> Result<Option<TournamentRecord>, StoreError> {
        tournaments::get(&self.client().await?, id).await
    }

    async fn tournaments_in(
        &self,
        state: TournamentState,
        limit: usize,
    ) -> Result<Vec<TournamentRecord>, StoreError> {
        tournaments::in_state(&self.client().await?, state, limit).await
    }

    async fn create_tournament_capped(
        &self,
        t: &TournamentRecord,
        client: Option<&str>,
        caps: &crate::trust::TournamentCaps,
    ) -> Result<Option<crate::trust::Cap>, StoreError> {
        write_tx!(self, |tx| tournaments::create_capped(&tx, t, client, caps)
            .await?)
    }

    async fn tournaments_created_since(
        &self,
        player: &str,
        since: i64,
    ) -> Result<usize, StoreError> {
        tournaments::created_since(&self.client().await?, player, since).await
    }

    async fn set_tournament_state(
        &self,
        id: &str,
        from: TournamentState,
        to: TournamentState,
    ) -> Result<bool, StoreError> {
        tournaments::set_state(&self.client().await?, id, from, to).await
    }

    async fn join_tournament(
        &self,
        entry: &EntryRecord,
        max_players: u32,
    ) -> Result<bool, StoreError> {
        tournaments::join(&self.client().await?, entry, max_players).await
    }

    async fn set_entry(
        &self,
        tournament_id: &str,
        player: &str,
        withdrawn: bool,
        paused: bool,
    ) -> Result<bool, StoreError> {
        tournaments::set_entry(
            &self.client().await?,
            tournament_id,
            player,
            withdrawn,
            paused,
        )
        .await
    }

    async fn tournament_entries(
        &self,
        tournament_id: &str,
    ) -> Result<Vec<EntryRecord>, StoreError> {
        tournaments::entries(&self.client().await?, tournament_id).await
    }

    async fn entered_tournaments(&self, player: &str) -> Result<Vec<TournamentRecord>, StoreError> {
        tournaments::entered(&self.client().await?, player).await
    }

    async fn start_tournament_game(
        &self,
        link: &TournamentGameLink,
        game: &StoredGame,
    ) -> Result<(), StoreError> {
        write_tx!(self, |tx| tournaments::start_game(&tx, link, game).await?)
    }

    async fn tournament_games(
        &self,
        tournament_id: &str,
    ) -> Result<Vec<TournamentGame>, StoreError> {
        tournaments::games_of(&self.client().await?, tournament_id).await
    }

    async fn tournament_game(&self, game_id: &str) -> Result<Option<TournamentGame>, StoreError> {
        tournaments::game(&self.client().await?, game_id).await
    }

    async fn set_berserk(&self, game_id: &str, color: Color) -> Result<bool, StoreError> {
        tournaments::berserk(&self.client().await?, game_id, color).await
    }

    async fn add_tournament_bye(&self, bye: &ByeRecord) -> Result<bool, StoreError> {
        tournaments::add_bye(&self.client().await?, bye).await
    }

    async fn tournament_byes(&self, tournament_id: &str) -> Result<Vec<ByeRecord>, StoreError> {
        tournaments::byes(&self.client().await?, tournament_id).await
    }

    async fn take_director_lease(
        &self,
        tournament_id: &str,
        holder: &str,
        now: i64,
        until: i64,
    ) -> Result<bool, StoreError> {
        tournaments::lease(&self.client().await?, tournament_id, holder, now, until).await
    }
}

#[async_trait]
impl TokenStore for PgStore {
    async fn create_token(&self, token: &TokenRecord) -> Result<(), StoreError> {
        tokens::create(&self.client().await?, token).await
    }

    async fn token_by_hash(&self, hash: &str) -> Result<Option<TokenRecord>, StoreError> {
        tokens::by_hash(&self.client().await?, hash).await
    }

    async fn tokens_of(&self, player: &str) -> Result<Vec<TokenRecord>, StoreError> {
        tokens::of(&self.client().await?, player).await
    }

    async fn revoke_token(&self, id: &str, player: &str, at: i64) -> Result<bool, StoreError> {
        tokens::revoke(&self.client().await?, id, player, at).await
    }

    async fn touch_token(&self, id: &str, at: i64) -> Result<(), StoreError> {
        tokens::touch(&self.client().await?, id, at).await
    }

    async fn make_bot(&self, player: &str, at: i64) -> Result<bool, StoreError> {
        tokens::make_bot(&self.client().await?, player, at).await
    }

    async fn is_bot(&self, player: &str) -> Result<bool, StoreError> {
        tokens::is_bot(&self.client().await?, player).await
    }

    async fn bots(&self) -> Result<Vec<String>, StoreError> {
        tokens::bots(&self.client().await?).await
    }
}

#[async_trait]
impl ChatStore for PgStore {
    async fn add_chat(&self, message: &NewChatMessage) -> Result<ChatMessage, StoreError> {
        chat::add(&self.client().await?, message).await
    }

    async fn chat(
        &self,
        game_id: &str,
        room: ChatRoom,
        limit: usize,
    ) -> Result<Vec<ChatMessage>, StoreError> {
        chat::room(&self.client().await?, game_id, room, limit).await
    }

    async fn chat_message(&self, id: i64) -> Result<Option<ChatMessage>, StoreError> {
        chat::message(&self.client().await?, id).await
    }

    async fn report_chat(
        &self,
        report: &crate::trust::NewReport,
        caps: &crate::trust::ReportCaps,
    ) -> Result<crate::trust::Reported, StoreError> {
        write_tx!(self, |tx| chat::report(&tx, report, caps).await?)
    }

    async fn open_reports(&self) -> Result<Vec<ChatReport>, StoreError> {
        chat::open_reports(&self.client().await?).await
    }

    async fn close_report(&self, id: i64, at: i64) -> Result<bool, StoreError> {
        chat::close_report(&self.client().await?, id, at).await
    }

    async fn set_chat_mute(&self, player: &str, until: Option<i64>) -> Result<(), StoreError> {
        chat::set_mute(&self.client().await?, player, until).await
    }

    async fn chat_muted_until(&self, player: &str) -> Result<Option<i64>, StoreError> {
        chat::muted_until(&self.client().await?, player).await
    }

    async fn set_opponent_muted(
        &self,
        player: &str,
        game_id: &str,
        muted: bool,
    ) -> Result<(), StoreError> {
        chat::set_opponent_muted(&self.client().await?, player, game_id, muted).await
    }

    async fn opponent_muted(&self, player: &str, game_id: &str) -> Result<bool, StoreError> {
        chat::opponent_muted(&self.client().await?, player, game_id).await
    }
}

#[async_trait]
impl GameStore for PgStore {
    async fn create_game(&self, game: &StoredGame) -> Result<(), StoreError> {
        write_tx!(self, |tx| games::insert_game(&tx, game).await?)
    }

    async fn load_game_from(
        &self,
        id: &str,
        from: usize,
    ) -> Result<Option<StoredGame>, StoreError> {
        // One statement, so one snapshot: the revision goes with the
        // moves it counts.
        games::load_game(&self.client().await?, id, from).await
    }

    async fn list_games(&self, query: &GameListQuery) -> Result<Vec<GameSummary>, StoreError> {
        games::list_games(&self.client().await?, query).await
    }

    async fn game_counts(&self, player: &str) -> Result<crate::GameCounts, StoreError> {
        games::game_counts(&self.client().await?, player).await
    }

    async fn finished_online_games(
        &self,
        player: &str,
        limit: usize,
    ) -> Result<Vec<GameSummary>, StoreError> {
        games::finished_online_games(&self.client().await?, player, limit).await
    }

    async fn commit(
        &self,
        id: &str,
        moves: &MovesChange,
        update: &GameUpdate,
    ) -> Result<(), StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        let notice = self.game_notice(id, moves, update);
        if games::commit(&tx, id, moves, update, (&self.channel, &notice)).await? {
            tx.commit().await?;
            return Ok(());
        }
        tx.rollback().await?;
        Err(games::not_bumped(&client, id).await)
    }

    async fn create_rematch(
        &self,
        game: &StoredGame,
        previous: &str,
        update: &GameUpdate,
    ) -> Result<(), StoreError> {
        write_tx!(self, |tx| {
            games::apply_update(&tx, previous, update).await?;
            games::insert_game(&tx, game).await?;
            let notice = self.game_notice(previous, &MovesChange::Keep, update);
            send_text(&tx, &self.channel, &notice).await?
        })
    }

    async fn adopt_unowned(&self, owner: &str) -> Result<Vec<String>, StoreError> {
        let c = self.client().await?;
        let rows = c
            .query(
                "UPDATE games SET owner = $1, rev = rev + 1 \
                 WHERE owner IS NULL AND mode != 'online' RETURNING id",
                &[&owner],
            )
            .await?;
        Ok(rows
            .iter()
            .map(|r| r.try_get::<_, String>(0))
            .collect::<Result<Vec<_>, _>>()?)
    }

    async fn delete_game(&self, id: &str) -> Result<bool, StoreError> {
        // Moves and online state go with it (ON DELETE CASCADE).
        let c = self.client().await?;
        let gone = c.execute("DELETE FROM games WHERE id = $1", &[&id]).await? > 0;
        if gone {
            let notice = Notice::Deleted { id: id.to_string() };
            send_notice(&c, &self.channel, &notice).await?;
        }
        Ok(gone)
    }

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

    async fn running_correspondence_games(&self, player: &str) -> Result<Vec<String>, StoreError> {
        let c = self.client().await?;
        let rows = c
            .query(
                "SELECT o.game_id FROM online_games o JOIN games g ON g.id = o.game_id \
                 WHERE o.days_per_move IS NOT NULL AND (o.white_player = $1 OR o.black_player = $1) \
                 AND g.result = '*' AND g.end_reason IS NULL ORDER BY g.updated_at, o.game_id",
                &[&player],
            )
            .await?;
        rows.iter()
            .map(|r| Ok(r.try_get(0)?))
            .collect::<Result<_, StoreError>>()
    }

    async fn running_online_games(&self) -> Result<Vec<String>, StoreError> {
        let c = self.client().await?;
        let rows = c
            .query(
                "SELECT o.game_id FROM online_games o JOIN games g ON g.id = o.game_id \
                 WHERE o.turn_started_at IS NOT NULL AND g.result = '*' AND g.end_reason IS NULL \
                 ORDER BY o.game_id",
                &[],
            )
            .await?;
        rows.iter()
            .map(|r| Ok(r.try_get(0)?))
            .collect::<Result<_, StoreError>>()
    }

    async fn start_run(&self, boot_ms: i64) -> Result<i64, StoreError> {
        let c = self.client().await?;
        let row = c
            .query_one(
                "INSERT INTO server_runs (boot_ms, last_seen_ms) VALUES ($1, $1) RETURNING id",
                &[&boot_ms],
            )
            .await?;
        Ok(row.try_get(0)?)
    }

    async fn heartbeat(&self, run: i64, now_ms: i64) -> Result<(), StoreError> {
        let c = self.client().await?;
        let stmt = c
            .prepare_cached(
                "UPDATE server_runs SET last_seen_ms = GREATEST(last_seen_ms, $2) WHERE id = $1",
            )
            .await?;
        c.execute(&stmt, &[&run, &now_ms]).await?;
        Ok(())
    }

    async fn runs_since(&self, since_ms: i64) -> Result<Vec<RunRecord>, StoreError> {
        let c = self.client().await?;
        let rows = c
            .query(
                "SELECT id, boot_ms, last_seen_ms FROM server_runs WHERE last_seen_ms > $1 \
                 ORDER BY id",
                &[&since_ms],
            )
            .await?;
        rows.iter()
            .map(|r| {
                Ok(RunRecord {
                    id: r.try_get(0)?,
                    boot_ms: r.try_get(1)?,
                    last_seen_ms: r.try_get(2)?,
                })
            })
            .collect()
    }

    async fn player(&self, id: &str) -> Result<Option<PlayerRecord>, StoreError> {
        players::player(&self.client().await?, id).await
    }

    async fn save_player(&self, player: &PlayerRecord) -> Result<(), StoreError> {
        players::save_player(&self.client().await?, player).await
    }

    async fn session_player(&self, token_hash: &str) -> Result<Option<String>, StoreError> {
        players::session_player(&self.client().await?, token_hash).await
    }

    async fn start_session(
        &self,
        token_hash: &str,
        player: &PlayerRecord,
        ending: Option<&str>,
    ) -> Result<(), StoreError> {
        write_tx!(self, |tx| players::start_session(
            &tx,
            &self.channel,
            token_hash,
            player,
            ending
        )
        .await?)
    }

    async fn end_session(&self, token_hash: &str) -> Result<(), StoreError> {
        write_tx!(self, |tx| moderation::end_session(
            &tx,
            &self.channel,
            token_hash
        )
        .await?)
    }

    async fn create_account(&self, account: &AccountRecord) -> Result<(), StoreError> {
        write_tx!(self, |tx| players::create_account(&tx, account).await?)
    }

    async fn account(&self, username: &str) -> Result<Option<AccountRecord>, StoreError> {
        players::account(&self.client().await?, username).await
    }

    async fn merge_player(&self, from: &str, into: &str) -> Result<Vec<String>, StoreError> {
        write_tx!(self, |tx| players::merge_player(&tx, from, into).await?)
    }

    async fn ratings(&self, player: &str) -> Result<Vec<(RatingPool, RatingRecord)>, StoreError> {
        players::ratings(&self.client().await?, player).await
    }

    async fn create_seek(&self, seek: &SeekRecord) -> Result<(), StoreError> {
        players::create_seek(&self.client().await?, seek).await
    }

    async fn open_seeks(&self, now: i64) -> Result<Vec<SeekRecord>, StoreError> {
        players::open_seeks(&self.client().await?, now).await
    }

    async fn delete_seek(&self, id: &str, player: Option<&str>) -> Result<bool, StoreError> {
        let c = self.client().await?;
        let n = match player {
            Some(p) => {
                c.execute(
                    "DELETE FROM seeks WHERE id = $1 AND player_id = $2",
                    &[&id, &p],
                )
                .await?
            }
            None => c.execute("DELETE FROM seeks WHERE id = $1", &[&id]).await?,
        };
        Ok(n > 0)
    }

    async fn delete_lapsed_seeks(&self, now: i64) -> Result<Vec<String>, StoreError> {
        let c = self.client().await?;
        c.query(
            "DELETE FROM seeks WHERE expires_at <= $1 RETURNING id",
            &[&now],
        )
        .await?
        .iter()
        .map(|r| Ok(r.try_get(0)?))
        .collect()
    }

    async fn delete_seeks_of(&self, player: &str) -> Result<Vec<String>, StoreError> {
        let c = self.client().await?;
        c.query(
            "DELETE FROM seeks WHERE player_id = $1 RETURNING id",
            &[&player],
        )
        .await?
        .iter()
        .map(|r| Ok(r.try_get(0)?))
        .collect()
    }

    async fn accept_seek(&self, id: &str, now: i64, game: &StoredGame) -> Result<(), StoreError> {
        write_tx!(self, |tx| players::accept_seek(&tx, id, now, game).await?)
    }

    async fn review(&self, game_id: &str) -> Result<Option<ReviewRecord>, StoreError> {
        learning::review(&self.client().await?, game_id).await
    }

    async fn save_review(&self, review: &ReviewRecord) -> Result<(), StoreError> {
        write_tx!(self, |tx| learning::save_review(&tx, review).await?)
    }

    async fn puzzle_player_rating(
        &self,
        player: &str,
        variant: VariantKind,
    ) -> Result<Option<RatingRecord>, StoreError> {
        learning::puzzle_player_rating(&self.client().await?, player, variant).await
    }

    async fn puzzle_ratings(
        &self,
        variant: VariantKind,
    ) -> Result<Vec<(String, RatingRecord)>, StoreError> {
        learning::puzzle_ratings(&self.client().await?, variant).await
    }

    async fn puzzle_attempted(&self, player: &str, puzzle: &str) -> Result<bool, StoreError> {
        learning::puzzle_attempted(&self.client().await?, player, puzzle).await
    }

    async fn recent_puzzle_attempts(
        &self,
        player: &str,
        variant: VariantKind,
        limit: usize,
    ) -> Result<Vec<PuzzleAttemptRecord>, StoreError> {
        learning::recent_puzzle_attempts(&self.client().await?, player, variant, limit).await
    }

    async fn record_puzzle_attempt(&self, write: &PuzzleResultWrite) -> Result<(), StoreError> {
        write_tx!(self, |tx| learning::record_puzzle_attempt(&tx, write)
            .await?)
    }

    async fn lesson_progress(&self, player: &str) -> Result<Vec<LessonRecord>, StoreError> {
        learning::lesson_progress(&self.client().await?, player).await
    }

    async fn save_lesson_result(&self, result: &LessonRecord) -> Result<(), StoreError> {
        learning::save_lesson_result(&self.client().await?, result).await
    }

    async fn merge_learning(&self, from: &str, into: &str) -> Result<(), StoreError> {
        write_tx!(self, |tx| learning::merge_learning(&tx, from, into).await?)
    }

    async fn end_sessions(&self, player: &str, keep: Option<&str>) -> Result<usize, StoreError> {
        write_tx!(self, |tx| moderation::end_sessions(
            &tx,
            &self.channel,
            player,
            keep
        )
        .await?)
    }

    async fn set_password(&self, player: &str, password_hash: &str) -> Result<(), StoreError> {
        moderation::set_password(&self.client().await?, player, password_hash).await
    }

    async fn ban(&self, ban: &BanRecord) -> Result<(), StoreError> {
        write_tx!(self, |tx| moderation::ban(&tx, &self.channel, ban).await?)
    }

    async fn unban(&self, player: &str) -> Result<bool, StoreError> {
        write_tx!(self, |tx| moderation::unban(&tx, &self.channel, player)
            .await?)
    }

    async fn ban_of(&self, player: &str) -> Result<Option<BanRecord>, StoreError> {
        moderation::ban_of(&self.client().await?, player).await
    }

    async fn bans(&self) -> Result<Vec<BanRecord>, StoreError> {
        moderation::bans(&self.client().await?).await
    }

    async fn rename_account(
        &self,
        username: &str,
        new_username: &str,
    ) -> Result<Option<String>, StoreError> {
        write_tx!(self, |tx| moderation::rename_account(
            &tx,
            &self.channel,
            username,
            new_username
        )
        .await?)
    }

    async fn close_account(&self, username: &str, at: i64) -> Result<Option<String>, StoreError> {
        write_tx!(self, |tx| moderation::close_account(
            &tx,
            &self.channel,
            username,
            at
        )
        .await?)
    }

    async fn account_events(
        &self,
        after: i64,
        limit: usize,
    ) -> Result<Vec<AccountEvent>, StoreError> {
        moderation::account_events(&self.client().await?, after, limit).await
    }

    async fn last_account_event(&self) -> Result<i64, StoreError> {
        moderation::last_account_event(&self.client().await?).await
    }
}

/// Whether a statement failed on a unique constraint (a name or id taken
/// meanwhile, by another instance).
fn is_unique_violation(e: &tokio_postgres::Error) -> bool {
    e.code() == Some(&tokio_postgres::error::SqlState::UNIQUE_VIOLATION)
}

#[cfg(test)]
mod tests;
