//! Running a match: games in parallel, PGN, progress, statistics and SPRT.

use super::budget::Budget;
use super::game::{play_game, Adjudication, GameSetup};
use super::openings::parse_openings;
use super::player::Player;
use super::schedule::Schedule;
use super::spec::EngineSpec;
use super::stats::{Sprt, SprtState, Tally};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::channel;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tensorchess_engine::eval::Evaluate;
use tensorchess_rules::pgn::PgnTree;
use tensorchess_rules::{with_variant, Color, VariantKind};

/// A match to play.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The game played.
    pub variant: VariantKind,
    /// The first engine is the one the score is given for.
    pub engines: [EngineSpec; 2],
    /// Limits of engines whose spec sets none.
    pub budget: Budget,
    /// Games to play (each opening is played twice, colours swapped).
    pub games: usize,
    /// Opening positions as text (FEN or EPD lines).
    pub openings: String,
    /// Games played at once (each with its own pair of engine processes).
    pub concurrency: usize,
    /// When a game is decided before the rules end it.
    pub adjudication: Adjudication,
    /// Grace beyond a clock or a move time before a loss on time.
    pub time_margin: Duration,
    /// Longest wait for a move without a clock or move time: an engine
    /// silent that long has hung and loses.
    pub hang_timeout: Duration,
    /// PGN file the games are appended to.
    pub pgn: Option<PathBuf>,
    /// A sequential test that may stop the match once it decides.
    pub sprt: Option<Sprt>,
    /// The PGN `Event` tag.
    pub event: String,
    /// Show a progress bar (on a terminal).
    pub progress: bool,
    /// Print a line per finished game (on stderr).
    pub game_lines: bool,
    /// Set to stop the match early (Ctrl-C): no new game starts, the games
    /// in progress are played out, and the report covers the games played.
    pub interrupt: Option<Arc<AtomicBool>>,
}

/// One finished game, as the report lists it.
#[derive(Clone, Debug, Serialize)]
pub struct GameSummary {
    /// Its number in the match, from 1.
    pub round: usize,
    /// White's engine's name.
    pub white: String,
    /// Black's engine's name.
    pub black: String,
    /// The PGN result: `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// The PGN `Termination`: `normal`, `adjudication`, `time forfeit`, …
    pub termination: String,
    /// A sentence saying how it ended.
    pub detail: String,
    /// Half-moves played.
    pub plies: usize,
    /// The first engine's score in this game.
    pub score: f64,
}

/// Averages of one engine over the match.
#[derive(Clone, Debug, Default, Serialize)]
pub struct EngineTotals {
    /// The engine's name in the match.
    pub name: String,
    /// Moves it made.
    pub moves: u64,
    /// Time it spent on them, in milliseconds.
    pub time_ms: u64,
    /// The depths it reported for them, summed.
    pub depth_sum: u64,
}

impl EngineTotals {
    /// Milliseconds per move.
    pub fn avg_time_ms(&self) -> f64 {
        self.time_ms as f64 / self.moves.max(1) as f64
    }

    /// Depth per move.
    pub fn avg_depth(&self) -> f64 {
        self.depth_sum as f64 / self.moves.max(1) as f64
    }
}

/// A match's result.
#[derive(Clone, Debug, Serialize)]
pub struct MatchReport {
    /// The game played (its key: `tensor`, `chess`, `chessence`).
    pub variant: String,
    /// The two engines, the first the one the score is given for.
    pub engines: [EngineTotals; 2],
    /// Wins, losses and draws of the first engine.
    pub tally: Tally,
    /// The first engine's Elo difference; `None` when the score is 0 or 1.
    pub elo: Option<f64>,
    /// The 95% error margin of `elo`.
    pub elo_error: Option<f64>,
    /// The likelihood that the first engine is the stronger (0 to 1).
    pub los: f64,
    /// The sequential test, if the match ran one.
    pub sprt: Option<Sprt>,
    /// Its log-likelihood ratio at the end.
    pub llr: Option<f64>,
    /// What it decided, if it did.
    pub sprt_state: Option<SprtState>,
    /// Games per termination.
    pub terminations: BTreeMap<String, u32>,
    /// Every game played, in the order they were handed out.
    pub games: Vec<GameSummary>,
    /// Wall time of the match.
    pub seconds: f64,
    /// Games the match was to play (more than those played when it was
    /// interrupted or the SPRT stopped it).
    pub planned: usize,
    /// Stopped by [`MatchConfig::interrupt`].
    pub interrupted: bool,
    /// Games tallied when the SPRT decided (the games in progress then
    /// were played out and are counted too).
    pub decided_after: Option<u32>,
    /// Games started after the SPRT had decided: none, since games are
    /// handed out under the lock that takes the decision.
    pub started_after_decision: u32,
}

impl MatchReport {
    /// The closing summary, in the manner of cutechess-cli.
    pub fn text(&self) -> String {
        let t = &self.tally;
        let mut s = format!(
            "Score of {} vs {}: {} - {} - {}  [{:.3}] {}\n",
            self.engines[0].name,
            self.engines[1].name,
            t.wins,
            t.losses,
            t.draws,
            t.score(),
            t.games()
        );
        match (self.elo, self.elo_error) {
            (Some(e), Some(err)) => s.push_str(&format!(
                "Elo difference: {e:.1} +/- {err:.1} (95%), LOS: {:.1} %, DrawRatio: {:.1} %\n",
                100.0 * self.los,
                100.0 * t.draw_ratio()
            )),
            _ => s.push_str(&format!(
                "Elo difference: unbounded (score {:.0}%), LOS: {:.1} %, DrawRatio: {:.1} %\n",
                100.0 * t.score(),
                100.0 * self.los,
                100.0 * t.draw_ratio()
            )),
        }
        if let (Some(sprt), Some(llr), Some(state)) = (self.sprt, self.llr, self.sprt_state) {
            let verdict = match state {
                SprtState::Continue => "no decision",
                SprtState::H0 => "H0 was accepted",
                SprtState::H1 => "H1 was accepted",
            };
            s.push_str(&format!(
                "SPRT: elo0={} elo1={} alpha={} beta={}: llr {:.2} ({:.1}%), lbound {:.2}, ubound {:.2} - {verdict}\n",
                sprt.elo0,
                sprt.elo1,
                sprt.alpha,
                sprt.beta,
                llr,
                100.0 * llr / sprt.upper_bound(),
                sprt.lower_bound(),
                sprt.upper_bound()
            ));
            if let Some(after) = self.decided_after {
                s.push_str(&format!(
                    "SPRT decided after game {after}; {} more in progress then, {} started after\n",
                    t.games().saturating_sub(after),
                    self.started_after_decision
                ));
            }
        }
        let ends: Vec<String> = self
            .terminations
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        s.push_str(&format!("Endings: {}\n", ends.join(", ")));
        for e in &self.engines {
            s.push_str(&format!(
                "{}: {} moves, {:.0} ms and depth {:.1} per move\n",
                e.name,
                e.moves,
                e.avg_time_ms(),
                e.avg_depth()
            ));
        }
        if self.interrupted {
            s.push_str(&format!(
                "Interrupted: {} of {} games played\n",
                t.games(),
                self.planned
            ));
        }
        s.push_str(&format!("Played in {:.1} s\n", self.seconds));
        s
    }
}

/// Today's date as PGN wants it (UTC): `YYYY.MM.DD`.
pub fn pgn_date() -> String {
    let today = time::OffsetDateTime::now_utc().date();
    format!(
        "{:04}.{:02}.{:02}",
        today.year(),
        u8::from(today.month()),
        today.day()
    )
}

/// A game's result as the main thread receives it.
struct Finished {
    index: usize,
    /// Games tallied when this one was handed out.
    tallied_before: u32,
    pgn: String,
    summary: GameSummary,
    time_ms: [u64; 2],
    depth_sum: [u64; 2],
    moves: [u32; 2],
}

enum Message {
    Done(Box<Finished>),
    Failed(String),
}

/// Plays the match and returns its report.
pub fn run_match(cfg: &MatchConfig) -> Result<MatchReport, String> {
    with_variant!(cfg.variant, V => run_generic::<V>(cfg))
}

fn run_generic<V: Evaluate>(cfg: &MatchConfig) -> Result<MatchReport, String> {
    let openings = parse_openings::<V>(&cfg.openings)?;
    let budgets: [Budget; 2] = [0, 1].map(|i| cfg.engines[i].budget.unwrap_or(cfg.budget));
    for (i, b) in budgets.iter().enumerate() {
        if b.is_empty() {
            return Err(format!(
                "engine {} has no limit: give --tc, --movetime, --depth or --nodes (or tc=/depth=... in its spec)",
                i + 1
            ));
        }
    }
    let mut names = [cfg.engines[0].default_name(), cfg.engines[1].default_name()];
    if names[0] == names[1] {
        names[0].push_str(" #1");
        names[1].push_str(" #2");
    }
    let games = cfg.games.max(1);
    let mut pgn_file = match &cfg.pgn {
        Some(p) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .map_err(|e| format!("cannot open {}: {e}", p.display()))?,
        ),
        None => None,
    };
    let bar = if cfg.progress {
        ProgressBar::new(games as u64)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {bar:30.cyan/blue} {pos}/{len} games (eta {eta}) {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.enable_steady_tick(Duration::from_millis(200));
    let started = Instant::now();
    let schedule = Schedule::new(games, cfg.sprt);
    let date = pgn_date();
    let tc_tag = |b: &Budget| match (b.tc, b.movetime) {
        (Some(tc), _) => tc.to_string(),
        (None, Some(mt)) => format!("{}/move", mt.as_secs_f64()),
        _ => "-".to_string(),
    };
    let time_control = if budgets[0] == budgets[1] {
        tc_tag(&budgets[0])
    } else {
        format!("{} vs {}", tc_tag(&budgets[0]), tc_tag(&budgets[1]))
    };

    let mut tally = Tally::default();
    let mut summaries: Vec<GameSummary> = Vec::new();
    let mut terminations: BTreeMap<String, u32> = BTreeMap::new();
    let mut totals = [0, 1].map(|i| EngineTotals {
        name: names[i].clone(),
        ..EngineTotals::default()
    });
    let mut failure: Option<String> = None;
    let mut handed_at: Vec<u32> = Vec::new();

    std::thread::scope(|scope| {
        let (tx, rx) = channel::<Message>();
        for _ in 0..cfg.concurrency.max(1).min(games) {
            let tx = tx.clone();
            let (schedule, openings, names, date, time_control) =
                (&schedule, &openings, &names, &date, &time_control);
            scope.spawn(move || {
                let mut players: [Option<Player>; 2] = [None, None];
                let interrupted = || {
                    cfg.interrupt
                        .as_ref()
                        .is_some_and(|i| i.load(Ordering::SeqCst))
                };
                while let Some(ticket) = schedule.take(interrupted()) {
                    let index = ticket.index;
                    let pair = index / 2;
                    let start = openings[pair % openings.len()];
                    // Engine A has White in even games.
                    let a_white = index % 2 == 0;
                    let mut ready = Ok(());
                    for (i, slot) in players.iter_mut().enumerate() {
                        if slot.is_none() {
                            match Player::start::<V>(&cfg.engines[i]) {
                                Ok(p) => *slot = Some(p),
                                Err(e) => {
                                    ready = Err(format!("{}: {e}", names[i]));
                                    break;
                                }
                            }
                        }
                        if let Some(p) = slot.as_mut() {
                            // Both colours of an opening share a seed.
                            if let Err(e) = p.new_game::<V>(pair as u64) {
                                ready = Err(format!("{}: {e}", names[i]));
                                break;
                            }
                        }
                    }
                    if let Err(e) = ready {
                        schedule.fail();
                        let _ = tx.send(Message::Failed(e));
                        break;
                    }
                    let [pa, pb] = &mut players;
                    let (pa, pb) = (pa.as_mut().expect("started"), pb.as_mut().expect("started"));
                    let (white, black, wi) = if a_white { (pa, pb, 0) } else { (pb, pa, 1) };
                    let bi = 1 - wi;
                    let setup = GameSetup {
                        start,
                        budgets: [budgets[wi], budgets[bi]],
                        adjudication: &cfg.adjudication,
                        time_margin: cfg.time_margin,
                        hang_timeout: cfg.hang_timeout,
                    };
                    let played = play_game([white, black], &setup);
                    let score_a = match played.outcome.winner() {
                        None => 0.5,
                        Some(Color::White) if a_white => 1.0,
                        Some(Color::Black) if !a_white => 1.0,
                        Some(_) => 0.0,
                    };
                    // Tallied here, before this worker or any other takes
                    // its next game, so that the SPRT decides in time.
                    schedule.record(score_a);
                    let tags = vec![
                        ("Event".to_string(), cfg.event.clone()),
                        ("Site".to_string(), "tensorchess match".to_string()),
                        ("Date".to_string(), date.clone()),
                        ("Round".to_string(), (index + 1).to_string()),
                        ("White".to_string(), names[wi].clone()),
                        ("Black".to_string(), names[bi].clone()),
                        ("TimeControl".to_string(), time_control.clone()),
                        (
                            "Termination".to_string(),
                            played.termination.pgn().to_string(),
                        ),
                        (
                            "PlyCount".to_string(),
                            played.game.moves().len().to_string(),
                        ),
                    ];
                    // The reason as a comment before the result (PGN allows it).
                    let mut tree = PgnTree::of_game(&played.game, &tags, Some(played.outcome));
                    match tree.line.moves.last_mut() {
                        Some(last) => last.comments.push(played.detail.clone()),
                        None => tree.line.comments.push(played.detail.clone()),
                    }
                    let start = played.game.start();
                    let pgn = tree.to_pgn(start.fullmoves(), start.turn());
                    let result = played.outcome.result_str();
                    let summary = GameSummary {
                        round: index + 1,
                        white: names[wi].clone(),
                        black: names[bi].clone(),
                        result: result.to_string(),
                        termination: played.termination.pgn().to_string(),
                        detail: played.detail.clone(),
                        plies: played.game.moves().len(),
                        score: score_a,
                    };
                    // Per engine (A, B), not per colour.
                    let by_engine = |x: [u64; 2]| if a_white { x } else { [x[1], x[0]] };
                    let finished = Finished {
                        index,
                        tallied_before: ticket.tallied_before,
                        pgn,
                        summary,
                        time_ms: by_engine(played.time_used.map(|d| d.as_millis() as u64)),
                        depth_sum: by_engine(played.depth_sum),
                        moves: {
                            let m = by_engine(played.moves.map(u64::from));
                            [m[0] as u32, m[1] as u32]
                        },
                    };
                    if tx.send(Message::Done(Box::new(finished))).is_err() {
                        break;
                    }
                }
                for p in players.into_iter().flatten() {
                    p.quit();
                }
            });
        }
        drop(tx);
        for msg in rx {
            match msg {
                Message::Failed(e) => {
                    if failure.is_none() {
                        failure = Some(e);
                    }
                }
                Message::Done(f) => {
                    tally.add(f.summary.score);
                    handed_at.push(f.tallied_before);
                    *terminations
                        .entry(f.summary.termination.clone())
                        .or_insert(0) += 1;
                    for (i, t) in totals.iter_mut().enumerate() {
                        t.moves += f.moves[i] as u64;
                        t.time_ms += f.time_ms[i];
                        t.depth_sum += f.depth_sum[i];
                    }
                    if let Some(file) = pgn_file.as_mut() {
                        let _ = writeln!(file, "{}", f.pgn);
                        let _ = file.flush();
                    }
                    if cfg.game_lines {
                        let s = &f.summary;
                        bar.suspend(|| {
                            eprintln!(
                                "Finished game {} ({} vs {}): {} {{{}}}",
                                f.index + 1,
                                s.white,
                                s.black,
                                s.result,
                                s.detail
                            )
                        });
                    }
                    summaries.push(f.summary);
                    let mut msg = format!(
                        "+{} ={} -{} [{:.1}%]",
                        tally.wins,
                        tally.draws,
                        tally.losses,
                        100.0 * tally.score()
                    );
                    if let Some((e, err)) = tally.elo() {
                        msg.push_str(&format!(" Elo {e:+.0} ± {err:.0}"));
                    }
                    if let Some(s) = &cfg.sprt {
                        msg.push_str(&format!(" LLR {:.2}", s.llr(&tally)));
                    }
                    bar.set_message(msg);
                    bar.inc(1);
                }
            }
        }
    });
    bar.finish_and_clear();
    if let Some(e) = failure {
        return Err(e);
    }
    summaries.sort_by_key(|s| s.round);
    let decision = schedule.decision();
    let started_after_decision = decision.map_or(0, |d| {
        handed_at.iter().filter(|&&t| t >= d.after_games).count() as u32
    });
    let elo = tally.elo();
    Ok(MatchReport {
        variant: cfg.variant.name().to_string(),
        engines: totals,
        tally,
        elo: elo.map(|e| e.0),
        elo_error: elo.map(|e| e.1),
        los: tally.los(),
        sprt: cfg.sprt,
        llr: cfg.sprt.map(|s| s.llr(&tally)),
        // The verdict that stopped the match, else where the test stands.
        sprt_state: decision
            .map(|d| d.state)
            .or_else(|| cfg.sprt.map(|s| s.state(&tally))),
        terminations,
        games: summaries,
        seconds: started.elapsed().as_secs_f64(),
        planned: games,
        interrupted: cfg
            .interrupt
            .as_ref()
            .is_some_and(|i| i.load(Ordering::SeqCst)),
        decided_after: decision.map(|d| d.after_games),
        started_after_decision,
    })
}
