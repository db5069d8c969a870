//! The command-line contract other tools rely on: output formats, sorting,
//! and exit status 2 with one line on stderr for bad input.

use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tensorchess"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn perft_prints_the_node_count_last() {
    let o = run(&["perft", "3"]);
    assert!(o.status.success());
    assert_eq!(stdout(&o).lines().last(), Some("Nodes searched: 30722"));
    assert!(stderr(&o).contains("nodes per second"));
}

#[test]
fn perft_divide_lists_each_move_sorted_and_sums() {
    let o = run(&["perft", "--variant", "chess", "--divide", "2"]);
    assert!(o.status.success());
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 21);
    assert_eq!(lines[20], "Nodes searched: 400");
    let moves: Vec<&str> = lines[..20]
        .iter()
        .map(|l| l.split(':').next().unwrap())
        .collect();
    let mut sorted = moves.clone();
    sorted.sort();
    assert_eq!(moves, sorted);
    assert!(lines[..20].iter().all(|l| l.ends_with(": 20")));
}

#[test]
fn perft_of_a_fen_in_each_game() {
    let o = run(&[
        "perft",
        "--variant",
        "chessence",
        "--fen",
        "km4/mmm2*/1mm1*1/2*3/1*2*1/3*2/1*1MM1/*2MMM/4MK[MMMmmm] w - - 0 1",
        "2",
    ]);
    assert_eq!(stdout(&o).lines().last(), Some("Nodes searched: 1294"));
}

#[test]
fn moves_are_sorted_and_san_works() {
    let o = run(&["moves"]);
    let out = stdout(&o);
    let moves: Vec<&str> = out.lines().collect();
    assert_eq!(moves.len(), 30);
    let mut sorted = moves.clone();
    sorted.sort();
    assert_eq!(moves, sorted);
    assert!(moves.contains(&"a1b1>a1"));
    let o = run(&["moves", "--san"]);
    let san = stdout(&o);
    assert!(san.lines().any(|l| l == "Rb1>a1"));
    assert!(san.lines().any(|l| l == "Nd3"));
}

#[test]
fn fen_plays_move_strings_and_san() {
    let o = run(&["fen", "--variant", "chess", "e2e4", "e5", "Nf3"]);
    assert!(o.status.success());
    assert_eq!(
        stdout(&o).trim(),
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    );
}

fn assert_user_error(args: &[&str], needle: &str) {
    let o = run(args);
    assert_eq!(o.status.code(), Some(2), "{args:?}");
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "one line: {err:?}");
    assert!(err.contains(needle), "{err:?} should mention {needle}");
    assert!(!err.contains("panicked"));
}

#[test]
fn bad_input_exits_with_status_2_and_one_line() {
    assert_user_error(
        &["perft", "--variant", "shogi", "2"],
        "unknown variant 'shogi'",
    );
    assert_user_error(
        &["perft", "--fen", "rnbqkbnr/pppppppp w - - 0 1", "2"],
        "invalid FEN board",
    );
    assert_user_error(
        &[
            "moves",
            "--variant",
            "chess",
            "--fen",
            "8/8/8/8/8/8/8/8 w - - 0 1",
        ],
        "kings",
    );
    assert_user_error(&["fen", "e2e5"], "illegal move e2e5");
    assert_user_error(&["fen", "e4", "Qxh7"], "move 2 (Qxh7)");
    assert_user_error(&["fen", "zz99"], "zz99");
    assert_user_error(&["perft", "--depth-typo", "2"], "--depth-typo");
    assert_user_error(&["perft", "minus"], "minus");
}
