//! `tensorchess.Board`: a game of Tensor Chess, chess or Chessence, in
//! python-chess's shape, with moves as the move strings of RULES 4.2.

use crate::errors::{fen_error, move_error, san_error, variant_error, InternalError};
use crate::guard::{no_panic, run_released};
use crate::outcome::Outcome;
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use std::sync::atomic::AtomicBool;
use tensorchess_rules::{
    perft, perft_stoppable, uci, with_game, with_variant, Color, EndReason, Move, VariantGame,
    VariantKind,
};

/// A game: a start position and the moves pushed since, as in python-chess.
#[pyclass(module = "tensorchess", name = "Board")]
#[derive(Clone)]
pub struct Board {
    /// The game, its start and its moves.
    pub(crate) game: VariantGame,
}

impl Board {
    /// A board holding `game`.
    pub(crate) fn from_game(game: VariantGame) -> Board {
        Board { game }
    }

    /// The legal move a move string names, or the error that says why not.
    fn find_move(&self, py: Python<'_>, text: &str) -> PyResult<Move> {
        no_panic(|| {
            with_game!(&self.game, g => g.position().parse_move(text))
                .map_err(|e| move_error(py, e))
        })
    }

    /// The move strings of `moves`, played in order from the start of the game.
    pub(crate) fn move_strings(game: &VariantGame) -> Vec<String> {
        let kind = game.kind();
        game.moves().iter().map(|m| move_text(kind, *m)).collect()
    }
}

/// The move string of a move of game `kind` (it does not depend on the position).
pub(crate) fn move_text(kind: VariantKind, m: Move) -> String {
    with_variant!(kind, V => uci::move_string::<V>(m))
}

/// Reads a game's name (`tensor`, `chess`, `chessence`).
pub(crate) fn parse_variant(name: &str) -> PyResult<VariantKind> {
    name.parse::<VariantKind>().map_err(variant_error)
}

/// A board diagram from a FEN's placement field: rank 8 (or 9) first, `.`
/// for an empty square, `*` for a square that does not exist, pieces by
/// their FEN letters, and the pieces in hand on a line of their own.
fn diagram(fen: &str) -> String {
    let placement = fen.split(' ').next().unwrap_or("");
    let (board, hand) = match placement.split_once('[') {
        Some((b, h)) => (b, Some(h.trim_end_matches(']'))),
        None => (placement, None),
    };
    let mut rows: Vec<String> = board
        .split('/')
        .map(|rank| {
            let mut cells: Vec<String> = Vec::new();
            let mut empty = 0u32;
            for c in rank.chars() {
                if let Some(d) = c.to_digit(10) {
                    empty = empty * 10 + d;
                    continue;
                }
                cells.extend((0..empty).map(|_| ".".to_string()));
                empty = 0;
                cells.push(c.to_string());
            }
            cells.extend((0..empty).map(|_| ".".to_string()));
            cells.join(" ")
        })
        .collect();
    if let Some(hand) = hand {
        rows.push(format!("[{hand}]"));
    }
    rows.join("\n")
}

/// The PGN result a string names, as the outcome written for it.
fn result_outcome(result: &str) -> PyResult<Option<tensorchess_rules::Outcome>> {
    use tensorchess_rules::Outcome as O;
    Ok(match result {
        "1-0" => Some(O::Decisive {
            winner: Color::White,
            reason: EndReason::Resignation,
        }),
        "0-1" => Some(O::Decisive {
            winner: Color::Black,
            reason: EndReason::Resignation,
        }),
        "1/2-1/2" => Some(O::Draw {
            reason: EndReason::Agreement,
        }),
        "*" => None,
        other => {
            return Err(PyValueError::new_err(format!(
                "unknown result '{other}' (expected 1-0, 0-1, 1/2-1/2 or *)"
            )))
        }
    })
}

#[pymethods]
impl Board {
    /// A board at the start of `variant` (`"tensor"`, `"chess"`, `"chessence"`),
    /// or at the position `fen` gives.
    #[new]
    #[pyo3(signature = (variant = "tensor", fen = None))]
    fn new(py: Python<'_>, variant: &str, fen: Option<&str>) -> PyResult<Board> {
        let kind = parse_variant(variant)?;
        no_panic(|| {
            let game = match fen {
                None => VariantGame::new(kind),
                Some(f) => VariantGame::from_fen(kind, f).map_err(|e| fen_error(py, e))?,
            };
            Ok(Board { game })
        })
    }

    /// The game's name: `"tensor"`, `"chess"` or `"chessence"`.
    #[getter]
    fn variant(&self) -> &'static str {
        self.game.kind().name()
    }

    /// The side to move: `True` (`WHITE`) or `False` (`BLACK`).
    #[getter]
    fn turn(&self) -> bool {
        self.game.turn() == Color::White
    }

    /// The legal moves, as move strings (`e2e4`, `c7c8t`, `c1e3>g5`, `b1d3xc2`, `M@c2`).
    #[getter]
    fn legal_moves(&self) -> PyResult<Vec<String>> {
        no_panic(|| {
            Ok(with_game!(&self.game, g: V => g
                .position()
                .legal_moves()
                .iter()
                .map(|m| uci::move_string::<V>(*m))
                .collect()))
        })
    }

    /// The moves pushed since the start, as move strings.
    #[getter]
    fn move_stack(&self) -> Vec<String> {
        Board::move_strings(&self.game)
    }

    /// Plies since the last capture or pawn move (or, in Chessence, capture or drop).
    #[getter]
    fn halfmove_clock(&self) -> u32 {
        with_game!(&self.game, g => g.position().halfmove_clock())
    }

    /// The move number, starting at 1 and counting up after Black's move.
    #[getter]
    fn fullmove_number(&self) -> u32 {
        with_game!(&self.game, g => g.position().fullmoves())
    }

    /// Plies pushed since the start.
    fn ply(&self) -> usize {
        self.game.ply()
    }

    /// Plays a legal move given as a move string.
    #[pyo3(name = "push", signature = (r#move))]
    fn push_move(&mut self, py: Python<'_>, r#move: &str) -> PyResult<()> {
        let m = self.find_move(py, r#move)?;
        no_panic(|| {
            self.game.push(m);
            Ok(())
        })
    }

    /// Plays a legal move given in SAN (`Nf3`, `Kh1`, `Ne3>f5`, `Td3xc2`, `M@c2`);
    /// returns its move string.
    fn push_san(&mut self, py: Python<'_>, san: &str) -> PyResult<String> {
        let m = self.find_san(py, san)?;
        no_panic(|| {
            let text = self.game.move_string(m);
            self.game.push(m);
            Ok(text)
        })
    }

    /// Takes back the last move and returns its move string.
    fn pop(&mut self) -> PyResult<String> {
        let m = self
            .game
            .pop()
            .ok_or_else(|| PyIndexError::new_err("pop from empty move stack"))?;
        Ok(move_text(self.game.kind(), m))
    }

    /// The move string of the last move.
    fn peek(&self) -> PyResult<String> {
        let last = self.game.moves().last().copied();
        let m = last.ok_or_else(|| PyIndexError::new_err("peek at empty move stack"))?;
        Ok(move_text(self.game.kind(), m))
    }

    /// The SAN of a legal move given as a move string.
    fn san(&self, py: Python<'_>, r#move: &str) -> PyResult<String> {
        let m = self.find_move(py, r#move)?;
        no_panic(|| Ok(self.game.san(m)))
    }

    /// The move string of a legal move given in SAN.
    fn parse_san(&self, py: Python<'_>, san: &str) -> PyResult<String> {
        let m = self.find_san(py, san)?;
        Ok(self.game.move_string(m))
    }

    /// Whether a move string names a legal move here.
    fn is_legal(&self, r#move: &str) -> PyResult<bool> {
        no_panic(|| Ok(with_game!(&self.game, g => g.position().parse_move(r#move).is_ok())))
    }

    /// The FEN of the current position.
    fn fen(&self) -> PyResult<String> {
        no_panic(|| Ok(self.game.fen()))
    }

    /// Whether the side to move is in check.
    fn is_check(&self) -> PyResult<bool> {
        no_panic(|| Ok(with_game!(&self.game, g => g.position().is_check())))
    }

    /// Whether the side to move is checkmated.
    fn is_checkmate(&self) -> PyResult<bool> {
        Ok(self.end_reason()? == Some(EndReason::Checkmate))
    }

    /// Whether the side to move is stalemated (a draw; in Chessence it loses).
    fn is_stalemate(&self) -> PyResult<bool> {
        Ok(matches!(
            self.end_reason()?,
            Some(EndReason::Stalemate | EndReason::NoLegalMoves)
        ))
    }

    /// How the game ended by the rules, or `None` while it goes on.
    fn outcome(&self) -> PyResult<Option<Outcome>> {
        no_panic(|| Ok(self.game.outcome().map(Outcome::from)))
    }

    /// Whether the game has ended by the rules.
    fn is_game_over(&self) -> PyResult<bool> {
        Ok(self.end_reason()?.is_some())
    }

    /// Counts the leaves of the legal move tree `depth` plies deep, with the
    /// GIL released. Ctrl-C interrupts it.
    fn perft(&self, py: Python<'_>, depth: u32) -> PyResult<u64> {
        let game = &self.game;
        if depth <= 2 {
            // Too short to be worth a thread of its own.
            return py
                .detach(|| no_panic(|| Ok(with_game!(game, g => perft(g.position(), depth)))));
        }
        let stop = AtomicBool::new(false);
        let counted = run_released(
            py,
            &stop,
            || with_game!(game, g => perft_stoppable(g.position(), depth, &stop)),
        )?;
        // Only an interruption stops it, and run_released raises that.
        counted.ok_or_else(|| InternalError::new_err("perft stopped without a reason"))
    }

    /// A copy of the board, its move stack included.
    fn copy(&self) -> Board {
        self.clone()
    }

    fn __copy__(&self) -> Board {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Board {
        self.clone()
    }

    /// A board at this game's start position, with no moves.
    fn root(&self) -> PyResult<Board> {
        no_panic(|| {
            Ok(with_game!(&self.game, g => Board::from_game(
                tensorchess_rules::Game::from_position(*g.start()).into()
            )))
        })
    }

    /// The game as PGN: the seven-tag roster (from `headers` where given),
    /// `Variant`, `SetUp`/`FEN` for a game from another position, the other
    /// headers, then the moves in SAN. The result is `result` when given,
    /// else the `Result` header when it is `1-0`, `0-1` or `1/2-1/2`, else
    /// what the rules say (`*` for a game going on).
    #[pyo3(signature = (headers = None, result = None))]
    fn pgn(&self, headers: Option<&Bound<'_, PyAny>>, result: Option<&str>) -> PyResult<String> {
        let mut tags: Vec<(String, String)> = Vec::new();
        if let Some(h) = headers {
            // Any mapping of str to str, in its own order (a dict's is insertion).
            for item in h.call_method0("items")?.try_iter()? {
                tags.push(item?.extract()?);
            }
        }
        let header_result = tags
            .iter()
            .find(|(k, v)| k == "Result" && v != "*")
            .map(|(_, v)| v.as_str());
        let outcome = match result.or(header_result) {
            Some(r) => result_outcome(r)?,
            None => None,
        };
        no_panic(|| Ok(self.game.pgn(&tags, outcome)))
    }

    fn __str__(&self) -> PyResult<String> {
        Ok(diagram(&self.fen()?))
    }

    fn __repr__(&self) -> PyResult<String> {
        Ok(format!(
            "Board(variant='{}', fen='{}')",
            self.game.kind().name(),
            self.fen()?
        ))
    }
}

impl Board {
    /// Why the game ended by the rules, if it did.
    fn end_reason(&self) -> PyResult<Option<EndReason>> {
        no_panic(|| Ok(self.game.outcome().map(|o| o.reason())))
    }

    /// The legal move a SAN names, or the error that says why not.
    fn find_san(&self, py: Python<'_>, san: &str) -> PyResult<Move> {
        no_panic(|| {
            with_game!(&self.game, g => g.position().parse_san(san)).map_err(|e| san_error(py, e))
        })
    }
}
