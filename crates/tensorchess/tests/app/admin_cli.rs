//! `tensorchess admin`, the operator's tools, on an SQLite file as a
//! server uses it: bans, renamed and closed accounts, ownerless games; bad
//! input exits with status 2 and one line on stderr.

use std::process::{Command, Output};
use tensorchess::server::store::prelude::*;
use tensorchess::server::store::{AccountRecord, PlayerRecord, SqliteStore};
use tensorchess_rules::VariantKind;

fn admin(db: &std::path::Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tensorchess"))
        .arg("admin")
        .arg("--db")
        .arg(db)
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn fails(o: &Output, says: &str) {
    assert_eq!(o.status.code(), Some(2), "{}", stdout(o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains(says), "{err}");
}

/// A store with an account `ann` (player `0123456789abcdef0123`) and a
/// game from before players existed.
async fn prepared(db: &std::path::Path) -> SqliteStore {
    let store = SqliteStore::open(db).unwrap();
    let player = PlayerRecord {
        id: "0123456789abcdef0123".into(),
        name: "ann".into(),
        created_at: 1,
        account: None,
    };
    store.save_player(&player).await.unwrap();
    store
        .create_account(&AccountRecord {
            username: "ann".into(),
            password_hash: "$argon2id$x".into(),
            player_id: player.id.clone(),
            created_at: 1,
            closed_at: None,
        })
        .await
        .unwrap();
    store.start_session("h1", &player, None).await.unwrap();
    store
        .create_game(&crate::common::ownerless_game(
            "oldgame0001",
            VariantKind::Chess,
        ))
        .await
        .unwrap();
    store
}

#[tokio::test]
async fn the_operator_bans_renames_closes_and_adopts() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("site.sqlite3");
    let store = prepared(&db).await;

    let o = admin(&db, &["list-bans"]);
    assert_eq!(stdout(&o), "no bans\n");
    let o = admin(&db, &["ban", "ann", "--reason", "spam"]);
    assert!(o.status.success(), "{o:?}");
    assert_eq!(
        stdout(&o),
        "banned ann (player 0123456789abcdef0123): spam\n"
    );
    assert!(
        store.session_player("h1").await.unwrap().is_none(),
        "logged out"
    );
    let o = admin(&db, &["list-bans"]);
    assert!(
        stdout(&o).starts_with("0123456789abcdef0123\tann\t"),
        "{}",
        stdout(&o)
    );
    assert!(stdout(&o).ends_with("\tspam\n"));
    assert!(admin(&db, &["unban", "ann"]).status.success());
    fails(&admin(&db, &["unban", "ann"]), "ann is not banned");

    let o = admin(&db, &["rename", "ann", "anna"]);
    assert_eq!(
        stdout(&o),
        "renamed ann to anna (player 0123456789abcdef0123)\n"
    );
    assert!(store.account("ann").await.unwrap().is_none());
    fails(
        &admin(&db, &["rename", "nobody", "someone"]),
        "no account is called nobody",
    );
    fails(&admin(&db, &["rename", "anna", "a b"]), "a user name has");

    let o = admin(&db, &["adopt", "--to", "anna"]);
    assert_eq!(
        stdout(&o),
        "1 games now belong to anna (player 0123456789abcdef0123)\noldgame0001\n"
    );
    let game = store.load_game("oldgame0001").await.unwrap().unwrap();
    assert_eq!(game.record.owner.as_deref(), Some("0123456789abcdef0123"));

    let o = admin(&db, &["close", "anna"]);
    assert_eq!(stdout(&o), "closed anna (player 0123456789abcdef0123)\n");
    assert!(store
        .account("anna")
        .await
        .unwrap()
        .unwrap()
        .closed_at
        .is_some());

    fails(
        &admin(&db, &["ban", "no such name"]),
        "no account is called",
    );
    fails(
        &admin(&db, &["ban", "anna", "--reason", " "]),
        "a reason has 1 to 200 characters",
    );
    let o = admin(&db, &["frobnicate"]);
    assert_eq!(o.status.code(), Some(2));
}
