//! `tensorchess uci` as a process: the real stdin/stdout loop, and
//! python-chess's UCI client against it.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_tensorchess");

#[test]
fn the_binary_speaks_uci_on_stdin_and_stdout() {
    let mut child = Command::new(BIN)
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    writeln!(
        stdin,
        "uci\nsetoption name UCI_Variant value chess\nisready\nposition startpos moves d2d4\ngo depth 5"
    )
    .unwrap();
    stdin.flush().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let started = Instant::now();
    let mut seen = Vec::new();
    let best = loop {
        let l = lines.next().expect("output ended").unwrap();
        if let Some(m) = l.strip_prefix("bestmove ") {
            break m.split_whitespace().next().unwrap().to_string();
        }
        seen.push(l);
        assert!(started.elapsed() < Duration::from_secs(20));
    };
    assert!(seen.iter().any(|l| l == "uciok"));
    assert!(seen.iter().any(|l| l == "readyok"));
    assert!(seen.iter().any(|l| l.starts_with("info depth 5 ")));
    let pos = tensorchess_rules::Position::<tensorchess_rules::Chess>::new();
    let pos = pos.play(pos.parse_move("d2d4").unwrap());
    pos.parse_move(&best).expect("a legal reply to 1. d4");
    // End of input ends the engine.
    drop(stdin);
    let status = child.wait().unwrap();
    assert!(status.success());
}

/// Runs scripts/uci_python_chess.py, which drives us through python-chess
/// (`pip install chess`).
#[test]
#[ignore = "needs python-chess: pip install chess (scripts/test.sh installs it)"]
fn python_chess_plays_through_our_uci() {
    crate::common::need_python_chess("chess.engine");
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../scripts/uci_python_chess.py"
    );
    let out = Command::new("python3")
        .arg(script)
        .arg(BIN)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("python-chess UCI check: ok"), "{text}");
}
