//! FIDE Tournament Report File (TRF-16, FIDE Handbook C.04 Annex 2) for a
//! Swiss tournament.
//!
//! Header lines: `012` name, `022` city, `042` start date, `052` end date,
//! `062` number of players, `092` type; then the two lines of JaVaFo's
//! TRF(x) that FIDE-endorsed pairing programs (JaVaFo, bbpPairings,
//! py4swiss) need to pair the next round: `XXR` the number of rounds and
//! `XXC` the colour of player 1 in round 1 (`white1` or `black1`). Then
//! one `001` line per player, in
//! start-number order (the pairing numbers), with fixed columns (1-based,
//! inclusive):
//!
//! | columns | content |
//! |---|---|
//! | 1–3 | `001` |
//! | 5–8 | start number, right-aligned |
//! | 10 | sex (`m`/`w`) |
//! | 11–13 | title, right-aligned (`g`, `wf`… as the caller writes it) |
//! | 15–47 | name (cut at 33 characters) |
//! | 49–52 | rating (blank when 0 or less) |
//! | 54–56 | federation |
//! | 58–68 | FIDE id, right-aligned |
//! | 70–79 | birth date as given (`YYYY/MM/DD`) |
//! | 81–84 | points, one decimal, right-aligned |
//! | 86–89 | rank, right-aligned |
//!
//! and per round `r` (from 1) a block at column `92 + 10 (r − 1)`: the
//! opponent's start number (4 columns), a space, the colour (`w`, `b`,
//! `-`), a space, the result: `1` `=` `0` over the board, `+` `-` for
//! forfeits; byes are `0000 - U` (pairing bye), `F` (full point), `H`
//! (half point; also every round a late joiner missed) and `Z` (zero; also
//! a round without an entry, after a withdrawal: the spec reads a blank
//! block as `0000 - Z`, and the pairing programs want it written). While
//! rounds remain, a player who will not be paired in the next one (withdrawn
//! or sitting it out) has `0000 - Z` in its column already, as the server
//! records it: that is how the pairing programs leave a player out.

use std::collections::HashMap;
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::outcome::PlayerResult;
use crate::player::{PlayerKey, Side};
use crate::swiss::{swiss_standings, ByeKind, SwissError, SwissResult, SwissTournament};

/// The tournament's header lines.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct TrfHeader {
    /// `012`: the tournament's name.
    pub name: String,
    /// `022`: the city.
    pub city: String,
    /// `042`: the start date, as it should be written.
    pub start_date: String,
    /// `052`: the end date, as it should be written.
    pub end_date: String,
    /// `092`: the type, e.g. `Individual: Swiss-System (Dutch)`.
    pub tournament_type: String,
}

/// What the TRF says of a player beyond what the pairing needs; missing
/// players' fields are left blank.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct TrfPlayerDetails {
    /// `m` or `w`, if known.
    pub sex: Option<char>,
    /// The FIDE title as TRF writes it (`g`, `m`, `f`, `wg`…), or empty.
    pub title: String,
    /// The three-letter federation, or empty.
    pub federation: String,
    /// The FIDE id, if any.
    pub fide_id: Option<u64>,
    /// The birth date (`YYYY/MM/DD`), or empty.
    pub birth_date: String,
}

/// A fixed-column line under construction.
struct Line(Vec<char>);

impl Line {
    /// Writes `text` from 1-based `column`, cut at `width` characters,
    /// right-aligned when `right`.
    fn put(&mut self, column: usize, width: usize, text: &str, right: bool) {
        let chars: Vec<char> = text.chars().take(width).collect();
        let start = column - 1 + if right { width - chars.len() } else { 0 };
        if self.0.len() < start + chars.len() {
            self.0.resize(start + chars.len(), ' ');
        }
        self.0[start..start + chars.len()].copy_from_slice(&chars);
    }
}

/// Writes round `r`'s block (0-based) of a `001` line.
fn put_round(line: &mut Line, r: usize, opponent: &str, colour: char, result: char) {
    let column = 92 + 10 * r;
    line.put(column, 4, opponent, true);
    line.put(column + 5, 1, &colour.to_string(), false);
    line.put(column + 7, 1, &result.to_string(), false);
}

/// The TRF-16 text of the tournament (lines end with `\n`).
pub fn export_trf(
    tournament: &SwissTournament,
    header: &TrfHeader,
    details: &HashMap<PlayerKey, TrfPlayerDetails>,
) -> Result<String, SwissError> {
    let table = swiss_standings(tournament)?;
    // Start numbers are the pairing numbers.
    let order = tournament.by_pairing_number();
    let number: HashMap<PlayerKey, usize> = order
        .iter()
        .enumerate()
        .map(|(i, p)| (p.key, i + 1))
        .collect();
    let mut out = String::new();
    let _ = writeln!(out, "012 {}", header.name);
    let _ = writeln!(out, "022 {}", header.city);
    let _ = writeln!(out, "042 {}", header.start_date);
    let _ = writeln!(out, "052 {}", header.end_date);
    let _ = writeln!(out, "062 {}", tournament.players.len());
    let _ = writeln!(out, "092 {}", header.tournament_type);
    let _ = writeln!(out, "XXR {}", tournament.rounds_planned);
    let first = match tournament.initial_colour {
        Side::White => "white1",
        Side::Black => "black1",
    };
    let _ = writeln!(out, "XXC {first}");
    let next_round = tournament.rounds.len() < tournament.rounds_planned as usize;
    let blank = TrfPlayerDetails::default();
    for player in &order {
        let d = details.get(&player.key).unwrap_or(&blank);
        let standing = table
            .iter()
            .find(|s| s.key == player.key)
            .expect("every player stands");
        let mut line = Line(Vec::new());
        line.put(1, 3, "001", false);
        line.put(5, 4, &number[&player.key].to_string(), true);
        line.put(10, 1, &d.sex.map(String::from).unwrap_or_default(), false);
        line.put(11, 3, &d.title, true);
        line.put(15, 33, &player.name, false);
        if player.rating > 0 {
            line.put(49, 4, &player.rating.to_string(), true);
        }
        line.put(54, 3, &d.federation, false);
        line.put(
            58,
            11,
            &d.fide_id.map(|id| id.to_string()).unwrap_or_default(),
            true,
        );
        line.put(70, 10, &d.birth_date, false);
        line.put(81, 4, &standing.points.to_string(), true);
        line.put(86, 4, &standing.position.to_string(), true);
        for (r, round) in tournament.rounds.iter().enumerate() {
            let entry = if (r as u32 + 1) < player.joined_round {
                Some(("0000".to_string(), '-', 'H'))
            } else if let Some(game) = round
                .games
                .iter()
                .find(|g| g.white == player.key || g.black == player.key)
            {
                let (side, opponent) = if game.white == player.key {
                    (Side::White, game.black)
                } else {
                    (Side::Black, game.white)
                };
                let colour = if side == Side::White { 'w' } else { 'b' };
                let result = match game.result {
                    SwissResult::Played(outcome) => match outcome.for_side(side) {
                        PlayerResult::Win => '1',
                        PlayerResult::Draw => '=',
                        PlayerResult::Loss => '0',
                    },
                    SwissResult::Forfeit { winner } if winner == side => '+',
                    SwissResult::Forfeit { .. } => '-',
                };
                Some((number[&opponent].to_string(), colour, result))
            } else {
                round
                    .byes
                    .iter()
                    .find(|b| b.player == player.key)
                    .map(|bye| {
                        let code = match bye.kind {
                            ByeKind::Pairing => 'U',
                            ByeKind::Full => 'F',
                            ByeKind::Half => 'H',
                            ByeKind::Zero => 'Z',
                        };
                        ("0000".to_string(), '-', code)
                    })
            };
            let (opponent, colour, result) =
                entry.unwrap_or_else(|| ("0000".to_string(), '-', 'Z'));
            put_round(&mut line, r, &opponent, colour, result);
        }
        let absent = player.withdrawn || tournament.sitting_out.contains(&player.key);
        if next_round && absent {
            put_round(&mut line, tournament.rounds.len(), "0000", '-', 'Z');
        }
        let text: String = line.0.into_iter().collect();
        let _ = writeln!(out, "{}", text.trim_end());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::Outcome;
    use crate::swiss::{SwissBye, SwissGame, SwissPlayer, SwissRound};

    fn player(key: u64, name: &str, rating: i32, joined_round: u32) -> SwissPlayer {
        SwissPlayer {
            key: PlayerKey(key),
            name: name.into(),
            rating,
            joined_round,
            withdrawn: false,
        }
    }

    fn tournament() -> SwissTournament {
        let (a, b, c) = (PlayerKey(1), PlayerKey(2), PlayerKey(3));
        SwissTournament {
            players: vec![
                player(1, "Carlsen,Magnus", 2830, 1),
                player(2, "Doe,Jane", 1500, 1),
                player(3, "Late,Comer", 1700, 2),
            ],
            rounds_planned: 5,
            initial_colour: Side::White,
            rounds: vec![
                SwissRound {
                    games: vec![SwissGame {
                        white: a,
                        black: b,
                        result: SwissResult::Played(Outcome::Draw),
                    }],
                    byes: vec![],
                },
                SwissRound {
                    games: vec![SwissGame {
                        white: c,
                        black: a,
                        result: SwissResult::Played(Outcome::BlackWins),
                    }],
                    byes: vec![SwissBye {
                        player: b,
                        kind: ByeKind::Pairing,
                    }],
                },
                SwissRound {
                    games: vec![SwissGame {
                        white: b,
                        black: c,
                        result: SwissResult::Forfeit {
                            winner: Side::White,
                        },
                    }],
                    byes: vec![SwissBye {
                        player: a,
                        kind: ByeKind::Half,
                    }],
                },
            ],
            sitting_out: Vec::new(),
        }
    }

    #[test]
    fn a_hand_checked_line_has_every_field_in_its_columns() {
        let details = HashMap::from([(
            PlayerKey(1),
            TrfPlayerDetails {
                sex: Some('m'),
                title: "g".into(),
                federation: "NOR".into(),
                fide_id: Some(1503014),
                birth_date: "1990/11/30".into(),
            },
        )]);
        let header = TrfHeader {
            name: "Test Open".into(),
            ..TrfHeader::default()
        };
        let text = export_trf(&tournament(), &header, &details).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "012 Test Open");
        assert_eq!(lines[4], "062 3");
        assert_eq!(lines[6], "XXR 5");
        assert_eq!(lines[7], "XXC white1");
        // Carlsen: ½ + 1 + ½ = 2.0 points, second to Doe; start number 1.
        let carlsen = lines[8];
        let col = |from: usize, to: usize| &carlsen[from - 1..to];
        assert_eq!(col(1, 3), "001");
        assert_eq!(col(5, 8), "   1");
        assert_eq!(col(10, 10), "m");
        assert_eq!(col(11, 13), "  g");
        assert_eq!(col(15, 47), format!("{:<33}", "Carlsen,Magnus"));
        assert_eq!(col(49, 52), "2830");
        assert_eq!(col(54, 56), "NOR");
        assert_eq!(col(58, 68), "    1503014");
        assert_eq!(col(70, 79), "1990/11/30");
        assert_eq!(col(81, 84), " 2.0");
        assert_eq!(col(86, 89), "   2");
        assert_eq!(col(92, 99), "   3 w =");
        assert_eq!(col(102, 109), "   2 b 1");
        assert_eq!(col(112, 119), "0000 - H");
        assert_eq!(carlsen.len(), 119);
        assert_eq!(
            carlsen,
            "001    1 m  g Carlsen,Magnus                    2830 NOR     1503014 1990/11/30  \
             2.0    2     3 w =     2 b 1  0000 - H"
        );
    }

    #[test]
    fn byes_forfeits_and_late_joiners_have_their_codes() {
        let text = export_trf(&tournament(), &TrfHeader::default(), &HashMap::new()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        // Start numbers: Carlsen 1, Late 2 (1700), Doe 3 (1500).
        let late = lines[9];
        let doe = lines[10];
        assert_eq!(&late[4..8], "   2");
        assert_eq!(&late[91..], "0000 - H     1 w 0     3 b -");
        assert_eq!(&doe[91..], "   1 b =  0000 - U     2 w +");
        // Doe: ½ + 1 + 1 = 2.5, first; Carlsen 2.0; Late ½.
        assert_eq!(&doe[80..89], " 2.5    1");
        assert_eq!(&late[80..89], " 0.5    3");
    }

    #[test]
    fn withdrawn_and_resting_players_have_zero_byes_and_skip_the_next_round() {
        let mut t = tournament();
        t.initial_colour = Side::Black;
        // Doe withdrew after round 3; Late sits round 4 out.
        t.players[1].withdrawn = true;
        t.sitting_out = vec![PlayerKey(3)];
        t.rounds[2].games.clear();
        t.rounds[2].byes.clear();
        let text = export_trf(&t, &TrfHeader::default(), &HashMap::new()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[7], "XXC black1");
        let (carlsen, late, doe) = (lines[8], lines[9], lines[10]);
        // Round 3 without an entry: a zero bye; round 4 not to be paired.
        assert_eq!(&carlsen[91..], "   3 w =     2 b 1  0000 - Z");
        assert_eq!(&late[91..], "0000 - H     1 w 0  0000 - Z  0000 - Z");
        assert_eq!(&doe[91..], "   1 b =  0000 - U  0000 - Z  0000 - Z");
        // After the last round, no column for a round to come.
        t.rounds_planned = 3;
        let text = export_trf(&t, &TrfHeader::default(), &HashMap::new()).unwrap();
        assert!(text.lines().all(|l| l.len() <= 119), "{text}");
    }
}
