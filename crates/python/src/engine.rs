//! `tensorchess.Engine`: the project's engine, searching a board's position
//! with the GIL released, and `tensorchess.Analysis`, what a search found.

use crate::board::{move_text, Board};
use crate::errors::GameOverError;
use crate::guard::{no_panic, run_released};
use crate::score::PovScore;
use pyo3::exceptions::{PyKeyError, PyValueError};
use pyo3::prelude::*;
use pyo3::IntoPyObjectExt;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;
use tensorchess_engine::{
    Engine as RustEngine, Eval, FlagHandler, Level, Limits, Options, SearchResult,
};
use tensorchess_rules::{with_game, Color, EndReason};

/// One line of an analysis: its score and its moves.
#[pyclass(module = "tensorchess", frozen)]
#[derive(Clone, Debug)]
pub struct Line {
    /// The line's score, with the side to move's point of view.
    #[pyo3(get)]
    score: PovScore,
    /// The line's moves as move strings, the first to play first.
    #[pyo3(get)]
    pv: Vec<String>,
}

#[pymethods]
impl Line {
    fn __repr__(&self) -> String {
        format!("Line(score={}, pv={:?})", self.score.__repr__(), self.pv)
    }
}

/// What a search found, as python-chess's `InfoDict` holds it: read the
/// attributes, or index by the same names (`info["score"]`).
#[pyclass(module = "tensorchess", frozen)]
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The best line's score, with the side to move's point of view.
    #[pyo3(get)]
    score: PovScore,
    /// The principal variation as move strings, the best move first.
    #[pyo3(get)]
    pv: Vec<String>,
    /// The depth of the last completed iteration.
    #[pyo3(get)]
    depth: u32,
    /// Nodes searched.
    #[pyo3(get)]
    nodes: u64,
    /// Seconds the search took.
    #[pyo3(get)]
    time: f64,
    /// Every line searched (more than one with `multipv`), best first.
    #[pyo3(get)]
    lines: Vec<Line>,
}

#[pymethods]
impl Analysis {
    /// The attribute `key` names (`score`, `pv`, `depth`, `nodes`, `time`, `lines`).
    fn __getitem__(&self, py: Python<'_>, key: &str) -> PyResult<Py<PyAny>> {
        match key {
            "score" => self.score.into_py_any(py),
            "pv" => self.pv.clone().into_py_any(py),
            "depth" => self.depth.into_py_any(py),
            "nodes" => self.nodes.into_py_any(py),
            "time" => self.time.into_py_any(py),
            "lines" => self.lines.clone().into_py_any(py),
            _ => Err(PyKeyError::new_err(key.to_string())),
        }
    }

    fn __contains__(&self, key: &str) -> bool {
        matches!(key, "score" | "pv" | "depth" | "nodes" | "time" | "lines")
    }

    fn __repr__(&self) -> String {
        format!(
            "Analysis(score={}, pv={:?}, depth={}, nodes={}, time={:.3})",
            self.score.__repr__(),
            self.pv,
            self.depth,
            self.nodes,
            self.time
        )
    }
}

/// The search limits a call gives; with none, the level's thinking time.
fn limits(
    level: Option<Level>,
    depth: Option<u32>,
    nodes: Option<u64>,
    time: Option<f64>,
) -> PyResult<Limits> {
    if depth == Some(0) {
        return Err(PyValueError::new_err("depth must be at least 1"));
    }
    if nodes == Some(0) {
        return Err(PyValueError::new_err("nodes must be at least 1"));
    }
    let movetime = match time {
        None => None,
        Some(t) if t.is_finite() && t > 0.0 && t < 1e9 => Some(Duration::from_secs_f64(t)),
        Some(t) => {
            return Err(PyValueError::new_err(format!(
                "time must be a positive number of seconds, not {t}"
            )))
        }
    };
    let mut l = Limits {
        depth,
        nodes,
        movetime,
        ..Limits::default()
    };
    if depth.is_none() && nodes.is_none() && movetime.is_none() {
        l.movetime = Some(level.unwrap_or(Level::FULL).settings().move_time);
    }
    Ok(l)
}

/// The engine of tensorchess, for all three games. One engine searches one
/// position at a time; its hash table carries over between searches.
#[pyclass(module = "tensorchess", name = "Engine")]
pub struct Engine {
    engine: RustEngine,
}

impl Engine {
    /// Searches the board's position with the GIL released (Ctrl-C stops it).
    fn search(&mut self, py: Python<'_>, board: &Board, limits: &Limits) -> PyResult<SearchResult> {
        let stop = Arc::new(AtomicBool::new(false));
        let mut handler = FlagHandler {
            stop: stop.clone(),
            on_info: |_: &tensorchess_engine::SearchInfo| {},
        };
        let engine = &mut self.engine;
        run_released(
            py,
            &stop,
            || with_game!(&board.game, g => engine.search(g.positions(), limits, &mut handler)),
        )
    }
}

#[pymethods]
impl Engine {
    /// An engine at a playing level from 1 (beginner) to 6 (full strength,
    /// the default), with a hash table of `hash_mb` MiB, `threads` search
    /// threads, and `seed` varying the weak levels' play.
    #[new]
    #[pyo3(signature = (level = None, *, hash_mb = 16, threads = 1, seed = None))]
    fn new(level: Option<u8>, hash_mb: usize, threads: usize, seed: Option<u64>) -> PyResult<Self> {
        let level = match level {
            None => None,
            Some(n) => Some(Level::new(n).ok_or_else(|| {
                PyValueError::new_err(format!(
                    "level must be from {} to {}, not {n}",
                    Level::MIN,
                    Level::MAX
                ))
            })?),
        };
        if !(1..=65_536).contains(&hash_mb) {
            return Err(PyValueError::new_err("hash_mb must be from 1 to 65536"));
        }
        if !(1..=256).contains(&threads) {
            return Err(PyValueError::new_err("threads must be from 1 to 256"));
        }
        let defaults = Options::default();
        let options = Options {
            hash_mb,
            threads,
            level,
            seed: seed.unwrap_or(defaults.seed),
            ..defaults
        };
        Ok(Engine {
            engine: RustEngine::new(options),
        })
    }

    /// The playing level (1 to 6); 6 is full strength.
    #[getter]
    fn level(&self) -> u8 {
        self.engine.options.level.unwrap_or(Level::FULL).number()
    }

    /// Analyses the board's position to a `depth`, a number of `nodes` or
    /// for `time` seconds (the first reached ends it; with none, the
    /// level's thinking time: 2.5 s at full strength), reporting `multipv`
    /// lines. Scores are `PovScore`s: `score.relative` is from the side to
    /// move's point of view, `score.white()` from White's. The GIL is
    /// released while it searches.
    #[pyo3(signature = (board, depth = None, nodes = None, time = None, multipv = 1))]
    fn analyse(
        &mut self,
        py: Python<'_>,
        board: PyRef<'_, Board>,
        depth: Option<u32>,
        nodes: Option<u64>,
        time: Option<f64>,
        multipv: usize,
    ) -> PyResult<Analysis> {
        if !(1..=256).contains(&multipv) {
            return Err(PyValueError::new_err("multipv must be from 1 to 256"));
        }
        let limits = limits(self.engine.options.level, depth, nodes, time)?;
        let white = board.game.turn() == Color::White;
        let kind = board.game.kind();
        let finished = no_panic(|| {
            Ok(if board.game.legal_moves().is_empty() {
                board.game.outcome()
            } else {
                None
            })
        })?;
        if let Some(o) = finished {
            // Nothing to search: mated (or, in Chessence, out of moves), or stalemated.
            let score = match o.reason() {
                EndReason::Stalemate => Eval::DRAW,
                _ => Eval::mated_in(0),
            };
            return Ok(Analysis {
                score: PovScore::new(score, white),
                pv: Vec::new(),
                depth: 0,
                nodes: 0,
                time: 0.0,
                lines: Vec::new(),
            });
        }
        self.engine.options.multipv = multipv;
        let result = self.search(py, &board, &limits);
        self.engine.options.multipv = 1;
        let result = result?;
        let strings = |pv: &[tensorchess_rules::Move]| -> Vec<String> {
            pv.iter().map(|m| move_text(kind, *m)).collect()
        };
        let mut lines: Vec<Line> = result
            .lines
            .iter()
            .map(|(pv, score)| Line {
                score: PovScore::new(*score, white),
                pv: strings(pv),
            })
            .collect();
        if lines.is_empty() {
            lines.push(Line {
                score: PovScore::new(result.score, white),
                pv: strings(&result.pv),
            });
        }
        Ok(Analysis {
            score: PovScore::new(result.score, white),
            pv: strings(&result.pv),
            depth: result.depth,
            nodes: result.nodes,
            time: result.time.as_secs_f64(),
            lines,
        })
    }

    /// The move the engine plays in the board's position, as a move string,
    /// searching to a `depth`, a number of `nodes` or for `time` seconds
    /// (with none, the level's thinking time). Raises `GameOverError` when
    /// the side to move has no legal move.
    #[pyo3(signature = (board, depth = None, nodes = None, time = None))]
    fn play(
        &mut self,
        py: Python<'_>,
        board: PyRef<'_, Board>,
        depth: Option<u32>,
        nodes: Option<u64>,
        time: Option<f64>,
    ) -> PyResult<String> {
        let limits = limits(self.engine.options.level, depth, nodes, time)?;
        if no_panic(|| Ok(board.game.legal_moves().is_empty()))? {
            return Err(GameOverError::new_err("the side to move has no legal move"));
        }
        let result = self.search(py, &board, &limits)?;
        Ok(move_text(board.game.kind(), result.best))
    }

    /// Forgets what earlier searches learnt (call it between games).
    fn new_game(&mut self) {
        self.engine.new_game();
    }

    fn __repr__(&self) -> String {
        format!("Engine(level={})", self.level())
    }
}
