//! The little HTTP/1.1 the bridge needs, over TCP or TLS (`https://`,
//! [`super::tls`]), one request per connection: JSON or form requests, and
//! NDJSON streams read line by line (chunked or not).

use super::tls::Tls;
use std::path::Path;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

/// A connection to the server: plain TCP, or TLS over it.
trait Conn: AsyncRead + AsyncWrite + Unpin + Send {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send> Conn for T {}

/// How long connecting and a whole ordinary request may take.
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

impl From<std::io::Error> for HttpError {
    fn from(e: std::io::Error) -> Self {
        HttpError::Io(e.to_string())
    }
}

/// A server, and the token every request carries.
#[derive(Clone, Debug)]
pub struct Server {
    /// `host:port` to connect to.
    addr: String,
    /// The `Host` header.
    host: String,
    /// A path every route is under (empty at the root).
    prefix: String,
    token: String,
    /// TLS, for an `https://` server.
    tls: Option<Tls>,
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
        let (secure, rest) = if let Some(rest) = url.strip_prefix("https://") {
            (true, rest)
        } else if let Some(rest) = url.strip_prefix("http://") {
            (false, rest)
        } else {
            return Err(format!(
                "'{url}': give the server as http://host:port or https://host"
            ));
        };
        let (authority, prefix) = match rest.find('/') {
            Some(i) => (&rest[..i], rest[i..].trim_end_matches('/')),
            None => (rest, ""),
        };
        if authority.is_empty() {
            return Err(format!("'{url}' names no host"));
        }
        // A port after the host (not a piece of an IPv6 address).
        let (host, port) = match authority.rsplit_once(':') {
            Some((h, p)) if !p.contains(']') && p.parse::<u16>().is_ok() => (h, Some(p)),
            _ => (authority, None),
        };
        let addr = match port {
            Some(_) => authority.to_string(),
            None => format!("{authority}:{}", if secure { 443 } else { 80 }),
        };
        let tls = if secure {
            Some(Tls::new(host, ca_file)?)
        } else {
            None
        };
        Ok(Server {
            addr,
            host: authority.to_string(),
            prefix: prefix.to_string(),
            token: token.to_string(),
            tls,
        })
    }

    /// Whether requests go over TLS.
    pub fn is_tls(&self) -> bool {
        self.tls.is_some()
    }

    /// Where it connects: `host:port`.
    pub fn addr(&self) -> &str {
        &self.addr
    }

    /// Connects, over TLS for an `https://` server.
    async fn connect(&self) -> Result<Box<dyn Conn>, HttpError> {
        let stream = TcpStream::connect(&self.addr).await?;
        stream.set_nodelay(true)?;
        Ok(match &self.tls {
            Some(tls) => Box::new(
                tls.connect(stream)
                    .await
                    .map_err(|e| HttpError::Io(format!("TLS with {}: {e}", self.addr)))?,
            ),
            None => Box::new(stream),
        })
    }

    async fn open(
        &self,
        method: &str,
        path: &str,
        body: Option<(&str, &str)>,
    ) -> Result<Reader, HttpError> {
        let mut stream = tokio::time::timeout(REQUEST_TIMEOUT, self.connect())
            .await
            .map_err(|_| HttpError::Io(format!("connecting to {} timed out", self.addr)))??;
        let mut head = format!(
            "{method} {}{path} HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {}\r\nAccept: application/json, application/x-ndjson\r\nConnection: close\r\n",
            self.prefix, self.host, self.token
        );
        let data = match body {
            Some((content_type, data)) => {
                head.push_str(&format!(
                    "Content-Type: {content_type}\r\nContent-Length: {}\r\n",
                    data.len()
                ));
                data
            }
            None => {
                head.push_str("Content-Length: 0\r\n");
                ""
            }
        };
        head.push_str("\r\n");
        head.push_str(data);
        stream.write_all(head.as_bytes()).await?;
        // TLS buffers what is written until it is flushed.
        stream.flush().await?;
        let mut reader = Reader {
            r: BufReader::new(stream),
            chunked: false,
            left: None,
            status: 0,
        };
        reader.head().await?;
        Ok(reader)
    }

    /// A request; the answer's body when its status is 2xx.
    pub async fn request(
        &self,
        method: &str,
        path: &str,
        body: Option<(&str, &str)>,
    ) -> Result<String, HttpError> {
        let work = async {
            let mut reader = self.open(method, path, body).await?;
            let text = reader.rest().await?;
            if (200..300).contains(&reader.status) {
                Ok(text)
            } else {
                Err(HttpError::Status {
                    status: reader.status,
                    body: text,
                })
            }
        };
        tokio::time::timeout(REQUEST_TIMEOUT, work)
            .await
            .map_err(|_| HttpError::Io(format!("{method} {path} timed out")))?
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

    /// An NDJSON stream.
    pub async fn stream(&self, path: &str) -> Result<Lines, HttpError> {
        let mut reader = tokio::time::timeout(REQUEST_TIMEOUT, self.open("GET", path, None))
            .await
            .map_err(|_| HttpError::Io(format!("GET {path} timed out")))??;
        if reader.status != 200 {
            let body = reader.rest().await.unwrap_or_default();
            return Err(HttpError::Status {
                status: reader.status,
                body,
            });
        }
        Ok(Lines {
            reader,
            buf: Vec::new(),
        })
    }
}

/// An answer being read.
struct Reader {
    r: BufReader<Box<dyn Conn>>,
    chunked: bool,
    /// Bytes left: of the current chunk (chunked), or of the body
    /// (`Content-Length`); `None` to the end of the connection.
    left: Option<u64>,
    status: u16,
}

impl Reader {
    async fn line(&mut self) -> Result<String, HttpError> {
        let mut line = String::new();
        if self.r.read_line(&mut line).await? == 0 {
            return Err(HttpError::Io("the connection closed".into()));
        }
        Ok(line.trim_end().to_string())
    }

    async fn head(&mut self) -> Result<(), HttpError> {
        let status = self.line().await?;
        self.status = status
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| HttpError::Io(format!("not an HTTP answer: {status}")))?;
        loop {
            let line = self.line().await?;
            if line.is_empty() {
                break;
            }
            let Some((name, value)) = line.split_once(':') else {
                continue;
            };
            let (name, value) = (name.trim().to_ascii_lowercase(), value.trim());
            if name == "transfer-encoding" && value.eq_ignore_ascii_case("chunked") {
                self.chunked = true;
            } else if name == "content-length" {
                self.left = value.parse().ok();
            }
        }
        if self.chunked {
            self.left = Some(0);
        }
        Ok(())
    }

    /// The next bytes of the body; empty at its end.
    async fn some(&mut self) -> Result<Vec<u8>, HttpError> {
        if self.chunked && self.left == Some(0) {
            let size = self.line().await?;
            let size = if size.is_empty() {
                self.line().await?
            } else {
                size
            };
            let n = u64::from_str_radix(size.split(';').next().unwrap_or("").trim(), 16)
                .map_err(|_| HttpError::Io(format!("a bad chunk size: {size}")))?;
            if n == 0 {
                return Ok(Vec::new());
            }
            self.left = Some(n);
        }
        let want = self.left.map_or(8192, |n| n.min(8192)) as usize;
        if want == 0 {
            return Ok(Vec::new());
        }
        let mut buf = vec![0; want];
        let got = self.r.read(&mut buf).await?;
        if got == 0 {
            if self.left.is_some() {
                return Err(HttpError::Io("the connection closed mid-answer".into()));
            }
            return Ok(Vec::new());
        }
        buf.truncate(got);
        if let Some(n) = &mut self.left {
            *n -= got as u64;
            if self.chunked && *n == 0 {
                // The chunk's CRLF.
                let _ = self.line().await;
            }
        }
        Ok(buf)
    }

    async fn rest(&mut self) -> Result<String, HttpError> {
        let mut out = Vec::new();
        loop {
            let piece = self.some().await?;
            if piece.is_empty() {
                return Ok(String::from_utf8_lossy(&out).into_owned());
            }
            out.extend_from_slice(&piece);
        }
    }
}

/// An NDJSON stream, line by line.
pub struct Lines {
    reader: Reader,
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
            let piece = self.reader.some().await?;
            if piece.is_empty() {
                return Ok(None);
            }
            self.buf.extend_from_slice(&piece);
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
        assert!(!s.is_tls());
        let s = Server::new("http://example.org/chess", "t").unwrap();
        assert_eq!(s.addr(), "example.org:80");
        assert_eq!(s.prefix, "/chess");
        let s = Server::new("https://example.org", "t").unwrap();
        assert_eq!(s.addr(), "example.org:443");
        assert!(s.is_tls());
        let s = Server::new("https://example.org:8443/x/", "t").unwrap();
        assert_eq!(s.addr(), "example.org:8443");
        assert_eq!(s.prefix, "/x");
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
