//! What every [`GameStore`] must do, written once against the trait and run
//! for each backend.

use super::*;

mod challenge;
mod chat;
mod explorer;
mod explorer_bulk;
mod games;
mod learning;
mod moderation;
mod players;
mod token;
mod tournament;
mod trust;
pub use challenge::*;
pub use chat::*;
pub use explorer::*;
pub use explorer_bulk::*;
pub use games::*;
pub use learning::*;
pub use moderation::*;
pub use players::*;
use tensorchess_rules::{ByColor, Color, EndReason, Outcome, VariantKind};
pub use token::*;
pub use tournament::*;
pub use trust::*;

/// An engine game `id` at revision 1, owned by player `p1`, without moves.
pub fn record(id: &str) -> GameRecord {
    GameRecord {
        id: id.into(),
        variant: VariantKind::Tensor,
        start_fen: "start".into(),
        mode: GameMode::Engine,
        human_color: Some(Color::White),
        level: Some(3),
        white: "You".into(),
        black: "Engine".into(),
        owner: Some("p1".into()),
        rated: false,
        ending: None,
        rev: 1,
        created_at: 1,
        updated_at: 1,
    }
}

/// A change that only moves game to revision `rev` (at time `2 + rev`).
pub fn update(rev: i64) -> GameUpdate {
    GameUpdate {
        rev,
        ending: None,
        updated_at: 2 + rev,
        online: None,
        names: None,
        ratings: Vec::new(),
        berserk: None,
    }
}

fn list(player: &str) -> GameListQuery {
    GameListQuery {
        player: player.into(),
        limit: 10,
        before: None,
    }
}

fn mv(ply: usize, uci: &str) -> StoredMove {
    StoredMove {
        ply,
        uci: uci.into(),
        san: uci.into(),
    }
}

fn game(record: GameRecord) -> StoredGame {
    StoredGame {
        record,
        moves: vec![],
        online: None,
    }
}

fn online_game(id: &str) -> StoredGame {
    let mut r = record(id);
    r.mode = GameMode::Online;
    r.human_color = None;
    r.level = None;
    r.owner = None;
    StoredGame {
        record: r,
        moves: vec![],
        online: Some(OnlineRecord {
            players: ByColor::new(Some("alice".into()), None),
            clock: Some(ClockSettings {
                base_ms: 300_000,
                increment_ms: 2_000,
            }),
            ms: ByColor::new(300_000, 300_000),
            ..OnlineRecord::default()
        }),
    }
}

fn player(id: &str) -> PlayerRecord {
    PlayerRecord {
        id: id.into(),
        name: format!("Player {id}"),
        created_at: 5,
        account: None,
    }
}

// ---- learning (issue 16) ---------------------------------------------------

fn rating(rating: f64, games: u32) -> RatingRecord {
    RatingRecord {
        rating,
        rd: 200.0,
        volatility: 0.06,
        games,
    }
}

fn attempt(player: &str, puzzle: &str, at: i64, solved: bool) -> PuzzleAttemptRecord {
    PuzzleAttemptRecord {
        player_id: player.into(),
        puzzle_id: puzzle.into(),
        variant: VariantKind::Tensor,
        solved,
        rated: true,
        rating_diff: Some(if solved { 8 } else { -8 }),
        played_at: at,
    }
}

fn lesson(player: &str, level: &str, stars: u8, moves: u32) -> LessonRecord {
    LessonRecord {
        player_id: player.into(),
        level_id: level.into(),
        stars,
        moves,
        completed_at: 1,
    }
}

/// A player's games are found by opponent, rating, time and end, newest
/// or oldest first, page after page.
pub async fn games_are_searched(store: &dyn GameStore) {
    let draw = Some(Ending::Outcome(Outcome::Draw {
        reason: EndReason::Agreement,
    }));
    // (id, white, black, rated, created_at, over)
    let games = [
        ("srch1", "s-ann", "s-bob", true, 10, true),
        ("srch2", "s-bob", "s-ann", false, 20, true),
        ("srch3", "s-ann", "s-cy", true, 30, false),
        ("srch4", "s-cy", "s-dee", true, 40, true),
        ("srch5", "s-cy", "s-ann", false, 50, true),
    ];
    for (id, white, black, rated, at, over) in games {
        let mut g = online_game(id);
        g.record.rated = rated;
        g.record.created_at = at;
        g.record.ending = if over { draw } else { None };
        g.online.as_mut().unwrap().players = ByColor::new(Some(white.into()), Some(black.into()));
        store.create_game(&g).await.unwrap();
    }
    let ids = |found: Vec<(String, i64)>| found.into_iter().map(|(id, _)| id).collect::<Vec<_>>();
    let all = GameSearch {
        player: "s-ann".into(),
        limit: 10,
        ..GameSearch::default()
    };
    assert_eq!(
        ids(store.search_games(&all).await.unwrap()),
        ["srch5", "srch3", "srch2", "srch1"]
    );
    let q = GameSearch {
        opponent: Some("s-bob".into()),
        ..all.clone()
    };
    assert_eq!(
        ids(store.search_games(&q).await.unwrap()),
        ["srch2", "srch1"]
    );
    let q = GameSearch {
        rated: Some(true),
        finished: true,
        ..all.clone()
    };
    assert_eq!(ids(store.search_games(&q).await.unwrap()), ["srch1"]);
    let q = GameSearch {
        since: Some(20),
        until: Some(30),
        ..all.clone()
    };
    assert_eq!(
        ids(store.search_games(&q).await.unwrap()),
        ["srch3", "srch2"]
    );
    // Oldest first, two at a time.
    let mut page = GameSearch {
        oldest_first: true,
        limit: 2,
        ..all.clone()
    };
    let first = store.search_games(&page).await.unwrap();
    assert_eq!(ids(first.clone()), ["srch1", "srch2"]);
    let (last_id, last_at) = first.last().cloned().unwrap();
    page.after = Some((last_at, last_id));
    assert_eq!(
        ids(store.search_games(&page).await.unwrap()),
        ["srch3", "srch5"]
    );
    assert!(store
        .search_games(&GameSearch {
            player: "nobody".into(),
            limit: 10,
            ..GameSearch::default()
        })
        .await
        .unwrap()
        .is_empty());
    // By the game and by how it ended for the player: Ann won srch6 with
    // White and lost srch7 (chess) with Black; srch1, 2 and 5 are draws.
    let won = |winner| {
        Some(Ending::Outcome(Outcome::Decisive {
            winner,
            reason: EndReason::Resignation,
        }))
    };
    for (id, white, black, variant, ending) in [
        (
            "srch6",
            "s-ann",
            "s-eve",
            VariantKind::Tensor,
            won(Color::White),
        ),
        (
            "srch7",
            "s-eve",
            "s-ann",
            VariantKind::Chess,
            won(Color::White),
        ),
    ] {
        let mut g = online_game(id);
        g.record.variant = variant;
        g.record.created_at = 60;
        g.record.ending = ending;
        g.online.as_mut().unwrap().players = ByColor::new(Some(white.into()), Some(black.into()));
        store.create_game(&g).await.unwrap();
    }
    let by = |variant, end| GameSearch {
        variant,
        end,
        ..all.clone()
    };
    let found = |q: GameSearch| async move {
        let mut ids = ids(store.search_games(&q).await.unwrap());
        ids.sort();
        ids
    };
    assert_eq!(found(by(None, Some(PlayerEnd::Won))).await, ["srch6"]);
    assert_eq!(found(by(None, Some(PlayerEnd::Lost))).await, ["srch7"]);
    assert_eq!(
        found(by(None, Some(PlayerEnd::Drew))).await,
        ["srch1", "srch2", "srch5"]
    );
    assert_eq!(found(by(Some(VariantKind::Chess), None)).await, ["srch7"]);
    assert!(found(by(Some(VariantKind::Chess), Some(PlayerEnd::Won)))
        .await
        .is_empty());
    // Eve's side of the same games.
    let eve = GameSearch {
        player: "s-eve".into(),
        end: Some(PlayerEnd::Won),
        ..all.clone()
    };
    assert_eq!(found(eve).await, ["srch7"]);
}
