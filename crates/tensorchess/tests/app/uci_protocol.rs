//! The UCI loop driven in memory: commands through a pipe, answers through
//! a channel, so tests can wait for lines and time the answers.

use std::io::{BufReader, Write};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use tensorchess::uci::{run_loop, Output};
use tensorchess_rules::{Chess, Chessence, Position, Tensor, Variant};

/// Turns written bytes into lines on a channel.
struct LineWriter {
    buf: Vec<u8>,
    tx: Sender<String>,
}

impl Write for LineWriter {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        self.buf.extend_from_slice(data);
        while let Some(i) = self.buf.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.buf.drain(..=i).collect();
            let text = String::from_utf8_lossy(&line).trim_end().to_string();
            let _ = self.tx.send(text);
        }
        Ok(data.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

struct Engine {
    input: Option<std::io::PipeWriter>,
    lines: Receiver<String>,
    handle: Option<JoinHandle<()>>,
}

impl Engine {
    fn start() -> Engine {
        let (reader, writer) = std::io::pipe().unwrap();
        let (tx, rx) = channel();
        let out = Output::new(LineWriter {
            buf: Vec::new(),
            tx,
        });
        let handle = std::thread::spawn(move || run_loop(BufReader::new(reader), out));
        Engine {
            input: Some(writer),
            lines: rx,
            handle: Some(handle),
        }
    }

    fn send(&mut self, line: &str) {
        let w = self.input.as_mut().unwrap();
        writeln!(w, "{line}").unwrap();
        w.flush().unwrap();
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        let w = self.input.as_mut().unwrap();
        w.write_all(bytes).unwrap();
        w.flush().unwrap();
    }

    /// Lines up to and including the first that `done` accepts.
    fn until(&self, timeout: Duration, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    let stop = done(&l);
                    got.push(l);
                    if stop {
                        return got;
                    }
                }
                Err(_) => panic!("no matching line within {timeout:?}; got {got:#?}"),
            }
        }
    }

    fn bestmove(&self, timeout: Duration) -> (Vec<String>, String) {
        let lines = self.until(timeout, |l| l.starts_with("bestmove"));
        let last = lines.last().unwrap();
        let mv = last.split_whitespace().nth(1).unwrap().to_string();
        (lines, mv)
    }

    /// Lines that arrive within `wait` (none expected to end anything).
    fn drain(&self, wait: Duration) -> Vec<String> {
        let deadline = Instant::now() + wait;
        let mut got = Vec::new();
        while let Ok(l) = self
            .lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            got.push(l);
        }
        got
    }

    fn ready(&mut self) {
        self.send("isready");
        self.until(Duration::from_secs(10), |l| l == "readyok");
    }

    fn quit(mut self) {
        self.send("quit");
        self.input = None;
        self.handle.take().unwrap().join().unwrap();
    }
}

fn position<V: Variant>(fen: Option<&str>, moves: &[&str]) -> Position<V> {
    let mut p = match fen {
        Some(f) => Position::<V>::from_fen(f).unwrap(),
        None => Position::<V>::new(),
    };
    for m in moves {
        p = p.play(p.parse_move(m).unwrap());
    }
    p
}

const SECS10: Duration = Duration::from_secs(10);

/// How long the first root move of `go perft 6` from Tensor Chess's start
/// may take to count (about 40 million leaves: about a second in an
/// optimised build; the thirty take thirty times as long).
const PERFT_STARTS: Duration = Duration::from_secs(60);

/// Whether `line` is a perft's count for a root move (`e2e4: 123`).
fn root_move_counted(line: &str) -> bool {
    line.split_once(": ")
        .is_some_and(|(m, n)| !m.contains(' ') && n.parse::<u64>().is_ok())
}

#[test]
fn handshake_lists_the_options() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until(SECS10, |l| l == "uciok");
    assert!(lines[0].starts_with("id name tensorchess"));
    let has = |s: &str| lines.iter().any(|l| l == s);
    assert!(has(
        "option name UCI_Variant type combo default tensor var tensor var chess var chessence"
    ));
    for name in [
        "Hash",
        "Threads",
        "MultiPV",
        "UCI_LimitStrength",
        "UCI_Elo",
        "Skill Level",
        "Clear Hash",
        "EvalFile",
        "Move Overhead",
    ] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option name {name} type"))),
            "{name} missing"
        );
    }
    e.ready();
    e.quit();
}

/// Checks an `info` line's fields and returns its depth.
fn check_info(line: &str) -> u32 {
    let t: Vec<&str> = line.split_whitespace().collect();
    for key in [
        "depth", "seldepth", "multipv", "score", "nodes", "nps", "time", "pv",
    ] {
        assert!(t.contains(&key), "{key} missing in {line}");
    }
    let score = t.iter().position(|x| *x == "score").unwrap();
    assert!(matches!(t[score + 1], "cp" | "mate"), "{line}");
    t[score + 2].parse::<i32>().unwrap();
    t[t.iter().position(|x| *x == "depth").unwrap() + 1]
        .parse()
        .unwrap()
}

#[test]
fn searches_in_every_game_end_with_a_legal_move() {
    let mut e = Engine::start();
    e.send("uci");
    e.until(SECS10, |l| l == "uciok");

    // Tensor Chess is the default.
    e.send("position startpos moves e2e4 e7e5");
    e.send("go depth 4");
    let (lines, mv) = e.bestmove(SECS10);
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert!(!infos.is_empty());
    let depths: Vec<u32> = infos.iter().map(|l| check_info(l)).collect();
    assert!(depths.contains(&4), "{lines:#?}");
    assert!(lines.iter().any(|l| l.contains("hashfull")));
    let p = position::<Tensor>(None, &["e2e4", "e7e5"]);
    p.parse_move(&mv).expect("legal Tensor move");

    e.send("setoption name UCI_Variant value chess");
    e.send("position startpos moves e2e4 e7e5 g1f3");
    e.send("go depth 5");
    let (_, mv) = e.bestmove(SECS10);
    position::<Chess>(None, &["e2e4", "e7e5", "g1f3"])
        .parse_move(&mv)
        .expect("legal chess move");

    e.send("setoption name UCI_Variant value chessence");
    e.send("position startpos moves e3e4 b7b6 M@e3");
    e.send("go depth 3");
    let (_, mv) = e.bestmove(SECS10);
    position::<Chessence>(None, &["e3e4", "b7b6", "M@e3"])
        .parse_move(&mv)
        .expect("legal Chessence move");

    // A FEN in the current game.
    let fen = "rtnbqkbntr/pppppppppp/10/10/4P5/10/PPPP1PPPPP/RTNBQKBNTR b KQkq - 0 1";
    e.send("setoption name UCI_Variant value tensor");
    e.send(&format!("position fen {fen}"));
    e.send("go nodes 3000");
    let (_, mv) = e.bestmove(SECS10);
    position::<Tensor>(Some(fen), &[])
        .parse_move(&mv)
        .expect("legal move from the FEN");
    e.quit();
}

#[test]
fn stop_is_answered_at_once_and_infinite_waits_for_it() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go infinite");
    // Searching (its first depth reported):
    e.until(SECS10, |l| l.starts_with("info depth"));
    // isready is answered without stopping the search.
    e.send("isready");
    let lines = e.until(SECS10, |l| l == "readyok");
    assert!(!lines.iter().any(|l| l.starts_with("bestmove")));
    let sent = Instant::now();
    e.send("stop");
    let (_, mv) = e.bestmove(SECS10);
    assert!(
        sent.elapsed() < Duration::from_millis(1000),
        "stop took {:?}",
        sent.elapsed()
    );
    Position::<Tensor>::new().parse_move(&mv).unwrap();

    // A dead-drawn chess position is searched to the end at once, yet
    // `go infinite` keeps the answer until `stop`.
    e.send("setoption name UCI_Variant value chess");
    e.send("position fen 8/8/4k3/8/8/4K3/8/8 w - - 0 1");
    e.send("go infinite");
    let early = e.drain(Duration::from_millis(400));
    assert!(
        !early.iter().any(|l| l.starts_with("bestmove")),
        "{early:#?}"
    );
    e.send("stop");
    let (_, mv) = e.bestmove(SECS10);
    position::<Chess>(Some("8/8/4k3/8/8/4K3/8/8 w - - 0 1"), &[])
        .parse_move(&mv)
        .unwrap();
    e.quit();
}

#[test]
fn clocks_movetime_and_nodes_bound_the_search() {
    let mut e = Engine::start();
    e.send("setoption name UCI_Variant value chess");
    e.send("position startpos");
    let t = Instant::now();
    e.send("go movetime 200");
    e.bestmove(SECS10);
    let took = t.elapsed();
    assert!(
        took >= Duration::from_millis(100) && took < Duration::from_millis(1500),
        "{took:?}"
    );

    let t = Instant::now();
    e.send("go wtime 1000 btime 1000 winc 0 binc 0");
    e.bestmove(SECS10);
    assert!(
        t.elapsed() < Duration::from_millis(1000),
        "{:?}",
        t.elapsed()
    );

    e.send("go wtime 60000 btime 60000 movestogo 40 depth 3");
    let (lines, _) = e.bestmove(SECS10);
    assert!(lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .all(|l| check_info(l) <= 3));

    e.send("go nodes 2000");
    let (lines, _) = e.bestmove(SECS10);
    let last = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    let t: Vec<&str> = last.split_whitespace().collect();
    let nodes: u64 = t[t.iter().position(|x| *x == "nodes").unwrap() + 1]
        .parse()
        .unwrap();
    // The limit is checked every 1024 nodes.
    assert!(nodes <= 2000 + 2048, "{nodes}");
    e.quit();
}

#[test]
fn mates_no_moves_and_multipv() {
    let mut e = Engine::start();
    e.send("setoption name UCI_Variant value chess");
    // Scholar's mate in one.
    e.send("position startpos moves e2e4 e7e5 f1c4 b8c6 d1h5 g8f6");
    e.send("go mate 1");
    let (lines, mv) = e.bestmove(SECS10);
    assert_eq!(mv, "h5f7");
    assert!(
        lines.iter().any(|l| l.contains("score mate 1")),
        "{lines:#?}"
    );

    // Mated: no move at all.
    e.send("position startpos moves f2f3 e7e5 g2g4 d8h4");
    e.send("go depth 3");
    let (_, mv) = e.bestmove(SECS10);
    assert_eq!(mv, "(none)");

    e.send("setoption name MultiPV value 3");
    e.send("position startpos");
    e.send("go depth 3");
    let (lines, _) = e.bestmove(SECS10);
    for k in 1..=3 {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info depth 3 ") && l.contains(&format!("multipv {k} "))),
            "multipv {k}: {lines:#?}"
        );
    }
    e.quit();
}

#[test]
fn contempt_reaches_the_search() {
    let mut e = Engine::start();
    e.send("setoption name UCI_Variant value chess");
    // White can only check forever (the engine crate's contempt test):
    // a draw, which contempt -40 makes worth 40 to White.
    e.send("setoption name Contempt value -40");
    e.send("position fen 6k1/4Pp1p/8/8/q4Q2/1r6/r4PPP/6K1 w - - 0 1");
    e.send("go depth 10");
    let (lines, _) = e.bestmove(SECS10);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info depth 10 ") && l.contains(" score cp 40 ")),
        "{lines:#?}"
    );
    e.quit();
}

#[test]
fn strength_options_cap_the_search() {
    let mut e = Engine::start();
    e.send("setoption name UCI_LimitStrength value true");
    e.send("setoption name UCI_Elo value 600");
    e.send("position startpos");
    e.send("go depth 8");
    let (lines, mv) = e.bestmove(SECS10);
    Position::<Tensor>::new().parse_move(&mv).unwrap();
    let depths: Vec<u32> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .map(|l| check_info(l))
        .collect();
    assert!(depths.iter().all(|d| *d <= 1), "{lines:#?}");

    e.send("setoption name UCI_LimitStrength value false");
    e.send("setoption name Skill Level value 2");
    e.send("go depth 8");
    let (lines, _) = e.bestmove(SECS10);
    let depths: Vec<u32> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .map(|l| check_info(l))
        .collect();
    assert!(depths.iter().all(|d| *d <= 2), "{lines:#?}");
    assert!(depths.contains(&2));
    e.quit();
}

#[test]
fn bad_input_is_answered_not_fatal() {
    let mut e = Engine::start();
    e.send("uci");
    e.until(SECS10, |l| l == "uciok");
    for junk in [
        "",
        "   ",
        "hello world",
        "position",
        "position fen",
        "position fen not/a/fen w - - 0 1",
        "position startpos moves e2e4 z9z9",
        "position startpos frobnicate",
        "setoption",
        "setoption name",
        "setoption name Hash value lots",
        "setoption name Hash value 0",
        "setoption name NoSuchOption value 1",
        "setoption name UCI_Variant value xiangqi",
        "setoption name EvalFile value /no/such/file",
        "go depth x",
    ] {
        e.send(junk);
    }
    e.send_bytes(b"\xff\xfe\x00garbage\n");
    // "go depth x" started a search without a depth: stop it.
    e.send("stop");
    e.bestmove(SECS10);
    e.ready();
    // Still working: the position kept its legal prefix (e2e4).
    e.send("position startpos moves e2e4 z9z9");
    let lines = e.until(SECS10, |l| l.starts_with("info string"));
    assert!(lines.last().unwrap().contains("z9z9"), "{lines:#?}");
    e.send("go depth 2");
    let (_, mv) = e.bestmove(SECS10);
    position::<Tensor>(None, &["e2e4"]).parse_move(&mv).unwrap();
    // UCI: unknown tokens before a command are skipped.
    e.send("joho isready");
    e.until(SECS10, |l| l == "readyok");
    e.quit();
}

#[test]
fn ponder_then_ponderhit_answers_on_our_clock() {
    let mut e = Engine::start();
    e.send("setoption name UCI_Variant value chess");
    e.send("position startpos moves e2e4 e7e5");
    e.send("go ponder wtime 3000 btime 3000");
    let early = e.drain(Duration::from_millis(300));
    assert!(!early.iter().any(|l| l.starts_with("bestmove")));
    let t = Instant::now();
    e.send("ponderhit");
    let (_, mv) = e.bestmove(SECS10);
    // 3 s / 30 moves: about 0.1 s after the hit.
    assert!(
        t.elapsed() < Duration::from_millis(1500),
        "{:?}",
        t.elapsed()
    );
    position::<Chess>(None, &["e2e4", "e7e5"])
        .parse_move(&mv)
        .unwrap();
    e.quit();
}

#[test]
fn extensions_clear_hash_eval_and_display() {
    let mut e = Engine::start();
    e.send("setoption name Clear Hash");
    e.until(SECS10, |l| l == "info string hash cleared");
    e.send("setoption name UCI_Variant value chess");
    e.send("position startpos");
    e.send("d");
    let lines = e.until(SECS10, |l| l.contains("legal moves"));
    assert!(lines
        .iter()
        .any(|l| l == "info string fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"));
    assert!(lines.last().unwrap().contains("legal moves (20)"));
    // Material only: the start position is level.
    e.send("setoption name EvalFile value <material>");
    e.send("position startpos moves e2e4");
    e.send("eval");
    e.until(SECS10, |l| {
        l == "info string static eval 0 cp from White's view"
    });
    e.send("position startpos moves e2e4 d7d5 e4d5");
    e.send("eval");
    let l = e.until(SECS10, |l| l.starts_with("info string static eval"));
    let cp: i32 = l
        .last()
        .unwrap()
        .split_whitespace()
        .nth(4)
        .unwrap()
        .parse()
        .unwrap();
    assert!((50..150).contains(&cp), "a pawn up: {l:?}");
    e.send("go perft 2");
    let lines = e.until(SECS10, |l| l.starts_with("Nodes searched"));
    assert!(lines.iter().any(|l| l.contains(": ")));
    // A long perft stops at once, inside a root move: once it has
    // counted its first root move (each takes a while, the thirty far
    // longer), the next is under way.
    e.send("setoption name UCI_Variant value tensor");
    e.send("go perft 6");
    e.until(PERFT_STARTS, root_move_counted);
    e.send("isready");
    e.until(SECS10, |l| l == "readyok");
    let t = Instant::now();
    e.send("stop");
    let lines = e.until(SECS10, |l| l.starts_with("Nodes searched"));
    assert!(lines.iter().any(|l| l == "info string perft stopped"));
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    e.quit();
}

#[test]
fn quit_during_a_perft_ends_the_loop() {
    let mut e = Engine::start();
    e.send("setoption name UCI_Variant value tensor");
    e.send("go perft 6");
    e.until(PERFT_STARTS, root_move_counted);
    let t = Instant::now();
    e.quit();
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
}

#[test]
fn quit_during_a_search_ends_the_loop() {
    let mut e = Engine::start();
    e.send("go infinite");
    e.until(SECS10, |l| l.starts_with("info depth"));
    let t = Instant::now();
    e.quit();
    assert!(t.elapsed() < Duration::from_secs(2));
}

#[test]
fn searchmoves_restricts_the_root() {
    let mut e = Engine::start();
    e.send("setoption name UCI_Variant value chess");
    // Scholar's mate is on the board, but only a2a3 and h2h3 may be searched.
    e.send("position startpos moves e2e4 e7e5 f1c4 b8c6 d1h5 g8f6");
    e.send("go depth 4 searchmoves a2a3 h2h3 zz99");
    let (lines, mv) = e.bestmove(SECS10);
    assert!(mv == "a2a3" || mv == "h2h3", "{mv}");
    assert!(lines
        .iter()
        .any(|l| l.contains("searchmoves") && l.contains("zz99")));
    e.send("setoption name UCI_Variant value tensor");
    e.send("position startpos");
    e.send("go nodes 1 searchmoves b1b3");
    let (_, mv) = e.bestmove(SECS10);
    assert_eq!(mv, "b1b3");
    e.quit();
}

#[test]
fn use_nnue_and_eval_file_load_a_network_and_refuse_what_is_no_file() {
    use tensorchess_engine::nnue::Network;
    let dir = tempfile::tempdir().unwrap();
    let mut e = Engine::start();
    e.send("uci");
    let options = e.until(SECS10, |l| l == "uciok");
    assert!(options
        .iter()
        .any(|l| l == "option name UseNNUE type check default true"));
    // A directory, a FIFO and a device are refused at once, with a reason.
    let fifo = dir.path().join("fifo");
    let c_path = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0);
    for (path, reason) in [
        (dir.path().to_str().unwrap().to_string(), "is a directory"),
        (fifo.to_str().unwrap().to_string(), "not a regular file"),
        ("/dev/zero".to_string(), "not a regular file"),
    ] {
        e.send(&format!("setoption name EvalFile value {path}"));
        let lines = e.until(SECS10, |l| l.starts_with("info string"));
        assert!(lines.last().unwrap().contains(reason), "{path}: {lines:?}");
    }
    // A file beyond the size limit is refused without being read.
    let huge = dir.path().join("huge.nnue");
    let f = std::fs::File::create(&huge).unwrap();
    f.set_len(tensorchess_engine::nnue::MAX_FILE_BYTES + 1)
        .unwrap();
    e.send(&format!("setoption name EvalFile value {}", huge.display()));
    let lines = e.until(SECS10, |l| l.starts_with("info string"));
    assert!(lines.last().unwrap().contains("allowed"), "{lines:?}");
    // A network of zeros judges every position level; the built-in
    // network (on by default) and the hand-made evaluation do not, and the
    // hand-made one comes back with UseNNUE off.
    let net = dir.path().join("zero.nnue");
    std::fs::write(&net, Network::zeros::<Tensor>(8).to_bytes()).unwrap();
    e.send("position startpos moves e2e4 d7d5 e4d5");
    e.send("eval");
    let built_in = e.until(SECS10, |l| l.starts_with("info string static eval"));
    e.send("setoption name UseNNUE value false");
    e.send("eval");
    let hand_made = e.until(SECS10, |l| l.starts_with("info string static eval"));
    for eval in [&built_in, &hand_made] {
        assert_ne!(
            eval.last().unwrap(),
            "info string static eval 0 cp from White's view"
        );
    }
    assert_ne!(built_in.last(), hand_made.last(), "two evaluations");
    // Each says once which evaluation it is, and which network.
    assert!(
        built_in
            .iter()
            .any(|l| l
                == "info string evaluation: network tensor.nnue (built in, tensor, 64 hidden)"),
        "{built_in:?}"
    );
    assert!(
        hand_made
            .iter()
            .any(|l| l == "info string evaluation: hand-made (tensor)"),
        "{hand_made:?}"
    );
    e.send(&format!("setoption name EvalFile value {}", net.display()));
    e.send("setoption name UseNNUE value true");
    e.send("eval");
    let zero = e.until(SECS10, |l| {
        l == "info string static eval 0 cp from White's view"
    });
    let named = format!(
        "info string evaluation: network {} (tensor, 8 hidden)",
        net.display()
    );
    assert!(zero.contains(&named), "{zero:?}");
    e.send("go depth 3");
    let (lines, _) = e.bestmove(SECS10);
    assert!(
        lines.iter().any(|l| l.contains(" score cp 0 ")),
        "{lines:?}"
    );
    // Named once, not again while it stays the same.
    assert!(
        !lines
            .iter()
            .any(|l| l.starts_with("info string evaluation")),
        "{lines:?}"
    );
    e.send("setoption name UseNNUE value false");
    e.send("eval");
    let again = e.until(SECS10, |l| l.starts_with("info string static eval"));
    assert_eq!(again.last(), hand_made.last());
    // Chessence evaluates with its built-in network by default, and says so.
    e.send("setoption name EvalFile value <default>");
    e.send("setoption name UseNNUE value true");
    e.send("setoption name UCI_Variant value chessence");
    e.send("position startpos");
    e.send("eval");
    let chessence = e.until(SECS10, |l| l.starts_with("info string static eval"));
    assert!(
        chessence.iter().any(|l| l
            == "info string evaluation: network chessence.nnue (built in, chessence, 128 hidden)"),
        "{chessence:?}"
    );
    e.quit();
}
