//! Live analysis over the WebSocket: a page sends the position it shows
//! (`analyse`), the server's engine searches it and streams each finished
//! depth's lines (`analysis`), until it is stopped (`analyse_stop`), a new
//! request replaces it, the connection closes, or [`ANALYSIS_TIME`] passes.
//!
//! The search runs in slices of [`SLICE`], each taking an advisory slot of
//! the server's search budget (so a long analysis gives way to games and
//! other players between slices, and is refused with `overloaded` when the
//! queue is full); the engine, and what its table learnt, is kept across
//! slices, so each slice goes deeper than the last. One analysis runs per
//! connection; a player has at most [`MAX_PER_PLAYER`] at once (tabs), the
//! server at most four per core. The protocol is in `docs/analysis.md`.

use crate::budget::Requester;
use crate::error::AppError;
use crate::game_views::{move_view, new_game, parse_variant, GameViews, MAX_POSITION_MOVES};
use crate::kind::Kind;
use crate::round::engine_player::EnginePlayer;
use crate::views::{AnalysisLineView, ServerEvent};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tensorchess_analysis::review::Score;
use tensorchess_engine::eval::Evaluate;
use tensorchess_engine::{Engine, Eval, Limits, SearchHandler, SearchInfo};
use tensorchess_rules::{san, with_game, Color, Game, Position, VariantGame};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

/// The longest an analysis runs before it stops by itself.
pub const ANALYSIS_TIME: Duration = Duration::from_secs(30);
/// One search of an analysis: a budget slot is held this long at most.
pub const SLICE: Duration = Duration::from_millis(2000);
/// The deepest an analysis goes.
pub const MAX_DEPTH: u32 = 60;
/// Lines an analysis may ask for.
pub const MAX_MULTIPV: usize = 5;
/// Analyses one player may run at once (over all their connections).
pub const MAX_PER_PLAYER: usize = 2;
/// Plies of each line sent.
const LINE_PLIES: usize = 12;

/// `analyse`: what to search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnalyseRequest {
    /// The page's number for this analysis, echoed in every answer.
    pub id: u64,
    /// `tensor`, `chess` or `chessence`.
    pub variant: String,
    /// The start (default: the game's start position).
    pub fen: Option<String>,
    /// Moves played from `fen` to the position to analyse (repetitions count).
    pub moves: Vec<String>,
    /// Lines, 1 to [`MAX_MULTIPV`] (default 1).
    pub multipv: Option<usize>,
}

/// Who runs analyses now: per player, and in all.
pub struct Analyses {
    engine: Arc<EnginePlayer>,
    running: Mutex<HashMap<String, usize>>,
    max_total: usize,
}

/// A running analysis's place in [`Analyses`], given back when dropped.
struct Ticket {
    analyses: Arc<Analyses>,
    player: String,
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut running = self
            .analyses
            .running
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if let Some(n) = running.get_mut(&self.player) {
            *n -= 1;
            if *n == 0 {
                running.remove(&self.player);
            }
        }
    }
}

/// A connection's analysis: its id, how to stop it, and its task.
pub struct RunningAnalysis {
    /// The page's number for the analysis.
    pub id: u64,
    stop: Arc<AtomicBool>,
    task: JoinHandle<()>,
}

impl RunningAnalysis {
    /// Asks the search to stop; it sends its last lines as `done`.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

impl Analyses {
    /// Analyses searching with `engine`, as many at once in all as it has
    /// search slots.
    pub fn new(engine: Arc<EnginePlayer>) -> Arc<Analyses> {
        let cores = engine.budget().capacity;
        Arc::new(Analyses {
            engine,
            running: Mutex::new(HashMap::new()),
            max_total: (cores * 4).max(4),
        })
    }

    fn enter(self: &Arc<Self>, player: &str) -> Result<Ticket, AppError> {
        let mut running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        if running.get(player).copied().unwrap_or(0) >= MAX_PER_PLAYER {
            return Err(AppError::refused(
                Kind::TooMany,
                format!("At most {MAX_PER_PLAYER} analyses at once: stop one in another tab"),
            ));
        }
        if running.values().sum::<usize>() >= self.max_total {
            return Err(AppError::Overloaded { retry_ms: 5_000 });
        }
        *running.entry(player.to_string()).or_default() += 1;
        Ok(Ticket {
            analyses: self.clone(),
            player: player.to_string(),
        })
    }

    /// Analyses running now.
    pub fn count(&self) -> usize {
        let running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        running.values().sum()
    }

    /// Starts `req` for `player`, answering on `out`; `previous` (this
    /// connection's analysis before) is stopped and waited for first.
    pub fn start(
        self: &Arc<Self>,
        who: &Requester,
        now_ms: i64,
        req: AnalyseRequest,
        out: mpsc::Sender<ServerEvent>,
        previous: Option<RunningAnalysis>,
    ) -> RunningAnalysis {
        let stop = Arc::new(AtomicBool::new(false));
        let id = req.id;
        let this = self.clone();
        let who = who.clone();
        let flag = stop.clone();
        let task = tokio::spawn(async move {
            if let Some(old) = previous {
                old.stop();
                let _ = old.task.await;
            }
            let refused = |e: AppError| ServerEvent::AnalysisRefused {
                id,
                kind: e.kind(),
                message: e.to_string(),
            };
            let ready = this
                .engine
                .count_advice(&who, now_ms)
                .and_then(|()| this.enter(&who.player))
                .and_then(|ticket| Ok((ticket, position(&req)?)));
            let (ticket, game) = match ready {
                Ok(ok) => ok,
                Err(e) => {
                    let _ = out.send(refused(e)).await;
                    return;
                }
            };
            let multipv = req.multipv.unwrap_or(1).clamp(1, MAX_MULTIPV);
            if let Err(e) = this.run(&who, id, game, multipv, &flag, &out).await {
                let _ = out.send(refused(e)).await;
            }
            drop(ticket);
        });
        RunningAnalysis { id, stop, task }
    }

    /// Searches slice after slice until stopped or done, streaming each
    /// new depth; ends with a `done` message (the last lines again).
    async fn run(
        &self,
        who: &Requester,
        id: u64,
        game: VariantGame,
        multipv: usize,
        stop: &Arc<AtomicBool>,
        out: &mpsc::Sender<ServerEvent>,
    ) -> Result<(), AppError> {
        let started = Instant::now();
        let fen = game.fen();
        let mut last = ServerEvent::Analysis {
            id,
            fen: fen.clone(),
            depth: 0,
            nodes: 0,
            time_ms: 0,
            lines: Vec::new(),
            done: true,
        };
        let mut engine = Some(self.engine.lend_engine());
        if let Some(e) = engine.as_mut() {
            e.new_game();
            e.options.multipv = multipv;
            e.options.threads = 1;
            e.options.level = None;
        }
        let shutdown = self.engine.shutdown_flag();
        let over = game.outcome().is_some() || game.legal_moves().is_empty();
        let mut depth = 0u32;
        let mut nodes = 0u64;
        let mut first = true;
        while !over && !stop.load(Ordering::Relaxed) && !out.is_closed() {
            let left = ANALYSIS_TIME.saturating_sub(started.elapsed());
            if left.is_zero() || depth >= MAX_DEPTH {
                break;
            }
            let slot = match self.engine.advice_slot(who).await {
                Ok(slot) => slot,
                // Refused before anything was found: the page is told why;
                // later, the analysis just ends with what it has.
                Err(e) if first => {
                    if let Some(e) = engine.take() {
                        self.engine.recycle(e);
                    }
                    return Err(e);
                }
                Err(_) => break,
            };
            first = false;
            if stop.load(Ordering::Relaxed) {
                break;
            }
            let (tx, mut rx) = mpsc::unbounded_channel::<ServerEvent>();
            let mut slice_engine = engine.take().unwrap_or_else(|| self.engine.lend_engine());
            let (game2, stop2, shutdown2) = (game.clone(), stop.clone(), shutdown.clone());
            let (fen2, elapsed) = (fen.clone(), started.elapsed());
            let slice = SLICE.min(left);
            let search = tokio::task::spawn_blocking(move || {
                let mut streamer = StreamSlice {
                    id,
                    fen: fen2,
                    from_depth: depth,
                    elapsed,
                    lines: Vec::new(),
                    tx,
                    stop: stop2,
                    shutdown: shutdown2,
                };
                let limits = Limits {
                    movetime: Some(slice),
                    depth: Some(MAX_DEPTH),
                    ..Limits::default()
                };
                let reached = with_game!(&game2, g => search_slice(g, &mut slice_engine, &limits, &mut streamer));
                (slice_engine, reached)
            });
            while let Some(update) = rx.recv().await {
                if let ServerEvent::Analysis {
                    depth: d, nodes: n, ..
                } = &update
                {
                    depth = depth.max(*d);
                    nodes = *n;
                }
                if out.send(update.clone()).await.is_err() {
                    stop.store(true, Ordering::Relaxed);
                }
                last = update;
            }
            match search.await {
                Ok((e, reached)) => {
                    engine = Some(e);
                    depth = depth.max(reached);
                }
                Err(e) => return Err(AppError::Internal(format!("the engine failed: {e}"))),
            }
            drop(slot);
            if shutdown.load(Ordering::Relaxed) {
                break;
            }
        }
        if let Some(e) = engine.take() {
            self.engine.recycle(e);
        }
        if let ServerEvent::Analysis {
            done,
            time_ms,
            nodes: n,
            ..
        } = &mut last
        {
            *done = true;
            *time_ms = started.elapsed().as_millis() as u64;
            *n = nodes.max(*n);
        }
        let _ = out.send(last).await;
        Ok(())
    }
}

/// The game whose last position is analysed.
fn position(req: &AnalyseRequest) -> Result<VariantGame, AppError> {
    let kind = parse_variant(&req.variant)?;
    if req.moves.len() > MAX_POSITION_MOVES {
        return Err(AppError::bad(format!(
            "At most {MAX_POSITION_MOVES} moves before the position"
        )));
    }
    let mut game = new_game(kind, req.fen.as_deref())?;
    for text in &req.moves {
        if game.outcome().is_some() {
            return Err(AppError::bad("The game is over before the last move"));
        }
        let m = game.parse_player_move(text)?;
        game.push(m);
    }
    Ok(game)
}

/// One slice's search handler: gathers each depth's lines (the engine
/// reports them one by one) and sends the depths deeper than
/// `from_depth` as `analysis` messages.
struct StreamSlice {
    id: u64,
    fen: String,
    from_depth: u32,
    /// Time the analysis had run before this slice.
    elapsed: Duration,
    lines: Vec<AnalysisLineView>,
    tx: mpsc::UnboundedSender<ServerEvent>,
    stop: Arc<AtomicBool>,
    shutdown: Arc<AtomicBool>,
}

/// Searches `g`'s last position with `streamer` reporting; returns the
/// depth reached.
fn search_slice<V: Evaluate>(
    g: &Game<V>,
    engine: &mut Engine,
    limits: &Limits,
    streamer: &mut StreamSlice,
) -> u32 {
    let root = *g.position();
    let expected = engine
        .options
        .multipv
        .clamp(1, root.legal_moves().len().max(1));
    let mut handler = Lines {
        root,
        expected,
        streamer,
    };
    // The positions since the last irreversible move: repetitions count.
    let positions = g.positions();
    let start = positions
        .len()
        .saturating_sub(root.halfmove_clock() as usize + 1);
    engine
        .search(&positions[start..], limits, &mut handler)
        .depth
}

struct Lines<'a, V: Evaluate> {
    root: Position<V>,
    expected: usize,
    streamer: &'a mut StreamSlice,
}

impl<V: Evaluate> SearchHandler for Lines<'_, V> {
    fn should_stop(&mut self) -> bool {
        self.streamer.stop.load(Ordering::Relaxed) || self.streamer.shutdown.load(Ordering::Relaxed)
    }

    fn on_info(&mut self, info: &SearchInfo) {
        let s = &mut *self.streamer;
        if info.depth <= s.from_depth {
            return;
        }
        if info.multipv == 1 {
            s.lines.clear();
        }
        s.lines.push(line_view(&self.root, &info.pv, info.score));
        if s.lines.len() == self.expected {
            let _ = s.tx.send(ServerEvent::Analysis {
                id: s.id,
                fen: s.fen.clone(),
                depth: info.depth,
                nodes: info.nodes,
                time_ms: (s.elapsed + info.time).as_millis() as u64,
                lines: std::mem::take(&mut s.lines),
                done: false,
            });
        }
    }
}

/// A line as pages see it: White's score, its moves in SAN and as move
/// strings (up to the first that is not legal: the table may be wrong),
/// and the first move's path for its arrow.
fn line_view<V: Evaluate>(
    root: &Position<V>,
    pv: &[tensorchess_rules::Move],
    score: Eval,
) -> AnalysisLineView {
    let white = match root.turn() {
        Color::White => score,
        Color::Black => -score,
    };
    let mut p = *root;
    let (mut san_line, mut uci) = (Vec::new(), Vec::new());
    for &m in pv.iter().take(LINE_PLIES) {
        if !p.is_legal(m) {
            break;
        }
        san_line.push(san::san(&p, m));
        uci.push(p.move_string(m));
        p = p.play(m);
    }
    let first = pv.first().filter(|m| root.is_legal(**m)).map(|&m| {
        let legal = root.legal_moves();
        move_view(root, m, &legal).path
    });
    AnalysisLineView {
        score: Score::from_eval(white),
        san: san_line,
        uci,
        path: first,
    }
}
