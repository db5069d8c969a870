//! Puzzles in lichess's puzzle CSV columns.

use serde::{Deserialize, Serialize};

/// The header line of a puzzle file (lichess's columns).
pub const HEADER: &str =
    "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags";

/// A puzzle: the position before the opponent's move, that move, and the solution.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Puzzle {
    /// The puzzle's id (mined puzzles: five base-62 characters from the
    /// position and moves, [`puzzle_id`](super::puzzle_id)).
    pub id: String,
    /// The position before the opponent's move that sets the puzzle.
    pub fen: String,
    /// RULES 4.2 move strings: the opponent's move, then the solution
    /// (solver, opponent, solver, …; it ends with a solver move).
    pub moves: Vec<String>,
    /// How hard the puzzle is, on the Glicko scale (an estimate until
    /// players have tried it).
    pub rating: u32,
    /// How uncertain the rating is, in rating points.
    pub rating_deviation: u32,
    /// lichess's −100 to 100 from players' votes (0 for mined puzzles).
    pub popularity: i32,
    /// How many times the puzzle was played (0 for mined puzzles).
    pub plays: u32,
    /// What the solution does (`mateIn2`, `ricochet`, ...: see
    /// [`THEMES`](super::themes::THEMES)).
    pub themes: Vec<String>,
    /// Where the puzzle comes from (may be empty).
    pub game_url: String,
    /// lichess's opening names (empty for mined puzzles).
    pub opening_tags: Vec<String>,
}

impl Puzzle {
    /// The solver's moves (every other move after the opponent's first).
    pub fn solver_moves(&self) -> impl Iterator<Item = &str> {
        self.moves.iter().skip(1).step_by(2).map(String::as_str)
    }

    /// Whether the puzzle is tagged with `theme`.
    pub fn has_theme(&self, theme: &str) -> bool {
        self.themes.iter().any(|t| t == theme)
    }

    /// The ply of the opponent's first move in the source game, when the
    /// `GameUrl` names one (`FILE#GAME:PLY`, as the miner writes it).
    pub fn game_ply(&self) -> Option<usize> {
        let (_, ply) = self.game_url.rsplit_once(':')?;
        ply.parse().ok()
    }

    /// One CSV line (no newline).
    pub fn to_csv(&self) -> String {
        format!(
            "{},{},{},{},{},{},{},{},{},{}",
            self.id,
            self.fen,
            self.moves.join(" "),
            self.rating,
            self.rating_deviation,
            self.popularity,
            self.plays,
            self.themes.join(" "),
            self.game_url,
            self.opening_tags.join(" ")
        )
    }

    /// Reads one CSV line.
    ///
    /// ```
    /// use tensorchess_analysis::puzzles::Puzzle;
    /// let p = Puzzle::from_csv("00sHx,q3k1nr/1pp1nQpp/3p4/1P2p3/4P3/B1PP1b2/B5PP/5K2 b k - 0 17,e8d7 a2e6 d7d8 f7f8,1760,80,83,72,mate mateIn2 middlegame short,https://lichess.org/yyznGmXs/black#34,Italian_Game").unwrap();
    /// assert_eq!(p.moves.len(), 4);
    /// assert!(p.has_theme("mateIn2"));
    /// assert_eq!(p.solver_moves().collect::<Vec<_>>(), ["a2e6", "f7f8"]);
    /// ```
    pub fn from_csv(line: &str) -> Result<Puzzle, PuzzleCsvError> {
        let fields: Vec<&str> = line.trim_end_matches(['\r', '\n']).split(',').collect();
        if fields.len() != 10 {
            return Err(PuzzleCsvError::Fields(fields.len()));
        }
        let number = |i: usize, name: &'static str| -> Result<i64, PuzzleCsvError> {
            fields[i]
                .trim()
                .parse::<i64>()
                .map_err(|_| PuzzleCsvError::Number(name, fields[i].to_string()))
        };
        let words = |s: &str| -> Vec<String> { s.split_whitespace().map(String::from).collect() };
        let id = fields[0].trim().to_string();
        if id.is_empty() {
            return Err(PuzzleCsvError::Empty("PuzzleId"));
        }
        let fen = fields[1].trim().to_string();
        if fen.is_empty() {
            return Err(PuzzleCsvError::Empty("FEN"));
        }
        let moves = words(fields[2]);
        if moves.len() < 2 {
            return Err(PuzzleCsvError::Empty("Moves"));
        }
        let unsigned = |i: usize, name: &'static str| -> Result<u32, PuzzleCsvError> {
            u32::try_from(number(i, name)?)
                .map_err(|_| PuzzleCsvError::Number(name, fields[i].to_string()))
        };
        Ok(Puzzle {
            id,
            fen,
            moves,
            rating: unsigned(3, "Rating")?,
            rating_deviation: unsigned(4, "RatingDeviation")?,
            popularity: i32::try_from(number(5, "Popularity")?)
                .map_err(|_| PuzzleCsvError::Number("Popularity", fields[5].to_string()))?,
            plays: unsigned(6, "NbPlays")?,
            themes: words(fields[7]),
            game_url: fields[8].trim().to_string(),
            opening_tags: words(fields[9]),
        })
    }
}

/// Why a puzzle line could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PuzzleCsvError {
    /// A line without the 10 columns (how many it has).
    #[error("expected 10 comma-separated fields, found {0}")]
    Fields(usize),
    /// A numeric column (its name) that holds something else (this).
    #[error("{0} is not a number: '{1}'")]
    Number(&'static str, String),
    /// A column (its name) that must not be empty.
    #[error("{0} is empty")]
    Empty(&'static str),
    /// An error in a file, with its line.
    #[error("line {line}: {error}")]
    Line {
        /// The line, 1 for the first.
        line: usize,
        /// What is wrong with it.
        error: Box<PuzzleCsvError>,
    },
}

/// Reads a puzzle file: an optional header line, then one puzzle per line
/// (blank lines and lines starting with `#` are skipped).
pub fn read_csv(text: &str) -> Result<Vec<Puzzle>, PuzzleCsvError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') || (i == 0 && t.starts_with("PuzzleId,")) {
            continue;
        }
        out.push(Puzzle::from_csv(t).map_err(|e| PuzzleCsvError::Line {
            line: i + 1,
            error: Box::new(e),
        })?);
    }
    Ok(out)
}

/// Writes puzzles with the header line.
pub fn write_csv(puzzles: &[Puzzle]) -> String {
    let mut s = String::from(HEADER);
    s.push('\n');
    for p in puzzles {
        s.push_str(&p.to_csv());
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_puzzle_round_trips() {
        let p = Puzzle {
            id: "aB3dE".into(),
            fen: "km4/mmm2*/1mm1*1/2*3/1*2*1/3*2/1*1MM1/*2MMM/4MK[MMMmmm] w - - 0 1".into(),
            moves: vec!["M@c2".into(), "c1e3>g5".into()],
            rating: 1400,
            rating_deviation: 500,
            popularity: 0,
            plays: 0,
            themes: vec!["drop".into(), "short".into()],
            game_url: String::new(),
            opening_tags: vec![],
        };
        let text = write_csv(std::slice::from_ref(&p));
        assert_eq!(read_csv(&text).unwrap(), vec![p.clone()]);
        assert_eq!(p.game_ply(), None);
        let from_game = Puzzle {
            game_url: "tensor-7.pgn#12:31".into(),
            ..p
        };
        assert_eq!(from_game.game_ply(), Some(31));
    }

    #[test]
    fn bad_lines_say_why() {
        assert_eq!(Puzzle::from_csv("a,b,c"), Err(PuzzleCsvError::Fields(3)));
        let e = read_csv("PuzzleId,FEN\nx,8/8 w - - 0 1,e2e4 e7e5,high,500,0,0,,,").unwrap_err();
        assert_eq!(e.to_string(), "line 2: Rating is not a number: 'high'");
        assert!(Puzzle::from_csv("x,fen,e2e4,1,1,1,1,,,").is_err());
    }
}
