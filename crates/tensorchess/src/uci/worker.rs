//! The search thread of the UCI loop: it runs the jobs the reader sends
//! (searches, perft, evaluation), one at a time, for the game each names.

use super::output::Output;
use super::position::PositionSpec;
use super::settings::{format_weights, EngineSettings, WeightsSource};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::Receiver;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tensorchess_engine::eval::Evaluate;
use tensorchess_engine::nnue::{embedded_name, Network};
use tensorchess_engine::{Engine, FlagHandler, Limits, Options, SearchInfo};
use tensorchess_rules::uci::move_string;
use tensorchess_rules::{perft_stoppable, with_variant, Game, Move, VariantKind};

/// Flags of one search, set by the reader thread.
#[derive(Clone, Default)]
pub(super) struct Control {
    /// Stop as soon as possible.
    pub stop: Arc<AtomicBool>,
    /// Keep the answer back until `stop` or `ponderhit` (`go infinite`, `go ponder`).
    pub hold: Arc<AtomicBool>,
}

/// What the reader thread asks the search thread to do.
pub(super) enum Job {
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
/// Weights and network last built, for their game and source.
type WeightsCache = Option<(
    VariantKind,
    WeightsSource,
    Option<Arc<Vec<[i32; 2]>>>,
    Option<Arc<Network>>,
)>;

/// The search thread's state.
pub(super) struct Worker {
    engine: Engine,
    out: Output,
    /// Weights last built, for their game and source.
    weights: WeightsCache,
    /// The evaluation last named in an `info string` (see [`Worker::name_evaluation`]).
    named: Option<String>,
    /// Searches queued or running (the reader answers `isready` at once while
    /// there are any).
    pending: Arc<AtomicUsize>,
}

impl Worker {
    /// A worker searching with `engine`, writing to `out`; it takes one off
    /// `pending` as each search ends.
    pub fn new(engine: Engine, out: Output, pending: Arc<AtomicUsize>) -> Worker {
        Worker {
            engine,
            out,
            weights: None,
            named: None,
            pending,
        }
    }

    /// Does the jobs until the reader hangs up.
    pub fn run(mut self, jobs: Receiver<Job>) {
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
                    let search = SearchJob {
                        spec: &spec,
                        limits,
                        searchmoves,
                        settings: &settings,
                        control,
                    };
                    with_variant!(spec.variant, V => self.search::<V>(search));
                    self.pending.fetch_sub(1, Ordering::SeqCst);
                }
                Job::Perft {
                    spec,
                    depth,
                    control,
                } => {
                    with_variant!(spec.variant, V => self.perft::<V>(&spec, depth, &control));
                    self.pending.fetch_sub(1, Ordering::SeqCst);
                }
                Job::Eval { spec, settings } => {
                    self.configure(&settings);
                    with_variant!(spec.variant, V => self.eval::<V>(&spec, &settings))
                }
                Job::DumpWeights { variant, settings } => {
                    with_variant!(variant, V => self.dump_weights::<V>(&settings))
                }
            }
        }
    }

    /// Applies settings that do not depend on the game (hash, threads, ...).
    fn configure(&mut self, s: &EngineSettings) {
        if self.engine.options.hash_mb != s.hash_mb {
            self.engine.set_hash(s.hash_mb);
        }
        // The game's weights and network stay until `set_weights` picks them.
        let o = &mut self.engine.options;
        *o = Options {
            weights: o.weights.take(),
            network: o.network.take(),
            ..s.options_without_weights()
        };
    }

    /// Sets the weights and the network for game `V`, reporting a bad
    /// weights or network file once.
    fn set_weights<V: Evaluate>(&mut self, s: &EngineSettings) {
        let (weights, network) = match &self.weights {
            Some((k, src, w, n)) if *k == V::KIND && *src == s.weights => (w.clone(), n.clone()),
            _ => {
                let w = match s.weights.weights::<V>() {
                    Ok(w) => w,
                    Err(e) => {
                        self.out
                            .info_string(&format!("{e}; using the default weights"));
                        None
                    }
                };
                let n = match s.weights.network::<V>() {
                    Ok(n) => n,
                    Err(e) => {
                        self.out
                            .info_string(&format!("{e}; using the built-in evaluation"));
                        None
                    }
                };
                self.weights = Some((V::KIND, s.weights.clone(), w.clone(), n.clone()));
                (w, n)
            }
        };
        self.engine.options.weights = weights;
        self.engine.options.network = network;
    }

    /// Says in an `info string` what evaluates game `V` (the network and
    /// its file, or the hand-made evaluation), once each time it changes:
    /// at the first search, and after a change of game, `EvalFile`,
    /// `UseNNUE` or level.
    fn name_evaluation<V: Evaluate>(&mut self, s: &EngineSettings) {
        let o = &self.engine.options;
        let name = match o.network_for::<V>() {
            None => format!("evaluation: hand-made ({})", V::KIND),
            Some(net) => match (&o.network, &s.weights) {
                (Some(file), WeightsSource::Network { name, .. }) if file.game == V::KIND => {
                    format!(
                        "evaluation: network {name} ({}, {} hidden)",
                        V::KIND,
                        net.hidden
                    )
                }
                _ => format!(
                    "evaluation: network {} (built in, {}, {} hidden)",
                    embedded_name(V::KIND).unwrap_or("?"),
                    V::KIND,
                    net.hidden
                ),
            },
        };
        if self.named.as_ref() != Some(&name) {
            self.out.info_string(&name);
            self.named = Some(name);
        }
    }

    /// `go`: searches and answers `bestmove` (held back while `control.hold`).
    fn search<V: Evaluate>(&mut self, job: SearchJob) {
        let SearchJob {
            spec,
            mut limits,
            searchmoves,
            settings,
            control,
        } = job;
        self.set_weights::<V>(settings);
        self.name_evaluation::<V>(settings);
        let game = match spec.game::<V>() {
            Ok(g) => g,
            Err(e) => {
                self.out
                    .info_string(&format!("cannot set up the position: {e}"));
                Game::<V>::new()
            }
        };
        for text in &searchmoves {
            match game.position().parse_move(text) {
                Ok(m) => limits.searchmoves.push(m),
                Err(e) => self
                    .out
                    .info_string(&format!("go searchmoves: {e} (ignored)")),
            }
        }
        let out = self.out.clone();
        let last_seldepth = std::cell::Cell::new(0u32);
        let mut handler = FlagHandler {
            stop: control.stop.clone(),
            on_info: |i: &SearchInfo| {
                last_seldepth.set(i.seldepth);
                out.line(&info_line::<V>(i));
            },
        };
        let result = self.engine.search(game.positions(), &limits, &mut handler);
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

    /// `go perft N`: counts per root move; `stop` (or `quit`) ends it at once.
    fn perft<V: Evaluate>(&self, spec: &PositionSpec, depth: u32, control: &Control) {
        let out = &self.out;
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
                let Some(n) = perft_stoppable(&pos.play(m), depth - 1, &control.stop) else {
                    out.info_string("perft stopped");
                    break;
                };
                out.line(&format!("{text}: {n}"));
                total += n;
            }
        }
        out.line("");
        out.line(&format!("Nodes searched: {total}"));
        out.info_string(&format!("perft time {} ms", start.elapsed().as_millis()));
    }

    /// `eval`: the static evaluation from White's view.
    fn eval<V: Evaluate>(&mut self, spec: &PositionSpec, settings: &EngineSettings) {
        self.set_weights::<V>(settings);
        self.name_evaluation::<V>(settings);
        let Ok(game) = spec.game::<V>() else {
            return;
        };
        self.out.info_string(&format!(
            "static eval {} cp from White's view",
            self.engine.static_eval(game.position())
        ));
    }

    /// `weights`: the current weights of game `V`, in the weights file format.
    fn dump_weights<V: Evaluate>(&mut self, settings: &EngineSettings) {
        self.set_weights::<V>(settings);
        let w = self
            .engine
            .options
            .weights
            .clone()
            .map(|w| w.to_vec())
            .unwrap_or_else(|| V::default_weights().to_vec());
        for l in format_weights::<V>(&w).lines() {
            self.out.line(l);
        }
    }
}

/// A `go` for the search thread.
struct SearchJob<'a> {
    spec: &'a PositionSpec,
    limits: Limits,
    searchmoves: Vec<String>,
    settings: &'a EngineSettings,
    control: Control,
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
