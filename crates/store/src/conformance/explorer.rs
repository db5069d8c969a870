//! The opening explorer's counts (issue 42): each game counted once, even
//! when added twice or by two servers at once; filters sum the right rows;
//! top games; evaluations keep the deepest.

use super::*;
use crate::explorer::{band_of, EXPLORER_PLIES, UNRATED_BAND};
use futures_util::future::join_all;

/// A hash above `i64::MAX`, so that the stored sign is exercised.
const START: u64 = 0xF00D_0000_0000_0001;
const AFTER_E4: u64 = 0x0000_0000_0000_0E44;

fn steps(moves: &[(u64, &str)]) -> Vec<ExplorerStep> {
    moves
        .iter()
        .map(|&(hash, uci)| ExplorerStep {
            hash,
            uci: uci.into(),
        })
        .collect()
}

fn explorer_game(
    id: &str,
    winner: Option<Color>,
    rated: bool,
    speed: Speed,
    ratings: [Option<i32>; 2],
) -> ExplorerGame {
    ExplorerGame {
        id: id.into(),
        variant: VariantKind::Tensor,
        white: format!("{id}-w"),
        black: format!("{id}-b"),
        ratings,
        winner,
        rated,
        speed,
        played_at: 1_700_000_000_000,
        steps: steps(&[(START, "e2e4"), (AFTER_E4, "e7e5")]),
        after: 0xAF7E,
    }
}

fn first(answer: &ExplorerAnswer, uci: &str) -> MoveCounts {
    answer
        .moves
        .iter()
        .find(|m| m.uci == uci)
        .cloned()
        .unwrap_or_default()
}

/// Counts after games are added, by filter; a game added again counts
/// nothing; top games rank by average rating; evaluations keep the
/// deepest; a rebuild starts from nothing.
pub async fn explorer_counts_each_game_once(store: &dyn GameStore) {
    let all = ExplorerFilter::all();
    let tensor = VariantKind::Tensor;
    let games = [
        explorer_game(
            "x1",
            Some(Color::White),
            true,
            Speed::Blitz,
            [Some(1500), Some(1700)],
        ),
        explorer_game("x2", None, true, Speed::Rapid, [Some(2100), Some(2300)]),
        explorer_game("x3", Some(Color::Black), false, Speed::Blitz, [None, None]),
    ];
    for g in &games {
        assert!(store.add_explorer_game(g).await.unwrap(), "{}", g.id);
    }
    // Again: nothing more.
    assert!(!store.add_explorer_game(&games[0]).await.unwrap());
    let mut d4 = explorer_game("x4", None, false, Speed::Bullet, [None, None]);
    d4.steps = steps(&[(START, "d2d4"), (START, "d2d4")]);
    d4.variant = VariantKind::Chess;
    assert!(store.add_explorer_game(&d4).await.unwrap());

    let answer = store.explore(tensor, START, &all).await.unwrap();
    assert_eq!(answer.moves.len(), 1, "{answer:?}");
    let e4 = first(&answer, "e2e4");
    assert_eq!((e4.white, e4.draws, e4.black), (1, 1, 1));
    // (1600 + 2200) / 2 over the two games with ratings.
    assert_eq!(e4.average_rating(), Some(1900));
    let top: Vec<_> = answer.top_games.iter().map(|g| g.id.as_str()).collect();
    assert_eq!(top, ["x2", "x1"]);
    assert_eq!(answer.top_games[0].ratings, [Some(2100), Some(2300)]);
    assert_eq!(answer.top_games[0].winner, None);
    assert_eq!(answer.top_games[1].winner, Some(Color::White));
    assert_eq!(answer.top_games[1].white, "x1-w");
    let next = store.explore(tensor, AFTER_E4, &all).await.unwrap();
    assert_eq!(first(&next, "e7e5").total(), 3);

    // The other game's positions are apart, and one met twice counts once.
    let chess = store
        .explore(VariantKind::Chess, START, &all)
        .await
        .unwrap();
    assert_eq!(first(&chess, "d2d4").total(), 1);
    assert!(chess.top_games.is_empty());

    // Filters: rated only; a speed; a rating band.
    let rated = ExplorerFilter {
        rated_only: true,
        ..all.clone()
    };
    let e4 = first(&store.explore(tensor, START, &rated).await.unwrap(), "e2e4");
    assert_eq!((e4.white, e4.draws, e4.black), (1, 1, 0));
    let blitz = ExplorerFilter {
        speeds: 1 << Speed::Blitz.index(),
        ..all.clone()
    };
    let e4 = first(&store.explore(tensor, START, &blitz).await.unwrap(), "e2e4");
    assert_eq!((e4.white, e4.draws, e4.black), (1, 0, 1));
    let band = ExplorerFilter {
        bands: 1 << band_of(Some(1600)),
        ..all.clone()
    };
    let answer = store.explore(tensor, START, &band).await.unwrap();
    let e4 = first(&answer, "e2e4");
    assert_eq!((e4.white, e4.draws, e4.black), (1, 0, 0));
    assert_eq!(answer.top_games.len(), 1);
    let unrated = ExplorerFilter {
        bands: 1 << UNRATED_BAND,
        ..all.clone()
    };
    let e4 = first(
        &store.explore(tensor, START, &unrated).await.unwrap(),
        "e2e4",
    );
    assert_eq!(
        (e4.white, e4.draws, e4.black, e4.average_rating()),
        (0, 0, 1, None)
    );

    // Only the first plies count.
    let mut long = explorer_game("x5", None, false, Speed::Classical, [None, None]);
    long.steps = (0..EXPLORER_PLIES as u64 + 5)
        .map(|i| ExplorerStep {
            hash: 1000 + i,
            uci: "a1a2".into(),
        })
        .collect();
    store.add_explorer_game(&long).await.unwrap();
    let last = 1000 + EXPLORER_PLIES as u64;
    assert_eq!(
        first(
            &store.explore(tensor, last - 1, &all).await.unwrap(),
            "a1a2"
        )
        .total(),
        1
    );
    assert!(store
        .explore(tensor, last, &all)
        .await
        .unwrap()
        .moves
        .is_empty());

    // Evaluations: the deepest stays.
    let eval = |cp, depth| ExplorerEval {
        cp: Some(cp),
        mate: None,
        depth,
    };
    store
        .put_explorer_eval(tensor, AFTER_E4, eval(30, 8))
        .await
        .unwrap();
    store
        .put_explorer_eval(tensor, AFTER_E4, eval(-5, 4))
        .await
        .unwrap();
    let found = store
        .explorer_evals(tensor, &[AFTER_E4, START])
        .await
        .unwrap();
    assert_eq!(found, [(AFTER_E4, eval(30, 8))]);
    store
        .put_explorer_eval(tensor, AFTER_E4, eval(25, 10))
        .await
        .unwrap();
    let found = store.explorer_evals(tensor, &[AFTER_E4]).await.unwrap();
    assert_eq!(found, [(AFTER_E4, eval(25, 10))]);

    // A rebuild starts from nothing, and counts a game again.
    store.clear_explorer().await.unwrap();
    assert!(store
        .explore(tensor, START, &all)
        .await
        .unwrap()
        .moves
        .is_empty());
    assert!(store.add_explorer_game(&games[0]).await.unwrap());
    assert_eq!(
        store
            .explorer_evals(tensor, &[AFTER_E4])
            .await
            .unwrap()
            .len(),
        1,
        "evaluations survive a rebuild"
    );
}

/// What a rebuild reads: the finished online games, page by page, in id
/// order; not aborted, unfinished or local games.
pub async fn explorer_rebuild_reads_finished_online_games(store: &dyn GameStore) {
    let won = Some(Ending::Outcome(Outcome::Decisive {
        winner: Color::White,
        reason: EndReason::Resignation,
    }));
    let cases = [
        ("fin-a", true, won),
        ("fin-b", true, Some(Ending::Aborted { no_show: None })),
        ("fin-c", true, None),
        ("fin-d", false, won),
        ("fin-e", true, won),
        ("fin-f", true, won),
    ];
    for (id, online, ending) in cases {
        let mut g = if online {
            online_game(id)
        } else {
            game(record(id))
        };
        g.record.ending = ending;
        let plies = match id {
            "fin-a" | "fin-b" | "fin-d" => EXPLORER_PLIES + 5,
            "fin-e" => 2,
            _ => 0,
        };
        g.moves = (0..plies)
            .map(|ply| StoredMove {
                ply,
                uci: format!("m{ply}"),
                san: format!("M{ply}"),
            })
            .collect();
        store.create_game(&g).await.unwrap();
    }
    let ids = |page: &[StoredGame]| page.iter().map(|g| g.record.id.clone()).collect::<Vec<_>>();
    let page = store.explorer_source_games(None, 2).await.unwrap();
    assert_eq!(ids(&page), ["fin-a", "fin-e"]);
    // Each with its online state and its first plies only.
    assert!(page.iter().all(|g| g.online.is_some()));
    let plies: Vec<usize> = page[0].moves.iter().map(|m| m.ply).collect();
    assert_eq!(plies, (0..EXPLORER_PLIES).collect::<Vec<_>>());
    assert_eq!(page[0].moves[3].uci, "m3");
    assert_eq!(page[1].moves.len(), 2);
    let page = store.explorer_source_games(Some("fin-e"), 2).await.unwrap();
    assert_eq!(ids(&page), ["fin-f"]);
    assert!(page[0].moves.is_empty());

    // What a server catches up on: those never counted, changed since.
    let all = store.uncounted_game_ids(0, 10).await.unwrap();
    assert_eq!(all, ["fin-a", "fin-e", "fin-f"]);
    let counted = explorer_game("fin-e", Some(Color::White), true, Speed::Blitz, [None; 2]);
    assert!(store.add_explorer_game(&counted).await.unwrap());
    let left = store.uncounted_game_ids(0, 10).await.unwrap();
    assert_eq!(left, ["fin-a", "fin-f"]);
    assert_eq!(store.uncounted_game_ids(0, 1).await.unwrap(), ["fin-a"]);
    let later = store.uncounted_game_ids(i64::MAX, 10).await.unwrap();
    assert!(later.is_empty(), "{later:?}");
}

/// The same game added at once many times, through `a` and `b` (two
/// servers over one database, or one store twice): counted once.
pub async fn explorer_racing_adds_count_once(a: &dyn GameStore, b: &dyn GameStore) {
    for round in 0..5 {
        let g = explorer_game(
            &format!("race{round}"),
            Some(Color::White),
            true,
            Speed::Blitz,
            [Some(1500 + 10 * round), Some(1500)],
        );
        let tries = (0..8).map(|i| {
            let store = if i % 2 == 0 { a } else { b };
            store.add_explorer_game(&g)
        });
        let outcomes = join_all(tries).await;
        let added = outcomes
            .into_iter()
            .map(|o| o.unwrap())
            .filter(|&added| added)
            .count();
        assert_eq!(added, 1, "round {round}");
    }
    let answer = a
        .explore(VariantKind::Tensor, START, &ExplorerFilter::all())
        .await
        .unwrap();
    assert_eq!(first(&answer, "e2e4").white, 5);
    let top: Vec<_> = answer.top_games.iter().map(|g| g.id.as_str()).collect();
    assert_eq!(top, ["race4", "race3", "race2", "race1"]);
}

/// A player's games through a position: the games the explorer counted
/// that went through it, with the search's other filters.
pub async fn games_are_found_by_position(store: &dyn GameStore) {
    let won = Some(Ending::Outcome(Outcome::Decisive {
        winner: Color::White,
        reason: EndReason::Resignation,
    }));
    // (id, the position it went through after the start, rated)
    let games = [
        ("pos1", AFTER_E4, true),
        ("pos2", 77, true),
        ("pos3", AFTER_E4, false),
    ];
    for (at, (id, through, rated)) in games.into_iter().enumerate() {
        let mut g = online_game(id);
        g.record.ending = won;
        g.record.rated = rated;
        g.record.created_at = 10 + at as i64;
        g.online.as_mut().unwrap().players =
            ByColor::new(Some("p-ann".into()), Some("p-bob".into()));
        store.create_game(&g).await.unwrap();
        let mut e = explorer_game(
            id,
            won.and_then(|e| e.outcome()).and_then(|o| o.winner()),
            rated,
            Speed::Blitz,
            [None, None],
        );
        e.steps = steps(&[(START, "e2e4"), (through, "e7e5")]);
        store.add_explorer_game(&e).await.unwrap();
    }
    let ids = |found: Vec<(String, i64)>| found.into_iter().map(|(id, _)| id).collect::<Vec<_>>();
    let through = GameSearch {
        player: "p-ann".into(),
        limit: 10,
        position: Some((VariantKind::Tensor, AFTER_E4)),
        ..GameSearch::default()
    };
    assert_eq!(
        ids(store.search_games(&through).await.unwrap()),
        ["pos3", "pos1"]
    );
    let rated = GameSearch {
        rated: Some(true),
        ..through.clone()
    };
    assert_eq!(ids(store.search_games(&rated).await.unwrap()), ["pos1"]);
    // The start: every game; another game's positions: none.
    let start = GameSearch {
        position: Some((VariantKind::Tensor, START)),
        ..through.clone()
    };
    assert_eq!(store.search_games(&start).await.unwrap().len(), 3);
    // And the position the counted plies end in.
    let end = GameSearch {
        position: Some((VariantKind::Tensor, 0xAF7E)),
        ..through.clone()
    };
    assert_eq!(store.search_games(&end).await.unwrap().len(), 3);
    let chess = GameSearch {
        position: Some((VariantKind::Chess, AFTER_E4)),
        ..through.clone()
    };
    assert!(store.search_games(&chess).await.unwrap().is_empty());
}
