//! The server against strangers (issue 20): cross-site writes, addresses
//! behind a trusted proxy, login limits that never lock an owner out,
//! seeks capped and lapsing, engine moves queued fairly by address,
//! ownerless games, bans, password changes, names, puzzles and merges.
//! Each test drives the real router; requests say where they come from as
//! the accept loop does (`ConnectInfo`), here always through a "proxy" on
//! 127.0.0.1 that names the client in `X-Forwarded-For`.

use crate::common::online::{expect_refused, Answer, TestApp};
use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use serde_json::{json, Value};
use std::net::SocketAddr;
use tensorchess::commands::admin::{act as admin, AdminAction};
use tensorchess::server::budget::Requester;
use tensorchess::server::client::Proxies;
use tensorchess::server::ratelimit::RateLimit;
use tensorchess::server::ServerConfig;
use tensorchess_rules::VariantKind;

/// The "proxy" every request comes through.
const PROXY: &str = "127.0.0.1:40000";

/// A request as a browser at `client` sends it through the proxy.
struct Call {
    method: Method,
    uri: String,
    client: Option<String>,
    cookie: Option<String>,
    origin: Option<String>,
    content_type: Option<String>,
    body: Option<String>,
}

impl Call {
    fn new(method: Method, uri: &str) -> Call {
        let writes = method != Method::GET;
        Call {
            method,
            uri: uri.to_string(),
            client: None,
            cookie: None,
            origin: None,
            content_type: writes.then(|| "application/json".to_string()),
            body: None,
        }
    }

    fn from(mut self, client: &str) -> Call {
        self.client = Some(client.to_string());
        self
    }

    fn cookie(mut self, cookie: &str) -> Call {
        self.cookie = Some(cookie.to_string());
        self
    }

    fn origin(mut self, origin: &str) -> Call {
        self.origin = Some(origin.to_string());
        self
    }

    fn content_type(mut self, t: Option<&str>) -> Call {
        self.content_type = t.map(str::to_string);
        self
    }

    fn json(mut self, v: Value) -> Call {
        self.body = Some(v.to_string());
        self
    }

    async fn send(self, t: &TestApp) -> Answer {
        let peer: SocketAddr = PROXY.parse().unwrap();
        let mut b = Request::builder()
            .method(self.method)
            .uri(&self.uri)
            .header(header::HOST, "chess.example")
            .extension(axum::extract::ConnectInfo(peer));
        if let Some(c) = &self.client {
            b = b.header("x-forwarded-for", c);
        }
        if let Some(c) = &self.cookie {
            b = b.header(header::COOKIE, c);
        }
        if let Some(o) = &self.origin {
            b = b.header(header::ORIGIN, o);
        }
        if let Some(ct) = &self.content_type {
            b = b.header(header::CONTENT_TYPE, ct);
        }
        let body = self.body.map(Body::from).unwrap_or_else(Body::empty);
        t.send(b.body(body).unwrap()).await
    }
}

/// A server behind a trusted proxy on 127.0.0.1, with `f` applied.
fn behind_proxy(f: impl FnOnce(ServerConfig) -> ServerConfig) -> TestApp {
    TestApp::with(|c| {
        f(ServerConfig {
            proxies: Proxies::new(["127.0.0.1".parse().unwrap()], false),
            ..c
        })
    })
}

async fn register(t: &TestApp, client: &str, name: &str, password: &str) -> String {
    let a = Call::new(Method::POST, "/api/account/register")
        .from(client)
        .json(json!({ "username": name, "password": password }))
        .send(t)
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    a.cookie.expect("a session cookie")
}

async fn login(t: &TestApp, client: &str, name: &str, password: &str) -> Answer {
    Call::new(Method::POST, "/api/account/login")
        .from(client)
        .json(json!({ "username": name, "password": password }))
        .send(t)
        .await
}

#[tokio::test]
async fn cross_site_writes_are_refused() {
    let t = behind_proxy(|c| c);
    let (id, white, _black) = t.started(Value::Null).await;
    let resign = || Call::new(Method::POST, &format!("/api/games/{id}/resign")).cookie(&white);
    // A form on another site: refused by its origin, or its content type.
    let a = resign().origin("http://evil.example").send(&t).await;
    expect_refused(&a, StatusCode::FORBIDDEN, "forbidden_origin");
    let a = resign()
        .origin("https://chess.example")
        .content_type(Some("application/x-www-form-urlencoded"))
        .send(&t)
        .await;
    assert_eq!(a.status, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{}", a.text);
    let a = resign().content_type(None).send(&t).await;
    assert_eq!(a.status, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{}", a.text);
    let a = resign().origin("null").send(&t).await;
    expect_refused(&a, StatusCode::FORBIDDEN, "forbidden_origin");
    let mut cross = resign();
    cross.uri = format!("/api/games/{id}/resign");
    let a = Request::builder()
        .method(Method::POST)
        .uri(&cross.uri)
        .header(header::HOST, "chess.example")
        .header(header::COOKIE, &white)
        .header(header::CONTENT_TYPE, "application/json")
        .header("sec-fetch-site", "cross-site")
        .body(Body::empty())
        .unwrap();
    let a = t.send(a).await;
    expect_refused(&a, StatusCode::FORBIDDEN, "forbidden_origin");
    for (uri, what) in [
        (format!("/api/games/{id}/draw"), "offer a draw"),
        ("/api/account/logout".to_string(), "log out"),
    ] {
        let a = Call::new(Method::POST, &uri)
            .cookie(&white)
            .origin("http://evil.example")
            .send(&t)
            .await;
        assert_eq!(a.status, StatusCode::FORBIDDEN, "{what}: {}", a.text);
    }
    assert!(t.game(&id).await["end"].is_null(), "nothing happened");
    // The page itself: same origin, JSON, no body.
    let a = resign().origin("https://chess.example").send(&t).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    assert!(t.game(&id).await["end"].is_object());
}

#[tokio::test]
async fn answers_cannot_be_framed_or_sniffed() {
    let t = TestApp::new();
    for uri in ["/", "/api/info", "/api/nothing"] {
        let res = tower::ServiceExt::oneshot(
            t.router.clone(),
            Request::get(uri).body(Body::empty()).unwrap(),
        )
        .await
        .unwrap();
        let h = res.headers();
        assert_eq!(h["x-frame-options"], "DENY", "{uri}");
        assert_eq!(h["content-security-policy"], "frame-ancestors 'none'");
        assert_eq!(h["x-content-type-options"], "nosniff");
        assert_eq!(h["referrer-policy"], "same-origin");
    }
}

#[tokio::test]
async fn forwarded_addresses_count_only_from_trusted_proxies() {
    let limit = |c: ServerConfig| ServerConfig {
        write_limit: RateLimit {
            burst: 2,
            per_second: 0.001,
        },
        ..c
    };
    let new_game = |client: &str| {
        Call::new(Method::POST, "/api/games")
            .from(client)
            .json(json!({ "mode": "local", "variant": "chess" }))
    };
    // No trusted proxy: the header is anyone's invention, and every
    // request is the proxy's own (loopback is limited like any address).
    let t = TestApp::with(limit);
    for (i, client) in ["198.51.100.1", "198.51.100.2", "198.51.100.3"]
        .iter()
        .enumerate()
    {
        let a = new_game(client).send(&t).await;
        let want = if i < 2 {
            StatusCode::CREATED
        } else {
            StatusCode::TOO_MANY_REQUESTS
        };
        assert_eq!(a.status, want, "{client}: {}", a.text);
    }
    // Behind a trusted proxy each client has its own bucket...
    let t = behind_proxy(limit);
    for client in ["198.51.100.1", "198.51.100.2", "198.51.100.3"] {
        assert_eq!(new_game(client).send(&t).await.status, StatusCode::CREATED);
    }
    assert_eq!(
        new_game("198.51.100.1").send(&t).await.status,
        StatusCode::CREATED
    );
    let a = new_game("198.51.100.1").send(&t).await;
    assert_eq!(a.status, StatusCode::TOO_MANY_REQUESTS, "{}", a.text);
    // ...a forged first hop changes nothing (the proxy appends the real one)...
    let a = new_game("10.9.9.9, 198.51.100.1").send(&t).await;
    assert_eq!(a.status, StatusCode::TOO_MANY_REQUESTS, "{}", a.text);
    // ...an IPv4-mapped address is its IPv4 one, and an IPv6 /64 is one client.
    let a = new_game("::ffff:198.51.100.1").send(&t).await;
    assert_eq!(a.status, StatusCode::TOO_MANY_REQUESTS, "{}", a.text);
    assert_eq!(
        new_game("2001:db8:1:2::1").send(&t).await.status,
        StatusCode::CREATED
    );
    assert_eq!(
        new_game("2001:db8:1:2::2").send(&t).await.status,
        StatusCode::CREATED
    );
    let a = new_game("2001:db8:1:2:ffff::3").send(&t).await;
    assert_eq!(a.status, StatusCode::TOO_MANY_REQUESTS, "{}", a.text);
    assert_eq!(
        new_game("2001:db8:1:3::1").send(&t).await.status,
        StatusCode::CREATED
    );
    // With --trusted-local, loopback itself is exempt.
    let t = TestApp::with(|c| ServerConfig {
        proxies: Proxies::new([], true),
        ..limit(c)
    });
    for _ in 0..5 {
        assert_eq!(
            new_game("198.51.100.1").send(&t).await.status,
            StatusCode::CREATED
        );
    }
}

#[tokio::test]
async fn a_right_password_is_never_refused_for_others_failures() {
    let t = behind_proxy(|c| c);
    register(&t, "198.51.100.50", "owner", "the right password").await;
    // An attacker rotates addresses, a wrong password from each.
    for i in 0..30 {
        let a = login(&t, &format!("203.0.113.{i}"), "owner", "guess guess").await;
        assert_eq!(a.status, StatusCode::UNAUTHORIZED, "{}", a.text);
    }
    let a = login(&t, "198.51.100.50", "owner", "the right password").await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    // One address guessing one name is slowed: past its failures, even the
    // right password waits (it could be the guesser's).
    for _ in 0..5 {
        let a = login(&t, "203.0.113.200", "owner", "guess guess").await;
        assert_eq!(a.status, StatusCode::UNAUTHORIZED);
    }
    let a = login(&t, "203.0.113.200", "owner", "the right password").await;
    expect_refused(&a, StatusCode::TOO_MANY_REQUESTS, "rate_limited");
    // Right logins count nothing: the owner logs in again and again.
    for _ in 0..10 {
        let a = login(&t, "198.51.100.50", "owner", "the right password").await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    }
}

#[tokio::test]
async fn ownerless_games_are_adopted_only_by_the_operator() {
    let t = behind_proxy(|c| c);
    let store = t.open_store();
    // A game from before players existed.
    let legacy = crate::common::ownerless_game("legacy00000", VariantKind::Tensor);
    store.create_game(&legacy).await.unwrap();
    let me = Call::new(Method::GET, "/api/me").send(&t).await;
    let cookie = me.cookie.clone().unwrap();
    let player = me.body["id"].as_str().unwrap().to_string();
    // Nobody reaches it, loopback included.
    let a = Call::new(Method::GET, "/api/games/legacy00000")
        .cookie(&cookie)
        .send(&t)
        .await;
    assert_eq!(a.status, StatusCode::NOT_FOUND);
    let list = Call::new(Method::GET, "/api/games")
        .cookie(&cookie)
        .send(&t)
        .await;
    assert_eq!(list.body["games"].as_array().unwrap().len(), 0);
    // The operator gives it to the player; the running server sees it.
    let lines = admin(&store, &AdminAction::Adopt { to: player.clone() })
        .await
        .unwrap();
    assert_eq!(
        lines[0],
        format!("1 games now belong to {player} (player {player})")
    );
    let a = Call::new(Method::GET, "/api/games/legacy00000")
        .cookie(&cookie)
        .send(&t)
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let list = Call::new(Method::GET, "/api/games")
        .cookie(&cookie)
        .send(&t)
        .await;
    assert_eq!(list.body["games"].as_array().unwrap().len(), 1);
    assert!(admin(
        &store,
        &AdminAction::Adopt {
            to: "no such one".into()
        }
    )
    .await
    .is_err());
}

#[tokio::test]
async fn engine_moves_wait_their_turn_by_address() {
    let t = behind_proxy(|c| ServerConfig {
        search_slots: 1,
        ..c
    });
    // The only slot is taken: every engine move waits.
    let budget = t.state.games.local.engine().budget().clone();
    let held = budget
        .slot(&Requester::new("someone", None), true)
        .await
        .unwrap();
    let engine_first = |client: &str, cookie: Option<&str>| {
        let c = Call::new(Method::POST, "/api/games")
            .from(client)
            .json(json!({ "mode": "engine", "color": "black", "level": 1 }));
        match cookie {
            Some(k) => c.cookie(k),
            None => c,
        }
    };
    // One guest queues as many engine games as a player may...
    let a = engine_first("203.0.113.9", None).send(&t).await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    let guest = a.cookie.clone().unwrap();
    for _ in 1..budget.limits.games_per_player {
        let a = engine_first("203.0.113.9", Some(&guest)).send(&t).await;
        assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    }
    wait_until(|| budget.load().1 == budget.limits.games_per_player).await;
    let a = engine_first("203.0.113.9", Some(&guest)).send(&t).await;
    expect_refused(&a, StatusCode::TOO_MANY_REQUESTS, "engine_busy");
    // ...fresh guests of the same address share its allowance...
    let mut queued = budget.limits.games_per_player;
    while queued < budget.limits.games_per_client {
        let a = engine_first("203.0.113.9", None).send(&t).await;
        assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
        queued += 1;
        wait_until(|| budget.load().1 == queued).await;
    }
    let a = engine_first("203.0.113.9", None).send(&t).await;
    expect_refused(&a, StatusCode::TOO_MANY_REQUESTS, "engine_busy");
    // ...and an honest player elsewhere is admitted, served next in turn.
    let a = engine_first("198.51.100.7", None).send(&t).await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    drop(held);
    t.state.shutdown();
}

/// Yields until `done` holds (the engine's tasks run meanwhile).
async fn wait_until(done: impl Fn() -> bool) {
    for _ in 0..100_000 {
        if done() {
            return;
        }
        tokio::task::yield_now().await;
    }
    panic!("the condition did not come");
}

#[tokio::test]
async fn banned_players_may_look_not_act_until_unbanned() {
    let t = behind_proxy(|c| c);
    let session = register(&t, "198.51.100.60", "rowdy", "a long password").await;
    let store = t.open_store();
    let lines = admin(
        &store,
        &AdminAction::Ban {
            target: "rowdy".into(),
            reason: "spam in chat".into(),
        },
    )
    .await
    .unwrap();
    assert!(lines[0].starts_with("banned rowdy"), "{lines:?}");
    t.state.players.catch_up().await;
    // The session ended: the browser is a guest again; logging in says why.
    let me = Call::new(Method::GET, "/api/me")
        .cookie(&session)
        .send(&t)
        .await;
    assert_eq!(me.body["account"], Value::Null, "{}", me.text);
    let a = login(&t, "198.51.100.60", "rowdy", "a long password").await;
    expect_refused(&a, StatusCode::FORBIDDEN, "banned");
    assert!(a.body["error"].as_str().unwrap().contains("spam in chat"));
    // A banned guest (by player id) may read, not write.
    let guest = Call::new(Method::GET, "/api/me").send(&t).await;
    let (cookie, id) = (
        guest.cookie.unwrap(),
        guest.body["id"].as_str().unwrap().to_string(),
    );
    admin(
        &store,
        &AdminAction::Ban {
            target: id.clone(),
            reason: "abuse".into(),
        },
    )
    .await
    .unwrap();
    t.state.players.catch_up().await;
    let me = Call::new(Method::GET, "/api/me")
        .cookie(&cookie)
        .send(&t)
        .await;
    assert_eq!(me.body["banned"], "abuse", "{}", me.text);
    let a = Call::new(Method::POST, "/api/seeks")
        .cookie(&cookie)
        .json(json!({ "variant": "tensor" }))
        .send(&t)
        .await;
    expect_refused(&a, StatusCode::FORBIDDEN, "banned");
    let listed = admin(&store, &AdminAction::ListBans).await.unwrap();
    assert_eq!(listed.len(), 2, "{listed:?}");
    admin(&store, &AdminAction::Unban { target: id })
        .await
        .unwrap();
    t.state.players.catch_up().await;
    let a = Call::new(Method::POST, "/api/seeks")
        .cookie(&cookie)
        .json(json!({ "variant": "tensor" }))
        .send(&t)
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    let a = login(&t, "198.51.100.60", "rowdy", "a long password").await;
    expect_refused(&a, StatusCode::FORBIDDEN, "banned");
}

#[tokio::test]
async fn a_password_change_ends_the_other_sessions() {
    let t = behind_proxy(|c| c);
    let first = register(&t, "198.51.100.70", "changer", "old password").await;
    let second = login(&t, "198.51.100.71", "changer", "old password")
        .await
        .cookie
        .unwrap();
    let change = |old: &str, new: &str| {
        Call::new(Method::POST, "/api/account/password")
            .from("198.51.100.70")
            .cookie(&first)
            .json(json!({ "old": old, "new": new }))
    };
    let a = change("wrong password", "new password").send(&t).await;
    assert_eq!(a.status, StatusCode::UNAUTHORIZED, "{}", a.text);
    let a = change("old password", "short").send(&t).await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST, "{}", a.text);
    let a = change("old password", "new password").send(&t).await;
    assert_eq!(a.status, StatusCode::NO_CONTENT, "{}", a.text);
    let me = |c: &str| Call::new(Method::GET, "/api/me").cookie(c);
    assert_eq!(me(&first).send(&t).await.body["account"], "changer");
    assert_eq!(me(&second).send(&t).await.body["account"], Value::Null);
    assert_eq!(
        login(&t, "198.51.100.72", "changer", "old password")
            .await
            .status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        login(&t, "198.51.100.72", "changer", "new password")
            .await
            .status,
        StatusCode::OK
    );
}

#[tokio::test]
async fn names_refuse_hidden_characters_and_guest_names() {
    let t = TestApp::new();
    let me = Call::new(Method::GET, "/api/me").send(&t).await;
    let cookie = me.cookie.unwrap();
    let rename = |name: &str| {
        Call::new(Method::PATCH, "/api/me")
            .cookie(&cookie)
            .json(json!({ "name": name }))
    };
    for bad in [
        "Ann\u{202E}nnA",
        "A\u{200B}dmin",
        "Zero\u{FEFF}Width",
        "Iso\u{2066}late",
        "Guest 1a2b",
        "guest-ffff",
        "GUEST abc1",
    ] {
        let a = rename(bad).send(&t).await;
        assert_eq!(a.status, StatusCode::BAD_REQUEST, "{bad:?}: {}", a.text);
    }
    for good in ["Guestwood", "Guest of honour", "Олена", "محمد", "Ann 1a2b"] {
        let a = rename(good).send(&t).await;
        assert_eq!(a.status, StatusCode::OK, "{good:?}: {}", a.text);
    }
}

#[tokio::test]
async fn a_login_never_seats_one_player_twice() {
    let t = behind_proxy(|c| c);
    // The account holds White; the same person's guest browser Black.
    let account = register(&t, "198.51.100.80", "twoseats", "a long password").await;
    let g = Call::new(Method::POST, "/api/online")
        .cookie(&account)
        .json(json!({ "variant": "tensor", "color": "white" }))
        .send(&t)
        .await;
    assert_eq!(g.status, StatusCode::CREATED, "{}", g.text);
    let id = g.body["id"].as_str().unwrap().to_string();
    let join = Call::new(Method::POST, &format!("/api/games/{id}/join"))
        .json(json!({}))
        .send(&t)
        .await;
    assert_eq!(join.body["you"], "black", "{}", join.text);
    let guest = join.cookie.unwrap();
    let a = Call::new(Method::POST, "/api/account/login")
        .cookie(&guest)
        .from("198.51.100.81")
        .json(json!({ "username": "twoseats", "password": "a long password" }))
        .send(&t)
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let session = a.cookie.unwrap();
    // The account still plays White only, and can move.
    let g = Call::new(Method::GET, &format!("/api/games/{id}"))
        .cookie(&session)
        .send(&t)
        .await;
    assert_eq!(g.body["you"], "white", "{}", g.text);
    let a = t.play(&id, &session, "e2e4", 0).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
}

#[tokio::test]
async fn a_game_id_that_cannot_be_one_names_no_game_on_any_route() {
    let t = TestApp::new();
    let long = "x".repeat(41);
    for path in [
        format!("/api/games/{long}"),
        "/api/games/a%20b/pgn".to_string(),
        "/api/games/%C3%A9/eval".to_string(),
        "/api/games/a.b/chat?room=players".to_string(),
        "/api/games/a%2Fb/tournament".to_string(),
    ] {
        let a = t.get(&path, None).await;
        assert_eq!(a.status, StatusCode::NOT_FOUND, "{path}: {}", a.text);
        assert!(a.text.contains("no such game"), "{path}: {}", a.text);
    }
    for path in ["/api/games/a%20b/act", "/api/games/a%20b/resign"] {
        let a = t.post(path, None, json!({"type": "resign"})).await;
        assert_eq!(a.status, StatusCode::NOT_FOUND, "{path}: {}", a.text);
        assert!(a.text.contains("no such game"), "{path}: {}", a.text);
    }
    // The rest of a path is still read as it was: a game that is not there
    // is unknown, a well-formed one too.
    let a = t.get("/api/games/nosuchgame/pgn", None).await;
    assert_eq!(a.status, StatusCode::NOT_FOUND, "{}", a.text);
}

/// Searches (the player search, the explorer, a player's games) are
/// reads that make the database work: each client address has its own
/// allowance of them, apart from its writes, behind a proxy too.
#[tokio::test]
async fn searches_are_limited_per_client_apart_from_writes() {
    let limit = |c: ServerConfig| ServerConfig {
        search_limit: RateLimit {
            burst: 2,
            per_second: 0.001,
        },
        ..c
    };
    let t = behind_proxy(limit);
    let get = |uri: &str, client: &str| Call::new(Method::GET, uri).from(client);
    for uri in [
        "/api/player/autocomplete?term=an",
        "/api/explorer?variant=chess",
    ] {
        let a = get(uri, "198.51.100.1").send(&t).await;
        assert_eq!(a.status, StatusCode::OK, "{uri}: {}", a.text);
    }
    // The third search from that client, whichever route: refused, with
    // when to come back.
    for uri in [
        "/api/player/autocomplete?term=bo",
        "/api/explorer?variant=tensor",
        "/api/games/user/nobody",
    ] {
        let a = get(uri, "198.51.100.1").send(&t).await;
        assert_eq!(a.status, StatusCode::TOO_MANY_REQUESTS, "{uri}: {}", a.text);
        assert!(a.retry_after.is_some(), "{uri}: Retry-After");
    }
    // Another client searches; the first still plays (writes are counted
    // apart) and reads what is not a search.
    let a = get("/api/player/autocomplete?term=an", "198.51.100.2")
        .send(&t)
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let made = Call::new(Method::POST, "/api/games")
        .from("198.51.100.1")
        .json(json!({ "mode": "local", "variant": "chess" }))
        .send(&t)
        .await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
    let a = get("/api/tournaments", "198.51.100.1").send(&t).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
}
