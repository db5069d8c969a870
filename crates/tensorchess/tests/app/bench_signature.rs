//! The bench: valid shipped positions, a deterministic node signature.

use std::process::Command;
use tensorchess::bench::{default_depth, positions, run_bench};
use tensorchess_rules::VariantKind;

#[test]
fn every_game_ships_eight_to_twelve_positions_that_parse() {
    for kind in VariantKind::ALL {
        let fens = positions(kind);
        assert!((8..=12).contains(&fens.len()), "{kind}: {}", fens.len());
        // Depth 1 parses and searches every one.
        let t = run_bench(kind, fens, 1, |_| {}).unwrap();
        assert_eq!(t.rows.len(), fens.len());
        assert!(t.rows.iter().all(|r| r.nodes > 0 && r.best != "(none)"));
        assert!(default_depth(kind) >= 8);
    }
}

#[test]
fn the_node_signature_is_deterministic() {
    for kind in VariantKind::ALL {
        let a = run_bench(kind, positions(kind), 5, |_| {}).unwrap();
        let b = run_bench(kind, positions(kind), 5, |_| {}).unwrap();
        assert_eq!(a.nodes, b.nodes, "{kind}");
        let per_a: Vec<u64> = a.rows.iter().map(|r| r.nodes).collect();
        let per_b: Vec<u64> = b.rows.iter().map(|r| r.nodes).collect();
        assert_eq!(per_a, per_b, "{kind}");
        // Deeper searches more.
        let c = run_bench(kind, positions(kind), 6, |_| {}).unwrap();
        assert!(c.nodes > a.nodes, "{kind}");
    }
}

#[test]
fn the_bench_command_prints_the_same_signature_twice() {
    let run = || {
        let out = Command::new(env!("CARGO_BIN_EXE_tensorchess"))
            .args(["bench", "--depth", "4"])
            .output()
            .unwrap();
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        for game in ["tensor:", "chess:", "chessence:"] {
            assert!(text.lines().any(|l| l.starts_with(game)), "{text}");
        }
        assert!(text.contains("Nodes/second    : "), "{text}");
        text.lines()
            .find_map(|l| l.strip_prefix("Nodes searched  : "))
            .unwrap()
            .parse::<u64>()
            .unwrap()
    };
    let first = run();
    assert!(first > 0);
    assert_eq!(first, run());

    let out = Command::new(env!("CARGO_BIN_EXE_tensorchess"))
        .args(["bench", "--variant", "chess", "--depth", "3", "--quiet"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("chess: 12 positions at depth 3:"),
        "{text}"
    );
    assert!(text.contains("\nchess: evaluation: hand-made\n"), "{text}");
    // With a network file the bench says so (a network of zeros: every
    // score 0).
    let dir = tempfile::tempdir().unwrap();
    let net = dir.path().join("zero.nnue");
    let zeros = tensorchess_engine::nnue::Network::zeros::<tensorchess_rules::Chess>(8);
    std::fs::write(&net, zeros.to_bytes()).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_tensorchess"))
        .args(["bench", "--variant", "chess", "--depth", "2"])
        .arg("--eval-file")
        .arg(&net)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("chess: evaluation: network (from the file, 8 hidden)"),
        "{text}"
    );
    let out = Command::new(env!("CARGO_BIN_EXE_tensorchess"))
        .args([
            "bench",
            "--variant",
            "chess",
            "--depth",
            "2",
            "--eval-file",
            "/dev/zero",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let bad = Command::new(env!("CARGO_BIN_EXE_tensorchess"))
        .args(["bench", "--variant", "go"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
}
