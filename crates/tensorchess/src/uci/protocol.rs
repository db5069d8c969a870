//! The UCI loop: commands are read on the caller's thread, searches run on
//! a worker thread, so `stop`, `isready` and `quit` are answered at once.

use super::go::{parse_go, Go};
use super::options::{self, Change};
use super::output::Output;
use super::position::PositionSpec;
use super::settings::EngineSettings;
use super::worker::{Control, Job, Worker};
use std::io::BufRead;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;
use tensorchess_engine::{Engine, Limits};
use tensorchess_rules::{with_variant, Color, VariantKind};

/// The engine's name as `id name` gives it.
pub fn engine_name() -> String {
    format!("tensorchess {}", env!("CARGO_PKG_VERSION"))
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
    /// The protocol's state, writing to `out`, with its search thread
    /// started.
    pub fn new(out: Output) -> Uci {
        let settings = EngineSettings::default();
        let pending = Arc::new(AtomicUsize::new(0));
        let (tx, rx) = channel();
        let engine = Engine::new(
            settings
                .options::<tensorchess_rules::Tensor>()
                .unwrap_or_default(),
        );
        let worker = Worker::new(engine, out.clone(), pending.clone());
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
        let fen = fen.as_deref();
        match with_variant!(self.variant, V => PositionSpec::set::<V>(fen, moves)) {
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
        let lines = with_variant!(self.variant, V => self.position.describe::<V>());
        match lines {
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
