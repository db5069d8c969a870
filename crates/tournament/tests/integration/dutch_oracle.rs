//! Our FIDE Dutch pairing against an independent one: py4swiss (PyPI),
//! whose Dutch engine follows bbpPairings, a FIDE-endorsed program.
//!
//! Random Swiss tournaments are played round after round; after each
//! round the TRF that the server serves (`export_trf`) is handed, unedited,
//! to py4swiss, and the next round we pair must be the one it pairs: the
//! same games with the same colours, and the same bye.
//!
//! py4swiss is found as a Python module (`TENSORCHESS_PY4SWISS_PYTHON`
//! names the interpreter, else `python3`); `scripts/test.sh` installs it and
//! sets `TENSORCHESS_REQUIRE_PY4SWISS=1`, which makes it mandatory.
//! Elsewhere, without it, the test says it was skipped.

use std::collections::{BTreeSet, HashMap};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use tensorchess_tournament::swiss::{
    pair_next_round, ByeKind, SwissBye, SwissGame, SwissPairing, SwissPlayer, SwissResult,
    SwissRound, SwissTournament,
};
use tensorchess_tournament::trf::{export_trf, TrfHeader};
use tensorchess_tournament::{Outcome, PlayerKey, Side};

/// Tournaments played by default (about 480 rounds; `DUTCH_ORACLE_TOURNAMENTS`
/// for more: 200 play 1,600 rounds). CI runs it beside the browser tests on
/// two cores, where py4swiss's part takes four times as long as alone.
const TOURNAMENTS: u64 = 60;

/// py4swiss, kept running: one path in, one line of pairings out.
struct Oracle {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Drop for Oracle {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Oracle {
    /// The oracle, or why it cannot run here.
    fn start() -> Result<Oracle, String> {
        let python =
            std::env::var("TENSORCHESS_PY4SWISS_PYTHON").unwrap_or_else(|_| "python3".into());
        let probe = Command::new(&python)
            .args(["-c", "import py4swiss"])
            .output()
            .map_err(|e| format!("{python} does not run: {e}"))?;
        if !probe.status.success() {
            return Err(format!(
                "{python} has no py4swiss (python3 -m pip install py4swiss)"
            ));
        }
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/py4swiss_oracle.py");
        let mut child = Command::new(&python)
            .arg(script)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("{python} does not run: {e}"))?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = BufReader::new(child.stdout.take().expect("piped"));
        Ok(Oracle {
            child,
            stdin,
            stdout,
        })
    }

    /// py4swiss's answer for the TRF at `path`.
    fn pair(&mut self, path: &Path) -> String {
        writeln!(self.stdin, "{}", path.display()).expect("the oracle reads");
        let mut line = String::new();
        self.stdout
            .read_line(&mut line)
            .expect("the oracle answers");
        assert!(!line.is_empty(), "the oracle stopped");
        line.trim_end().to_string()
    }
}

/// The oracle; a test that needs it fails without it (it is `#[ignore]`d,
/// and scripts/test.sh, which installs py4swiss, runs it).
fn oracle() -> Oracle {
    Oracle::start().unwrap_or_else(|why| panic!("this test needs py4swiss: {why}"))
}

fn xorshift(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}

/// A round's pairing as start numbers: `(white, black)` games and the bye,
/// the shape both sides are compared in.
#[derive(Debug, PartialEq, Eq)]
struct Round {
    games: BTreeSet<(usize, usize)>,
    bye: Option<usize>,
}

fn ours(pairing: &SwissPairing, number: &HashMap<PlayerKey, usize>) -> Round {
    Round {
        games: pairing
            .boards
            .iter()
            .map(|b| (number[&b.white], number[&b.black]))
            .collect(),
        bye: pairing.bye.map(|k| number[&k]),
    }
}

/// py4swiss's `ok W-B …` line as a round, or its refusal.
fn theirs(line: &str) -> Result<Round, String> {
    let Some(pairs) = line.strip_prefix("ok") else {
        return Err(line.to_string());
    };
    let mut round = Round {
        games: BTreeSet::new(),
        bye: None,
    };
    for pair in pairs.split_whitespace() {
        let (w, b) = pair.split_once('-').ok_or(line)?;
        let (w, b): (usize, usize) = (
            w.parse().map_err(|_| line.to_string())?,
            b.parse().map_err(|_| line.to_string())?,
        );
        if b == 0 {
            round.bye = Some(w);
        } else {
            round.games.insert((w, b));
        }
    }
    Ok(round)
}

/// The most players a tournament has: 40, or `DUTCH_ORACLE_MAX_PLAYERS`
/// (by hand: up to 100, where the exact pairing stops).
fn max_players() -> u64 {
    std::env::var("DUTCH_ORACLE_MAX_PLAYERS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(40)
        .max(7)
}

/// One random tournament's field and plan: 6–40 players, some rated alike
/// (the name then decides the pairing numbers), 5–11 rounds (fewer than
/// the players).
fn random_tournament(seed: &mut u64) -> SwissTournament {
    let n = 6 + xorshift(seed) % (max_players() - 5);
    let players = (1..=n)
        .map(|k| SwissPlayer {
            key: PlayerKey(k),
            name: format!("Player {k:02}"),
            rating: 1400 + (xorshift(seed) % 12) as i32 * 50,
            joined_round: 1,
            withdrawn: false,
        })
        .collect();
    let rounds = 5 + (xorshift(seed) % 7) as u32;
    SwissTournament {
        players,
        rounds_planned: rounds.min(n as u32 - 1),
        initial_colour: if xorshift(seed).is_multiple_of(2) {
            Side::White
        } else {
            Side::Black
        },
        rounds: Vec::new(),
        sitting_out: Vec::new(),
    }
}

/// Plays `pairing` with random results: mostly decisive or drawn games,
/// now and then a forfeit; records the bye and the byes of those sitting
/// out.
fn play(t: &mut SwissTournament, pairing: &SwissPairing, seed: &mut u64) {
    let games = pairing
        .boards
        .iter()
        .map(|b| SwissGame {
            white: b.white,
            black: b.black,
            result: match xorshift(seed) % 20 {
                0 => SwissResult::Forfeit {
                    winner: Side::White,
                },
                1 => SwissResult::Forfeit {
                    winner: Side::Black,
                },
                2..=8 => SwissResult::Played(Outcome::WhiteWins),
                9..=14 => SwissResult::Played(Outcome::BlackWins),
                _ => SwissResult::Played(Outcome::Draw),
            },
        })
        .collect();
    let mut byes: Vec<SwissBye> = pairing
        .bye
        .map(|player| SwissBye {
            player,
            kind: ByeKind::Pairing,
        })
        .into_iter()
        .collect();
    for &player in &t.sitting_out {
        let kind = match xorshift(seed) % 3 {
            0 => ByeKind::Half,
            1 => ByeKind::Full,
            _ => ByeKind::Zero,
        };
        byes.push(SwissBye { player, kind });
    }
    t.rounds.push(SwissRound { games, byes });
    t.sitting_out.clear();
}

/// Between rounds: now and then a player withdraws, one asks to sit the
/// next round out, or one joins late.
fn change_the_field(t: &mut SwissTournament, seed: &mut u64) {
    let present: Vec<PlayerKey> = t
        .players
        .iter()
        .filter(|p| !p.withdrawn)
        .map(|p| p.key)
        .collect();
    match xorshift(seed) % 12 {
        0 if present.len() > 5 => {
            let k = present[(xorshift(seed) % present.len() as u64) as usize];
            t.players
                .iter_mut()
                .find(|p| p.key == k)
                .expect("there")
                .withdrawn = true;
        }
        1 => {
            let k = present[(xorshift(seed) % present.len() as u64) as usize];
            t.sitting_out.push(k);
        }
        2 if (t.players.len() as u64) < max_players() => {
            let key = PlayerKey(t.players.len() as u64 + 1);
            t.players.push(SwissPlayer {
                key,
                name: format!("Player {:02}", key.0),
                rating: 1400 + (xorshift(seed) % 12) as i32 * 50,
                joined_round: t.rounds.len() as u32 + 1,
                withdrawn: false,
            });
        }
        _ => {}
    }
}

fn write_trf(dir: &Path, name: &str, t: &SwissTournament) -> PathBuf {
    let header = TrfHeader {
        name: "Oracle Open".into(),
        tournament_type: "Individual: Swiss-System (Dutch)".into(),
        ..TrfHeader::default()
    };
    let text = export_trf(t, &header, &HashMap::new()).expect("a TRF");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("the TRF is written");
    path
}

#[test]
#[ignore = "needs py4swiss (python3 -m pip install py4swiss): scripts/test.sh installs it"]
fn our_rounds_are_py4swiss_rounds_from_our_trf() {
    let mut oracle = oracle();
    let dir = std::env::temp_dir().join(format!("dutch-oracle-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let tournaments: u64 = std::env::var("DUTCH_ORACLE_TOURNAMENTS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(TOURNAMENTS);
    let mut disagreements = Vec::new();
    let mut rounds_compared = 0;
    for index in 0..tournaments {
        let mut seed = 0x9E37_79B9_7F4A_7C15 ^ (index + 1).wrapping_mul(0x2545_F491_4F6C_DD1D);
        let mut t = random_tournament(&mut seed);
        while t.rounds.len() < t.rounds_planned as usize {
            let round = t.rounds.len() + 1;
            let path = write_trf(&dir, &format!("t{index}-r{round}.trf"), &t);
            let number: HashMap<PlayerKey, usize> = t
                .by_pairing_number()
                .iter()
                .enumerate()
                .map(|(i, p)| (p.key, i + 1))
                .collect();
            let theirs = theirs(&oracle.pair(&path));
            let ours = pair_next_round(&t);
            rounds_compared += 1;
            match (&ours, &theirs) {
                (Ok(o), Ok(th)) if &self::ours(o, &number) == th => {}
                // Neither can pair the round: the tournament ends here.
                (Err(_), Err(_)) => break,
                _ => {
                    let text = std::fs::read_to_string(&path).expect("the TRF");
                    disagreements.push(format!(
                        "tournament {index}, round {round}:\n  ours:     {:?}\n  py4swiss: {theirs:?}\n{text}",
                        ours.as_ref().map(|o| self::ours(o, &number))
                    ));
                }
            }
            let Ok(pairing) = ours else { break };
            play(&mut t, &pairing, &mut seed);
            change_the_field(&mut t, &mut seed);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    println!(
        "{rounds_compared} rounds compared, {} disagreements",
        disagreements.len()
    );
    assert!(
        disagreements.is_empty(),
        "{} of {rounds_compared} rounds differ:\n{}",
        disagreements.len(),
        disagreements.join("\n")
    );
}
