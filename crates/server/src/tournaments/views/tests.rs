//! One rule for aborts and no-shows (`docs/tournaments.md`): a Swiss's
//! standings, its TRF and its next round's pairing read each ending alike.

use super::*;
use crate::store::{ClockSettings, TournamentGameLink};
use tensorchess_rules::{EndReason, Outcome as RulesOutcome, VariantKind};
use tensorchess_tournament::swiss::{pair_next_round, ByeKind, SwissResult};
use tensorchess_tournament::trf::{export_trf, TrfHeader};

fn entry(player: &str, rating: i32) -> EntryRecord {
    EntryRecord {
        tournament_id: "s".into(),
        player: player.into(),
        joined_at: 0,
        withdrawn: false,
        paused: false,
        rating,
    }
}

fn game(round: u32, white: &str, black: &str, ending: Ending) -> TournamentGame {
    TournamentGame {
        link: TournamentGameLink {
            tournament_id: "s".into(),
            game_id: format!("{white}{black}"),
            round: Some(round),
            white: white.into(),
            black: black.into(),
            white_berserked: false,
            black_berserked: false,
            created_at: i64::from(round),
        },
        ending: Some(ending),
        plies: 0,
    }
}

#[test]
fn standings_trf_and_pairing_count_each_ending_alike() {
    let t = TournamentRecord {
        id: "s".into(),
        kind: TournamentKind::Swiss,
        name: "Rules".into(),
        variant: VariantKind::Chess,
        clock: ClockSettings {
            base_ms: 60_000,
            increment_ms: 0,
        },
        rated: false,
        starts_at: 0,
        minutes: None,
        rounds: Some(3),
        max_players: 10,
        created_by: "a".into(),
        state: TournamentState::Running,
        created_at: 0,
        schedule_key: None,
        days: None,
    };
    let entries = [
        entry("a", 1900),
        entry("b", 1800),
        entry("c", 1700),
        entry("d", 1600),
    ];
    let keyed = Keyed::new(&entries);
    let key = |p: &str| keyed.key(p).unwrap();
    let resigned = Ending::Outcome(RulesOutcome::Decisive {
        winner: Color::White,
        reason: EndReason::Resignation,
    });
    let agreed = Ending::Outcome(RulesOutcome::Draw {
        reason: EndReason::Agreement,
    });
    let games = [
        // Played; C did not make a first move (D wins by forfeit).
        game(1, "a", "b", resigned),
        game(
            1,
            "c",
            "d",
            Ending::Aborted {
                no_show: Some(Color::White),
            },
        ),
        // Aborted by a player (a game from before aborts were refused):
        // for nobody. Played, drawn.
        game(2, "a", "d", Ending::Aborted { no_show: None }),
        game(2, "b", "c", agreed),
    ];

    // The standings: half-points, games played, the line.
    let lines = round_lines(&keyed, &games, &[]);
    let line = |p: &str| {
        let l = lines.iter().find(|l| l.key == key(p)).unwrap();
        (l.points, l.games, l.points_line.as_str())
    };
    assert_eq!(line("a"), (2, 1, "1"));
    assert_eq!(line("b"), (1, 2, "0 ½"));
    assert_eq!(line("c"), (1, 1, "- ½"));
    assert_eq!(line("d"), (2, 0, "+"));

    // The pairing's view: a forfeit, and zero byes for the void game.
    let swiss = crate::tournaments::rounds::swiss_of(&t, &keyed, &games, &[], 2);
    assert_eq!(
        swiss.rounds[0].games[1].result,
        SwissResult::Forfeit {
            winner: tensorchess_tournament::Side::Black
        }
    );
    assert_eq!(swiss.rounds[1].games.len(), 1);
    let zero: Vec<_> = swiss.rounds[1]
        .byes
        .iter()
        .map(|b| (b.player, b.kind))
        .collect();
    assert_eq!(zero, [(key("a"), ByeKind::Zero), (key("d"), ByeKind::Zero)]);

    // The TRF: the same points, the same codes.
    let header = TrfHeader {
        name: "Rules".into(),
        city: String::new(),
        start_date: String::new(),
        end_date: String::new(),
        tournament_type: String::new(),
    };
    let trf = export_trf(&swiss, &header, &HashMap::new()).unwrap();
    let trf_line = |name: &str| {
        let l: Vec<char> = trf
            .lines()
            .find(|l| l.starts_with("001") && l.contains(&format!(" {name} ")))
            .unwrap_or_else(|| panic!("{name}: {trf}"))
            .chars()
            .collect();
        let points: String = l[80..84].iter().collect();
        (points.trim().to_string(), l[98], l[108])
    };
    assert_eq!(trf_line("a"), ("1.0".into(), '1', 'Z'), "{trf}");
    assert_eq!(trf_line("b"), ("0.5".into(), '0', '='), "{trf}");
    assert_eq!(trf_line("c"), ("0.5".into(), '-', '='), "{trf}");
    assert_eq!(trf_line("d"), ("1.0".into(), '+', 'Z'), "{trf}");
    for p in ["a", "b", "c", "d"] {
        let half: f64 = trf_line(p).0.parse().unwrap();
        assert_eq!(f64::from(line(p).0), half * 2.0, "{p}");
    }

    // The pairing reads them as not played: two players whose first
    // game was void and second a no-show meet a third time (had either
    // been a game, the rematch would leave no legal round).
    let two = [entry("a", 1900), entry("b", 1800)];
    let keyed = Keyed::new(&two);
    let games = [
        game(1, "a", "b", Ending::Aborted { no_show: None }),
        game(
            2,
            "b",
            "a",
            Ending::Aborted {
                no_show: Some(Color::Black),
            },
        ),
    ];
    let swiss = crate::tournaments::rounds::swiss_of(&t, &keyed, &games, &[], 2);
    let next = pair_next_round(&swiss).unwrap();
    assert_eq!(next.boards.len(), 1, "{next:?}");
    let lines = round_lines(&keyed, &games, &[]);
    assert_eq!(lines[0].points_line, "+");
    assert_eq!(lines[0].games + lines[1].games, 0);
}

#[test]
fn a_crosstable_line_has_every_round_byes_too_and_points_line_with_them() {
    let entries = [entry("a", 1900), entry("b", 1800), entry("c", 1700)];
    let keyed = Keyed::new(&entries);
    let key = |p: &str| keyed.key(p).unwrap();
    let won = Ending::Outcome(RulesOutcome::Decisive {
        winner: Color::White,
        reason: EndReason::Resignation,
    });
    let mut going = game(3, "c", "a", won);
    going.ending = None;
    let games = [game(1, "a", "b", won), game(2, "c", "b", won), going];
    // The pairing byes of rounds 1 and 2 (a full point), and B's of round 3.
    let byes = [(key("c"), 1, 2), (key("a"), 2, 2), (key("b"), 3, 2)];
    let lines = round_lines(&keyed, &games, &byes);
    let line = |p: &str| lines.iter().find(|l| l.key == key(p)).unwrap();
    // A: won round 1, a bye in round 2, plays round 3.
    let a = line("a");
    assert_eq!(a.points, 4);
    assert_eq!(a.points_line, "1 1");
    /// A cell as (round, colour, opponent's rank, result, bye).
    type Cell = (u32, Option<Color>, Option<u32>, PointsMark, bool);
    let cells: Vec<Cell> = a
        .rounds
        .iter()
        .map(|c| (c.round, c.color, c.opponent, c.result, c.bye))
        .collect();
    let (rank_b, rank_c) = (line("b").rank, line("c").rank);
    assert_eq!(
        cells,
        [
            (1, Some(Color::White), Some(rank_b), PointsMark::Win, false),
            (2, None, None, PointsMark::Win, true),
            (
                3,
                Some(Color::Black),
                Some(rank_c),
                PointsMark::Playing,
                false
            ),
        ]
    );
    assert_eq!(a.rounds[0].game.as_deref(), Some("ab"));
    // B: lost twice, then the bye: its point is on the line.
    assert_eq!(line("b").points_line, "0 0 1");
    assert_eq!(line("b").points, 2);
    assert_eq!(line("c").points_line, "1 1");
}
