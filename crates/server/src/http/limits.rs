//! Limits that keep a public server usable: only the allowed `Host` names
//! are served (so a page elsewhere cannot reach this server through DNS
//! rebinding).

use crate::error::AppError;
use crate::AppState;
use axum::extract::{Request, State};
use axum::http::header;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// The host name of a `Host` header value, without its port, lower case
/// (`[::1]:8080` gives `[::1]`).
pub fn host_name(value: &str) -> String {
    let value = value.trim();
    let name = if value.starts_with('[') {
        value.split_inclusive(']').next().unwrap_or(value)
    } else {
        value.rsplit_once(':').map_or(value, |(h, port)| {
            if port.bytes().all(|b| b.is_ascii_digit()) {
                h
            } else {
                value
            }
        })
    };
    name.to_ascii_lowercase()
}

/// The names served by default: the loopback ones, and the address the
/// server listens on.
pub fn default_hosts(listen: &str) -> Vec<String> {
    let mut hosts: Vec<String> = ["localhost", "127.0.0.1", "[::1]"]
        .into_iter()
        .map(String::from)
        .collect();
    let listen = match listen.trim().parse::<std::net::IpAddr>() {
        Ok(std::net::IpAddr::V6(ip)) => format!("[{ip}]"),
        Ok(ip) => ip.to_string(),
        Err(_) => host_name(listen),
    };
    if !hosts.contains(&listen) {
        hosts.push(listen);
    }
    hosts
}

/// Answers 421 to a request for a host this server does not serve.
pub async fn allowed_host(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let allowed = &state.games.config().allowed_hosts;
    if allowed.is_empty() {
        return next.run(request).await;
    }
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .map(host_name)
        .or_else(|| request.uri().host().map(host_name));
    match host {
        Some(h) if allowed.contains(&h) => next.run(request).await,
        Some(h) => AppError::MisdirectedHost(format!(
            "This server does not serve the host '{}': start it with --allowed-host {0} to allow it",
            h.chars().take(64).collect::<String>()
        ))
        .into_response(),
        None => AppError::bad("The request names no host").into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_names_drop_their_port() {
        assert_eq!(host_name("Example.org:8080"), "example.org");
        assert_eq!(host_name("localhost"), "localhost");
        assert_eq!(host_name("[::1]:8080"), "[::1]");
        assert_eq!(host_name("[::1]"), "[::1]");
        assert!(default_hosts("0.0.0.0").contains(&"0.0.0.0".to_string()));
        assert!(default_hosts("::").contains(&"[::]".to_string()));
        assert_eq!(default_hosts("127.0.0.1").len(), 3);
    }
}
