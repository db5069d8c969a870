//! Where the engine writes: shared by the reader and the search thread.

use std::io::Write;
use std::sync::{Arc, Mutex};

/// A line-oriented writer that both UCI threads may use.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    /// An output writing to `w` (standard output, or a buffer in tests).
    pub fn new<W: Write + Send + 'static>(w: W) -> Output {
        Output(Arc::new(Mutex::new(Box::new(w))))
    }

    /// Writes one line and flushes. A closed output is ignored (the GUI went away).
    pub fn line(&self, text: &str) {
        let mut w = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let _ = writeln!(w, "{text}");
        let _ = w.flush();
    }

    /// Writes `text` as `info string` lines, one per line of it.
    pub fn info_string(&self, text: &str) {
        for l in text.lines() {
            self.line(&format!("info string {l}"));
        }
    }
}
