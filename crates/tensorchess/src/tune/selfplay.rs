//! Self-play games that produce tuning data: `FEN;result;score` lines
//! (the score is the search's, in centipawns from White's view), and, when
//! asked, the games themselves as PGN (the puzzle miner reads them).

use crate::review::Score;
use indicatif::{ProgressBar, ProgressStyle};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use tensorchess_engine::eval::Evaluate;
use tensorchess_engine::{Engine, Limits, NoHandler, Options};
use tensorchess_rules::pgn::PgnTree;
use tensorchess_rules::{Color, EndReason, Game, MoveKind, Outcome, Position};

/// How to play the games.
#[derive(Clone, Debug)]
pub struct SelfplayConfig {
    /// Games to play.
    pub games: usize,
    /// Nodes searched per move.
    pub nodes: u64,
    /// Random moves played at each game's start, for variety.
    pub random_plies: usize,
    /// Games played at once.
    pub threads: usize,
    /// The seed of the random moves: a run is reproducible.
    pub seed: u64,
    /// A game this long is called drawn.
    pub max_plies: usize,
    /// Nodes per move of a weaker side, if any: White in odd-numbered
    /// games, Black in even ones (its own engine, not sharing the other's
    /// hash). The puzzle miner wants such blunders that the other side sees.
    pub weak_nodes: Option<u64>,
    /// The share of the weaker side's moves searched at `weak_nodes` (drawn
    /// move by move); the others get `nodes`. 1 makes it weak throughout;
    /// less makes occasional blunders in games otherwise even.
    pub weak_rate: f64,
    /// Evaluation weights for the engine (JSON file contents), if not the defaults.
    pub weights: Option<Arc<Vec<[i32; 2]>>>,
}

fn is_quiet<V: Evaluate>(pos: &Position<V>, m: tensorchess_rules::Move) -> bool {
    match m.kind() {
        MoveKind::Normal => pos.piece_at(m.to()).is_none(),
        MoveKind::Castle | MoveKind::Propel | MoveKind::Drop => true,
        _ => false,
    }
}

/// A game played: the quiet positions seen (`FEN;score`), the result, the
/// game with how it ended, and the search's score of each position
/// (White's view; none for the random opening's positions and the last).
struct Played<V: Evaluate> {
    fens: Vec<String>,
    result: &'static str,
    game: Game<V>,
    outcome: Outcome,
    evals: Vec<Option<Score>>,
}

/// Plays one game.
/// `weak` is the weaker side's color and engine, when there is one.
fn play_game<V: Evaluate>(
    engine: &mut Engine,
    mut weak: Option<(Color, &mut Engine)>,
    cfg: &SelfplayConfig,
    rng: &mut StdRng,
) -> Played<V> {
    engine.new_game();
    if let Some((_, e)) = weak.as_mut() {
        e.new_game();
    }
    let mut game = Game::<V>::new();
    for _ in 0..cfg.random_plies {
        let moves = game.position().legal_moves();
        if moves.is_empty() || game.outcome().is_some() {
            break;
        }
        let m = moves[rng.random_range(0..moves.len())];
        game.push(m);
    }
    let mut fens = Vec::new();
    let mut evals = vec![None; game.positions().len() - 1];
    let mut decided_plies = 0;
    let mut last_sign = 0;
    // Adjudications are written as a resignation or an agreed draw.
    let draw = Outcome::Draw {
        reason: EndReason::Agreement,
    };
    let outcome = loop {
        if let Some(o) = game.outcome() {
            break o;
        }
        if game.moves().len() >= cfg.max_plies {
            break draw;
        }
        let pos = *game.position();
        let history = game.positions();
        let start = history
            .len()
            .saturating_sub(pos.halfmove_clock() as usize + 1);
        let r = match (weak.as_mut(), cfg.weak_nodes) {
            (Some((color, e)), Some(n))
                if *color == pos.turn()
                    && (cfg.weak_rate >= 1.0 || rng.random_bool(cfg.weak_rate.max(0.0))) =>
            {
                e.search(&history[start..], &Limits::nodes(n), &mut NoHandler)
            }
            _ => engine.search(&history[start..], &Limits::nodes(cfg.nodes), &mut NoHandler),
        };
        if r.best.is_null() {
            break draw;
        }
        let white_score = match pos.turn() {
            Color::White => r.score.0,
            Color::Black => -r.score.0,
        };
        let score = Score::from_eval(r.score);
        evals.push(Some(match pos.turn() {
            Color::White => score,
            Color::Black => score.flip(),
        }));
        if !pos.is_check()
            && !r.score.is_mate()
            && white_score.abs() < 2000
            && is_quiet(&pos, r.best)
        {
            // The search's score (White's view) goes with the position: the
            // tuner can blend it with the game's result.
            fens.push(format!("{};{white_score}", pos.fen()));
        }
        // Adjudicate clear wins to save time: six plies beyond 1000 cp.
        let sign = if white_score > 1000 {
            1
        } else if white_score < -1000 {
            -1
        } else {
            0
        };
        if sign != 0 && sign == last_sign {
            decided_plies += 1;
        } else {
            decided_plies = 0;
        }
        last_sign = sign;
        if decided_plies >= 6 {
            break Outcome::Decisive {
                winner: if sign > 0 { Color::White } else { Color::Black },
                reason: EndReason::Resignation,
            };
        }
        game.push(r.best);
    };
    evals.truncate(game.positions().len());
    Played {
        fens,
        result: outcome.result_str(),
        game,
        outcome,
        evals,
    }
}

/// The weaker side of game `i` (counted from 0) when there is one: White
/// in odd-numbered games (`Round` 1, 3, …), Black in even ones.
fn weak_color(i: usize) -> Color {
    if i.is_multiple_of(2) {
        Color::White
    } else {
        Color::Black
    }
}

/// The game as PGN with each move followed by `{ [%eval X] }`, the search's
/// score of the position it leads to (White's view), where there is one.
fn pgn_with_evals<V: Evaluate>(
    game: &Game<V>,
    tags: &[(String, String)],
    outcome: Outcome,
    evals: &[Option<Score>],
) -> String {
    let mut tree = PgnTree::of_game(game, tags, Some(outcome));
    for (i, node) in tree.line.moves.iter_mut().enumerate() {
        if let Some(e) = evals.get(i + 1).copied().flatten() {
            node.comments.push(format!("[%eval {}]", e.pgn()));
        }
    }
    let start = game.start();
    tree.to_pgn(start.fullmoves(), start.turn())
}

/// Plays `cfg.games` games on `cfg.threads` threads and writes `FEN;result` lines.
pub fn run<V: Evaluate>(cfg: &SelfplayConfig, out: &mut dyn Write) -> std::io::Result<usize> {
    run_with_pgn::<V>(cfg, out, None)
}

/// As [`run`], and writes each game to `pgn` as it finishes (PGN with the
/// `Variant` tag and the search's `[%eval]` after each move; `Round` is
/// the game's number, which with the seed identifies it).
pub fn run_with_pgn<V: Evaluate>(
    cfg: &SelfplayConfig,
    out: &mut dyn Write,
    mut pgn: Option<&mut dyn Write>,
) -> std::io::Result<usize> {
    let (tx, rx) = mpsc::channel::<(usize, Played<V>)>();
    let next = Arc::new(AtomicUsize::new(0));
    let bar = ProgressBar::new(cfg.games as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games, {msg} [{elapsed} < {eta}]")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let mut written = 0;
    std::thread::scope(|scope| -> std::io::Result<()> {
        for t in 0..cfg.threads.max(1) {
            let tx = tx.clone();
            let next = next.clone();
            let cfg = cfg.clone();
            scope.spawn(move || {
                let new_engine = || {
                    Engine::new(Options {
                        hash_mb: 8,
                        weights: cfg.weights.clone(),
                        use_nnue: false, // the weights are what is tuned
                        ..Options::default()
                    })
                };
                let mut engine = new_engine();
                let mut weak_engine = cfg.weak_nodes.map(|_| new_engine());
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= cfg.games {
                        break;
                    }
                    let mut rng = StdRng::seed_from_u64(
                        cfg.seed ^ (i as u64).wrapping_mul(0x9E37_79B9) ^ t as u64,
                    );
                    let weak = weak_engine.as_mut().map(|e| (weak_color(i), e));
                    let g = play_game::<V>(&mut engine, weak, &cfg, &mut rng);
                    if tx.send((i, g)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for (i, played) in rx {
            let Played {
                fens,
                result,
                game,
                outcome,
                evals,
            } = played;
            if let Some(w) = pgn.as_mut() {
                let name = |c: Color| match cfg.weak_nodes {
                    Some(n) if weak_color(i) == c => format!("tensorchess {n} nodes"),
                    _ => format!("tensorchess {} nodes", cfg.nodes),
                };
                let tags = [
                    ("Event", "tensorchess selfplay".to_string()),
                    ("Round", (i + 1).to_string()),
                    ("White", name(Color::White)),
                    ("Black", name(Color::Black)),
                    ("Seed", cfg.seed.to_string()),
                    ("Termination", outcome.reason().describe().to_string()),
                ]
                .map(|(k, v)| (k.to_string(), v));
                w.write_all(pgn_with_evals(&game, &tags, outcome, &evals).as_bytes())?;
                w.write_all(b"\n")?;
            }
            for f in &fens {
                // `FEN;score` + `;result`: written as `FEN;result;score`.
                let (fen, score) = f.rsplit_once(';').unwrap_or((f.as_str(), "0"));
                writeln!(out, "{fen};{result};{score}")?;
            }
            written += fens.len();
            bar.inc(1);
            bar.set_message(format!("{written} positions"));
        }
        Ok(())
    })?;
    bar.finish();
    Ok(written)
}
