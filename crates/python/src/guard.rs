//! Running Rust work for Python: never letting a panic cross into Python,
//! and running long work (perft, search) without the GIL while Ctrl-C
//! still interrupts it.

use crate::errors::{panic_error, InternalError};
use pyo3::prelude::*;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::time::Duration;

/// Runs `f`, raising `InternalError` if it panics (a bug), so that no panic
/// reaches Python as PyO3's `PanicException`.
pub fn no_panic<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|payload| Err(panic_error(payload)))
}

/// How often a waiting call looks for signals (Ctrl-C) from Python.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// Runs long work with the GIL released, so that other Python threads run
/// meanwhile. The work runs on a thread of its own; the calling thread waits
/// for it and, every 50 ms, lets Python handle its signals: when a signal
/// handler raises (Ctrl-C's `KeyboardInterrupt`), `stop` is set, the work
/// is expected to end soon after, and the handler's exception is raised.
/// A panic in the work is raised as `InternalError`.
pub fn run_released<T: Send>(
    py: Python<'_>,
    stop: &AtomicBool,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    py.detach(|| {
        std::thread::scope(|scope| {
            let (tx, rx) = channel();
            scope.spawn(move || {
                // The receiver waits until this is sent: it cannot be gone.
                let _ = tx.send(catch_unwind(AssertUnwindSafe(work)));
            });
            let mut interrupted: Option<PyErr> = None;
            loop {
                match rx.recv_timeout(SIGNAL_POLL) {
                    Ok(done) => {
                        return match (done, interrupted) {
                            (_, Some(e)) => Err(e),
                            (Ok(v), None) => Ok(v),
                            (Err(payload), None) => Err(panic_error(payload)),
                        };
                    }
                    Err(RecvTimeoutError::Timeout) => {
                        if interrupted.is_none() {
                            if let Err(e) = Python::attach(|py| py.check_signals()) {
                                stop.store(true, Ordering::Relaxed);
                                interrupted = Some(e);
                            }
                        }
                    }
                    Err(RecvTimeoutError::Disconnected) => {
                        return Err(InternalError::new_err(
                            "internal error in tensorchess: a worker thread vanished",
                        ));
                    }
                }
            }
        })
    })
}
