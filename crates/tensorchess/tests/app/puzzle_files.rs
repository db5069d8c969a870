//! The shipped puzzle files (`crates/analysis/puzzles/*.csv`): every
//! row reads and replays, mate themes end in mate, the beast themes are in
//! the solutions, no puzzle starts before ply 12 of its game, the counts
//! are met (at most half the Tensor puzzles mates), ids are unique, and the
//! first solver move of a sample is still the only good move at a deeper
//! search than mining used (docs/puzzles.md).

use std::collections::HashSet;
use tensorchess::puzzles::{
    check_puzzle, recheck_first_move, shipped, shipped_csv, Puzzle, MIN_PLY,
};
use tensorchess_engine::eval::Evaluate;
use tensorchess_rules::{Chessence, Tensor, VariantKind};

/// Nodes of the deeper search: mining checked the first move at 150 000.
const DEEPER_NODES: u64 = 300_000;
/// The winning-chance gap the deeper search must still see (mining asked 0.5).
const DEEPER_GAP: f64 = 0.3;

fn all_rows_check<V: Evaluate>(kind: VariantKind) -> Vec<Puzzle> {
    let text = shipped_csv(kind).expect("a shipped file");
    let puzzles = tensorchess::puzzles::read_csv(text).expect("every row reads");
    assert_eq!(puzzles.len(), shipped(kind).len());
    let errors: Vec<String> = puzzles
        .iter()
        .filter_map(|p| check_puzzle::<V>(p).err())
        .collect();
    assert!(errors.is_empty(), "{} bad rows: {errors:#?}", errors.len());
    for p in &puzzles {
        assert_eq!(p.rating_deviation, 500, "{}", p.id);
        assert_eq!((p.popularity, p.plays), (0, 0), "{}", p.id);
        assert!(!p.themes.is_empty(), "{}", p.id);
        assert!(p.moves.len().is_multiple_of(2), "{}: odd solution", p.id);
    }
    // No puzzle from the opening: the opponent's move is ply 12 or later.
    let early: Vec<String> = puzzles
        .iter()
        .filter(|p| p.game_ply().is_none_or(|ply| ply < MIN_PLY))
        .map(|p| format!("{} ({})", p.id, p.game_url))
        .collect();
    assert!(
        early.is_empty(),
        "{} puzzles before ply {MIN_PLY}: {early:?}",
        early.len()
    );
    puzzles
}

fn recheck_sample<V: Evaluate>(puzzles: &[Puzzle], sample: usize) {
    let step = (puzzles.len() / sample).max(1);
    let failures: Vec<String> = puzzles
        .iter()
        .step_by(step)
        .take(sample)
        .filter_map(|p| recheck_first_move::<V>(p, DEEPER_NODES, DEEPER_GAP).err())
        .collect();
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn tensor_puzzles() {
    let puzzles = all_rows_check::<Tensor>(VariantKind::Tensor);
    assert!(puzzles.len() >= 500, "{} Tensor puzzles", puzzles.len());
    let beast = puzzles
        .iter()
        .filter(|p| {
            ["ricochet", "propel", "beastCapture"]
                .iter()
                .any(|t| p.has_theme(t))
        })
        .count();
    assert!(
        beast >= 100,
        "{beast} puzzles with a ricochet, propel or beast capture"
    );
    // lichess's database is mostly tactics: at most half of ours are mates.
    let mates = puzzles.iter().filter(|p| p.has_theme("mate")).count();
    assert!(
        2 * mates <= puzzles.len(),
        "{mates} of {} Tensor puzzles are mates",
        puzzles.len()
    );
    recheck_sample::<Tensor>(&puzzles, 12);
}

#[test]
fn chessence_puzzles() {
    let puzzles = all_rows_check::<Chessence>(VariantKind::Chessence);
    assert!(puzzles.len() >= 100, "{} Chessence puzzles", puzzles.len());
    recheck_sample::<Chessence>(&puzzles, 12);
}

#[test]
fn no_two_puzzles_share_a_position_and_first_move() {
    for kind in [VariantKind::Tensor, VariantKind::Chessence] {
        let mut seen = std::collections::HashMap::new();
        for p in shipped(kind) {
            let key = (p.fen.clone(), p.moves.first().cloned());
            if let Some(other) = seen.insert(key, p.id.clone()) {
                panic!("puzzles {other} and {} are the same puzzle", p.id);
            }
        }
    }
}

#[test]
fn ids_are_unique() {
    let mut seen = HashSet::new();
    for kind in [VariantKind::Tensor, VariantKind::Chessence] {
        for p in shipped(kind) {
            assert!(seen.insert(p.id.clone()), "id {} twice", p.id);
        }
    }
}

#[test]
fn a_wrong_theme_is_caught() {
    // The checks can fail: a puzzle claiming a propel it does not play.
    let mut p = Puzzle::from_csv(
        "abcde,9k/9p/10/10/10/T9/4q5/R8K b - - 0 1,e2e3 a1e3,1000,500,0,0,crushing ricochet oneMove,,",
    )
    .unwrap();
    assert_eq!(check_puzzle::<Tensor>(&p), Ok(()));
    p.themes.push("propel".into());
    assert!(check_puzzle::<Tensor>(&p).is_err());
    p.themes.retain(|t| t != "propel" && t != "ricochet");
    assert!(check_puzzle::<Tensor>(&p).is_err());
    p.themes = vec!["mate".into(), "mateIn1".into()];
    assert!(check_puzzle::<Tensor>(&p).is_err());
    p.moves.push("j8i8".into());
    assert!(check_puzzle::<Tensor>(&p).is_err());
}
