//! What the API tests share: a server over a temporary SQLite file (or a
//! fresh schema of the PostgreSQL that `TENSORCHESS_TEST_PG` names, when
//! `TENSORCHESS_TEST_BACKEND=postgres`), driven through the router
//! (`oneshot`) by a client that keeps its identity cookie.

#![allow(dead_code)]

pub mod online;

use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tensorchess::server::store::prelude::*;
use tensorchess::server::store::{PgStore, SqliteStore, StoredGame};
use tensorchess::server::{app, AppState, ServerConfig};
use tower::ServiceExt;

pub struct TestApp {
    pub state: AppState,
    pub router: Router,
    pub db: PathBuf,
    _dir: Arc<tempfile::TempDir>,
    /// The PostgreSQL store, when the server keeps its games there.
    pub pg: Option<PgStore>,
    /// The identity cookie (`tcid=...`) this client got, sent on each request.
    pub cookie: Arc<Mutex<Option<String>>>,
}

impl TestApp {
    pub fn new() -> TestApp {
        TestApp::with_config(ServerConfig::default())
    }

    /// A server with its own timings and limits (a manual clock, say), on
    /// the backend `TENSORCHESS_TEST_BACKEND` names (SQLite by default).
    pub fn with_config(config: ServerConfig) -> TestApp {
        match std::env::var("TENSORCHESS_TEST_BACKEND").as_deref() {
            Ok("postgres") => TestApp::on_postgres(config),
            _ => TestApp::on_sqlite(config),
        }
    }

    pub fn on_sqlite(config: ServerConfig) -> TestApp {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("games.sqlite3");
        let state = started(AppState::open_with(&db, config).unwrap());
        TestApp {
            router: app(state.clone()),
            state,
            db,
            _dir: Arc::new(dir),
            pg: None,
            cookie: Arc::default(),
        }
    }

    /// A server over a fresh schema of the PostgreSQL `TENSORCHESS_TEST_PG`
    /// names (see [`fresh_pg_store`]).
    pub fn on_postgres(config: ServerConfig) -> TestApp {
        let store = fresh_pg_store();
        let state = started(AppState::with_config(Arc::new(store.clone()), config));
        TestApp {
            router: app(state.clone()),
            state,
            db: PathBuf::new(),
            _dir: Arc::new(tempfile::tempdir().unwrap()),
            pg: Some(store),
            cookie: Arc::default(),
        }
    }

    /// The store this server keeps its games in, opened anew (as another
    /// server would).
    pub fn open_store(&self) -> Arc<dyn GameStore> {
        match &self.pg {
            Some(pg) => Arc::new(pg.clone()),
            None => Arc::new(SqliteStore::open(&self.db).unwrap()),
        }
    }

    /// The identity cookie, `tcid=...` (after a first request).
    pub fn identity(&self) -> String {
        self.cookie.lock().unwrap().clone().expect("an identity")
    }

    /// Sends a request with a method and JSON body.
    pub async fn call(
        &self,
        method: Method,
        uri: &str,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        // As the page does: every request that changes something says it
        // is JSON, with a body or without (the server refuses others).
        let b = Request::builder().method(method.clone()).uri(uri);
        let b = if method == Method::GET {
            b
        } else {
            b.header(header::CONTENT_TYPE, "application/json")
        };
        let req = match body {
            Some(v) => b.body(Body::from(v.to_string())).unwrap(),
            None => b.body(Body::empty()).unwrap(),
        };
        self.send(req).await
    }

    /// Another person on the same server (a browser of their own).
    pub fn stranger(&self) -> TestApp {
        TestApp {
            router: self.router.clone(),
            state: self.state.clone(),
            db: self.db.clone(),
            _dir: self._dir.clone(),
            pg: self.pg.clone(),
            cookie: Arc::default(),
        }
    }

    /// The same database, opened by a fresh server (a restart).
    pub fn restart(&self) -> TestApp {
        self.state.shutdown();
        let state = started(AppState::new(self.open_store()));
        TestApp {
            router: app(state.clone()),
            state,
            db: self.db.clone(),
            _dir: self._dir.clone(),
            pg: self.pg.clone(),
            cookie: self.cookie.clone(),
        }
    }

    pub async fn send(&self, mut req: Request<Body>) -> (StatusCode, Value) {
        if let Some(c) = self.cookie.lock().unwrap().clone() {
            req.headers_mut().insert(header::COOKIE, c.parse().unwrap());
        }
        let res = self.router.clone().oneshot(req).await.unwrap();
        for v in res.headers().get_all(header::SET_COOKIE) {
            let v = v.to_str().unwrap();
            if v.starts_with("tcid=") {
                *self.cookie.lock().unwrap() = v.split(';').next().map(str::to_string);
            }
        }
        let status = res.status();
        let bytes = res.into_body().collect().await.unwrap().to_bytes();
        let value = serde_json::from_slice(&bytes)
            .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into_owned()));
        (status, value)
    }

    /// Sends a request as this client (with its identity cookie) and
    /// returns the whole answer.
    pub async fn response(&self, mut req: Request<Body>) -> axum::response::Response {
        if let Some(c) = self.cookie.lock().unwrap().clone() {
            req.headers_mut().insert(header::COOKIE, c.parse().unwrap());
        }
        self.router.clone().oneshot(req).await.unwrap()
    }

    pub async fn get(&self, uri: &str) -> (StatusCode, Value) {
        self.send(Request::get(uri).body(Body::empty()).unwrap())
            .await
    }

    pub async fn post(&self, uri: &str, body: Value) -> (StatusCode, Value) {
        self.send(
            Request::builder()
                .method(Method::POST)
                .uri(uri)
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from(body.to_string()))
                .unwrap(),
        )
        .await
    }

    /// Registers this client as `name` (password "correct horse"); its
    /// account as the answer gives it.
    pub async fn register(&self, name: &str) -> Value {
        let (status, me) = self
            .post(
                "/api/account/register",
                json!({ "username": name, "password": "correct horse" }),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{me}");
        me
    }

    pub async fn post_raw(&self, uri: &str, content_type: &str, body: &str) -> (StatusCode, Value) {
        self.send(
            Request::builder()
                .method(Method::POST)
                .uri(uri)
                .header(header::CONTENT_TYPE, content_type)
                .body(Body::from(body.to_string()))
                .unwrap(),
        )
        .await
    }

    pub async fn create(&self, body: Value) -> Value {
        let (status, game) = self.post("/api/games", body).await;
        assert_eq!(status, StatusCode::CREATED, "{game}");
        game
    }

    pub async fn play(&self, id: &str, mv: &str) -> (StatusCode, Value) {
        self.post(&format!("/api/games/{id}/moves"), json!({ "move": mv }))
            .await
    }

    /// Polls the game until `done` holds (the engine moves in the background).
    pub async fn wait_for(&self, id: &str, what: &str, done: impl Fn(&Value) -> bool) -> Value {
        let start = Instant::now();
        loop {
            let (status, game) = self.get(&format!("/api/games/{id}")).await;
            assert_eq!(status, StatusCode::OK);
            if done(&game) {
                return game;
            }
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "timed out waiting for {what}: {game}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Serves this app on a real loopback socket until the sender is dropped
    /// or sent to.
    pub async fn serve(&self) -> (std::net::SocketAddr, tokio::sync::oneshot::Sender<()>) {
        serve_state(&self.state).await
    }

    /// A WebSocket to the app served at `addr`, as this client.
    pub async fn ws(&self, addr: std::net::SocketAddr) -> Ws {
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        let mut req = format!("ws://{addr}/api/ws").into_client_request().unwrap();
        if let Some(c) = self.cookie.lock().unwrap().clone() {
            req.headers_mut().insert(header::COOKIE, c.parse().unwrap());
        }
        tokio_tungstenite::connect_async(req).await.unwrap().0
    }
}

/// Serves `state` on a real loopback socket until the sender is dropped or
/// sent to.
pub async fn serve_state(
    state: &AppState,
) -> (std::net::SocketAddr, tokio::sync::oneshot::Sender<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(tensorchess::server::serve(listener, state.clone(), async {
        let _ = rx.await;
    }));
    (addr, tx)
}

/// A test's WebSocket client.
pub type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Sends a JSON message.
pub async fn ws_send(ws: &mut Ws, v: Value) {
    use futures_util::SinkExt;
    ws.send(tokio_tungstenite::tungstenite::Message::text(v.to_string()))
        .await
        .unwrap();
}

/// The next JSON message whose `type` is one of `types` (others skipped).
pub async fn ws_next_of(ws: &mut Ws, types: &[&str]) -> Value {
    use futures_util::StreamExt;
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .expect("a message in time")
            .expect("the socket open")
            .unwrap();
        if let tokio_tungstenite::tungstenite::Message::Text(t) = msg {
            let v: Value = serde_json::from_str(t.as_str()).unwrap();
            if types.contains(&v["type"].as_str().unwrap_or("")) {
                return v;
            }
        }
    }
}

/// The URL of the PostgreSQL the tests that need one use:
/// `TENSORCHESS_TEST_PG` (`scripts/test.sh` starts a cluster and sets it).
/// Those tests are `#[ignore]`d, so only a run that asks for them
/// (`--run-ignored`) gets here: without the variable, it fails.
pub fn test_pg_url() -> String {
    match std::env::var("TENSORCHESS_TEST_PG") {
        Ok(url) if !url.is_empty() => url,
        _ => panic!(
            "this test needs PostgreSQL: set TENSORCHESS_TEST_PG to a server's URL \
             (scripts/test.sh starts one: bash scripts/pg-cluster.sh start DIR)"
        ),
    }
}

/// A [`PgStore`] over a schema of its own in the PostgreSQL that
/// `TENSORCHESS_TEST_PG` names ([`test_pg_url`]).
pub fn fresh_pg_store() -> PgStore {
    let url = test_pg_url();
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    let schema = format!(
        "api{}_{}_{}",
        std::process::id(),
        nanos,
        N.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    );
    // Opened on a runtime of its own, so that callers need not be async:
    // the connection it migrates on closes with it, and the pool opens
    // new ones on the test's runtime.
    let store = std::thread::spawn(move || {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
            .block_on(PgStore::open_in_schema(&url, &schema))
    })
    .join()
    .unwrap()
    .unwrap();
    store
}

/// An HTTP client for tests that talk to a server over a real socket
/// (reqwest, HTTP/1.1, no proxy). Its TLS trusts nothing: the tests that
/// speak TLS use the bridge's client (`tensorchess::bot::http`).
pub fn http_client() -> reqwest::Client {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let tls = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(rustls::RootCertStore::empty())
        .with_no_client_auth();
    reqwest::Client::builder()
        .tls_backend_preconfigured(tls)
        .http1_only()
        .no_proxy()
        .build()
        .unwrap()
}

/// A `tensorchess serve` process started with `args` (on a free port),
/// killed when dropped; its standard output is read to the end, so that
/// it never blocks on a full pipe.
pub struct ServeProcess {
    pub child: std::process::Child,
    pub addr: std::net::SocketAddr,
}

impl ServeProcess {
    pub fn start(args: &[&str]) -> ServeProcess {
        use std::io::BufRead;
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_tensorchess"))
            .args(["serve", "--host", "127.0.0.1", "--port", "0"])
            .args(args)
            .env("RUST_LOG", "warn")
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::inherit())
            .spawn()
            .expect("the server starts");
        let mut lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
        let addr = loop {
            let line = lines
                .next()
                .expect("the server says where it listens")
                .unwrap();
            if let Some(rest) = line.split("http://").nth(1) {
                break rest.split('/').next().unwrap().parse().unwrap();
            }
        };
        std::thread::spawn(move || for _ in lines {});
        ServeProcess { child, addr }
    }

    /// SIGKILL, waited for: no goodbye, no last heartbeat.
    pub fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for ServeProcess {
    fn drop(&mut self) {
        tensorchess::child::kill_if_running(&mut self.child);
    }
}

/// Runs `cmd` (one of the binary's commands), which must succeed: its output.
pub fn run_ok(cmd: &mut std::process::Command) -> std::process::Output {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// A local game stored before players existed (no owner, no moves), as an
/// older server left it.
pub fn ownerless_game(id: &str, variant: tensorchess_rules::VariantKind) -> StoredGame {
    StoredGame {
        record: tensorchess::server::store::GameRecord {
            id: id.into(),
            variant,
            start_fen: variant.start_fen().to_string(),
            mode: tensorchess::server::store::GameMode::Local,
            human_color: None,
            level: None,
            white: "White".into(),
            black: "Black".into(),
            owner: None,
            rated: false,
            ending: None,
            rev: 1,
            created_at: 1,
            updated_at: 1,
        },
        moves: Vec::new(),
        online: None,
    }
}

/// Checks that Python can import `module` of python-chess (`pip install
/// chess`). The tests that need it are `#[ignore]`d, so only a run that
/// asks for them (`--run-ignored`) gets here: without it, they fail.
pub fn need_python_chess(module: &str) {
    let have = std::process::Command::new("python3")
        .args(["-c", &format!("import {module}")])
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    assert!(
        have,
        "this test needs python-chess: python3 cannot import {module} (pip install chess)"
    );
}

/// `state` with its background work started (the server's timers, the
/// instances' bus), as `serve` starts it; a test outside a Tokio runtime
/// gets the state alone.
pub fn started(state: AppState) -> AppState {
    if tokio::runtime::Handle::try_current().is_ok() {
        state.start();
    }
    state
}

/// `GET uri` through `router`, with no cookie: the status, the headers and
/// the body's bytes (for pages and files, which are not JSON).
pub async fn fetch(
    router: &axum::Router,
    uri: &str,
) -> (StatusCode, axum::http::HeaderMap, Vec<u8>) {
    let req = Request::get(uri).body(Body::empty()).unwrap();
    let (parts, body) = router.clone().oneshot(req).await.unwrap().into_parts();
    let bytes = body.collect().await.unwrap().to_bytes().to_vec();
    (parts.status, parts.headers, bytes)
}
