//! docs/deployment.md run as written: Debian's nginx with the shipped
//! `docs/deploy/tensorchess.nginx.conf` (TLS left out, loopback ports put
//! in) in front of two `tensorchess serve` processes over one PostgreSQL,
//! started as the doc starts them. Two players create, join and play a
//! game through nginx, their WebSockets through nginx too; the instance
//! holding a socket is SIGKILLed mid-game and both play on through the
//! other; `GET /api/health` through nginx keeps answering; and the
//! per-address write limit counts each visitor by the address nginx
//! forwards (`--trusted-proxy 127.0.0.1`), whatever `X-Forwarded-For` the
//! visitor sends. Visitors are told apart by their loopback source
//! addresses (127.0.0.2, …), as real ones by theirs.
//!
//! Skipped without PostgreSQL (`TENSORCHESS_TEST_PG`) or nginx, unless
//! `TENSORCHESS_REQUIRE_PG` / `TENSORCHESS_REQUIRE_NGINX` is set
//! (`scripts/test.sh` sets both and installs nginx).

use crate::common::online::{game_at, next_of, send, Ws};
use crate::common::ServeProcess;
use futures_util::StreamExt;
use serde_json::{json, Value};
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tensorchess::server::store::PgStore;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::header;
use tokio_tungstenite::MaybeTlsStream;

/// The public name of the doc's configuration.
const PUBLIC_HOST: &str = "play.example.org";

fn repo_file(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path)
}

/// The doc's nginx block is the shipped file, word for word.
#[test]
fn the_doc_shows_the_shipped_nginx_configuration() {
    let doc = std::fs::read_to_string(repo_file("docs/deployment.md")).unwrap();
    let shipped = std::fs::read_to_string(repo_file("docs/deploy/tensorchess.nginx.conf")).unwrap();
    let block = doc
        .split("```nginx\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("docs/deployment.md has an nginx block");
    assert_eq!(
        block, shipped,
        "docs/deployment.md and the shipped file differ"
    );
    assert!(doc.contains("docs/deploy/tensorchess.nginx.conf"));
}

/// A server process started as docs/deployment.md starts one (on a free
/// port), killed when dropped.
fn instance(db: &str) -> ServeProcess {
    ServeProcess::start(&[
        "--allowed-host",
        PUBLIC_HOST,
        "--trusted-proxy",
        "127.0.0.1",
        "--db",
        db,
        "--no-schedule",
    ])
}

/// nginx run by this test in a folder of its own, stopped (SIGTERM, so
/// that its workers go too) when dropped.
struct Nginx {
    child: Child,
    dir: tempfile::TempDir,
    addr: SocketAddr,
}

impl Drop for Nginx {
    fn drop(&mut self) {
        // SAFETY: kill(2) on our own child's pid; nothing is dereferenced.
        unsafe { libc::kill(self.child.id() as i32, libc::SIGTERM) };
        tensorchess::child::wait_or_kill(
            &mut self.child,
            Duration::from_secs(5),
            Duration::from_millis(20),
        );
    }
}

/// Debian's nginx, if installed.
fn nginx_binary() -> Option<PathBuf> {
    let found = ["/usr/sbin/nginx", "/usr/local/sbin/nginx"]
        .into_iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
        .or_else(|| {
            let out = Command::new("sh")
                .args(["-c", "command -v nginx"])
                .output()
                .ok()?;
            let path = String::from_utf8(out.stdout).ok()?;
            (!path.trim().is_empty()).then(|| PathBuf::from(path.trim()))
        });
    found
}

/// The shipped configuration with this test's ports: TLS left out (the
/// listen line and the certificates), the instances' real ports put in.
/// Each edit must find its line, so a changed doc fails here.
fn site_config(listen: SocketAddr, a: SocketAddr, b: SocketAddr) -> String {
    let shipped = std::fs::read_to_string(repo_file("docs/deploy/tensorchess.nginx.conf")).unwrap();
    let mut site = String::new();
    let mut edits = 0;
    for line in shipped.lines() {
        let trimmed = line.trim();
        if trimmed == "listen 443 ssl http2;" {
            site.push_str(&format!("    listen {listen};\n"));
            edits += 1;
        } else if trimmed.starts_with("ssl_certificate") {
            edits += 1;
        } else if trimmed.starts_with("server 127.0.0.1:8081 ") {
            site.push_str(&line.replace("127.0.0.1:8081", &a.to_string()));
            site.push('\n');
            edits += 1;
        } else if trimmed.starts_with("server 127.0.0.1:8082 ") {
            site.push_str(&line.replace("127.0.0.1:8082", &b.to_string()));
            site.push('\n');
            edits += 1;
        } else {
            site.push_str(line);
            site.push('\n');
        }
    }
    assert_eq!(edits, 5, "the shipped nginx file changed shape:\n{shipped}");
    site
}

impl Nginx {
    fn start(binary: &Path, a: SocketAddr, b: SocketAddr) -> Nginx {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().display().to_string();
        // A free port now; nginx takes it a moment later.
        let addr = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap();
        std::fs::write(dir.path().join("site.conf"), site_config(addr, a, b)).unwrap();
        // nginx started by root runs its workers as `nobody`, who could not
        // write in this folder.
        // SAFETY: geteuid(2) has no preconditions.
        let user = if unsafe { libc::geteuid() } == 0 {
            "user root;"
        } else {
            ""
        };
        let main = format!(
            "{user}\nworker_processes 1;\npid {d}/nginx.pid;\nerror_log {d}/error.log warn;\n\
             events {{ worker_connections 256; }}\n\
             http {{\n  access_log {d}/access.log;\n  client_body_temp_path {d}/body;\n  \
             proxy_temp_path {d}/proxy;\n  fastcgi_temp_path {d}/fastcgi;\n  \
             uwsgi_temp_path {d}/uwsgi;\n  scgi_temp_path {d}/scgi;\n  include {d}/site.conf;\n}}\n"
        );
        let conf = dir.path().join("nginx.conf");
        std::fs::write(&conf, main).unwrap();
        let child = Command::new(binary)
            .arg("-p")
            .arg(dir.path())
            .arg("-c")
            .arg(&conf)
            .arg("-e")
            .arg(dir.path().join("error.log"))
            .args(["-g", "daemon off;"])
            .stdin(Stdio::null())
            .spawn()
            .expect("nginx starts");
        let mut nginx = Nginx { child, dir, addr };
        let start = Instant::now();
        while std::net::TcpStream::connect(addr).is_err() {
            if let Some(status) = nginx.child.try_wait().unwrap() {
                panic!("nginx stopped ({status}):\n{}", nginx.log());
            }
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "nginx does not listen"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
        nginx
    }

    fn log(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("error.log")).unwrap_or_default()
    }
}

/// A TCP connection from loopback address `from` (a visitor of its own).
async fn connect_from(from: IpAddr, to: SocketAddr) -> tokio::net::TcpStream {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::new(from, 0)).unwrap();
    socket.connect(to).await.unwrap()
}

/// An HTTP answer: status, JSON body, the cookie set (`name=value`).
struct Answer {
    status: u16,
    body: Value,
    cookie: Option<String>,
}

/// One HTTP/1.0 request (no chunked answer to undo) from `from` to `to`,
/// for `PUBLIC_HOST`, with `extra` header lines.
async fn call(
    from: IpAddr,
    to: SocketAddr,
    method: &str,
    path: &str,
    cookie: Option<&str>,
    extra: &str,
    body: Option<Value>,
) -> Answer {
    let mut stream = connect_from(from, to).await;
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let mut head = format!(
        "{method} {path} HTTP/1.0\r\nHost: {PUBLIC_HOST}\r\nContent-Length: {}\r\n{extra}",
        body.len()
    );
    if !body.is_empty() {
        head.push_str("Content-Type: application/json\r\n");
    }
    if let Some(c) = cookie {
        head.push_str(&format!("Cookie: {c}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(body.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut raw))
        .await
        .expect("an answer in time")
        .unwrap();
    let text = String::from_utf8_lossy(&raw);
    let (head, body) = text.split_once("\r\n\r\n").expect("headers and a body");
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    let cookie = head
        .lines()
        .find_map(|l| {
            l.strip_prefix("set-cookie: ")
                .or_else(|| l.strip_prefix("Set-Cookie: "))
        })
        .map(|c| c.split(';').next().unwrap().to_string());
    Answer {
        status,
        body: serde_json::from_str(body).unwrap_or(Value::Null),
        cookie,
    }
}

/// A player: where they connect from and their identity cookie.
struct Player {
    from: IpAddr,
    cookie: String,
}

/// The player's WebSocket through nginx, subscribed to the game; returns
/// it with the game's snapshot.
async fn watch(nginx: SocketAddr, player: &Player, id: &str) -> (Ws, Value) {
    let stream = connect_from(player.from, nginx).await;
    let mut req = format!("ws://{PUBLIC_HOST}/api/ws")
        .into_client_request()
        .unwrap();
    req.headers_mut()
        .insert(header::COOKIE, player.cookie.parse().unwrap());
    let (mut ws, _) = tokio_tungstenite::client_async(req, MaybeTlsStream::Plain(stream))
        .await
        .expect("the WebSocket opens through nginx");
    send(
        &mut ws,
        json!({ "type": "subscribe", "topic": format!("game:{id}") }),
    )
    .await;
    let snap = next_of(&mut ws, &["game"]).await;
    assert_eq!(snap["event"], "snapshot");
    (ws, snap["game"].clone())
}

/// Whether `ws` shows the game at `plies` moves (`true`) or ends first
/// (`false`: its instance died).
async fn reaches_or_ends(ws: &mut Ws, plies: usize) -> bool {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(20), ws.next())
            .await
            .expect("a message or the end");
        let Some(Ok(msg)) = msg else { return false };
        let Ok(text) = msg.to_text() else { continue };
        let Ok(v) = serde_json::from_str::<Value>(text) else {
            continue;
        };
        let have = match v["type"].as_str() {
            Some("move") => v["move"]["ply"].as_u64().map_or(0, |p| p as usize + 1),
            Some("game") => {
                v["game"]["moves_from"].as_u64().unwrap_or(0) as usize
                    + v["game"]["moves"].as_array().map_or(0, Vec::len)
            }
            _ => continue,
        };
        if have == plies {
            return true;
        }
    }
}

/// Plays ply `ply` as `player` through nginx; returns the game after it.
/// A request that meets the dying instance is answered 502 and asked again.
async fn play(nginx: SocketAddr, id: &str, player: &Player, game: &Value, ply: usize) -> Value {
    let legal = game["position"]["legal"].as_array().unwrap();
    let mv = legal[(ply * 5 + 3) % legal.len()]["uci"].as_str().unwrap();
    let path = format!("/api/games/{id}/act");
    let start = Instant::now();
    loop {
        let r = call(
            player.from,
            nginx,
            "POST",
            &path,
            Some(&player.cookie),
            "",
            Some(json!({ "type": "move", "move": mv, "ply": ply })),
        )
        .await;
        if r.status == 200 {
            return r.body;
        }
        assert!(
            r.status == 502 && start.elapsed() < Duration::from_secs(10),
            "ply {ply}: {} {}",
            r.status,
            r.body
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// An instance's own health, asked directly (as a monitor would).
async fn health(addr: SocketAddr) -> Value {
    let h = call(
        IpAddr::from([127, 0, 0, 1]),
        addr,
        "GET",
        "/api/health",
        None,
        "",
        None,
    )
    .await;
    assert_eq!(h.status, 200, "{}", h.body);
    h.body
}

/// Waits until the instance hears the others.
async fn listening(addr: SocketAddr) {
    let start = Instant::now();
    while health(addr).await["listening"] != true {
        assert!(start.elapsed() < Duration::from_secs(10), "not listening");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL (TENSORCHESS_TEST_PG) and Debian's nginx: scripts/test.sh has both"]
async fn nginx_as_documented_serves_two_instances_and_survives_one() {
    let url = crate::common::test_pg_url();
    let nginx_bin = nginx_binary().expect(
        "this test needs Debian's nginx (apt-get install nginx; scripts/install-test-deps.sh does)",
    );
    let schema = format!("nginx{}", std::process::id());
    let _store = PgStore::open_in_schema(&url, &schema).await.unwrap();
    let sep = if url.contains('?') { '&' } else { '?' };
    let db = format!("{url}{sep}options=-c%20search_path%3D{schema}");
    let a = instance(&db);
    let b = instance(&db);
    listening(a.addr).await;
    listening(b.addr).await;
    let nginx = Nginx::start(&nginx_bin, a.addr, b.addr);
    let proxy = nginx.addr;

    // Two players, each from an address of their own, through nginx.
    let (white_ip, black_ip) = (IpAddr::from([127, 0, 0, 4]), IpAddr::from([127, 0, 0, 5]));
    let created = call(
        white_ip,
        proxy,
        "POST",
        "/api/online",
        None,
        "",
        Some(json!({ "variant": "tensor", "color": "white",
                     "clock": { "base_seconds": 600, "increment_seconds": 0 } })),
    )
    .await;
    assert_eq!(created.status, 201, "{}\n{}", created.body, nginx.log());
    let id = created.body["id"].as_str().unwrap().to_string();
    let white = Player {
        from: white_ip,
        cookie: created.cookie.expect("White's cookie"),
    };
    let path = format!("/api/games/{id}/join");
    let joined = call(black_ip, proxy, "POST", &path, None, "", Some(json!({}))).await;
    assert_eq!(joined.status, 200, "{}", joined.body);
    let black = Player {
        from: black_ip,
        cookie: joined.cookie.expect("Black's cookie"),
    };
    let players = [&white, &black];
    let mut sockets = vec![
        watch(proxy, &white, &id).await.0,
        watch(proxy, &black, &id).await.0,
    ];
    let mut game = joined.body;
    for ply in 0..4 {
        game = play(proxy, &id, players[ply % 2], &game, ply).await;
        for ws in &mut sockets {
            game_at(ws, ply + 1).await;
        }
    }

    // The instance holding a socket (nginx chose which) dies mid-game.
    let (on_a, on_b) = (
        health(a.addr).await["sockets"].as_u64().unwrap(),
        health(b.addr).await["sockets"].as_u64().unwrap(),
    );
    assert_eq!(on_a + on_b, 2, "both sockets are open");
    let (doomed, survivor, lost) = if on_a >= on_b {
        (a, b, on_a)
    } else {
        (b, a, on_b)
    };
    let survivor_name = health(survivor.addr).await["instance"].clone();
    doomed.kill();

    // The game goes on through nginx; a socket that was on the dead
    // instance ends, and its player reconnects through nginx.
    game = play(proxy, &id, players[0], &game, 4).await;
    let mut ended = 0u64;
    for (ws, player) in sockets.iter_mut().zip(players) {
        if !reaches_or_ends(ws, 5).await {
            ended += 1;
            let (again, snap) = watch(proxy, player, &id).await;
            assert_eq!(snap["moves"].as_array().unwrap().len(), 5, "no move lost");
            *ws = again;
        }
    }
    assert_eq!(ended, lost, "the dead instance's sockets ended, no other");
    for ply in 5..8 {
        game = play(proxy, &id, players[ply % 2], &game, ply).await;
        for ws in &mut sockets {
            game_at(ws, ply + 1).await;
        }
    }
    assert!(
        game["online"]["clock"]["running"].is_string(),
        "the clocks go on"
    );

    // The health check through nginx: the survivor answers every time.
    for _ in 0..4 {
        let h = call(white_ip, proxy, "GET", "/api/health", None, "", None).await;
        assert_eq!(h.status, 200, "{}", h.body);
        assert_eq!(h.body["instance"], survivor_name);
        assert_eq!(h.body["ok"], true);
    }

    // Per-address limits key on the visitor nginx forwards: one visitor
    // spends its API writes (30 at once, 5 a second after) …
    let greedy = IpAddr::from([127, 0, 0, 2]);
    let write = |from: IpAddr, extra: &'static str| {
        call(
            from,
            proxy,
            "POST",
            "/api/games/none/act",
            None,
            extra,
            Some(json!({ "type": "resign" })),
        )
    };
    let mut spent = 0;
    while write(greedy, "").await.status != 429 {
        spent += 1;
        assert!(spent < 100, "no write limit behind nginx");
    }
    assert!(spent >= 30, "the burst is the visitor's own: {spent}");
    // … a forged X-Forwarded-For does not make it someone else (nginx
    // appends the real address, the nearest hop wins): someone else would
    // have a burst of 30 of their own, where the visitor gets back only
    // what its allowance refills meanwhile (5 a second; the clock is the
    // server's own, so the time these calls take is allowed for).
    let started = Instant::now();
    let mut passed = 0;
    for _ in 0..40 {
        let forged = write(greedy, "X-Forwarded-For: 203.0.113.7\r\n").await;
        if forged.status != 429 {
            passed += 1;
        }
    }
    let refilled = 2 + (started.elapsed().as_secs_f64() * 5.0).ceil() as usize;
    assert!(
        passed < 30 && passed <= refilled,
        "{passed} of 40 forged writes passed, {refilled} refilled meanwhile"
    );
    // … and other visitors, the players among them, are not held back.
    let other = write(IpAddr::from([127, 0, 0, 3]), "").await;
    assert_ne!(other.status, 429, "{}", other.body);
    game = play(proxy, &id, players[0], &game, 8).await;
    assert_eq!(game["moves"].as_array().unwrap().len(), 9);
    drop(nginx);
    drop(survivor);
}
