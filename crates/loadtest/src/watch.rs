//! While the games run: progress every 5 s, each instance's memory and CPU
//! sampled every 200 ms, instance 0 killed at `--kill-after`, and the run
//! cut at its deadline (the players stop themselves there; a grace period
//! later the stragglers are aborted, so the tool always ends).

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};
use tokio::task::JoinHandle;

use crate::instances::{Cluster, Route};
use crate::play::Common;

/// What happened while watching.
pub(crate) struct Watched {
    pub(crate) play_s: f64,
    /// Players still running at the deadline (aborted).
    pub(crate) cut: u64,
    /// When instance 0 was killed: (seconds into play, acknowledged moves).
    pub(crate) killed: Option<(f64, u64)>,
}

/// Players that outlive the deadline by this much are aborted.
const GRACE: Duration = Duration::from_secs(5);

pub(crate) async fn watch(
    cluster: &mut Cluster,
    route: &Route,
    common: &Common,
    players: Vec<JoinHandle<()>>,
    kill_after: Option<f64>,
) -> Watched {
    let t_play = Instant::now();
    let mut last_report = Instant::now();
    let mut killed = None;
    let mut cut = 0;
    loop {
        cluster.sample();
        let left = common.live.players_left.load(Ordering::Relaxed);
        if left == 0 {
            break;
        }
        if let (Some(after), None) = (kill_after, killed) {
            if t_play.elapsed().as_secs_f64() >= after {
                let moves = common.live.moves.load(Ordering::Relaxed);
                match cluster.kill(0, route) {
                    Ok(()) => eprintln!(
                        "loadtest: killed instance 0 (SIGKILL) after {moves} acknowledged moves"
                    ),
                    Err(e) => eprintln!("loadtest: could not kill instance 0: {e}"),
                }
                killed = Some((t_play.elapsed().as_secs_f64(), moves));
            }
        }
        if Instant::now() > common.deadline + GRACE {
            for h in &players {
                h.abort();
            }
            cut = left;
            eprintln!("loadtest: the time limit ran out with {left} clients still playing");
            break;
        }
        if last_report.elapsed() > Duration::from_secs(5) {
            last_report = Instant::now();
            let n = common.live.moves.load(Ordering::Relaxed);
            let r = common.live.reconnects.load(Ordering::Relaxed);
            let s = t_play.elapsed().as_secs_f64();
            eprintln!(
                "  {s:>5.0} s: {n} moves, {left} clients playing, {:.0} moves/s{}",
                n as f64 / s,
                if r > 0 {
                    format!(", {r} reconnections")
                } else {
                    String::new()
                }
            );
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let play_s = t_play.elapsed().as_secs_f64();
    for h in players {
        let _ = h.await;
    }
    Watched {
        play_s,
        cut,
        killed,
    }
}
