//! `tensorchess.Score` and `tensorchess.PovScore`: engine scores in
//! python-chess's shape. A `Score` is seen from one side; a `PovScore`
//! is a score with the side it is seen from (the side to move of the
//! analysed position), and answers from either side's point of view.

use pyo3::prelude::*;
use tensorchess_engine::Eval;

/// A score from one side's point of view: centipawns, or moves to mate.
#[pyclass(module = "tensorchess", frozen, eq, ord, hash)]
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Score {
    eval: i32,
}

impl From<Eval> for Score {
    fn from(e: Eval) -> Score {
        Score { eval: e.0 }
    }
}

impl Score {
    fn inner(self) -> Eval {
        Eval(self.eval)
    }
}

#[pymethods]
impl Score {
    /// Centipawns, or `None` for a mate score. With `mate_score`, a mate
    /// in n moves counts as `mate_score - n` (being mated: `-mate_score + n`).
    #[pyo3(signature = (*, mate_score = None))]
    fn score(&self, mate_score: Option<i64>) -> Option<i64> {
        match (self.inner().mate_moves(), mate_score) {
            (None, _) => Some(self.eval as i64),
            (Some(_), None) => None,
            (Some(m), Some(ms)) if self.eval > 0 => Some(ms - m as i64),
            (Some(m), Some(ms)) => Some(-ms - m as i64),
        }
    }

    /// Moves to mate: positive when giving mate, negative when being mated,
    /// `0` when mated on the board; `None` for a centipawn score.
    fn mate(&self) -> Option<i32> {
        self.inner().mate_moves()
    }

    /// Whether this is a mate score.
    fn is_mate(&self) -> bool {
        self.inner().is_mate()
    }

    fn __neg__(&self) -> Score {
        Score { eval: -self.eval }
    }

    /// `+35`, `-12`, `#+3` (mate in 3), `#-2` (mated in 2).
    fn __str__(&self) -> String {
        match self.inner().mate_moves() {
            Some(m) if self.eval > 0 => format!("#+{m}"),
            Some(m) => format!("#-{}", m.abs()),
            None => format!("{:+}", self.eval),
        }
    }

    /// `Cp(+35)` or `Mate(+3)`, as python-chess writes them.
    fn __repr__(&self) -> String {
        match self.inner().mate_moves() {
            Some(m) if self.eval > 0 => format!("Mate(+{m})"),
            Some(m) => format!("Mate(-{})", m.abs()),
            None => format!("Cp({:+})", self.eval),
        }
    }
}

/// A score together with the side whose point of view it is from.
#[pyclass(module = "tensorchess", frozen, eq)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PovScore {
    /// From the side to move's point of view.
    relative: Score,
    /// The side to move: true for White.
    turn: bool,
}

impl PovScore {
    /// `e`, seen from the side to move `white_to_move` names.
    pub(crate) fn new(e: Eval, white_to_move: bool) -> PovScore {
        PovScore {
            relative: e.into(),
            turn: white_to_move,
        }
    }
}

#[pymethods]
impl PovScore {
    /// The score from the side to move's point of view.
    #[getter]
    fn relative(&self) -> Score {
        self.relative
    }

    /// The side to move of the analysed position (`True`: White).
    #[getter]
    fn turn(&self) -> bool {
        self.turn
    }

    /// The score from `color`'s point of view (`True`: White).
    fn pov(&self, color: bool) -> Score {
        if color == self.turn {
            self.relative
        } else {
            self.relative.__neg__()
        }
    }

    /// The score from White's point of view.
    fn white(&self) -> Score {
        self.pov(true)
    }

    /// The score from Black's point of view.
    fn black(&self) -> Score {
        self.pov(false)
    }

    /// Whether this is a mate score.
    fn is_mate(&self) -> bool {
        self.relative.is_mate()
    }

    fn __str__(&self) -> String {
        self.relative.__str__()
    }

    /// `PovScore(Cp(+35), WHITE)`, as python-chess writes it.
    pub(crate) fn __repr__(&self) -> String {
        let side = if self.turn { "WHITE" } else { "BLACK" };
        format!("PovScore({}, {side})", self.relative.__repr__())
    }
}
