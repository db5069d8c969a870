//! Many games counted at once (a rebuild's chunks) leave the explorer's
//! tables as counting them one at a time does: the same counts under every
//! filter, the same top games (ties of rating among them), the same games
//! through each position; a game counted already is left out.

use super::*;
use crate::explorer::{Speed, EXPLORER_PLIES, RATING_BANDS, UNRATED_BAND};
use std::collections::BTreeSet;

/// A small generator (the same games on every backend).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }
}

/// Games that share openings: the first plies chosen among three moves
/// (the position's hash made from the line, so lines meet), a position
/// met twice in some, ratings from a few values (ties), some unrated.
fn games(n: usize) -> Vec<ExplorerGame> {
    let mut rng = Lcg(0x5EED);
    (0..n)
        .map(|i| {
            let variant = if i % 5 == 4 {
                VariantKind::Chess
            } else {
                VariantKind::Tensor
            };
            let plies = 4 + rng.below(EXPLORER_PLIES as u64 + 6) as usize;
            let mut hash: u64 = 0x8000_0000_0000_0000 | variant as u64;
            let mut steps = Vec::new();
            for ply in 0..plies {
                let choices = if ply < 5 { 3 } else { 40 };
                let m = rng.below(choices);
                steps.push(ExplorerStep {
                    hash,
                    uci: format!("m{m}"),
                });
                hash = hash
                    .rotate_left(7)
                    .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                    .wrapping_add(m + 1);
            }
            if i % 7 == 0 && steps.len() > 3 {
                // Back where it was: the same position and move again.
                let again = steps[1].clone();
                steps.push(again);
            }
            let rated = rng.below(3) > 0;
            let mut rating = || (rng.below(6) > 0).then(|| 1400 + 10 * rng.below(40) as i32);
            let ratings = if rated {
                [rating(), rating()]
            } else {
                [None, None]
            };
            ExplorerGame {
                id: format!("bulk{i:04}"),
                variant,
                white: format!("w{}", i % 13),
                black: format!("b{}", i % 11),
                ratings,
                winner: match rng.below(3) {
                    0 => Some(Color::White),
                    1 => None,
                    _ => Some(Color::Black),
                },
                rated,
                // Mostly two speeds, so that a chunk has many games in a
                // bucket of the top games.
                speed: if i % 10 == 0 {
                    Speed::ALL[rng.below(Speed::ALL.len() as u64) as usize]
                } else {
                    Speed::ALL[2 + rng.below(2) as usize]
                },
                played_at: 1_700_000_000_000 + i as i64,
                steps,
                after: hash,
            }
        })
        .collect()
}

/// `one` counts 400 games one at a time; `many` counts some of them one at
/// a time, then every one in chunks (a chunk with games counted already,
/// one game twice): both answer the same everywhere.
pub async fn explorer_many_games_count_as_one_by_one(one: &dyn GameStore, many: &dyn GameStore) {
    let games = games(400);
    for g in &games {
        let mut stored = online_game(&g.id);
        stored.record.variant = g.variant;
        stored.online.as_mut().unwrap().players =
            ByColor::new(Some("p-w".into()), Some("p-b".into()));
        one.create_game(&stored).await.unwrap();
        many.create_game(&stored).await.unwrap();
        assert!(one.add_explorer_game(g).await.unwrap());
    }
    for g in &games[..30] {
        assert!(many.add_explorer_game(g).await.unwrap());
    }
    // Games 20..29 are counted already: left out; game 40 twice: once.
    let mut chunk: Vec<ExplorerGame> = games[20..70].to_vec();
    chunk.push(games[40].clone());
    assert_eq!(many.stage_explorer_games(&chunk).await.unwrap(), 40);
    // Merged, then more staged and merged onto those rows.
    many.merge_explorer_games().await.unwrap();
    for part in games[70..].chunks(165) {
        assert_eq!(many.stage_explorer_games(part).await.unwrap(), part.len());
    }
    assert_eq!(many.stage_explorer_games(&games[..5]).await.unwrap(), 0);
    assert_eq!(many.stage_explorer_games(&[]).await.unwrap(), 0);
    many.merge_explorer_games().await.unwrap();
    many.merge_explorer_games().await.unwrap();

    let mut filters = vec![
        ExplorerFilter::all(),
        ExplorerFilter {
            rated_only: true,
            ..ExplorerFilter::all()
        },
    ];
    for speed in Speed::ALL {
        filters.push(ExplorerFilter {
            speeds: 1 << speed.index(),
            ..ExplorerFilter::all()
        });
    }
    for band in 0..=UNRATED_BAND {
        filters.push(ExplorerFilter {
            bands: 1 << band,
            ..ExplorerFilter::all()
        });
    }
    assert_eq!(filters.len(), 2 + Speed::ALL.len() + RATING_BANDS.len() + 1);
    let positions: BTreeSet<(VariantKind, u64)> = games
        .iter()
        .flat_map(|g| {
            g.steps
                .iter()
                .take(6)
                .map(|s| (g.variant, s.hash))
                .chain([(g.variant, g.after)])
        })
        .collect();
    // Where lines meet (the first plies: many games, many moves, ties among
    // the top games) every filter is compared; elsewhere (mostly one game a
    // position) all games and one filter in turn, and the game search at
    // every fourth position: each filter is still compared at hundreds of
    // positions, at a seventh of the queries.
    let meeting: BTreeSet<(VariantKind, u64)> = games
        .iter()
        .flat_map(|g| g.steps.iter().take(3).map(|s| (g.variant, s.hash)))
        .collect();
    let mut moves_seen = 0;
    let mut tops_seen = 0;
    for (i, &(variant, hash)) in positions.iter().enumerate() {
        let meets = meeting.contains(&(variant, hash));
        let compared: Vec<&ExplorerFilter> = if meets {
            filters.iter().collect()
        } else {
            vec![&filters[0], &filters[1 + i % (filters.len() - 1)]]
        };
        for f in compared {
            let a = one.explore(variant, hash, f).await.unwrap();
            let b = many.explore(variant, hash, f).await.unwrap();
            assert_eq!(a, b, "{variant} {hash:x} {f:?}");
            moves_seen += a.moves.len();
            tops_seen += a.top_games.len();
        }
        if !meets && i % 4 != 0 {
            continue;
        }
        let search = GameSearch {
            player: "p-w".into(),
            limit: 1000,
            position: Some((variant, hash)),
            ..GameSearch::default()
        };
        let a = one.search_games(&search).await.unwrap();
        assert!(!a.is_empty(), "{variant} {hash:x}");
        assert_eq!(a, many.search_games(&search).await.unwrap(), "{hash:x}");
    }
    assert!(moves_seen > 1000, "{moves_seen} moves compared");
    assert!(tops_seen > 500, "{tops_seen} top games compared");
}
