//! Self-play games that produce tuning data: `FEN;result;score` lines
//! (the score is the search's, in centipawns from White's view).

use indicatif::{ProgressBar, ProgressStyle};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use tensorchess_engine::eval::Evaluate;
use tensorchess_engine::{Engine, Limits, NoHandler, Options};
use tensorchess_rules::{Color, Game, MoveKind, Position};

/// How to play the games.
#[derive(Clone, Debug)]
pub struct SelfplayConfig {
    pub games: usize,
    pub nodes: u64,
    pub random_plies: usize,
    pub threads: usize,
    pub seed: u64,
    pub max_plies: usize,
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

/// Plays one game; returns the quiet positions seen (FENs) and the result.
fn play_game<V: Evaluate>(
    engine: &mut Engine,
    cfg: &SelfplayConfig,
    rng: &mut StdRng,
) -> (Vec<String>, &'static str) {
    engine.new_game();
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
    let mut decided_plies = 0;
    let mut last_sign = 0;
    let result = loop {
        if let Some(o) = game.outcome() {
            break o.result_str();
        }
        if game.moves().len() >= cfg.max_plies {
            break "1/2-1/2";
        }
        let pos = *game.position();
        let history = game.positions();
        let start = history
            .len()
            .saturating_sub(pos.halfmove_clock() as usize + 1);
        let r = engine.search(&history[start..], &Limits::nodes(cfg.nodes), &mut NoHandler);
        if r.best.is_null() {
            break "1/2-1/2";
        }
        let white_score = match pos.turn() {
            Color::White => r.score.0,
            Color::Black => -r.score.0,
        };
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
            break if sign > 0 { "1-0" } else { "0-1" };
        }
        game.push(r.best);
    };
    (fens, result)
}

/// Plays `cfg.games` games on `cfg.threads` threads and writes `FEN;result` lines.
pub fn run<V: Evaluate>(cfg: &SelfplayConfig, out: &mut dyn Write) -> std::io::Result<usize> {
    let (tx, rx) = mpsc::channel::<(Vec<String>, &'static str)>();
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
                let mut engine = Engine::new(Options {
                    hash_mb: 8,
                    weights: cfg.weights.clone(),
                    ..Options::default()
                });
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= cfg.games {
                        break;
                    }
                    let mut rng = StdRng::seed_from_u64(
                        cfg.seed ^ (i as u64).wrapping_mul(0x9E37_79B9) ^ t as u64,
                    );
                    let g = play_game::<V>(&mut engine, &cfg, &mut rng);
                    if tx.send(g).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for (fens, result) in rx {
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
