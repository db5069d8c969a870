//! Mining puzzles from games, by lichess-puzzler's rules
//! (`generator/generator.py`, version 49, and `generator/util.py`, read
//! and written anew):
//!
//! 1. Every position of the game has a score: the game's own (its `[%eval]`
//!    comments), else a quick search. A position
//!    right after the opponent's move is a candidate when the side to move
//!    (the solver) is not already up in material and either has a forced
//!    mate (in at most 15 moves) or its winning chances jumped by more than
//!    0.6 across the opponent's move to at least +200 cp (and, below
//!    +400 cp, only when the solver is down in material). A start that was
//!    already winning (above +300 cp before the opponent's move) is no
//!    puzzle, unless it is a mate.
//! 2. The solution is "cooked" with MultiPV 2 searches: each solver move
//!    must be the only good one (its winning chances above the second
//!    line's by more than the gap; for a mate, no other move mates as fast)
//!    and the opponent replies with its best move. A mate goes on to the
//!    mate; an advantage goes on while the solver has an only move and
//!    stays at +200 cp or more (a repetition cancels it), then is cut to
//!    end with a solver move that had an alternative. Advantage puzzles of
//!    one move are dropped, and the solution must win material (two pawns
//!    or more) or end in mate.
//!    The position after the opponent's move is searched again at the
//!    solution's depth and must still pass step 1.
//! 3. The first solver move is checked again with a deeper search.
//!
//! No puzzle starts before ply [`MIN_PLY`] of its game (the opponent's
//! move that sets it is that ply or later).

use super::csv::Puzzle;
use super::themes::{self, Line, material_diff};
use crate::review::{Score, win_chances};
use tensorchess_engine::eval::Evaluate;
use tensorchess_engine::{Engine, Limits, NoHandler};
use tensorchess_rules::{Color, Game, Move, MoveKind, Outcome, Position};

/// How hard to look.
#[derive(Clone, Debug)]
pub struct MineSettings {
    /// Nodes per position of the scan of a game.
    pub scan_nodes: u64,
    /// Nodes per search (MultiPV 2) while cooking a solution.
    pub nodes: u64,
    /// Nodes of the deeper check of the first solver move.
    pub verify_nodes: u64,
    /// Winning-chance gap by which an only move beats the second line.
    pub gap: f64,
    /// Longest solution, in plies.
    pub max_plies: usize,
    /// Most puzzles taken from one game.
    pub max_per_game: usize,
    /// Earliest ply of the opponent's move that sets a puzzle (the ply of
    /// its `GameUrl`): a piece left hanging in the opening is no puzzle.
    pub min_ply: usize,
    /// Whether mates are mined; without them only advantage puzzles are
    /// (mate candidates are skipped before their solution is searched).
    pub mates: bool,
}

/// The default [`MineSettings::min_ply`]: no puzzle before the twelfth ply.
pub const MIN_PLY: usize = 12;

impl Default for MineSettings {
    fn default() -> Self {
        MineSettings {
            scan_nodes: 3_000,
            nodes: 60_000,
            verify_nodes: 150_000,
            gap: 0.5,
            max_plies: 15,
            max_per_game: 3,
            min_ply: MIN_PLY,
            mates: true,
        }
    }
}

/// The rating deviation of a new puzzle (lichess-puzzler's, with rating 1500).
pub const INITIAL_DEVIATION: u32 = 500;

/// A searched move and its score, from the side to move's view.
#[derive(Copy, Clone, Debug)]
struct Scored {
    mv: Move,
    score: Score,
}

/// The best move and the second best (none with a single legal move).
#[derive(Copy, Clone, Debug)]
struct Pair {
    best: Scored,
    second: Option<Scored>,
}

/// Searches the game's current position; `None` when it has no move.
fn analyse<V: Evaluate>(
    engine: &mut Engine,
    game: &Game<V>,
    nodes: u64,
    multipv: usize,
) -> Option<Pair> {
    let pos = game.position();
    if !pos.has_legal_moves() {
        return None;
    }
    engine.options.multipv = multipv;
    let history = game.positions();
    let start = history
        .len()
        .saturating_sub(pos.halfmove_clock() as usize + 1);
    let r = engine.search(&history[start..], &Limits::nodes(nodes), &mut NoHandler);
    let scored = |(pv, e): &(Vec<Move>, tensorchess_engine::Eval)| {
        pv.first().map(|&mv| Scored {
            mv,
            score: Score::from_eval(*e),
        })
    };
    let best = r.lines.first().and_then(scored).unwrap_or(Scored {
        mv: r.best,
        score: Score::from_eval(r.score),
    });
    let second = r.lines.get(1).and_then(scored).filter(|s| s.mv != best.mv);
    Some(Pair { best, second })
}

/// `s` (side to move's view) seen by `side`.
fn pov(s: Score, to_move: Color, side: Color) -> Score {
    if to_move == side { s } else { s.flip() }
}

/// At least `cp` centipawns, a mate for the side counting as more than any.
fn at_least(s: Score, cp: i32) -> bool {
    match s {
        Score::Cp(c) => c >= cp,
        Score::Mate(m) => m > 0,
    }
}

fn mating(s: Score) -> Option<i32> {
    s.mate().filter(|&m| m > 0)
}

impl MineSettings {
    /// Whether the pair's best move (the solver's) is the only good one.
    fn only_move(&self, pair: &Pair) -> bool {
        let Some(second) = pair.second else {
            return true;
        };
        match mating(pair.best.score) {
            Some(n) => mating(second.score).is_none_or(|s| s > n),
            None => win_chances(pair.best.score) > win_chances(second.score) + self.gap,
        }
    }
}

/// A solution found: its moves and the last search of the solver's side.
struct Solution {
    moves: Vec<Move>,
    last: Pair,
}

/// `first` is the search of the game's position, already made.
fn cook_mate<V: Evaluate>(
    engine: &mut Engine,
    game: &Game<V>,
    s: &MineSettings,
    mut first: Option<Pair>,
) -> Option<Solution> {
    let winner = game.position().turn();
    let mut g = game.clone();
    let mut moves = Vec::new();
    let mut last = None;
    loop {
        match g.outcome() {
            Some(Outcome::Decisive { winner: w, .. }) if w == winner => {
                return last.map(|last| Solution { moves, last });
            }
            Some(_) => return None,
            None => {}
        }
        if moves.len() >= s.max_plies {
            return None;
        }
        let mv = if g.position().turn() == winner {
            let pair = match first.take() {
                Some(p) => p,
                None => analyse(engine, &g, s.nodes, 2)?,
            };
            mating(pair.best.score)?;
            // On the last move of a longer mate any mate in one will do
            // (lichess-puzzler accepts several there too).
            let last_of_many = !moves.is_empty() && pair.best.score == Score::Mate(1);
            if !last_of_many && !s.only_move(&pair) {
                return None;
            }
            last = Some(pair);
            pair.best.mv
        } else {
            analyse(engine, &g, s.nodes / 2, 1)?.best.mv
        };
        moves.push(mv);
        g.push(mv);
    }
}

/// `first` is the search of the game's position, already made.
fn cook_advantage<V: Evaluate>(
    engine: &mut Engine,
    game: &Game<V>,
    s: &MineSettings,
    mut first: Option<Pair>,
) -> Option<Solution> {
    let winner = game.position().turn();
    let mut g = game.clone();
    let mut line: Vec<Pair> = Vec::new();
    loop {
        if g.repetitions() >= 2 {
            return None;
        }
        if g.outcome().is_some() {
            break;
        }
        if line.len() >= s.max_plies {
            return None;
        }
        let Some(pair) = first.take().or_else(|| analyse(engine, &g, s.nodes, 2)) else {
            break;
        };
        let turn = g.position().turn();
        if turn == winner && !s.only_move(&pair) {
            break;
        }
        if !at_least(pov(pair.best.score, turn, winner), 200) {
            return None;
        }
        line.push(pair);
        g.push(pair.best.mv);
    }
    // End on a solver move that had an alternative (an only legal move is no puzzle move).
    while line.len().is_multiple_of(2) || line.last().is_some_and(|p| p.second.is_none()) {
        line.pop()?;
    }
    let moves: Vec<Move> = line.iter().map(|p| p.best.mv).collect();
    let mut end = game.clone();
    moves.iter().for_each(|&m| end.push(m));
    let mated = matches!(end.outcome(), Some(Outcome::Decisive { winner: w, .. }) if w == winner);
    if end.outcome().is_some() && !mated {
        return None;
    }
    let gain = material_diff(end.position(), winner) - material_diff(game.position(), winner);
    if gain < 2 && !mated {
        return None;
    }
    Some(Solution {
        moves,
        last: line[line.len() - 1],
    })
}

/// A short, stable id: five base-62 characters from the puzzle's position and moves.
pub fn puzzle_id(fen: &str, moves: &[String], salt: u32) -> String {
    // FNV-1a, 64 bits.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in fen
        .bytes()
        .chain(moves.join(" ").bytes())
        .chain(salt.to_le_bytes())
    {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    const DIGITS: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    (0..5)
        .map(|_| {
            let c = DIGITS[(h % 62) as usize] as char;
            h /= 62;
            c
        })
        .collect()
}

/// An initial rating: longer solutions and less familiar moves rate higher.
///
/// Mates start at 1000 and other puzzles at 1100, plus 250 per solver move
/// after the first; +200 when the first solver move neither captures nor
/// checks (a quiet move is harder to find), +100 when a solver move uses a
/// beast (ricochet, propel, pass-through, beast capture), +150 for a
/// sacrifice, −150 when the first move just takes a hanging piece; kept
/// within 600–2600.
pub fn estimate_rating(themes: &[String], solver_moves: usize, first_quiet: bool) -> u32 {
    let has = |t: &str| themes.iter().any(|x| x == t);
    let mut r: i32 = if has("mate") { 1000 } else { 1100 };
    r += 250 * (solver_moves.max(1) as i32 - 1);
    if first_quiet {
        r += 200;
    }
    if ["ricochet", "propel", "passThrough", "beastCapture"]
        .iter()
        .any(|t| has(t))
    {
        r += 100;
    }
    if has("sacrifice") {
        r += 150;
    }
    if has("hangingPiece") {
        r -= 150;
    }
    r.clamp(600, 2600) as u32
}

fn is_quiet<V: Evaluate>(pos: &Position<V>, m: Move) -> bool {
    let capture = match m.kind() {
        MoveKind::Normal | MoveKind::Promotion => pos.piece_at(m.to()).is_some(),
        MoveKind::EnPassant | MoveKind::BeastCapture => true,
        _ => false,
    };
    !capture && m.kind() != MoveKind::Promotion && !pos.play(m).is_check()
}

/// Builds the puzzle record of a solution found after ply `k`.
fn make_puzzle<V: Evaluate>(game: &Game<V>, k: usize, sol: &Solution, url: String) -> Puzzle {
    let positions_all = game.positions();
    let mut positions = vec![positions_all[k - 1]];
    let mut moves = vec![game.moves()[k - 1]];
    let mut pos = positions_all[k];
    for &m in &sol.moves {
        positions.push(pos);
        moves.push(m);
        pos = pos.play(m);
    }
    let winner = positions[1].turn();
    // A line that stops short of a mate it could force is crushing.
    let final_cp = match pov(sol.last.best.score, winner, winner) {
        Score::Cp(c) => Some(c),
        Score::Mate(m) => Some(if m > 0 { 10_000 } else { -10_000 }),
    };
    let themes = themes::themes(&Line {
        positions: &positions,
        moves: &moves,
        final_cp,
    });
    let move_strings: Vec<String> = moves
        .iter()
        .zip(&positions)
        .map(|(m, p)| p.move_string(*m))
        .collect();
    let fen = positions[0].fen();
    let rating = estimate_rating(
        &themes,
        sol.moves.len().div_ceil(2),
        is_quiet(&positions[1], moves[1]),
    );
    Puzzle {
        id: puzzle_id(&fen, &move_strings, 0),
        fen,
        moves: move_strings,
        rating,
        rating_deviation: INITIAL_DEVIATION,
        popularity: 0,
        plays: 0,
        themes,
        game_url: url,
        opening_tags: Vec::new(),
    }
}

/// Mines the puzzles of one game. `source` names the game in each
/// puzzle's `GameUrl` (`SOURCE:PLY`, the ply of the opponent's move).
/// `evals[i]` is the game's own evaluation after move `i` (White's view,
/// from its `[%eval]` comments); positions without one are searched
/// briefly (`scan_nodes`).
pub fn mine_game<V: Evaluate>(
    engine: &mut Engine,
    game: &Game<V>,
    s: &MineSettings,
    source: &str,
    evals: &[Option<Score>],
) -> Vec<Puzzle> {
    engine.new_game();
    let n = game.moves().len();
    // Each position's score, side to move's view.
    let mut scan: Vec<Option<Score>> = Vec::with_capacity(n + 1);
    let mut g = Game::from_position(*game.start());
    for i in 0..=n {
        let turn = g.position().turn();
        let known = i
            .checked_sub(1)
            .and_then(|j| evals.get(j).copied().flatten());
        scan.push(match known {
            Some(w) => Some(pov(w, Color::White, turn)),
            None => analyse(engine, &g, s.scan_nodes, 1).map(|p| p.best.score),
        });
        if i < n {
            g.push(game.moves()[i]);
        }
    }
    let mut found = Vec::new();
    let mut prefix = Game::from_position(*game.start());
    let mut free_from = 1;
    for k in 1..=n {
        prefix.push(game.moves()[k - 1]);
        if k < free_from || k < s.min_ply || found.len() >= s.max_per_game {
            continue;
        }
        let pos = *prefix.position();
        if prefix.outcome().is_some() || pos.legal_moves().len() < 2 {
            continue;
        }
        let winner = pos.turn();
        let (Some(score), Some(before)) = (scan[k], scan[k - 1]) else {
            continue;
        };
        let prev = before.flip();
        let material = material_diff(&pos, winner);
        if !candidate(score, prev, material) || (!s.mates && mating(score).is_some()) {
            continue;
        }
        // The position once more, as deep as the solution's searches.
        let Some(first) = analyse(engine, &prefix, s.nodes, 2) else {
            continue;
        };
        let now = first.best.score;
        if !candidate(now, prev, material) || (!s.mates && mating(now).is_some()) {
            continue;
        }
        let sol = if mating(now).is_some_and(|m| m <= 15) {
            cook_mate(engine, &prefix, s, Some(first))
        } else {
            cook_advantage(engine, &prefix, s, Some(first))
        };
        let Some(sol) = sol else { continue };
        // The first solver move, once more and deeper.
        let Some(check) = analyse(engine, &prefix, s.verify_nodes, 2) else {
            continue;
        };
        if check.best.mv != sol.moves[0] || !s.only_move(&check) || !at_least(check.best.score, 200)
        {
            continue;
        }
        free_from = k + sol.moves.len() + 1;
        found.push(make_puzzle(game, k, &sol, format!("{source}:{k}")));
    }
    found
}

/// lichess-puzzler's test of a position after the opponent's move: `score`
/// and `prev` (before that move) from the solver's view.
fn candidate(score: Score, prev: Score, material: i32) -> bool {
    let mate = mating(score).is_some_and(|m| m <= 15);
    if at_least(prev, 301) && !mate {
        return false;
    }
    if material > 0 {
        return false;
    }
    if mate {
        return true;
    }
    if !at_least(score, 200) || win_chances(score) <= win_chances(prev) + 0.6 {
        return false;
    }
    at_least(score, 400) || material <= -1
}

#[cfg(test)]
mod tests {
    use super::*;
    use tensorchess_rules::Chess;

    #[test]
    fn candidates_follow_the_generator() {
        // A jump from equal to +500 after the opponent's blunder.
        assert!(candidate(Score::Cp(500), Score::Cp(0), 0));
        // Already up in material: no puzzle.
        assert!(!candidate(Score::Cp(500), Score::Cp(0), 3));
        // Already winning before: no puzzle, unless a mate.
        assert!(!candidate(Score::Cp(900), Score::Cp(350), 0));
        assert!(candidate(Score::Mate(3), Score::Cp(350), 0));
        // +300 needs the solver down in material.
        assert!(!candidate(Score::Cp(300), Score::Cp(-300), 0));
        assert!(candidate(Score::Cp(300), Score::Cp(-300), -3));
        // Too small a jump.
        assert!(!candidate(Score::Cp(450), Score::Cp(150), 0));
    }

    #[test]
    fn ratings_and_ids() {
        let t = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            estimate_rating(&t(&["mate", "mateIn1", "oneMove"]), 1, false),
            1000
        );
        assert_eq!(
            estimate_rating(&t(&["crushing", "ricochet", "short"]), 2, true),
            1650
        );
        assert_eq!(
            estimate_rating(&t(&["advantage", "hangingPiece"]), 2, false),
            1200
        );
        let a = puzzle_id("fen", &["e2e4".into()], 0);
        assert_eq!(a.len(), 5);
        assert_ne!(a, puzzle_id("fen", &["e2e3".into()], 0));
        assert_eq!(a, puzzle_id("fen", &["e2e4".into()], 0));
    }

    /// A chess game from `fen` with one move played.
    fn one_move_game(fen: &str, mv: &str) -> (Position<Chess>, Game<Chess>) {
        let start = Position::<Chess>::from_fen(fen).unwrap();
        let mut game = Game::from_position(start);
        game.push_str(mv).unwrap();
        (start, game)
    }

    /// Searches short enough for a test.
    fn quick() -> MineSettings {
        MineSettings {
            scan_nodes: 5_000,
            nodes: 30_000,
            verify_nodes: 60_000,
            ..MineSettings::default()
        }
    }

    #[test]
    fn a_knight_fork_is_mined() {
        // 1... Qa8?? 2. Nc7+ forks king and queen; 2... K any 3. Nxa8.
        let (start, game) = one_move_game("4k3/q7/8/1N6/8/8/4PPP1/4K3 b - - 0 1", "a7a8");
        let mut engine = Engine::default();
        // The blunder is the game's first ply.
        let s = MineSettings {
            min_ply: 1,
            ..quick()
        };
        let found = mine_game(&mut engine, &game, &s, "test", &[]);
        assert_eq!(found.len(), 1, "{found:?}");
        let p = &found[0];
        assert_eq!(p.fen, start.fen());
        assert_eq!(p.moves[0], "a7a8");
        assert_eq!(p.moves[1], "b5c7");
        assert_eq!(p.moves[3], "c7a8");
        assert_eq!(p.moves.len(), 4, "{p:?}");
        assert!(p.has_theme("fork") && p.has_theme("short"), "{p:?}");
        assert_eq!(p.game_url, "test:1");
        assert_eq!(p.rating_deviation, 500);
    }

    #[test]
    fn no_puzzle_before_the_minimum_ply() {
        assert_eq!(MIN_PLY, 12);
        assert_eq!(MineSettings::default().min_ply, MIN_PLY);
        // The knight fork above, set by the game's first ply: too early by
        // default, and for a minimum of 2; `mates: false` keeps it (no mate).
        let (_, game) = one_move_game("4k3/q7/8/1N6/8/8/4PPP1/4K3 b - - 0 1", "a7a8");
        let mut engine = Engine::default();
        let s = quick();
        assert!(mine_game(&mut engine, &game, &s, "test", &[]).is_empty());
        let two = MineSettings {
            min_ply: 2,
            ..s.clone()
        };
        assert!(mine_game(&mut engine, &game, &two, "test", &[]).is_empty());
        let no_mates = MineSettings {
            min_ply: 1,
            mates: false,
            ..s
        };
        assert_eq!(
            mine_game(&mut engine, &game, &no_mates, "test", &[]).len(),
            1
        );
    }

    #[test]
    fn mates_can_be_left_out() {
        // 1. Rd7?? leaves the back rank: 1... Ra1#.
        let (_, game) = one_move_game("r5k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "d1d7");
        let mut engine = Engine::default();
        let s = MineSettings {
            min_ply: 1,
            ..quick()
        };
        let found = mine_game(&mut engine, &game, &s, "test", &[]);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].has_theme("mate"), "{found:?}");
        let no_mates = MineSettings { mates: false, ..s };
        assert!(mine_game(&mut engine, &game, &no_mates, "test", &[]).is_empty());
    }
}
