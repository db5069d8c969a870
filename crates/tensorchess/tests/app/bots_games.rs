//! Programs (issue 24), continued: the event stream tells of every game
//! the account plays, however it was made (a seek of the lobby, a friend
//! taking the seat of a link, a rematch; challenges in `bots.rs`), and a
//! bot is marked BOT wherever its name is shown (the game's seats, chat
//! lines).

use crate::bots::{bot_account, make_token, with_token, Lines};
use crate::common::online::*;
use axum::http::{Method, StatusCode};
use serde_json::{json, Value};

/// Posts a casual seek of `cookie`'s; returns its id.
async fn seek(t: &TestApp, cookie: &str) -> String {
    let a = t
        .post(
            "/api/seeks",
            Some(cookie),
            json!({ "variant": "tensor", "clock": { "base_seconds": 60 }, "rated": false, "color": "white" }),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    a.body["id"].as_str().unwrap().to_string()
}

/// The next `gameStart` of `events`: its game's id.
async fn game_start(events: &mut Lines) -> String {
    let g = events.next_of("gameStart").await;
    g["game"]["id"].as_str().unwrap().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_event_stream_starts_lobby_link_and_rematch_games() {
    let t = TestApp::new();
    let ann = account(&t, "ann").await;
    let bob = account(&t, "bob").await;
    let board = make_token(&t, &bob, &["board:play"]).await;
    let mut events = Lines::open(&t, "/api/stream/event", &board).await;

    // A seek of the lobby, taken by Bob on his page.
    let sid = seek(&t, &ann).await;
    let a = t
        .post(&format!("/api/seeks/{sid}/accept"), Some(&bob), json!({}))
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    let lobby_game = a.body["id"].as_str().unwrap().to_string();
    assert_eq!(game_start(&mut events).await, lobby_game);
    // People's seats carry no title.
    let g = t.game(&lobby_game).await;
    assert_eq!(g["online"]["white"]["title"], Value::Null, "{g}");
    assert_eq!(g["online"]["black"]["title"], Value::Null);

    // Resigned, then a rematch Bob offers and Ann accepts.
    let a = t
        .act(&lobby_game, Some(&ann), json!({ "type": "resign" }))
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let f = events.next_of("gameFinish").await;
    assert_eq!(f["game"]["id"], lobby_game.as_str());
    assert_eq!(f["game"]["status"]["name"], "resign");
    t.act(&lobby_game, Some(&bob), json!({ "type": "rematch" }))
        .await;
    let a = t
        .act(&lobby_game, Some(&ann), json!({ "type": "rematch" }))
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let rematch = a.body["online"]["rematch_id"].as_str().unwrap().to_string();
    let g = events.next_of("gameStart").await;
    assert_eq!(g["game"]["id"], rematch.as_str(), "{g}");
    // Colours swapped: Bob had Black, now White.
    assert_eq!(g["game"]["color"], "white");

    // A game by link: told when Bob takes the free seat, not before.
    let a = t
        .post(
            "/api/online",
            Some(&ann),
            json!({ "variant": "chess", "color": "white", "clock": { "base_seconds": 120 } }),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    let link = a.body["id"].as_str().unwrap().to_string();
    let a = t
        .post(&format!("/api/games/{link}/join"), Some(&bob), json!({}))
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    assert_eq!(game_start(&mut events).await, link);

    // Opened again: the three games in progress, each once.
    let mut again = Lines::open(&t, "/api/stream/event", &board).await;
    let mut seen = vec![game_start(&mut again).await, game_start(&mut again).await];
    seen.sort();
    let mut want = vec![rematch.clone(), link.clone()];
    want.sort();
    assert_eq!(seen, want);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_is_marked_on_its_seat_and_in_the_chat() {
    let t = TestApp::new();
    let ann = account(&t, "ann").await;
    let (robo, bot) = bot_account(&t, "robo").await;
    let mut events = Lines::open(&t, "/api/stream/event", &bot).await;
    // Bots take casual seeks (not rated ones), on a page logged in to the
    // account: the game starts on the bot's stream, as challenges' do.
    let sid = seek(&t, &ann).await;
    let a = t
        .post(&format!("/api/seeks/{sid}/accept"), Some(&robo), json!({}))
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    let id = a.body["id"].as_str().unwrap().to_string();
    assert_eq!(game_start(&mut events).await, id);

    // The game's view marks the bot's seat (Ann asked for White).
    let g = t.game(&id).await;
    assert_eq!(g["online"]["white"]["title"], Value::Null, "{g}");
    assert_eq!(g["online"]["black"]["title"], "BOT", "{g}");

    // So do the games lists (Ann's, and the bot's own).
    let list = t.get("/api/games", Some(&ann)).await;
    assert_eq!(list.body["games"][0]["id"], id.as_str(), "{}", list.text);
    assert_eq!(list.body["games"][0]["black_title"], "BOT", "{}", list.text);
    assert!(
        list.body["games"][0].get("white_title").is_none(),
        "{}",
        list.text
    );

    // The bot's chat line carries the mark; Ann's does not.
    let a = with_token(
        &t,
        Method::POST,
        &format!("/api/bot/game/{id}/chat"),
        &bot,
        Some(json!({ "room": "player", "text": "good luck" })),
    )
    .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let a = t
        .post(
            &format!("/api/games/{id}/chat"),
            Some(&ann),
            json!({ "text": "you too" }),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    let chat = t
        .get(&format!("/api/games/{id}/chat?room=players"), Some(&ann))
        .await;
    assert_eq!(chat.status, StatusCode::OK, "{}", chat.text);
    let lines = chat.body["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 2, "{}", chat.text);
    assert_eq!(lines[0]["name"], "robo");
    assert_eq!(lines[0]["title"], "BOT");
    assert_eq!(lines[1]["name"], "ann");
    assert!(lines[1].get("title").is_none(), "{}", chat.text);

    // Read again from the store (a restart): the mark is looked up anew.
    let t2 = t.reopen();
    let g = t2.game(&id).await;
    assert_eq!(g["online"]["black"]["title"], "BOT", "{g}");
}
