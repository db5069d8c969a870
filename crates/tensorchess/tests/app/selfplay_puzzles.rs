//! `selfplay --pgn` writes games the rules library reads back, with their
//! Variant tag and the search's `[%eval]`s; `puzzles` mines such a file.

use crate::common::run_ok;
use std::process::Command;
use tensorchess::puzzles::{move_evals, read_csv};
use tensorchess_rules::pgn::{parse_pgn, replay};
use tensorchess_rules::{Chessence, VariantKind};

const BIN: &str = env!("CARGO_BIN_EXE_tensorchess");

#[test]
fn selfplay_writes_pgn_that_puzzles_reads() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("games.pgn");
    run_ok(
        Command::new(BIN)
            .args([
                "selfplay",
                "--variant",
                "chessence",
                "--games",
                "2",
                "--nodes",
                "300",
            ])
            .args([
                "--random-plies",
                "2",
                "--threads",
                "1",
                "--seed",
                "3",
                "--pgn",
            ])
            .arg(&pgn),
    );
    let text = std::fs::read_to_string(&pgn).unwrap();
    let games = parse_pgn(&text).unwrap();
    assert_eq!(games.len(), 2);
    for (g, piece) in games.iter().zip(text.split("[Event ").skip(1)) {
        assert_eq!(g.variant().unwrap(), VariantKind::Chessence);
        let game = replay::<Chessence>(g).unwrap();
        let evals = move_evals(&format!("[Event {piece}"));
        assert_eq!(evals.len(), game.moves().len());
        // The random opening has no search; every move after it but the last has its eval.
        assert!(
            evals[2..evals.len() - 1].iter().all(Option::is_some),
            "{piece}"
        );
    }
    let csv = dir.path().join("p.csv");
    run_ok(
        Command::new(BIN)
            .args([
                "puzzles",
                "--nodes",
                "5000",
                "--verify-nodes",
                "10000",
                "--games",
            ])
            .arg(&pgn)
            .arg("--out")
            .arg(&csv),
    );
    let written = std::fs::read_to_string(&csv).unwrap();
    assert!(written.starts_with("PuzzleId,FEN,Moves,"), "{written}");
    assert!(read_csv(&written).is_ok());
}

#[test]
fn selfplay_still_needs_an_output() {
    let out = Command::new(BIN)
        .args(["selfplay", "--games", "1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = Command::new(BIN)
        .args(["puzzles", "--games", "/no/such.pgn", "--out", "/tmp/x.csv"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_weaker_side_alternates_between_games() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("games.pgn");
    run_ok(
        Command::new(BIN)
            .args(["selfplay", "--variant", "chessence", "--games", "2"])
            .args(["--nodes", "300", "--weak-nodes", "1", "--weak-rate", "0.5"])
            .args([
                "--random-plies",
                "2",
                "--threads",
                "1",
                "--seed",
                "5",
                "--pgn",
            ])
            .arg(&pgn),
    );
    let games = parse_pgn(&std::fs::read_to_string(&pgn).unwrap()).unwrap();
    assert_eq!(games.len(), 2);
    for g in &games {
        // White is the weaker side in odd-numbered games.
        let odd = g.tag("Round").unwrap().parse::<u32>().unwrap() % 2 == 1;
        let (weak, strong) = ("tensorchess 1 nodes", "tensorchess 300 nodes");
        let (white, black) = if odd { (weak, strong) } else { (strong, weak) };
        assert_eq!(g.tag("White"), Some(white));
        assert_eq!(g.tag("Black"), Some(black));
    }
    // --weak-rate needs --weak-nodes.
    let out = Command::new(BIN)
        .args(["selfplay", "--games", "1", "--weak-rate", "0.5", "--pgn"])
        .arg(dir.path().join("x.pgn"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}
