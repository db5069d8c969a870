//! Online play: seats held by cookie tokens, refusals, clocks on a manual
//! clock (flag fall, increments, the restart policy), draw, resignation,
//! abort, rematch, reconnection, presence, rate limits and eviction —
//! through the router (`oneshot`) and over real WebSockets. On SQLite, or
//! on PostgreSQL with `TENSORCHESS_TEST_BACKEND=postgres` (see `common`).

mod common;

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
use tensorchess::server::ratelimit::RateLimit;
use tensorchess::server::store::{GameStore, PgStore, SqliteStore};
use tensorchess::server::ServerConfig;
use tensorchess::server::{app, AppState};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;
use tower::ServiceExt;

/// A long way from any real epoch, so nothing depends on the wall clock.
const T0: i64 = 1_000_000_000;

fn config(clock: &Arc<ManualClock>) -> ServerConfig {
    ServerConfig {
        clock: clock.clone(),
        // The tests sweep and beat by hand.
        sweep_every_ms: i64::MAX / 4,
        heartbeat_every_ms: i64::MAX / 4,
        ..ServerConfig::default()
    }
}

struct TestApp {
    state: AppState,
    router: Router,
    clock: Arc<ManualClock>,
    db: PathBuf,
    dir: Option<tempfile::TempDir>,
    /// The PostgreSQL store, when the tests run on one.
    pg: Option<PgStore>,
}

/// A server over the SQLite file `db`, or over `pg` when given.
fn open_state(db: &std::path::Path, pg: &Option<PgStore>, config: ServerConfig) -> AppState {
    match pg {
        Some(pg) => AppState::with_config(Arc::new(pg.clone()), config),
        None => AppState::open_with(db, config).unwrap(),
    }
}

struct Answer {
    status: StatusCode,
    body: Value,
    text: String,
    /// `name=value` of a `Set-Cookie`, if any.
    cookie: Option<String>,
    set_cookie: Option<String>,
}

impl TestApp {
    fn new() -> TestApp {
        Self::with(|c| c)
    }

    fn with(f: impl FnOnce(ServerConfig) -> ServerConfig) -> TestApp {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("games.sqlite3");
        let clock = Arc::new(ManualClock::new(T0));
        let pg = match std::env::var("TENSORCHESS_TEST_BACKEND").as_deref() {
            Ok("postgres") => Some(common::fresh_pg_store().expect("TENSORCHESS_TEST_PG")),
            _ => None,
        };
        let state = open_state(&db, &pg, f(config(&clock)));
        TestApp {
            router: app(state.clone()),
            state,
            clock,
            db,
            dir: Some(dir),
            pg,
        }
    }

    /// A new server on the same database and clock.
    fn reopen(&self) -> TestApp {
        let state = open_state(&self.db, &self.pg, config(&self.clock));
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
    fn open_store(&self) -> Arc<dyn GameStore> {
        match &self.pg {
            Some(pg) => Arc::new(pg.clone()),
            None => Arc::new(SqliteStore::open(&self.db).unwrap()),
        }
    }

    async fn req(
        &self,
        method: Method,
        uri: &str,
        cookie: Option<&str>,
        body: Option<Value>,
    ) -> Answer {
        let mut b = Request::builder().method(method).uri(uri);
        if let Some(c) = cookie {
            b = b.header(header::COOKIE, c);
        }
        let req = match body {
            Some(v) => b
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from(v.to_string()))
                .unwrap(),
            None => b.body(Body::empty()).unwrap(),
        };
        self.send(req).await
    }

    /// Sends a request through the router and reads the whole answer.
    async fn send(&self, req: Request<Body>) -> Answer {
        let res = self.router.clone().oneshot(req).await.unwrap();
        let status = res.status();
        let set_cookie = res
            .headers()
            .get(header::SET_COOKIE)
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
            text,
        }
    }

    async fn send_raw(&self, uri: &str, content_type: &str, body: &str) -> Answer {
        let req = Request::builder()
            .method(Method::POST)
            .uri(uri)
            .header(header::CONTENT_TYPE, content_type)
            .body(Body::from(body.to_string()))
            .unwrap();
        self.send(req).await
    }

    async fn get(&self, uri: &str, cookie: Option<&str>) -> Answer {
        self.req(Method::GET, uri, cookie, None).await
    }

    async fn post(&self, uri: &str, cookie: Option<&str>, body: Value) -> Answer {
        self.req(Method::POST, uri, cookie, Some(body)).await
    }

    /// Creates an online game; returns its id and the creator's cookie.
    async fn create(&self, body: Value) -> (String, String, Value) {
        let a = self.post("/api/online", None, body).await;
        assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
        (
            a.body["id"].as_str().unwrap().to_string(),
            a.cookie.expect("a seat cookie"),
            a.body,
        )
    }

    /// A game with both seats taken: id, White's cookie, Black's cookie.
    async fn started(&self, clock: Value) -> (String, String, String) {
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

    async fn act(&self, id: &str, cookie: Option<&str>, action: Value) -> Answer {
        self.post(&format!("/api/games/{id}/act"), cookie, action)
            .await
    }

    async fn play(&self, id: &str, cookie: &str, mv: &str, ply: usize) -> Answer {
        self.act(
            id,
            Some(cookie),
            json!({ "type": "move", "move": mv, "ply": ply }),
        )
        .await
    }

    /// Game `id`'s row in the saved-games list the holder of `cookie` sees.
    async fn listed(&self, id: &str, cookie: &str) -> Value {
        let list = self.get("/api/games", Some(cookie)).await.body;
        list["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["id"] == id)
            .unwrap_or_else(|| panic!("game {id} is not listed: {list}"))
            .clone()
    }

    async fn game(&self, id: &str) -> Value {
        let a = self.get(&format!("/api/games/{id}"), None).await;
        assert_eq!(a.status, StatusCode::OK);
        a.body
    }

    /// Polls the game until `done` holds (timers run on the runtime).
    async fn wait_for(&self, id: &str, what: &str, done: impl Fn(&Value) -> bool) -> Value {
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

    /// Serves on a real socket.
    async fn serve(&self) -> (SocketAddr, tokio::sync::oneshot::Sender<()>) {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        tokio::spawn(tensorchess::server::serve(
            listener,
            self.state.clone(),
            async {
                let _ = rx.await;
            },
        ));
        (addr, tx)
    }
}

fn expect_refused(a: &Answer, status: StatusCode, kind: &str) {
    assert_eq!(a.status, status, "{}", a.text);
    assert_eq!(a.body["kind"], kind, "{}", a.text);
    assert!(a.body["error"].as_str().is_some_and(|m| !m.is_empty()));
}

fn token_of(cookie: &str) -> &str {
    cookie.split_once('=').unwrap().1
}

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn ws_connect(addr: SocketAddr, cookie: Option<&str>) -> Ws {
    let mut req = format!("ws://{addr}/api/ws").into_client_request().unwrap();
    if let Some(c) = cookie {
        req.headers_mut().insert(header::COOKIE, c.parse().unwrap());
    }
    tokio_tungstenite::connect_async(req).await.unwrap().0
}

async fn send(ws: &mut Ws, v: Value) {
    ws.send(Message::text(v.to_string())).await.unwrap();
}

async fn next(ws: &mut Ws) -> Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(10), ws.next())
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
async fn next_of(ws: &mut Ws, types: &[&str]) -> Value {
    loop {
        let v = next(ws).await;
        if types.contains(&v["type"].as_str().unwrap_or("")) {
            return v;
        }
    }
}

/// Waits for a presence message saying exactly this.
async fn presence(ws: &mut Ws, white: bool, black: bool) {
    loop {
        let p = next_of(ws, &["presence"]).await;
        if p["white"] == white && p["black"] == black {
            return;
        }
    }
}

async fn subscribe(ws: &mut Ws, id: &str) -> (Value, Value) {
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

#[tokio::test]
async fn seats_belong_to_players_strangers_cannot_move_and_tokens_never_leave_their_cookie() {
    let t = TestApp::new();
    let a = t
        .post(
            "/api/online",
            None,
            json!({ "variant": "chess", "color": "black" }),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    let id = a.body["id"].as_str().unwrap().to_string();
    // A browser without an identity gets one with its first answer.
    let set = a.set_cookie.clone().unwrap();
    assert!(set.starts_with("tcid="), "{set}");
    for attr in ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age="] {
        assert!(set.contains(attr), "{set} lacks {attr}");
    }
    let black = a.cookie.unwrap();
    let black_token = token_of(&black).to_string();
    assert_eq!(black_token.len(), 64, "256 bits in hex");
    assert!(
        !a.text.contains(&black_token),
        "the token is only in the cookie"
    );
    assert_eq!(a.body["mode"], "online");
    assert_eq!(a.body["you"], "black");
    assert_eq!(a.body["online"]["black"]["taken"], true);
    assert_eq!(a.body["online"]["white"]["taken"], false);
    assert_eq!(a.body["online"]["clock"], Value::Null);

    // Nobody moves before the second player is there.
    let r = t.play(&id, &black, "e2e4", 0).await;
    expect_refused(&r, StatusCode::CONFLICT, "waiting");

    // A stranger sees the game, holds no seat, cannot move.
    let s = t.get(&format!("/api/games/{id}"), None).await;
    assert_eq!(s.status, StatusCode::OK);
    assert_eq!(s.body["you"], Value::Null);
    let stranger = s.cookie.expect("a stranger's identity");
    assert_ne!(token_of(&stranger), black_token);
    let r = t.play(&id, &stranger, "e2e4", 0).await;
    expect_refused(&r, StatusCode::FORBIDDEN, "not_a_player");

    // The friend takes the free seat.
    let j = t
        .post(&format!("/api/games/{id}/join"), None, json!({}))
        .await;
    assert_eq!(j.status, StatusCode::OK, "{}", j.text);
    assert_eq!(j.body["you"], "white");
    let white = j.cookie.unwrap();
    assert_ne!(token_of(&white), black_token);
    assert!(!j.text.contains(token_of(&white)) && !j.text.contains(&black_token));
    // Joining again keeps one's seat; the creator cannot take the other one.
    let again = t
        .post(&format!("/api/games/{id}/join"), Some(&black), json!({}))
        .await;
    assert_eq!(again.body["you"], "black");
    assert!(
        again.set_cookie.is_none(),
        "a known player keeps their cookie"
    );

    // Now the seats are taken: a third person is a spectator.
    let third = t
        .post(&format!("/api/games/{id}/join"), Some(&stranger), json!({}))
        .await;
    expect_refused(&third, StatusCode::CONFLICT, "seats_taken");
    let spectator = t.get(&format!("/api/games/{id}"), Some(&stranger)).await;
    assert_eq!(spectator.body["you"], Value::Null);
    assert!(!spectator.text.contains(token_of(&white)) && !spectator.text.contains(&black_token));

    // Forged identities and old-style seat cookies are strangers too.
    for forged in [
        format!("tcid={}", "ab".repeat(32)),
        format!("tcseat_{id}={}", "ab".repeat(32)),
        "tcid=1".to_string(),
    ] {
        expect_refused(
            &t.play(&id, &forged, "e2e4", 0).await,
            StatusCode::FORBIDDEN,
            "not_a_player",
        );
    }
    // The wrong seat for the move.
    expect_refused(
        &t.play(&id, &black, "e7e5", 0).await,
        StatusCode::CONFLICT,
        "not_your_turn",
    );
    // The right one.
    let ok = t.play(&id, &white, "e2e4", 0).await;
    assert_eq!(ok.status, StatusCode::OK, "{}", ok.text);
    assert_eq!(ok.body["moves"][0]["san"], "e4");
    assert_eq!(ok.body["you"], "white");
    // The old move endpoint works for players too, with their cookie and the ply.
    let r = t
        .post(
            &format!("/api/games/{id}/moves"),
            Some(&white),
            json!({ "move": "d2d4", "ply": 1 }),
        )
        .await;
    expect_refused(&r, StatusCode::CONFLICT, "not_your_turn");
    let r = t
        .post(
            &format!("/api/games/{id}/moves"),
            Some(&black),
            json!({ "move": "e7e5" }),
        )
        .await;
    assert_eq!(
        r.status,
        StatusCode::BAD_REQUEST,
        "an online move says its ply"
    );
    let r = t
        .post(
            &format!("/api/games/{id}/moves"),
            Some(&black),
            json!({ "move": "e7e5", "ply": 1 }),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    // An illegal move is refused with the reason.
    let r = t.play(&id, &white, "e4e5", 2).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(r.body["kind"], "illegal_move");
    assert!(r.body["reason"].as_str().is_some());

    // No engine help, no takebacks, no deleting an online game.
    let game_url = format!("/api/games/{id}");
    for (uri, status) in [
        (format!("{game_url}/takeback"), StatusCode::CONFLICT),
        (format!("{game_url}/hint"), StatusCode::CONFLICT),
        (format!("{game_url}/draw"), StatusCode::CONFLICT),
    ] {
        let r = t.post(&uri, Some(&white), json!({})).await;
        assert_eq!(r.status, status, "{uri}: {}", r.text);
    }
    assert_eq!(
        t.get(&format!("{game_url}/eval"), None).await.status,
        StatusCode::CONFLICT
    );
    assert_eq!(
        t.req(Method::DELETE, &game_url, Some(&white), None)
            .await
            .status,
        StatusCode::CONFLICT
    );

    // The saved-games list shows an online game only to its players.
    let listed = |a: &Answer| {
        a.body["games"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["id"] == id.as_str())
    };
    assert!(!listed(&t.get("/api/games", Some(&stranger)).await));
    assert!(listed(&t.get("/api/games", Some(&white)).await));
    assert!(listed(&t.get("/api/games", Some(&black)).await));

    // The database keeps hashes of the tokens, never the tokens (looked
    // for in the SQLite file's bytes).
    if t.pg.is_none() {
        let bytes = std::fs::read(&t.db).unwrap();
        let wal = std::fs::read(t.db.with_extension("sqlite3-wal")).unwrap_or_default();
        for token in [token_of(&white), black_token.as_str()] {
            let hay = [bytes.as_slice(), wal.as_slice()].concat();
            assert!(!hay.windows(token.len()).any(|w| w == token.as_bytes()));
        }
    }
}

#[tokio::test]
async fn bad_creation_requests_are_refused() {
    let t = TestApp::new();
    for (body, needle) in [
        (json!({ "variant": "shogi" }), "nknown variant"),
        (json!({ "color": "green" }), "Unknown colour"),
        (json!({ "clock": { "base_seconds": 0 } }), "1 to"),
        (json!({ "clock": { "base_seconds": 99999 } }), "1 to"),
        (
            json!({ "clock": { "base_seconds": 60, "increment_seconds": 999 } }),
            "increment",
        ),
        (json!({ "clock": "fast" }), "Invalid"),
        (json!({ "colour": "white" }), "unknown field"),
    ] {
        let a = t.post("/api/online", None, body.clone()).await;
        assert_eq!(a.status, StatusCode::BAD_REQUEST, "{body}: {}", a.text);
        assert!(
            a.body["error"].as_str().unwrap().contains(needle),
            "{body}: {}",
            a.text
        );
    }
    let a = t.post("/api/games/nosuchgame/join", None, json!({})).await;
    assert_eq!(a.status, StatusCode::NOT_FOUND);
    // Joining takes a JSON body: another site's form cannot make a visitor join.
    let (id, _, _) = t.create(json!({})).await;
    let form = t
        .send_raw(
            &format!("/api/games/{id}/join"),
            "application/x-www-form-urlencoded",
            "",
        )
        .await;
    assert_eq!(form.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    // A local game has no seats (and only its maker sees it).
    let local = t.post("/api/games", None, json!({ "mode": "local" })).await;
    let id = local.body["id"].as_str().unwrap();
    let maker = local.cookie.clone().unwrap();
    let a = t
        .post(&format!("/api/games/{id}/join"), Some(&maker), json!({}))
        .await;
    expect_refused(&a, StatusCode::CONFLICT, "not_online");
    let a = t.act(id, Some(&maker), json!({ "type": "resign" })).await;
    expect_refused(&a, StatusCode::CONFLICT, "not_online");
    let a = t.act(id, Some(&maker), json!({ "type": "castle" })).await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST);
    let a = t.act(id, None, json!({ "type": "resign" })).await;
    assert_eq!(a.status, StatusCode::NOT_FOUND, "a stranger's is no game");
    // A random colour is one of the two.
    let (_, _, g) = t.create(json!({ "color": "random" })).await;
    assert!(g["you"] == "white" || g["you"] == "black");
}

#[tokio::test]
async fn websocket_play_with_acks_refusals_presence_and_spectators() {
    let t = TestApp::new();
    let (id, white, black) = t.started(Value::Null).await;
    let (addr, stop) = t.serve().await;
    let mut w = ws_connect(addr, Some(&white)).await;
    let mut b = ws_connect(addr, Some(&black)).await;
    let mut s = ws_connect(addr, None).await;

    let (sub, snap) = subscribe(&mut w, &id).await;
    assert_eq!(sub["seat"], "white");
    assert_eq!(snap["game"]["online"]["black"]["connected"], false);
    let (sub, _) = subscribe(&mut b, &id).await;
    assert_eq!(sub["seat"], "black");
    // White learns that Black is here.
    presence(&mut w, true, true).await;
    let (sub, snap) = subscribe(&mut s, &id).await;
    assert!(sub.get("seat").is_none(), "a spectator has no seat: {sub}");
    assert!(!snap.to_string().contains(token_of(&white)));

    // A move over the socket: acknowledged to the mover, shown to everybody.
    send(
        &mut w,
        json!({ "type": "move", "game": id, "move": "e2e4", "ply": 0, "req": 7 }),
    )
    .await;
    let ack = next_of(&mut w, &["ack", "refused"]).await;
    assert_eq!(ack["type"], "ack", "{ack}");
    assert_eq!(
        (ack["req"].clone(), ack["ply"].clone()),
        (json!(7), json!(1))
    );
    for ws in [&mut b, &mut s] {
        let g = next_of(ws, &["game"]).await;
        assert_eq!(g["event"], "move");
        assert_eq!(g["game"]["moves"][0]["uci"], "e2e4");
        assert_eq!(g["game"]["position"]["turn"], "black");
    }

    // Refusals, each with its reason; the connections stay.
    let cases = [
        (
            0,
            json!({ "type": "move", "game": id, "move": "d2d4", "ply": 1, "req": 1 }),
            "not_your_turn",
        ),
        (
            1,
            json!({ "type": "move", "game": id, "move": "e7e5", "ply": 0, "req": 2 }),
            "stale",
        ),
        (
            2,
            json!({ "type": "move", "game": id, "move": "e7e5", "ply": 1, "req": 3 }),
            "not_a_player",
        ),
        (
            1,
            json!({ "type": "move", "game": id, "move": "e7e4", "ply": 1, "req": 4 }),
            "illegal_move",
        ),
        (
            1,
            json!({ "type": "move", "game": "nope", "move": "e7e5", "ply": 1, "req": 5 }),
            "not_found",
        ),
        (
            2,
            json!({ "type": "resign", "game": id, "req": 6 }),
            "not_a_player",
        ),
    ];
    for (who, msg, kind) in cases {
        let ws = match who {
            0 => &mut w,
            1 => &mut b,
            _ => &mut s,
        };
        send(ws, msg.clone()).await;
        let r = next_of(ws, &["ack", "refused"]).await;
        assert_eq!(r["type"], "refused", "{msg}: {r}");
        assert_eq!(r["kind"], kind, "{msg}: {r}");
        assert_eq!(r["req"], msg["req"]);
        assert!(!r["message"].as_str().unwrap().is_empty());
        if kind == "illegal_move" {
            assert!(r["reason"].as_str().is_some(), "{r}");
        }
        send(ws, json!({ "type": "ping" })).await;
        assert_eq!(next_of(ws, &["pong"]).await["type"], "pong");
    }

    // Malformed and oversized messages get an error; the connection stays.
    for bad in [
        "not json".to_string(),
        r#"{"type":"move","game":"x"}"#.to_string(),
        r#"{"type":"fly"}"#.to_string(),
        "x".repeat(10_000),
    ] {
        b.send(Message::text(bad.clone())).await.unwrap();
        let e = next_of(&mut b, &["error"]).await;
        assert!(!e["message"].as_str().unwrap().is_empty(), "{bad}");
    }
    b.send(Message::binary(vec![1, 2, 3])).await.unwrap();
    next_of(&mut b, &["error"]).await;
    send(
        &mut b,
        json!({ "type": "move", "game": id, "move": "e7e5", "ply": 1 }),
    )
    .await;
    let ack = next_of(&mut b, &["ack", "refused"]).await;
    assert_eq!(ack["type"], "ack", "{ack}");
    assert_eq!(ack["req"], Value::Null);
    // Updates carry only the new move; the moves before it are named by the last one.
    let g = loop {
        let g = next_of(&mut w, &["game"]).await;
        if g["game"]["moves"][0]["uci"] == "e7e5" {
            break g;
        }
    };
    assert_eq!(g["game"]["moves_from"], 1);
    assert_eq!(g["game"]["moves_before"], "e2e4");
    assert_eq!(g["game"]["moves"].as_array().unwrap().len(), 1);
    // Whole games come over HTTP and in snapshots.
    let full = t.game(&id).await;
    assert_eq!(full["moves_from"], 0);
    assert_eq!(full["moves"].as_array().unwrap().len(), 2);

    // Black leaves: White sees "disconnected", then "connected" again.
    b.close(None).await.unwrap();
    drop(b);
    presence(&mut w, true, false).await;
    assert_eq!(t.game(&id).await["online"]["black"]["connected"], false);
    let mut b = ws_connect(addr, Some(&black)).await;
    subscribe(&mut b, &id).await;
    presence(&mut w, true, true).await;

    // After the end, moves are refused with the reason.
    send(&mut w, json!({ "type": "resign", "game": id, "req": 9 })).await;
    let ack = next_of(&mut w, &["ack", "refused"]).await;
    assert_eq!(ack["action"], "resign");
    assert_eq!(ack["type"], "ack", "{ack}");
    let g = loop {
        let g = next_of(&mut s, &["game"]).await;
        if g["event"] != "move" {
            break g;
        }
    };
    assert_eq!(g["event"], "resign");
    assert_eq!(g["game"]["end"]["result"], "0-1");
    send(
        &mut b,
        json!({ "type": "move", "game": id, "move": "d7d5", "ply": 2, "req": 10 }),
    )
    .await;
    let r = next_of(&mut b, &["ack", "refused"]).await;
    assert_eq!(r["kind"], "game_over", "{r}");

    // A page from another site may not open the socket.
    let mut req = format!("ws://{addr}/api/ws").into_client_request().unwrap();
    req.headers_mut()
        .insert(header::ORIGIN, "http://evil.example".parse().unwrap());
    assert!(tokio_tungstenite::connect_async(req).await.is_err());
    let mut req = format!("ws://{addr}/api/ws").into_client_request().unwrap();
    req.headers_mut()
        .insert(header::ORIGIN, format!("http://{addr}").parse().unwrap());
    assert!(tokio_tungstenite::connect_async(req).await.is_ok());
    stop.send(()).unwrap();
}

#[tokio::test]
async fn reconnecting_resyncs_the_whole_game() {
    let t = TestApp::new();
    let (id, white, black) = t
        .started(json!({ "base_seconds": 300, "increment_seconds": 5 }))
        .await;
    for (i, (cookie, mv)) in [(&white, "e2e4"), (&black, "e7e5"), (&white, "b1b3")]
        .into_iter()
        .enumerate()
    {
        t.clock.advance(1_000);
        assert_eq!(t.play(&id, cookie, mv, i).await.status, StatusCode::OK);
    }
    t.act(&id, Some(&white), json!({ "type": "offer_draw" }))
        .await;
    t.clock.advance(2_500);
    let (addr, stop) = t.serve().await;
    // A page that reloads: a new connection, a whole snapshot.
    let mut b = ws_connect(addr, Some(&black)).await;
    let (sub, snap) = subscribe(&mut b, &id).await;
    assert_eq!(sub["seat"], "black");
    let g = &snap["game"];
    let http = t.get(&format!("/api/games/{id}"), Some(&black)).await.body;
    assert_eq!(http["you"], "black");
    for field in [
        "id",
        "variant",
        "mode",
        "rev",
        "start_fen",
        "position",
        "moves",
        "end",
        "online",
    ] {
        let mut want = http[field].clone();
        if field == "online" {
            // Presence differs: the HTTP request came while the socket was open.
            want["black"]["connected"] = g["online"]["black"]["connected"].clone();
        }
        assert_eq!(g[field], want, "snapshot field {field}");
    }
    assert_eq!(g["moves"].as_array().unwrap().len(), 3);
    assert_eq!(g["moves"][2]["san"], "Tb3");
    assert_eq!(g["position"]["turn"], "black");
    assert!(!g["position"]["legal"].as_array().unwrap().is_empty());
    assert_eq!(g["online"]["draw_offer"], "white");
    let clock = &g["online"]["clock"];
    assert_eq!(clock["running"], "black");
    assert_eq!(clock["white_ms"], 300_000 - 1_000 + 5_000);
    assert_eq!(clock["black_ms"], 300_000 - 2_500);
    assert_eq!(clock["base_ms"], 300_000);
    assert_eq!(clock["increment_ms"], 5_000);
    stop.send(()).unwrap();
}

#[tokio::test]
async fn clocks_start_after_both_first_moves_add_increments_and_flag_without_a_move() {
    let t = TestApp::new();
    let (id, white, black) = t
        .started(json!({ "base_seconds": 60, "increment_seconds": 2 }))
        .await;
    let clock = |g: &Value| {
        let c = &g["online"]["clock"];
        (
            c["white_ms"].as_i64().unwrap(),
            c["black_ms"].as_i64().unwrap(),
            c["running"].clone(),
        )
    };
    assert_eq!(clock(&t.game(&id).await), (60_000, 60_000, Value::Null));
    t.clock.advance(10_000);
    t.play(&id, &white, "e2e4", 0).await;
    t.clock.advance(10_000);
    assert_eq!(
        clock(&t.game(&id).await),
        (60_000, 60_000, Value::Null),
        "no clock before both have moved"
    );
    let r = t.play(&id, &black, "e7e5", 1).await;
    assert_eq!(
        clock(&r.body),
        (60_000, 60_000, json!("white")),
        "White's clock starts after Black's first move"
    );
    t.clock.advance(5_000);
    assert_eq!(clock(&t.game(&id).await), (55_000, 60_000, json!("white")));
    let r = t.play(&id, &white, "d2d4", 2).await;
    assert_eq!(
        clock(&r.body),
        (57_000, 60_000, json!("black")),
        "5 s used, 2 s added"
    );
    t.clock.advance(3_000);
    let r = t.play(&id, &black, "d7d5", 3).await;
    assert_eq!(clock(&r.body), (57_000, 59_000, json!("white")));
    // Abort is over once both have moved.
    let r = t.act(&id, Some(&white), json!({ "type": "abort" })).await;
    expect_refused(&r, StatusCode::CONFLICT, "too_late");

    // Nobody moves: the flag falls by itself, exactly on time.
    t.clock.advance(56_999);
    tokio::time::sleep(Duration::from_millis(50)).await;
    let g = t.game(&id).await;
    assert!(g["end"].is_null(), "1 ms left: {g}");
    assert_eq!(clock(&g).0, 1);
    t.clock.advance(1);
    let g = t.wait_for(&id, "the flag", |g| g["end"].is_object()).await;
    assert_eq!(g["end"]["reason"], "timeout");
    assert_eq!(g["end"]["result"], "0-1");
    assert_eq!(g["end"]["title"], "White lost on time");
    assert_eq!(clock(&g), (0, 59_000, Value::Null));
    let r = t.play(&id, &white, "g1f3", 4).await;
    expect_refused(&r, StatusCode::CONFLICT, "game_over");
    // It is stored: a new server reads the same result.
    let t2 = t.reopen();
    let g = t2.game(&id).await;
    assert_eq!(g["end"]["reason"], "timeout");
    assert_eq!(clock(&g), (0, 59_000, Value::Null));
}

#[tokio::test]
async fn a_side_that_does_not_make_its_first_move_in_time_aborts_the_game() {
    let t = TestApp::new();
    let first_move_ms = |g: &Value| g["online"]["clock"]["first_move_ms"].clone();
    let (id, white, black) = t.started(json!({ "base_seconds": 300 })).await;
    assert_eq!(first_move_ms(&t.game(&id).await), 60_000);
    // White moves with a second to spare; then Black's minute starts.
    t.clock.advance(59_000);
    assert_eq!(first_move_ms(&t.game(&id).await), 1_000);
    let r = t.play(&id, &white, "e2e4", 0).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(first_move_ms(&r.body), 60_000);
    t.clock.advance(59_999);
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert!(t.game(&id).await["end"].is_null(), "1 ms left");
    t.clock.advance(1);
    let g = t.wait_for(&id, "the abort", |g| g["end"].is_object()).await;
    assert_eq!(g["end"]["reason"], "aborted");
    assert_eq!(g["end"]["result"], "*");
    assert_eq!(
        g["end"]["text"],
        "Black did not make a first move in time: no result"
    );
    assert_eq!(first_move_ms(&g), Value::Null);
    assert_eq!(g["online"]["clock"]["black_ms"], 300_000, "no clock ran");
    let r = t.play(&id, &black, "e7e5", 1).await;
    expect_refused(&r, StatusCode::CONFLICT, "game_over");
    // Stored with its cause.
    let t2 = t.reopen();
    let g = t2.game(&id).await;
    assert_eq!(
        g["end"]["text"],
        "Black did not make a first move in time: no result"
    );
    let row = t2.listed(&id, &black).await;
    assert_eq!(row["end_reason"], "black_did_not_move");

    // Once both sides have moved there is no such wait, only the clock.
    let (id, white, black) = t.started(json!({ "base_seconds": 300 })).await;
    t.play(&id, &white, "e2e4", 0).await;
    let r = t.play(&id, &black, "e7e5", 1).await;
    assert_eq!(first_move_ms(&r.body), Value::Null);
    assert_eq!(r.body["online"]["clock"]["running"], "white");

    // Without a clock nobody is hurried.
    let (id, _, _) = t.started(Value::Null).await;
    assert_eq!(t.game(&id).await["online"]["clock"], Value::Null);
    t.clock.advance(3_600_000);
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert!(t.game(&id).await["end"].is_null());

    // A game still waiting for White after a restart: the minute starts again
    // when the new server loads it.
    let (id, _, _) = t.started(json!({ "base_seconds": 300 })).await;
    t.clock.advance(50_000);
    t.state.close().await;
    let t3 = t.reopen();
    assert_eq!(first_move_ms(&t3.game(&id).await), 60_000);
    t3.clock.advance(60_000);
    let g = t3
        .wait_for(&id, "the abort", |g| g["end"].is_object())
        .await;
    assert_eq!(
        g["end"]["text"],
        "White did not make a first move in time: no result"
    );
}

#[tokio::test]
async fn a_move_after_the_flag_ends_the_game_on_time() {
    let t = TestApp::new();
    let (id, white, black) = t.started(json!({ "base_seconds": 10 })).await;
    t.play(&id, &white, "e2e4", 0).await;
    t.play(&id, &black, "e7e5", 1).await;
    t.clock.advance(10_001);
    // The move is checked against the clock before the timer has had a turn.
    let r = t.play(&id, &white, "d2d4", 2).await;
    expect_refused(&r, StatusCode::CONFLICT, "game_over");
    assert!(
        r.body["error"].as_str().unwrap().contains("time ran out"),
        "{}",
        r.text
    );
    let g = t.game(&id).await;
    assert_eq!(g["end"]["reason"], "timeout");
    assert_eq!(g["moves"].as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn clock_time_does_not_run_while_the_server_is_down() {
    let t = TestApp::new();
    let (id, white, black) = t.started(json!({ "base_seconds": 60 })).await;
    t.play(&id, &white, "e2e4", 0).await;
    t.play(&id, &black, "e7e5", 1).await; // White's clock starts now
    t.clock.advance(7_000);
    t.state.games.heartbeat().await.unwrap(); // the server was seen up at 7 s
    t.clock.advance(2_000);
    // The server is killed: no goodbye. Its last heartbeat was at 7 s.
    let mut t = t;
    let (dir, clock, path, pg) = (t.dir.take(), t.clock.clone(), t.db.clone(), t.pg.clone());
    drop(t);
    // An hour of downtime, then a new server.
    clock.advance(3_600_000);
    let state = open_state(&path, &pg, config(&clock));
    let t = TestApp {
        router: app(state.clone()),
        state,
        clock,
        db: path.clone(),
        dir,
        pg,
    };
    // The game resumes by itself (its clock runs) and is charged 7 s: the
    // two seconds after the last heartbeat are lost with the server.
    let start = Instant::now();
    while t.state.games.live_games() == 0 {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "the running game was not resumed"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let g = t.game(&id).await;
    assert_eq!(g["online"]["clock"]["white_ms"], 53_000, "{}", g["online"]);
    assert_eq!(g["online"]["clock"]["running"], "white");
    t.clock.advance(5_000);
    assert_eq!(t.game(&id).await["online"]["clock"]["white_ms"], 48_000);
    // A graceful stop notes the exact time; the next server goes on from there.
    t.state.close().await;
    t.clock.advance(600_000);
    let t3 = t.reopen();
    let g = t3.game(&id).await;
    assert_eq!(g["online"]["clock"]["white_ms"], 48_000);
    assert_eq!(g["end"], Value::Null);
    // White moves on the new server; then Black's flag falls there without anyone moving.
    t3.clock.advance(1_000);
    let r = t3.play(&id, &white, "d2d4", 2).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["online"]["clock"]["white_ms"], 47_000);
    t3.clock.advance(60_000);
    let g = t3
        .wait_for(&id, "Black's flag", |g| g["end"].is_object())
        .await;
    assert_eq!(g["end"]["result"], "1-0");
    // Nothing acknowledged was lost on the way.
    let stored = t3.open_store().load_game(&id).await.unwrap().unwrap();
    let moves: Vec<_> = stored.moves.iter().map(|m| m.uci.as_str()).collect();
    assert_eq!(moves, ["e2e4", "e7e5", "d2d4"]);
}

async fn offer(t: &TestApp, id: &str, cookie: &str) -> Answer {
    t.act(id, Some(cookie), json!({ "type": "offer_draw" }))
        .await
}

#[tokio::test]
async fn draw_offers_are_accepted_declined_or_lapse_with_a_move() {
    let t = TestApp::new();
    let (id, white, black) = t.started(Value::Null).await;
    let r = offer(&t, &id, &white).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["online"]["draw_offer"], "white");
    expect_refused(
        &offer(&t, &id, &white).await,
        StatusCode::CONFLICT,
        "already_offered",
    );
    // Only the opponent answers.
    let r = t
        .act(&id, Some(&white), json!({ "type": "accept_draw" }))
        .await;
    expect_refused(&r, StatusCode::CONFLICT, "no_offer");
    let r = t.act(&id, None, json!({ "type": "accept_draw" })).await;
    expect_refused(&r, StatusCode::FORBIDDEN, "not_a_player");
    let r = t
        .act(&id, Some(&black), json!({ "type": "decline_draw" }))
        .await;
    assert_eq!(r.body["online"]["draw_offer"], Value::Null);
    // One offer per move.
    expect_refused(
        &offer(&t, &id, &white).await,
        StatusCode::CONFLICT,
        "too_soon",
    );
    t.play(&id, &white, "e2e4", 0).await;
    // Black offers, then moves: the offer stands; White's move declines it.
    offer(&t, &id, &black).await;
    let r = t.play(&id, &black, "e7e5", 1).await;
    assert_eq!(r.body["online"]["draw_offer"], "black");
    let r = t.play(&id, &white, "d2d4", 2).await;
    assert_eq!(r.body["online"]["draw_offer"], Value::Null);
    // Offered and accepted.
    offer(&t, &id, &black).await;
    let r = t
        .act(&id, Some(&white), json!({ "type": "accept_draw" }))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["end"]["result"], "1/2-1/2");
    assert_eq!(r.body["end"]["reason"], "agreement");
    expect_refused(
        &offer(&t, &id, &white).await,
        StatusCode::CONFLICT,
        "game_over",
    );
    // Offering when the opponent already offered is agreeing.
    let (id2, white2, black2) = t.started(Value::Null).await;
    t.act(&id2, Some(&black2), json!({ "type": "offer_draw" }))
        .await;
    let r = t
        .act(&id2, Some(&white2), json!({ "type": "offer_draw" }))
        .await;
    assert_eq!(r.body["end"]["reason"], "agreement");
}

#[tokio::test]
async fn abort_resign_and_rematch_with_colours_swapped() {
    let t = TestApp::new();
    // Abort while nobody has joined.
    let (id, creator, _) = t.create(json!({})).await;
    let r = t.act(&id, Some(&creator), json!({ "type": "abort" })).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["end"]["reason"], "aborted");
    assert_eq!(r.body["end"]["result"], "*");
    expect_refused(
        &t.play(&id, &creator, "e2e4", 0).await,
        StatusCode::CONFLICT,
        "game_over",
    );
    let r = t
        .post(&format!("/api/games/{id}/join"), None, json!({}))
        .await;
    expect_refused(&r, StatusCode::CONFLICT, "game_over");
    let row = t.listed(&id, &creator).await;
    assert_eq!(row["finished"], true);
    assert_eq!(row["end_reason"], "aborted");

    // Black may abort after White's first move; a resignation needs the game on.
    let (id, white, black) = t
        .started(json!({ "base_seconds": 180, "increment_seconds": 2 }))
        .await;
    t.play(&id, &white, "e2e4", 0).await;
    let r = t.act(&id, Some(&black), json!({ "type": "abort" })).await;
    assert_eq!(r.body["end"]["reason"], "aborted");
    let r = t.act(&id, Some(&black), json!({ "type": "resign" })).await;
    expect_refused(&r, StatusCode::CONFLICT, "game_over");

    // Resign, then a rematch: offered, declined, offered again, accepted.
    let (id, white, black) = t
        .started(json!({ "base_seconds": 180, "increment_seconds": 2 }))
        .await;
    expect_refused(
        &t.act(&id, Some(&white), json!({ "type": "rematch" })).await,
        StatusCode::CONFLICT,
        "not_over",
    );
    t.play(&id, &white, "e2e4", 0).await;
    let r = t.act(&id, Some(&white), json!({ "type": "resign" })).await;
    assert_eq!(r.body["end"]["result"], "0-1");
    assert_eq!(r.body["end"]["reason"], "resignation");
    let r = t.act(&id, Some(&black), json!({ "type": "rematch" })).await;
    assert_eq!(r.body["online"]["rematch_offer"], "black");
    expect_refused(
        &t.act(&id, Some(&black), json!({ "type": "rematch" })).await,
        StatusCode::CONFLICT,
        "already_offered",
    );
    let r = t
        .act(&id, Some(&white), json!({ "type": "decline_rematch" }))
        .await;
    assert_eq!(r.body["online"]["rematch_offer"], Value::Null);
    t.act(&id, Some(&black), json!({ "type": "rematch" })).await;
    let r = t.act(&id, Some(&white), json!({ "type": "rematch" })).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let next = r.body["online"]["rematch_id"]
        .as_str()
        .expect("a rematch")
        .to_string();
    assert_ne!(next, id);
    // Asking again finds the same rematch.
    let r = t.act(&id, Some(&black), json!({ "type": "rematch" })).await;
    assert_eq!(r.body["online"]["rematch_id"], next.as_str());

    // The rematch: colours swapped, same clock, the same players.
    let g = t.get(&format!("/api/games/{next}"), Some(&black)).await;
    assert_eq!(g.body["you"], "white");
    assert_eq!(g.body["online"]["rematch_of"], id.as_str());
    assert_eq!(g.body["online"]["clock"]["base_ms"], 180_000);
    assert_eq!(g.body["online"]["clock"]["increment_ms"], 2_000);
    assert_eq!(g.body["moves"], json!([]));
    assert_eq!(g.body["variant"], "tensor");
    let old_white_as_black = t.get(&format!("/api/games/{next}"), Some(&white)).await;
    assert_eq!(old_white_as_black.body["you"], "black");
    assert!(t.get(&format!("/api/games/{next}"), None).await.body["you"].is_null());
    let r = t.play(&next, &black, "e2e4", 0).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let r = t.play(&next, &white, "e7e5", 1).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    // Nobody else can join it.
    let r = t
        .post(&format!("/api/games/{next}/join"), None, json!({}))
        .await;
    expect_refused(&r, StatusCode::CONFLICT, "seats_taken");
}

#[tokio::test]
async fn api_writes_are_limited_per_client_address() {
    let t = TestApp::with(|c| ServerConfig {
        write_limit: RateLimit {
            burst: 3,
            per_second: 1.0,
        },
        ..c
    });
    // A request as if from `client` over a real connection.
    let from = |client: &str, method: Method, uri: &str, body: Option<Value>| {
        let addr: SocketAddr = client.parse().unwrap();
        let mut req = Request::builder().method(method).uri(uri);
        req = req.extension(axum::extract::ConnectInfo(addr));
        match body {
            Some(v) => req
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from(v.to_string()))
                .unwrap(),
            None => req.body(Body::empty()).unwrap(),
        }
    };
    let far = "203.0.113.7:50000";
    let new_game = |client: &str| {
        let body = json!({ "variant": "chess", "mode": "local" });
        from(client, Method::POST, "/api/games", Some(body))
    };
    for _ in 0..3 {
        let a = t.send(new_game(far)).await;
        assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    }
    let a = t.send(new_game(far)).await;
    assert_eq!(a.status, StatusCode::TOO_MANY_REQUESTS, "{}", a.text);
    assert_eq!(a.body["kind"], "rate_limited");
    assert_eq!(a.body["error"], "Too many requests: try again in 1 s");
    // Reads, and legal moves of a position (nothing stored), still answer.
    let a = t.send(from(far, Method::GET, "/api/games", None)).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let a = t
        .send(from(
            far,
            Method::POST,
            "/api/position",
            Some(json!({ "variant": "chess" })),
        ))
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    // Another client, and the player on this computer, are not limited.
    let a = t.send(new_game("198.51.100.2:40000")).await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    for _ in 0..10 {
        let a = t.send(new_game("127.0.0.1:40000")).await;
        assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    }
    // A second later the far client may write once more.
    t.clock.advance(1000);
    let a = t.send(new_game(far)).await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
}

#[tokio::test]
async fn the_rate_limit_answers_with_an_error_and_keeps_the_connection() {
    let t = TestApp::with(|c| ServerConfig {
        rate_limit: RateLimit {
            burst: 5,
            per_second: 2.0,
        },
        ..c
    });
    let (id, white, _black) = t.started(Value::Null).await;
    let (addr, stop) = t.serve().await;
    let mut w = ws_connect(addr, Some(&white)).await;
    for _ in 0..5 {
        send(&mut w, json!({ "type": "ping" })).await;
        assert_eq!(next(&mut w).await["type"], "pong");
    }
    // The bucket is empty and time stands still (the manual clock).
    send(&mut w, json!({ "type": "ping" })).await;
    let e = next(&mut w).await;
    assert_eq!(e["type"], "error");
    assert!(
        e["message"].as_str().unwrap().contains("Too many messages"),
        "{e}"
    );
    send(
        &mut w,
        json!({ "type": "move", "game": id, "move": "e2e4", "ply": 0, "req": 1 }),
    )
    .await;
    let r = next(&mut w).await;
    assert_eq!(
        (r["type"].clone(), r["kind"].clone(), r["req"].clone()),
        (json!("refused"), json!("rate_limited"), json!(1))
    );
    assert_eq!(
        t.game(&id).await["moves"],
        json!([]),
        "the limited move was not played"
    );
    // Half a second later one more message is allowed.
    t.clock.advance(500);
    send(
        &mut w,
        json!({ "type": "move", "game": id, "move": "e2e4", "ply": 0, "req": 2 }),
    )
    .await;
    let r = next_of(&mut w, &["ack", "refused"]).await;
    assert_eq!(r["type"], "ack", "{r}");
    send(&mut w, json!({ "type": "ping" })).await;
    assert_eq!(next(&mut w).await["type"], "error");
    // A flood is answered, not fatal.
    for _ in 0..50 {
        send(&mut w, json!({ "type": "ping" })).await;
    }
    for _ in 0..50 {
        assert_eq!(next(&mut w).await["type"], "error");
    }
    t.clock.advance(10_000);
    send(&mut w, json!({ "type": "ping" })).await;
    assert_eq!(next(&mut w).await["type"], "pong");
    stop.send(()).unwrap();
}

#[tokio::test]
async fn finished_and_idle_games_leave_memory_and_come_back_from_the_store() {
    let t = TestApp::new();
    let mut finished = Vec::new();
    let mut idle = Vec::new();
    for i in 0..20 {
        let (id, creator, _) = t.create(json!({})).await;
        if i % 2 == 0 {
            t.act(&id, Some(&creator), json!({ "type": "abort" })).await;
            finished.push(id);
        } else {
            idle.push(id);
        }
    }
    // One game with a running clock, and one watched over a socket.
    let (running, white, black) = t.started(json!({ "base_seconds": 3600 })).await;
    t.play(&running, &white, "e2e4", 0).await;
    t.play(&running, &black, "e7e5", 1).await;
    let (watched, _, _) = t.create(json!({})).await;
    let (addr, stop) = t.serve().await;
    let mut s = ws_connect(addr, None).await;
    subscribe(&mut s, &watched).await;
    let base = t.state.games.live_games();
    assert_eq!(base, 22);

    assert_eq!(t.state.games.sweep(), 0, "nothing is idle yet");
    t.clock.advance(61_000);
    assert_eq!(
        t.state.games.sweep(),
        finished.len(),
        "finished games go after a minute"
    );
    t.clock.advance(10 * 60_000);
    assert_eq!(
        t.state.games.sweep(),
        idle.len(),
        "idle games go after ten minutes"
    );
    assert_eq!(
        t.state.games.live_games(),
        2,
        "the running clock and the watched game stay"
    );
    // Evicted games come back as they were.
    let g = t.game(&finished[0]).await;
    assert_eq!(g["end"]["reason"], "aborted");
    let g = t.game(&idle[0]).await;
    assert!(g["end"].is_null());
    assert_eq!(g["online"]["white"]["taken"], true);
    let j = t
        .post(&format!("/api/games/{}/join", idle[0]), None, json!({}))
        .await;
    assert_eq!(j.status, StatusCode::OK);
    // A watcher leaving lets its game go too.
    drop(s);
    tokio::time::sleep(Duration::from_millis(100)).await;
    t.clock.advance(11 * 60_000);
    t.state.games.sweep();
    assert_eq!(
        t.state.games.live_games(),
        1,
        "only the game with a running clock stays"
    );
    stop.send(()).unwrap();
}

#[tokio::test]
async fn behind_https_the_seat_cookie_is_secure() {
    let t = TestApp::new();
    let req = Request::builder()
        .method(Method::POST)
        .uri("/api/online")
        .header(header::CONTENT_TYPE, "application/json")
        .header("x-forwarded-proto", "https")
        .body(Body::from("{}"))
        .unwrap();
    let res = t.router.clone().oneshot(req).await.unwrap();
    assert_eq!(res.status(), StatusCode::CREATED);
    let cookie = res.headers()[header::SET_COOKIE].to_str().unwrap();
    assert!(cookie.ends_with("; Secure"), "{cookie}");
    // Over plain HTTP (a server on a home network) it cannot be.
    let a = t.post("/api/online", None, json!({})).await;
    assert!(!a.set_cookie.unwrap().contains("Secure"));
}
