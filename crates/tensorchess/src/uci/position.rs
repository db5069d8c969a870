//! The position `position` sets: checked against the rules of the game
//! chosen, kept as text so that it outlives a change of game.

use tensorchess_rules::{Color, Game, Position, Variant, VariantKind};

/// A position as `position` set it: the game, a start FEN (`None` = the
/// game's start) and moves already checked to be legal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionSpec {
    /// The game.
    pub variant: VariantKind,
    /// The start position; `None`: the game's own.
    pub fen: Option<String>,
    /// The moves played from it, as move strings.
    pub moves: Vec<String>,
}

/// The position reached (as far as the moves were legal), its side to move,
/// and what was wrong, if anything.
pub type SetOutcome = Result<(PositionSpec, Color, Option<String>), String>;

impl PositionSpec {
    /// The start position of `variant`, no move played.
    pub fn start(variant: VariantKind) -> PositionSpec {
        PositionSpec {
            variant,
            fen: None,
            moves: Vec::new(),
        }
    }

    /// The game this spec names (its moves were checked when it was set).
    pub fn game<V: Variant>(&self) -> Result<Game<V>, String> {
        let start = match &self.fen {
            Some(f) => Position::<V>::from_fen_or_epd(f).map_err(|e| e.to_string())?,
            None => Position::new(),
        };
        let mut game = Game::from_position(start);
        for m in &self.moves {
            let mv = game
                .position()
                .parse_move(m)
                .map_err(|e| format!("move {m}: {e}"))?;
            game.push(mv);
        }
        Ok(game)
    }

    /// Checks a `position` command's FEN (or EPD) and moves in game `V`:
    /// the moves are kept up to the first that cannot be played.
    pub fn set<V: Variant>(fen: Option<&str>, moves: &[&str]) -> SetOutcome {
        let start = match fen {
            Some(f) => {
                Position::<V>::from_fen_or_epd(f).map_err(|e| format!("bad FEN '{f}': {e}"))?
            }
            None => Position::new(),
        };
        let mut pos = start;
        let mut spec = PositionSpec {
            variant: V::KIND,
            fen: fen.map(|_| start.fen()),
            moves: Vec::new(),
        };
        for (i, text) in moves.iter().enumerate() {
            match pos.parse_move(text) {
                Ok(m) => {
                    spec.moves.push(pos.move_string(m));
                    pos = pos.play(m);
                }
                Err(e) => {
                    let problem = format!(
                        "move {} ('{text}') cannot be played: {e}; the position stops before it",
                        i + 1
                    );
                    return Ok((spec, pos.turn(), Some(problem)));
                }
            }
        }
        Ok((spec, pos.turn(), None))
    }

    /// The lines of the `d` command: game, FEN, hash, legal moves, the end.
    pub fn describe<V: Variant>(&self) -> Result<Vec<String>, String> {
        let game = self.game::<V>()?;
        let pos = game.position();
        let mut legal: Vec<String> = pos
            .legal_moves()
            .iter()
            .map(|m| pos.move_string(*m))
            .collect();
        legal.sort();
        let mut lines = vec![
            format!("variant {}", V::KIND.name()),
            format!("fen {}", pos.fen()),
            format!("hash {:016x}", pos.hash()),
            format!("legal moves ({}): {}", legal.len(), legal.join(" ")),
        ];
        if let Some(o) = game.outcome() {
            lines.push(format!("game over: {o}"));
        }
        Ok(lines)
    }
}
