//! Accepting connections with limits that hold on a public network: a
//! request whose headers are not complete within a few seconds is closed
//! (so are idle keep-alive connections: the same timer runs while one
//! waits for its next request); at most so many connections per client
//! address and in all, below the process's file limit, past which a new
//! connection gets a short 503 and is closed at once rather than starving
//! the others. WebSockets, once upgraded, keep their own ping and idle
//! rules (`ws.rs`).

use crate::kind::Kind;
use crate::metrics::{Gauge, Metrics};
use crate::{app, AppState};
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::collections::HashMap;
use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tower::ServiceExt;

use crate::config::open_files_limit;
pub use crate::config::ConnectionLimits;

/// Raises the soft limit of open files to the hard limit (a server holds
/// a descriptor per connection); returns the limit now in force.
pub fn raise_open_files_limit() -> u64 {
    #[cfg(unix)]
    {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit and setrlimit only read and write the struct given.
        unsafe {
            if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0
                && limit.rlim_cur < limit.rlim_max
            {
                let wanted = libc::rlimit {
                    rlim_cur: limit.rlim_max,
                    rlim_max: limit.rlim_max,
                };
                if libc::setrlimit(libc::RLIMIT_NOFILE, &wanted) != 0 {
                    tracing::warn!("cannot raise the open files limit");
                }
            }
        }
    }
    open_files_limit()
}

/// Connections open now, by client and in all.
#[derive(Default)]
struct Counts {
    total: usize,
    by_client: HashMap<IpAddr, usize>,
}

/// A connection let in; counted out when dropped.
struct Admitted {
    counts: Arc<Mutex<Counts>>,
    client: IpAddr,
}

impl Drop for Admitted {
    fn drop(&mut self) {
        let mut c = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        c.total -= 1;
        if let Some(n) = c.by_client.get_mut(&self.client) {
            *n -= 1;
            if *n == 0 {
                c.by_client.remove(&self.client);
            }
        }
    }
}

/// Lets a connection from `client` in, or says why not. An `exempt` client
/// (a trusted proxy, or loopback with `--trusted-local`) counts only in
/// the total.
fn admit(
    counts: &Arc<Mutex<Counts>>,
    limits: &ConnectionLimits,
    client: IpAddr,
    exempt: bool,
) -> Result<Admitted, &'static str> {
    let mut c = counts.lock().unwrap_or_else(|e| e.into_inner());
    if c.total >= limits.total {
        return Err("The server has too many connections: try again in a moment");
    }
    let client = crate::client::limit_key(client);
    let mine = c.by_client.get(&client).copied().unwrap_or(0);
    if !exempt && mine >= limits.per_client {
        return Err("Too many connections from your address: close some and try again");
    }
    c.total += 1;
    *c.by_client.entry(client).or_insert(0) += 1;
    Ok(Admitted {
        counts: counts.clone(),
        client,
    })
}

/// Answers a connection that is not let in with a short 503 (JSON, like
/// every error) and closes it, without waiting on the client.
fn refuse(stream: tokio::net::TcpStream, why: &'static str) {
    let body = serde_json::to_string(&super::error::ErrorBody::plain(why, Kind::Overloaded))
        .unwrap_or_default();
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n\
         retry-after: 5\r\nconnection: close\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    // Best effort: a full socket buffer or a gone client loses the answer.
    let _ = stream.try_write(answer.as_bytes());
}

/// Serves until `signal` completes, then stops searches, closes WebSockets
/// and lets requests in flight finish (their moves are stored).
pub async fn serve(
    listener: tokio::net::TcpListener,
    state: AppState,
    signal: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let limits = state.games.config().connections;
    let proxies = state.games.config().proxies.clone();
    let router = app(state.clone());
    let counts = Arc::new(Mutex::new(Counts::default()));
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .keep_alive(true);
    tokio::pin!(signal);
    loop {
        tokio::select! {
            _ = &mut signal => break,
            accepted = listener.accept() => {
                let (stream, addr) = match accepted {
                    Ok(a) => a,
                    Err(e) => {
                        // Out of descriptors, or a connection reset before
                        // it was accepted: wait a moment rather than spin.
                        tracing::warn!("accept: {e}");
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        continue;
                    }
                };
                let peer = addr.ip();
                let exempt = proxies.is_trusted(peer) || proxies.is_exempt(peer);
                let admitted = match admit(&counts, &limits, peer, exempt) {
                    Ok(a) => a,
                    Err(why) => {
                        Metrics::count(&state.metrics.overloaded);
                        refuse(stream, why);
                        continue;
                    }
                };
                let gauge = Gauge::hold(&state.metrics, |m| &m.connections);
                let _ = stream.set_nodelay(true);
                let service = router.clone().map_request(move |mut req: hyper::Request<Incoming>| {
                    req.extensions_mut().insert(ConnectInfo::<SocketAddr>(addr));
                    req
                });
                let conn = http
                    .serve_connection(TokioIo::new(stream), TowerToHyperService::new(service))
                    .with_upgrades();
                let mut stopped = stopped.clone();
                tokio::spawn(async move {
                    let _admitted = (admitted, gauge);
                    tokio::pin!(conn);
                    let result = tokio::select! {
                        r = conn.as_mut() => r,
                        _ = async { stopped.wait_for(|s| *s).await.map(|_| ()) } => {
                            // Finish the request in flight, then close.
                            conn.as_mut().graceful_shutdown();
                            conn.await
                        }
                    };
                    if let Err(e) = result {
                        tracing::debug!("connection from {addr}: {e}");
                    }
                });
            }
        }
    }
    drop(listener);
    state.shutdown();
    let _ = stop.send(true);
    // Requests in flight finish (a move being stored is answered); the
    // rest are closed after a while.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while counts.lock().unwrap_or_else(|e| e.into_inner()).total > 0 {
        if tokio::time::Instant::now() >= deadline {
            tracing::warn!("some connections did not close in time");
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    state.close().await;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::total_for;

    #[test]
    fn connections_are_capped_per_client_and_in_all() {
        let limits = ConnectionLimits {
            header_timeout: Duration::from_secs(1),
            per_client: 2,
            total: 4,
        };
        let counts = Arc::new(Mutex::new(Counts::default()));
        let a: IpAddr = "203.0.113.1".parse().unwrap();
        let b: IpAddr = "203.0.113.2".parse().unwrap();
        let a1 = admit(&counts, &limits, a, false).unwrap();
        let _a2 = admit(&counts, &limits, a, false).unwrap();
        assert!(
            admit(&counts, &limits, a, false).is_err(),
            "a third from one address"
        );
        let _p = admit(&counts, &limits, a, true).unwrap();
        let _b1 = admit(&counts, &limits, b, false).unwrap();
        assert!(
            admit(&counts, &limits, b, true).is_err(),
            "the total is reached, exempt or not"
        );
        drop(a1);
        assert!(
            admit(&counts, &limits, b, false).is_ok(),
            "a closed one frees its place"
        );
        // One IPv6 subscriber's /64 is one client.
        let v6 = |s: &str| s.parse::<IpAddr>().unwrap();
        let counts = Arc::new(Mutex::new(Counts::default()));
        let _x = admit(&counts, &limits, v6("2001:db8::1"), false).unwrap();
        let _y = admit(&counts, &limits, v6("2001:db8::2"), false).unwrap();
        assert!(admit(&counts, &limits, v6("2001:db8::3"), false).is_err());
        assert!(admit(&counts, &limits, v6("2001:db8:0:1::1"), false).is_ok());
        assert!(total_for(1024) < 1024 && total_for(0) >= 16);
    }
}
