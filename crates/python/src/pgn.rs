//! `tensorchess.read_pgn` and `tensorchess.Game`: games read from PGN,
//! replayed by the rules.

use crate::board::Board;
use crate::errors::pgn_error;
use crate::guard::no_panic;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use tensorchess_rules::pgn::parse_pgn;
use tensorchess_rules::{with_game, Game as RustGame, VariantGame};

/// A game read from PGN: its headers, its moves (checked by the rules) and
/// its result.
#[pyclass(module = "tensorchess", frozen)]
pub struct Game {
    headers: Vec<(String, String)>,
    result: String,
    game: VariantGame,
}

#[pymethods]
impl Game {
    /// The tag pairs, in the order the PGN gives them.
    #[getter]
    fn headers<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in &self.headers {
            d.set_item(k, v)?;
        }
        Ok(d)
    }

    /// The result token: `"1-0"`, `"0-1"`, `"1/2-1/2"` or `"*"`.
    #[getter]
    fn result(&self) -> &str {
        &self.result
    }

    /// The game's name: `"tensor"`, `"chess"` or `"chessence"` (from the `Variant` tag).
    #[getter]
    fn variant(&self) -> &'static str {
        self.game.kind().name()
    }

    /// The moves of the main line as move strings.
    fn mainline_moves(&self) -> Vec<String> {
        Board::move_strings(&self.game)
    }

    /// The start position (from the `FEN` tag, or the game's start), as in python-chess.
    fn board(&self) -> PyResult<Board> {
        no_panic(|| {
            Ok(with_game!(&self.game, g => Board::from_game(
                RustGame::from_position(*g.start()).into()
            )))
        })
    }

    /// The position after the last move, with every move on its move stack.
    fn end_board(&self) -> Board {
        Board::from_game(self.game.clone())
    }

    fn __repr__(&self) -> String {
        let tag = |name: &str| {
            self.headers
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.as_str())
                .unwrap_or("?")
        };
        format!(
            "<Game {} vs {}, {}, {} plies, {}>",
            tag("White"),
            tag("Black"),
            self.game.kind().name(),
            self.game.ply(),
            self.result
        )
    }
}

/// Reads every game of a PGN text (the main lines; comments and variations
/// are skipped) and replays each by the rules of its `Variant` tag
/// (orthodox chess without one). Raises `InvalidPgnError` saying which move
/// of which game cannot be played, and why.
#[pyfunction]
pub fn read_pgn(text: &str) -> PyResult<Vec<Game>> {
    no_panic(|| {
        let games = parse_pgn(text).map_err(pgn_error)?;
        games
            .into_iter()
            .enumerate()
            .map(|(i, pgn)| {
                let in_game =
                    |e| crate::errors::InvalidPgnError::new_err(format!("game {}: {}", i + 1, e));
                let kind = pgn.variant().map_err(in_game)?;
                let game = VariantGame::from_pgn(kind, &pgn).map_err(in_game)?;
                Ok(Game {
                    headers: pgn.tags,
                    result: pgn.result,
                    game,
                })
            })
            .collect()
    })
}
