//! The opening explorer (issue 42): `GET /api/explorer` agrees with a
//! count by brute force over the stored games (generated games of two
//! variants, speeds, ratings and results, rebuilt by `tensorchess admin
//! explorer-rebuild`), under every filter; an online game played through
//! the API is counted when it ends, once; the engine's evaluations come;
//! bad input is a 400.

use crate::common::online::TestApp;
use axum::http::StatusCode;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};
use tensorchess::server::store::{
    ClockSettings, Ending, GameMode, GameRecord, OnlineRecord, StoredGame, StoredMove,
};
use tensorchess_rules::{with_game, ByColor, Color, EndReason, Outcome, VariantGame, VariantKind};

/// A small deterministic generator (xorshift), so a failure replays.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn hash(game: &VariantGame) -> u64 {
    with_game!(game, g => g.position().hash())
}

/// A finished (mostly) online game of random moves: the first plies
/// chosen among a few moves, so that games share openings and transpose.
fn generated(rng: &mut Rng, n: usize) -> StoredGame {
    let variant = if n.is_multiple_of(3) {
        VariantKind::Chess
    } else {
        VariantKind::Tensor
    };
    let mut game = VariantGame::new(variant);
    let mut moves = Vec::new();
    let plies = 4 + rng.below(50);
    while moves.len() < plies && game.outcome().is_none() {
        let mut legal: Vec<_> = game.legal_moves().iter().copied().collect();
        legal.sort_by_key(|m| game.move_string(*m));
        let m = if moves.len() < 8 {
            legal[rng.below(legal.len().min(3))]
        } else {
            legal[rng.below(legal.len())]
        };
        moves.push(StoredMove {
            ply: moves.len(),
            uci: game.move_string(m),
            san: game.san(m),
        });
        game.push(m);
    }
    let ending = match rng.below(10) {
        0 => None,
        1 => Some(Ending::Aborted { no_show: None }),
        2..=4 => Some(Ending::Outcome(Outcome::Draw {
            reason: EndReason::Agreement,
        })),
        5..=7 => Some(Ending::Outcome(Outcome::Decisive {
            winner: Color::White,
            reason: EndReason::Resignation,
        })),
        _ => Some(Ending::Outcome(Outcome::Decisive {
            winner: Color::Black,
            reason: EndReason::Timeout,
        })),
    };
    let rated = rng.below(3) > 0;
    let rating = |rng: &mut Rng| rated.then(|| 800 + rng.below(1900) as i32);
    let ratings = ByColor::new(rating(rng), rating(rng));
    let (clock, days) = match rng.below(5) {
        0 => (Some((60_000, 0)), None),
        1 => (Some((180_000, 2_000)), None),
        2 => (Some((600_000, 0)), None),
        3 => (Some((1_800_000, 20_000)), None),
        _ => (None, Some(3)),
    };
    StoredGame {
        record: GameRecord {
            id: format!("gen{n:05}"),
            variant,
            start_fen: variant.start_fen().to_string(),
            mode: GameMode::Online,
            human_color: None,
            level: None,
            white: format!("w{n}"),
            black: format!("b{n}"),
            owner: None,
            rated,
            ending,
            rev: 1,
            created_at: 1_700_000_000_000 + n as i64 * 86_400_000,
            updated_at: 1_700_000_000_000,
        },
        moves,
        online: Some(OnlineRecord {
            players: ByColor::new(Some(format!("pw{n}")), Some(format!("pb{n}"))),
            clock: clock.map(|(base_ms, increment_ms)| ClockSettings {
                base_ms,
                increment_ms,
            }),
            days,
            ratings,
            ..OnlineRecord::default()
        }),
    }
}

/// lichess's speed of a stored game, as the server names it.
fn speed(g: &StoredGame) -> &'static str {
    let o = g.online.as_ref().unwrap();
    match o.clock {
        None => "correspondence",
        Some(c) => match (c.base_ms + 40 * c.increment_ms) / 1000 {
            ..30 => "ultraBullet",
            30..180 => "bullet",
            180..480 => "blitz",
            480..1500 => "rapid",
            _ => "classical",
        },
    }
}

const BANDS: [i32; 9] = [0, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2500];

/// The filters a query names, as a brute-force predicate.
struct Filter {
    rated: bool,
    speeds: Option<Vec<&'static str>>,
    bands: Option<Vec<i32>>,
}

impl Filter {
    fn query(&self) -> String {
        let mut q = String::new();
        if self.rated {
            q += "&rated=true";
        }
        if let Some(s) = &self.speeds {
            q += &format!("&speeds={}", s.join(","));
        }
        if let Some(b) = &self.bands {
            let b: Vec<_> = b.iter().map(i32::to_string).collect();
            q += &format!("&ratings={}", b.join(","));
        }
        q
    }

    fn keeps(&self, g: &StoredGame) -> bool {
        let avg = average(g);
        (g.record.rated || !self.rated)
            && self.speeds.as_ref().is_none_or(|s| s.contains(&speed(g)))
            && self.bands.as_ref().is_none_or(|bands| {
                avg.is_some_and(|a| {
                    let band = *BANDS.iter().rev().find(|&&b| a >= b).unwrap();
                    bands.contains(&band)
                })
            })
    }
}

fn average(g: &StoredGame) -> Option<i32> {
    let r = g.online.as_ref().unwrap().ratings;
    Some((r.white? + r.black?) / 2)
}

/// What the explorer must answer for position `target`, counted from the
/// stored games: per move (white, draws, black, rating sum, rated games),
/// and the top games' ids.
type Counted = (BTreeMap<String, [i64; 5]>, Vec<String>);

fn brute_force(games: &[StoredGame], variant: VariantKind, target: u64, f: &Filter) -> Counted {
    let mut moves: BTreeMap<String, [i64; 5]> = BTreeMap::new();
    let mut top: Vec<(i32, String)> = Vec::new();
    for g in games {
        let r = &g.record;
        let winner = match r.ending {
            Some(Ending::Outcome(o)) => o.winner(),
            _ => continue,
        };
        if r.variant != variant || r.mode != GameMode::Online || !f.keeps(g) {
            continue;
        }
        let mut game = VariantGame::new(variant);
        let mut seen = BTreeSet::new();
        for m in g.moves.iter().take(40) {
            let h = hash(&game);
            if h == target && seen.insert(m.uci.clone()) {
                let c = moves.entry(m.uci.clone()).or_default();
                c[match winner {
                    Some(Color::White) => 0,
                    None => 1,
                    Some(Color::Black) => 2,
                }] += 1;
                if let Some(a) = average(g) {
                    c[3] += i64::from(a);
                    c[4] += 1;
                }
            }
            game.push_str(&m.uci).unwrap();
        }
        if let (false, Some(a)) = (seen.is_empty(), average(g)) {
            top.push((a, r.id.clone()));
        }
    }
    top.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    (moves, top.into_iter().take(4).map(|(_, id)| id).collect())
}

/// A query's value, percent-encoded (move strings hold `>` and `@`).
fn enc(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b',' | b'-' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

async fn explore(t: &TestApp, query: &str) -> Value {
    let a = t.get(&format!("/api/explorer?{query}"), None).await;
    assert_eq!(a.status, StatusCode::OK, "{query}: {}", a.text);
    a.body
}

/// An answer without the engine's word on its moves: that is computed in
/// the background and may arrive between two reads that should agree.
fn without_evals(mut answer: Value) -> Value {
    for m in answer["moves"].as_array_mut().into_iter().flatten() {
        if let Some(m) = m.as_object_mut() {
            m.remove("eval");
        }
    }
    answer
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_explorer_answers_what_the_stored_games_say() {
    let t = TestApp::new();
    let store = t.open_store();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let games: Vec<StoredGame> = (0..240).map(|n| generated(&mut rng, n)).collect();
    for g in &games {
        store.create_game(g).await.unwrap();
    }
    // The operator's rebuild counts them (the games were stored, not
    // played here: nothing told the explorer).
    let out = crate::common::run_ok(
        std::process::Command::new(env!("CARGO_BIN_EXE_tensorchess"))
            .arg("admin")
            .arg("--db")
            .arg(&t.db)
            .arg("explorer-rebuild"),
    );
    let counted = games
        .iter()
        .filter(|g| matches!(g.record.ending, Some(Ending::Outcome(_))))
        .count();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains(&format!("counts {counted} games")),
        "{said} ({counted} finished)"
    );

    let filters = [
        Filter {
            rated: false,
            speeds: None,
            bands: None,
        },
        Filter {
            rated: true,
            speeds: None,
            bands: None,
        },
        Filter {
            rated: false,
            speeds: Some(vec!["blitz", "correspondence"]),
            bands: None,
        },
        Filter {
            rated: true,
            speeds: Some(vec!["bullet", "rapid", "classical"]),
            bands: Some(vec![1400, 1600, 1800, 2000]),
        },
    ];
    // Positions: the start, and along some games' first moves.
    let mut lines: Vec<(VariantKind, Vec<String>)> = Vec::new();
    for g in games.iter().step_by(17) {
        for k in [0, 1, 2, 3, 5, 8] {
            let play: Vec<String> = g.moves.iter().take(k).map(|m| m.uci.clone()).collect();
            lines.push((g.record.variant, play));
        }
    }
    let mut checked_moves = 0;
    for (variant, play) in &lines {
        let mut game = VariantGame::new(*variant);
        for m in play {
            game.push_str(m).unwrap();
        }
        let target = hash(&game);
        for f in &filters {
            let query = format!(
                "variant={variant}&play={}{}",
                enc(&play.join(",")),
                f.query()
            );
            let got = explore(&t, &query).await;
            let (want, want_top) = brute_force(&games, *variant, target, f);
            let mut seen = BTreeMap::new();
            for m in got["moves"].as_array().unwrap() {
                let uci = m["uci"].as_str().unwrap().to_string();
                let mv = game.parse_move(&uci).unwrap();
                assert_eq!(m["san"], game.san(mv), "{query}");
                let avg = m["averageRating"].as_i64();
                seen.insert(
                    uci,
                    [
                        m["white"].as_i64().unwrap(),
                        m["draws"].as_i64().unwrap(),
                        m["black"].as_i64().unwrap(),
                        avg.unwrap_or(-1),
                    ],
                );
            }
            let want: BTreeMap<String, [i64; 4]> = want
                .into_iter()
                .map(|(uci, c)| {
                    (
                        uci,
                        [c[0], c[1], c[2], if c[4] > 0 { c[3] / c[4] } else { -1 }],
                    )
                })
                .collect();
            assert_eq!(seen, want, "{query}");
            checked_moves += seen.len();
            let sum = |k: usize| want.values().map(|c| c[k]).sum::<i64>();
            assert_eq!(
                [&got["white"], &got["draws"], &got["black"]],
                [&json!(sum(0)), &json!(sum(1)), &json!(sum(2))],
                "{query}"
            );
            let top: Vec<&str> = got["topGames"]
                .as_array()
                .unwrap()
                .iter()
                .map(|g| g["id"].as_str().unwrap())
                .collect();
            assert_eq!(top, want_top, "{query}");
            // The most played first.
            let totals: Vec<i64> = got["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| {
                    m["white"].as_i64().unwrap()
                        + m["draws"].as_i64().unwrap()
                        + m["black"].as_i64().unwrap()
                })
                .collect();
            assert!(
                totals.windows(2).all(|w| w[0] >= w[1]),
                "{query}: {totals:?}"
            );
        }
    }
    assert!(checked_moves > 100, "only {checked_moves} moves checked");

    // A top game as lichess shows it.
    let root = explore(&t, "variant=tensor").await;
    let g = &root["topGames"][0];
    let stored = games.iter().find(|s| s.record.id == g["id"]).unwrap();
    assert_eq!(g["white"]["name"], stored.record.white);
    assert_eq!(
        g["white"]["rating"],
        json!(stored.online.as_ref().unwrap().ratings.white)
    );
    assert!(g["month"]
        .as_str()
        .unwrap()
        .starts_with(&g["year"].to_string()));

    // A rebuild again counts the same.
    crate::common::run_ok(
        std::process::Command::new(env!("CARGO_BIN_EXE_tensorchess"))
            .arg("admin")
            .arg("--db")
            .arg(&t.db)
            .arg("explorer-rebuild"),
    );
    assert_eq!(
        without_evals(explore(&t, "variant=tensor").await),
        without_evals(root)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_played_here_is_counted_once_when_it_ends() {
    let t = TestApp::new();
    let start = explore(&t, "variant=tensor&play=").await;
    assert_eq!(start["moves"], json!([]));
    let (id, white, black) = t.started(json!(null)).await;
    let mut game = VariantGame::new(VariantKind::Tensor);
    let mut played = Vec::new();
    for ply in 0..4 {
        let m = game.legal_moves().iter().copied().next().unwrap();
        let uci = game.move_string(m);
        let who = if ply % 2 == 0 { &white } else { &black };
        let a = t.play(&id, who, &uci, ply).await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.text);
        game.push(m);
        played.push(uci);
    }
    // Not counted while it goes on (nothing tells the explorer before the end).
    let query = format!("variant=tensor&play={}", enc(&played[..2].join(",")));
    assert_eq!(explore(&t, &query).await["moves"], json!([]));
    let a = t.act(&id, Some(&black), json!({ "type": "resign" })).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let deadline = Instant::now() + Duration::from_secs(10);
    let answer = loop {
        let answer = explore(&t, &query).await;
        if answer["white"] == 1 {
            break answer;
        }
        assert!(
            Instant::now() < deadline,
            "the game was not counted: {answer}"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    };
    assert_eq!(answer["moves"][0]["uci"], played[2]);
    assert_eq!(
        (answer["draws"].clone(), answer["black"].clone()),
        (json!(0), json!(0))
    );
    // Adding it again (another server telling the same end) changes nothing.
    assert!(!t.state.explorer.add_game(&id).await.unwrap());
    assert_eq!(explore(&t, &query).await["white"], 1);
    // Nothing is left to catch up on; a game whose end was stored but never
    // counted (a server stopped in between: here, the counts forgotten) is
    // counted by the catch-up, once.
    assert_eq!(t.state.explorer.catch_up(0).await.unwrap(), 0);
    t.state.games.live.store().clear_explorer().await.unwrap();
    assert_eq!(explore(&t, &query).await["white"], 0);
    assert_eq!(t.state.explorer.catch_up(0).await.unwrap(), 1);
    assert_eq!(explore(&t, &query).await["white"], 1);
    assert_eq!(t.state.explorer.catch_up(0).await.unwrap(), 0);

    // The engine's word on the position after each move comes, with its depth.
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let answer = explore(&t, &query).await;
        let eval = &answer["moves"][0]["eval"];
        if eval.is_object() {
            assert!(eval["depth"].as_u64().unwrap() >= 1, "{eval}");
            assert!(eval["cp"].is_i64() || eval["mate"].is_i64(), "{eval}");
            break;
        }
        assert!(Instant::now() < deadline, "no evaluation came: {answer}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn bad_explorer_queries_are_400s_that_say_why() {
    let t = TestApp::new();
    for (query, says) in [
        ("variant=shogi", "Unknown variant"),
        ("variant=tensor&play=e2e4,zz99", "not a move"),
        ("variant=chess&play=e2e5", "Illegal move e2e5 at ply 1"),
        ("variant=chess&fen=not-a-fen", ""),
        ("variant=chess&speeds=blitz,hyper", "Unknown speed 'hyper'"),
        ("variant=chess&ratings=1500", "Unknown rating band '1500'"),
        ("variant=chess&rated=maybe", ""),
    ] {
        let a = t.get(&format!("/api/explorer?{query}"), None).await;
        assert_eq!(a.status, StatusCode::BAD_REQUEST, "{query}: {}", a.text);
        assert!(a.text.contains(says), "{query}: {}", a.text);
    }
    let a = t
        .get(
            "/api/explorer?variant=chess&fen=4k3/8/8/8/8/8/8/4K2R%20w%20K%20-%200%201",
            None,
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
}

/// Two servers over one PostgreSQL: a game created on one and played
/// across both ends on the server that stores the end; it is counted
/// once, both servers answer the same, and both adding it again at once
/// count nothing more.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: set TENSORCHESS_TEST_PG (scripts/test.sh does)"]
async fn two_servers_count_a_game_once() {
    let pair = crate::common::online::two_servers().await;
    let (a, b) = (&pair.a, &pair.b);
    for round in 0..3u8 {
        let (id, white, _) = a
            .create(json!({ "variant": "chess", "color": "white", "clock": null }))
            .await;
        let joined = b
            .post(&format!("/api/games/{id}/join"), None, json!({}))
            .await;
        assert_eq!(joined.status, StatusCode::OK, "{}", joined.text);
        let black = joined.cookie.unwrap();
        for (ply, mv) in ["e2e4", "c7c5"].iter().enumerate() {
            let (server, who) = if ply % 2 == 0 {
                (a, &white)
            } else {
                (b, &black)
            };
            let r = server.play(&id, who, mv, ply).await;
            assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        }
        // Resigned on the other server each round.
        let (server, who) = if round % 2 == 0 {
            (b, &black)
        } else {
            (a, &white)
        };
        let r = server
            .act(&id, Some(who), json!({ "type": "resign" }))
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        let want = i64::from(round) + 1;
        crate::common::online::wait_until("the explorer counts the game", || async {
            let answer = explore(a, "variant=chess&play=e2e4").await;
            answer["white"].as_i64().unwrap_or(0) + answer["black"].as_i64().unwrap_or(0) == want
        })
        .await;
        let (x, y) = tokio::join!(
            a.state.explorer.add_game(&id),
            b.state.explorer.add_game(&id)
        );
        assert_eq!((x.unwrap(), y.unwrap()), (false, false));
    }
    let on_a = without_evals(explore(a, "variant=chess&play=e2e4").await);
    assert_eq!(
        on_a,
        without_evals(explore(b, "variant=chess&play=e2e4").await)
    );
    assert_eq!(on_a["moves"][0]["uci"], "c7c5");
    assert_eq!(
        (on_a["white"].clone(), on_a["black"].clone()),
        (json!(2), json!(1))
    );
}

/// A player's games through a position (the explorer's moves, or a FEN):
/// `GET /api/games/user/{name}?play=…` finds those that went through it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_players_games_are_found_by_position() {
    let t = TestApp::new();
    let ann = crate::common::online::account(&t, "ann").await;
    let bob = crate::common::online::account(&t, "bob").await;
    for (n, reply) in ["e7e5", "d7d5", "e7e5"].into_iter().enumerate() {
        let made = t
            .post(
                "/api/online",
                Some(&ann),
                json!({ "variant": "chess", "color": "white", "clock": null }),
            )
            .await;
        assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
        let id = made.body["id"].as_str().unwrap().to_string();
        let joined = t
            .post(&format!("/api/games/{id}/join"), Some(&bob), json!({}))
            .await;
        assert_eq!(joined.status, StatusCode::OK, "{}", joined.text);
        assert_eq!(t.play(&id, &ann, "e2e4", 0).await.status, StatusCode::OK);
        assert_eq!(t.play(&id, &bob, reply, 1).await.status, StatusCode::OK);
        let r = t.act(&id, Some(&bob), json!({ "type": "resign" })).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        crate::common::online::wait_until("the game is counted", || async {
            let a = explore(&t, "variant=chess").await;
            a["white"].as_i64() == Some(n as i64 + 1)
        })
        .await;
    }
    let found = |query: &'static str| {
        let t = &t;
        async move {
            let a = t.get(&format!("/api/games/user/ann?{query}"), None).await;
            assert_eq!(a.status, StatusCode::OK, "{query}: {}", a.text);
            a.text.matches("[White \"").count()
        }
    };
    assert_eq!(found("").await, 3);
    assert_eq!(found("variant=chess&play=e2e4,e7e5").await, 2);
    assert_eq!(found("variant=chess&play=e2e4,d7d5").await, 1);
    assert_eq!(found("variant=chess&play=d2d4").await, 0);
    // The same position by its FEN.
    let fen = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR%20w%20KQkq%20-%200%202";
    let a = t
        .get(
            &format!("/api/games/user/ann?variant=chess&fen={fen}"),
            None,
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    assert_eq!(a.text.matches("[White \"").count(), 1);
    let bad = t
        .get("/api/games/user/ann?variant=chess&play=e2e5", None)
        .await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST, "{}", bad.text);
}
