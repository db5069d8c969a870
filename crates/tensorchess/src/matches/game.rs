//! Playing one game between two players, with clocks, adjudication and forfeits.

use super::budget::{Budget, Clock};
use super::player::{Fault, Player, Request};
use std::time::Duration;
use tensorchess_engine::eval::Evaluate;
use tensorchess_engine::Limits;
use tensorchess_rules::{Color, EndReason, Game, Outcome, Position};

/// When a game is decided before the rules end it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Adjudication {
    /// Resign: both engines' scores beyond `score` centipawns (for the same
    /// side) for `moves` moves each in a row.
    pub resign: Option<ResignRule>,
    /// Draw: from move `from_move`, both engines' scores within `score`
    /// centipawns of 0 for `moves` moves each in a row.
    pub draw: Option<DrawRule>,
    /// Draw once this many moves (full moves) were played in the game.
    pub max_moves: Option<u32>,
}

/// Adjudicating a loss: both engines agree a side is lost.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ResignRule {
    /// Moves of each engine in a row.
    pub moves: u32,
    /// Centipawns beyond which a side is lost.
    pub score: i32,
}

/// Adjudicating a draw: both engines see a level game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DrawRule {
    /// The move number from which it applies.
    pub from_move: u32,
    /// Moves of each engine in a row.
    pub moves: u32,
    /// Centipawns from 0 within which a game is level.
    pub score: i32,
}

impl Default for Adjudication {
    fn default() -> Self {
        Adjudication {
            resign: Some(ResignRule {
                moves: 4,
                score: 1000,
            }),
            draw: Some(DrawRule {
                from_move: 40,
                moves: 8,
                score: 10,
            }),
            max_moves: None,
        }
    }
}

fn parse_pairs(text: &str, what: &str, keys: &[&str]) -> Result<Vec<i64>, String> {
    let mut values: Vec<Option<i64>> = vec![None; keys.len()];
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (k, v) = part
            .split_once('=')
            .ok_or_else(|| format!("{what}: expected KEY=VALUE, found '{part}'"))?;
        let i = keys
            .iter()
            .position(|x| *x == k.trim())
            .ok_or_else(|| format!("{what}: unknown key '{k}' (keys: {})", keys.join(", ")))?;
        values[i] = Some(
            v.trim()
                .parse::<i64>()
                .ok()
                .filter(|v| *v >= 0)
                .ok_or_else(|| format!("{what}: '{v}' is not a whole number"))?,
        );
    }
    keys.iter()
        .zip(values)
        .map(|(k, v)| v.ok_or_else(|| format!("{what}: {k}= is missing")))
        .collect()
}

impl ResignRule {
    /// `movecount=4,score=1000`.
    pub fn parse(text: &str) -> Result<ResignRule, String> {
        let v = parse_pairs(text, "--resign", &["movecount", "score"])?;
        Ok(ResignRule {
            moves: v[0].clamp(1, 1000) as u32,
            score: v[1].min(1_000_000) as i32,
        })
    }
}

impl DrawRule {
    /// `movenumber=40,movecount=8,score=10`.
    pub fn parse(text: &str) -> Result<DrawRule, String> {
        let v = parse_pairs(text, "--draw", &["movenumber", "movecount", "score"])?;
        Ok(DrawRule {
            from_move: v[0].min(10_000) as u32,
            moves: v[1].clamp(1, 1000) as u32,
            score: v[2].min(1_000_000) as i32,
        })
    }
}

/// How a game ended, for the PGN `Termination` tag.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Termination {
    /// By the rules (mate, stalemate, repetition, ...).
    Normal,
    /// By the adjudication rules (resignation, draw, the move limit).
    Adjudication,
    /// A side's clock or move time ran out.
    TimeForfeit,
    /// An illegal move.
    RulesInfraction,
    /// A crash or a hung engine.
    Abandoned,
}

impl Termination {
    /// As the PGN `Termination` tag writes it.
    pub fn pgn(self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::Adjudication => "adjudication",
            Termination::TimeForfeit => "time forfeit",
            Termination::RulesInfraction => "rules infraction",
            Termination::Abandoned => "abandoned",
        }
    }
}

/// A finished game.
pub struct Played<V: Evaluate> {
    /// Its moves.
    pub game: Game<V>,
    /// Its result, and why.
    pub outcome: Outcome,
    /// How it ended, for PGN.
    pub termination: Termination,
    /// A sentence saying how it ended.
    pub detail: String,
    /// Time each side spent (White, Black).
    pub time_used: [Duration; 2],
    /// The depths each side reported, summed.
    pub depth_sum: [u64; 2],
    /// Moves each side made.
    pub moves: [u32; 2],
}

/// Everything a game needs besides the players.
pub struct GameSetup<'a, V: Evaluate> {
    /// The position it starts from (an opening).
    pub start: Position<V>,
    /// Limits of White and Black.
    pub budgets: [Budget; 2],
    /// When it is decided before the rules end it.
    pub adjudication: &'a Adjudication,
    /// Grace beyond a clock or a move time before a loss on time.
    pub time_margin: Duration,
    /// Longest wait for a move without a clock or move time.
    pub hang_timeout: Duration,
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// Plays a game: `players[0]` has White.
pub fn play_game<V: Evaluate>(players: [&mut Player; 2], setup: &GameSetup<V>) -> Played<V> {
    let mut game = Game::from_position(setup.start);
    let mut clocks: [Option<Clock>; 2] = [
        setup.budgets[0].tc.map(Clock::new),
        setup.budgets[1].tc.map(Clock::new),
    ];
    // Scores from White's view, one per ply played (None: not reported).
    let mut scores: Vec<Option<i32>> = Vec::new();
    let mut time_used = [Duration::ZERO; 2];
    let mut depth_sum = [0u64; 2];
    let mut moves = [0u32; 2];
    let start_fullmoves = setup.start.fullmoves();
    macro_rules! done {
        ($outcome:expr, $term:expr, $detail:expr) => {
            return Played {
                game,
                outcome: $outcome,
                termination: $term,
                detail: $detail,
                time_used,
                depth_sum,
                moves,
            }
        };
    }
    loop {
        if let Some(o) = game.outcome() {
            done!(o, Termination::Normal, o.to_string());
        }
        if let Some(max) = setup.adjudication.max_moves {
            if game.position().fullmoves().saturating_sub(start_fullmoves) >= max {
                let o = Outcome::Draw {
                    reason: EndReason::Agreement,
                };
                done!(
                    o,
                    Termination::Adjudication,
                    format!("Draw by adjudication: {max} moves played")
                );
            }
        }
        let us = game.position().turn();
        let i = us.index();
        let budget = &setup.budgets[i];
        let mut limits = Limits {
            depth: budget.depth,
            nodes: budget.nodes,
            movetime: budget.movetime,
            ..Limits::default()
        };
        let mut timeout = setup.hang_timeout;
        if let Some(c) = &clocks[i] {
            for side in [Color::White, Color::Black] {
                // A side without a clock is shown our own.
                let shown = clocks[side.index()].as_ref().unwrap_or(c);
                limits.time[side.index()] = Some(shown.left);
                limits.inc[side.index()] = Some(shown.tc.inc);
            }
            limits.movestogo = c.moves_to_go();
            timeout = c.left + setup.time_margin;
        }
        if let Some(mt) = budget.movetime {
            timeout = timeout.min(mt + setup.time_margin.max(Duration::from_millis(500)));
        }
        let req = Request { limits, timeout };
        let thought = players[i].think(&game, &req);
        let winner = !us;
        let lost = |reason| Outcome::Decisive { winner, reason };
        let t = match thought {
            Ok(t) => t,
            Err(Fault::Illegal(m)) => {
                let detail = format!(
                    "{} wins: {} played an illegal move '{m}'",
                    side_name(winner),
                    side_name(us)
                );
                done!(
                    lost(EndReason::Abandoned),
                    Termination::RulesInfraction,
                    detail
                );
            }
            Err(Fault::Crashed) => {
                let detail = format!(
                    "{} wins: {}'s engine crashed",
                    side_name(winner),
                    side_name(us)
                );
                done!(lost(EndReason::Abandoned), Termination::Abandoned, detail);
            }
            Err(Fault::Timeout) => {
                let (reason, term) = if clocks[i].is_some() || budget.movetime.is_some() {
                    (EndReason::Timeout, Termination::TimeForfeit)
                } else {
                    (EndReason::Abandoned, Termination::Abandoned)
                };
                let detail = format!(
                    "{} wins: {} did not move in time",
                    side_name(winner),
                    side_name(us)
                );
                done!(lost(reason), term, detail);
            }
        };
        time_used[i] += t.elapsed;
        depth_sum[i] += t.depth.unwrap_or(0) as u64;
        moves[i] += 1;
        if let Some(c) = &mut clocks[i] {
            if !c.charge(t.elapsed, setup.time_margin) {
                let detail = format!(
                    "{} wins on time: {} used {} ms",
                    side_name(winner),
                    side_name(us),
                    t.elapsed.as_millis()
                );
                done!(lost(EndReason::Timeout), Termination::TimeForfeit, detail);
            }
        }
        game.push(t.mv);
        scores.push(t.score.map(|s| match us {
            Color::White => s,
            Color::Black => -s,
        }));
        if let Some((o, detail)) =
            adjudicate(setup.adjudication, &scores, game.position().fullmoves())
        {
            if game.outcome().is_none() {
                done!(o, Termination::Adjudication, detail);
            }
        }
    }
}

/// Decides a game on the engines' scores (White's view, one per ply).
pub fn adjudicate(
    rules: &Adjudication,
    scores: &[Option<i32>],
    fullmoves: u32,
) -> Option<(Outcome, String)> {
    if let Some(r) = rules.resign {
        let n = 2 * r.moves as usize;
        if scores.len() >= n {
            let last = &scores[scores.len() - n..];
            for winner in [Color::White, Color::Black] {
                let sign = if winner == Color::White { 1 } else { -1 };
                if last.iter().all(|s| s.is_some_and(|s| s * sign >= r.score)) {
                    return Some((
                        Outcome::Decisive {
                            winner,
                            reason: EndReason::Resignation,
                        },
                        format!(
                            "{} wins by adjudication: both engines scored {} cp or more for it for {} moves",
                            side_name(winner),
                            r.score,
                            r.moves
                        ),
                    ));
                }
            }
        }
    }
    if let Some(d) = rules.draw {
        let n = 2 * d.moves as usize;
        if fullmoves >= d.from_move && scores.len() >= n {
            let last = &scores[scores.len() - n..];
            if last.iter().all(|s| s.is_some_and(|s| s.abs() <= d.score)) {
                return Some((
                    Outcome::Draw {
                        reason: EndReason::Agreement,
                    },
                    format!(
                        "Draw by adjudication: both engines scored within {} cp for {} moves",
                        d.score, d.moves
                    ),
                ));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resign_needs_both_engines_to_agree() {
        let rules = Adjudication {
            resign: Some(ResignRule {
                moves: 2,
                score: 500,
            }),
            draw: None,
            max_moves: None,
        };
        let s = |v: &[i32]| v.iter().map(|x| Some(*x)).collect::<Vec<_>>();
        assert!(adjudicate(&rules, &s(&[600, 700, 800]), 10).is_none());
        let (o, _) = adjudicate(&rules, &s(&[0, 600, 700, 800, 900]), 10).unwrap();
        assert_eq!(o.winner(), Some(Color::White));
        let (o, _) = adjudicate(&rules, &s(&[-600, -700, -800, -900]), 10).unwrap();
        assert_eq!(o.winner(), Some(Color::Black));
        // One engine disagrees.
        assert!(adjudicate(&rules, &s(&[600, 100, 800, 900]), 10).is_none());
        // A missing score breaks the run.
        let mut v = s(&[600, 700, 800, 900]);
        v[1] = None;
        assert!(adjudicate(&rules, &v, 10).is_none());
    }

    #[test]
    fn draws_wait_for_the_move_number() {
        let rules = Adjudication {
            resign: None,
            draw: Some(DrawRule {
                from_move: 30,
                moves: 2,
                score: 10,
            }),
            max_moves: None,
        };
        let v = vec![Some(5), Some(-3), Some(0), Some(10)];
        assert!(adjudicate(&rules, &v, 29).is_none());
        let (o, _) = adjudicate(&rules, &v, 30).unwrap();
        assert_eq!(o.winner(), None);
        let w = vec![Some(5), Some(-30), Some(0), Some(10)];
        assert!(adjudicate(&rules, &w, 30).is_none());
    }

    #[test]
    fn rules_parse() {
        assert_eq!(
            ResignRule::parse("movecount=3,score=700").unwrap(),
            ResignRule {
                moves: 3,
                score: 700
            }
        );
        assert_eq!(
            DrawRule::parse("movenumber=40,movecount=8,score=10").unwrap(),
            DrawRule {
                from_move: 40,
                moves: 8,
                score: 10
            }
        );
        assert!(ResignRule::parse("movecount=3").is_err());
        assert!(ResignRule::parse("movecount=3,score=-1").is_err());
        assert!(DrawRule::parse("movenumber=40,movecount=8,score=10,x=1").is_err());
    }
}
