//! The challenge part of the store contract: stored as made, listed for
//! both players while open, accepted once (with its game, together),
//! closed once, expired in time.

use super::*;
use crate::challenge::{ChallengeRecord, ChallengeState};

fn challenge(id: &str, from: &str, to: &str, expires_at: i64) -> ChallengeRecord {
    ChallengeRecord {
        id: id.into(),
        challenger: from.into(),
        challenged: to.into(),
        variant: VariantKind::Tensor,
        clock: Some(ClockSettings {
            base_ms: 300_000,
            increment_ms: 3_000,
        }),
        days: None,
        rated: true,
        color: SeekColor::White,
        created_at: 100,
        expires_at,
        state: ChallengeState::Open,
        client: Some("10.0.0.1".into()),
    }
}

/// A challenge's whole life, in each of its endings.
pub async fn challenges_are_answered_once(store: &dyn GameStore) {
    let c1 = challenge("c1", "ann", "bob", 1_000);
    store.create_challenge(&c1).await.unwrap();
    let c2 = ChallengeRecord {
        clock: None,
        days: Some(3),
        rated: false,
        color: SeekColor::Random,
        variant: VariantKind::Chessence,
        client: None,
        ..challenge("c2", "bob", "ann", 2_000)
    };
    store.create_challenge(&c2).await.unwrap();
    store
        .create_challenge(&challenge("c3", "cat", "dan", 3_000))
        .await
        .unwrap();
    assert_eq!(store.challenge("c1").await.unwrap(), Some(c1.clone()));
    assert_eq!(store.challenge("c2").await.unwrap(), Some(c2.clone()));
    assert_eq!(store.challenge("nope").await.unwrap(), None);
    let ann = store.open_challenges_of("ann", 500).await.unwrap();
    assert_eq!(ann, [c1.clone(), c2.clone()], "made and received");
    assert_eq!(
        store.open_challenges_of("ann", 1_500).await.unwrap(),
        std::slice::from_ref(&c2),
        "c1 lapsed"
    );
    assert_eq!(
        store.open_challenges(1_500).await.unwrap().len(),
        2,
        "c2 and c3"
    );
    // Counted per address while open.
    assert_eq!(
        store.open_challenges_from("10.0.0.1", 500).await.unwrap(),
        2
    );
    assert_eq!(
        store.open_challenges_from("10.0.0.1", 1_500).await.unwrap(),
        1,
        "c1 lapsed"
    );
    assert_eq!(
        store.open_challenges_from("10.0.0.2", 500).await.unwrap(),
        0
    );

    // Accepted once, with its game; a second accept makes no game.
    store
        .accept_challenge("c2", 1_500, &online_game("from-challenge"))
        .await
        .unwrap();
    assert!(store.load_game("from-challenge").await.unwrap().is_some());
    let again = store
        .accept_challenge("c2", 1_500, &online_game("twice"))
        .await
        .unwrap_err();
    assert!(matches!(again, StoreError::Conflict(_)), "{again}");
    assert!(store.load_game("twice").await.unwrap().is_none());
    assert_eq!(
        store.challenge("c2").await.unwrap().unwrap().state,
        ChallengeState::Accepted {
            game: "from-challenge".into()
        }
    );
    // Not accepted once expired.
    let late = store
        .accept_challenge("c1", 1_500, &online_game("late"))
        .await
        .unwrap_err();
    assert!(matches!(late, StoreError::Conflict(_)), "{late}");

    // Declined with a reason, once.
    let declined = ChallengeState::Declined {
        reason: Some("later, please".into()),
    };
    assert!(store.close_challenge("c3", &declined).await.unwrap());
    assert!(!store
        .close_challenge("c3", &ChallengeState::Canceled)
        .await
        .unwrap());
    assert_eq!(
        store.challenge("c3").await.unwrap().unwrap().state,
        declined
    );

    // Expired: listed once, then closed.
    let gone = store.expire_challenges(1_500).await.unwrap();
    assert_eq!(gone.len(), 1);
    assert_eq!(gone[0].id, "c1");
    assert_eq!(gone[0].state, ChallengeState::Expired);
    assert!(store.expire_challenges(5_000).await.unwrap().is_empty());
    assert!(store.open_challenges_of("ann", 0).await.unwrap().is_empty());
}
