//! The bridge's HTTP client: reqwest over HTTP/1.1, TLS by rustls for an
//! `https://` server ([`super::tls`]: the web's roots, or `--ca-file`'s).
//! JSON or form requests, and NDJSON streams read line by line as their
//! chunks come. Connections are kept and reused between requests; a
//! stream holds one of its own while it is followed.

use std::path::Path;
use std::time::Duration;

/// How long connecting, and a whole ordinary request (or a stream's
/// answer head), may take.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// Why a request failed.
#[derive(Debug, thiserror::Error)]
pub enum HttpError {
    /// Connecting, sending or reading failed (the server may be down).
    #[error("{0}")]
    Io(String),
    /// The server answered with this status and body.
    #[error("HTTP {status}: {body}")]
    Status {
        /// The status code.
        status: u16,
        /// The answer's body (a JSON refusal).
        body: String,
    },
}

impl From<reqwest::Error> for HttpError {
    /// The error with its causes (reqwest's own line names only the URL:
    /// the certificate refused or the connection reset is in its sources).
    fn from(e: reqwest::Error) -> Self {
        let mut text = e.to_string();
        let mut source = std::error::Error::source(&e);
        while let Some(s) = source {
            text.push_str(": ");
            text.push_str(&s.to_string());
            source = s.source();
        }
        HttpError::Io(text)
    }
}

/// A server, and the token every request carries.
#[derive(Clone, Debug)]
pub struct Server {
    /// `scheme://host[:port]` and the path every route is under, without a
    /// trailing `/`: a route's path is appended.
    base: String,
    /// `host:port` it connects to.
    addr: String,
    /// Whether it is an `https://` server.
    tls: bool,
    token: String,
    client: reqwest::Client,
}

impl Server {
    /// A server from its URL (`http://host[:port][/prefix]`, or
    /// `https://`, checked against the web's root certificates).
    pub fn new(url: &str, token: &str) -> Result<Server, String> {
        Server::with_ca(url, token, None)
    }

    /// A server from its URL; an `https://` one's certificate is checked
    /// against those of `ca_file` (PEM) when it is given.
    pub fn with_ca(url: &str, token: &str, ca_file: Option<&Path>) -> Result<Server, String> {
        let tls = if url.starts_with("https://") {
            true
        } else if url.starts_with("http://") {
            false
        } else {
            return Err(format!(
                "'{url}': give the server as http://host:port or https://host"
            ));
        };
        let parsed = reqwest::Url::parse(url).map_err(|e| format!("'{url}': {e}"))?;
        let host = match parsed.host_str() {
            Some(h) if !h.is_empty() => h,
            _ => return Err(format!("'{url}' names no host")),
        };
        let port = parsed.port_or_known_default().unwrap_or(80);
        let origin = match parsed.port() {
            Some(p) => format!("{}://{host}:{p}", parsed.scheme()),
            None => format!("{}://{host}", parsed.scheme()),
        };
        // A plain server gets the web's roots too: reqwest wants a TLS
        // configuration either way, and `--ca-file` matters only for TLS.
        let config = super::tls::client_config(if tls { ca_file } else { None })?;
        let client = reqwest::Client::builder()
            .tls_backend_preconfigured(config)
            .http1_only()
            .no_proxy()
            .tcp_nodelay(true)
            .connect_timeout(REQUEST_TIMEOUT)
            .build()
            .map_err(|e| format!("an HTTP client: {}", HttpError::from(e)))?;
        Ok(Server {
            base: format!("{origin}{}", parsed.path().trim_end_matches('/')),
            addr: format!("{host}:{port}"),
            tls,
            token: token.to_string(),
            client,
        })
    }

    /// Whether requests go over TLS.
    pub fn is_tls(&self) -> bool {
        self.tls
    }

    /// Where it connects: `host:port`.
    pub fn addr(&self) -> &str {
        &self.addr
    }

    /// A request to `path` (under the server's prefix) with the token, the
    /// answers the bridge reads, and `body` (content type and text).
    fn build(
        &self,
        method: &str,
        path: &str,
        body: Option<(&str, &str)>,
    ) -> Result<reqwest::RequestBuilder, HttpError> {
        let method = reqwest::Method::from_bytes(method.as_bytes())
            .map_err(|_| HttpError::Io(format!("'{method}' is not an HTTP method")))?;
        let mut request = self
            .client
            .request(method, format!("{}{path}", self.base))
            .bearer_auth(&self.token)
            .header(
                reqwest::header::ACCEPT,
                "application/json, application/x-ndjson",
            );
        if let Some((content_type, data)) = body {
            request = request
                .header(reqwest::header::CONTENT_TYPE, content_type)
                .body(data.to_string());
        }
        Ok(request)
    }

    /// A request; the answer's body when its status is 2xx.
    pub async fn request(
        &self,
        method: &str,
        path: &str,
        body: Option<(&str, &str)>,
    ) -> Result<String, HttpError> {
        let answer = self
            .build(method, path, body)?
            .timeout(REQUEST_TIMEOUT)
            .send()
            .await?;
        let status = answer.status().as_u16();
        let text = answer.text().await?;
        if (200..300).contains(&status) {
            Ok(text)
        } else {
            Err(HttpError::Status { status, body: text })
        }
    }

    /// A POST with a JSON body (or none).
    pub async fn post(
        &self,
        path: &str,
        json: Option<&serde_json::Value>,
    ) -> Result<String, HttpError> {
        match json {
            Some(v) => {
                self.request("POST", path, Some(("application/json", &v.to_string())))
                    .await
            }
            None => self.request("POST", path, None).await,
        }
    }

    /// A GET of JSON.
    pub async fn get(&self, path: &str) -> Result<serde_json::Value, HttpError> {
        let text = self.request("GET", path, None).await?;
        serde_json::from_str(&text).map_err(|e| HttpError::Io(format!("not JSON: {e}")))
    }

    /// An NDJSON stream. Only its answer's head must come in time: the
    /// stream itself lasts as long as the server keeps it (the caller
    /// watches for silence).
    pub async fn stream(&self, path: &str) -> Result<Lines, HttpError> {
        let answer = tokio::time::timeout(REQUEST_TIMEOUT, self.build("GET", path, None)?.send())
            .await
            .map_err(|_| HttpError::Io(format!("GET {path} timed out")))??;
        let status = answer.status().as_u16();
        if status != 200 {
            let body = answer.text().await.unwrap_or_default();
            return Err(HttpError::Status { status, body });
        }
        Ok(Lines {
            answer,
            buf: Vec::new(),
        })
    }
}

/// An NDJSON stream, line by line.
pub struct Lines {
    answer: reqwest::Response,
    /// What came after the last whole line.
    buf: Vec<u8>,
}

impl Lines {
    /// The next line (empty for a keep-alive); `None` when the stream ended.
    pub async fn next(&mut self) -> Result<Option<String>, HttpError> {
        loop {
            if let Some(i) = self.buf.iter().position(|b| *b == b'\n') {
                let line: Vec<u8> = self.buf.drain(..=i).collect();
                return Ok(Some(String::from_utf8_lossy(&line[..i]).trim().to_string()));
            }
            match self.answer.chunk().await? {
                Some(piece) => self.buf.extend_from_slice(&piece),
                None => return Ok(None),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_give_the_address_and_the_scheme() {
        let s = Server::new("http://127.0.0.1:8080/", "t").unwrap();
        assert_eq!(s.addr(), "127.0.0.1:8080");
        assert_eq!(s.base, "http://127.0.0.1:8080");
        assert!(!s.is_tls());
        let s = Server::new("http://example.org/chess", "t").unwrap();
        assert_eq!(s.addr(), "example.org:80");
        assert_eq!(s.base, "http://example.org/chess");
        let s = Server::new("https://example.org", "t").unwrap();
        assert_eq!(s.addr(), "example.org:443");
        assert!(s.is_tls());
        let s = Server::new("https://example.org:8443/x/", "t").unwrap();
        assert_eq!(s.addr(), "example.org:8443");
        assert_eq!(s.base, "https://example.org:8443/x");
        let s = Server::new("https://[::1]:8443", "t").unwrap();
        assert_eq!(s.addr(), "[::1]:8443");
        let s = Server::new("http://[::1]", "t").unwrap();
        assert_eq!(s.addr(), "[::1]:80");
        assert!(Server::new("ftp://example.org", "t").is_err());
        assert!(Server::new("https://", "t").is_err());
        let missing = Path::new("/nonexistent/ca.pem");
        assert!(Server::with_ca("https://localhost", "t", Some(missing)).is_err());
    }
}
