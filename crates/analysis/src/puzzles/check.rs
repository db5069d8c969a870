//! Checks of a puzzle record: its moves replay, its themes hold, and its
//! first solver move is still the only good one at a given search.

use super::csv::Puzzle;
use super::themes::is_ricochet;
use crate::review::{Score, win_chances};
use tensorchess_engine::eval::Evaluate;
use tensorchess_engine::{Engine, Limits, NoHandler, Options};
use tensorchess_rules::{Move, MoveKind, Outcome, Position, Variant};

/// The positions and moves of a puzzle: `positions[i]` is before `moves[i]`,
/// and the last position is after the last move.
pub fn replay_puzzle<V: Variant>(p: &Puzzle) -> Result<(Vec<Position<V>>, Vec<Move>), String> {
    let mut pos = Position::<V>::from_fen(&p.fen).map_err(|e| format!("{}: FEN: {e}", p.id))?;
    let mut positions = vec![pos];
    let mut moves = Vec::new();
    for (i, text) in p.moves.iter().enumerate() {
        let m = pos
            .parse_move(text)
            .map_err(|e| format!("{}: move {} ({text}): {e}", p.id, i + 1))?;
        pos = pos.play(m);
        positions.push(pos);
        moves.push(m);
    }
    Ok((positions, moves))
}

/// Checks what a puzzle says of itself: the moves are legal in turn, the
/// solution ends with a solver move, a mate theme ends in mate, and the
/// `ricochet`, `propel`, `beastCapture` and `drop` themes are in the
/// solution's moves.
pub fn check_puzzle<V: Variant>(p: &Puzzle) -> Result<(), String> {
    let (positions, moves) = replay_puzzle::<V>(p)?;
    if !moves.len().is_multiple_of(2) {
        return Err(format!(
            "{}: the solution does not end with a solver move",
            p.id
        ));
    }
    let solver = positions[1].turn();
    let mated = matches!(positions[moves.len()].outcome(),
        Some(Outcome::Decisive { winner, .. }) if winner == solver);
    if p.themes.iter().any(|t| t.starts_with("mate")) != mated {
        return Err(format!(
            "{}: mate themes {:?}, mate at the end: {mated}",
            p.id, p.themes
        ));
    }
    let solver_moves = || {
        (1..moves.len())
            .step_by(2)
            .map(|i| (&positions[i], moves[i]))
    };
    let kinds = [
        ("propel", MoveKind::Propel),
        ("beastCapture", MoveKind::BeastCapture),
        ("drop", MoveKind::Drop),
    ];
    for (theme, kind) in kinds {
        if p.has_theme(theme) != solver_moves().any(|(_, m)| m.kind() == kind) {
            return Err(format!(
                "{}: theme {theme} does not match the solution",
                p.id
            ));
        }
    }
    if p.has_theme("ricochet") != solver_moves().any(|(pos, m)| is_ricochet(pos, m)) {
        return Err(format!(
            "{}: theme ricochet does not match the solution",
            p.id
        ));
    }
    Ok(())
}

/// Searches the puzzle's position (after the opponent's move) with a fresh
/// engine (16 MiB, one thread) to `nodes` nodes, MultiPV 2: the first
/// solver move must come first, and be the only good move (no other move
/// mates as fast; other moves' winning chances lower by more than `gap`).
pub fn recheck_first_move<V: Evaluate>(p: &Puzzle, nodes: u64, gap: f64) -> Result<(), String> {
    let (positions, moves) = replay_puzzle::<V>(p)?;
    let mut engine = Engine::new(Options {
        hash_mb: 16,
        multipv: 2,
        use_nnue: false, // as the puzzles were mined
        ..Options::default()
    });
    let r = engine.search(&positions[..2], &Limits::nodes(nodes), &mut NoHandler);
    let score = |i: usize| r.lines.get(i).map(|(_, e)| Score::from_eval(*e));
    let best = r.lines.first().and_then(|(pv, _)| pv.first().copied());
    if best != Some(moves[1]) {
        return Err(format!(
            "{}: the engine prefers {} to {}",
            p.id,
            best.map(|m| positions[1].move_string(m))
                .unwrap_or_default(),
            p.moves[1]
        ));
    }
    let (Some(b), second) = (score(0), score(1)) else {
        return Err(format!("{}: no score", p.id));
    };
    let Some(s) = second else { return Ok(()) };
    let unique = match b.mate().filter(|&n| n > 0) {
        Some(n) => s.mate().is_none_or(|m| m <= 0 || m > n),
        None => win_chances(b) > win_chances(s) + gap,
    };
    if unique {
        Ok(())
    } else {
        Err(format!(
            "{}: {} scores {b:?} but the second line {s:?}",
            p.id, p.moves[1]
        ))
    }
}
