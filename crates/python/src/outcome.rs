//! `tensorchess.Outcome` and `tensorchess.Termination`: how a game ended,
//! in python-chess's shape.

use pyo3::prelude::*;
use tensorchess_rules::{Color, EndReason};

/// How a game ended (python-chess's names where they mean the same).
#[pyclass(module = "tensorchess", eq, eq_int, frozen, hash)]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    /// The side to move is in check and has no legal move.
    #[pyo3(name = "CHECKMATE")]
    Checkmate,
    /// The side to move has no legal move and is not in check: a draw.
    #[pyo3(name = "STALEMATE")]
    Stalemate,
    /// Chessence: the side to move has no legal move and is not in check: it loses.
    #[pyo3(name = "NO_LEGAL_MOVES")]
    NoLegalMoves,
    /// Neither side can ever give mate (dead material).
    #[pyo3(name = "INSUFFICIENT_MATERIAL")]
    InsufficientMaterial,
    /// 100 plies without a capture or a pawn move (in Chessence: capture or drop).
    #[pyo3(name = "FIFTY_MOVES")]
    FiftyMoves,
    /// The same position for the third time.
    #[pyo3(name = "THREEFOLD_REPETITION")]
    ThreefoldRepetition,
    /// A player resigned (never said by the rules).
    #[pyo3(name = "RESIGNATION")]
    Resignation,
    /// A player ran out of time (never said by the rules).
    #[pyo3(name = "TIMEOUT")]
    Timeout,
    /// The players agreed to a draw (never said by the rules).
    #[pyo3(name = "AGREEMENT")]
    Agreement,
    /// A player left the game (never said by the rules).
    #[pyo3(name = "ABANDONED")]
    Abandoned,
}

impl Termination {
    /// The member's Python name (`CHECKMATE`).
    fn py_name(self) -> &'static str {
        match self {
            Termination::Checkmate => "CHECKMATE",
            Termination::Stalemate => "STALEMATE",
            Termination::NoLegalMoves => "NO_LEGAL_MOVES",
            Termination::InsufficientMaterial => "INSUFFICIENT_MATERIAL",
            Termination::FiftyMoves => "FIFTY_MOVES",
            Termination::ThreefoldRepetition => "THREEFOLD_REPETITION",
            Termination::Resignation => "RESIGNATION",
            Termination::Timeout => "TIMEOUT",
            Termination::Agreement => "AGREEMENT",
            Termination::Abandoned => "ABANDONED",
        }
    }
}

#[pymethods]
impl Termination {
    /// The member's name, as an `enum.Enum` member has it (`"CHECKMATE"`).
    #[getter]
    fn name(&self) -> &'static str {
        self.py_name()
    }
}

impl From<EndReason> for Termination {
    fn from(r: EndReason) -> Termination {
        match r {
            EndReason::Checkmate => Termination::Checkmate,
            EndReason::Stalemate => Termination::Stalemate,
            EndReason::NoLegalMoves => Termination::NoLegalMoves,
            EndReason::DeadMaterial => Termination::InsufficientMaterial,
            EndReason::HundredPlies => Termination::FiftyMoves,
            EndReason::Repetition => Termination::ThreefoldRepetition,
            EndReason::Resignation => Termination::Resignation,
            EndReason::Timeout => Termination::Timeout,
            EndReason::Agreement => Termination::Agreement,
            EndReason::Abandoned => Termination::Abandoned,
        }
    }
}

/// The end of a game: how (`termination`) and who won (`winner`: `True`
/// for White, `False` for Black, `None` for a draw).
#[pyclass(module = "tensorchess", frozen, eq)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    inner: tensorchess_rules::Outcome,
}

impl From<tensorchess_rules::Outcome> for Outcome {
    fn from(inner: tensorchess_rules::Outcome) -> Outcome {
        Outcome { inner }
    }
}

#[pymethods]
impl Outcome {
    /// How the game ended.
    #[getter]
    fn termination(&self) -> Termination {
        self.inner.reason().into()
    }

    /// `True` if White won, `False` if Black won, `None` for a draw.
    #[getter]
    fn winner(&self) -> Option<bool> {
        self.inner.winner().map(|c| c == Color::White)
    }

    /// How the game ended, in English (`"checkmate"`, `"threefold repetition"`).
    #[getter]
    fn reason(&self) -> &'static str {
        self.inner.reason().describe()
    }

    /// The PGN result: `"1-0"`, `"0-1"` or `"1/2-1/2"`.
    fn result(&self) -> &'static str {
        self.inner.result_str()
    }

    fn __repr__(&self) -> String {
        let winner = match self.inner.winner() {
            Some(Color::White) => "True",
            Some(Color::Black) => "False",
            None => "None",
        };
        format!(
            "Outcome(termination=Termination.{}, winner={winner})",
            self.termination().py_name()
        )
    }
}
