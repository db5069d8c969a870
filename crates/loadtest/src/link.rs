//! A player's way back after its connection broke: with several instances,
//! to another live one (as a page behind a load balancer would be sent),
//! backing off briefly between tries and giving up after
//! [`RECONNECT_FOR`]. With one instance there is nowhere to go, and the
//! player stops there, as before (a single-server kill test).

use rand::Rng;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use crate::http::{open_socket, Ws};
use crate::play::Player;
use crate::Error;

/// How long a player keeps trying to reconnect.
pub(crate) const RECONNECT_FOR: Duration = Duration::from_secs(10);
/// One try's limit (a server that accepts but never answers).
const TRY_FOR: Duration = Duration::from_secs(3);
/// Reconnections of one player beyond which something is wrong with the
/// servers rather than with one of them.
const MAX_RECONNECTS: usize = 5;

impl Player {
    /// A new socket, subscribed to the game, on a live instance; the broken
    /// connection's state is forgotten (the snapshot will say where the
    /// game stands).
    pub(crate) async fn reconnect(&mut self, why: String) -> Result<Ws, Error> {
        let route = self.c.route.clone();
        if route.len() < 2 {
            return Err(format!("the connection broke off: {why}").into());
        }
        if self.reconnects >= MAX_RECONNECTS {
            return Err(format!(
                "the connection broke off again ({why}) after {MAX_RECONNECTS} reconnections"
            )
            .into());
        }
        self.forget_connection();
        let start = Instant::now();
        // A little jitter, so that the clients of a dead instance do not
        // all knock at the same instant.
        let mut delay = Duration::from_millis(self.pace.random_range(50..=250));
        let mut last = String::from("no live instance");
        loop {
            tokio::time::sleep(delay).await;
            for i in route.reconnect_order(self.side.instance) {
                let addr = route.addrs[i];
                let tried = tokio::time::timeout(
                    TRY_FOR,
                    open_socket(addr, &self.side.cookie, &self.side.game),
                )
                .await;
                match tried {
                    Ok(Ok(ws)) => {
                        self.side.instance = i;
                        self.reconnects += 1;
                        self.c.live.reconnects.fetch_add(1, Ordering::Relaxed);
                        return Ok(ws);
                    }
                    Ok(Err(e)) => last = format!("instance {i} ({addr}): {e}"),
                    Err(_) => last = format!("instance {i} ({addr}): no answer in {TRY_FOR:?}"),
                }
            }
            if start.elapsed() >= RECONNECT_FOR || Instant::now() >= self.c.deadline {
                return Err(format!(
                    "the connection broke off ({why}) and no instance took it back within {} s: {last}",
                    RECONNECT_FOR.as_secs()
                )
                .into());
            }
            delay = (delay * 2).min(Duration::from_secs(1));
        }
    }
}
