//! Two servers over one PostgreSQL database, in one process: a game
//! created on one and joined on the other, moves reaching the sockets of
//! both, racing moves of which exactly one wins, a flag that falls once
//! though both servers' timers fire, presence and the lobby shared. Both
//! servers share a manual clock. A change no server hears of (a lost
//! notice) does not make a server refuse what the database allows.
//! Ignored unless asked for (`--run-ignored`): they need the PostgreSQL
//! that `TENSORCHESS_TEST_PG` names (`scripts/test.sh` starts one); the killed
//! processes are in `instances_kill.rs`.

use crate::common::online::*;
use axum::http::StatusCode;
use serde_json::{json, Value};

/// A legal move of the game as a server shows it.
fn a_legal_move(game: &Value, nth: usize) -> String {
    let legal = game["position"]["legal"].as_array().unwrap();
    legal[nth % legal.len()]["uci"]
        .as_str()
        .unwrap()
        .to_string()
}

/// A game created on `a` by White and joined on `b` by Black, both seats
/// listening on their own server's socket.
async fn game_across(a: &TestApp, b: &TestApp, clock: Value) -> (String, String, String) {
    let (id, white, _) = a
        .create(json!({ "variant": "tensor", "color": "white", "clock": clock }))
        .await;
    let joined = b
        .post(&format!("/api/games/{id}/join"), None, json!({}))
        .await;
    assert_eq!(joined.status, StatusCode::OK, "{}", joined.text);
    assert_eq!(joined.body["you"], "black");
    (id, white, joined.cookie.expect("a seat cookie"))
}

#[tokio::test]
#[ignore = "needs PostgreSQL: set TENSORCHESS_TEST_PG (scripts/test.sh does)"]
async fn a_game_is_played_across_two_servers() {
    let pair = two_servers().await;
    let Pair {
        a,
        b,
        addr_a,
        addr_b,
        ..
    } = &pair;
    let (addr_a, addr_b) = (*addr_a, *addr_b);
    let (id, white, black) = game_across(a, b, Value::Null).await;

    // White watches on A, Black and a spectator on B.
    let mut white_ws = ws_connect(addr_a, Some(&white)).await;
    let mut black_ws = ws_connect(addr_b, Some(&black)).await;
    let mut watcher = ws_connect(addr_b, None).await;
    let (_, mut seen) = subscribe(&mut white_ws, &id).await;
    // A hears of the join on B a moment later, if not yet: an update comes.
    while seen["game"]["online"]["black"]["taken"] != true {
        seen = next_of(&mut white_ws, &["game"]).await;
    }
    subscribe(&mut black_ws, &id).await;
    subscribe(&mut watcher, &id).await;
    // Presence crosses too: A sees Black, connected on B.
    wait_until("A sees both players connected", || async {
        let g = a.game(&id).await;
        g["online"]["white"]["connected"] == true && g["online"]["black"]["connected"] == true
    })
    .await;

    // Moves alternate between the servers; every socket sees every move.
    let mut game = a.game(&id).await;
    for ply in 0..6 {
        let (server, cookie) = if ply % 2 == 0 {
            (&a, &white)
        } else {
            (&b, &black)
        };
        let mv = a_legal_move(&game, ply * 7);
        let r = server.play(&id, cookie, &mv, ply).await;
        assert_eq!(
            r.status,
            StatusCode::OK,
            "ply {ply} on {}: {}",
            ply % 2,
            r.text
        );
        for (i, ws) in [&mut white_ws, &mut black_ws, &mut watcher]
            .into_iter()
            .enumerate()
        {
            let g = game_at(ws, ply + 1).await;
            assert_eq!(last_move(&g)["uci"], mv.as_str());
            // The same compact event on the instance that made the move and
            // on the one that followed it.
            assert_eq!(g["type"], "move", "{g}");
            // The legal moves go to the side to move, wherever it is (made
            // only by the instance it follows the game on).
            let to_move = if ply % 2 == 0 { 1 } else { 0 };
            assert_eq!(g.get("legal").is_some(), i == to_move, "socket {i}: {g}");
        }
        game = r.body;
    }
    // Both servers, and the database, agree.
    let (on_a, on_b) = (a.game(&id).await, b.game(&id).await);
    assert_eq!(on_a["rev"], on_b["rev"]);
    assert_eq!(on_a["moves"], on_b["moves"]);
    let stored = a.open_store().load_game(&id).await.unwrap().unwrap();
    assert_eq!(stored.moves.len(), 6);

    // Black leaves B: A hears it.
    drop(black_ws);
    wait_until("A sees Black gone", || async {
        a.game(&id).await["online"]["black"]["connected"] == false
    })
    .await;
}

/// Another server's commits this one followed: (played on from the
/// notice, read again from the database), from `GET /api/health`.
async fn follow_counts(t: &TestApp) -> (u64, u64) {
    let h = t.get("/api/health", None).await.body;
    (
        h["games_played_on"].as_u64().unwrap(),
        h["games_read_again"].as_u64().unwrap(),
    )
}

/// The other server's plain moves are played on from their notices,
/// without reading the game: what each server then holds is what a third
/// server reads from the database (moves, position, clocks, revision).
#[tokio::test]
#[ignore = "needs PostgreSQL: set TENSORCHESS_TEST_PG (scripts/test.sh does)"]
async fn moves_from_the_other_server_are_played_on_as_stored() {
    let Pair { a, b, _stops, .. } = two_servers().await;
    let clock = json!({ "base_seconds": 300, "increment_seconds": 3 });
    let (id, white, black) = game_across(&a, &b, clock).await;
    // Both servers hold the game (each has served one of its seats).
    b.game(&id).await;
    wait_until("A hears of the join", || async {
        a.game(&id).await["online"]["black"]["taken"] == true
    })
    .await;
    let (before_a, before_b) = (follow_counts(&a).await, follow_counts(&b).await);
    let mut game = a.game(&id).await;
    for ply in 0..8 {
        let (server, other, cookie) = if ply % 2 == 0 {
            (&a, &b, &white)
        } else {
            (&b, &a, &black)
        };
        a.clock.advance(1_500 + 100 * ply as i64);
        let mv = a_legal_move(&game, ply * 5 + 3);
        let r = server.play(&id, cookie, &mv, ply).await;
        assert_eq!(r.status, StatusCode::OK, "ply {ply}: {}", r.text);
        let rev = r.body["rev"].clone();
        wait_until("the other server follows", || async {
            other.game(&id).await["rev"] == rev
        })
        .await;
        game = r.body;
    }
    let (after_a, after_b) = (follow_counts(&a).await, follow_counts(&b).await);
    // Four moves each way, each played on; nothing read again.
    assert_eq!((after_a.0 - before_a.0, after_b.0 - before_b.0), (4, 4));
    assert_eq!((after_a.1, after_b.1), (before_a.1, before_b.1));
    // A third server reads the game from the database: the same game.
    let c = a.reopen();
    let (on_a, on_b, on_c) = (a.game(&id).await, b.game(&id).await, c.game(&id).await);
    for key in ["rev", "moves", "position", "end", "updated_at"] {
        assert_eq!(on_a[key], on_c[key], "{key}");
        assert_eq!(on_b[key], on_c[key], "{key}");
    }
    for key in ["clock", "draw_offer", "can_abort", "rated", "berserked"] {
        assert_eq!(on_a["online"][key], on_c["online"][key], "online.{key}");
        assert_eq!(on_b["online"][key], on_c["online"][key], "online.{key}");
    }
    assert!(on_c["online"]["clock"].is_object(), "{on_c}");
}

#[tokio::test]
#[ignore = "needs PostgreSQL: set TENSORCHESS_TEST_PG (scripts/test.sh does)"]
async fn racing_moves_on_two_servers_exactly_one_wins() {
    let Pair { a, b, _stops, .. } = two_servers().await;
    let (id, white, black) = game_across(&a, &b, Value::Null).await;
    let mut game = a.game(&id).await;
    for ply in 0..8 {
        let cookie = if ply % 2 == 0 { &white } else { &black };
        // The same seat sends two different moves for the same ply, one to
        // each server, at once.
        let (one, two) = (a_legal_move(&game, 0), a_legal_move(&game, 1));
        let (ra, rb) = tokio::join!(
            a.play(&id, cookie, &one, ply),
            b.play(&id, cookie, &two, ply)
        );
        let won: Vec<&Answer> = [&ra, &rb]
            .into_iter()
            .filter(|r| r.status == StatusCode::OK)
            .collect();
        assert_eq!(won.len(), 1, "ply {ply}: {} / {}", ra.text, rb.text);
        let lost = if ra.status == StatusCode::OK {
            &rb
        } else {
            &ra
        };
        assert_eq!(lost.status, StatusCode::CONFLICT, "{}", lost.text);
        assert!(
            ["stale", "conflict", "not_your_turn"].contains(&lost.body["kind"].as_str().unwrap()),
            "{}",
            lost.text
        );
        let winner = if ra.status == StatusCode::OK {
            &one
        } else {
            &two
        };
        let stored = a.open_store().load_game(&id).await.unwrap().unwrap();
        assert_eq!(stored.moves.len(), ply + 1);
        assert_eq!(&stored.moves[ply].uci, winner);
        game = won[0].body.clone();
    }
    // The loser's server caught up: both show the same game.
    wait_until("both servers agree", || async {
        a.game(&id).await["moves"] == b.game(&id).await["moves"]
    })
    .await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL: set TENSORCHESS_TEST_PG (scripts/test.sh does)"]
async fn a_flag_falls_once_though_both_servers_time_it() {
    let pair = two_servers().await;
    let Pair {
        a,
        b,
        addr_a,
        addr_b,
        ..
    } = &pair;
    let (addr_a, addr_b) = (*addr_a, *addr_b);
    let clock = json!({ "base_seconds": 60, "increment_seconds": 0 });
    let (id, white, black) = game_across(a, b, clock).await;
    let r = a.play(&id, &white, "e2e4", 0).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let r = b.play(&id, &black, "e7e5", 1).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    // Both servers hold the game, and so both time White's clock.
    wait_until("A has Black's move", || async {
        a.game(&id).await["moves"].as_array().unwrap().len() == 2
    })
    .await;
    let mut on_a = ws_connect(addr_a, None).await;
    let mut on_b = ws_connect(addr_b, None).await;
    subscribe(&mut on_a, &id).await;
    subscribe(&mut on_b, &id).await;
    let rev_before = a
        .open_store()
        .load_game(&id)
        .await
        .unwrap()
        .unwrap()
        .record
        .rev;

    a.clock.advance(61_000);
    for ws in [&mut on_a, &mut on_b] {
        loop {
            let g = next_of(ws, &["game"]).await;
            if !g["game"]["end"].is_null() {
                assert_eq!(g["game"]["end"]["reason"], "timeout", "{g}");
                break;
            }
        }
    }
    let stored = a.open_store().load_game(&id).await.unwrap().unwrap();
    assert_eq!(
        stored.record.rev,
        rev_before + 1,
        "one write ended the game"
    );
    for t in [&a, &b] {
        let g = t.game(&id).await;
        assert_eq!(g["end"]["reason"], "timeout");
        assert_eq!(g["online"]["clock"]["white_ms"], 0);
    }
}

#[tokio::test]
#[ignore = "needs PostgreSQL: set TENSORCHESS_TEST_PG (scripts/test.sh does)"]
async fn the_lobby_is_shared_and_a_seek_makes_one_game() {
    let pair = two_servers().await;
    let Pair {
        a,
        b,
        addr_a,
        addr_b,
        ..
    } = &pair;
    let (addr_a, addr_b) = (*addr_a, *addr_b);
    let ann = a.get("/api/me", None).await.cookie.expect("an identity");
    let ben = b.get("/api/me", None).await.cookie.expect("an identity");
    let cat = a.get("/api/me", None).await.cookie.expect("an identity");
    let mut ann_ws = ws_connect(addr_a, Some(&ann)).await;
    let mut ben_ws = ws_connect(addr_b, Some(&ben)).await;
    for ws in [&mut ann_ws, &mut ben_ws] {
        send(ws, json!({ "type": "subscribe", "topic": "lobby" })).await;
        next_of(ws, &["lobby"]).await;
    }
    let body = json!({ "variant": "tensor", "clock": { "base_seconds": 300, "increment_seconds": 3 },
                       "rated": false, "color": "random" });
    let seek = a.post("/api/seeks", Some(&ann), body).await;
    assert_eq!(seek.status, StatusCode::CREATED, "{}", seek.text);
    let seek_id = seek.body["id"].as_str().unwrap().to_string();
    // Ben, on B, sees Ann's seek on A: the seek itself, not the list.
    let added = next_of(&mut ben_ws, &["seek_added", "lobby"]).await;
    assert_eq!(added["type"], "seek_added", "{added}");
    assert_eq!(added["seek"], seek.body);
    // Ben on B and Cat on A accept it at once: one game.
    let accept = format!("/api/seeks/{seek_id}/accept");
    let (rb, rc) = tokio::join!(
        b.post(&accept, Some(&ben), json!({})),
        a.post(&accept, Some(&cat), json!({}))
    );
    let made: Vec<&Answer> = [&rb, &rc]
        .into_iter()
        .filter(|r| r.status == StatusCode::CREATED)
        .collect();
    assert_eq!(made.len(), 1, "{} / {}", rb.text, rc.text);
    let game_id = made[0].body["id"].as_str().unwrap().to_string();
    // Ann's page, on A, is told of the pairing made wherever it was.
    let paired = next_of(&mut ann_ws, &["paired"]).await;
    assert_eq!(paired["seek"], seek_id.as_str());
    assert_eq!(paired["game"], game_id.as_str());
    let g = a.game(&game_id).await;
    assert_eq!(g["online"]["white"]["taken"], true);
    assert_eq!(g["online"]["black"]["taken"], true);
    let open = b.get("/api/seeks", None).await.body;
    assert_eq!(open, json!([]));
    // And B's lobby page hears that it went.
    let removed = next_of(&mut ben_ws, &["seek_removed"]).await;
    assert_eq!(removed["ids"], json!([seek_id]));
}

/// Changes the database behind every server's back, as another server
/// whose notice was lost would have: no server hears of it.
async fn unheard(t: &TestApp, sql: &str) {
    let url = crate::common::test_pg_url();
    let schema = t.pg.as_ref().expect("on PostgreSQL").schema();
    let (client, conn) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
        .await
        .unwrap();
    let conn = tokio::spawn(conn);
    client
        .batch_execute(&format!("SET search_path = {schema}; {sql}"))
        .await
        .unwrap();
    drop(client);
    let _ = conn.await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL: set TENSORCHESS_TEST_PG (scripts/test.sh does)"]
async fn a_seat_taken_unheard_of_does_not_refuse_the_first_move() {
    let Pair { a, b, _stops, .. } = two_servers().await;
    let (id, white, _) = a
        .create(json!({ "variant": "tensor", "color": "white" }))
        .await;
    let me = b.get("/api/me", None).await;
    let black = me.cookie.expect("an identity");
    let player = me.body["id"].as_str().unwrap();
    unheard(
        &a,
        &format!(
            "UPDATE online_games SET black_player = '{player}' WHERE game_id = '{id}';
             UPDATE games SET rev = rev + 1, black = 'Ben' WHERE id = '{id}';"
        ),
    )
    .await;
    // A still thinks White waits for an opponent; the database says not.
    let r = a.play(&id, &white, "e2e4", 0).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let r = b.play(&id, &black, "e7e5", 1).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    // A refusal the database agrees with stays a refusal.
    let r = a.play(&id, &black, "d7d5", 2).await;
    expect_refused(&r, StatusCode::CONFLICT, "not_your_turn");
}

#[tokio::test]
#[ignore = "needs PostgreSQL: set TENSORCHESS_TEST_PG (scripts/test.sh does)"]
async fn a_local_move_unheard_of_does_not_refuse_the_next() {
    let Pair { a, _stops, .. } = two_servers().await;
    let made = a
        .post(
            "/api/games",
            None,
            json!({ "variant": "chess", "mode": "local" }),
        )
        .await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
    let id = made.body["id"].as_str().unwrap().to_string();
    let me = made.cookie.expect("an identity");
    let moves = format!("/api/games/{id}/moves");
    let r = a
        .post(&moves, Some(&me), json!({ "move": "e2e4", "ply": 0 }))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    unheard(
        &a,
        &format!(
            "INSERT INTO moves (game_id, ply, uci, san, played_at) VALUES ('{id}', 1, 'e7e5', 'e5', 0);
             UPDATE games SET rev = rev + 1 WHERE id = '{id}';"
        ),
    )
    .await;
    let r = a
        .post(&moves, Some(&me), json!({ "move": "g1f3", "ply": 2 }))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let sans: Vec<&str> = r.body["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["san"].as_str().unwrap())
        .collect();
    assert_eq!(sans, ["e4", "e5", "Nf3"]);
    // A move for a ply already played is refused, as on one server.
    let r = a
        .post(&moves, Some(&me), json!({ "move": "b8c6", "ply": 2 }))
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: set TENSORCHESS_TEST_PG (scripts/test.sh does)"]
async fn chat_and_challenges_reach_pages_on_the_other_server() {
    let pair = two_servers().await;
    let Pair {
        a,
        b,
        addr_a,
        addr_b,
        ..
    } = &pair;
    let (addr_a, addr_b) = (*addr_a, *addr_b);
    // Chat: White writes on A; Black's page on B hears it.
    let (id, white, black) = game_across(a, b, Value::Null).await;
    let mut black_ws = ws_connect(addr_b, Some(&black)).await;
    let topic = format!("chat:{id}:players");
    send(
        &mut black_ws,
        json!({ "type": "subscribe", "topic": topic }),
    )
    .await;
    next_of(&mut black_ws, &["chat_history"]).await;
    let said = a
        .post(
            &format!("/api/games/{id}/chat"),
            Some(&white),
            json!({ "room": "players", "text": "hello from A" }),
        )
        .await;
    assert_eq!(said.status, StatusCode::CREATED, "{}", said.text);
    let heard = next_of(&mut black_ws, &["chat"]).await;
    assert_eq!(heard["topic"], topic);
    assert_eq!(heard["line"]["text"], "hello from A");
    assert_eq!(heard["line"]["seat"], "white");

    // Challenges: Ann on A challenges Bob, whose page is on B; Bob
    // accepts on B and Ann's page on A is told.
    let ann = account(a, "ann").await;
    let bob = account(b, "bob").await;
    let mut ann_ws = ws_connect(addr_a, Some(&ann)).await;
    let mut bob_ws = ws_connect(addr_b, Some(&bob)).await;
    follow_challenges(&mut ann_ws).await;
    follow_challenges(&mut bob_ws).await;
    let made = a
        .post(
            "/api/challenges",
            Some(&ann),
            json!({ "to": "bob", "color": "black" }),
        )
        .await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
    let seen = next_of(&mut bob_ws, &["challenge"]).await;
    assert_eq!(
        (
            seen["event"].as_str(),
            seen["challenge"]["direction"].as_str()
        ),
        (Some("created"), Some("in"))
    );
    let cid = made.body["id"].as_str().unwrap();
    let accepted = b
        .post(
            &format!("/api/challenges/{cid}/accept"),
            Some(&bob),
            json!({}),
        )
        .await;
    assert_eq!(accepted.status, StatusCode::CREATED, "{}", accepted.text);
    let game = accepted.body["game"].as_str().unwrap();
    let told = loop {
        let m = next_of(&mut ann_ws, &["challenge"]).await;
        if m["event"] == "accepted" {
            break m;
        }
    };
    assert_eq!(told["challenge"]["game"], game);
    // Ann plays Black in it, from server A.
    let g = a.get(&format!("/api/games/{game}"), Some(&ann)).await;
    assert_eq!(g.body["you"], "black", "{}", g.text);
}

/// A program's token made on one server works on the other, and once
/// revoked on one is refused on the other at once; a bot's event stream on
/// one server hears of a challenge made on the other, and its game stream
/// of a move made there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: set TENSORCHESS_TEST_PG (scripts/test.sh does)"]
async fn tokens_and_bot_streams_work_across_servers() {
    use crate::bots::{bot_account, make_token, with_token, Lines};
    use axum::http::Method;
    let Pair { a, b, _stops, .. } = two_servers().await;
    let ann = account(&a, "ann").await;
    let (_, bot) = bot_account(&a, "robo").await;
    let mut events = Lines::open(&b, "/api/stream/event", &bot).await;
    let c = a
        .post(
            "/api/challenges",
            Some(&ann),
            json!({ "to": "robo", "color": "white", "clock": { "base_seconds": 60 } }),
        )
        .await;
    assert_eq!(c.status, StatusCode::CREATED, "{}", c.text);
    let cid = c.body["id"].as_str().unwrap().to_string();
    let seen = events.next_of("challenge").await;
    assert_eq!(seen["challenge"]["id"], cid.as_str());
    let ok = with_token(
        &b,
        Method::POST,
        &format!("/api/challenge/{cid}/accept"),
        &bot,
        None,
    )
    .await;
    assert_eq!(ok.status, StatusCode::OK, "{}", ok.text);
    let start = events.next_of("gameStart").await;
    let id = start["game"]["id"].as_str().unwrap().to_string();
    let mut game = Lines::open(&b, &format!("/api/bot/game/stream/{id}"), &bot).await;
    assert_eq!(game.next().await["type"], "gameFull");
    assert_eq!(a.play(&id, &ann, "e2e4", 0).await.status, StatusCode::OK);
    assert_eq!(game.next_of("gameState").await["moves"], "e2e4");

    // Revoked on A, refused on B.
    let token = make_token(&a, &ann, &["board:play"]).await;
    let me = with_token(&b, Method::GET, "/api/account", &token, None).await;
    assert_eq!(me.status, StatusCode::OK, "{}", me.text);
    let list = a.get("/api/account/tokens", Some(&ann)).await;
    let tid = list.body["tokens"][0]["id"].as_str().unwrap().to_string();
    let gone = a
        .req(
            Method::DELETE,
            &format!("/api/account/tokens/{tid}"),
            Some(&ann),
            None,
        )
        .await;
    assert_eq!(gone.status, StatusCode::NO_CONTENT, "{}", gone.text);
    let me = with_token(&b, Method::GET, "/api/account", &token, None).await;
    expect_refused(&me, StatusCode::UNAUTHORIZED, "unauthorized");
}

/// The home page's counts (`GET /api/site`: players online, games being
/// played, the featured game) and a game's spectators come from the
/// presence both servers share: each server says the same, whichever
/// holds the sockets.
#[tokio::test]
#[ignore = "needs PostgreSQL: set TENSORCHESS_TEST_PG (scripts/test.sh does)"]
async fn the_site_counts_and_spectators_are_the_same_on_both_servers() {
    let pair = two_servers().await;
    let Pair {
        a,
        b,
        addr_a,
        addr_b,
        ..
    } = &pair;
    let (addr_a, addr_b) = (*addr_a, *addr_b);
    let clock = json!({ "base_seconds": 300, "increment_seconds": 3 });
    let (id, white, black) = game_across(a, b, clock).await;
    // White has an account: the featured game names it (a link to the profile).
    let white = a.register(Some(&white), "wanda").await;
    // White on A; Black, and a spectator, on B; another spectator on A.
    let mut white_ws = ws_connect(addr_a, Some(&white)).await;
    let mut black_ws = ws_connect(addr_b, Some(&black)).await;
    let mut watcher_b = ws_connect(addr_b, None).await;
    subscribe(&mut white_ws, &id).await;
    subscribe(&mut black_ws, &id).await;
    subscribe(&mut watcher_b, &id).await;
    for (name, t) in [("A", a), ("B", b)] {
        wait_until(
            &format!("{name} counts the players and the game"),
            || async {
                let s = t.get("/api/site", None).await.body;
                s["players_online"] == 3
                    && s["games_playing"] == 1
                    && s["featured"]["id"] == id.as_str()
                    && s["featured"]["white_account"] == "wanda"
                    && s["featured"]["black_account"].is_null()
            },
        )
        .await;
    }
    // A second spectator, on A: White's socket hears two.
    let mut watcher_a = ws_connect(addr_a, None).await;
    subscribe(&mut watcher_a, &id).await;
    loop {
        let p = next_of(&mut white_ws, &["presence"]).await;
        if p["spectators"] == 2 {
            assert_eq!(p["white"], true);
            assert_eq!(p["black"], true);
            break;
        }
    }
    // The spectator on B leaves: Black's socket (on B) and White's (on A) hear one.
    drop(watcher_b);
    for ws in [&mut black_ws, &mut white_ws] {
        while next_of(ws, &["presence"]).await["spectators"] != 1 {}
    }
    wait_until("B counts three players online", || async {
        b.get("/api/site", None).await.body["players_online"] == 3
    })
    .await;
}
