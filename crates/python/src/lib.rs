//! The Python package `tensorchess`: the rules and the engine of Tensor
//! Chess, orthodox chess and Chessence for Python, in python-chess's shape.
//!
//! This crate builds the extension module `tensorchess._tensorchess`
//! (PyO3, abi3 for CPython 3.9 and later); `python/tensorchess/` holds the
//! package around it, its type stub and `py.typed`. Build a wheel with
//! `maturin build --release` here; `docs/python.md` shows its use and
//! `scripts/python-tests.sh` tests it.
//!
//! Every error a caller can cause is raised as an exception carrying the
//! rules crate's reason; a panic (a bug) is caught at the boundary and
//! raised as `InternalError`. Perft and searches run with the GIL released.

mod board;
mod engine;
mod errors;
mod guard;
mod outcome;
mod pgn;
mod score;

use pyo3::prelude::*;
use tensorchess_rules::VariantKind;

/// The module `tensorchess._tensorchess`, re-exported by `tensorchess`.
#[pymodule]
fn _tensorchess(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("WHITE", true)?;
    m.add("BLACK", false)?;
    let variants: Vec<&str> = VariantKind::ALL.iter().map(|k| k.name()).collect();
    m.add("VARIANTS", variants)?;
    m.add_class::<board::Board>()?;
    m.add_class::<outcome::Outcome>()?;
    m.add_class::<outcome::Termination>()?;
    m.add_class::<engine::Engine>()?;
    m.add_class::<engine::Analysis>()?;
    m.add_class::<engine::Line>()?;
    m.add_class::<score::Score>()?;
    m.add_class::<score::PovScore>()?;
    m.add_class::<pgn::Game>()?;
    m.add_function(wrap_pyfunction!(pgn::read_pgn, m)?)?;
    errors::register(m)?;
    Ok(())
}
