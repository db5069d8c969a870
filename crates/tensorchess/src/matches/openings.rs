//! Opening positions: the shipped sets, reading a file, and making new sets.
//!
//! Recipe (`tensorchess match --make-openings N`): from the game's start,
//! play a random number of plies (in a range per game) of random moves,
//! each drawn uniformly from the legal moves that a 4-ply search (all moves
//! scored, MultiPV) rates within `slack` centipawns of the best, so that
//! openings are odd but not absurd (`--slack -1`: any legal move); keep the
//! position if the game is not over, nobody is in check, and a fresh
//! engine's search to a fixed shallow depth scores it within ±`balance`
//! centipawns; skip duplicates; repeat until `N` are kept. A seeded
//! generator makes a set reproducible.

use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use std::collections::HashSet;
use std::ops::RangeInclusive;
use tensorchess_engine::eval::Evaluate;
use tensorchess_engine::{Engine, Limits, NoHandler, Options};
use tensorchess_rules::{with_variant, Position, VariantKind};

/// The shipped opening set of a game, one FEN a line.
pub fn builtin(kind: VariantKind) -> &'static str {
    match kind {
        VariantKind::Tensor => include_str!("../../openings/tensor.epd"),
        VariantKind::Chess => include_str!("../../openings/chess.epd"),
        VariantKind::Chessence => include_str!("../../openings/chessence.epd"),
    }
}

/// Reads opening lines (FEN or EPD; `#` comments and blank lines skipped)
/// for game `V`, refusing positions that are unreadable or already over.
pub fn parse_openings<V: Evaluate>(text: &str) -> Result<Vec<Position<V>>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let pos = Position::<V>::from_fen_or_epd(line)
            .map_err(|e| format!("opening line {}: {e}", n + 1))?;
        if pos.outcome().is_some() {
            return Err(format!("opening line {}: the game is already over", n + 1));
        }
        out.push(pos);
    }
    if out.is_empty() {
        return Err("no opening positions".into());
    }
    Ok(out)
}

/// Depth of the search that scores every move of a playout.
pub const SCORE_DEPTH: u32 = 4;

/// Settings of the opening generator.
#[derive(Clone, Debug)]
pub struct OpeningRecipe {
    /// Openings to make.
    pub count: usize,
    /// The random plies played from the start, drawn in this range.
    pub plies: RangeInclusive<u32>,
    /// The depth of the search that scores a candidate position.
    pub depth: u32,
    /// A position is kept if that search scores it within this many
    /// centipawns of level.
    pub balance: i32,
    /// Moves drawn from those within this many centipawns of the best at
    /// [`SCORE_DEPTH`] plies; `None`: from all legal moves.
    pub slack: Option<i32>,
    /// The random generator's seed: a set is reproducible.
    pub seed: u64,
}

impl OpeningRecipe {
    /// The recipe the shipped sets were made with.
    pub fn default_for(kind: VariantKind, count: usize) -> OpeningRecipe {
        let (plies, depth) = match kind {
            VariantKind::Chess => (6..=10, 7),
            VariantKind::Tensor => (6..=10, 6),
            VariantKind::Chessence => (4..=8, 6),
        };
        OpeningRecipe {
            count,
            plies,
            depth,
            balance: 40,
            slack: Some(40),
            seed: 1,
        }
    }
}

/// One generated opening with the score that admitted it.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The position.
    pub fen: String,
    /// The score that admitted it (centipawns, the side to move's).
    pub score: i32,
    /// The moves from the start that reached it.
    pub moves: Vec<String>,
}

fn generate_for<V: Evaluate>(
    recipe: &OpeningRecipe,
    mut on_found: impl FnMut(&Generated),
) -> Vec<Generated> {
    let mut rng = StdRng::seed_from_u64(recipe.seed);
    let mut engine = Engine::new(Options {
        hash_mb: 16,
        use_nnue: false, // the shipped openings' recipe
        ..Options::default()
    });
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut attempts = 0usize;
    while out.len() < recipe.count && attempts < recipe.count * 10_000 {
        attempts += 1;
        let plies = rng.random_range(recipe.plies.clone());
        let mut pos = Position::<V>::new();
        let mut moves = Vec::new();
        let mut dead = false;
        for _ in 0..plies {
            let mut legal = pos.legal_moves().to_vec();
            if let (Some(slack), false) = (recipe.slack, legal.is_empty()) {
                // Score every move and keep the near-best.
                engine.new_game();
                engine.options.multipv = legal.len();
                let r = engine.search(&[pos], &Limits::depth(SCORE_DEPTH), &mut NoHandler);
                engine.options.multipv = 1;
                if let Some(best) = r.lines.first().map(|l| l.1 .0) {
                    legal = r
                        .lines
                        .iter()
                        .filter(|(pv, s)| !pv.is_empty() && s.0 >= best - slack)
                        .map(|(pv, _)| pv[0])
                        .collect();
                    // The search's order depends on scores: sort for reproducibility.
                    legal.sort_by_key(|m| m.to_u32());
                }
            }
            let Some(&m) = legal.choose(&mut rng) else {
                dead = true;
                break;
            };
            moves.push(pos.move_string(m));
            pos = pos.play(m);
        }
        if dead || pos.outcome().is_some() || pos.is_check() {
            continue;
        }
        // Duplicates compare the position, not the move counters.
        let key = pos
            .fen()
            .split_whitespace()
            .take(4)
            .collect::<Vec<_>>()
            .join(" ");
        if seen.contains(&key) {
            continue;
        }
        engine.new_game();
        let r = engine.search(&[pos], &Limits::depth(recipe.depth), &mut NoHandler);
        if r.score.is_mate() || r.score.0.abs() > recipe.balance {
            continue;
        }
        seen.insert(key);
        let g = Generated {
            fen: pos.fen(),
            score: r.score.0,
            moves,
        };
        on_found(&g);
        out.push(g);
    }
    out
}

/// Makes a set of balanced openings; `on_found` sees each as it is kept.
pub fn generate(
    kind: VariantKind,
    recipe: &OpeningRecipe,
    on_found: impl FnMut(&Generated),
) -> Vec<Generated> {
    with_variant!(kind, V => generate_for::<V>(recipe, on_found))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tensorchess_rules::{Chess, Chessence, Tensor};

    #[test]
    fn shipped_sets_are_valid_and_distinct() {
        fn check<V: Evaluate>() {
            let list = parse_openings::<V>(builtin(V::KIND)).unwrap();
            assert!(list.len() >= 50, "{} has {}", V::KIND, list.len());
            let set: HashSet<String> = list.iter().map(|p| p.fen()).collect();
            assert_eq!(set.len(), list.len(), "duplicates in {}", V::KIND);
        }
        check::<Tensor>();
        check::<Chess>();
        check::<Chessence>();
    }

    #[test]
    fn generation_is_reproducible_and_balanced() {
        let recipe = OpeningRecipe {
            count: 3,
            plies: 4..=6,
            depth: 3,
            balance: 60,
            slack: Some(50),
            seed: 7,
        };
        let a = generate(VariantKind::Chess, &recipe, |_| {});
        let b = generate(VariantKind::Chess, &recipe, |_| {});
        assert_eq!(a.len(), 3);
        assert_eq!(
            a.iter().map(|g| &g.fen).collect::<Vec<_>>(),
            b.iter().map(|g| &g.fen).collect::<Vec<_>>()
        );
        for g in &a {
            assert!(g.score.abs() <= 60);
            assert!((4..=6).contains(&g.moves.len()));
        }
    }

    #[test]
    fn bad_opening_lines_are_refused() {
        assert!(parse_openings::<Chess>("").is_err());
        assert!(parse_openings::<Chess>("not a fen")
            .unwrap_err()
            .contains("line 1"));
        // Fool's mate: over already.
        let mated = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
        assert!(parse_openings::<Chess>(mated).unwrap_err().contains("over"));
        let ok = "# comment\n\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\n";
        assert_eq!(parse_openings::<Chess>(ok).unwrap().len(), 1);
    }
}
