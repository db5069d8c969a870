//! The package's exceptions, and the rules crate's errors turned into them.
//!
//! Every error a caller can cause is a `TensorChessError` (a `ValueError`)
//! carrying the rules crate's reason: an illegal move says why in its
//! message and in its `code`, `reason` and `details` attributes. A panic
//! inside the Rust code (a bug) is caught before it reaches Python and
//! raised as `InternalError` (a `RuntimeError`).

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use pyo3::{create_exception, PyErr};
use std::any::Any;
use tensorchess_rules::pgn::PgnError;
use tensorchess_rules::san::SanError;
use tensorchess_rules::uci::ParseMoveError;
use tensorchess_rules::{IllegalReason, ParseFenError, ParseVariantError};

create_exception!(
    tensorchess,
    TensorChessError,
    PyValueError,
    "Base class of the errors bad input causes (a ValueError)."
);
create_exception!(
    tensorchess,
    InvalidMoveError,
    TensorChessError,
    "Text that is not a move at all: neither a move string nor SAN of this board."
);
create_exception!(
    tensorchess,
    IllegalMoveError,
    TensorChessError,
    "A well-formed move the rules forbid here; `code`, `reason` and `details` say why."
);
create_exception!(
    tensorchess,
    AmbiguousMoveError,
    TensorChessError,
    "SAN that several legal moves match; `options` lists them."
);
create_exception!(
    tensorchess,
    InvalidFenError,
    TensorChessError,
    "A FEN that cannot be read; `field` names the wrong part."
);
create_exception!(
    tensorchess,
    InvalidPgnError,
    TensorChessError,
    "PGN that cannot be read or replayed."
);
create_exception!(
    tensorchess,
    UnknownVariantError,
    TensorChessError,
    "A game name other than tensor, chess or chessence."
);
create_exception!(
    tensorchess,
    GameOverError,
    TensorChessError,
    "The side to move has no legal move, so there is no move to find."
);
create_exception!(
    tensorchess,
    InternalError,
    PyRuntimeError,
    "A bug in tensorchess (a Rust panic caught at the boundary)."
);

/// Sets attributes on the exception an error will raise (an error in doing
/// so is raised instead).
fn decorate(
    py: Python<'_>,
    err: PyErr,
    set: impl FnOnce(&Bound<'_, pyo3::exceptions::PyBaseException>) -> PyResult<()>,
) -> PyErr {
    match set(err.value(py)) {
        Ok(()) => err,
        Err(e) => e,
    }
}

/// `IllegalMoveError` for `text`, with the reason's code, sentence and details.
pub fn illegal(py: Python<'_>, text: &str, reason: &IllegalReason) -> PyErr {
    let err = IllegalMoveError::new_err(format!("illegal move {text}: {reason}"));
    decorate(py, err, |v| {
        v.setattr("move", text)?;
        v.setattr("code", reason.code())?;
        v.setattr("reason", reason.to_string())?;
        let details = PyDict::new(py);
        for (k, val) in reason.args() {
            details.set_item(k, val)?;
        }
        v.setattr("details", details)
    })
}

/// `InvalidMoveError` for `text`, with the message given.
fn invalid(py: Python<'_>, text: &str, message: String) -> PyErr {
    decorate(py, InvalidMoveError::new_err(message), |v| {
        v.setattr("move", text)
    })
}

/// The Python error for a move string that cannot be played.
pub fn move_error(py: Python<'_>, e: ParseMoveError) -> PyErr {
    match e {
        ParseMoveError::Illegal { text, reason } => illegal(py, &text, &reason),
        ParseMoveError::Syntax { ref text, .. } => invalid(py, text, e.to_string()),
    }
}

/// The Python error for SAN (or a move string) that names no single legal move.
pub fn san_error(py: Python<'_>, e: SanError) -> PyErr {
    match e {
        SanError::Illegal(text, reason) => illegal(py, &text, &reason),
        SanError::Syntax(ref text) => invalid(py, text, e.to_string()),
        SanError::Ambiguous(ref text, ref options) => {
            decorate(py, AmbiguousMoveError::new_err(e.to_string()), |v| {
                v.setattr("move", text)?;
                v.setattr("options", options.split(" or ").collect::<Vec<_>>())
            })
        }
    }
}

/// The Python error for a FEN that cannot be read.
pub fn fen_error(py: Python<'_>, e: ParseFenError) -> PyErr {
    decorate(py, InvalidFenError::new_err(e.to_string()), |v| {
        v.setattr("field", e.field.to_string())?;
        v.setattr("reason", &e.reason)
    })
}

/// The Python error for PGN that cannot be read or replayed.
pub fn pgn_error(e: PgnError) -> PyErr {
    InvalidPgnError::new_err(e.to_string())
}

/// The Python error for an unknown game name.
pub fn variant_error(e: ParseVariantError) -> PyErr {
    UnknownVariantError::new_err(e.to_string())
}

/// `InternalError` for a caught panic, with its message when it has one.
pub fn panic_error(payload: Box<dyn Any + Send>) -> PyErr {
    let what = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".into());
    InternalError::new_err(format!(
        "internal error in tensorchess (please report it): {what}"
    ))
}

/// Registers the exceptions in the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("TensorChessError", py.get_type::<TensorChessError>())?;
    m.add("InvalidMoveError", py.get_type::<InvalidMoveError>())?;
    m.add("IllegalMoveError", py.get_type::<IllegalMoveError>())?;
    m.add("AmbiguousMoveError", py.get_type::<AmbiguousMoveError>())?;
    m.add("InvalidFenError", py.get_type::<InvalidFenError>())?;
    m.add("InvalidPgnError", py.get_type::<InvalidPgnError>())?;
    m.add("UnknownVariantError", py.get_type::<UnknownVariantError>())?;
    m.add("GameOverError", py.get_type::<GameOverError>())?;
    m.add("InternalError", py.get_type::<InternalError>())?;
    Ok(())
}
