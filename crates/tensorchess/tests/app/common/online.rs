//! What the online tests share: a server on a manual clock (over SQLite,
//! or PostgreSQL with `TENSORCHESS_TEST_BACKEND=postgres`), answers with
//! their cookies, and WebSocket helpers.

use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use axum::Router;
use futures_util::{SinkExt, StreamExt};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tensorchess::server::clock::ManualClock;
use tensorchess::server::presence::PlayerHere;
use tensorchess::server::store::prelude::*;
use tensorchess::server::store::{PgStore, SqliteStore};
use tensorchess::server::tournaments::schedule::Schedule;
use tensorchess::server::ServerConfig;
use tensorchess::server::{app, AppState};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;
use tower::ServiceExt;

/// A long way from any real epoch, so nothing depends on the wall clock.
pub const T0: i64 = 1_000_000_000;

pub fn config(clock: &Arc<ManualClock>) -> ServerConfig {
    ServerConfig {
        clock: clock.clone(),
        // The tests sweep and beat by hand.
        sweep_every_ms: i64::MAX / 4,
        heartbeat_every_ms: i64::MAX / 4,
        // And tick the tournament director by hand (`tick_at`).
        director_every_ms: i64::MAX / 4,
        ..ServerConfig::default()
    }
}

pub struct TestApp {
    pub state: AppState,
    pub router: Router,
    pub clock: Arc<ManualClock>,
    pub db: PathBuf,
    pub dir: Option<tempfile::TempDir>,
    /// The PostgreSQL store, when the tests run on one.
    pub pg: Option<PgStore>,
}

/// A server over the SQLite file `db`, or over `pg` when given, started.
pub fn open_state(db: &std::path::Path, pg: &Option<PgStore>, config: ServerConfig) -> AppState {
    open_scheduled(db, pg, config, None)
}

/// [`open_state`] with the server's schedule of tournaments set before
/// its background work starts.
pub fn open_scheduled(
    db: &std::path::Path,
    pg: &Option<PgStore>,
    config: ServerConfig,
    schedule: Option<Schedule>,
) -> AppState {
    let state = match pg {
        Some(pg) => AppState::with_config(Arc::new(pg.clone()), config),
        None => AppState::open_with(db, config).unwrap(),
    };
    if let Some(schedule) = schedule {
        state.tournaments.set_schedule(schedule);
    }
    super::started(state)
}

pub struct Answer {
    pub status: StatusCode,
    pub body: Value,
    pub text: String,
    /// `name=value` of a `Set-Cookie`, if any.
    pub cookie: Option<String>,
    pub set_cookie: Option<String>,
    /// The `Retry-After` header, if any.
    pub retry_after: Option<String>,
}

impl TestApp {
    pub fn new() -> TestApp {
        Self::with(|c| c)
    }

    pub fn with(f: impl FnOnce(ServerConfig) -> ServerConfig) -> TestApp {
        Self::with_schedule(f, None)
    }

    /// [`TestApp::with`], with the server's schedule of tournaments.
    pub fn with_schedule(
        f: impl FnOnce(ServerConfig) -> ServerConfig,
        schedule: Option<Schedule>,
    ) -> TestApp {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("games.sqlite3");
        let clock = Arc::new(ManualClock::new(T0));
        let pg = match std::env::var("TENSORCHESS_TEST_BACKEND").as_deref() {
            Ok("postgres") => Some(super::fresh_pg_store()),
            _ => None,
        };
        let state = open_scheduled(&db, &pg, f(config(&clock)), schedule);
        TestApp {
            router: app(state.clone()),
            state,
            clock,
            db,
            dir: Some(dir),
            pg,
        }
    }

    /// A server over a fresh PostgreSQL schema, whatever the backend of
    /// the other tests (see [`super::fresh_pg_store`]).
    pub fn on_postgres() -> TestApp {
        Self::on_postgres_with(|c| c)
    }

    /// [`TestApp::on_postgres`] with a configuration of its own.
    pub fn on_postgres_with(f: impl FnOnce(ServerConfig) -> ServerConfig) -> TestApp {
        Self::on_postgres_scheduled(f, None)
    }

    /// [`TestApp::on_postgres_with`], with the server's schedule.
    pub fn on_postgres_scheduled(
        f: impl FnOnce(ServerConfig) -> ServerConfig,
        schedule: Option<Schedule>,
    ) -> TestApp {
        let pg = Some(super::fresh_pg_store());
        let clock = Arc::new(ManualClock::new(T0));
        let state = open_scheduled(std::path::Path::new(""), &pg, f(config(&clock)), schedule);
        TestApp {
            router: app(state.clone()),
            state,
            clock,
            db: PathBuf::new(),
            dir: None,
            pg,
        }
    }

    /// A new server on the same database and clock (a restart, or on
    /// PostgreSQL a second server beside this one).
    pub fn reopen(&self) -> TestApp {
        self.reopen_with(|c| c)
    }

    /// [`TestApp::reopen`] with a configuration of its own.
    pub fn reopen_with(&self, f: impl FnOnce(ServerConfig) -> ServerConfig) -> TestApp {
        self.reopen_scheduled(f, None)
    }

    /// [`TestApp::reopen_with`], with the server's schedule.
    pub fn reopen_scheduled(
        &self,
        f: impl FnOnce(ServerConfig) -> ServerConfig,
        schedule: Option<Schedule>,
    ) -> TestApp {
        let state = open_scheduled(&self.db, &self.pg, f(config(&self.clock)), schedule);
        TestApp {
            router: app(state.clone()),
            state,
            clock: self.clock.clone(),
            db: self.db.clone(),
            dir: None,
            pg: self.pg.clone(),
        }
    }

    /// The store, opened anew (as another server would).
    pub fn open_store(&self) -> Arc<dyn GameStore> {
        match &self.pg {
            Some(pg) => Arc::new(pg.clone()),
            None => Arc::new(SqliteStore::open(&self.db).unwrap()),
        }
    }

    pub async fn req(
        &self,
        method: Method,
        uri: &str,
        cookie: Option<&str>,
        body: Option<Value>,
    ) -> Answer {
        let mut b = Request::builder().method(method.clone()).uri(uri);
        if let Some(c) = cookie {
            b = b.header(header::COOKIE, c);
        }
        // As the page does: a request that changes something says JSON.
        if method != Method::GET {
            b = b.header(header::CONTENT_TYPE, "application/json");
        }
        let req = match body {
            Some(v) => b.body(Body::from(v.to_string())).unwrap(),
            None => b.body(Body::empty()).unwrap(),
        };
        self.send(req).await
    }

    /// Sends a request through the router and reads the whole answer.
    pub async fn send(&self, req: Request<Body>) -> Answer {
        let res = self.router.clone().oneshot(req).await.unwrap();
        let status = res.status();
        let set_cookie = res
            .headers()
            .get(header::SET_COOKIE)
            .map(|v| v.to_str().unwrap().to_string());
        let retry_after = res
            .headers()
            .get(header::RETRY_AFTER)
            .map(|v| v.to_str().unwrap().to_string());
        let bytes = res.into_body().collect().await.unwrap().to_bytes();
        let text = String::from_utf8_lossy(&bytes).into_owned();
        Answer {
            status,
            body: serde_json::from_str(&text).unwrap_or(Value::Null),
            cookie: set_cookie
                .as_ref()
                .map(|c| c.split(';').next().unwrap().to_string()),
            set_cookie,
            retry_after,
            text,
        }
    }

    pub async fn send_raw(&self, uri: &str, content_type: &str, body: &str) -> Answer {
        let req = Request::builder()
            .method(Method::POST)
            .uri(uri)
            .header(header::CONTENT_TYPE, content_type)
            .body(Body::from(body.to_string()))
            .unwrap();
        self.send(req).await
    }

    pub async fn get(&self, uri: &str, cookie: Option<&str>) -> Answer {
        self.req(Method::GET, uri, cookie, None).await
    }

    pub async fn post(&self, uri: &str, cookie: Option<&str>, body: Value) -> Answer {
        self.req(Method::POST, uri, cookie, Some(body)).await
    }

    /// Registers an account `name` (from the browser of `cookie`, or a new
    /// one); returns the session's cookie.
    pub async fn register(&self, cookie: Option<&str>, name: &str) -> String {
        let a = self
            .post(
                "/api/account/register",
                cookie,
                json!({ "username": name, "password": "a long password" }),
            )
            .await;
        assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
        a.cookie.expect("a session cookie")
    }

    /// Creates an online game; returns its id and the creator's cookie.
    pub async fn create(&self, body: Value) -> (String, String, Value) {
        let a = self.post("/api/online", None, body).await;
        assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
        (
            a.body["id"].as_str().unwrap().to_string(),
            a.cookie.expect("a seat cookie"),
            a.body,
        )
    }

    /// A game with both seats taken: id, White's cookie, Black's cookie.
    pub async fn started(&self, clock: Value) -> (String, String, String) {
        let (id, white, _) = self
            .create(json!({ "variant": "tensor", "color": "white", "clock": clock }))
            .await;
        let a = self
            .post(&format!("/api/games/{id}/join"), None, json!({}))
            .await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.text);
        assert_eq!(a.body["you"], "black");
        (id, white, a.cookie.unwrap())
    }

    pub async fn act(&self, id: &str, cookie: Option<&str>, action: Value) -> Answer {
        self.post(&format!("/api/games/{id}/act"), cookie, action)
            .await
    }

    pub async fn play(&self, id: &str, cookie: &str, mv: &str, ply: usize) -> Answer {
        self.act(
            id,
            Some(cookie),
            json!({ "type": "move", "move": mv, "ply": ply }),
        )
        .await
    }

    /// Game `id`'s row in the saved-games list the holder of `cookie` sees.
    pub async fn listed(&self, id: &str, cookie: &str) -> Value {
        let list = self.get("/api/games", Some(cookie)).await.body;
        list["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["id"] == id)
            .unwrap_or_else(|| panic!("game {id} is not listed: {list}"))
            .clone()
    }

    pub async fn game(&self, id: &str) -> Value {
        let a = self.get(&format!("/api/games/{id}"), None).await;
        assert_eq!(a.status, StatusCode::OK);
        a.body
    }

    /// Polls the game until `done` holds (timers run on the runtime).
    pub async fn wait_for(&self, id: &str, what: &str, done: impl Fn(&Value) -> bool) -> Value {
        let start = Instant::now();
        loop {
            let g = self.game(id).await;
            if done(&g) {
                return g;
            }
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "timed out waiting for {what}: {g}"
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    /// Waits until a timer on the test clock is armed for `deadline`:
    /// then nothing it guards can happen before that moment (no sleep to
    /// see that nothing happens).
    pub async fn armed_for(&self, deadline: i64) {
        let start = Instant::now();
        while !self.clock.sleepers().contains(&deadline) {
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "no timer for {deadline}: {:?}",
                self.clock.sleepers()
            );
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }

    /// Whether game `id`, in memory, has a flag timer armed.
    pub async fn has_timer(&self, id: &str) -> bool {
        let Some(game) = self.state.games.live.cached(id) else {
            return false;
        };
        let lg = game.lock().await;
        lg.online().is_some_and(|o| o.has_timer())
    }

    /// Serves on a real socket.
    pub async fn serve(&self) -> (SocketAddr, tokio::sync::oneshot::Sender<()>) {
        super::serve_state(&self.state).await
    }
}

/// Registers account `name` on `t`; returns its session cookie.
pub async fn account(t: &TestApp, name: &str) -> String {
    let reg = t
        .post(
            "/api/account/register",
            None,
            json!({ "username": name, "password": "a long password" }),
        )
        .await;
    assert_eq!(reg.status, StatusCode::CREATED, "{}", reg.text);
    reg.cookie.unwrap()
}

/// `from` (a cookie) challenges `to_name` with `challenge` (a body of
/// `POST /api/challenges` without its `to`), and `to` (their cookie)
/// accepts: the challenge as made and the game's id.
pub async fn accepted_challenge(
    t: &TestApp,
    from: &str,
    to: &str,
    to_name: &str,
    mut challenge: Value,
) -> (Value, String) {
    challenge["to"] = json!(to_name);
    let made = t.post("/api/challenges", Some(from), challenge).await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
    let id = made.body["id"].as_str().unwrap();
    let accepted = t
        .post(&format!("/api/challenges/{id}/accept"), Some(to), json!({}))
        .await;
    assert_eq!(accepted.status, StatusCode::CREATED, "{}", accepted.text);
    let game = accepted.body["game"].as_str().unwrap().to_string();
    (made.body, game)
}

/// The player id of `cookie`'s player.
pub async fn player_id(t: &TestApp, cookie: &str) -> String {
    let me = t.get("/api/me", Some(cookie)).await;
    me.body["id"].as_str().unwrap().to_string()
}

/// Counts player `id` as connected to `t` (as an open page's socket does)
/// until the guard is dropped: an arena pairs only connected players.
pub fn connected(t: &TestApp, id: &str) -> PlayerHere {
    t.state.games.live.presence().player_here(id)
}

/// Waits until both servers hear each other's notices (their listeners
/// connect in the background: a notice sent before is missed).
pub async fn until_both_listen(a: &TestApp, b: &TestApp) {
    let start = std::time::Instant::now();
    while ![a, b]
        .iter()
        .all(|t| t.state.games.live.cluster().is_listening())
    {
        assert!(start.elapsed() < Duration::from_secs(10));
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Two servers over one fresh PostgreSQL schema, each on a real socket
/// (until the stops are dropped), both listening to the other's notices.
pub struct Pair {
    pub a: TestApp,
    pub b: TestApp,
    pub addr_a: std::net::SocketAddr,
    pub addr_b: std::net::SocketAddr,
    pub _stops: [tokio::sync::oneshot::Sender<()>; 2],
}

/// A [`Pair`] over a fresh schema of the test PostgreSQL.
pub async fn two_servers() -> Pair {
    let a = TestApp::on_postgres();
    let b = a.reopen();
    let (addr_a, stop_a) = a.serve().await;
    let (addr_b, stop_b) = b.serve().await;
    until_both_listen(&a, &b).await;
    Pair {
        a,
        b,
        addr_a,
        addr_b,
        _stops: [stop_a, stop_b],
    }
}

/// Polls `cond` every 20 ms until it holds (10 s at most: then the test
/// fails, saying what it waited for).
pub async fn wait_until<F, Fut>(what: &str, mut cond: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let start = Instant::now();
    while !cond().await {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "timed out waiting until {what}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Reads what the server says until it closes the connection; panics,
/// with what was read, if it is still open after `within`.
pub async fn read_to_close(stream: &mut tokio::net::TcpStream, within: Duration) -> String {
    use tokio::io::AsyncReadExt;
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    let deadline = Instant::now() + within;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match tokio::time::timeout(left, stream.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => return String::from_utf8_lossy(&got).into_owned(),
            Ok(Ok(n)) => got.extend_from_slice(&buf[..n]),
            Err(_) => panic!(
                "still open after {within:?}; read: {}",
                String::from_utf8_lossy(&got)
            ),
        }
    }
}

/// Subscribes `ws` to tournament `id`; returns its snapshot.
pub async fn follow_tournament(ws: &mut Ws, id: &str) -> Value {
    send(
        ws,
        json!({ "type": "subscribe", "topic": format!("tournament:{id}") }),
    )
    .await;
    let snapshot = next_of(ws, &["tournament"]).await;
    assert_eq!(snapshot["event"], "snapshot", "{snapshot}");
    snapshot
}

/// Subscribes `ws` to its player's challenges; returns the first list.
pub async fn follow_challenges(ws: &mut Ws) -> Value {
    send(ws, json!({ "type": "subscribe", "topic": "challenges" })).await;
    next_of(ws, &["challenges"]).await
}

pub fn expect_refused(a: &Answer, status: StatusCode, kind: &str) {
    assert_eq!(a.status, status, "{}", a.text);
    assert_eq!(a.body["kind"], kind, "{}", a.text);
    assert!(a.body["error"].as_str().is_some_and(|m| !m.is_empty()));
}

pub fn token_of(cookie: &str) -> &str {
    cookie.split_once('=').unwrap().1
}

pub type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

pub async fn ws_connect(addr: SocketAddr, cookie: Option<&str>) -> Ws {
    let mut req = format!("ws://{addr}/api/ws").into_client_request().unwrap();
    if let Some(c) = cookie {
        req.headers_mut().insert(header::COOKIE, c.parse().unwrap());
    }
    tokio_tungstenite::connect_async(req).await.unwrap().0
}

pub async fn send(ws: &mut Ws, v: Value) {
    ws.send(Message::text(v.to_string())).await.unwrap();
}

/// The next JSON message of `ws` (within 20 s: an analysis may take a
/// while on a busy machine).
pub async fn next(ws: &mut Ws) -> Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(20), ws.next())
            .await
            .expect("a message")
            .unwrap()
            .unwrap();
        if let Message::Text(t) = msg {
            return serde_json::from_str(t.as_str()).unwrap();
        }
    }
}

/// The next message of one of `types`, skipping the others.
pub async fn next_of(ws: &mut Ws, types: &[&str]) -> Value {
    loop {
        let v = next(ws).await;
        if types.contains(&v["type"].as_str().unwrap_or("")) {
            return v;
        }
    }
}

/// The next game message on `ws` whose moves reach ply `ply`: a `move`
/// event of the move before it, or an update whose moves (from
/// `moves_from` on) reach it; earlier messages are skipped.
pub async fn game_at(ws: &mut Ws, ply: usize) -> Value {
    loop {
        let g = next_of(ws, &["game", "move"]).await;
        let have = if g["type"] == "move" {
            g["move"]["ply"].as_u64().map_or(0, |p| p as usize + 1)
        } else {
            g["game"]["moves_from"].as_u64().unwrap_or(0) as usize
                + g["game"]["moves"].as_array().map_or(0, Vec::len)
        };
        if have == ply {
            return g;
        }
    }
}

/// The last move a message of [`game_at`] carries.
pub fn last_move(g: &Value) -> &Value {
    if g["type"] == "move" {
        &g["move"]
    } else {
        g["game"]["moves"]
            .as_array()
            .and_then(|m| m.last())
            .unwrap_or(&Value::Null)
    }
}

/// Waits for a presence message saying exactly this.
pub async fn presence(ws: &mut Ws, white: bool, black: bool) {
    loop {
        let p = next_of(ws, &["presence"]).await;
        if p["white"] == white && p["black"] == black {
            return;
        }
    }
}

pub async fn subscribe(ws: &mut Ws, id: &str) -> (Value, Value) {
    send(
        ws,
        json!({ "type": "subscribe", "topic": format!("game:{id}") }),
    )
    .await;
    let sub = next_of(ws, &["subscribed"]).await;
    let snap = next_of(ws, &["game"]).await;
    assert_eq!(snap["event"], "snapshot");
    (sub, snap)
}

/// How many legal moves a move event's compact form lists (its `legal`
/// moves grouped by start), to compare with the whole view's list.
pub fn compact_legal_count(event: &Value) -> usize {
    event["legal"]["moves"]
        .as_object()
        .expect("the event carries the legal moves")
        .values()
        .map(|v| v.as_array().unwrap().len())
        .sum()
}

/// `c` behind a trusted proxy on 127.0.0.1 (see [`via_proxy`]).
pub fn behind_proxy(c: ServerConfig) -> ServerConfig {
    ServerConfig {
        proxies: tensorchess::server::client::Proxies::new(["127.0.0.1".parse().unwrap()], false),
        ..c
    }
}

/// A request as a browser at address `client` sends it through the proxy
/// on 127.0.0.1, which names it in `X-Forwarded-For` (the server must
/// trust the proxy: [`behind_proxy`]).
pub async fn via_proxy(
    t: &TestApp,
    method: Method,
    uri: &str,
    client: &str,
    cookie: Option<&str>,
    body: Option<Value>,
) -> Answer {
    let peer: SocketAddr = "127.0.0.1:40000".parse().unwrap();
    let mut b = Request::builder()
        .method(method.clone())
        .uri(uri)
        .header("x-forwarded-for", client)
        .extension(axum::extract::ConnectInfo(peer));
    if let Some(c) = cookie {
        b = b.header(header::COOKIE, c);
    }
    if method != Method::GET {
        b = b.header(header::CONTENT_TYPE, "application/json");
    }
    let body = body.map_or_else(Body::empty, |v| Body::from(v.to_string()));
    t.send(b.body(body).unwrap()).await
}

/// Registers account `name` from address `client` (through the proxy);
/// returns its session cookie.
pub async fn account_from(t: &TestApp, client: &str, name: &str) -> String {
    let body = json!({ "username": name, "password": "a long password" });
    let a = via_proxy(
        t,
        Method::POST,
        "/api/account/register",
        client,
        None,
        Some(body),
    )
    .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    a.cookie.unwrap()
}
