//! The event of one move in an online game, as small as it can be: the
//! move (its string, SAN and path), the revision, the clocks and offers,
//! and, only for the side now to move, the legal moves of the new
//! position in a compact form. A page that holds the game up to the move
//! before makes the new state from it; one that does not (its revision
//! does not follow) asks for the whole game. The whole view of a game is
//! several kilobytes (every legal move with its SAN and path); this is a
//! few hundred bytes, and a spectator's has no legal moves at all.
//!
//! The compact legal moves: the move strings (RULES 4.2) grouped by what
//! starts them (the origin square, or `M@` for a drop), each given without
//! that start; beside them only what a page cannot read from a move
//! string: the kinds `castle` (with its rook) and `en_passant`, and the
//! paths of moves that do not simply go from their square to their
//! destination (hop chains, ricochets, propels, castling...). SAN is left
//! out: the Move box asks for the whole game when it needs it.

use super::LiveGame;
use crate::game_views::GameViews;
use crate::views::{HandsView, HistoryEntry, MoveView, PathView, ServerEvent};
use serde::Serialize;
use std::collections::BTreeMap;

/// The part of a move event every subscriber reads.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct MoveEventView {
    /// The game's revision after the move.
    pub rev: i64,
    /// The move, as the game's move list has it.
    #[serde(rename = "move")]
    pub entry: HistoryEntry,
    /// Men in reserve after it (games with drops only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hands: Option<HandsView>,
    /// The clocks after it (games with a clock or days per move).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockTicks>,
    /// The side whose draw offer stands (a move declines the other's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draw_offer: Option<&'static str>,
    /// Whether a player may still abort the game.
    pub can_abort: bool,
    /// The side to move's legal moves (only in its own event).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub legal: Option<CompactLegal>,
}

/// The clocks after a move.
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockTicks {
    /// White's time left (ms).
    pub white_ms: i64,
    /// Black's time left (ms).
    pub black_ms: i64,
    /// The colour whose clock runs, if one does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub running: Option<&'static str>,
    /// The time the side to move has left for its first move, before the
    /// clocks run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_move_ms: Option<i64>,
}

/// A special move's kind and rook (what its move string does not say).
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct SpecialMove {
    /// `castle` or `en_passant`.
    pub kind: &'static str,
    /// The rook a castling moves.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rook: Option<String>,
}

/// A position's legal moves in the compact form (see the module's notes).
#[derive(Serialize, Clone, Debug, PartialEq, Eq, Default)]
pub struct CompactLegal {
    /// Move strings by their start: `{"e2": ["e3", "e4"]}` is `e2e3`, `e2e4`.
    pub moves: BTreeMap<String, Vec<String>>,
    /// The kinds a move string does not tell, by move string.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub special: BTreeMap<String, SpecialMove>,
    /// The paths of moves that are not one piece going straight from its
    /// square to its destination, by move string.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub paths: BTreeMap<String, PathView>,
}

impl CompactLegal {
    /// The compact form of a position's legal moves.
    pub fn of(legal: &[MoveView]) -> CompactLegal {
        let mut out = CompactLegal::default();
        for m in legal {
            let start = match m.uci.find('@') {
                Some(at) => &m.uci[..=at],
                None => m.from.as_str(),
            };
            let rest = m.uci.strip_prefix(start).unwrap_or(&m.uci);
            out.moves
                .entry(start.to_string())
                .or_default()
                .push(rest.to_string());
            if matches!(m.kind, "castle" | "en_passant") {
                out.special.insert(
                    m.uci.clone(),
                    SpecialMove {
                        kind: m.kind,
                        rook: m.rook.clone(),
                    },
                );
            }
            if !plain_path(m) {
                out.paths.insert(m.uci.clone(), m.path.clone());
            }
        }
        out
    }
}

/// Whether a move's path is what a page makes of the move string alone:
/// one piece from its square straight to its destination, taking what
/// stands there, if anything.
fn plain_path(m: &MoveView) -> bool {
    let [route] = m.path.routes.as_slice() else {
        return false;
    };
    matches!(m.kind, "normal" | "promotion")
        && route.squares.len() == 2
        && route.squares[0] == m.from
        && route.squares[1] == m.to
        && m.path.captured.as_ref().is_none_or(|c| *c == m.to)
}

/// The two forms of the event of `lg`'s last move on `topic` (an online
/// game in progress): for everyone, and for the side to move (with its
/// legal moves). `None` when the game has no move.
pub fn move_events(lg: &LiveGame, topic: &str, now: i64) -> Option<(ServerEvent, ServerEvent)> {
    let entry = lg.history().last()?.clone();
    let online = lg.online()?;
    let turn = lg.turn();
    let view = online.view(turn, lg.ply(), lg.is_over(), now, [false, false]);
    let position = lg.game().position_view(lg.is_over());
    let hands = (position.rules.hands).then_some(position.hands);
    let clock = view.clock.map(|c| ClockTicks {
        white_ms: c.white_ms,
        black_ms: c.black_ms,
        running: c.running,
        first_move_ms: c.first_move_ms,
    });
    let everyone = MoveEventView {
        rev: lg.rev(),
        entry,
        hands,
        clock,
        draw_offer: online.record().draw_offer.map(|c| c.name()),
        can_abort: view.can_abort,
        legal: None,
    };
    let to_move = MoveEventView {
        legal: Some(CompactLegal::of(&position.legal)),
        ..everyone.clone()
    };
    let event = |m: MoveEventView| ServerEvent::Move {
        topic: topic.to_string(),
        event: Box::new(m),
    };
    Some((event(everyone), event(to_move)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::views::RouteView;

    fn mv(uci: &str, kind: &'static str, from: &str, to: &str, squares: &[&str]) -> MoveView {
        MoveView {
            uci: uci.into(),
            san: String::new(),
            kind,
            from: from.into(),
            to: to.into(),
            aux: None,
            promotion: None,
            rook: None,
            path: PathView {
                routes: vec![RouteView {
                    piece: "P".into(),
                    squares: squares.iter().map(|s| s.to_string()).collect(),
                }],
                captured: None,
            },
        }
    }

    #[test]
    fn moves_are_grouped_by_start_and_only_unusual_paths_kept() {
        let legal = [
            mv("e2e3", "normal", "e2", "e3", &["e2", "e3"]),
            mv("e2e4", "normal", "e2", "e4", &["e2", "e4"]),
            // A beast's hop chain: its path is kept.
            mv("c3e5", "normal", "c3", "e5", &["c3", "e5", "g3"]),
            mv("M@c2", "drop", "c2", "c2", &["c2"]),
            MoveView {
                rook: Some("j1".into()),
                ..mv("f1h1", "castle", "f1", "h1", &["f1", "h1"])
            },
        ];
        let c = CompactLegal::of(&legal);
        assert_eq!(c.moves["e2"], ["e3", "e4"]);
        assert_eq!(c.moves["c3"], ["e5"]);
        assert_eq!(c.moves["M@"], ["c2"]);
        assert_eq!(c.moves["f1"], ["h1"]);
        assert_eq!(
            c.paths.keys().collect::<Vec<_>>(),
            ["M@c2", "c3e5", "f1h1"],
            "the plain moves' paths are left out"
        );
        assert_eq!(c.special["f1h1"].kind, "castle");
        assert_eq!(c.special["f1h1"].rook.as_deref(), Some("j1"));
        assert!(!c.special.contains_key("e2e4"));
    }
}
