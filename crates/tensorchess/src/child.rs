//! Ending child processes: the engines of a match, the server under load.

use std::process::Child;
use std::time::{Duration, Instant};

/// Gives a child that was asked to exit `grace` to do so (checking every
/// `poll`), then kills it; either way it is reaped.
pub fn wait_or_kill(child: &mut Child, grace: Duration, poll: Duration) {
    let deadline = Instant::now() + grace;
    while Instant::now() < deadline {
        if let Ok(Some(_)) = child.try_wait() {
            return;
        }
        std::thread::sleep(poll);
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// Kills and reaps a child that is still running (for `Drop`).
pub fn kill_if_running(child: &mut Child) {
    if let Ok(None) = child.try_wait() {
        let _ = child.kill();
        let _ = child.wait();
    }
}
