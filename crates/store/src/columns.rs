//! The text forms of typed record fields, shared by the SQL backends: the
//! only place where a colour, a game or an ending becomes a string and back.

use crate::{Ending, StoreError};
use tensorchess_rules::{Color, EndReason, Outcome, VariantKind};

/// The stored name of a colour.
pub fn color_text(c: Color) -> &'static str {
    c.name()
}

/// A colour from its stored name.
pub fn parse_color(s: &str) -> Option<Color> {
    match s {
        "white" => Some(Color::White),
        "black" => Some(Color::Black),
        _ => None,
    }
}

/// The stored name of an end reason (the names pages see too).
pub fn reason_text(r: EndReason) -> &'static str {
    match r {
        EndReason::Checkmate => "checkmate",
        EndReason::NoLegalMoves => "no_legal_moves",
        EndReason::Stalemate => "stalemate",
        EndReason::Repetition => "repetition",
        EndReason::HundredPlies => "hundred_plies",
        EndReason::DeadMaterial => "dead_material",
        EndReason::Resignation => "resignation",
        EndReason::Timeout => "timeout",
        EndReason::Agreement => "agreement",
        EndReason::Abandoned => "abandoned",
    }
}

/// An end reason from its stored name.
pub fn parse_reason(s: &str) -> Option<EndReason> {
    Some(match s {
        "checkmate" => EndReason::Checkmate,
        "no_legal_moves" => EndReason::NoLegalMoves,
        "stalemate" => EndReason::Stalemate,
        "repetition" => EndReason::Repetition,
        "hundred_plies" => EndReason::HundredPlies,
        "dead_material" => EndReason::DeadMaterial,
        "resignation" => EndReason::Resignation,
        "timeout" => EndReason::Timeout,
        "agreement" => EndReason::Agreement,
        "abandoned" => EndReason::Abandoned,
        _ => return None,
    })
}

/// The end reason stored for an imported result.
const IMPORTED: &str = "imported";
/// The end reason of a game a player aborted.
const ABORTED: &str = "aborted";
/// The end reason of a game aborted because a side did not make its first
/// move, after the side's name (`white_did_not_move`).
const NO_FIRST_MOVE: &str = "_did_not_move";

/// The `result` and `end_reason` columns of an ending (`*` and no reason
/// while the game goes on).
pub fn ending_columns(ending: Option<Ending>) -> (&'static str, Option<String>) {
    let Some(e) = ending else {
        return ("*", None);
    };
    let reason = match e {
        Ending::Outcome(o) => reason_text(o.reason()).to_string(),
        Ending::Imported { .. } => IMPORTED.to_string(),
        Ending::Aborted { no_show: None } => ABORTED.to_string(),
        Ending::Aborted { no_show: Some(c) } => format!("{}{NO_FIRST_MOVE}", color_text(c)),
    };
    (e.result_str(), Some(reason))
}

/// The ending stored in the `result` and `end_reason` columns of game `id`.
pub fn parse_ending(
    id: &str,
    result: &str,
    reason: Option<&str>,
) -> Result<Option<Ending>, StoreError> {
    let winner = match result {
        "1-0" => Some(Some(Color::White)),
        "0-1" => Some(Some(Color::Black)),
        "1/2-1/2" => Some(None),
        _ => None,
    };
    let corrupt = || StoreError::Corrupt {
        id: id.to_string(),
        what: format!(
            "unknown result {result} ({})",
            reason.unwrap_or("no reason")
        ),
    };
    let Some(reason) = reason else {
        return match winner {
            None => Ok(None),
            // A result without a reason: as an imported one.
            Some(winner) => Ok(Some(Ending::Imported { winner })),
        };
    };
    if reason == IMPORTED {
        return winner
            .map(|winner| Some(Ending::Imported { winner }))
            .ok_or_else(corrupt);
    }
    if reason == ABORTED {
        return Ok(Some(Ending::Aborted { no_show: None }));
    }
    if let Some(side) = reason.strip_suffix(NO_FIRST_MOVE) {
        let no_show = parse_color(side).ok_or_else(corrupt)?;
        return Ok(Some(Ending::Aborted {
            no_show: Some(no_show),
        }));
    }
    let reason = parse_reason(reason).ok_or_else(corrupt)?;
    Ok(Some(Ending::Outcome(match winner.ok_or_else(corrupt)? {
        Some(winner) => Outcome::Decisive { winner, reason },
        None => Outcome::Draw { reason },
    })))
}

/// A game kind from its stored name.
pub fn parse_variant(id: &str, s: &str) -> Result<VariantKind, StoreError> {
    s.parse().map_err(|_| StoreError::Corrupt {
        id: id.to_string(),
        what: format!("unknown variant {s}"),
    })
}

/// A rating pool from its stored key.
pub fn parse_pool(player: &str, s: &str) -> Result<crate::RatingPool, StoreError> {
    s.parse().map_err(|_| StoreError::Corrupt {
        id: player.to_string(),
        what: format!("unknown rating pool {s}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_ending_reads_back_as_written() {
        let mut endings = vec![
            None,
            Some(Ending::Aborted { no_show: None }),
            Some(Ending::Aborted {
                no_show: Some(Color::Black),
            }),
            Some(Ending::Imported { winner: None }),
            Some(Ending::Imported {
                winner: Some(Color::White),
            }),
        ];
        for reason in [
            EndReason::Checkmate,
            EndReason::Stalemate,
            EndReason::Timeout,
            EndReason::Agreement,
        ] {
            endings.push(Some(Ending::Outcome(Outcome::Draw { reason })));
            endings.push(Some(Ending::Outcome(Outcome::Decisive {
                winner: Color::Black,
                reason,
            })));
        }
        for e in endings {
            let (result, reason) = ending_columns(e);
            assert_eq!(parse_ending("g", result, reason.as_deref()).unwrap(), e);
        }
        assert!(parse_ending("g", "1-0", Some("nonsense")).is_err());
        assert!(parse_ending("g", "*", Some("checkmate")).is_err());
    }
}
