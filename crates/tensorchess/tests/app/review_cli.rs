//! `tensorchess review` on games with known blunders: the blunder is
//! marked `$4` with the better move as a variation, the solid moves are
//! not marked, mates print as `#N`, accuracies are in range and lower for
//! the side that blundered; bad input exits 2; python-chess reads the
//! output of an orthodox game.

use std::io::Write;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_tensorchess");

fn review(pgn: &str, extra: &[&str]) -> Output {
    let mut file = tempfile::NamedTempFile::new().unwrap();
    file.write_all(pgn.as_bytes()).unwrap();
    let mut args = vec!["review", "--nodes", "40000"];
    args.extend_from_slice(extra);
    let path = file.path().to_str().unwrap().to_string();
    args.push(&path);
    Command::new(BIN).args(&args).output().unwrap()
}

fn stdout(o: &Output) -> String {
    assert!(
        o.status.success(),
        "review failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn accuracy(pgn: &str, tag: &str) -> f64 {
    let start = pgn.find(&format!("[{tag} \"")).expect(tag) + tag.len() + 3;
    pgn[start..pgn[start..].find('"').unwrap() + start]
        .parse()
        .unwrap()
}

/// The movetext with each move and what follows it up to the next move.
fn after(pgn: &str, mv: &str) -> String {
    let i = pgn
        .find(mv)
        .unwrap_or_else(|| panic!("{mv} missing in\n{pgn}"));
    pgn[i + mv.len()..].chars().take(60).collect()
}

/// 1. e4 e5 2. Nf3 Qg5?? 3. Nxg5: Black hangs the queen.
const HUNG_QUEEN: &str = "[Event \"hung queen\"]\n[White \"W\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Qg5 3. Nxg5 1-0\n";

#[test]
fn a_hung_queen_is_a_blunder_with_a_better_move() {
    let out = stdout(&review(HUNG_QUEEN, &[]));
    // The blunder: $4, the eval, then the better move as a variation.
    let blunder = after(&out, "Qg5");
    assert!(blunder.trim_start().starts_with("$4"), "{out}");
    assert!(blunder.contains("[%eval"), "{out}");
    let var = out
        .find("(2...")
        .expect("a variation for Black's second move");
    assert!(var > out.find("Qg5 $4").unwrap(), "{out}");
    // The solid moves are not marked.
    for m in ["1. e4 {", "e5 {", "Nf3 {", "Nxg5 {"] {
        assert!(out.contains(m), "{m} should carry no NAG:\n{out}");
    }
    assert_eq!(out.matches('$').count(), 1, "{out}");
    // Every move has its evaluation.
    assert_eq!(out.matches("[%eval ").count(), 5, "{out}");
    let (w, b) = (
        accuracy(&out, "WhiteAccuracy"),
        accuracy(&out, "BlackAccuracy"),
    );
    assert!(
        (0.0..=100.0).contains(&w) && (0.0..=100.0).contains(&b),
        "{w} {b}"
    );
    assert!(b < w, "the blunderer's accuracy {b} should be below {w}");
    assert!(out.contains("[Event \"hung queen\"]") && out.contains("[Result \"1-0\"]"));
    assert!(out.trim_end().ends_with("1-0"), "{out}");
}

/// A Tensor Chess back rank: 1. e3?? lets 1... Ra1#; 1. h3 was safe.
const TENSOR_MATE: &str = "[Event \"back rank\"]\n[Variant \"Tensor\"]\n[SetUp \"1\"]\n[FEN \"r8k/7ppp/10/10/10/10/4P2PPP/9K w - - 0 1\"]\n[Result \"0-1\"]\n\n1. e3 Ra1# 0-1\n";

#[test]
fn a_tensor_move_that_allows_mate_is_a_blunder() {
    let out = stdout(&review(TENSOR_MATE, &[]));
    assert!(out.contains("[Variant \"Tensor\"]"), "{out}");
    assert!(
        out.contains("[FEN \"r8k/7ppp/10/10/10/10/4P2PPP/9K w - - 0 1\"]"),
        "{out}"
    );
    let blunder = after(&out, "1. e3");
    assert!(blunder.trim_start().starts_with("$4"), "{out}");
    // Black mates in one: printed from White's view as #-1.
    assert!(blunder.contains("[%eval #-1]"), "{out}");
    assert!(out.contains("(1. "), "a better move as a variation:\n{out}");
    // The mating move is not marked.
    assert!(!after(&out, "Ra1#").contains('$'), "{out}");
    let (w, b) = (
        accuracy(&out, "WhiteAccuracy"),
        accuracy(&out, "BlackAccuracy"),
    );
    assert!(w < b, "{w} {b}");
}

#[test]
fn the_variant_comes_from_the_tag_then_the_option() {
    // Without a tag the game is read as --variant says (here Tensor Chess: 10 files).
    let out = stdout(&review("1. j4 *\n", &["--variant", "tensor"]));
    assert!(
        out.contains("[Variant \"Tensor\"]") && out.contains("1. j4"),
        "{out}"
    );
    // The tag wins over the option (Nf3 is no move in Tensor Chess).
    let out = stdout(&review(
        "[Variant \"Standard\"]\n\n1. Nf3 *\n",
        &["--variant", "tensor"],
    ));
    assert!(!out.contains("[Variant") && out.contains("1. Nf3"), "{out}");
    // Chess by default: j4 is no move there.
    assert_eq!(review("1. j4 *\n", &[]).status.code(), Some(2));
}

#[test]
fn bad_input_exits_2_with_one_line() {
    let check = |o: Output| {
        assert_eq!(o.status.code(), Some(2), "{o:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(o.stdout.is_empty());
    };
    check(
        Command::new(BIN)
            .args(["review", "/no/such/file.pgn"])
            .output()
            .unwrap(),
    );
    check(review("[Event \"unclosed\n1. e4 *", &[]));
    check(review("1. e4 e5 2. Ke3 *", &[]));
    check(review("[Variant \"Xiangqi\"]\n\n1. e4 *", &[]));
    check(
        Command::new(BIN)
            .args(["review", "--nodes", "5", "--movetime", "5", "x.pgn"])
            .output()
            .unwrap(),
    );
}

/// python-chess reads the annotated PGN: evals and NAGs on the right
/// moves, the better move as a variation of the blunder.
#[test]
#[ignore = "needs python-chess: pip install chess (scripts/test.sh installs it)"]
fn python_chess_reads_the_review() {
    crate::common::need_python_chess("chess.pgn");
    let out = stdout(&review(HUNG_QUEEN, &[]));
    let script = r#"
import sys, io, chess.pgn
game = chess.pgn.read_game(io.StringIO(sys.stdin.read()))
assert game is not None
assert not game.errors, game.errors
nodes = list(game.mainline())
assert [n.san() for n in nodes] == ["e4", "e5", "Nf3", "Qg5", "Nxg5"], [n.san() for n in nodes]
for n in nodes:
    assert n.eval() is not None, n.san()
blunder = nodes[3]
assert blunder.nags == {chess.pgn.NAG_BLUNDER}, blunder.nags
assert all(not n.nags for i, n in enumerate(nodes) if i != 3)
assert len(blunder.parent.variations) == 2, "the better move is a variation"
assert blunder.parent.variations[1].move != blunder.move
# White won the queen: White's view is far ahead after Nxg5.
assert nodes[4].eval().white().score(mate_score=100000) > 500
assert float(game.headers["WhiteAccuracy"]) > float(game.headers["BlackAccuracy"])
print("ok")
"#;
    let mut child = Command::new("python3")
        .args(["-c", script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(out.as_bytes())
        .unwrap();
    let res = child.wait_with_output().unwrap();
    assert!(
        res.status.success() && String::from_utf8_lossy(&res.stdout).contains("ok"),
        "{}\n{}\n{out}",
        String::from_utf8_lossy(&res.stdout),
        String::from_utf8_lossy(&res.stderr)
    );
}
