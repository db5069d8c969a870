//! Programs (issue 24): personal API tokens made, listed and revoked; a
//! token's scopes; bot accounts (made only from an account with no games,
//! shown as BOT, kept out of the lobby); the event stream (what is current
//! first, then challenges and games as they come, a keep-alive line on the
//! test clock); the game stream (`gameFull`, then `gameState` on every
//! change, chat lines); moves, draws, resignation, aborts and chat through
//! the Bot and Board APIs; lichess's challenge routes, JSON and forms.

use crate::common::online::*;
use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use std::time::Duration;
use tower::ServiceExt;

/// `POST uri` with a bearer token and no body (a program's command).
pub async fn post_token(t: &TestApp, uri: &str, token: &str) -> Answer {
    with_token(t, Method::POST, uri, token, None).await
}

/// A 5+2 game between ann (a person, White) and the bot robo, made by
/// ann's challenge and robo's acceptance: ann's cookie, robo's token and
/// the game's id.
pub async fn person_against_bot(t: &TestApp) -> (String, String, String) {
    let ann = account(t, "ann").await;
    let (_, bot) = bot_account(t, "robo").await;
    let c = t
        .post(
            "/api/challenges",
            Some(&ann),
            json!({ "to": "robo", "color": "white", "clock": { "base_seconds": 300, "increment_seconds": 2 } }),
        )
        .await;
    let cid = c.body["id"].as_str().unwrap().to_string();
    let a = post_token(t, &format!("/api/challenge/{cid}/accept"), &bot).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let list = t.get("/api/games", Some(&ann)).await;
    let id = list.body["games"][0]["id"].as_str().unwrap().to_string();
    (ann, bot, id)
}

/// Sends a request with a bearer token (a program: no cookie, and no
/// `Content-Type` unless it has a JSON body).
pub async fn with_token(
    t: &TestApp,
    method: Method,
    uri: &str,
    token: &str,
    body: Option<Value>,
) -> Answer {
    let mut b = Request::builder()
        .method(method)
        .uri(uri)
        .header(header::AUTHORIZATION, format!("Bearer {token}"));
    let body = match body {
        Some(v) => {
            b = b.header(header::CONTENT_TYPE, "application/json");
            Body::from(v.to_string())
        }
        None => Body::empty(),
    };
    t.send(b.body(body).unwrap()).await
}

/// Makes a token for the account of `cookie`.
pub async fn make_token(t: &TestApp, cookie: &str, scopes: &[&str]) -> String {
    let a = t
        .post(
            "/api/account/tokens",
            Some(cookie),
            json!({ "description": "my program", "scopes": scopes }),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    a.body["token"].as_str().unwrap().to_string()
}

/// A new bot account `name`: its cookie and a token to play with.
pub async fn bot_account(t: &TestApp, name: &str) -> (String, String) {
    let cookie = account(t, name).await;
    let token = make_token(t, &cookie, &["bot:play", "challenge:write"]).await;
    let up = post_token(t, "/api/bot/account/upgrade", &token).await;
    assert_eq!(up.status, StatusCode::OK, "{}", up.text);
    (cookie, token)
}

/// An NDJSON answer, read line by line as it comes.
pub struct Lines {
    body: Body,
    buf: Vec<u8>,
}

impl Lines {
    /// Opens a stream (its status must be 200 and its type NDJSON).
    pub async fn open(t: &TestApp, uri: &str, token: &str) -> Lines {
        let req = Request::builder()
            .uri(uri)
            .header(header::AUTHORIZATION, format!("Bearer {token}"))
            .body(Body::empty())
            .unwrap();
        let res = t.router.clone().oneshot(req).await.unwrap();
        assert_eq!(res.status(), StatusCode::OK);
        assert_eq!(res.headers()[header::CONTENT_TYPE], "application/x-ndjson");
        Lines {
            body: res.into_body(),
            buf: Vec::new(),
        }
    }

    /// The next line, empty for a keep-alive; `None` once the stream ended.
    pub async fn line(&mut self) -> Option<String> {
        loop {
            if let Some(i) = self.buf.iter().position(|b| *b == b'\n') {
                let line: Vec<u8> = self.buf.drain(..=i).collect();
                return Some(String::from_utf8(line[..i].to_vec()).unwrap());
            }
            let frame = tokio::time::timeout(Duration::from_secs(10), self.body.frame())
                .await
                .expect("a line within 10 s");
            match frame {
                Some(Ok(f)) => {
                    if let Ok(data) = f.into_data() {
                        self.buf.extend_from_slice(&data);
                    }
                }
                _ => return None,
            }
        }
    }

    /// The next line of JSON, skipping keep-alives.
    pub async fn next(&mut self) -> Value {
        loop {
            let line = self.line().await.expect("the stream goes on");
            if !line.is_empty() {
                return serde_json::from_str(&line).unwrap();
            }
        }
    }

    /// The next line of `kind`, skipping others.
    pub async fn next_of(&mut self, kind: &str) -> Value {
        loop {
            let v = self.next().await;
            if v["type"] == kind {
                return v;
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tokens_are_made_listed_used_and_revoked() {
    let t = TestApp::new();
    // A guest has no account, so no tokens.
    let a = t
        .post(
            "/api/account/tokens",
            None,
            json!({ "description": "x", "scopes": ["bot:play"] }),
        )
        .await;
    expect_refused(&a, StatusCode::CONFLICT, "account_needed");
    let ann = account(&t, "ann").await;
    let a = t
        .post(
            "/api/account/tokens",
            Some(&ann),
            json!({ "description": "x", "scopes": ["admin"] }),
        )
        .await;
    expect_refused(&a, StatusCode::BAD_REQUEST, "bad_request");

    let made = t
        .post(
            "/api/account/tokens",
            Some(&ann),
            json!({ "description": "my bot", "scopes": ["challenge:write"] }),
        )
        .await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
    let token = made.body["token"].as_str().unwrap().to_string();
    assert!(token.starts_with("tct_") && token.len() == 36, "{token}");
    assert_eq!(made.body["scopes"], json!(["challenge:write"]));
    let id = made.body["id"].as_str().unwrap().to_string();

    let list = t.get("/api/account/tokens", Some(&ann)).await;
    assert_eq!(list.status, StatusCode::OK);
    assert_eq!(list.body["tokens"].as_array().unwrap().len(), 1);
    assert_eq!(list.body["tokens"][0]["description"], "my bot");
    assert!(
        !list.text.contains(&token),
        "the token is never shown again"
    );
    assert!(list.body["tokens"][0]["last_used_at"].is_null());

    // The token is its account's.
    let me = with_token(&t, Method::GET, "/api/account", &token, None).await;
    assert_eq!(me.status, StatusCode::OK, "{}", me.text);
    assert_eq!(me.body["username"], "ann");
    assert!(me.body["title"].is_null());
    assert!(me.set_cookie.is_none(), "a program gets no cookie");
    let list = t.get("/api/account/tokens", Some(&ann)).await;
    assert_eq!(list.body["tokens"][0]["last_used_at"], T0);
    // A token does not make tokens.
    let a = with_token(
        &t,
        Method::POST,
        "/api/account/tokens",
        &token,
        Some(json!({ "description": "y", "scopes": [] })),
    )
    .await;
    expect_refused(&a, StatusCode::FORBIDDEN, "missing_scope");

    // A scope missing: 403 with a reason.
    let a = post_token(&t, "/api/bot/account/upgrade", &token).await;
    expect_refused(&a, StatusCode::FORBIDDEN, "missing_scope");
    assert!(a.body["error"].as_str().unwrap().contains("bot:play"));
    // A route for programs without a token: 401.
    let a = t.get("/api/stream/event", Some(&ann)).await;
    expect_refused(&a, StatusCode::UNAUTHORIZED, "unauthorized");
    // Unknown tokens: 401.
    for bad in ["tct_00000000000000000000000000000000", "nonsense"] {
        let a = with_token(&t, Method::GET, "/api/account", bad, None).await;
        expect_refused(&a, StatusCode::UNAUTHORIZED, "unauthorized");
    }

    // Another account cannot revoke it; its owner can, once.
    let bob = account(&t, "bob").await;
    let uri = format!("/api/account/tokens/{id}");
    let a = t.req(Method::DELETE, &uri, Some(&bob), None).await;
    expect_refused(&a, StatusCode::NOT_FOUND, "not_found");
    let a = t.req(Method::DELETE, &uri, Some(&ann), None).await;
    assert_eq!(a.status, StatusCode::NO_CONTENT, "{}", a.text);
    let a = t.req(Method::DELETE, &uri, Some(&ann), None).await;
    expect_refused(&a, StatusCode::NOT_FOUND, "not_found");
    let a = with_token(&t, Method::GET, "/api/account", &token, None).await;
    expect_refused(&a, StatusCode::UNAUTHORIZED, "unauthorized");
    let list = t.get("/api/account/tokens", Some(&ann)).await;
    assert_eq!(list.body["tokens"], json!([]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_an_account_without_games_becomes_a_bot_and_bots_keep_out_of_the_lobby() {
    let t = TestApp::new();
    let ann = account(&t, "ann").await;
    let bob = account(&t, "bob").await;
    // Ann plays a game (a challenge Bob accepts).
    let c = t
        .post(
            "/api/challenges",
            Some(&ann),
            json!({ "to": "bob", "clock": { "base_seconds": 60 } }),
        )
        .await;
    let cid = c.body["id"].as_str().unwrap();
    let a = t
        .post(
            &format!("/api/challenges/{cid}/accept"),
            Some(&bob),
            json!({}),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    let token = make_token(&t, &ann, &["bot:play"]).await;
    let a = post_token(&t, "/api/bot/account/upgrade", &token).await;
    expect_refused(&a, StatusCode::FORBIDDEN, "bot_account");
    assert!(a.body["error"].as_str().unwrap().contains("no game"));

    let (robo, robo_token) = bot_account(&t, "robo").await;
    let a = post_token(&t, "/api/bot/account/upgrade", &robo_token).await;
    expect_refused(&a, StatusCode::FORBIDDEN, "bot_account");
    let me = with_token(&t, Method::GET, "/api/account", &robo_token, None).await;
    assert_eq!(me.body["title"], "BOT");
    let profile = t.get("/api/players/robo", None).await;
    assert_eq!(profile.body["title"], "BOT", "{}", profile.text);
    let profile = t.get("/api/players/ann", None).await;
    assert!(profile.body["title"].is_null());

    // The lobby refuses a bot's seek, and a bot taking a rated seek.
    let seek = json!({ "variant": "tensor", "clock": { "base_seconds": 60 }, "rated": true });
    let a = t.post("/api/seeks", Some(&robo), seek.clone()).await;
    expect_refused(&a, StatusCode::FORBIDDEN, "bot_account");
    let a = t.post("/api/seeks", Some(&bob), seek).await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    let sid = a.body["id"].as_str().unwrap();
    let a = t
        .post(&format!("/api/seeks/{sid}/accept"), Some(&robo), json!({}))
        .await;
    expect_refused(&a, StatusCode::FORBIDDEN, "bot_account");

    // A person's account uses the Board API, a bot's the Bot API.
    let board = make_token(&t, &bob, &["board:play"]).await;
    let a = post_token(&t, "/api/bot/game/x/resign", &board).await;
    expect_refused(&a, StatusCode::FORBIDDEN, "missing_scope");
    let a = post_token(&t, "/api/board/game/x/resign", &robo_token).await;
    expect_refused(&a, StatusCode::FORBIDDEN, "missing_scope");
    let bob_bot_scope = make_token(&t, &bob, &["bot:play"]).await;
    let a = post_token(&t, "/api/bot/game/x/resign", &bob_bot_scope).await;
    expect_refused(&a, StatusCode::FORBIDDEN, "bot_account");
}

/// Ann (a person) challenges the bot; the bot's event stream sees it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_event_stream_replays_what_is_current_then_follows() {
    let t = TestApp::new();
    let ann = account(&t, "ann").await;
    let (_, bot) = bot_account(&t, "robo").await;
    let first = t
        .post(
            "/api/challenges",
            Some(&ann),
            json!({ "to": "robo", "variant": "chess", "clock": { "base_seconds": 180, "increment_seconds": 2 } }),
        )
        .await;
    assert_eq!(first.status, StatusCode::CREATED, "{}", first.text);
    let first_id = first.body["id"].as_str().unwrap().to_string();

    let mut events = Lines::open(&t, "/api/stream/event", &bot).await;
    let c = events.next().await;
    assert_eq!(c["type"], "challenge", "{c}");
    assert_eq!(c["challenge"]["id"], first_id.as_str());
    assert_eq!(c["challenge"]["challenger"]["name"], "ann");
    assert_eq!(c["challenge"]["variant"]["key"], "standard");
    assert_eq!(c["challenge"]["speed"], "blitz");
    assert_eq!(c["challenge"]["timeControl"]["limit"], 180);
    assert_eq!(c["challenge"]["timeControl"]["increment"], 2);
    assert_eq!(c["challenge"]["rated"], false);

    // The stream's keep-alive runs on the server's clock.
    t.armed_for(T0 + 7_000).await;
    t.clock.advance(7_000);
    assert_eq!(events.line().await.as_deref(), Some(""));

    // A challenge made now, then withdrawn; one declined; one accepted.
    let second = t
        .post(
            "/api/challenges",
            Some(&ann),
            json!({ "to": "robo", "clock": { "base_seconds": 60 } }),
        )
        .await;
    let second_id = second.body["id"].as_str().unwrap().to_string();
    let c = events.next().await;
    assert_eq!(c["type"], "challenge");
    assert_eq!(c["challenge"]["id"], second_id.as_str());
    assert_eq!(c["challenge"]["variant"]["key"], "tensor");
    let a = t
        .req(
            Method::DELETE,
            &format!("/api/challenges/{second_id}"),
            Some(&ann),
            None,
        )
        .await;
    assert_eq!(a.status, StatusCode::NO_CONTENT);
    let c = events.next().await;
    assert_eq!(c["type"], "challengeCanceled");
    assert_eq!(c["challenge"]["id"], second_id.as_str());

    let a = post_token(&t, &format!("/api/challenge/{first_id}/decline"), &bot).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let c = events.next().await;
    assert_eq!(c["type"], "challengeDeclined");
    assert!(c["challenge"]["declineReason"].as_str().is_some());

    // lichess's form fields, from the bot to Ann; she accepts.
    let req = Request::builder()
        .method(Method::POST)
        .uri("/api/challenge/ann")
        .header(header::AUTHORIZATION, format!("Bearer {bot}"))
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(Body::from(
            "rated=false&clock.limit=300&clock.increment=3&color=white&variant=tensor&message=hi",
        ))
        .unwrap();
    let made = t.send(req).await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
    assert_eq!(made.body["timeControl"]["limit"], 300);
    assert_eq!(made.body["challenger"]["title"], "BOT");
    let cid = made.body["id"].as_str().unwrap().to_string();
    let c = events.next().await;
    assert_eq!(c["type"], "challenge");
    assert_eq!(c["challenge"]["direction"], "out");
    let a = t
        .post(
            &format!("/api/challenges/{cid}/accept"),
            Some(&ann),
            json!({}),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    let game = a.body["game"].as_str().unwrap().to_string();
    let g = events.next().await;
    assert_eq!(g["type"], "gameStart", "{g}");
    assert_eq!(g["game"]["id"], game.as_str());
    assert_eq!(g["game"]["color"], "white");
    assert_eq!(g["game"]["isMyTurn"], true);
    assert_eq!(g["game"]["opponent"]["username"], "ann");

    // Opened again, the stream starts with the game going on.
    let mut again = Lines::open(&t, "/api/stream/event", &bot).await;
    let g = again.next().await;
    assert_eq!(g["type"], "gameStart");
    assert_eq!(g["game"]["id"], game.as_str());

    // The game ends: both streams say so.
    let a = post_token(&t, &format!("/api/bot/game/{game}/abort"), &bot).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    for s in [&mut events, &mut again] {
        let f = s.next_of("gameFinish").await;
        assert_eq!(f["game"]["id"], game.as_str());
        assert_eq!(f["game"]["status"]["name"], "aborted");
    }
    let online = t.get("/api/bot/online", None).await;
    assert_eq!(online.status, StatusCode::OK);
    assert!(
        online.text.contains("\"username\":\"robo\""),
        "{}",
        online.text
    );
}

/// A game between a person and a bot, from the bot's game stream.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_game_stream_follows_moves_chat_and_the_end() {
    let t = TestApp::new();
    let (ann, bot, id) = person_against_bot(&t).await;
    let game = t.get("/api/challenges", Some(&ann)).await;
    assert_eq!(game.body["out"], json!([]));

    let mut s = Lines::open(&t, &format!("/api/bot/game/stream/{id}"), &bot).await;
    let full = s.next().await;
    assert_eq!(full["type"], "gameFull", "{full}");
    assert_eq!(full["id"], id.as_str());
    assert_eq!(full["variant"]["key"], "tensor");
    assert_eq!(
        full["clock"],
        json!({ "initial": 300_000, "increment": 2_000 })
    );
    assert_eq!(full["rated"], false);
    assert_eq!(full["white"]["name"], "ann");
    assert_eq!(full["black"]["name"], "robo");
    assert_eq!(full["black"]["title"], "BOT");
    assert_eq!(full["initialFen"], "startpos");
    assert_eq!(full["state"]["type"], "gameState");
    assert_eq!(full["state"]["moves"], "");
    assert_eq!(full["state"]["status"], "started");
    assert_eq!(full["state"]["wtime"], 300_000);

    // Not the bot's turn: refused with a reason.
    let uri = format!("/api/bot/game/{id}/move/e7e5");
    let a = post_token(&t, &uri, &bot).await;
    expect_refused(&a, StatusCode::CONFLICT, "not_your_turn");

    assert_eq!(t.play(&id, &ann, "e2e4", 0).await.status, StatusCode::OK);
    let st = s.next().await;
    assert_eq!(st["type"], "gameState", "{st}");
    assert_eq!(st["moves"], "e2e4");
    assert_eq!(st["winc"], 2_000);

    // An illegal move, refused with the rules' reason.
    let a = post_token(&t, &format!("/api/bot/game/{id}/move/e8e1"), &bot).await;
    expect_refused(&a, StatusCode::UNPROCESSABLE_ENTITY, "illegal_move");
    // A propel's `>` comes percent-encoded, and is read back.
    let a = post_token(&t, &format!("/api/bot/game/{id}/move/d7d6%3Ed5"), &bot).await;
    assert!(a.status.is_client_error(), "{}", a.text);
    assert!(a.text.contains("d7d6>d5"), "{}", a.text);

    let a = post_token(&t, &uri, &bot).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    assert_eq!(a.body, json!({ "ok": true }));
    let st = s.next().await;
    assert_eq!(st["moves"], "e2e4 e7e5");
    // Chat, as a form and as JSON; Ann's line too.
    let req = Request::builder()
        .method(Method::POST)
        .uri(format!("/api/bot/game/{id}/chat"))
        .header(header::AUTHORIZATION, format!("Bearer {bot}"))
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(Body::from("room=player&text=good+luck"))
        .unwrap();
    let a = t.send(req).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let line = s.next().await;
    assert_eq!(
        line,
        json!({ "type": "chatLine", "room": "player", "username": "robo", "text": "good luck" })
    );
    let a = t
        .post(
            &format!("/api/games/{id}/chat"),
            Some(&ann),
            json!({ "text": "you too" }),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    let line = s.next().await;
    assert_eq!(line["username"], "ann");
    assert_eq!(line["text"], "you too");
    // A spectator's line is not the players' to read while they play: the
    // stream's next line is Ann's, after it.
    let carl = account(&t, "carl").await;
    let a = t
        .post(
            &format!("/api/games/{id}/chat"),
            Some(&carl),
            json!({ "room": "spectators", "text": "White is lost" }),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    let a = t
        .post(
            &format!("/api/games/{id}/chat"),
            Some(&ann),
            json!({ "text": "still here" }),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    let line = s.next().await;
    assert_eq!(line["text"], "still here", "{line}");
    assert_eq!(line["room"], "player");

    // A draw offered with a move, declined by Ann; then the bot resigns.
    assert_eq!(t.play(&id, &ann, "d2d4", 2).await.status, StatusCode::OK);
    assert_eq!(s.next().await["moves"], "e2e4 e7e5 d2d4");
    let a = post_token(
        &t,
        &format!("/api/bot/game/{id}/move/d7d5?offeringDraw=true"),
        &bot,
    )
    .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let st = s.next().await;
    assert_eq!(st["moves"], "e2e4 e7e5 d2d4 d7d5");
    let st = if st["bdraw"] == true {
        st
    } else {
        s.next().await
    };
    assert_eq!(st["bdraw"], true, "{st}");
    let a = post_token(&t, &format!("/api/bot/game/{id}/resign"), &bot).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let end = s.next_of("gameState").await;
    assert_eq!(end["status"], "resign");
    assert_eq!(end["winner"], "white");
    assert_eq!(s.line().await, None, "the stream ends with the game");

    // Over: resigning again is refused; the stream of a finished game is
    // its gameFull alone.
    let a = post_token(&t, &format!("/api/bot/game/{id}/resign"), &bot).await;
    expect_refused(&a, StatusCode::CONFLICT, "game_over");
    let mut s = Lines::open(&t, &format!("/api/bot/game/stream/{id}"), &bot).await;
    assert_eq!(s.next().await["state"]["status"], "resign");
    assert_eq!(s.line().await, None);
}

/// A person's account plays from a program through the Board API; a
/// token's requests are limited (moves aside), answered 429 in JSON.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_board_api_plays_a_persons_game_and_tokens_are_limited() {
    let t = TestApp::new();
    let ann = account(&t, "ann").await;
    let bob = account(&t, "bob").await;
    let board = make_token(&t, &ann, &["board:play"]).await;
    let c = with_token(
        &t,
        Method::POST,
        "/api/challenge/bob",
        &board,
        Some(json!({ "color": "white", "clock": { "base_seconds": 60 } })),
    )
    .await;
    assert_eq!(c.status, StatusCode::CREATED, "{}", c.text);
    let cid = c.body["id"].as_str().unwrap();
    let a = t
        .post(
            &format!("/api/challenges/{cid}/accept"),
            Some(&bob),
            json!({}),
        )
        .await;
    let id = a.body["game"].as_str().unwrap().to_string();
    let mut s = Lines::open(&t, &format!("/api/board/game/stream/{id}"), &board).await;
    let full = s.next().await;
    assert_eq!(full["type"], "gameFull");
    assert!(full["white"]["title"].is_null());
    let a = post_token(&t, &format!("/api/board/game/{id}/move/e2e4"), &board).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    assert_eq!(s.next().await["moves"], "e2e4");
    // A spectator's stream is refused: only the players.
    let bob_board = make_token(&t, &bob, &["board:play"]).await;
    let (_, other) = bot_account(&t, "robo").await;
    let res = with_token(
        &t,
        Method::GET,
        &format!("/api/bot/game/stream/{id}"),
        &other,
        None,
    )
    .await;
    expect_refused(&res, StatusCode::FORBIDDEN, "not_a_player");
    let a = post_token(&t, &format!("/api/board/game/{id}/abort"), &bob_board).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let end = s.next_of("gameState").await;
    assert_eq!(end["status"], "aborted");

    // Forty requests at once, then a pause (the test clock stands still),
    // counted for the account whichever of its tokens sends them.
    let cy = account(&t, "cyd").await;
    let first = make_token(&t, &cy, &["board:play"]).await;
    let second = make_token(&t, &cy, &["board:play"]).await;
    for i in 0..40 {
        let token = if i % 2 == 0 { &first } else { &second };
        let a = with_token(&t, Method::GET, "/api/account", token, None).await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    }
    for token in [&first, &second] {
        let a = with_token(&t, Method::GET, "/api/account", token, None).await;
        expect_refused(&a, StatusCode::TOO_MANY_REQUESTS, "rate_limited");
        // As lichess answers: 429, `{"error": …}`, and when to come back
        // (lichess-bot waits on any 429; others read Retry-After).
        assert!(a.body["error"].is_string(), "{}", a.text);
        let wait: u64 = a.retry_after.as_deref().unwrap_or("").parse().unwrap();
        assert!((1..=60).contains(&wait), "{:?}", a.retry_after);
    }
    // Another account's token is counted apart.
    let a = with_token(&t, Method::GET, "/api/account", &bob_board, None).await;
    assert_eq!(a.status, StatusCode::OK);
    t.clock.advance(1_000);
    let a = with_token(&t, Method::GET, "/api/account", &second, None).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
}

/// A propel's `>` is percent-encoded in the path (what the bridge sends),
/// and the route reads it back.
#[test]
fn move_strings_become_path_segments() {
    use tensorchess::bot::path_segment;
    assert_eq!(path_segment("e2e4"), "e2e4");
    assert_eq!(path_segment("c1e3>g5"), "c1e3%3Eg5");
    assert_eq!(path_segment("M@c2"), "M@c2");
    assert_eq!(path_segment("b1d3xc2"), "b1d3xc2");
}
