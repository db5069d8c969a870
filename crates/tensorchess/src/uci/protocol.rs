//! The UCI loop: commands are read on the caller's thread, searches run on
//! a worker thread, so `stop`, `isready` and `quit` are answered at once.

use super::dispatch::{dispatch_engine, parse_fen, ForEngine};
use super::go::{parse_go, Go};
use super::options::{self, Change};
use super::settings::{format_weights, EngineSettings, WeightsSource};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use tensorchess_engine::eval::Evaluate;
use tensorchess_engine::{Engine, FlagHandler, Limits, SearchInfo};
use tensorchess_rules::uci::move_string;
use tensorchess_rules::{perft, Color, Game, Move, Position, VariantKind};

/// Where the engine writes: shared by the reader and the search thread.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    pub fn new<W: Write + Send + 'static>(w: W) -> Output {
        Output(Arc::new(Mutex::new(Box::new(w))))
    }

    /// Writes one line and flushes. A closed output is ignored (the GUI went away).
    pub fn line(&self, text: &str) {
        let mut w = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let _ = writeln!(w, "{text}");
        let _ = w.flush();
    }

    pub fn info_string(&self, text: &str) {
        for l in text.lines() {
            self.line(&format!("info string {l}"));
        }
    }
}

/// The engine's name as `id name` gives it.
pub fn engine_name() -> String {
    format!("tensorchess {}", env!("CARGO_PKG_VERSION"))
}

/// A position as `position` set it: the game, a start FEN (`None` = the
/// game's start) and moves already checked to be legal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionSpec {
    pub variant: VariantKind,
    pub fen: Option<String>,
    pub moves: Vec<String>,
}

impl PositionSpec {
    pub fn start(variant: VariantKind) -> PositionSpec {
        PositionSpec {
            variant,
            fen: None,
            moves: Vec::new(),
        }
    }

    /// The game this spec names (its moves were checked when it was set).
    pub fn game<V: Evaluate>(&self) -> Result<Game<V>, String> {
        let start = match &self.fen {
            Some(f) => parse_fen::<V>(f)?,
            None => Position::new(),
        };
        let mut game = Game::from_position(start);
        for m in &self.moves {
            let mv = game
                .position()
                .parse_move(m)
                .map_err(|e| format!("move {m}: {e}"))?;
            game.push(mv);
        }
        Ok(game)
    }
}

/// Checks a `position` command's FEN and moves for one game.
struct SetPosition<'a> {
    variant: VariantKind,
    fen: Option<&'a str>,
    moves: &'a [&'a str],
}

/// The position reached (as far as the moves were legal), its side to move,
/// and what was wrong, if anything.
type SetOutcome = Result<(PositionSpec, Color, Option<String>), String>;

impl ForEngine for SetPosition<'_> {
    type Output = SetOutcome;
    fn run<V: Evaluate>(self) -> SetOutcome {
        let start = match self.fen {
            Some(f) => parse_fen::<V>(f).map_err(|e| format!("bad FEN '{f}': {e}"))?,
            None => Position::new(),
        };
        let mut pos = start;
        let mut spec = PositionSpec {
            variant: self.variant,
            fen: self.fen.map(|_| start.fen()),
            moves: Vec::new(),
        };
        for (i, text) in self.moves.iter().enumerate() {
            match pos.parse_move(text) {
                Ok(m) => {
                    spec.moves.push(pos.move_string(m));
                    pos = pos.play(m);
                }
                Err(e) => {
                    let problem = format!(
                        "move {} ('{text}') cannot be played: {e}; the position stops before it",
                        i + 1
                    );
                    return Ok((spec, pos.turn(), Some(problem)));
                }
            }
        }
        Ok((spec, pos.turn(), None))
    }
}

/// Flags of one search, set by the reader thread.
#[derive(Clone, Default)]
struct Control {
    /// Stop as soon as possible.
    stop: Arc<AtomicBool>,
    /// Keep the answer back until `stop` or `ponderhit` (`go infinite`, `go ponder`).
    hold: Arc<AtomicBool>,
}

enum Job {
    Configure(EngineSettings),
    NewGame,
    ClearHash,
    Ready,
    Search {
        spec: PositionSpec,
        limits: Limits,
        /// `go searchmoves`, as given (read against the position by the worker).
        searchmoves: Vec<String>,
        settings: EngineSettings,
        control: Control,
    },
    Perft {
        spec: PositionSpec,
        depth: u32,
        control: Control,
    },
    Eval {
        spec: PositionSpec,
        settings: EngineSettings,
    },
    DumpWeights {
        variant: VariantKind,
        settings: EngineSettings,
    },
}

/// Weights built for a game from a source (`None`: the defaults).
type WeightsCache = Option<(VariantKind, WeightsSource, Option<Arc<Vec<[i32; 2]>>>)>;

/// The search thread's state.
struct Worker {
    engine: Engine,
    out: Output,
    /// Weights last built, for their game and source.
    weights: WeightsCache,
    pending: Arc<AtomicUsize>,
}

impl Worker {
    fn run(mut self, jobs: Receiver<Job>) {
        while let Ok(job) = jobs.recv() {
            match job {
                Job::Configure(s) => self.configure(&s),
                Job::NewGame => self.engine.new_game(),
                Job::ClearHash => {
                    self.engine.new_game();
                    self.out.info_string("hash cleared");
                }
                Job::Ready => self.out.line("readyok"),
                Job::Search {
                    spec,
                    limits,
                    searchmoves,
                    settings,
                    control,
                } => {
                    self.configure(&settings);
                    let job = SearchJob {
                        worker: &mut self,
                        spec: &spec,
                        limits,
                        searchmoves,
                        settings: &settings,
                        control,
                    };
                    dispatch_engine(spec.variant, job);
                    self.pending.fetch_sub(1, Ordering::SeqCst);
                }
                Job::Perft {
                    spec,
                    depth,
                    control,
                } => {
                    dispatch_engine(spec.variant, PerftJob(&spec, depth, &self.out, &control));
                    self.pending.fetch_sub(1, Ordering::SeqCst);
                }
                Job::Eval { spec, settings } => {
                    self.configure(&settings);
                    dispatch_engine(spec.variant, EvalJob(&spec, &settings, &mut self))
                }
                Job::DumpWeights { variant, settings } => {
                    dispatch_engine(variant, DumpJob(&settings, &mut self))
                }
            }
        }
    }

    /// Applies settings that do not depend on the game (hash, threads, ...).
    fn configure(&mut self, s: &EngineSettings) {
        if self.engine.options.hash_mb != s.hash_mb {
            self.engine.set_hash(s.hash_mb);
        }
        let o = &mut self.engine.options;
        o.threads = s.threads.max(1);
        o.multipv = s.multipv.max(1);
        o.level = s.level();
        o.features = s.features;
        o.seed = s.seed;
    }

    /// Sets the weights for game `V`, reporting a bad weights file once.
    fn set_weights<V: Evaluate>(&mut self, s: &EngineSettings) {
        let fresh = match &self.weights {
            Some((k, src, w)) if *k == V::KIND && *src == s.weights => w.clone(),
            _ => {
                let w = match s.weights.weights::<V>() {
                    Ok(w) => w,
                    Err(e) => {
                        self.out
                            .info_string(&format!("{e}; using the default weights"));
                        None
                    }
                };
                self.weights = Some((V::KIND, s.weights.clone(), w.clone()));
                w
            }
        };
        self.engine.options.weights = fresh;
    }
}

fn pv_string<V: Evaluate>(pv: &[Move]) -> String {
    pv.iter()
        .map(|m| move_string::<V>(*m))
        .collect::<Vec<_>>()
        .join(" ")
}

/// An `info` line for a finished iteration.
pub fn info_line<V: Evaluate>(i: &SearchInfo) -> String {
    let mut s = format!(
        "info depth {} seldepth {} multipv {} score {} nodes {} nps {} hashfull {} time {}",
        i.depth,
        i.seldepth.max(i.depth),
        i.multipv,
        i.score,
        i.nodes,
        i.nps(),
        i.hashfull,
        i.time.as_millis()
    );
    if !i.pv.is_empty() {
        s.push_str(" pv ");
        s.push_str(&pv_string::<V>(&i.pv));
    }
    s
}

struct SearchJob<'a> {
    worker: &'a mut Worker,
    spec: &'a PositionSpec,
    limits: Limits,
    searchmoves: Vec<String>,
    settings: &'a EngineSettings,
    control: Control,
}

impl ForEngine for SearchJob<'_> {
    type Output = ();
    fn run<V: Evaluate>(self) {
        let SearchJob {
            worker,
            spec,
            mut limits,
            searchmoves,
            settings,
            control,
        } = self;
        worker.set_weights::<V>(settings);
        let game = match spec.game::<V>() {
            Ok(g) => g,
            Err(e) => {
                worker
                    .out
                    .info_string(&format!("cannot set up the position: {e}"));
                Game::<V>::new()
            }
        };
        for text in &searchmoves {
            match game.position().parse_move(text) {
                Ok(m) => limits.searchmoves.push(m),
                Err(e) => worker
                    .out
                    .info_string(&format!("go searchmoves: {e} (ignored)")),
            }
        }
        let out = worker.out.clone();
        let last_seldepth = std::cell::Cell::new(0u32);
        let mut handler = FlagHandler {
            stop: control.stop.clone(),
            on_info: |i: &SearchInfo| {
                last_seldepth.set(i.seldepth);
                out.line(&info_line::<V>(i));
            },
        };
        let result = worker
            .engine
            .search(game.positions(), &limits, &mut handler);
        // `go infinite` and `go ponder` answer only after `stop` or `ponderhit`.
        while control.hold.load(Ordering::SeqCst) && !control.stop.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(1));
        }
        let pos = game.position();
        if result.best.is_null() || !pos.is_legal(result.best) {
            // No legal move: the game is over.
            let fallback = pos.legal_moves().first().copied();
            match fallback {
                Some(m) => out.line(&format!("bestmove {}", move_string::<V>(m))),
                None => out.line("bestmove (none)"),
            }
            return;
        }
        // The closing line carries the final counts (and the move actually
        // chosen, which may come from an unfinished iteration).
        let time = result.time;
        let nps = (result.nodes as f64 / time.as_secs_f64().max(1e-6)) as u64;
        out.line(&format!(
            "info depth {} seldepth {} multipv 1 score {} nodes {} nps {} time {} pv {}",
            result.depth.max(1),
            last_seldepth.get().max(result.depth.max(1)),
            result.score,
            result.nodes,
            nps,
            time.as_millis(),
            pv_string::<V>(&result.pv)
        ));
        let mut line = format!("bestmove {}", move_string::<V>(result.best));
        if let Some(p) = result.ponder {
            if pos.play(result.best).is_legal(p) {
                line.push_str(&format!(" ponder {}", move_string::<V>(p)));
            }
        }
        out.line(&line);
    }
}

/// `go perft N`: counts per root move, stopping between root moves on `stop`.
struct PerftJob<'a>(&'a PositionSpec, u32, &'a Output, &'a Control);

impl ForEngine for PerftJob<'_> {
    type Output = ();
    fn run<V: Evaluate>(self) {
        let PerftJob(spec, depth, out, control) = self;
        let Ok(game) = spec.game::<V>() else {
            return;
        };
        let pos = game.position();
        let start = Instant::now();
        let mut total = 0;
        if depth == 0 {
            total = 1;
        } else {
            let mut moves: Vec<(String, Move)> = pos
                .legal_moves()
                .into_iter()
                .map(|m| (pos.move_string(m), m))
                .collect();
            moves.sort();
            for (text, m) in moves {
                if control.stop.load(Ordering::SeqCst) {
                    out.info_string("perft stopped");
                    break;
                }
                let n = perft(&pos.play(m), depth - 1);
                out.line(&format!("{text}: {n}"));
                total += n;
            }
        }
        out.line("");
        out.line(&format!("Nodes searched: {total}"));
        out.info_string(&format!("perft time {} ms", start.elapsed().as_millis()));
    }
}

struct EvalJob<'a>(&'a PositionSpec, &'a EngineSettings, &'a mut Worker);

impl ForEngine for EvalJob<'_> {
    type Output = ();
    fn run<V: Evaluate>(self) {
        let EvalJob(spec, settings, worker) = self;
        worker.set_weights::<V>(settings);
        let Ok(game) = spec.game::<V>() else {
            return;
        };
        worker.out.info_string(&format!(
            "static eval {} cp from White's view",
            worker.engine.static_eval(game.position())
        ));
    }
}

struct DumpJob<'a>(&'a EngineSettings, &'a mut Worker);

impl ForEngine for DumpJob<'_> {
    type Output = ();
    fn run<V: Evaluate>(self) {
        let DumpJob(settings, worker) = self;
        worker.set_weights::<V>(settings);
        let w = worker
            .engine
            .options
            .weights
            .clone()
            .map(|w| w.to_vec())
            .unwrap_or_else(|| V::default_weights().to_vec());
        for l in format_weights::<V>(&w).lines() {
            worker.out.line(l);
        }
    }
}

/// The protocol state on the reader's side.
pub struct Uci {
    out: Output,
    settings: EngineSettings,
    variant: VariantKind,
    position: PositionSpec,
    turn: Color,
    jobs: Option<Sender<Job>>,
    worker: Option<JoinHandle<()>>,
    /// Searches queued or running.
    pending: Arc<AtomicUsize>,
    /// The flags of the latest search, and its limits if it is pondering.
    current: Control,
    ponder_limits: Option<Limits>,
    debug: bool,
}

/// Commands the loop knows (used to skip junk before a command, as UCI asks).
const COMMANDS: [&str; 15] = [
    "uci",
    "debug",
    "isready",
    "setoption",
    "register",
    "ucinewgame",
    "position",
    "go",
    "stop",
    "ponderhit",
    "quit",
    "d",
    "eval",
    "weights",
    "help",
];

impl Uci {
    pub fn new(out: Output) -> Uci {
        let settings = EngineSettings::default();
        let pending = Arc::new(AtomicUsize::new(0));
        let (tx, rx) = channel();
        let worker = Worker {
            engine: Engine::new(
                settings
                    .options::<tensorchess_rules::Tensor>()
                    .unwrap_or_default(),
            ),
            out: out.clone(),
            weights: None,
            pending: pending.clone(),
        };
        let handle = std::thread::Builder::new()
            .name("uci-search".into())
            .spawn(move || worker.run(rx))
            .expect("cannot start the search thread");
        Uci {
            out,
            settings,
            variant: VariantKind::default(),
            position: PositionSpec::start(VariantKind::default()),
            turn: Color::White,
            jobs: Some(tx),
            worker: Some(handle),
            pending,
            current: Control::default(),
            ponder_limits: None,
            debug: false,
        }
    }

    fn send(&self, job: Job) {
        if let Some(tx) = &self.jobs {
            let _ = tx.send(job);
        }
    }

    /// Handles one line; `false` after `quit`.
    pub fn handle_line(&mut self, raw: &str) -> bool {
        let tokens: Vec<&str> = raw.split_whitespace().collect();
        // UCI: skip unknown tokens before a known command ("joho debug on").
        let Some(at) = tokens
            .iter()
            .position(|t| COMMANDS.contains(&t.to_ascii_lowercase().as_str()))
        else {
            if !tokens.is_empty() {
                self.out.info_string(&format!(
                    "unknown command '{}' (try 'help')",
                    raw.trim().chars().take(80).collect::<String>()
                ));
            }
            return true;
        };
        let cmd = tokens[at].to_ascii_lowercase();
        let rest_tokens = &tokens[at + 1..];
        let rest = rest_tokens.join(" ");
        match cmd.as_str() {
            "uci" => {
                self.out.line(&format!("id name {}", engine_name()));
                self.out.line("id author the tensorchess authors");
                self.out.line("");
                for l in options::option_lines(&EngineSettings::default()) {
                    self.out.line(&l);
                }
                self.out.line("uciok");
            }
            "debug" => self.debug = rest_tokens.first() == Some(&"on"),
            "isready" => {
                if self.pending.load(Ordering::SeqCst) > 0 {
                    // Searching: answer at once, without stopping.
                    self.out.line("readyok");
                } else {
                    // After whatever is queued (a hash resize, say).
                    self.send(Job::Ready);
                }
            }
            "setoption" => self.setoption(&rest),
            "register" => {}
            "ucinewgame" => {
                self.stop_search();
                self.position = PositionSpec::start(self.variant);
                self.turn = Color::White;
                self.send(Job::NewGame);
            }
            "position" => self.position_command(rest_tokens),
            "go" => self.go(&rest),
            "stop" => self.stop_search(),
            "ponderhit" => self.ponderhit(),
            "quit" => return false,
            "d" => self.display(),
            "eval" => self.send(Job::Eval {
                spec: self.position.clone(),
                settings: self.settings.clone(),
            }),
            "weights" => self.send(Job::DumpWeights {
                variant: self.variant,
                settings: self.settings.clone(),
            }),
            "help" => {
                self.out.info_string(
                    "UCI commands: uci, isready, setoption, ucinewgame, position, go, stop, ponderhit, quit\n\
                     extensions: d (show the position), eval (static evaluation), weights (print the \
                     evaluation weights in EvalFile format), go perft N",
                );
            }
            _ => {}
        }
        true
    }

    fn setoption(&mut self, rest: &str) {
        let (name, value) = match options::split_setoption(rest) {
            Ok(x) => x,
            Err(e) => return self.out.info_string(&e),
        };
        if name.eq_ignore_ascii_case("hash") {
            // A table bigger than the memory would end the process, not the option.
            let asked = value.as_deref().and_then(|v| v.trim().parse::<u64>().ok());
            if let (Some(mb), Some(free)) = (asked, available_memory_mb()) {
                if mb > free / 2 {
                    return self.out.info_string(&format!(
                        "Hash {mb} MB refused: only {free} MB of memory is available (at most half is used)"
                    ));
                }
            }
        }
        match options::apply(&mut self.settings, &name, value.as_deref()) {
            Ok(Change::Settings) => {
                if self.debug {
                    self.out.info_string(&format!("set {name}"));
                }
                self.send(Job::Configure(self.settings.clone()));
            }
            Ok(Change::Variant(kind)) if kind == self.variant => {}
            Ok(Change::Variant(kind)) => {
                self.variant = kind;
                self.position = PositionSpec::start(kind);
                self.turn = Color::White;
                self.send(Job::NewGame);
            }
            Ok(Change::ClearHash) => self.send(Job::ClearHash),
            Ok(Change::Nothing) => {}
            Err(e) => self.out.info_string(&e),
        }
    }

    fn position_command(&mut self, tokens: &[&str]) {
        let (fen, moves_at) = match tokens.first().map(|t| t.to_ascii_lowercase()).as_deref() {
            Some("startpos") => (None, 1),
            Some("fen") => {
                let end = tokens
                    .iter()
                    .position(|t| t.eq_ignore_ascii_case("moves"))
                    .unwrap_or(tokens.len());
                if end <= 1 {
                    return self.out.info_string("position fen: the FEN is missing");
                }
                (Some(tokens[1..end].join(" ")), end)
            }
            _ => {
                return self
                    .out
                    .info_string("expected 'position startpos|fen FEN [moves M...]'")
            }
        };
        let moves: &[&str] = match tokens.get(moves_at) {
            Some(t) if t.eq_ignore_ascii_case("moves") => &tokens[moves_at + 1..],
            Some(t) => {
                return self
                    .out
                    .info_string(&format!("position: expected 'moves', found '{t}'"))
            }
            None => &[],
        };
        let set = SetPosition {
            variant: self.variant,
            fen: fen.as_deref(),
            moves,
        };
        match dispatch_engine(self.variant, set) {
            Ok((spec, turn, problem)) => {
                self.position = spec;
                self.turn = turn;
                if let Some(p) = problem {
                    self.out.info_string(&p);
                }
            }
            Err(e) => self
                .out
                .info_string(&format!("{e}; the position is unchanged")),
        }
    }

    fn go(&mut self, rest: &str) {
        let go: Go = parse_go(rest);
        for p in &go.problems {
            self.out.info_string(&format!("go: {p} (ignored)"));
        }
        // A `go` during a search ends that search first.
        self.stop_search();
        if let Some(depth) = go.perft {
            let control = Control::default();
            self.current = control.clone();
            self.pending.fetch_add(1, Ordering::SeqCst);
            return self.send(Job::Perft {
                spec: self.position.clone(),
                depth,
                control,
            });
        }
        let mut limits = go.limits.clone();
        let overhead = self.settings.move_overhead;
        for t in limits.time.iter_mut().flatten() {
            *t = t.saturating_sub(overhead);
        }
        if let Some(mt) = &mut limits.movetime {
            *mt = mt.saturating_sub(overhead).max(Duration::from_millis(1));
        }
        let control = Control::default();
        if go.ponder {
            self.ponder_limits = Some(limits.clone());
            limits = Limits {
                infinite: true,
                depth: limits.depth,
                nodes: limits.nodes,
                mate: limits.mate,
                ..Limits::default()
            };
            control.hold.store(true, Ordering::SeqCst);
        } else {
            self.ponder_limits = None;
            if limits.infinite {
                control.hold.store(true, Ordering::SeqCst);
            }
        }
        self.current = control.clone();
        self.pending.fetch_add(1, Ordering::SeqCst);
        self.send(Job::Search {
            spec: self.position.clone(),
            limits,
            searchmoves: go.searchmoves.clone(),
            settings: self.settings.clone(),
            control,
        });
    }

    /// `ponderhit`: the move pondered on was played; keep searching on our own clock.
    fn ponderhit(&mut self) {
        let Some(limits) = self.ponder_limits.take() else {
            return;
        };
        let control = self.current.clone();
        control.hold.store(false, Ordering::SeqCst);
        if let Some(budget) = time_budget(&limits, self.turn) {
            std::thread::spawn(move || {
                std::thread::sleep(budget);
                control.stop.store(true, Ordering::SeqCst);
            });
        }
    }

    fn stop_search(&mut self) {
        self.ponder_limits = None;
        self.current.stop.store(true, Ordering::SeqCst);
    }

    fn display(&self) {
        struct Show<'a>(&'a PositionSpec);
        impl ForEngine for Show<'_> {
            type Output = Result<Vec<String>, String>;
            fn run<V: Evaluate>(self) -> Self::Output {
                let game = self.0.game::<V>()?;
                let pos = game.position();
                let mut legal: Vec<String> = pos
                    .legal_moves()
                    .iter()
                    .map(|m| pos.move_string(*m))
                    .collect();
                legal.sort();
                let mut lines = vec![
                    format!("variant {}", V::KIND.name()),
                    format!("fen {}", pos.fen()),
                    format!("hash {:016x}", pos.hash()),
                    format!("legal moves ({}): {}", legal.len(), legal.join(" ")),
                ];
                if let Some(o) = game.outcome() {
                    lines.push(format!("game over: {o}"));
                }
                Ok(lines)
            }
        }
        match dispatch_engine(self.variant, Show(&self.position)) {
            Ok(lines) => {
                for l in lines {
                    self.out.info_string(&l);
                }
            }
            Err(e) => self.out.info_string(&e),
        }
    }

    /// Stops any search and waits for the search thread to finish.
    pub fn shutdown(&mut self) {
        self.stop_search();
        self.jobs = None;
        if let Some(h) = self.worker.take() {
            let _ = h.join();
        }
    }
}

impl Drop for Uci {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// Memory available to new allocations, in MiB (Linux), if known.
fn available_memory_mb() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

/// Thinking time after `ponderhit`, from the clock the `go ponder` gave.
fn time_budget(limits: &Limits, us: Color) -> Option<Duration> {
    if let Some(mt) = limits.movetime {
        return Some(mt);
    }
    let left = limits.time[us.index()]?;
    let inc = limits.inc[us.index()].unwrap_or_default();
    let mtg = limits.movestogo.unwrap_or(30).clamp(1, 50);
    Some((left / mtg + inc * 3 / 4).min(left / 2))
}

/// Runs the protocol until `quit` or the end of the input.
pub fn run_loop<R: BufRead>(input: R, out: Output) {
    let mut uci = Uci::new(out.clone());
    let mut input = input;
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        // Bytes that are not UTF-8 become U+FFFD: such a line is then unknown, not fatal.
        let line = String::from_utf8_lossy(&buf);
        if !uci.handle_line(&line) {
            break;
        }
    }
    uci.shutdown();
}
