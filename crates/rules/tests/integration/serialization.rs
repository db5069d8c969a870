//! The `serde` feature: the plain values read and write as the names the
//! rest of the project (the server's JSON, its store) uses.
#![cfg(feature = "serde")]

use serde::Serialize;
use serde::de::DeserializeOwned;
use std::fmt::Debug;
use tensorchess_rules::{Color, EndReason, Outcome, Role, VariantKind};

/// `value` is written as the JSON `json` and read back from it.
fn round_trip<T: Serialize + DeserializeOwned + PartialEq + Debug>(value: T, json: &str) {
    assert_eq!(serde_json::to_string(&value).unwrap(), json);
    assert_eq!(serde_json::from_str::<T>(json).unwrap(), value);
}

#[test]
fn colours_games_and_roles_are_their_names() {
    round_trip(Color::White, r#""white""#);
    round_trip(Color::Black, r#""black""#);
    for kind in VariantKind::ALL {
        round_trip(kind, &format!("\"{}\"", kind.name()));
    }
    for role in Role::ALL {
        round_trip(role, &format!("\"{}\"", role.name()));
    }
    assert!(serde_json::from_str::<VariantKind>(r#""xiangqi""#).is_err());
    assert!(serde_json::from_str::<Color>(r#""White""#).is_err());
}

#[test]
fn end_reasons_are_snake_case() {
    let names = [
        (EndReason::Checkmate, "checkmate"),
        (EndReason::NoLegalMoves, "no_legal_moves"),
        (EndReason::Stalemate, "stalemate"),
        (EndReason::Repetition, "repetition"),
        (EndReason::HundredPlies, "hundred_plies"),
        (EndReason::DeadMaterial, "dead_material"),
        (EndReason::Resignation, "resignation"),
        (EndReason::Timeout, "timeout"),
        (EndReason::Agreement, "agreement"),
        (EndReason::Abandoned, "abandoned"),
    ];
    for (reason, name) in names {
        round_trip(reason, &format!("\"{name}\""));
    }
}

#[test]
fn outcomes_are_a_winner_and_a_reason() {
    round_trip(
        Outcome::Decisive {
            winner: Color::Black,
            reason: EndReason::Timeout,
        },
        r#"{"winner":"black","reason":"timeout"}"#,
    );
    round_trip(
        Outcome::Draw {
            reason: EndReason::Repetition,
        },
        r#"{"winner":null,"reason":"repetition"}"#,
    );
}
