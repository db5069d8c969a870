//! The web app's API, exercised through the router with `oneshot`, over a
//! temporary SQLite file; and its WebSocket over a real socket.

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use futures_util::{SinkExt, StreamExt};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use std::time::Duration;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tower::ServiceExt;

use crate::common::online::next;
use crate::common::TestApp;
use tensorchess::server::clock::ManualClock;
use tensorchess::server::ServerConfig;

fn plies(game: &Value) -> usize {
    game["moves"].as_array().unwrap().len()
}

#[tokio::test]
async fn info_lists_the_games_and_levels() {
    let t = TestApp::new();
    let (status, info) = t.get("/api/info").await;
    assert_eq!(status, StatusCode::OK);
    let names: Vec<&str> = info["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["tensor", "chess", "chessence"]);
    assert_eq!(info["levels"].as_array().unwrap().len(), 6);
}

#[tokio::test]
async fn health_says_whether_the_instance_hears_the_others() {
    let t = TestApp::new();
    let (status, h) = t.get("/api/health").await;
    assert_eq!(status, StatusCode::OK);
    let shared = t.pg.is_some();
    assert_eq!(h["shared"], shared, "{h}");
    assert_eq!(h["instance"].as_str().unwrap().len(), 16);
    if shared {
        // The listener connects in the background, soon after the start.
        let start = std::time::Instant::now();
        while t.get("/api/health").await.1["listening"] != true {
            assert!(start.elapsed() < Duration::from_secs(10), "never listening");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    } else {
        assert_eq!(h["listening"], true);
    }
    assert_eq!(t.get("/api/health").await.1["ok"], true);
}

#[tokio::test]
async fn malformed_requests_get_json_errors() {
    let t = TestApp::new();
    let (status, err) = t
        .post_raw("/api/games", "application/json", "{not json")
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(err["error"].as_str().unwrap().contains("Malformed JSON"));

    let (status, err) = t.post_raw("/api/games", "text/plain", "{}").await;
    assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert_eq!(err["kind"], "unsupported_media_type");

    let (status, err) = t.post("/api/games", json!({ "variant": 7 })).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{err}");

    for (body, needle) in [
        (json!({ "variant": "shogi" }), "nknown variant"),
        (json!({ "mode": "duel" }), "Unknown mode"),
        (json!({ "mode": "online" }), "POST /api/online"),
        (json!({ "level": 9 }), "Level 9"),
        (json!({ "color": "green" }), "Unknown colour"),
        (
            json!({ "fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1" }),
            "FEN",
        ),
        (
            json!({ "variant": "chess", "fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1" }),
            "side to move",
        ),
        (
            json!({ "pgn": "1. e4 e5 2. Qh7 *", "variant": "chess" }),
            "Qh7",
        ),
        (
            json!({ "pgn": "[Variant \"Shogi\"]\n1. e4 *" }),
            "nknown variant",
        ),
        (json!({ "pgn": "[Event \"x\"\n1. e4" }), "PGN"),
        (json!({ "pgn": "1. e4 Þ6 *" }), "not a move"),
        (json!({ "fen": "x", "pgn": "1. e4" }), "not both"),
    ] {
        let (status, err) = t.post("/api/games", body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {err}");
        let msg = err["error"].as_str().unwrap();
        assert!(msg.contains(needle), "{body}: {msg}");
    }

    let (status, err) = t.get("/api/games/doesnotexist").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(err["kind"], "not_found");
    let (status, _) = t.get("/api/games/..%2F..%2Fetc").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, err) = t.get("/api/nothing/here").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(err["kind"], "not_found");

    let huge = "x".repeat(2 << 20);
    let (status, err) = t.post("/api/games", json!({ "pgn": huge })).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{err}");

    let (status, err) = t
        .post(
            "/api/position",
            json!({ "variant": "tensor", "fen": "junk" }),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(err["error"].as_str().unwrap().contains("FEN"));
}

#[tokio::test]
async fn pgn_import_and_export_round_trip() {
    let t = TestApp::new();
    let pgn = "[Event \"Club\"]\n[White \"Ann\"]\n[Black \"Bob\"]\n[Variant \"Tensor\"]\n\n1. e4 e5 2. Tb3 *";
    let game = t.create(json!({ "mode": "local", "pgn": pgn })).await;
    assert_eq!(game["variant"], "tensor");
    assert_eq!(plies(&game), 3);
    assert_eq!(game["white"], "Ann");
    assert!(game["end"].is_null());
    let id = game["id"].as_str().unwrap();
    let res = t
        .response(
            Request::get(format!("/api/games/{id}/pgn"))
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let text =
        String::from_utf8(res.into_body().collect().await.unwrap().to_bytes().to_vec()).unwrap();
    assert!(text.contains("[Variant \"Tensor\"]"), "{text}");
    assert!(text.contains("1. e4 e5 2. Tb3 *"), "{text}");
    // The export imports again.
    let again = t.create(json!({ "mode": "local", "pgn": text })).await;
    assert_eq!(again["moves"], game["moves"]);

    // A finished game from a PGN keeps its result and can only be replayed.
    let done = t
        .create(json!({ "mode": "local", "pgn": "[Variant \"Tensor\"]\n1. e4 e5 1-0" }))
        .await;
    assert_eq!(done["end"]["result"], "1-0");
    assert_eq!(done["end"]["reason"], "imported");
    let (status, _) = t.play(done["id"].as_str().unwrap(), "d2d4").await;
    assert_eq!(status, StatusCode::CONFLICT);
    // Its export says that result, in the tags and after the moves.
    let res = t
        .response(
            Request::get(format!("/api/games/{}/pgn", done["id"].as_str().unwrap()))
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    let text =
        String::from_utf8(res.into_body().collect().await.unwrap().to_bytes().to_vec()).unwrap();
    assert!(text.contains("[Result \"1-0\"]"), "{text}");
    assert!(text.ends_with("\n1. e4 e5 1-0\n"), "{text}");
}

#[tokio::test]
async fn checkmate_ends_the_game_with_a_banner_text() {
    let t = TestApp::new();
    let game = t
        .create(
            json!({ "mode": "engine", "level": 1, "fen": "5k4/10/5K4/10/10/10/10/R9 w - - 0 1" }),
        )
        .await;
    let id = game["id"].as_str().unwrap();
    let (status, game) = t.play(id, "a1a8").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(game["end"]["title"], "Checkmate");
    assert_eq!(game["end"]["text"], "White wins");
    assert_eq!(game["end"]["result"], "1-0");
    assert_eq!(game["moves"][0]["san"], "Ra8#");
    assert_eq!(game["moves"][0]["check"], "f8");
    assert_eq!(game["position"]["check"], "f8");
    assert!(game["position"]["legal"].as_array().unwrap().is_empty());
    assert_eq!(game["engine_thinking"], false);
    let (status, _) = t.play(id, "f8e8").await;
    assert_eq!(status, StatusCode::CONFLICT);
    let (_, list) = t.get("/api/games").await;
    let row = list["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == id)
        .unwrap();
    assert_eq!(row["finished"], true);
    assert_eq!(row["end_reason"], "checkmate");
}

#[tokio::test]
async fn stalemate_and_draws_are_announced_with_their_reason() {
    let t = TestApp::new();
    // Black to move has no move and is not in check.
    let game = t
        .create(
            json!({ "variant": "chess", "mode": "local", "fen": "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1" }),
        )
        .await;
    assert_eq!(game["end"]["title"], "Stalemate");
    assert_eq!(game["end"]["text"], "Draw");
    assert_eq!(game["end"]["result"], "1/2-1/2");
    // Only beasts and kings left: nobody can ever mate.
    let game = t
        .create(json!({ "mode": "local", "fen": "5k2t1/10/10/10/10/10/10/1T3K4 w - - 0 1" }))
        .await;
    assert_eq!(game["end"]["reason"], "dead_material");
    assert_eq!(game["end"]["text"], "neither side can checkmate");
    // Threefold repetition, reached by moving knights back and forth.
    let game = t
        .create(json!({ "variant": "chess", "mode": "local" }))
        .await;
    let id = game["id"].as_str().unwrap().to_string();
    let id = id.as_str();
    let mut last = game;
    for _ in 0..2 {
        for mv in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            let (status, g) = t.play(id, mv).await;
            assert_eq!(status, StatusCode::OK);
            last = g;
        }
    }
    assert_eq!(last["end"]["text"], "by threefold repetition");
    assert_eq!(last["end"]["title"], "Draw");
}

#[tokio::test]
async fn the_engine_answers_and_takeback_undoes_both_moves() {
    let t = TestApp::with_config(tensorchess::server::ServerConfig {
        search_slots: 1,
        ..tensorchess::server::ServerConfig::default()
    });
    // The test holds the engine's only slot until it has checked that the
    // person may not move while the engine is to (however fast it is).
    let budget = t.state.games.local.engine().budget().clone();
    let held = budget
        .slot(
            &tensorchess::server::budget::Requester::new("test", None),
            true,
        )
        .await
        .unwrap();
    let game = t
        .create(json!({ "variant": "tensor", "mode": "engine", "level": 1, "color": "white" }))
        .await;
    let id = game["id"].as_str().unwrap().to_string();
    assert_eq!(game["engine_thinking"], false);
    let (status, game) = t.play(&id, "e2e4").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(game["engine_thinking"], true);
    // While it thinks, the person may not move.
    let (status, err) = t.play(&id, "d2d4").await;
    assert_eq!(status, StatusCode::CONFLICT, "{err}");
    drop(held);
    let game = t
        .wait_for(&id, "the engine's reply", |g| plies(g) == 2)
        .await;
    assert_eq!(game["engine_thinking"], false);
    assert_eq!(game["moves"][1]["color"], "black");

    let (status, game) = t
        .post(&format!("/api/games/{id}/takeback"), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{game}");
    assert_eq!(plies(&game), 0);
    let (status, _) = t
        .post(&format!("/api/games/{id}/takeback"), json!({}))
        .await;
    assert_eq!(status, StatusCode::CONFLICT);

    // Taking back while the engine thinks stops it and undoes only the person's move.
    let (_, game) = t.play(&id, "d2d4").await;
    assert_eq!(game["engine_thinking"], true);
    let (status, game) = t
        .post(&format!("/api/games/{id}/takeback"), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(plies(&game), 0);
    assert_eq!(game["engine_thinking"], false);
    // The stopped search ends and gives its slot back; it moved nothing.
    searches_ended(&t).await;
    let (_, game) = t.get(&format!("/api/games/{id}")).await;
    assert_eq!(plies(&game), 0, "a stopped search must not move afterwards");
}

#[tokio::test]
async fn the_engine_moves_first_when_the_person_plays_black() {
    let t = TestApp::new();
    let game = t
        .create(json!({ "variant": "chessence", "mode": "engine", "level": 1, "color": "black" }))
        .await;
    assert_eq!(game["human_color"], "black");
    assert_eq!(game["black"], "You");
    let id = game["id"].as_str().unwrap();
    let game = t
        .wait_for(id, "the engine's first move", |g| plies(g) == 1)
        .await;
    assert_eq!(game["position"]["turn"], "black");
}

#[tokio::test]
async fn resign_and_draw_offers() {
    let t = TestApp::new();
    let game = t
        .create(json!({ "variant": "chess", "mode": "engine", "level": 2 }))
        .await;
    let id = game["id"].as_str().unwrap();
    // At the start the engine plays on.
    let (status, answer) = t.post(&format!("/api/games/{id}/draw"), json!({})).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["accepted"], false);
    assert!(answer["message"].as_str().unwrap().contains("declines"));
    assert!(answer["game"]["end"].is_null());

    let (status, game) = t.post(&format!("/api/games/{id}/resign"), json!({})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(game["end"]["title"], "White resigns");
    assert_eq!(game["end"]["result"], "0-1");
    let (status, _) = t.post(&format!("/api/games/{id}/resign"), json!({})).await;
    assert_eq!(status, StatusCode::CONFLICT);
    let (status, _) = t
        .post(&format!("/api/games/{id}/takeback"), json!({}))
        .await;
    assert_eq!(status, StatusCode::CONFLICT);

    // A queen down, the engine (Black) takes the draw.
    let game = t
        .create(json!({ "variant": "chess", "mode": "engine", "level": 2, "fen": "4k3/8/8/8/8/8/8/3QK3 w - - 0 1" }))
        .await;
    let id = game["id"].as_str().unwrap();
    let (_, answer) = t.post(&format!("/api/games/{id}/draw"), json!({})).await;
    assert_eq!(answer["accepted"], true, "{answer}");
    assert_eq!(answer["game"]["end"]["reason"], "agreement");
    assert_eq!(answer["game"]["end"]["result"], "1/2-1/2");

    // On one device the players have agreed already.
    let game = t.create(json!({ "mode": "local" })).await;
    let id = game["id"].as_str().unwrap();
    let (_, answer) = t.post(&format!("/api/games/{id}/draw"), json!({})).await;
    assert_eq!(answer["accepted"], true);
    let game = t.create(json!({ "mode": "local" })).await;
    let id = game["id"].as_str().unwrap();
    t.play(id, "e2e4").await;
    let (_, game) = t.post(&format!("/api/games/{id}/resign"), json!({})).await;
    assert_eq!(game["end"]["title"], "Black resigns");
}

#[tokio::test]
async fn hint_and_evaluation() {
    let t = TestApp::new();
    let game = t
        .create(json!({ "mode": "local", "fen": "5k4/10/5K4/10/10/10/10/R9 w - - 0 1" }))
        .await;
    let id = game["id"].as_str().unwrap();
    let (status, hint) = t.post(&format!("/api/games/{id}/hint"), json!({})).await;
    assert_eq!(status, StatusCode::OK, "{hint}");
    assert_eq!(hint["best"]["uci"], "a1a8");
    assert_eq!(hint["score"]["mate"], 1);
    let (status, eval) = t.get(&format!("/api/games/{id}/eval?ply=0")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(eval["score"]["mate"], 1);
    let (status, _) = t.get(&format!("/api/games/{id}/eval?ply=5")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _) = t.get(&format!("/api/games/{id}/eval?ply=x")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn acknowledged_moves_are_on_disk_and_survive_a_restart() {
    let t = TestApp::new();
    let game = t
        .create(json!({ "variant": "tensor", "mode": "local" }))
        .await;
    let id = game["id"].as_str().unwrap().to_string();
    for mv in ["e2e4", "e7e5", "b1b3"] {
        let (status, _) = t.play(&id, mv).await;
        assert_eq!(status, StatusCode::OK);
        // Already in the file, as seen by another connection.
        let other = t.open_store();
        let stored = other.load_game(&id).await.unwrap().unwrap();
        assert_eq!(stored.moves.last().unwrap().uci, mv);
    }
    let t2 = t.restart();
    let (status, game) = t2.get(&format!("/api/games/{id}")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(plies(&game), 3);
    assert_eq!(game["moves"][2]["san"], "Tb3");
    let (status, _) = t2.play(&id, "f8f7").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let (status, _) = t2.play(&id, "d7d5").await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn the_engine_resumes_after_a_restart() {
    let t = TestApp::new();
    // Full strength thinks for seconds: the restart comes first.
    let game = t
        .create(json!({ "variant": "tensor", "mode": "engine", "level": 6, "color": "black" }))
        .await;
    let id = game["id"].as_str().unwrap().to_string();
    assert_eq!(game["engine_thinking"], true);
    let t2 = t.restart();
    // The first server's search ends (stopped) without storing a move.
    searches_ended(&t).await;
    let (_, game) = t2.get(&format!("/api/games/{id}")).await;
    assert_eq!(plies(&game), 0, "the stopped search stored nothing");
    assert_eq!(game["engine_thinking"], true, "the engine thinks again");
    let game = t2
        .wait_for(&id, "the engine's move", |g| plies(g) == 1)
        .await;
    assert_eq!(game["engine_thinking"], false);
    t2.state.shutdown();
}

#[tokio::test]
async fn saved_games_list_and_delete() {
    // The list is ordered by the server's millisecond stamps: the test's
    // clock gives each change its own.
    let clock = std::sync::Arc::new(ManualClock::new(1_000_000));
    let t = TestApp::with_config(ServerConfig {
        clock: clock.clone(),
        ..ServerConfig::default()
    });
    let a = t.create(json!({ "mode": "local" })).await;
    clock.advance(1);
    let b = t
        .create(json!({ "mode": "local", "variant": "chess" }))
        .await;
    clock.advance(1);
    t.play(a["id"].as_str().unwrap(), "e2e4").await;
    let (_, list) = t.get("/api/games").await;
    let list = list["games"].as_array().unwrap();
    assert_eq!(list.len(), 2);
    assert_eq!(list[0]["id"], a["id"], "the most recently played first");
    assert_eq!(list[0]["move_count"], 1);
    assert_eq!(list[0]["finished"], false);
    let res = t
        .response(
            Request::delete(format!("/api/games/{}", b["id"].as_str().unwrap()))
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(res.status(), StatusCode::NO_CONTENT);
    let (_, list) = t.get("/api/games").await;
    assert_eq!(list["games"].as_array().unwrap().len(), 1);
    let (status, _) = t
        .get(&format!("/api/games/{}", b["id"].as_str().unwrap()))
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn the_page_and_its_files_are_served() {
    let t = TestApp::new();
    for (path, mime) in [
        ("/", "text/html"),
        ("/rules.html", "text/html"),
        ("/js/board.js", "text/javascript"),
        ("/css/app.css", "text/css"),
        ("/rules/diagrams.json", "application/json"),
    ] {
        let (status, headers, _) = crate::common::fetch(&t.router, path).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        let ct = headers[header::CONTENT_TYPE].to_str().unwrap().to_string();
        assert!(ct.starts_with(mime), "{path}: {ct}");
        let etag = headers[header::ETAG].clone();
        let again = t
            .router
            .clone()
            .oneshot(
                Request::get(path)
                    .header(header::IF_NONE_MATCH, etag)
                    .body(Body::empty())
                    .unwrap(),
            )
            .await
            .unwrap();
        assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
    }
    let res = t
        .router
        .clone()
        .oneshot(Request::get("/no/such/file").body(Body::empty()).unwrap())
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
}

/// A GET through the router: status, `Cache-Control` and body.
async fn get_file(t: &TestApp, path: &str) -> (StatusCode, String, Vec<u8>) {
    let (status, headers, body) = crate::common::fetch(&t.router, path).await;
    let cache = headers
        .get(header::CACHE_CONTROL)
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    (status, cache, body)
}

#[tokio::test]
async fn the_pages_name_versioned_files_that_browsers_keep() {
    let t = TestApp::new();
    for page in ["/", "/rules.html", "/puzzles.html", "/docs/bots"] {
        let (status, cache, html) = get_file(&t, page).await;
        assert_eq!(status, StatusCode::OK, "{page}");
        assert_eq!(cache, "no-cache", "{page}: a page is always asked again");
        let html = String::from_utf8(html).unwrap();
        // The import map comes before the first script, and maps /js/ to
        // this build's folder; the style sheets are named there directly.
        let map_at = html.find("<script type=\"importmap\">").expect(page);
        assert_eq!(html.find("<script"), Some(map_at), "{page}");
        let version = html[map_at..]
            .split("\"/js/\":\"/a/")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .expect("the version in the import map")
            .to_string();
        assert_eq!(version.len(), 12, "{page}: {version}");
        assert!(
            html.contains(&format!(
                "<link rel=\"stylesheet\" href=\"/a/{version}/css/app.css\">"
            )),
            "{page}"
        );
        assert!(
            !html.contains("href=\"/css/"),
            "{page}: an unversioned style sheet"
        );

        // This build's copies are kept for a year, the same bytes as the
        // file at its own path (which is revalidated every time).
        for file in ["/js/app.js", "/js/ui/shell.js", "/css/app.css"] {
            let (status, cache, body) = get_file(&t, &format!("/a/{version}{file}")).await;
            assert_eq!(status, StatusCode::OK, "{file}");
            assert_eq!(cache, "public, max-age=31536000, immutable", "{file}");
            let (_, plain_cache, plain) = get_file(&t, file).await;
            assert_eq!(plain_cache, "no-cache", "{file}");
            assert_eq!(body, plain, "{file}");
        }
    }
    // Another build's version (a page left open over a deploy) gets this
    // build's file, not to be kept; nothing else is found under /a/.
    let (status, cache, _) = get_file(&t, "/a/0123456789ab/js/app.js").await;
    assert_eq!((status, cache.as_str()), (StatusCode::OK, "no-cache"));
    let (_, _, html) = get_file(&t, "/").await;
    let html = String::from_utf8(html).unwrap();
    let version = html
        .split("\"/a/")
        .nth(1)
        .unwrap()
        .split('/')
        .next()
        .unwrap();
    for path in [
        format!("/a/{version}/js/nothing.js"),
        format!("/a/{version}/../js/app.js"),
        format!("/a/{version}"),
        "/a/".to_string(),
    ] {
        let (status, _, _) = get_file(&t, &path).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
    }
}

#[tokio::test]
async fn websocket_sends_snapshots_and_updates_and_survives_bad_messages() {
    use tokio_tungstenite::tungstenite::Message;
    let t = TestApp::new();
    let game = t.create(json!({ "mode": "local" })).await;
    let id = game["id"].as_str().unwrap().to_string();

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(tensorchess::server::serve(
        listener,
        t.state.clone(),
        async {
            let _ = stop_rx.await;
        },
    ));
    // The socket speaks for the player who made the game (their cookie).
    let mut request = format!("ws://{addr}/api/ws").into_client_request().unwrap();
    let cookie = t.cookie.lock().unwrap().clone().unwrap();
    request
        .headers_mut()
        .insert(header::COOKIE, cookie.parse().unwrap());
    let (mut ws, _) = tokio_tungstenite::connect_async(request).await.unwrap();

    ws.send(Message::text("this is not json")).await.unwrap();
    let err = next(&mut ws).await;
    assert_eq!(err["type"], "error");
    ws.send(Message::text("x".repeat(10_000))).await.unwrap();
    let err = next(&mut ws).await;
    assert_eq!(err["type"], "error");
    assert!(err["message"].as_str().unwrap().contains("too large"));
    ws.send(Message::text(r#"{"type":"subscribe","topic":"game:nope"}"#))
        .await
        .unwrap();
    assert_eq!(next(&mut ws).await["type"], "error");
    ws.send(Message::text(r#"{"type":"subscribe","topic":"nowhere"}"#))
        .await
        .unwrap();
    assert_eq!(next(&mut ws).await["type"], "error");
    ws.send(Message::text(r#"{"type":"subscribe","topic":"lobby"}"#))
        .await
        .unwrap();
    assert_eq!(next(&mut ws).await["type"], "subscribed");
    let lobby = next(&mut ws).await;
    assert_eq!(lobby["type"], "lobby");
    assert_eq!(lobby["seeks"], json!([]));
    ws.send(Message::text(r#"{"type":"ping"}"#)).await.unwrap();
    assert_eq!(
        next(&mut ws).await["type"],
        "pong",
        "the connection stayed open"
    );

    ws.send(Message::text(
        json!({ "type": "subscribe", "topic": format!("game:{id}") }).to_string(),
    ))
    .await
    .unwrap();
    assert_eq!(next(&mut ws).await["type"], "subscribed");
    let snapshot = next(&mut ws).await;
    assert_eq!(snapshot["type"], "game");
    assert_eq!(snapshot["event"], "snapshot");
    assert_eq!(snapshot["game"]["id"], id.as_str());

    let (status, _) = t.play(&id, "e2e4").await;
    assert_eq!(status, StatusCode::OK);
    let update = next(&mut ws).await;
    assert_eq!(update["event"], "move");
    assert_eq!(update["game"]["moves"][0]["uci"], "e2e4");
    assert_eq!(update["game"]["rev"], 2);

    // Shutting down closes the socket and ends the server.
    stop_tx.send(()).unwrap();
    let end = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            match ws.next().await {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => break,
                _ => {}
            }
        }
    })
    .await;
    assert!(end.is_ok(), "the socket was closed");
    tokio::time::timeout(Duration::from_secs(10), server)
        .await
        .expect("the server stopped")
        .unwrap()
        .unwrap();
}

/// Waits until no engine search of `t` runs or waits (a stopped one has
/// given its slot back).
async fn searches_ended(t: &TestApp) {
    let budget = t.state.games.local.engine().budget().clone();
    let start = std::time::Instant::now();
    while budget.load() != (0, 0) {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "the search did not stop"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}
