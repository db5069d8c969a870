//! Real matches at low fixed depth: the PGN they write replays under the
//! rules, colours alternate per opening, UCI engines (our own binary,
//! Stockfish when installed, and misbehaving fakes) are handled, and the
//! SPRT stops a one-sided match.

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;
use tensorchess::matches::openings::builtin;
use tensorchess::matches::{
    run_match, Adjudication, Budget, EngineSpec, MatchConfig, MatchReport, Sprt, SprtState,
    TimeControl,
};
use tensorchess_rules::pgn::{parse_pgn, replay, PgnGame};
use tensorchess_rules::{Chess, Chessence, Tensor, Variant, VariantKind};

const BIN: &str = env!("CARGO_BIN_EXE_tensorchess");

/// A file's path in a folder of its own, removed when this is dropped.
struct Scratch {
    _dir: tempfile::TempDir,
    path: PathBuf,
}

fn temp_path(name: &str) -> Scratch {
    let dir = tempfile::Builder::new()
        .prefix("tensorchess-match-test-")
        .tempdir()
        .unwrap();
    let path = dir.path().join(name);
    Scratch { _dir: dir, path }
}

fn config(variant: VariantKind, a: &str, b: &str, games: usize) -> MatchConfig {
    MatchConfig {
        variant,
        engines: [EngineSpec::parse(a).unwrap(), EngineSpec::parse(b).unwrap()],
        budget: Budget {
            depth: Some(2),
            ..Budget::default()
        },
        games,
        openings: builtin(variant).to_string(),
        concurrency: 2,
        adjudication: Adjudication::default(),
        time_margin: Duration::from_millis(200),
        hang_timeout: Duration::from_secs(60),
        pgn: None,
        sprt: None,
        event: "test".into(),
        progress: false,
        game_lines: false,
        interrupt: None,
    }
}

/// Plays `cfg` into a fresh PGN file; returns the report and the games read back.
fn play(mut cfg: MatchConfig, name: &str) -> (MatchReport, Vec<PgnGame>) {
    let scratch = temp_path(&format!("{name}.pgn"));
    let path = &scratch.path;
    cfg.pgn = Some(path.clone());
    let report = run_match(&cfg).unwrap();
    let text = std::fs::read_to_string(path).unwrap();
    let games = parse_pgn(&text).unwrap();
    assert_eq!(games.len(), report.tally.games() as usize, "{text}");
    (report, games)
}

/// Every game replays under `V`'s rules; results match the rules where the
/// rules ended the game; each opening is played with both colours.
fn check_games<V: Variant>(games: &[PgnGame], names: [&str; 2]) {
    let mut by_round: Vec<&PgnGame> = games.iter().collect();
    by_round.sort_by_key(|g| g.tag("Round").unwrap().parse::<usize>().unwrap());
    for (i, g) in by_round.iter().enumerate() {
        assert_eq!(g.tag("Round").unwrap(), (i + 1).to_string());
        assert_eq!(g.variant().unwrap(), V::KIND);
        let game = replay::<V>(g).unwrap_or_else(|e| panic!("game {}: {e}", i + 1));
        let result = g.tag("Result").unwrap();
        assert_eq!(result, g.result);
        assert!(["1-0", "0-1", "1/2-1/2"].contains(&result));
        assert_eq!(g.tag("PlyCount").unwrap(), game.moves().len().to_string());
        match g.tag("Termination").unwrap() {
            "normal" => {
                let o = game.outcome().expect("the rules ended the game");
                assert_eq!(o.result_str(), result);
            }
            "adjudication" => assert!(game.outcome().is_none()),
            other => panic!("game {}: unexpected termination {other}", i + 1),
        }
        let (w, b) = (g.tag("White").unwrap(), g.tag("Black").unwrap());
        if i % 2 == 0 {
            assert_eq!([w, b], names);
        } else {
            assert_eq!([b, w], names);
            // Same opening as the game before, colours swapped.
            assert_eq!(g.tag("FEN"), by_round[i - 1].tag("FEN"));
        }
    }
}

#[test]
fn short_matches_in_all_three_games_replay_under_the_rules() {
    let (r, games) = play(
        config(VariantKind::Chess, "name=a", "material2,name=b", 4),
        "chess",
    );
    assert_eq!(r.tally.games(), 4);
    check_games::<Chess>(&games, ["a", "b"]);
    assert!(games[0].tag("FEN").is_some(), "openings start from a FEN");

    let (r, games) = play(
        config(VariantKind::Tensor, "level=4,name=a", "level=2,name=b", 4),
        "tensor",
    );
    assert_eq!(r.tally.games(), 4);
    check_games::<Tensor>(&games, ["a", "b"]);

    let (r, games) = play(
        config(VariantKind::Chessence, "name=a", "no=null_move,name=b", 4),
        "chessence",
    );
    assert_eq!(r.tally.games(), 4);
    check_games::<Chessence>(&games, ["a", "b"]);
    let text = r.text();
    assert!(text.starts_with("Score of a vs b: "), "{text}");
}

#[test]
fn our_uci_binary_plays_the_in_process_engine_in_tensor_chess() {
    let cmd = format!("cmd={BIN} uci,name=uci");
    let (r, games) = play(
        config(VariantKind::Tensor, &cmd, "name=inproc", 2),
        "external",
    );
    assert_eq!(r.tally.games(), 2);
    check_games::<Tensor>(&games, ["uci", "inproc"]);
    assert!(r.engines[0].moves > 0);
}

#[test]
fn clocks_with_increments_are_kept() {
    let mut cfg = config(VariantKind::Chess, "name=a", "name=b", 2);
    cfg.budget = Budget {
        tc: Some(TimeControl::parse("2+0.05").unwrap()),
        ..Budget::default()
    };
    cfg.adjudication.max_moves = Some(15);
    let (r, games) = play(cfg, "clock");
    assert_eq!(r.tally.games(), 2);
    for g in &games {
        assert_eq!(g.tag("TimeControl"), Some("2+0.05"));
        assert_ne!(g.tag("Termination"), Some("time forfeit"));
    }
    // At most 15 moves each from the opening, then a draw by adjudication.
    assert!(r.engines.iter().all(|e| e.moves <= 30));
}

/// A UCI engine that misbehaves on `go` in one of several ways: its
/// script (kept while the engine is used) and its `-e` spec.
fn fake_engine(mode: &str) -> (Scratch, String) {
    let script = temp_path(&format!("fake-{mode}.sh"));
    std::fs::write(
        &script.path,
        r#"#!/bin/sh
mode="$1"
while IFS= read -r line; do
  case "$line" in
    uci) echo "id name fake $mode"; echo "option name Hash type spin default 1 min 1 max 8"; echo "uciok" ;;
    isready) echo "readyok" ;;
    go*)
      case "$mode" in
        illegal) echo "info depth 1 score cp 0"; echo "bestmove a1a1" ;;
        crash) exit 3 ;;
        hang) ;;
      esac ;;
    quit) exit 0 ;;
  esac
done
"#,
    )
    .unwrap();
    let spec = format!(
        "cmd=/bin/sh {} {mode},option.Hash=2,name={mode}",
        script.path.display()
    );
    (script, spec)
}

#[test]
fn illegal_moves_crashes_and_hangs_forfeit_the_game() {
    for (mode, termination) in [
        ("illegal", "rules infraction"),
        ("crash", "abandoned"),
        ("hang", "time forfeit"),
    ] {
        let (_script, fake) = fake_engine(mode);
        let mut cfg = config(VariantKind::Chess, "name=ours,depth=1", &fake, 2);
        cfg.budget = Budget {
            tc: Some(TimeControl::parse("0.5+0").unwrap()),
            ..Budget::default()
        };
        cfg.time_margin = Duration::from_millis(50);
        let (r, games) = play(cfg, mode);
        assert_eq!(r.tally.wins, 2, "{mode}: {}", r.text());
        for g in &games {
            assert_eq!(g.tag("Termination"), Some(termination), "{mode}");
            replay::<Chess>(g).unwrap();
        }
    }
}

#[test]
fn sprt_stops_a_one_sided_match() {
    let (_script, fake) = fake_engine("illegal");
    let mut cfg = config(VariantKind::Chess, "name=ours", &fake, 40);
    cfg.concurrency = 1;
    cfg.sprt = Some(Sprt::parse("elo0=0,elo1=400,alpha=0.1,beta=0.1").unwrap());
    let r = run_match(&cfg).unwrap();
    assert_eq!(r.sprt_state, Some(SprtState::H1), "{}", r.text());
    // One worker: the game that decided is the last, however busy the
    // machine (the decision is taken before the next game is handed out).
    let decided = r.decided_after.expect("decided");
    assert_eq!(r.tally.games(), decided, "{}", r.text());
    assert_eq!(r.started_after_decision, 0, "{}", r.text());
    assert!(r.tally.games() < 12, "{}", r.text());
    assert!(r.text().contains("H1 was accepted"));
    assert!(r.text().contains("0 started after"), "{}", r.text());
}

#[test]
fn sprt_stops_every_worker_at_its_decision() {
    let (_script, fake) = fake_engine("illegal");
    let mut cfg = config(VariantKind::Chess, "name=ours", &fake, 200);
    cfg.concurrency = 4;
    cfg.sprt = Some(Sprt::parse("elo0=0,elo1=400,alpha=0.1,beta=0.1").unwrap());
    let r = run_match(&cfg).unwrap();
    assert_eq!(r.sprt_state, Some(SprtState::H1), "{}", r.text());
    let decided = r.decided_after.expect("decided");
    assert_eq!(r.started_after_decision, 0, "{}", r.text());
    // At most the other three workers' games were in progress then.
    assert!(r.tally.games() <= decided + 3, "{}", r.text());
}

#[test]
fn an_engine_without_the_game_is_refused() {
    let (_script, fake) = fake_engine("illegal");
    let cfg = config(VariantKind::Tensor, "name=ours", &fake, 2);
    let e = run_match(&cfg).unwrap_err();
    assert!(e.contains("UCI_Variant"), "{e}");
    let cfg = config(VariantKind::Chess, "name=ours", "cmd=/no/such/engine", 2);
    let e = run_match(&cfg).unwrap_err();
    assert!(e.contains("cannot start"), "{e}");
}

#[test]
#[ignore = "needs Stockfish: apt-get install stockfish (scripts/test.sh installs it)"]
fn stockfish_plays_when_installed() {
    let sf = "/usr/games/stockfish";
    assert!(
        std::path::Path::new(sf).exists(),
        "this test needs Stockfish: {sf} is missing (apt-get install stockfish)"
    );
    let spec = format!("cmd={sf},option.Hash=8,option.Threads=1,depth=1,name=sf");
    let (r, games) = play(
        config(VariantKind::Chess, "name=ours", &spec, 2),
        "stockfish",
    );
    assert_eq!(r.tally.games(), 2);
    for g in &games {
        replay::<Chess>(g).unwrap();
        assert!(
            ["normal", "adjudication"].contains(&g.tag("Termination").unwrap()),
            "{g:?}"
        );
    }
}

#[test]
fn the_match_command_prints_a_report_and_json() {
    let scratch = temp_path("report.json");
    let json = &scratch.path;
    let out = Command::new(BIN)
        .args([
            "match",
            "--variant",
            "chess",
            "-e",
            "depth=1,name=one",
            "-e",
            "material2",
            "--games",
            "2",
            "--quiet",
            "--max-moves",
            "30",
            "--json",
        ])
        .arg(json)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("Score of one vs material2:"), "{stdout}");
    assert!(stdout.contains("Elo difference"), "{stdout}");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap();
    let t = &v["tally"];
    let n =
        t["wins"].as_u64().unwrap() + t["draws"].as_u64().unwrap() + t["losses"].as_u64().unwrap();
    assert_eq!(n, 2);
    assert_eq!(v["games"].as_array().unwrap().len(), 2);

    // Usage errors: one line, status 2.
    for bad in [
        vec!["match", "-e", "depth=1"],
        vec!["match", "-e", "level=9", "-e", "depth=1"],
        vec!["match", "-e", "x", "-e", "depth=1", "--depth", "1"],
        vec!["match", "-e", "name=a", "-e", "name=b"],
        vec!["match", "--variant", "shogi", "-e", "a", "-e", "b"],
    ] {
        let out = Command::new(BIN).args(&bad).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{bad:?}: {err}");
    }
}

/// Ctrl-C at the terminal (SIGINT to the match's process group): no new
/// game starts, the games in progress are played out (the UCI engine, in a
/// process group of its own, is not hit by the signal), and the report
/// covers the games played.
#[cfg(unix)]
#[test]
fn ctrl_c_stops_the_match_and_reports_the_games_played() {
    use std::io::{BufRead, BufReader};
    use std::os::unix::process::CommandExt;
    use std::process::Stdio;
    let scratch = temp_path("interrupted.pgn");
    let pgn = &scratch.path;
    let uci = format!("cmd={BIN} uci,name=uci,depth=2");
    let mut child = Command::new(BIN)
        .args([
            "match",
            "--variant",
            "chess",
            "-e",
            "depth=1,name=one",
            "-e",
        ])
        .arg(&uci)
        .args(["--games", "1000", "--max-moves", "40", "--pgn"])
        .arg(pgn)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .unwrap();
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    while !line.starts_with("Finished game") {
        line.clear();
        assert!(err.read_line(&mut line).unwrap() > 0, "no game finished");
    }
    // The whole group, as a terminal does.
    let group = format!("-{}", child.id());
    let killed = Command::new("kill")
        .args(["-INT", "--", &group])
        .status()
        .unwrap();
    assert!(killed.success());
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut err, &mut rest).unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{rest}");
    assert!(rest.contains("Interrupted"), "{rest}");
    let played = stdout
        .lines()
        .find_map(|l| l.strip_prefix("Interrupted: "))
        .and_then(|l| l.split(' ').next())
        .and_then(|n| n.parse::<usize>().ok())
        .unwrap_or_else(|| panic!("no interruption line: {stdout}"));
    assert!((1..1000).contains(&played), "{stdout}");
    assert!(stdout.contains(&format!("{played} of 1000 games played")));
    // Every game played is reported and in the PGN, none forfeited.
    let games = parse_pgn(&std::fs::read_to_string(pgn).unwrap()).unwrap();
    assert_eq!(games.len(), played);
    for g in &games {
        replay::<Chess>(g).unwrap();
        assert_ne!(g.tag("Termination"), Some("rules infraction"), "{g:?}");
        assert_ne!(g.tag("Termination"), Some("abandoned"), "{g:?}");
    }
    assert!(!rest.contains("disconnect"), "{rest}");
}

#[test]
fn make_openings_prints_balanced_positions() {
    let out = Command::new(BIN)
        .args([
            "match",
            "--variant",
            "tensor",
            "--make-openings",
            "3",
            "--opening-depth",
            "3",
            "--seed",
            "5",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let fens: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(fens.len(), 3, "{text}");
    for f in fens {
        tensorchess_rules::Position::<Tensor>::from_fen(f).unwrap();
    }
}
