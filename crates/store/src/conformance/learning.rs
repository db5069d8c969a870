//! The learning contract: reviews, puzzle tries and ratings, lessons.

use super::*;

/// A review is stored with its game, replaced by a newer one, and deleted
/// with the game; a review of no game is refused.
pub async fn reviews_are_kept_with_their_game(store: &dyn GameStore) {
    a_game_with_two_moves(store, "rv").await;
    assert!(store.review("rv").await.unwrap().is_none());
    let first = ReviewRecord {
        game_id: "rv".into(),
        review_json: r#"{"plies":[1]}"#.into(),
        created_at: 10,
    };
    store.save_review(&first).await.unwrap();
    assert_eq!(store.review("rv").await.unwrap(), Some(first.clone()));
    let second = ReviewRecord {
        review_json: r#"{"plies":[1,2]}"#.into(),
        created_at: 20,
        ..first
    };
    store.save_review(&second).await.unwrap();
    assert_eq!(store.review("rv").await.unwrap(), Some(second.clone()));
    let orphan = ReviewRecord {
        game_id: "none".into(),
        ..second
    };
    let err = store.save_review(&orphan).await.unwrap_err();
    assert!(matches!(err, StoreError::Conflict(_)), "{err}");
    assert!(store.delete_game("rv").await.unwrap());
    assert!(store.review("rv").await.unwrap().is_none());
}

/// A rated try writes the try, the player's and the puzzle's ratings in
/// one transaction, each only if it is still what the writer read.
pub async fn puzzle_tries_and_ratings_are_written_together(store: &dyn GameStore) {
    let tensor = VariantKind::Tensor;
    assert!(store
        .puzzle_player_rating("ann", tensor)
        .await
        .unwrap()
        .is_none());
    let first = PuzzleResultWrite {
        attempt: attempt("ann", "p1", 100, true),
        player: Some(PuzzleRatingWrite {
            before: None,
            after: rating(1510.0, 1),
        }),
        puzzle: Some(PuzzleRatingWrite {
            before: None,
            after: rating(1190.0, 1),
        }),
    };
    store.record_puzzle_attempt(&first).await.unwrap();
    assert_eq!(
        store.puzzle_player_rating("ann", tensor).await.unwrap(),
        Some(rating(1510.0, 1))
    );
    assert_eq!(
        store
            .puzzle_player_rating("ann", VariantKind::Chessence)
            .await
            .unwrap(),
        None
    );
    assert_eq!(
        store.puzzle_ratings(tensor).await.unwrap(),
        vec![("p1".to_string(), rating(1190.0, 1))]
    );
    assert!(store
        .puzzle_ratings(VariantKind::Chessence)
        .await
        .unwrap()
        .is_empty());
    // Written again from the same "before": stale, and nothing changes.
    let mut again = first.clone();
    again.attempt.played_at = 200;
    let err = store.record_puzzle_attempt(&again).await.unwrap_err();
    assert!(matches!(err, StoreError::Stale { .. }), "{err}");
    assert!(store.puzzle_attempted("ann", "p1").await.unwrap());
    assert!(!store.puzzle_attempted("ann", "p2").await.unwrap());
    // The puzzle moved on while the player did not: stale too.
    let stale_puzzle = PuzzleResultWrite {
        attempt: attempt("dan", "p1", 300, false),
        player: Some(PuzzleRatingWrite {
            before: None,
            after: rating(1500.0, 1),
        }),
        puzzle: Some(PuzzleRatingWrite {
            before: Some(rating(1190.0, 0)),
            after: rating(1200.0, 1),
        }),
    };
    let err = store
        .record_puzzle_attempt(&stale_puzzle)
        .await
        .unwrap_err();
    assert!(matches!(err, StoreError::Stale { .. }), "{err}");
    assert_eq!(
        store.puzzle_player_rating("dan", tensor).await.unwrap(),
        None,
        "the player's write went with the failed one"
    );
    assert!(!store.puzzle_attempted("dan", "p1").await.unwrap());
    assert_eq!(
        store
            .recent_puzzle_attempts("ann", tensor, 10)
            .await
            .unwrap(),
        vec![first.attempt.clone()]
    );
    // Unrated tries (a streak) change no rating; newest first.
    for (i, p) in ["p2", "p3"].into_iter().enumerate() {
        let mut a = attempt("ann", p, 400 + i as i64, false);
        a.rated = false;
        a.rating_diff = None;
        store
            .record_puzzle_attempt(&PuzzleResultWrite {
                attempt: a,
                player: None,
                puzzle: None,
            })
            .await
            .unwrap();
    }
    let recent = store
        .recent_puzzle_attempts("ann", tensor, 2)
        .await
        .unwrap();
    let ids: Vec<&str> = recent.iter().map(|a| a.puzzle_id.as_str()).collect();
    assert_eq!(ids, ["p3", "p2"]);
    // A rated try of a puzzle tried before (here in a streak) is refused.
    let late = PuzzleResultWrite {
        attempt: attempt("ann", "p2", 450, true),
        player: Some(PuzzleRatingWrite {
            before: Some(rating(1510.0, 1)),
            after: rating(1520.0, 2),
        }),
        puzzle: None,
    };
    let err = store.record_puzzle_attempt(&late).await.unwrap_err();
    assert!(matches!(err, StoreError::Stale { .. }), "{err}");
    assert!(!recent[0].rated && recent[0].rating_diff.is_none());
    assert!(store
        .recent_puzzle_attempts("bob", tensor, 10)
        .await
        .unwrap()
        .is_empty());
    // Only the latest tries are kept.
    for i in 0..MAX_PUZZLE_ATTEMPTS as i64 + 5 {
        let mut a = attempt("cat", &format!("q{i}"), 1_000 + i, true);
        a.rated = false;
        store
            .record_puzzle_attempt(&PuzzleResultWrite {
                attempt: a,
                player: None,
                puzzle: None,
            })
            .await
            .unwrap();
    }
    let kept = store
        .recent_puzzle_attempts("cat", tensor, MAX_PUZZLE_ATTEMPTS + 100)
        .await
        .unwrap();
    assert_eq!(kept.len(), MAX_PUZZLE_ATTEMPTS);
    assert_eq!(
        kept[0].puzzle_id,
        format!("q{}", MAX_PUZZLE_ATTEMPTS as i64 + 4)
    );
}

/// A level completed again keeps the better result (stars, then moves).
pub async fn lesson_results_keep_the_best(store: &dyn GameStore) {
    assert!(store.lesson_progress("ann").await.unwrap().is_empty());
    for (player, level, stars, moves) in [
        ("ann", "b-1", 2, 5),
        ("ann", "a-1", 3, 2),
        ("ann", "b-1", 1, 3),
        ("bob", "b-1", 3, 3),
    ] {
        let l = lesson(player, level, stars, moves);
        store.save_lesson_result(&l).await.unwrap();
    }
    assert_eq!(
        store.lesson_progress("ann").await.unwrap(),
        vec![lesson("ann", "a-1", 3, 2), lesson("ann", "b-1", 2, 5)]
    );
    for (stars, moves) in [(2, 4), (3, 9)] {
        let l = lesson("ann", "b-1", stars, moves);
        store.save_lesson_result(&l).await.unwrap();
    }
    assert_eq!(
        store.lesson_progress("ann").await.unwrap()[1],
        lesson("ann", "b-1", 3, 9)
    );
    assert_eq!(store.lesson_progress("bob").await.unwrap().len(), 1);
}

/// A guest who logs in gives the account their lessons, tries and ratings
/// (the account's own rating and better results win).
pub async fn merging_a_guest_moves_what_they_learnt(store: &dyn GameStore) {
    for l in [
        lesson("guest", "a-1", 3, 2),
        lesson("guest", "b-1", 1, 9),
        lesson("member", "b-1", 2, 4),
    ] {
        store.save_lesson_result(&l).await.unwrap();
    }
    // Puzzle ids are unique over the games.
    let rated = |player: &str, variant, r| PuzzleResultWrite {
        attempt: PuzzleAttemptRecord {
            variant,
            ..attempt(
                player,
                if variant == VariantKind::Tensor {
                    "p1"
                } else {
                    "c1"
                },
                5,
                true,
            )
        },
        player: Some(PuzzleRatingWrite {
            before: None,
            after: rating(r, 1),
        }),
        puzzle: None,
    };
    let (tensor, chessence) = (VariantKind::Tensor, VariantKind::Chessence);
    store
        .record_puzzle_attempt(&rated("guest", tensor, 1600.0))
        .await
        .unwrap();
    store
        .record_puzzle_attempt(&rated("guest", chessence, 1700.0))
        .await
        .unwrap();
    store
        .record_puzzle_attempt(&rated("member", tensor, 1400.0))
        .await
        .unwrap();
    store.merge_learning("guest", "member").await.unwrap();
    assert_eq!(
        store.lesson_progress("member").await.unwrap(),
        vec![lesson("member", "a-1", 3, 2), lesson("member", "b-1", 2, 4)]
    );
    assert!(store.lesson_progress("guest").await.unwrap().is_empty());
    assert_eq!(
        store.puzzle_player_rating("member", tensor).await.unwrap(),
        Some(rating(1400.0, 1))
    );
    assert_eq!(
        store
            .puzzle_player_rating("member", chessence)
            .await
            .unwrap(),
        Some(rating(1700.0, 1))
    );
    assert!(store
        .puzzle_player_rating("guest", chessence)
        .await
        .unwrap()
        .is_none());
    assert!(store.puzzle_attempted("member", "c1").await.unwrap());
    assert!(!store.puzzle_attempted("guest", "c1").await.unwrap());
    assert_eq!(
        store
            .recent_puzzle_attempts("member", tensor, 10)
            .await
            .unwrap()
            .len(),
        2
    );
}
