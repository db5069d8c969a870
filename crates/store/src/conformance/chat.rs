//! The chat part of the store contract: rooms kept apart and in order (a
//! tournament's too),
//! reports once per player and message, the operator's mutes and a
//! player's mute of their opponent.

use super::*;
use crate::chat::{ChatRoom, NewChatMessage};

fn said(game: &str, room: ChatRoom, author: &str, text: &str, at: i64) -> NewChatMessage {
    NewChatMessage {
        game_id: game.into(),
        room,
        author: author.into(),
        name: author.to_uppercase(),
        text: text.into(),
        at,
    }
}

/// Messages come back by game and room, oldest first, the newest `limit`.
pub async fn chat_rooms_are_kept_apart_and_in_order(store: &dyn GameStore) {
    let mut ids = Vec::new();
    for i in 0..5 {
        let m = said("c1", ChatRoom::Players, "ann", &format!("hi {i}"), 100 + i);
        ids.push(store.add_chat(&m).await.unwrap().id);
    }
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "numbers increase");
    let watcher = said("c1", ChatRoom::Spectators, "sam", "nice <b>move</b>", 200);
    let w = store.add_chat(&watcher).await.unwrap();
    store
        .add_chat(&said("c2", ChatRoom::Players, "bob", "other game", 300))
        .await
        .unwrap();
    let players = store.chat("c1", ChatRoom::Players, 3).await.unwrap();
    let texts: Vec<&str> = players.iter().map(|m| m.message.text.as_str()).collect();
    assert_eq!(
        texts,
        ["hi 2", "hi 3", "hi 4"],
        "the newest three, oldest first"
    );
    let spectators = store.chat("c1", ChatRoom::Spectators, 100).await.unwrap();
    assert_eq!(spectators.len(), 1);
    assert_eq!(spectators[0].message, watcher, "stored as written");
    assert_eq!(store.chat_message(w.id).await.unwrap(), Some(w));
    assert_eq!(store.chat_message(-1).await.unwrap(), None);
    assert!(store
        .chat("none", ChatRoom::Players, 10)
        .await
        .unwrap()
        .is_empty());
    // A tournament's room, stored alike, is apart from a game's rooms even
    // under the same id, and read back as its room.
    let lobby = said("c1", ChatRoom::Tournament, "tia", "good luck all", 400);
    let l = store.add_chat(&lobby).await.unwrap();
    let room = store.chat("c1", ChatRoom::Tournament, 100).await.unwrap();
    assert_eq!(room.len(), 1);
    assert_eq!(room[0].message, lobby);
    assert_eq!(store.chat_message(l.id).await.unwrap(), Some(l));
    assert_eq!(
        store
            .chat("c1", ChatRoom::Spectators, 100)
            .await
            .unwrap()
            .len(),
        1,
        "the game's rooms keep their own"
    );
}

/// One report a player and message; closed reports leave the list.
pub async fn chat_reports_and_mutes(store: &dyn GameStore) {
    let m = store
        .add_chat(&said("r1", ChatRoom::Players, "rude", "go away", 10))
        .await
        .unwrap();
    let caps = ReportCaps {
        per_reporter: 10,
        per_address: 10,
        in_all: 100,
    };
    let report = |message: i64, reporter: &str, at: i64| NewReport {
        message,
        reporter: reporter.into(),
        client: Some("10.0.0.1".into()),
        at,
    };
    let ann = |at| report(m.id, "ann", at);
    assert_eq!(
        store.report_chat(&ann(20), &caps).await.unwrap(),
        Reported::Stored
    );
    assert_eq!(
        store.report_chat(&ann(21), &caps).await.unwrap(),
        Reported::Already,
        "once"
    );
    assert_eq!(
        store
            .report_chat(&report(m.id, "bob", 22), &caps)
            .await
            .unwrap(),
        Reported::Stored
    );
    assert!(matches!(
        store.report_chat(&report(-5, "ann", 23), &caps).await,
        Err(StoreError::Conflict(_))
    ));
    let open = store.open_reports().await.unwrap();
    assert_eq!(open.len(), 2);
    assert_eq!(open[0].message, m);
    assert_eq!((open[0].reporter.as_str(), open[0].at), ("ann", 20));
    assert!(store.close_report(open[0].id, 30).await.unwrap());
    assert!(
        !store.close_report(open[0].id, 31).await.unwrap(),
        "closed once"
    );
    let open = store.open_reports().await.unwrap();
    assert_eq!(open.len(), 1);
    assert_eq!(open[0].reporter, "bob");

    assert_eq!(store.chat_muted_until("rude").await.unwrap(), None);
    store.set_chat_mute("rude", Some(5_000)).await.unwrap();
    store.set_chat_mute("rude", Some(9_000)).await.unwrap();
    assert_eq!(store.chat_muted_until("rude").await.unwrap(), Some(9_000));
    store.set_chat_mute("rude", None).await.unwrap();
    assert_eq!(store.chat_muted_until("rude").await.unwrap(), None);

    assert!(!store.opponent_muted("ann", "r1").await.unwrap());
    store.set_opponent_muted("ann", "r1", true).await.unwrap();
    store.set_opponent_muted("ann", "r1", true).await.unwrap();
    assert!(store.opponent_muted("ann", "r1").await.unwrap());
    assert!(
        !store.opponent_muted("ann", "r2").await.unwrap(),
        "one game"
    );
    assert!(
        !store.opponent_muted("bob", "r1").await.unwrap(),
        "one player"
    );
    store.set_opponent_muted("ann", "r1", false).await.unwrap();
    assert!(!store.opponent_muted("ann", "r1").await.unwrap());
}
