//! One side of a match: our engine in-process, or a UCI engine process.

use super::client::{ClientError, UciClient};
use super::spec::{EngineKind, EngineSpec};
use crate::uci::EngineSettings;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};
use tensorchess_engine::eval::Evaluate;
use tensorchess_engine::{Engine, Limits, NoHandler};
use tensorchess_rules::uci::move_string;
use tensorchess_rules::{Game, Move, Position};

/// Scores beyond this (in centipawns) stand for mates in adjudication.
pub const MATE_CP: i32 = 100_000;

/// A move chosen, with what the engine said about it.
#[derive(Clone, Debug)]
pub struct Thought {
    /// The move.
    pub mv: Move,
    /// Centipawns from the mover's side (mates as ±[`MATE_CP`]).
    pub score: Option<i32>,
    /// The depth it reached.
    pub depth: Option<u32>,
    /// How long it took, from `go` to `bestmove`.
    pub elapsed: Duration,
}

/// Why a side lost its game without a rule deciding it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// An illegal or unreadable move, as the engine sent it.
    Illegal(String),
    /// The engine's process died (or closed its pipes).
    Crashed,
    /// No move in time.
    Timeout,
}

/// What one move may cost: the limits to send, and when to give up waiting.
#[derive(Clone, Debug)]
pub struct Request {
    /// The search's limits (`go …`).
    pub limits: Limits,
    /// How long to wait for the move before the engine loses.
    pub timeout: Duration,
}

/// One side of a match game: our engine in this process, or a UCI engine
/// in its own.
pub enum Player {
    /// Our engine, searched here.
    Internal {
        /// The engine (boxed: its tables are large).
        engine: Box<Engine>,
        /// Its settings (evaluation, level, …).
        settings: EngineSettings,
    },
    /// A UCI engine's process.
    External {
        /// The running engine; `None` once it crashed.
        client: Option<UciClient>,
        /// How to start it again.
        spec: Box<EngineSpec>,
    },
}

impl Player {
    /// Starts a player for game `V` (an external engine is started and set up now).
    pub fn start<V: Evaluate>(spec: &EngineSpec) -> Result<Player, String> {
        match &spec.kind {
            EngineKind::Internal(settings) => {
                let options = settings.options::<V>()?;
                Ok(Player::Internal {
                    engine: Box::new(Engine::new(options)),
                    settings: settings.clone(),
                })
            }
            EngineKind::External { .. } => {
                let client = start_external::<V>(spec).map_err(|e| e.to_string())?;
                Ok(Player::External {
                    client: Some(client),
                    spec: Box::new(spec.clone()),
                })
            }
        }
    }

    /// Gets ready for a new game; `seed` varies a weak level's choices between games.
    pub fn new_game<V: Evaluate>(&mut self, seed: u64) -> Result<(), String> {
        match self {
            Player::Internal { engine, settings } => {
                engine.new_game();
                engine.options.seed = settings.seed.wrapping_add(seed);
                Ok(())
            }
            Player::External { client, spec } => {
                if let Some(c) = client.as_mut() {
                    if c.new_game().is_ok() {
                        return Ok(());
                    }
                }
                // Crashed or hung in the last game: start it afresh.
                if let Some(c) = client.take() {
                    c.quit();
                }
                let mut c = start_external::<V>(spec).map_err(|e| format!("restart: {e}"))?;
                c.new_game().map_err(|e| format!("restart: {e}"))?;
                *client = Some(c);
                Ok(())
            }
        }
    }

    /// Chooses a move in the game's current position.
    pub fn think<V: Evaluate>(&mut self, game: &Game<V>, req: &Request) -> Result<Thought, Fault> {
        let pos = game.position();
        match self {
            Player::Internal { engine, .. } => {
                let started = Instant::now();
                let result = catch_unwind(AssertUnwindSafe(|| {
                    engine.search(game.positions(), &req.limits, &mut NoHandler)
                }));
                let elapsed = started.elapsed();
                let Ok(result) = result else {
                    // The engine's state is suspect after a panic: start afresh.
                    let options = engine.options.clone();
                    **engine = Engine::new(options);
                    return Err(Fault::Crashed);
                };
                if result.best.is_null() || !pos.is_legal(result.best) {
                    return Err(Fault::Illegal(move_string::<V>(result.best)));
                }
                Ok(Thought {
                    mv: result.best,
                    score: Some(if let Some(m) = result.score.mate_moves() {
                        MATE_CP.saturating_sub(m.abs()) * m.signum()
                    } else {
                        result.score.0
                    }),
                    depth: Some(result.depth),
                    elapsed,
                })
            }
            Player::External { client, .. } => {
                let Some(c) = client.as_mut() else {
                    return Err(Fault::Crashed);
                };
                let position = position_command(game);
                let go = go_command(&req.limits);
                let started = Instant::now();
                let answer = c.think(&position, &go, req.timeout);
                let elapsed = started.elapsed();
                match answer {
                    Ok(a) => {
                        let mv = pos
                            .parse_move(&a.bestmove)
                            .map_err(|_| Fault::Illegal(a.bestmove.clone()))?;
                        Ok(Thought {
                            mv,
                            score: a.score.map(|s| match s {
                                Ok(cp) => cp,
                                Err(m) if m >= 0 => MATE_CP - m,
                                Err(m) => -MATE_CP - m,
                            }),
                            depth: a.depth,
                            elapsed,
                        })
                    }
                    Err(e) => {
                        // Stop it and let `new_game` restart it.
                        if let Some(c) = client.take() {
                            c.quit();
                        }
                        Err(match e {
                            ClientError::Timeout => Fault::Timeout,
                            _ => Fault::Crashed,
                        })
                    }
                }
            }
        }
    }

    /// The engine's own name, if it told us.
    pub fn id_name(&self) -> Option<String> {
        match self {
            Player::External {
                client: Some(c), ..
            } => c.id_name.clone(),
            _ => None,
        }
    }

    /// Ends the player: an external engine is told `quit` (and killed if
    /// it does not go).
    pub fn quit(self) {
        if let Player::External {
            client: Some(c), ..
        } = self
        {
            c.quit();
        }
    }
}

fn start_external<V: Evaluate>(spec: &EngineSpec) -> Result<UciClient, ClientError> {
    let EngineKind::External {
        command,
        dir,
        options,
    } = &spec.kind
    else {
        return Err(ClientError::Setup("not a UCI engine".into()));
    };
    let mut c = UciClient::start(command, dir.as_deref())?;
    c.configure(V::KIND, options)?;
    Ok(c)
}

/// `position startpos|fen ... moves ...` for a game.
pub fn position_command<V: Evaluate>(game: &Game<V>) -> String {
    let start = game.start();
    let mut s = if start.fen() == Position::<V>::new().fen() {
        "position startpos".to_string()
    } else {
        format!("position fen {}", start.fen())
    };
    if !game.moves().is_empty() {
        s.push_str(" moves");
        for m in game.moves() {
            s.push(' ');
            s.push_str(&move_string::<V>(*m));
        }
    }
    s
}

/// `go ...` for limits.
pub fn go_command(l: &Limits) -> String {
    let mut s = "go".to_string();
    let ms = |d: Duration| d.as_millis();
    if let Some(t) = l.time[0] {
        s.push_str(&format!(" wtime {}", ms(t)));
    }
    if let Some(t) = l.time[1] {
        s.push_str(&format!(" btime {}", ms(t)));
    }
    if let Some(t) = l.inc[0] {
        s.push_str(&format!(" winc {}", ms(t)));
    }
    if let Some(t) = l.inc[1] {
        s.push_str(&format!(" binc {}", ms(t)));
    }
    if let Some(n) = l.movestogo {
        s.push_str(&format!(" movestogo {n}"));
    }
    if let Some(t) = l.movetime {
        s.push_str(&format!(" movetime {}", ms(t)));
    }
    if let Some(d) = l.depth {
        s.push_str(&format!(" depth {d}"));
    }
    if let Some(n) = l.nodes {
        s.push_str(&format!(" nodes {n}"));
    }
    if s == "go" {
        s.push_str(" infinite");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use tensorchess_rules::Chess;

    #[test]
    fn position_and_go_commands() {
        let mut g = Game::<Chess>::new();
        assert_eq!(position_command(&g), "position startpos");
        g.push_str("e2e4").unwrap();
        assert_eq!(position_command(&g), "position startpos moves e2e4");
        let h = Game::from_position(*g.position());
        assert!(position_command(&h).starts_with("position fen rnbqkbnr/pppppppp/8/8/4P3/"));
        let mut l = Limits::depth(3);
        assert_eq!(go_command(&l), "go depth 3");
        l.time = [
            Some(Duration::from_secs(10)),
            Some(Duration::from_millis(9500)),
        ];
        l.inc = [Some(Duration::from_millis(100)); 2];
        assert_eq!(
            go_command(&l),
            "go wtime 10000 btime 9500 winc 100 binc 100 depth 3"
        );
    }
}
