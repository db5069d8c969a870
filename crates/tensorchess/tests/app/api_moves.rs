//! The rules through the web app's API: the legal moves a position offers
//! (kind, SAN, path), why an illegal move is refused, the rules page's
//! diagrams, positions after a history, and random games played through the
//! router with `oneshot`. The rest of the API is in `api.rs`.

use axum::http::StatusCode;
use serde_json::{json, Value};

use crate::common::TestApp;

fn plies(game: &Value) -> usize {
    game["moves"].as_array().unwrap().len()
}

fn legal<'a>(game: &'a Value, uci: &str) -> Option<&'a Value> {
    game["position"]["legal"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["uci"] == uci)
}

#[tokio::test]
async fn a_new_game_offers_legal_moves_with_kind_san_and_path() {
    let t = TestApp::new();
    for (variant, files, ranks, holes, count) in [
        ("tensor", 10, 8, 0, 30),
        ("chess", 8, 8, 0, 20),
        ("chessence", 6, 9, 8, 36),
    ] {
        let game = t
            .create(json!({ "variant": variant, "mode": "local" }))
            .await;
        let pos = &game["position"];
        assert_eq!(pos["geometry"]["files"], files);
        assert_eq!(pos["geometry"]["ranks"], ranks);
        assert_eq!(pos["geometry"]["holes"].as_array().unwrap().len(), holes);
        assert_eq!(pos["legal"].as_array().unwrap().len(), count, "{variant}");
        for m in pos["legal"].as_array().unwrap() {
            assert!(m["san"].as_str().is_some_and(|s| !s.is_empty()));
            assert!(!m["path"]["routes"].as_array().unwrap().is_empty());
        }
        assert_eq!(game["rev"], 1);
        assert!(game["end"].is_null());
    }
    // A beast hop in Tensor Chess: its path lists the landing squares.
    let game = t
        .create(json!({ "variant": "tensor", "mode": "local" }))
        .await;
    let hop = legal(&game, "b1b3").unwrap();
    assert_eq!(hop["kind"], "normal");
    assert_eq!(hop["san"], "Tb3");
    assert_eq!(hop["path"]["routes"][0]["squares"], json!(["b1", "b3"]));
    assert_eq!(hop["path"]["routes"][0]["piece"], "T");
}

#[tokio::test]
async fn propels_ricochets_castlings_and_beast_captures_are_described() {
    let t = TestApp::new();
    let game = t
        .create(json!({ "mode": "local", "fen": "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R3TK3R w KQkq - 0 1" }))
        .await;
    let castle = legal(&game, "f1c1").unwrap();
    assert_eq!(castle["kind"], "castle");
    assert_eq!(castle["rook"], "a1");
    assert_eq!(castle["san"], "Kc1");

    let game = t
        .create(json!({ "mode": "local", "fen": "9k/P9/10/10/T4p4/10/10/R8K w - - 0 1" }))
        .await;
    let ricochet = legal(&game, "a1f4").unwrap();
    assert_eq!(
        ricochet["path"]["routes"][0]["squares"],
        json!(["a1", "a4", "f4"])
    );
    assert_eq!(ricochet["path"]["captured"], "f4");
    let propel = legal(&game, "a1a4>d4").unwrap();
    assert_eq!(propel["kind"], "propel");
    assert_eq!(propel["to"], "a4");
    assert_eq!(propel["aux"], "d4");
    assert_eq!(propel["path"]["routes"][1]["squares"], json!(["a4", "d4"]));

    let game = t
        .create(json!({ "mode": "local", "fen": "9k/10/10/3P6/4t1t3/4T5/10/9K w - - 0 1" }))
        .await;
    let capture = legal(&game, "e3e5xe4").unwrap();
    assert_eq!(capture["kind"], "beast_capture");
    assert_eq!(capture["aux"], "e4");
    assert!(legal(&game, "e3e5").is_some(), "the capture is optional");
}

#[tokio::test]
async fn moves_are_validated_with_reasons() {
    let t = TestApp::new();
    let game = t
        .create(json!({ "variant": "tensor", "mode": "local" }))
        .await;
    let id = game["id"].as_str().unwrap();

    let (status, game) = t.play(id, "e2e4").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(plies(&game), 1);
    assert_eq!(game["moves"][0]["san"], "e4");
    assert_eq!(game["position"]["turn"], "black");
    assert_eq!(game["rev"], 2);

    let (status, err) = t.play(id, "e7e3").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(err["kind"], "illegal_move");
    assert!(
        err["reason"].as_str().unwrap().contains("cannot move"),
        "{err}"
    );
    assert!(err["error"].as_str().unwrap().starts_with("Illegal move"));

    let (status, err) = t.play(id, "e4e5").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        err["reason"].as_str().unwrap().contains("not yours"),
        "{err}"
    );
    let (status, err) = t.play(id, "e2e4").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(err["reason"], "there is no piece on e2");

    for junk in ["zz", "", "Þ6", "e2e4e5e6e7e8e9a1b2c3d4e5f6g7h8i9j1", "k9k8"] {
        let (status, err) = t.play(id, junk).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{junk}: {err}");
        assert_eq!(err["kind"], "bad_request");
    }

    // SAN works too.
    let (status, game) = t.play(id, "Nd6").await;
    assert_eq!(status, StatusCode::OK, "{game}");
    assert_eq!(game["moves"][1]["uci"], "c8d6");

    // A stale page is refused.
    let (status, err) = t
        .post(
            &format!("/api/games/{id}/moves"),
            json!({ "move": "d2d4", "ply": 0 }),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{err}");
}

#[tokio::test]
async fn explain_answers_why_a_move_is_illegal_without_an_error() {
    let t = TestApp::new();
    let fen = "9k/10/10/10/10/3T6/10/2N6K w - - 0 1";
    let (status, answer) = t
        .post(
            "/api/explain",
            json!({ "variant": "tensor", "fen": fen, "move": "c1d3>d4" }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["legal"], false);
    assert_eq!(answer["code"], "bad_propel_square");
    assert_eq!(answer["args"]["beast"], "d3");
    assert_eq!(answer["args"]["role"], "knight");
    assert!(answer["reason"]
        .as_str()
        .unwrap()
        .starts_with("The beast on d3 cannot be propelled to d4"));
    let (_, answer) = t
        .post(
            "/api/explain",
            json!({ "variant": "tensor", "fen": fen, "move": "Nd3>e5" }),
        )
        .await;
    assert_eq!(answer["legal"], true, "{answer}");
    assert_eq!(answer["uci"], "c1d3>e5");
    let (status, answer) = t
        .post("/api/explain", json!({ "variant": "chess", "move": "zz" }))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(answer["code"], "not_a_move");
    // The same reason comes with a refused move, with its code.
    let game = t
        .create(json!({ "variant": "tensor", "mode": "local", "fen": fen }))
        .await;
    let (status, err) = t.play(game["id"].as_str().unwrap(), "c1d3").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(err["code"], "stops_on_own_beast");
    assert_eq!(err["args"]["square"], "d3");
    // A malformed position is still a bad request.
    let (status, err) = t
        .post(
            "/api/explain",
            json!({ "variant": "tensor", "fen": "nonsense", "move": "e2e4" }),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{err}");
}

#[tokio::test]
async fn a_pinned_piece_gets_the_check_reason() {
    let t = TestApp::new();
    // The white rook on e2 is pinned against the king by the black rook on e8.
    let game = t
        .create(json!({ "variant": "chess", "mode": "local", "fen": "4r1k1/8/8/8/8/8/4R3/4K3 w - - 0 1" }))
        .await;
    let (status, err) = t.play(game["id"].as_str().unwrap(), "e2d2").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(err["reason"], "your king would be in check");
}

/// Every rules-page diagram is a valid position whose demonstrated moves the
/// server offers (and whose counter-examples it refuses).
#[tokio::test]
async fn rules_page_diagrams_show_the_moves_they_describe() {
    let t = TestApp::new();
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../server/assets/rules/diagrams.json"
    );
    let diagrams: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert!(diagrams.len() >= 15);
    for d in &diagrams {
        let (status, view) = t
            .post(
                "/api/position",
                json!({ "variant": d["game"], "fen": d["fen"] }),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{}: {view}", d["id"]);
        let legal: Vec<&str> = view["position"]["legal"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["uci"].as_str().unwrap())
            .collect();
        for m in d["expect"].as_array().unwrap() {
            assert!(
                legal.contains(&m.as_str().unwrap()),
                "{}: {m} should be legal",
                d["id"]
            );
        }
        for m in d["absent"].as_array().unwrap() {
            assert!(
                !legal.contains(&m.as_str().unwrap()),
                "{}: {m} should be illegal",
                d["id"]
            );
        }
    }
    // And a move can be played on a mini-board, returning its path.
    let (status, view) = t
        .post("/api/position", json!({ "variant": "tensor", "fen": "9k/10/10/10/4P5/3p2R3/2P7/2T6K w - - 0 1", "move": "c1e5" }))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        view["played"]["path"]["routes"][0]["squares"],
        json!(["c1", "c3", "e3", "e5"])
    );
    assert_eq!(view["position"]["turn"], "black");
    let (status, err) = t
        .post(
            "/api/position",
            json!({ "variant": "tensor", "move": "e2e5" }),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(err["reason"].is_string());
}

/// Random games played through the API: every offered move is accepted, the
/// history replays, and takeback returns to the previous state.
#[tokio::test]
async fn random_games_through_the_api() {
    let t = TestApp::new();
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for variant in ["tensor", "chess", "chessence"] {
        let game = t
            .create(json!({ "variant": variant, "mode": "local" }))
            .await;
        let id = game["id"].as_str().unwrap().to_string();
        let mut game = game;
        for ply in 0..80 {
            let legal = game["position"]["legal"].as_array().unwrap().clone();
            if legal.is_empty() {
                assert!(game["end"].is_object(), "no moves and no end: {game}");
                break;
            }
            let m = &legal[(next() % legal.len() as u64) as usize];
            let before = game.clone();
            let (status, after) = t
                .post(
                    &format!("/api/games/{id}/moves"),
                    json!({ "move": m["uci"], "ply": ply }),
                )
                .await;
            assert_eq!(status, StatusCode::OK, "{variant} {m}: {after}");
            assert_eq!(after["moves"][ply]["san"], m["san"]);
            assert_eq!(after["moves"][ply]["path"], m["path"]);
            if ply % 10 == 9 && after["end"].is_null() {
                let (status, back) = t
                    .post(&format!("/api/games/{id}/takeback"), json!({}))
                    .await;
                assert_eq!(status, StatusCode::OK);
                assert_eq!(back["position"], before["position"]);
                let (_, again) = t.play(&id, m["uci"].as_str().unwrap()).await;
                game = again;
            } else {
                game = after;
            }
            if game["end"].is_object() {
                break;
            }
        }
    }
}

#[tokio::test]
async fn a_position_after_a_history_counts_repetitions() {
    let t = TestApp::new();
    // The knights go out and back twice: the third occurrence is a draw,
    // which the same position without its history is not.
    let history = ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"];
    let (status, v) = t
        .post(
            "/api/position",
            json!({ "variant": "chess", "moves": history, "move": "f6g8" }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["position"]["outcome"]["reason"], "repetition", "{v}");
    let fen = v["position"]["fen"].as_str().unwrap().to_string();
    let (_, fresh) = t
        .post("/api/position", json!({ "variant": "chess", "fen": fen }))
        .await;
    assert!(fresh["position"]["outcome"].is_null(), "{fresh}");
    // A history move that is not legal is refused by name.
    let (status, err) = t
        .post(
            "/api/position",
            json!({ "variant": "chess", "moves": ["e2e4", "e2e4"] }),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{err}");
}
