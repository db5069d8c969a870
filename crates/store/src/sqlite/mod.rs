//! [`GameStore`] over an embedded SQLite file, with numbered schema
//! migrations (`migrations/sqlite/*.sql`). Every write is atomic and
//! durable (`synchronous = FULL`) before its call returns, so a move the
//! server has acknowledged survives the process being killed. Writes go to
//! one writer thread that commits them in groups ([`super::writer`]);
//! reads use a second connection (WAL lets them run beside the writer).

mod challenges;
mod chat;
mod games;
mod learning;
mod moderation;
mod players;
mod row;
mod tokens;
mod tournaments;
mod trust;

use super::writer::{writer_loop, Job, TypedJob};
use super::{
    AccountEvent, AccountRecord, BanRecord, GameListQuery, GameStore, GameSummary, GameUpdate,
    LessonRecord, MovesChange, PlayerRecord, PuzzleAttemptRecord, PuzzleResultWrite, RatingRecord,
    ReviewRecord, RunRecord, SeekRecord, StoreError, StoredGame,
};
use crate::chat::{ChatMessage, ChatReport, ChatRoom, ChatStore, NewChatMessage};
use crate::token::{TokenRecord, TokenStore};
use crate::tournament::{
    ByeRecord, EntryRecord, TournamentGame, TournamentGameLink, TournamentRecord, TournamentState,
    TournamentStore,
};
use crate::RatingPool;
use async_trait::async_trait;
use rusqlite::{params, Connection};
use std::path::Path;
use std::sync::{mpsc, Arc, Mutex};
use tensorchess_rules::{Color, VariantKind};

/// Schema migrations, applied in order; `PRAGMA user_version` counts those
/// done. Append new ones; never edit one that has shipped.
const MIGRATIONS: &[&str] = &[
    include_str!("../migrations/sqlite/0001_games.sql"),
    include_str!("../migrations/sqlite/0002_online.sql"),
    include_str!("../migrations/sqlite/0003_players.sql"),
    include_str!("../migrations/sqlite/0004_learning.sql"),
    include_str!("../migrations/sqlite/0005_moderation.sql"),
    include_str!("../migrations/sqlite/0006_chat.sql"),
    include_str!("../migrations/sqlite/0007_challenges.sql"),
    include_str!("../migrations/sqlite/0008_tokens.sql"),
    include_str!("../migrations/sqlite/0009_correspondence.sql"),
    include_str!("../migrations/sqlite/0010_tournaments.sql"),
    include_str!("../migrations/sqlite/0011_scheduled_tournaments.sql"),
    include_str!("../migrations/sqlite/0012_correspondence_tournaments.sql"),
    include_str!("../migrations/sqlite/0013_tournament_trust.sql"),
    // Issue 38's trust (follows, preferences, caps' keys).
    include_str!("../migrations/sqlite/0014_trust.sql"),
];

/// The number of migrations this program knows.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> StoreError {
        StoreError::Backend(e.to_string())
    }
}

/// The SQLite implementation of [`GameStore`].
#[derive(Clone)]
pub struct SqliteStore {
    writer: Arc<mpsc::Sender<Box<dyn Job>>>,
    reader: Arc<Mutex<Connection>>,
}

fn connect(path: &Path) -> Result<Connection, StoreError> {
    let conn = Connection::open(path)?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "FULL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    Ok(conn)
}

impl SqliteStore {
    /// Opens (creating if needed) the database file and brings its schema up to date.
    pub fn open(path: impl AsRef<Path>) -> Result<SqliteStore, StoreError> {
        let path = path.as_ref();
        let mut conn = connect(path)?;
        migrate(&mut conn, path)?;
        let reader = connect(path)?;
        let (tx, rx) = mpsc::channel::<Box<dyn Job>>();
        std::thread::Builder::new()
            .name("sqlite-writer".into())
            .spawn(move || writer_loop(conn, rx))
            .map_err(|e| StoreError::Task(format!("cannot start the database writer: {e}")))?;
        Ok(SqliteStore {
            writer: Arc::new(tx),
            reader: Arc::new(Mutex::new(reader)),
        })
    }

    /// The schema version of the open database.
    pub fn schema_version(&self) -> Result<i64, StoreError> {
        let conn = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        Ok(conn.pragma_query_value(None, "user_version", |r| r.get(0))?)
    }

    /// Runs a read on the read connection, off the async runtime.
    async fn read<T, F>(&self, f: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
    {
        let conn = self.reader.clone();
        tokio::task::spawn_blocking(move || {
            let guard = conn.lock().unwrap_or_else(|e| e.into_inner());
            f(&guard)
        })
        .await
        .map_err(|e| StoreError::Task(e.to_string()))?
    }

    /// Queues a write; answers once it is committed (or failed).
    async fn write<T, F>(&self, f: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
    {
        let (reply, answer) = tokio::sync::oneshot::channel();
        let job: Box<dyn Job> = Box::new(TypedJob {
            f: Some(f),
            out: None,
            reply,
        });
        let stopped = || StoreError::Task("the database writer stopped".into());
        self.writer.send(job).map_err(|_| stopped())?;
        answer.await.map_err(|_| stopped())?
    }
}

fn migrate(conn: &mut Connection, path: &Path) -> Result<(), StoreError> {
    let current: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    if current > SCHEMA_VERSION {
        return Err(StoreError::TooNew {
            path: path.display().to_string(),
            found: current,
            known: SCHEMA_VERSION,
        });
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(current as usize) {
        let tx = conn.transaction()?;
        tx.execute_batch(sql)?;
        tx.pragma_update(None, "user_version", (i + 1) as i64)?;
        tx.commit()?;
    }
    trust::fill_name_keys(conn)
}

#[async_trait]
impl TournamentStore for SqliteStore {
    async fn create_tournament(&self, t: &TournamentRecord) -> Result<(), StoreError> {
        let t = t.clone();
        self.write(move |conn| tournaments::create(conn, &t)).await
    }

    async fn create_scheduled_tournament(&self, t: &TournamentRecord) -> Result<bool, StoreError> {
        let t = t.clone();
        self.write(move |conn| tournaments::create_scheduled(conn, &t))
            .await
    }

    async fn tournament(&self, id: &str) -> Result<Option<TournamentRecord>, StoreError> {
        let id = id.to_string();
        self.read(move |conn| tournaments::get(conn, &id)).await
    }

    async fn tournaments_in(
        &self,
        state: TournamentState,
        limit: usize,
    ) -> Result<Vec<TournamentRecord>, StoreError> {
        self.read(move |conn| tournaments::in_state(conn, state, limit))
            .await
    }

    async fn create_tournament_capped(
        &self,
        t: &TournamentRecord,
        client: Option<&str>,
        caps: &crate::trust::TournamentCaps,
    ) -> Result<Option<crate::trust::Cap>, StoreError> {
        let (t, client, caps) = (t.clone(), client.map(str::to_string), caps.clone());
        self.write(move |conn| tournaments::create_capped(conn, &t, client.as_deref(), &caps))
            .await
    }

    async fn tournaments_created_since(
        &self,
        player: &str,
        since: i64,
    ) -> Result<usize, StoreError> {
        let player = player.to_string();
        self.read(move |conn| tournaments::created_since(conn, &player, since))
            .await
    }

    async fn set_tournament_state(
        &self,
        id: &str,
        from: TournamentState,
        to: TournamentState,
    ) -> Result<bool, StoreError> {
        let id = id.to_string();
        self.write(move |conn| tournaments::set_state(conn, &id, from, to))
            .await
    }

    async fn join_tournament(
        &self,
        entry: &EntryRecord,
        max_players: u32,
    ) -> Result<bool, StoreError> {
        let entry = entry.clone();
        self.write(move |conn| tournaments::join(conn, &entry, max_players))
            .await
    }

    async fn set_entry(
        &self,
        tournament_id: &str,
        player: &str,
        withdrawn: bool,
        paused: bool,
    ) -> Result<bool, StoreError> {
        let (t, p) = (tournament_id.to_string(), player.to_string());
        self.write(move |conn| tournaments::set_entry(conn, &t, &p, withdrawn, paused))
            .await
    }

    async fn tournament_entries(
        &self,
        tournament_id: &str,
    ) -> Result<Vec<EntryRecord>, StoreError> {
        let t = tournament_id.to_string();
        self.read(move |conn| tournaments::entries(conn, &t)).await
    }

    async fn entered_tournaments(&self, player: &str) -> Result<Vec<TournamentRecord>, StoreError> {
        let p = player.to_string();
        self.read(move |conn| tournaments::entered(conn, &p)).await
    }

    async fn start_tournament_game(
        &self,
        link: &TournamentGameLink,
        game: &StoredGame,
    ) -> Result<(), StoreError> {
        let (link, game) = (link.clone(), game.clone());
        self.write(move |conn| tournaments::start_game(conn, &link, &game))
            .await
    }

    async fn tournament_games(
        &self,
        tournament_id: &str,
    ) -> Result<Vec<TournamentGame>, StoreError> {
        let t = tournament_id.to_string();
        self.read(move |conn| tournaments::games_of(conn, &t)).await
    }

    async fn tournament_game(&self, game_id: &str) -> Result<Option<TournamentGame>, StoreError> {
        let g = game_id.to_string();
        self.read(move |conn| tournaments::game(conn, &g)).await
    }

    async fn set_berserk(&self, game_id: &str, color: Color) -> Result<bool, StoreError> {
        let g = game_id.to_string();
        self.write(move |conn| tournaments::berserk(conn, &g, color))
            .await
    }

    async fn add_tournament_bye(&self, bye: &ByeRecord) -> Result<bool, StoreError> {
        let bye = bye.clone();
        self.write(move |conn| tournaments::add_bye(conn, &bye))
            .await
    }

    async fn tournament_byes(&self, tournament_id: &str) -> Result<Vec<ByeRecord>, StoreError> {
        let t = tournament_id.to_string();
        self.read(move |conn| tournaments::byes(conn, &t)).await
    }

    async fn take_director_lease(
        &self,
        tournament_id: &str,
        holder: &str,
        now: i64,
        until: i64,
    ) -> Result<bool, StoreError> {
        let (t, h) = (tournament_id.to_string(), holder.to_string());
        self.write(move |conn| tournaments::lease(conn, &t, &h, now, until))
            .await
    }
}

#[async_trait]
impl TokenStore for SqliteStore {
    async fn create_token(&self, token: &TokenRecord) -> Result<(), StoreError> {
        let token = token.clone();
        self.write(move |conn| tokens::create(conn, &token)).await
    }

    async fn token_by_hash(&self, hash: &str) -> Result<Option<TokenRecord>, StoreError> {
        let hash = hash.to_string();
        self.read(move |conn| tokens::by_hash(conn, &hash)).await
    }

    async fn tokens_of(&self, player: &str) -> Result<Vec<TokenRecord>, StoreError> {
        let player = player.to_string();
        self.read(move |conn| tokens::of(conn, &player)).await
    }

    async fn revoke_token(&self, id: &str, player: &str, at: i64) -> Result<bool, StoreError> {
        let (id, player) = (id.to_string(), player.to_string());
        self.write(move |conn| tokens::revoke(conn, &id, &player, at))
            .await
    }

    async fn touch_token(&self, id: &str, at: i64) -> Result<(), StoreError> {
        let id = id.to_string();
        self.write(move |conn| tokens::touch(conn, &id, at)).await
    }

    async fn make_bot(&self, player: &str, at: i64) -> Result<bool, StoreError> {
        let player = player.to_string();
        self.write(move |conn| tokens::make_bot(conn, &player, at))
            .await
    }

    async fn is_bot(&self, player: &str) -> Result<bool, StoreError> {
        let player = player.to_string();
        self.read(move |conn| tokens::is_bot(conn, &player)).await
    }

    async fn bots(&self) -> Result<Vec<String>, StoreError> {
        self.read(tokens::bots).await
    }
}

#[async_trait]
impl ChatStore for SqliteStore {
    async fn add_chat(&self, message: &NewChatMessage) -> Result<ChatMessage, StoreError> {
        let message = message.clone();
        self.write(move |conn| chat::add(conn, &message)).await
    }

    async fn chat(
        &self,
        game_id: &str,
        room: ChatRoom,
        limit: usize,
    ) -> Result<Vec<ChatMessage>, StoreError> {
        let game_id = game_id.to_string();
        self.read(move |conn| chat::room(conn, &game_id, room, limit))
            .await
    }

    async fn chat_message(&self, id: i64) -> Result<Option<ChatMessage>, StoreError> {
        self.read(move |conn| chat::message(conn, id)).await
    }

    async fn report_chat(
        &self,
        report: &crate::trust::NewReport,
        caps: &crate::trust::ReportCaps,
    ) -> Result<crate::trust::Reported, StoreError> {
        let (report, caps) = (report.clone(), caps.clone());
        self.write(move |conn| chat::report(conn, &report, &caps))
            .await
    }

    async fn open_reports(&self) -> Result<Vec<ChatReport>, StoreError> {
        self.read(chat::open_reports).await
    }

    async fn close_report(&self, id: i64, at: i64) -> Result<bool, StoreError> {
        self.write(move |conn| chat::close_report(conn, id, at))
            .await
    }

    async fn set_chat_mute(&self, player: &str, until: Option<i64>) -> Result<(), StoreError> {
        let player = player.to_string();
        self.write(move |conn| chat::set_mute(conn, &player, until))
            .await
    }

    async fn chat_muted_until(&self, player: &str) -> Result<Option<i64>, StoreError> {
        let player = player.to_string();
        self.read(move |conn| chat::muted_until(conn, &player))
            .await
    }

    async fn set_opponent_muted(
        &self,
        player: &str,
        game_id: &str,
        muted: bool,
    ) -> Result<(), StoreError> {
        let (player, game_id) = (player.to_string(), game_id.to_string());
        self.write(move |conn| chat::set_opponent_muted(conn, &player, &game_id, muted))
            .await
    }

    async fn opponent_muted(&self, player: &str, game_id: &str) -> Result<bool, StoreError> {
        let (player, game_id) = (player.to_string(), game_id.to_string());
        self.read(move |conn| chat::opponent_muted(conn, &player, &game_id))
            .await
    }
}

#[async_trait]
impl GameStore for SqliteStore {
    async fn create_game(&self, game: &StoredGame) -> Result<(), StoreError> {
        let game = game.clone();
        self.write(move |conn| games::insert_game(conn, &game))
            .await
    }

    async fn load_game_from(
        &self,
        id: &str,
        from: usize,
    ) -> Result<Option<StoredGame>, StoreError> {
        let id = id.to_string();
        self.read(move |conn| games::load_game(conn, &id, from))
            .await
    }

    async fn list_games(&self, query: &GameListQuery) -> Result<Vec<GameSummary>, StoreError> {
        let query = query.clone();
        self.read(move |conn| games::list_games(conn, &query)).await
    }

    async fn game_counts(&self, player: &str) -> Result<crate::GameCounts, StoreError> {
        let player = player.to_string();
        self.read(move |conn| games::game_counts(conn, &player))
            .await
    }

    async fn finished_online_games(
        &self,
        player: &str,
        limit: usize,
    ) -> Result<Vec<GameSummary>, StoreError> {
        let player = player.to_string();
        self.read(move |conn| games::finished_online_games(conn, &player, limit))
            .await
    }

    async fn commit(
        &self,
        id: &str,
        moves: &MovesChange,
        update: &GameUpdate,
    ) -> Result<(), StoreError> {
        let (id, moves, update) = (id.to_string(), moves.clone(), update.clone());
        self.write(move |conn| games::commit(conn, &id, &moves, &update))
            .await
    }

    async fn create_rematch(
        &self,
        game: &StoredGame,
        previous: &str,
        update: &GameUpdate,
    ) -> Result<(), StoreError> {
        let (game, previous, update) = (game.clone(), previous.to_string(), update.clone());
        self.write(move |conn| {
            games::apply_update(conn, &previous, &update)?;
            games::insert_game(conn, &game)
        })
        .await
    }

    async fn adopt_unowned(&self, owner: &str) -> Result<Vec<String>, StoreError> {
        let owner = owner.to_string();
        self.write(move |conn| {
            let ids = conn
                .prepare_cached(
                    "UPDATE games SET owner = ?1, rev = rev + 1 \
                     WHERE owner IS NULL AND mode != 'online' RETURNING id",
                )?
                .query_map(params![owner], |r| r.get::<_, String>(0))?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(ids)
        })
        .await
    }

    async fn delete_game(&self, id: &str) -> Result<bool, StoreError> {
        let id = id.to_string();
        self.write(move |conn| {
            conn.execute("DELETE FROM moves WHERE game_id = ?1", params![id])?;
            conn.execute("DELETE FROM online_games WHERE game_id = ?1", params![id])?;
            conn.execute("DELETE FROM game_reviews WHERE game_id = ?1", params![id])?;
            let n = conn.execute("DELETE FROM games WHERE id = ?1", params![id])?;
            Ok(n > 0)
        })
        .await
    }

    async fn running_correspondence_games(&self, player: &str) -> Result<Vec<String>, StoreError> {
        let player = player.to_string();
        self.read(move |conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT o.game_id FROM online_games o JOIN games g ON g.id = o.game_id \
                 WHERE o.days_per_move IS NOT NULL AND (o.white_player = ?1 OR o.black_player = ?1) \
                 AND g.result = '*' AND g.end_reason IS NULL ORDER BY g.updated_at, o.game_id",
            )?;
            let ids = stmt
                .query_map(params![player], |r| r.get(0))?
                .collect::<Result<Vec<String>, _>>()?;
            Ok(ids)
        })
        .await
    }

    async fn running_online_games(&self) -> Result<Vec<String>, StoreError> {
        self.read(|conn| {
            let mut stmt = conn.prepare(
                "SELECT o.game_id FROM online_games o JOIN games g ON g.id = o.game_id \
                 WHERE o.turn_started_at IS NOT NULL AND g.result = '*' AND g.end_reason IS NULL",
            )?;
            let ids = stmt
                .query_map([], |r| r.get(0))?
                .collect::<Result<Vec<String>, _>>()?;
            Ok(ids)
        })
        .await
    }

    async fn start_run(&self, boot_ms: i64) -> Result<i64, StoreError> {
        self.write(move |conn| {
            conn.execute(
                "INSERT INTO server_runs (boot_ms, last_seen_ms) VALUES (?1, ?1)",
                params![boot_ms],
            )?;
            Ok(conn.last_insert_rowid())
        })
        .await
    }

    async fn heartbeat(&self, run: i64, now_ms: i64) -> Result<(), StoreError> {
        self.write(move |conn| {
            conn.execute(
                "UPDATE server_runs SET last_seen_ms = MAX(last_seen_ms, ?2) WHERE id = ?1",
                params![run, now_ms],
            )?;
            Ok(())
        })
        .await
    }

    async fn runs_since(&self, since_ms: i64) -> Result<Vec<RunRecord>, StoreError> {
        self.read(move |conn| {
            let mut stmt = conn.prepare(
                "SELECT id, boot_ms, last_seen_ms FROM server_runs WHERE last_seen_ms > ?1 ORDER BY id",
            )?;
            let runs = stmt
                .query_map(params![since_ms], |r| {
                    Ok(RunRecord {
                        id: r.get(0)?,
                        boot_ms: r.get(1)?,
                        last_seen_ms: r.get(2)?,
                    })
                })?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(runs)
        })
        .await
    }

    async fn player(&self, id: &str) -> Result<Option<PlayerRecord>, StoreError> {
        let id = id.to_string();
        self.read(move |conn| players::player(conn, &id)).await
    }

    async fn save_player(&self, player: &PlayerRecord) -> Result<(), StoreError> {
        let player = player.clone();
        self.write(move |conn| players::save_player(conn, &player))
            .await
    }

    async fn session_player(&self, token_hash: &str) -> Result<Option<String>, StoreError> {
        let token_hash = token_hash.to_string();
        self.read(move |conn| players::session_player(conn, &token_hash))
            .await
    }

    async fn start_session(
        &self,
        token_hash: &str,
        player: &PlayerRecord,
        ending: Option<&str>,
    ) -> Result<(), StoreError> {
        let (token_hash, player) = (token_hash.to_string(), player.clone());
        let ending = ending.map(str::to_string);
        self.write(move |conn| {
            players::start_session(conn, &token_hash, &player, ending.as_deref())
        })
        .await
    }

    async fn end_session(&self, token_hash: &str) -> Result<(), StoreError> {
        let token_hash = token_hash.to_string();
        self.write(move |conn| moderation::end_session(conn, &token_hash))
            .await
    }

    async fn create_account(&self, account: &AccountRecord) -> Result<(), StoreError> {
        let account = account.clone();
        self.write(move |conn| players::create_account(conn, &account))
            .await
    }

    async fn account(&self, username: &str) -> Result<Option<AccountRecord>, StoreError> {
        let username = username.to_string();
        self.read(move |conn| players::account(conn, &username))
            .await
    }

    async fn merge_player(&self, from: &str, into: &str) -> Result<Vec<String>, StoreError> {
        let (from, into) = (from.to_string(), into.to_string());
        self.write(move |conn| players::merge_player(conn, &from, &into))
            .await
    }

    async fn ratings(&self, player: &str) -> Result<Vec<(RatingPool, RatingRecord)>, StoreError> {
        let player = player.to_string();
        self.read(move |conn| players::ratings(conn, &player)).await
    }

    async fn create_seek(&self, seek: &SeekRecord) -> Result<(), StoreError> {
        let seek = seek.clone();
        self.write(move |conn| players::create_seek(conn, &seek))
            .await
    }

    async fn open_seeks(&self, now: i64) -> Result<Vec<SeekRecord>, StoreError> {
        self.read(move |conn| players::open_seeks(conn, now)).await
    }

    async fn delete_seek(&self, id: &str, player: Option<&str>) -> Result<bool, StoreError> {
        let (id, player) = (id.to_string(), player.map(str::to_string));
        self.write(move |conn| players::delete_seek(conn, &id, player.as_deref()))
            .await
    }

    async fn delete_lapsed_seeks(&self, now: i64) -> Result<Vec<String>, StoreError> {
        self.write(move |conn| {
            Ok(conn
                .prepare_cached("DELETE FROM seeks WHERE expires_at <= ?1 RETURNING id")?
                .query_map(params![now], |r| r.get(0))?
                .collect::<Result<Vec<String>, _>>()?)
        })
        .await
    }

    async fn delete_seeks_of(&self, player: &str) -> Result<Vec<String>, StoreError> {
        let player = player.to_string();
        self.write(move |conn| players::delete_seeks_of(conn, &player))
            .await
    }

    async fn accept_seek(&self, id: &str, now: i64, game: &StoredGame) -> Result<(), StoreError> {
        let (id, game) = (id.to_string(), game.clone());
        self.write(move |conn| players::accept_seek(conn, &id, now, &game))
            .await
    }

    async fn review(&self, game_id: &str) -> Result<Option<ReviewRecord>, StoreError> {
        let game_id = game_id.to_string();
        self.read(move |conn| learning::review(conn, &game_id))
            .await
    }

    async fn save_review(&self, review: &ReviewRecord) -> Result<(), StoreError> {
        let review = review.clone();
        self.write(move |conn| learning::save_review(conn, &review))
            .await
    }

    async fn puzzle_player_rating(
        &self,
        player: &str,
        variant: VariantKind,
    ) -> Result<Option<RatingRecord>, StoreError> {
        let player = player.to_string();
        self.read(move |conn| learning::puzzle_player_rating(conn, &player, variant))
            .await
    }

    async fn puzzle_ratings(
        &self,
        variant: VariantKind,
    ) -> Result<Vec<(String, RatingRecord)>, StoreError> {
        self.read(move |conn| learning::puzzle_ratings(conn, variant))
            .await
    }

    async fn puzzle_attempted(&self, player: &str, puzzle: &str) -> Result<bool, StoreError> {
        let (player, puzzle) = (player.to_string(), puzzle.to_string());
        self.read(move |conn| learning::puzzle_attempted(conn, &player, &puzzle))
            .await
    }

    async fn recent_puzzle_attempts(
        &self,
        player: &str,
        variant: VariantKind,
        limit: usize,
    ) -> Result<Vec<PuzzleAttemptRecord>, StoreError> {
        let player = player.to_string();
        self.read(move |conn| learning::recent_puzzle_attempts(conn, &player, variant, limit))
            .await
    }

    async fn record_puzzle_attempt(&self, write: &PuzzleResultWrite) -> Result<(), StoreError> {
        let write = write.clone();
        self.write(move |conn| learning::record_puzzle_attempt(conn, &write))
            .await
    }

    async fn lesson_progress(&self, player: &str) -> Result<Vec<LessonRecord>, StoreError> {
        let player = player.to_string();
        self.read(move |conn| learning::lesson_progress(conn, &player))
            .await
    }

    async fn save_lesson_result(&self, result: &LessonRecord) -> Result<(), StoreError> {
        let result = result.clone();
        self.write(move |conn| learning::save_lesson_result(conn, &result))
            .await
    }

    async fn merge_learning(&self, from: &str, into: &str) -> Result<(), StoreError> {
        let (from, into) = (from.to_string(), into.to_string());
        self.write(move |conn| learning::merge_learning(conn, &from, &into))
            .await
    }

    async fn end_sessions(&self, player: &str, keep: Option<&str>) -> Result<usize, StoreError> {
        let (player, keep) = (player.to_string(), keep.map(str::to_string));
        self.write(move |conn| moderation::end_sessions(conn, &player, keep.as_deref()))
            .await
    }

    async fn set_password(&self, player: &str, password_hash: &str) -> Result<(), StoreError> {
        let (player, hash) = (player.to_string(), password_hash.to_string());
        self.write(move |conn| moderation::set_password(conn, &player, &hash))
            .await
    }

    async fn ban(&self, ban: &BanRecord) -> Result<(), StoreError> {
        let ban = ban.clone();
        self.write(move |conn| moderation::ban(conn, &ban)).await
    }

    async fn unban(&self, player: &str) -> Result<bool, StoreError> {
        let player = player.to_string();
        self.write(move |conn| moderation::unban(conn, &player))
            .await
    }

    async fn ban_of(&self, player: &str) -> Result<Option<BanRecord>, StoreError> {
        let player = player.to_string();
        self.read(move |conn| moderation::ban_of(conn, &player))
            .await
    }

    async fn bans(&self) -> Result<Vec<BanRecord>, StoreError> {
        self.read(moderation::bans).await
    }

    async fn rename_account(
        &self,
        username: &str,
        new_username: &str,
    ) -> Result<Option<String>, StoreError> {
        let (old, new) = (username.to_string(), new_username.to_string());
        self.write(move |conn| moderation::rename_account(conn, &old, &new))
            .await
    }

    async fn close_account(&self, username: &str, at: i64) -> Result<Option<String>, StoreError> {
        let username = username.to_string();
        self.write(move |conn| moderation::close_account(conn, &username, at))
            .await
    }

    async fn account_events(
        &self,
        after: i64,
        limit: usize,
    ) -> Result<Vec<AccountEvent>, StoreError> {
        self.read(move |conn| moderation::account_events(conn, after, limit))
            .await
    }

    async fn last_account_event(&self) -> Result<i64, StoreError> {
        self.read(moderation::last_account_event).await
    }
}

#[cfg(test)]
mod tests;
