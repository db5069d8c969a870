//! Bots and their authors (issue 41): the Bots page's list (`GET
//! /api/bots`: every open bot account with its ratings, those online
//! first) and the Bot and Board APIs' documentation served by the site
//! (`GET /docs/bots`, docs/bots.md as a page).

use crate::bots::{bot_account, with_token, Lines};
use crate::common::online::*;
use axum::http::{header, Method, StatusCode};
use serde_json::{json, Value};

/// The list's bots as (user name, online), in its order.
async fn listed(t: &TestApp) -> Vec<(String, bool)> {
    let a = t.get("/api/bots", None).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    a.body["bots"]
        .as_array()
        .expect("a list of bots")
        .iter()
        .map(|b| {
            (
                b["username"].as_str().unwrap().to_string(),
                b["online"].as_bool().unwrap(),
            )
        })
        .collect()
}

fn owned(list: &[(&str, bool)]) -> Vec<(String, bool)> {
    list.iter().map(|(n, o)| (n.to_string(), *o)).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_are_listed_online_first_with_their_ratings() {
    let t = TestApp::new();
    let none = t.get("/api/bots", None).await;
    assert_eq!(none.body, json!({ "bots": [] }), "{}", none.text);
    // A person's account is not a bot: never listed.
    account(&t, "ann").await;
    bot_account(&t, "alpha").await;
    let (_, zed) = bot_account(&t, "Zed").await;
    bot_account(&t, "mid").await;
    // None online: by user name, whatever its case.
    assert_eq!(
        listed(&t).await,
        owned(&[("alpha", false), ("mid", false), ("Zed", false)])
    );

    // Zed's program follows its events: Zed is online, and first.
    let events = Lines::open(&t, "/api/stream/event", &zed).await;
    wait_until("Zed is listed online", || async {
        listed(&t).await.first() == Some(&("Zed".to_string(), true))
    })
    .await;
    assert_eq!(
        listed(&t).await,
        owned(&[("Zed", true), ("alpha", false), ("mid", false)])
    );
    let list = t.get("/api/bots", None).await;
    let z = &list.body["bots"][0];
    assert_eq!(z["name"], "Zed");
    assert_eq!(z["title"], "BOT");
    for game in ["tensor", "chess", "chessence"] {
        assert_eq!(z["ratings"][game]["rating"], json!(1500.0), "{z}");
        assert_eq!(z["ratings"][game]["games"], 0);
        assert_eq!(z["ratings"]["correspondence"][game]["rd"], json!(350.0));
    }
    assert!(z.get("id").is_none(), "the page needs no player id: {z}");

    // A public read: a program's token reaches it too.
    let by_token = with_token(&t, Method::GET, "/api/bots", &zed, None).await;
    assert_eq!(by_token.status, StatusCode::OK, "{}", by_token.text);
    assert_eq!(by_token.body, list.body);

    // A closed account is not listed.
    let closed = t.open_store().close_account("mid", T0).await.unwrap();
    assert!(closed.is_some());
    assert_eq!(listed(&t).await, owned(&[("Zed", true), ("alpha", false)]));

    // The program stops: Zed goes back among the others, by name.
    drop(events);
    wait_until("Zed is listed offline", || async {
        listed(&t).await == owned(&[("alpha", false), ("Zed", false)])
    })
    .await;
}

/// `GET uri`: the status, the `Content-Type` and the body as text.
async fn page(t: &TestApp, uri: &str) -> (StatusCode, String, String) {
    let (status, headers, bytes) = crate::common::fetch(&t.router, uri).await;
    let kind = headers
        .get(header::CONTENT_TYPE)
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    (status, kind, String::from_utf8(bytes).unwrap())
}

#[tokio::test]
async fn the_bot_and_board_apis_documentation_is_served_as_a_page() {
    let t = TestApp::new();
    let (status, kind, html) = page(&t, "/docs/bots").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(kind, "text/html; charset=utf-8");
    // The site's page around it: the shell, the page's module, its styles.
    assert!(html.starts_with("<!doctype html>"), "{}", &html[..100]);
    assert!(html.contains("mountShell(document, { skipTo: '#doc-main' })"));
    assert!(html.contains("import { start } from '/js/docs.js'"));
    // The style sheets as every page names them: this build's copies.
    assert!(html.contains("<script type=\"importmap\">"));
    assert!(html.contains("/css/docs.css\">"));
    assert!(html.contains("<link rel=\"stylesheet\" href=\"/a/"));
    assert!(!html.contains("<!-- doc -->"), "the slot is filled");
    // docs/bots.md in the article, in English whatever the page's language.
    let article = &html[html
        .find("<article class=\"doc\" lang=\"en\">")
        .expect("the article")..];
    assert!(article.contains("<h1 id=\"programs-the-bot-api-the-board-api-and-tensorchess-bot\">"));
    assert!(
        article.contains("<a href=\"#4-routes\">4. Routes</a>"),
        "a list of the sections"
    );
    assert!(article.contains("<code>POST /api/bot/account/upgrade</code>"));
    assert!(
        article.contains("<code>GET /api/bots</code>"),
        "the Bots page's route is documented"
    );
    // Every section of the file is there, the Markdown one source.
    let md = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/bots.md"))
        .unwrap();
    let sections: Vec<&str> = md.lines().filter_map(|l| l.strip_prefix("## ")).collect();
    assert!(sections.len() >= 6, "{sections:?}");
    for s in sections {
        let text = s.replace('`', "");
        let shown = article.replace("<code>", "").replace("</code>", "");
        assert!(shown.contains(&format!(">{text}</h2>")), "section {s}");
    }
    // A page, not an API route: a token reaches it, as any page's file.
    let (_, token) = bot_account(&t, "robo").await;
    let by_token = with_token(&t, Method::GET, "/docs/bots", &token, None).await;
    assert_eq!(by_token.status, StatusCode::OK);
    assert_eq!(by_token.body, Value::Null, "HTML, not JSON");
}
