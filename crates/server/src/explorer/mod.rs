//! The opening explorer (issue 42): every finished online game counted,
//! move by move from each position of its first plies, in the store
//! ([`ExplorerRepo`](crate::store::ExplorerRepo)); a position asked for by
//! moves or a FEN answered in lichess's shape, with the engine's
//! evaluation of the position after each move (`evals.rs`: cached in the
//! store, computed in the background).
//!
//! A game is added when it ends on this server (the round tells the ids
//! of the games its commits end: `LiveGames::on_ended`); the store counts
//! a game once, whoever adds it. `rebuild` counts every stored game again
//! (`tensorchess admin explorer-rebuild`).

mod evals;
mod views;

pub use evals::EVAL_DEPTH;
pub use views::{ExplorerEvalView, ExplorerMoveView, ExplorerView, TopGamePlayer, TopGameView};

use crate::clock::Clock;
use crate::error::AppError;
use crate::game_views::{new_game, GameViews, VariantGame};
use crate::round::engine_player::EnginePlayer;
use crate::store::explorer::{band_of, RATING_BANDS, UNRATED_BAND};
use crate::store::{
    Ending, ExplorerFilter, ExplorerGame, ExplorerStep, GameMode, GameStore, Speed, StoreError,
    StoredGame,
};
use evals::EvalQueue;
use std::sync::{Arc, Weak};
use std::time::Duration;
use tensorchess_rules::{with_game, VariantKind};
use tokio::sync::{mpsc, watch};

/// The most moves a query may play from its start position.
pub const MAX_PLAY: usize = 400;

/// Games a rebuild reads, replays and counts at once (their rows summed
/// in memory, then written in one transaction): about 50 MB of games and
/// rows in memory for each of the two chunks in flight.
const REBUILD_CHUNK: usize = 10_000;

/// What the explorer is asked: a position, and which games count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExplorerQuery {
    /// The game.
    pub variant: VariantKind,
    /// The position to start from (`None`: the game's start).
    pub fen: Option<String>,
    /// Moves played from there (move strings, RULES 4.2).
    pub play: Vec<String>,
    /// Which games count.
    pub filter: ExplorerFilter,
}

impl ExplorerQuery {
    /// A query from lichess's parameters: `variant` (`tensor` when not
    /// given), `fen`, `play` (moves, comma separated), `rated`, `speeds`
    /// and `ratings` (comma separated); a bad request for anything else.
    pub fn parse(
        variant: Option<&str>,
        fen: Option<&str>,
        play: Option<&str>,
        rated: Option<bool>,
        speeds: Option<&str>,
        ratings: Option<&str>,
    ) -> Result<ExplorerQuery, AppError> {
        let variant = match variant.map(str::trim).filter(|v| !v.is_empty()) {
            None => VariantKind::Tensor,
            Some(v) => v.parse::<VariantKind>().map_err(|_| {
                AppError::bad(format!(
                    "Unknown variant '{}': tensor, chess (or standard) or chessence",
                    v.chars().take(32).collect::<String>()
                ))
            })?,
        };
        let play: Vec<String> = play
            .map(|p| {
                p.split(',')
                    .map(str::trim)
                    .filter(|m| !m.is_empty())
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default();
        if play.len() > MAX_PLAY {
            return Err(AppError::bad(format!(
                "At most {MAX_PLAY} moves may be played"
            )));
        }
        let mut filter = ExplorerFilter::all();
        filter.rated_only = rated.unwrap_or(false);
        if let Some(list) = speeds.filter(|s| !s.trim().is_empty()) {
            filter.speeds = 0;
            for word in list.split(',').map(str::trim).filter(|w| !w.is_empty()) {
                let speed = Speed::parse(word).ok_or_else(|| {
                    AppError::bad(format!(
                        "Unknown speed '{}': ultraBullet, bullet, blitz, rapid, classical \
                         or correspondence",
                        word.chars().take(32).collect::<String>()
                    ))
                })?;
                filter.speeds |= 1 << speed.index();
            }
        }
        if let Some(list) = ratings.filter(|s| !s.trim().is_empty()) {
            filter.bands = 0;
            for word in list.split(',').map(str::trim).filter(|w| !w.is_empty()) {
                let band = word
                    .parse::<i32>()
                    .ok()
                    .and_then(|r| RATING_BANDS.iter().position(|&b| b == r))
                    .ok_or_else(|| {
                        AppError::bad(format!(
                            "Unknown rating band '{}': one of {}",
                            word.chars().take(32).collect::<String>(),
                            RATING_BANDS.map(|b| b.to_string()).join(", ")
                        ))
                    })?;
                filter.bands |= 1 << band;
            }
        }
        Ok(ExplorerQuery {
            variant,
            fen: fen
                .map(str::trim)
                .filter(|f| !f.is_empty())
                .map(str::to_string),
            play,
            filter,
        })
    }
}

/// The game at the position `query` names: its moves played from its FEN
/// (or the start); a bad request for a bad FEN or move.
pub fn position_of(query: &ExplorerQuery) -> Result<VariantGame, AppError> {
    let mut game = new_game(query.variant, query.fen.as_deref())?;
    for (i, text) in query.play.iter().enumerate() {
        let m = game.parse_player_move(text).map_err(|e| match e {
            AppError::IllegalMove { text, reason } => {
                AppError::BadRequest(format!("Illegal move {text} at ply {}: {reason}", i + 1))
            }
            other => other,
        })?;
        game.push(m);
    }
    Ok(game)
}

/// The position's Zobrist hash (the rules crate's).
pub fn position_hash(game: &VariantGame) -> u64 {
    with_game!(game, g => g.position().hash())
}

/// A stored game as the explorer counts it: a finished online game (not
/// aborted) with its first plies; `None` for any other game, or one whose
/// moves do not replay.
pub fn explorer_game(stored: &StoredGame) -> Option<ExplorerGame> {
    let record = &stored.record;
    let online = stored.online.as_ref()?;
    if record.mode != GameMode::Online {
        return None;
    }
    let winner = match record.ending? {
        Ending::Outcome(o) => o.winner(),
        Ending::Imported { winner } => winner,
        Ending::Aborted { .. } => return None,
    };
    let mut game = new_game(record.variant, Some(&record.start_fen)).ok()?;
    let mut steps = Vec::new();
    for m in stored
        .moves
        .iter()
        .take(crate::store::explorer::EXPLORER_PLIES)
    {
        let mv = game.parse_player_move(&m.uci).ok()?;
        steps.push(ExplorerStep {
            hash: position_hash(&game),
            uci: game.move_string(mv),
        });
        game.push(mv);
    }
    let clock = online.clock.map(|c| (c.base_ms, c.increment_ms));
    Some(ExplorerGame {
        id: record.id.clone(),
        variant: record.variant,
        white: record.white.clone(),
        black: record.black.clone(),
        ratings: [online.ratings.white, online.ratings.black],
        winner,
        rated: record.rated,
        speed: if online.days.is_some() {
            Speed::Correspondence
        } else {
            Speed::of_clock(clock)
        },
        played_at: record.created_at,
        steps,
        after: position_hash(&game),
    })
}

/// How many games a rebuild read and counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rebuilt {
    /// Finished online games read.
    pub read: usize,
    /// Games counted (the others' moves did not replay).
    pub counted: usize,
}

/// Counts every finished online game again, from nothing: the explorer's
/// tables rebuilt from the stored games (evaluations are kept). Games
/// that end while it runs are counted once either way.
///
/// The games are read 10,000 at a time (`REBUILD_CHUNK`), replayed off the async
/// threads, and each chunk's rows summed and written (or staged) in one
/// transaction while the next chunk is read and replayed; the staged rows
/// are merged at the end
/// ([`ExplorerRepo::stage_explorer_games`](crate::store::ExplorerRepo)).
/// A rebuild stopped midway is run again.
pub async fn rebuild(store: &dyn GameStore) -> Result<Rebuilt, StoreError> {
    store.clear_explorer().await?;
    let mut done = Rebuilt::default();
    let mut after: Option<String> = None;
    let mut ready: Vec<ExplorerGame> = Vec::new();
    loop {
        let read = async {
            let stored = store
                .explorer_source_games(after.as_deref(), REBUILD_CHUNK)
                .await?;
            tokio::task::spawn_blocking(move || replay_all(stored))
                .await
                .map_err(|e| StoreError::Task(e.to_string()))
        };
        let write = async {
            if ready.is_empty() {
                Ok(0)
            } else {
                store.stage_explorer_games(&ready).await
            }
        };
        let (next, written) = tokio::join!(read, write);
        done.counted += written?;
        let (read, last, games) = next?;
        let Some(last) = last else {
            store.merge_explorer_games().await?;
            return Ok(done);
        };
        done.read += read;
        ready = games;
        after = Some(last);
    }
}

/// A page of stored games as the explorer counts them: how many were read,
/// the last id, and the games counted (the others' moves did not replay,
/// or they were aborted).
fn replay_all(stored: Vec<StoredGame>) -> (usize, Option<String>, Vec<ExplorerGame>) {
    let last = stored.last().map(|g| g.record.id.clone());
    let games = stored
        .iter()
        .filter_map(|g| {
            let game = explorer_game(g);
            if game.is_none() && !matches!(g.record.ending, Some(Ending::Aborted { .. })) {
                tracing::warn!(
                    "game {} is not counted: its moves do not replay",
                    g.record.id
                );
            }
            game
        })
        .collect();
    (stored.len(), last, games)
}

/// The explorer service.
pub struct Explorer {
    store: Arc<dyn GameStore>,
    evals: Arc<EvalQueue>,
}

impl Explorer {
    /// The explorer over `store`, evaluating with `engine`'s background
    /// searches.
    pub fn new(store: Arc<dyn GameStore>, engine: Arc<EnginePlayer>) -> Explorer {
        Explorer {
            evals: Arc::new(EvalQueue::new(store.clone(), engine)),
            store,
        }
    }

    /// Counts the game `id` if it is a finished online game (once, however
    /// often it is asked): whether it was counted now.
    pub async fn add_game(&self, id: &str) -> Result<bool, AppError> {
        let Some(stored) = self.store.load_game(id).await? else {
            return Ok(false);
        };
        match explorer_game(&stored) {
            Some(game) => Ok(self.store.add_explorer_game(&game).await?),
            None => Ok(false),
        }
    }

    /// Counts the finished games changed at or after `since` (ms) that no
    /// server counted (one that stopped between storing a game's end and
    /// counting it, or whose queue was full): how many it counted now.
    pub async fn catch_up(&self, since: i64) -> Result<usize, AppError> {
        let mut counted = 0;
        loop {
            let ids = self.store.uncounted_game_ids(since, CATCH_UP_PAGE).await?;
            let mut progress = false;
            for id in &ids {
                if self.add_game(id).await? {
                    counted += 1;
                    progress = true;
                }
            }
            // A page of games that cannot be counted (moves that do not
            // replay) would come back every time: stop there.
            if ids.len() < CATCH_UP_PAGE || !progress {
                return Ok(counted);
            }
        }
    }

    /// Starts the explorer's background work (the background module does):
    /// counting the games the round says ended (`ended`), and evaluating
    /// the positions queued, until the server stops or the explorer is
    /// gone (each task holds it weakly).
    pub fn start(
        self: &Arc<Self>,
        ended: mpsc::Receiver<String>,
        clock: Arc<dyn Clock>,
        stopping: watch::Receiver<bool>,
    ) {
        tokio::spawn(follow_ended(Arc::downgrade(self), ended, stopping.clone()));
        tokio::spawn(catch_up_now_and_then(
            Arc::downgrade(self),
            clock,
            stopping.clone(),
        ));
        tokio::spawn(EvalQueue::run(
            Arc::downgrade(&self.evals),
            self.evals.wake(),
            stopping,
        ));
    }

    /// What the explorer knows of the position `query` names.
    pub async fn explore(&self, query: &ExplorerQuery) -> Result<ExplorerView, AppError> {
        let game = position_of(query)?;
        let hash = position_hash(&game);
        let answer = self
            .store
            .explore(query.variant, hash, &query.filter)
            .await?;
        let mut moves = Vec::new();
        let mut after = Vec::new();
        for counts in answer.moves {
            // A move stored for this hash that is not legal here would be
            // another position's with the same hash: left out.
            let Ok(m) = game.parse_move(&counts.uci) else {
                continue;
            };
            let san = game.san(m);
            let mut next = game.clone();
            next.push(m);
            after.push((position_hash(&next), next));
            moves.push(ExplorerMoveView::new(counts, san));
        }
        let hashes: Vec<u64> = after.iter().map(|(h, _)| *h).collect();
        let known = self.store.explorer_evals(query.variant, &hashes).await?;
        for (view, (h, next)) in moves.iter_mut().zip(after) {
            match known.iter().find(|(k, _)| *k == h) {
                Some((_, e)) => view.eval = Some(ExplorerEvalView::from(*e)),
                None => self.evals.ask(next, h),
            }
        }
        Ok(ExplorerView::new(moves, answer.top_games))
    }
}

/// Games read at a time while catching up.
const CATCH_UP_PAGE: usize = 256;
/// How often a server looks for ended games that no server counted.
const CATCH_UP_EVERY: Duration = Duration::from_secs(600);
/// How far before its last look each look reaches back (a game's end
/// stored late by a slow instance, clocks a little apart).
const CATCH_UP_MARGIN_MS: i64 = 3_600_000;

/// Catches up on every uncounted game when the server starts (those whose
/// end was stored before a crash), then every [`CATCH_UP_EVERY`] on those
/// changed since shortly before the last look, on the server's clock (the
/// one that stamps a game's `updated_at`).
async fn catch_up_now_and_then(
    explorer: Weak<Explorer>,
    clock: Arc<dyn Clock>,
    mut stopping: watch::Receiver<bool>,
) {
    let mut since = 0;
    loop {
        let began = clock.now_ms();
        let Some(e) = explorer.upgrade() else {
            return;
        };
        match e.catch_up(since).await {
            Ok(0) => {}
            Ok(n) => tracing::info!("the explorer caught up on {n} games"),
            Err(err) => tracing::warn!("the explorer could not catch up: {err}"),
        }
        drop(e);
        since = began - CATCH_UP_MARGIN_MS;
        tokio::select! {
            _ = tokio::time::sleep(CATCH_UP_EVERY) => {}
            _ = stopping.wait_for(|s| *s) => return,
        }
    }
}

/// Counts the games the round says ended, one at a time.
async fn follow_ended(
    explorer: Weak<Explorer>,
    mut ended: mpsc::Receiver<String>,
    mut stopping: watch::Receiver<bool>,
) {
    loop {
        let id = tokio::select! {
            id = ended.recv() => id,
            _ = stopping.wait_for(|s| *s) => return,
        };
        let (Some(id), Some(explorer)) = (id, explorer.upgrade()) else {
            return;
        };
        if let Err(e) = explorer.add_game(&id).await {
            tracing::warn!("game {id} not counted by the explorer: {e}");
        }
    }
}

/// The band of an average rating, as lichess's `ratings` names it (the
/// band's lower bound); `None` for games without ratings.
pub fn band_name(average: Option<i32>) -> Option<i32> {
    let band = band_of(average);
    (band != UNRATED_BAND).then(|| RATING_BANDS[band as usize])
}
